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

// minNeedle is the shortest needle worth a test of its own.
const minNeedle = 3

// needleOf returns an ERE for a literal that every value ere matches
// contains, for the scripts to look for before they run ere (see
// pyre.Needle), or "" when there is none of minNeedle bytes or more, or when
// it would decide no more than ere itself.
func needleOf(ere string) string {
	n, exact := pyre.Needle(ere)
	if len(n) < minNeedle || exact {
		return ""
	}
	return pyre.LiteralERE(n, true)
}
