// Package pyregex decides whether a Python re pattern, compiled as hookify
// compiles it (re.compile(pattern, re.IGNORECASE)), finds a match in a
// string (.search). It is the regex engine of hookify's reference
// evaluator.
//
// It is a small Thompson NFA (a Pike VM without captures) over code points,
// built from its own reading of Python's syntax: every rule of Python's
// sre_parse that changes match or no match is reproduced here, and the
// differential test against python3 checks it. Only the answer "matches
// or not" is computed, so greedy and lazy quantifiers are the same, and
// the run time is linear in the subject.
//
// \w, \W, \d, \D, \b and \B read the subject as Python 3's re reads a str:
// a word character is one of the Unicode categories L* and N* or '_'
// (str.isalnum() or '_'), a digit one of Nd, and a boundary is where the
// characters before and after (none at the ends) differ in being word
// characters (neither \b nor \B holds in the empty string, as in _sre up
// to Python 3.13); \s is str.isspace(). With the ASCII flag (?a) they are
// [0-9A-Za-z_], [0-9] and ASCII whitespace. The tables are Go's unicode
// package (Unicode 15.0.0 in Go 1.26), which may be newer than the user's
// Python's (Python 3.11 has 14.0.0): they differ only on code points that
// the older version leaves unassigned, which Python reads as neither word
// characters nor digits.
//
// Differences from Python, by design:
//   - A lookahead is evaluated by an anchored run of its own program at the
//     position, and a lookbehind of width w (Python's fixed width, in code
//     points) by an anchored run from w code points back that must end at
//     the position. A lookahead that can match unboundedly many characters
//     makes the run time quadratic in the subject at worst. Backreferences,
//     conditional and atomic groups, possessive quantifiers, \N{...} and
//     counts over 1000 are refused with an Error whose Unsupported is true.
//   - Python strings are code points; a Go string may hold invalid UTF-8.
//     Each byte that is not part of valid UTF-8 is read as the code point
//     U+DC80+(byte-0x80), as Python's "surrogateescape" decoding reads it
//     (a surrogate: not a word character, a digit or a space).
//   - A quirk of CPython's search is not reproduced: when a pattern that
//     cannot match the empty string begins with a class inside a group
//     whose ASCII or Unicode flag differs from the pattern's, such as
//     (?a:\W) or (?a:\S), _sre tries only the start positions whose
//     character the class admits as read with the pattern's own flag
//     (sre_compile's charset prefix is compiled with the outer flags), so
//     Python's (?a:\D) finds nothing in "٣". Here the group's flag holds.
package pyregex

import (
	"unicode/utf8"
)

// Regexp is a compiled pattern.
type Regexp struct {
	pattern string
	prog    []inst
	start   int
}

// String returns the source pattern.
func (re *Regexp) String() string { return re.pattern }

type iop uint8

const (
	iChar iop = iota
	iSplit
	iJmp
	iAssert
	iLook
	iMatch
)

type inst struct {
	op   iop
	cls  *class
	at   assertion
	x, y int
	look *Regexp // iLook: the lookaround's own program
	neg  bool    // iLook: negative lookaround
	back int     // iLook: a lookbehind's width, else -1
}

// maxInsts bounds the size of the expanded program.
const maxInsts = 1 << 18

// Compile parses pattern with Python's rules and the IGNORECASE flag.
func Compile(pattern string) (*Regexp, error) {
	n, _, err := parse(pattern)
	if err != nil {
		return nil, err
	}
	c := &progBuilder{}
	f := c.compile(n)
	if c.tooBig {
		return nil, &Error{Msg: "the pattern is too large for the evaluator once its counts are expanded", Unsupported: true}
	}
	m := c.emit(inst{op: iMatch})
	c.patch(f.out, m)
	return &Regexp{pattern: pattern, prog: c.prog, start: f.start}, nil
}

// MustCompile is Compile that panics on an error.
func MustCompile(pattern string) *Regexp {
	re, err := Compile(pattern)
	if err != nil {
		panic("pyregex: " + err.Error())
	}
	return re
}

// hole is an unset jump: field x (or y when second) of prog[pc].
type hole struct {
	pc     int
	second bool
}

type frag struct {
	start int
	out   []hole
}

type progBuilder struct {
	prog   []inst
	tooBig bool
}

func (c *progBuilder) emit(in inst) int {
	if len(c.prog) >= maxInsts {
		c.tooBig = true
		c.prog = c.prog[:0] // keep memory bounded; the result is discarded
	}
	c.prog = append(c.prog, in)
	return len(c.prog) - 1
}

func (c *progBuilder) patch(hs []hole, to int) {
	if c.tooBig {
		return
	}
	for _, h := range hs {
		if h.second {
			c.prog[h.pc].y = to
		} else {
			c.prog[h.pc].x = to
		}
	}
}

// empty is a fragment that matches the empty string.
func (c *progBuilder) empty() frag {
	pc := c.emit(inst{op: iJmp})
	return frag{pc, []hole{{pc: pc}}}
}

func (c *progBuilder) compile(n *node) frag {
	if c.tooBig {
		return frag{}
	}
	switch n.op {
	case opEmpty:
		return c.empty()
	case opChar:
		pc := c.emit(inst{op: iChar, cls: n.cls})
		return frag{pc, []hole{{pc: pc}}}
	case opAssert:
		pc := c.emit(inst{op: iAssert, at: n.at})
		return frag{pc, []hole{{pc: pc}}}
	case opLook:
		sub := &progBuilder{}
		f := sub.compile(n.subs[0])
		sub.patch(f.out, sub.emit(inst{op: iMatch}))
		if sub.tooBig {
			c.tooBig = true
			return frag{}
		}
		pc := c.emit(inst{op: iLook, look: &Regexp{prog: sub.prog, start: f.start}, neg: n.neg, back: n.behind})
		return frag{pc, []hole{{pc: pc}}}
	case opCat:
		f := c.compile(n.subs[0])
		for _, s := range n.subs[1:] {
			g := c.compile(s)
			c.patch(f.out, g.start)
			f.out = g.out
		}
		return f
	case opAlt:
		return c.alt(n.subs)
	case opRepeat:
		return c.repeat(n.subs[0], n.min, n.max)
	}
	panic("pyregex: unknown node")
}

func (c *progBuilder) alt(subs []*node) frag {
	if len(subs) == 1 {
		return c.compile(subs[0])
	}
	pc := c.emit(inst{op: iSplit})
	a := c.compile(subs[0])
	b := c.alt(subs[1:])
	if !c.tooBig {
		c.prog[pc].x, c.prog[pc].y = a.start, b.start
	}
	return frag{pc, append(a.out, b.out...)}
}

// repeat expands x{min,max}: min copies, then max-min optional copies or a
// loop. For match or no match, x?x? is the same as (x(x)?)?.
func (c *progBuilder) repeat(x *node, lo, hi int) frag {
	var f frag
	have := false
	then := func(g frag) {
		if !have {
			f, have = g, true
			return
		}
		c.patch(f.out, g.start)
		f.out = g.out
	}
	for i := 0; i < lo && !c.tooBig; i++ {
		then(c.compile(x))
	}
	switch {
	case hi < 0:
		pc := c.emit(inst{op: iSplit})
		body := c.compile(x)
		if !c.tooBig {
			c.prog[pc].x = body.start
		}
		c.patch(body.out, pc)
		then(frag{pc, []hole{{pc: pc, second: true}}})
	default:
		for i := lo; i < hi && !c.tooBig; i++ {
			pc := c.emit(inst{op: iSplit})
			body := c.compile(x)
			if !c.tooBig {
				c.prog[pc].x = body.start
			}
			then(frag{pc, append(body.out, hole{pc: pc, second: true})})
		}
	}
	if !have {
		return c.empty()
	}
	return f
}

// decode reads s as code points; a byte that is not valid UTF-8 becomes
// U+DC80+(byte-0x80).
func decode(s string) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			r = 0xDC00 + rune(s[i])
			size = 1
		}
		out = append(out, r)
		i += size
	}
	return out
}

// MatchString reports whether re.search finds a match in s.
func (re *Regexp) MatchString(s string) bool {
	return re.match(decode(s))
}

// sparse is a set of program counters with O(1) clear.
type sparse struct {
	dense  []int
	sparse []int
}

func newSparse(n int) *sparse { return &sparse{dense: make([]int, 0, n), sparse: make([]int, n)} }

func (s *sparse) has(pc int) bool {
	i := s.sparse[pc]
	return i < len(s.dense) && s.dense[i] == pc
}

func (s *sparse) insert(pc int) {
	s.sparse[pc] = len(s.dense)
	s.dense = append(s.dense, pc)
}

func (s *sparse) clear() { s.dense = s.dense[:0] }

func (re *Regexp) match(s []rune) bool { return re.run(s, 0, false, -1) }

// run reports whether the program matches s from position from: at from
// only when anchored (a lookahead), else at any position from there on.
// run looks for a match starting at from (only there when anchored); with
// end >= 0 a match counts only where it ends at end.
func (re *Regexp) run(s []rune, from int, anchored bool, end int) bool {
	clist, nlist := newSparse(len(re.prog)), newSparse(len(re.prog))
	for i := from; ; i++ {
		if (i == from || !anchored) && re.add(clist, re.start, i, s, end) {
			return true
		}
		if i == len(s) || i == end || anchored && len(clist.dense) == 0 {
			return false
		}
		r := s[i]
		nlist.clear()
		for _, pc := range clist.dense {
			in := &re.prog[pc]
			if in.op == iChar && in.cls.match(r) && re.add(nlist, in.x, i+1, s, end) {
				return true
			}
		}
		clist, nlist = nlist, clist
	}
}

// add follows the empty transitions from pc at position pos, and reports
// whether they reach the match.
func (re *Regexp) add(q *sparse, pc, pos int, s []rune, end int) bool {
	for {
		if q.has(pc) {
			return false
		}
		q.insert(pc)
		in := &re.prog[pc]
		switch in.op {
		case iMatch:
			return end < 0 || pos == end
		case iJmp:
			pc = in.x
		case iSplit:
			if re.add(q, in.x, pos, s, end) {
				return true
			}
			pc = in.y
		case iAssert:
			if !holds(in.at, pos, s) {
				return false
			}
			pc = in.x
		case iLook:
			var holds bool
			if in.back >= 0 {
				holds = pos >= in.back && in.look.run(s, pos-in.back, true, pos)
			} else {
				holds = in.look.run(s, pos, true, -1)
			}
			if holds == in.neg {
				return false
			}
			pc = in.x
		default:
			return false
		}
	}
}

// holds evaluates an assertion at pos, as _sre's SRE(at) does.
func holds(at assertion, pos int, s []rune) bool {
	n := len(s)
	switch at {
	case atBegin:
		return pos == 0
	case atBeginLine:
		return pos == 0 || s[pos-1] == '\n'
	case atEnd:
		return pos == n || pos == n-1 && s[pos] == '\n'
	case atEndLine:
		return pos == n || s[pos] == '\n'
	case atEndString:
		return pos == n
	case atBoundary, atNonBoundary, atBoundaryASCII, atNonBoundaryASCII:
		if n == 0 {
			return false // _sre: neither holds in an empty string
		}
		word := IsWord
		if at == atBoundaryASCII || at == atNonBoundaryASCII {
			word = isWordASCII
		}
		before := pos > 0 && word(s[pos-1])
		after := pos < n && word(s[pos])
		return (before != after) == (at == atBoundary || at == atBoundaryASCII)
	}
	return false
}
