package pyre

import (
	"fmt"
	"strings"
)

// The awk form of an ERE (docs/awk-engines.md §2, §3, §10). Everything in
// pyre's subset (see Validate) means the same in mawk, gawk, BWK awk and
// busybox awk as in bash, with one exception: mawk 1.3.4-20200120 (Debian
// 12, Ubuntu 22.04) reads {n,m} as literal text. AWK writes the counted
// repeats out so that no awk needs intervals.
//
// mawk's matcher backtracks, so the form of an optional run matters: on a
// subject that does not match, X?X?X? tries every subset of the copies, and
// even chunks of nested optionals in a row, (X(X)?)?(X(X)?)?, try every way
// of sharing a count among the chunks (a 100 KB subject took 20 s with
// X{0,50} as three chunks). AWK writes X{0,k} so that each count of copies
// is matched in one way only, or in a few where it cannot (awkOptional).
const (
	// awkNest is the deepest nesting of optionals one expanded repeat
	// may have: mawk's regex compiler runs out of stack at about 31
	// nested groups (mawkCompiles decides for the whole regex).
	awkNest = 10
	// awkMaxOptional is the most optional copies (m-n) AWK writes out.
	// The blocks would do up to 255, but on a long subject that fails
	// mawk tries each count at each start (X{0,100} over 100 KB: 0.5 s,
	// X{0,255}: 1.2 s), where the DFAs of gawk and BWK awk take 0.1 s:
	// past this, the hook is better off preferring an awk with intervals.
	awkMaxOptional = 60
	// awkMaxSize is the longest expanded regex, in bytes.
	awkMaxSize = 32 << 10
)

// AWK returns ere (which must pass Validate) in the form that the regex
// engines of every supported awk read as bash reads ere under LC_ALL=C
// (docs/awk-engines.md §3, §10), as a dynamic regex: a string the caller
// quotes with codegen/awkquote.String and matches with v ~ re.
//
// An ERE without intervals is its own awk form. In one with intervals,
// every {n}, {n,} and {n,m} is written out, printed as ERE prints its
// trees: X{n} as n copies of X, X{n,} as n-1 copies and X+, X{n,m} as n
// copies and awkOptional's form of X{0,m-n}. Where that form would pass
// awkMaxOptional optional copies or awkMaxSize bytes, or nest deeper than mawk's regex compiler can take
// (mawkCompiles), AWK returns ere unchanged with intervals set: the hook
// then needs an awk that has intervals (every supported awk but Debian
// 12's mawk). It does the same for an ERE with intervals and a POSIX
// class, which pyre never writes and AWK cannot reprint exactly.
//
// err is CheckAWK's.
func AWK(ere string) (AWKForm, error) {
	root, text, err := checkAWK(ere)
	if err != nil {
		return AWKForm{}, err
	}
	same := AWKForm{Text: ere, Groups: text.groups, Intervals: text.intervals}
	if !text.intervals || text.classes || root.size() > awkMaxSize {
		return same, nil
	}
	x, ok := awkExpand(root)
	if !ok || x.kind == bNever {
		return same, nil
	}
	re := x.String()
	if len(re) > awkMaxSize {
		return same, nil
	}
	// parseEREText fails where copies put an anchor inside a sequence
	// ((^a){2} is ^a^a), which bash's subset does not allow.
	if _, retext, err := parseEREText(re); err == nil && mawkCompiles(re) {
		return AWKForm{Text: re, Groups: retext.groups}, nil
	}
	return same, nil
}

// AWKForm is the awk form of an ERE, with what the awk backend needs to
// know about its text.
type AWKForm struct {
	// Text is the regex, in pyre's subset (Validate).
	Text string
	// Groups are where each group of Text starts and ends: its "(" and one
	// past its ")", in the order of their "(" (so that a program can define
	// a long group that several of its regexes hold once).
	Groups [][2]int
	// Intervals: Text keeps an interval ({n,m}), which Debian 12's mawk
	// lacks.
	Intervals bool
}

// CheckAWK returns the error AWK would return for ere, without writing its
// form: Validate's error, or that mawk cannot compile ere at all. Lowering
// refuses such a regex; the awk backend writes the form.
func CheckAWK(ere string) error {
	_, _, err := checkAWK(ere)
	return err
}

// checkAWK parses ere for AWK.
func checkAWK(ere string) (*bnode, ereText, error) {
	root, text, err := parseEREText(ere)
	if err != nil {
		return nil, ereText{}, err
	}
	if !mawkCompiles(ere) {
		return nil, ereText{}, fmt.Errorf("its groups nest deeper than mawk's regex compiler allows (%d operators pending at once): write the pattern with fewer nested groups", mawkStack)
	}
	return root, text, nil
}

// awkExpand returns b with every counted repeat written out (see AWK), or
// false when one has more than awkMaxOptional optional copies.
func awkExpand(b *bnode) (*bnode, bool) {
	switch b.kind {
	case bSeq, bAlt:
		subs := make([]*bnode, len(b.subs))
		for i, x := range b.subs {
			var ok bool
			if subs[i], ok = awkExpand(x); !ok {
				return nil, false
			}
		}
		if b.kind == bSeq {
			return seqNode(subs...), true
		}
		return altNode(subs...), true
	case bRep:
		x, ok := awkExpand(b.subs[0])
		switch min, max := b.min, b.max; {
		case !ok:
			return nil, false
		case max < 0 && min <= 1, min == 0 && max == 1: // *, +, ?
			return repNode(x, min, max), true
		case max < 0:
			return seqNode(append(awkCopies(x, min-1), repNode(x, 1, -1))...), true
		case max-min > awkMaxOptional:
			return nil, false
		default:
			return seqNode(append(awkCopies(x, min), awkOptional(x, max-min)...)...), true
		}
	}
	return b, true
}

// awkOptional writes X{0,k}. Where k+1 = c(q+1), it is q nested optional
// blocks of c copies followed by c-1 nested optionals,
//
//	(XX(XX(XX)?)?)?X?      X{0,7}: c = 2, q = 3
//
// which matches a count n = jc+i (j <= q blocks, i < c) in one way only, so
// that a backtracking matcher tries each count once. c is chosen to make
// the deeper of the two nestings the shallowest, and no deeper than
// awkNest; where no c fits k, the largest k' < k that has one takes most
// of the copies and the rest follow (for k <= awkMaxOptional, at most 3,
// so that a count is matched in at most 4 ways).
func awkOptional(x *bnode, k int) []*bnode {
	var parts []*bnode
	for k > 0 {
		k1, c := k, awkBlock(k)
		for c == 0 {
			k1--
			c = awkBlock(k1)
		}
		chain := &bnode{kind: bEmpty}
		for q := (k1+1)/c - 1; q > 0; q-- {
			chain = repNode(seqNode(append(awkCopies(x, c), chain)...), 0, 1)
		}
		parts = append(parts, chain, awkNested(x, c-1))
		k -= k1
	}
	return parts
}

// awkBlock returns the block size c for X{0,k} (see awkOptional), or 0.
func awkBlock(k int) int {
	best, depth := 0, awkNest+1
	for c := 2; c <= k+1; c++ {
		if q := (k+1)/c - 1; (k+1)%c == 0 && max(c-1, q) < depth {
			best, depth = c, max(c-1, q)
		}
	}
	return best
}

// awkNested writes X{0,n} as n nested optionals: (X(X(X)?)?)? for n = 3.
func awkNested(x *bnode, n int) *bnode {
	opt := &bnode{kind: bEmpty}
	for ; n > 0; n-- {
		opt = repNode(seqNode(x, opt), 0, 1)
	}
	return opt
}

func awkCopies(x *bnode, n int) []*bnode {
	xs := make([]*bnode, n)
	for i := range xs {
		xs[i] = x
	}
	return xs
}

// mawkStack is the size of each of the two stacks of mawk's regex compiler
// (STACKSZ in rexp.c, from 1.3.4-20200120 to 20260129 at least).
const mawkStack = 64

// mawk's regex tokens (rexp.h), and the precedence table of its operator
// precedence parser (rexp.c), for the tokens below mTokOperand.
const (
	mTokEnd = iota // T_NONE, the end of the regex
	mTokOr
	mTokCat
	mTokStar
	mTokPlus
	mTokQ
	mTokLP
	mTokRP
	mTokOperand // T_STR, T_CLASS, T_START, T_END, T_ANY, T_U
)

const (
	mPrecL   = 0  // push the incoming operator
	mPrecEQ  = 1  // ( meets )
	mPrecG   = 2  // pop and apply the operator on top
	mPrecErr = -1 // any of mawk's syntax errors
)

var mawkTable = [8][8]int8{
	//        0        |        CAT     *       +       ?       (        )
	/* 0 */ {0, mPrecL, mPrecL, mPrecL, mPrecL, mPrecL, mPrecL, mPrecErr},
	/* | */ {mPrecG, mPrecG, mPrecL, mPrecL, mPrecL, mPrecL, mPrecL, mPrecG},
	/* CAT*/ {mPrecG, mPrecG, mPrecG, mPrecL, mPrecL, mPrecL, mPrecL, mPrecG},
	/* * */ {mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecErr, mPrecG},
	/* + */ {mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecErr, mPrecG},
	/* ? */ {mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecErr, mPrecG},
	/* ( */ {mPrecErr, mPrecL, mPrecL, mPrecL, mPrecL, mPrecL, mPrecL, mPrecEQ},
	/* ) */ {mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecG, mPrecErr, mPrecG},
}

// mawkCompiles reports whether mawk's regex compiler (REcompile in rexp.c)
// compiles re, which must pass Validate, without running out of stack: it
// replays mawk's lexer and parser on re and counts the pending operators
// and machines, which grow with the nesting of groups (mawk fails with
// "regular expression too large" past mawkStack).
func mawkCompiles(re string) bool {
	lx := mawkLexer{s: re, prev: -1}
	var ops [mawkStack]struct{ tok, prec int8 }
	m, op := -1, 0 // indices of the top machine and operator
	t := lx.next()
	for {
		switch {
		case t < 0:
			return false // a syntax error
		case t == mTokOperand:
			m++
		case t == mTokEnd && ops[op].tok == 0:
			return m == 0
		default:
			ops[op].prec = mawkTable[ops[op].tok][t]
			if ops[op].prec == mPrecG {
				for {
					if ops[op].tok <= mTokCat {
						if m == 0 && ops[op].tok == mTokCat {
							op-- // an empty concatenation is ignored
							if ops[op].prec == mPrecL {
								break
							}
							continue
						}
						m--
					}
					if m < 0 {
						return false // missing operand
					}
					op--
					if ops[op].prec == mPrecL {
						break
					}
				}
				continue // the same token, on the new top
			}
			if ops[op].prec < 0 {
				return false
			}
			if op++; op == mawkStack {
				return false // operator stack overflow
			}
			ops[op].tok = int8(t)
		}
		if m == mawkStack-1 {
			return false // machine stack overflow
		}
		t = lx.next()
	}
}

// mawkLexer is mawk's RE_lex (rexp0.c) for the subset: which tokens it
// returns, not the machines it builds.
type mawkLexer struct {
	s    string
	i    int
	prev int // the last token, or one of mLex*; -1 before the first
	nest int // open groups
}

// What mawkLexer.prev tells apart among the operands.
const (
	mLexStart = mTokOperand + 1 + iota // ^
	mLexEnd                            // $ on its own
)

// mawkSpecial are the bytes that end a run of literal characters.
const mawkSpecial = `$()*+.?[\^|`

func (l *mawkLexer) next() int {
	if l.i >= len(l.s) {
		return mTokEnd
	}
	c := l.s[l.i]
	switch c {
	case '*', '+':
		if l.prev == mLexStart {
			return -1 // ^* and ^+ are errors
		}
		l.prev = mTokStar
		if c == '+' {
			l.prev = mTokPlus
		}
		l.i++
		return l.prev
	case '?', '|':
		l.prev = mTokQ
		if c == '|' {
			l.prev = mTokOr
		}
		l.i++
		return l.prev
	case ')':
		if l.nest > 0 {
			l.nest--
			l.i++
			l.prev = mTokRP
			return mTokRP
		}
	case '(':
		switch l.prev {
		case -1, mTokOr, mTokLP, mTokCat, mLexEnd:
			l.nest++
			l.i++
			l.prev = mTokLP
			return mTokLP
		}
		l.prev = mTokCat
		return mTokCat
	}
	switch l.prev { // an operand, after an implicit concatenation
	case -1, mTokOr, mTokLP, mTokCat:
	default:
		l.prev = mTokCat
		return mTokCat
	}
	l.prev = mTokOperand
	switch c {
	case '^':
		l.i++
		l.prev = mLexStart
	case '$':
		l.i++
		l.prev = mLexEnd
		return mTokOperand
	case '[':
		p := &ereParser{s: l.s, i: l.i}
		if _, err := p.bracket(); err != nil {
			return -1
		}
		l.i = p.i
	default: // a run of literal characters, less one before a quantifier
		start := l.i
		last := start // where the last character starts
		l.i = mawkChar(l.s, l.i)
		for l.i < len(l.s) && (l.s[l.i] == '\\' || strings.IndexByte(mawkSpecial, l.s[l.i]) < 0) {
			last = l.i
			l.i = mawkChar(l.s, l.i)
		}
		if last > start && l.i < len(l.s) && strings.IndexByte("*+?", l.s[l.i]) >= 0 {
			l.i = last
		}
	}
	if l.i < len(l.s) && l.s[l.i] == '$' {
		l.i++ // a $ after an operand marks it instead
	}
	return mTokOperand
}

// mawkChar returns the end of the literal character at i: a byte, or a
// backslash and the byte it escapes (Validate allows no other escape).
func mawkChar(s string, i int) int {
	if s[i] == '\\' && i+1 < len(s) {
		return i + 2
	}
	return i + 1
}
