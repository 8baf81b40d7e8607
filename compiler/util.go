package compiler

import (
	"errors"
	"io/fs"
)

// unwrapPathError drops the path from an fs.PathError: diagnostics print
// the path already.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
