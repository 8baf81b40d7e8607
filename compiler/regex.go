package compiler

import (
	"errors"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/pyre"
)

// Translator turns a Python re pattern into a POSIX ERE and the rewrite of
// the value it reads (pyre.Translate's words: "" for the value itself), or
// refuses it with an error that carries a *pyre.Error (its offset in the
// pattern, what and how to rewrite it).
type Translator func(pattern string) (ere, words string, err error)

// DefaultTranslator translates hookify regexes (Python re, always
// case-insensitive) into POSIX EREs with package pyre.
var DefaultTranslator Translator = func(p string) (string, string, error) { return pyre.Translate(p, pyre.IgnoreCase) }

// ERE is tr without the words, for the checks that ask only whether a
// pattern translates.
func (tr Translator) ERE(p string) (string, error) {
	ere, _, err := tr(p)
	return ere, err
}

// regexDiags turns a refused pattern at pos into diagnostics at the
// columns of the constructs: one for each problem of the pattern, so that
// one run reports them all.
func regexDiags(pos diag.Pos, err error) diag.List {
	var pe *pyre.Error
	if !errors.As(err, &pe) {
		return diag.List{{Pos: pos, Severity: diag.Error, Code: diag.Regex, Msg: "cannot translate this pattern exactly: " + err.Error()}}
	}
	var out diag.List
	for _, e := range pe.All() {
		p := pos
		p.Col += e.Offset
		out = append(out, diag.Diagnostic{Pos: p, Severity: diag.Error, Code: diag.Regex, Msg: "cannot translate this pattern exactly: " + e.Msg, Hint: e.Hint})
	}
	return out
}

// setRegex sets the regex forms of c from ere, its translated pattern: the
// ERE itself and its needle, once every awk can run it (the awk backend
// writes its awk form, pyre.AWK).
func setRegex(c *ir.Condition, ere, words string) error {
	if _, table := pyre.TableFor(ere); table {
		// The hooks run its table, not the ERE.
	} else if err := pyre.CheckAWK(ere); err != nil {
		// The ERE is pyre's own, so the one refusal left is mawk's: its
		// regex compiler has a fixed stack.
		return &pyre.Error{Construct: "nesting", Msg: "mawk, which the hooks run where it is installed, cannot compile it: " + err.Error()}
	}
	c.ERE, c.Words, c.Needle = ere, words, needleOf(ere)
	return nil
}

// minNeedle is the shortest needle worth a test of its own.
const minNeedle = 3

// needleOf returns a literal that every value ere matches contains, its
// letters in lower case standing for either case, for the scripts to look
// for before they run ere (see pyre.Needle), or "" when there is none of
// minNeedle bytes or more, or when it would decide no more than ere itself.
func needleOf(ere string) string {
	n, exact := pyre.Needle(ere)
	if len(n) < minNeedle || exact {
		return ""
	}
	return n
}
