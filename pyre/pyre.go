// Package pyre translates Python re patterns into portable POSIX EREs.
//
// hookify matches rule patterns with Python's re.search(pattern, value,
// re.IGNORECASE). The generated hooks must reach the same verdict with the regex
// engine of the awk that runs them (mawk, gawk, BWK awk as on macOS, busybox awk over
// glibc or musl) under LC_ALL=C; ERE's output is also what bash's [[ $value =~ $re ]]
// reads the same way, and AWK gives the form all four awks read alike (intervals
// written out). ERE does that translation at compile time, exactly or not at all:
//
//   - The pattern is parsed with Python 3.11's grammar, including its escapes (\uXXXX,
//     \Z, octal), {,n}, "[[" as a literal, verbose mode and inline and scoped flags.
//   - Every literal, set and '.' becomes the exact set of characters Python matches
//     there, with Python's IGNORECASE rules for str patterns (simple case mappings plus
//     sre's extra cases such as s/ſ, k/K (KELVIN SIGN), i/ı/İ, the Greek symbol
//     variants). That set is written as raw UTF-8 byte sequences, so the ERE is
//     byte-oriented and does not depend on the user's locale or on nocasematch.
//   - Python's newline rules are written out: '.' and [^…] as character sets (so '.'
//     excludes only \n), $ as (\n)?$ (end, or before a final newline), MULTILINE ^ and
//     $ as (^|\n) and (\n|$). Matching is always against the whole value, never by line.
//   - Lazy quantifiers are dropped: they change what is matched, not whether.
//   - \b and \B are kept only where their value follows from the neighbouring
//     characters, or at an edge of the pattern, where they become a bracket on the
//     neighbouring character (sound because only match/no-match matters).
//   - A negative lookahead (?!L) at the end of the match, where L is a fixed
//     sequence of characters or sets, becomes "end, or a character outside L's first
//     set, or one inside it followed by the same for the rest".
//   - Every other lookaround (positive and negative, ahead and behind, anywhere) and
//     every \b \B ^ $ \A \Z that the steps above do not decide goes through an
//     automaton (dfa.go): a minimal DFA over UTF-8 bytes, written back as an ERE by
//     state elimination, or refused as too large.
//   - Everything else is refused with an *Error naming the construct and its offset:
//     backreferences, atomic groups, possessive quantifiers, conditionals, counts
//     over 255, \N{...}, a lookbehind that looks ahead, Python syntax errors
//     (lookbehinds of no fixed width included), and patterns that can never match.
//
// Where mawk or busybox awk could take more than linear time on the ERE (Linear),
// NewTable gives the automaton of its search as a table, which the awk hooks run
// instead (table.go, templates/table.awk).
//
// The emitted ERE uses only the portable subset (see Validate). \w, \W, \d, \D,
// \b and \B are Python's Unicode ones: a pattern that uses them is translated for
// the value as Rewrite writes it, where each non-ASCII letter or digit is one byte
// that UTF-8 never uses (words.go); Translate returns how ("words"), and an ASCII
// value reads the same either way. \s is exact (Unicode whitespace), and everything
// else, including case folding of non-ASCII letters, is exact on valid UTF-8 input.
// Case mappings and classes come from Go's unicode package (Unicode 15.0); Python
// 3.11 uses Unicode 14.0, whose case mappings are the same, and reads the letters
// and digits 15.0 added as non-word characters.
package pyre

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// Flags are Python regex flags applied from outside the pattern.
type Flags uint8

const (
	IgnoreCase Flags = 1 << iota // re.IGNORECASE: hookify always passes it
)

// Error is a refusal: the pattern cannot be matched exactly by the target.
type Error struct {
	Offset    int    // byte offset in the pattern where the construct starts (0-based)
	Construct string // short name: "lookahead", "backreference", "count over 255", ...
	Msg       string // one sentence, lower case, no trailing period: what and why
	Hint      string // how the author can rewrite it (may be empty)
	// Others are the pattern's other refusals, by offset, so that one run
	// reports every problem of a pattern (README, "A rule that does not compile"). Set only on the
	// first: the one ERE and AWK return.
	Others []*Error
}

// All returns e and its Others, by offset.
func (e *Error) All() []*Error {
	return append([]*Error{e}, e.Others...)
}

// joinErrors returns the first of errs, by offset, holding the others.
func joinErrors(errs []*Error) *Error {
	if len(errs) == 0 {
		return nil
	}
	sorted := append([]*Error(nil), errs...)
	slices.SortStableFunc(sorted, func(a, b *Error) int { return a.Offset - b.Offset })
	first := *sorted[0]
	first.Others = nil
	for _, e := range sorted[1:] {
		if e.Offset == first.Offset && e.Construct == first.Construct {
			continue
		}
		o := *e
		o.Others = nil
		first.Others = append(first.Others, &o)
	}
	return &first
}

// Error returns the message and the 1-based byte column of the construct.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (at pattern column %d)", e.Msg, e.Offset+1)
}

// ERE translates a Python pattern (as re.search(p, v, flags) would use it) into a
// POSIX ERE as bash's [[ $v =~ $re ]] reads it under LC_ALL=C, matched against the
// whole value (AWK gives the form every awk reads the same way): Translate
// without its words, for a pattern that reads no Unicode class (for one that
// does, the ERE reads the rewritten value). The error, when not nil, is always an *Error.
func ERE(pattern string, flags Flags) (string, error) {
	ere, _, err := Translate(pattern, flags)
	return ere, err
}

// Translate translates a Python pattern (as re.search(p, v, flags) would use
// it) into a POSIX ERE as bash's [[ $v =~ $re ]] reads it under LC_ALL=C,
// matched against the whole value (AWK gives the form every awk reads the
// same way). When words is "", the ERE matches exactly the values (valid
// UTF-8) on which Python's search finds a match. A pattern that reads
// Python's Unicode \w, \d, \b or \B has words: its ERE matches Rewrite(words,
// v) exactly when Python's search matches v (words.go). The error, when not
// nil, is always an *Error.
func Translate(pattern string, flags Flags) (ere, words string, err error) {
	key := translationKey{pattern, flags}
	if v, ok := translations.Load(key); ok {
		t := v.(translation)
		if t.err != nil {
			e := *t.err // a copy: the caller may change it
			return "", "", &e
		}
		return t.ere, t.words, nil
	}
	ere, words, _, perr := translatePattern(pattern, flags)
	if translated.Add(1) <= maxCached {
		translations.Store(key, translation{ere, words, perr})
	}
	if perr != nil {
		e := *perr
		return "", "", &e
	}
	return ere, words, nil
}

// A process translates each pattern once (the first maxCached asked are
// kept): a build asks again for the patterns of every hook it writes,
// watch rebuilds the same rules at each save, and the tests translate the
// same patterns in several checks.
type translationKey struct {
	pattern string
	flags   Flags
}

type translation struct {
	ere, words string
	err        *Error
}

var (
	translations sync.Map // translationKey → translation
	translated   atomic.Int64
)

// translatePattern is Translate that also returns the parsed pattern (nil when
// the parser refused it for other reasons than a lookaround).
func translatePattern(pattern string, flags Flags) (ere, words string, root *node, err *Error) {
	if flags&^IgnoreCase != 0 {
		return "", "", nil, &Error{Construct: "flags", Msg: fmt.Sprintf("unsupported flags %#x", uint8(flags))}
	}
	var ext pyFlags
	if flags&IgnoreCase != 0 {
		ext |= flagIgnoreCase
	}
	root, perr := parse(pattern, ext)
	if perr != nil && !perr.zeroWidth() {
		return "", "", nil, perr.withoutDFA()
	}
	var alpha *alphabet
	if unicodeSensitive(root) {
		alpha = newAlphabet(root)
	}
	t := &translator{alpha: alpha}
	b, terr := t.translate(root)
	errs := perr.list()
	if terr != nil && (perr == nil || terr.Construct != "never matches") {
		errs = append(errs, terr.All()...)
	}
	if all := joinErrors(errs); all != nil && all.onlyDFA() {
		db, big, derr := viaDFA(root, all, alpha)
		if derr == nil && big && db.kind != bNever {
			// Over maxDFAERE atoms, it may still run as a table, which
			// has limits of its own.
			if _, ok := TableFor(db.String()); !ok {
				derr = errTooLarge("its ERE is too large")
				if all.Offset != 0 {
					derr.Offset = all.Offset
				}
			}
		}
		if derr != nil {
			return "", "", root, derr
		}
		if db.kind == bNever {
			return "", "", root, &Error{Offset: 0, Construct: "never matches", Msg: "the pattern can never match",
				Hint: "the rule could never fire; fix the pattern or remove the rule"}
		}
		b, perr, terr = db, nil, nil
	} else if all != nil {
		return "", "", root, all.withoutDFA()
	}
	if perr != nil {
		// Every refusal of the parser is of a lookaround, which it read as
		// empty: zero-width, it changes no neighbour of the constructs the
		// translator refuses, so those are this pattern's problems too.
		errs := perr.All()
		if terr != nil && terr.Construct != "never matches" {
			errs = append(errs, terr.All()...)
		}
		return "", "", root, joinErrors(errs)
	}
	if terr != nil {
		return "", "", root, terr
	}
	ere = b.String()
	if err := Validate(ere); err != nil {
		return "", "", root, &Error{Construct: "internal error",
			Msg: "internal error: the translated regex is outside the portable subset: " + err.Error()}
	}
	return ere, alpha.spec(), root, nil
}

func (e *Error) list() []*Error {
	if e == nil {
		return nil
	}
	return e.All()
}

// onlyDFA reports whether every refusal of e is one the automaton path builds.
func (e *Error) onlyDFA() bool {
	for _, x := range e.All() {
		if !dfaRefusals[x.Construct] {
			return false
		}
	}
	return true
}

// withoutDFA drops the refusals the automaton path builds when others remain:
// those are the pattern's problems.
func (e *Error) withoutDFA() *Error {
	var rest []*Error
	for _, x := range e.All() {
		if !dfaRefusals[x.Construct] {
			rest = append(rest, x)
		}
	}
	if len(rest) == 0 {
		return e
	}
	return joinErrors(rest)
}
