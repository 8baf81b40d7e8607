package compiler

import (
	"errors"

	"github.com/hookify/hookify/pyre"
)

// DefaultTranslator translates hookify regexes (Python re, always
// case-insensitive) into POSIX EREs with package pyre.
var DefaultTranslator Translator = func(p string) (string, *RegexError) {
	ere, err := pyre.ERE(p, pyre.IgnoreCase)
	if err == nil {
		return ere, nil
	}
	var pe *pyre.Error
	if errors.As(err, &pe) {
		return "", &RegexError{Offset: pe.Offset, Msg: "cannot translate this pattern exactly: " + pe.Msg, Hint: pe.Hint}
	}
	return "", &RegexError{Msg: err.Error()}
}
