package pyre

import "strings"

// Needle finds a literal for a cheap prefilter in front of a regex test: the
// generated scripts run [[ $v =~ $lit ]], with lit = LiteralERE(needle, true),
// before [[ $v =~ $ere ]], and skip the slow regex when the literal is not there.
//
// Soundness is the whole point: a needle that some match does not contain would let
// a blocked value through. The analysis therefore only ever over-approximates what
// a node matches, and a needle position stands for a set of bytes that contains
// every byte the regex can match there.

// Needle returns a literal that every string ere matches contains, for a cheap
// prefilter in front of the regex. In needle, each ASCII letter stands for either
// case of itself (it is always returned in lower case) and every other byte
// stands for itself. exact reports that ere matches exactly the strings that
// contain the needle, so the regex test can be skipped. needle is "" when ere has
// no such literal. ere must pass Validate; Needle returns "", false otherwise.
//
// Any contiguous part of a needle is a needle too (with exact false), so a caller
// may shorten it.
func Needle(ere string) (needle string, exact bool) {
	root, err := parseERE(ere)
	if err != nil {
		return "", false
	}
	needle = factorsOf(root).best
	return needle, needle != "" && isPlainLiteral(root)
}

// maxRepeatNeedle caps how long a literal written out from a counted repeat such as
// [Aa]{200} may grow.
const maxRepeatNeedle = 32

// needleByte says how a position that matches one byte from s is written in a
// needle: a single non-letter byte as itself, {X, x} as x, and a single letter as
// its lower case, which stands for more than the position matches (loose). ok is
// false for every other set, and for the bytes Rewrite writes: the needle
// cannot cross that position.
func needleByte(s byteSet) (b byte, ok, loose bool) {
	switch s.count() {
	case 1:
		for c := 1; c < 256; c++ {
			if s.has(byte(c)) {
				b = byte(c)
			}
		}
		if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' {
			return b | 0x20, true, true
		}
		if rewriteBytes.has(b) {
			// A byte of Rewrite (words.go): the needle is looked for in
			// the value itself, which does not hold it.
			return 0, false, false
		}
		return b, true, false
	case 2:
		for c := byte('a'); c <= 'z'; c++ {
			if s.has(c) && s.has(c-0x20) {
				return c, true, false
			}
		}
	}
	return 0, false, false
}

// factors is what the analysis knows about every string a node matches, each
// string read as a needle (see needleByte). An empty string means "nothing known".
type factors struct {
	exact bool   // every match has exactly len(pre) positions, spelled by pre
	pre   string // every match starts with pre
	suf   string // every match ends with suf
	best  string // every match contains best: the longest literal found, the earliest on ties
}

// literal is the factors of a node that matches one fixed needle string.
func literal(s string) factors { return factors{exact: true, pre: s, suf: s, best: s} }

// longest returns the longest of its arguments, the first one on ties.
func longest(ss ...string) string {
	best := ""
	for _, s := range ss {
		if len(s) > len(best) {
			best = s
		}
	}
	return best
}

// factorsOf computes the factors of a node from those of its parts.
//
//   - A byte set is a literal of one position when needleByte admits it, and
//     unknown otherwise.
//   - ^ and $ match only the empty string: the empty literal. That lets the parts on
//     either side join, which is sound: in a match of x^y, x's text is immediately
//     followed by y's.
//   - A sequence xy: every match is a match of x followed by one of y, so it
//     contains x's suffix immediately followed by y's prefix; it starts with x's
//     prefix (or all of x, then y's prefix, if x is a literal) and ends likewise.
//   - A repeat with min 0 can match the empty string: nothing is known. With min >=
//     1 every match is x1 x2 ... xk with k >= min, so it starts with x's prefix, ends
//     with x's suffix and contains x's best factor, and with min >= 2 also x's suffix
//     followed by x's prefix; if x is a literal L it is L^k, so it starts and ends
//     with L^min, and is exactly that when min == max.
//   - An alternation: every match is a match of one alternative, so it starts with
//     the longest prefix that all the alternatives' prefixes share, and ends with
//     the longest shared suffix. Nothing more is assumed.
func factorsOf(n *bnode) factors {
	switch n.kind {
	case bBOL, bEOL, bEmpty:
		return literal("")
	case bBytes:
		if b, ok, _ := needleByte(n.set); ok {
			return literal(string([]byte{b}))
		}
	case bSeq:
		acc := literal("")
		for _, x := range n.subs {
			acc = concatFactors(acc, factorsOf(x))
		}
		return acc
	case bRep:
		if n.min == 0 {
			break
		}
		x := factorsOf(n.subs[0])
		if !x.exact {
			best := x.best
			if n.min >= 2 {
				best = longest(best, x.suf+x.pre)
			}
			return factors{pre: x.pre, suf: x.suf, best: best}
		}
		if x.pre == "" {
			return literal("")
		}
		k := min(n.min, max(1, maxRepeatNeedle/len(x.pre)))
		s := strings.Repeat(x.pre, k)
		if n.min == n.max && k == n.min {
			return literal(s)
		}
		return factors{pre: s, suf: s, best: s}
	case bAlt:
		f := factorsOf(n.subs[0])
		for _, x := range n.subs[1:] {
			g := factorsOf(x)
			f = factors{
				exact: f.exact && g.exact && f.pre == g.pre,
				pre:   commonPrefix(f.pre, g.pre),
				suf:   commonSuffix(f.suf, g.suf),
			}
		}
		f.best = longest(f.pre, f.suf)
		return f
	}
	return factors{} // bNever, and sets no needle can hold
}

// concatFactors is the factors of xy.
func concatFactors(x, y factors) factors {
	if x.exact && y.exact {
		return literal(x.pre + y.pre)
	}
	f := factors{pre: x.pre, suf: y.suf}
	if x.exact {
		f.pre = x.pre + y.pre
	}
	if y.exact {
		f.suf = x.suf + y.pre
	}
	f.best = longest(x.best, x.suf+y.pre, y.best)
	return f
}

func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

func commonSuffix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return a[len(a)-i:]
}

// isPlainLiteral reports whether the tree is one sequence of byte positions that
// each match exactly what their needle byte stands for (a non-letter byte, or a
// letter in both cases): then a value matches iff it contains the needle. Anchors,
// quantifiers and alternations are never plain, even where they would be harmless.
func isPlainLiteral(n *bnode) bool {
	subs := []*bnode{n}
	if n.kind == bSeq {
		subs = n.subs
	}
	for _, x := range subs {
		if x.kind != bBytes {
			return false
		}
		if _, ok, loose := needleByte(x.set); !ok || loose {
			return false
		}
	}
	return true
}
