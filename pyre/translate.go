package pyre

import "fmt"

// This file turns the parsed Python pattern into a byte-level ERE tree:
//
//  1. resolve: every literal, set and '.' becomes the exact set of characters Python
//     matches there (case folding included); groups disappear.
//  2. strip: re.search is unanchored at both ends, so a part at the start or end of
//     the pattern that can match the empty string anywhere (.*, \s*, x?, ...) can be
//     dropped, and x{2,5} at an edge can become x{2}. This is exact and puts the
//     assertions that really sit at an edge next to it.
//  3. analyze: for every assertion (^ $ \A \Z \b \B), compute which characters can
//     come before and after it inside the pattern, or whether it touches the
//     pattern's unanchored edge.
//  4. decide and emit: an assertion whose truth follows from its neighbours is
//     dropped (always true) or makes its branch fail (never true); at an edge it is
//     written with ERE anchors or by consuming the neighbouring character, which is
//     sound because only match/no-match matters and nothing else is there; anything
//     else is refused.

// Limits of the target.
const (
	maxCount = 255   // RE_DUP_MAX on macOS and musl
	maxSize  = 50000 // expanded ERE atoms; larger regexes are slow to compile or rejected
)

var allRunes = span(0, maxRune)

// unmatchable holds the code points that never occur in a bash value that is valid
// UTF-8: NUL (a shell variable cannot hold it) and the surrogates.
var unmatchable = newRuneSet(rrange{0, 0}, rrange{0xD800, 0xDFFF})

type translator struct {
	alpha      *alphabet // the rewritten alphabet (words.go), or nil
	prev, next map[*node]ctx
	refusals   []*Error // every construct refused
	never      *Error   // the first reason a part can never match
}

func (t *translator) refuse(e *Error) {
	t.refusals = append(t.refusals, e)
}

func (t *translator) noteNever(pos int, msg string) {
	if t.never == nil || pos < t.never.Offset {
		t.never = &Error{Offset: pos, Construct: "never matches", Msg: msg,
			Hint: "the rule could never fire; fix the pattern or remove the rule"}
	}
}

// resolve replaces literals, sets and '.' by opSet nodes, removes groups and empty
// items, and flattens nested sequences.
func (t *translator) resolve(n *node) *node {
	switch n.op {
	case opGroup:
		return t.resolve(n.subs[0])
	case opLook:
		return &node{op: opEmpty, pos: n.pos}
	case opNotAhead:
		// Refused in emit when the body is not a sequence of sets: the node must stay,
		// since a zero-width refusal could otherwise be stripped away.
		look, ok := lookItems(n.subs[0])
		for i := range look {
			look[i] = t.alpha.of(look[i])
		}
		return &node{op: opNotAhead, pos: n.pos, flags: n.flags, look: look, neg: !ok}
	case opLiteral, opClass, opAny:
		s := itemSet(n)
		real := s.minus(unmatchable)
		if real.empty() {
			if s.has(0) {
				t.noteNever(n.pos, "this item matches only NUL, which a shell value cannot contain")
			} else {
				t.noteNever(n.pos, "this item matches no character")
			}
		}
		return &node{op: opSet, pos: n.pos, flags: n.flags, set: t.alpha.of(real)}
	case opConcat:
		var subs []*node
		for _, s := range n.subs {
			r := t.resolve(s)
			switch r.op {
			case opEmpty:
			case opConcat:
				subs = append(subs, r.subs...)
			default:
				subs = append(subs, r)
			}
		}
		if len(subs) == 0 {
			return &node{op: opEmpty, pos: n.pos}
		}
		if len(subs) == 1 {
			return subs[0]
		}
		return &node{op: opConcat, pos: n.pos, flags: n.flags, subs: subs}
	case opAlt:
		subs := make([]*node, len(n.subs))
		for i, s := range n.subs {
			subs[i] = t.resolve(s)
		}
		return &node{op: opAlt, pos: n.pos, flags: n.flags, subs: subs}
	case opRepeat:
		c := *n
		c.subs = []*node{t.resolve(n.subs[0])}
		return &c
	}
	return n
}

const lookHint = "write (?!...) with single characters or sets only, at the end of the pattern or of an alternative; " +
	"or, to exclude text anywhere in the field, add a second condition on the same field with operator not_contains (plain text) or not_regex_match (every condition of a rule must hold)"

// itemSet is the set of characters Python matches at a literal, set or '.'.
func itemSet(n *node) runeSet {
	switch n.op {
	case opLiteral:
		s := literalSet(n.r, n.flags)
		if n.neg {
			s = s.complement()
		}
		return s
	case opClass:
		return classSet(n.items, n.neg, n.flags)
	}
	return anySet(n.flags)
}

// lookItems reads the body of a negative lookahead as a sequence of one-character
// items, or reports that it is something else.
func lookItems(n *node) ([]runeSet, bool) {
	switch n.op {
	case opEmpty:
		return nil, true
	case opGroup:
		return lookItems(n.subs[0])
	case opLiteral, opClass, opAny:
		return []runeSet{itemSet(n).minus(unmatchable)}, true
	case opConcat:
		var out []runeSet
		for _, s := range n.subs {
			items, ok := lookItems(s)
			if !ok {
				return nil, false
			}
			out = append(out, items...)
		}
		return out, true
	}
	return nil, false
}

// nullAny reports whether n can match the empty string at every position, whatever
// surrounds it (no assertion involved).
func nullAny(n *node) bool {
	switch n.op {
	case opEmpty:
		return true
	case opConcat:
		for _, s := range n.subs {
			if !nullAny(s) {
				return false
			}
		}
		return true
	case opAlt:
		for _, s := range n.subs {
			if nullAny(s) {
				return true
			}
		}
		return false
	case opRepeat:
		return n.min == 0 || n.max == 0 || nullAny(n.subs[0])
	}
	return false
}

// strip removes what is not needed at one edge of the pattern (right edge when
// right is true). The caller drops the result when it is nullAny.
func strip(n *node, right bool) *node {
	switch n.op {
	case opConcat:
		subs := append([]*node(nil), n.subs...)
		for len(subs) > 0 {
			i := 0
			if right {
				i = len(subs) - 1
			}
			s := strip(subs[i], right)
			if !nullAny(s) {
				subs[i] = s
				break
			}
			subs = append(subs[:i], subs[i+1:]...)
		}
		if len(subs) == 0 {
			return &node{op: opEmpty, pos: n.pos}
		}
		if len(subs) == 1 {
			return subs[0]
		}
		c := *n
		c.subs = subs
		return &c
	case opAlt:
		c := *n
		c.subs = make([]*node, len(n.subs))
		for i, s := range n.subs {
			c.subs[i] = strip(s, right)
		}
		return &c
	case opRepeat:
		if nullAny(n) {
			return n
		}
		// The first min copies already give a match that ends (or starts) here.
		if n.min == 1 {
			return strip(n.subs[0], right)
		}
		c := *n
		c.max = n.min
		return &c
	}
	return n
}

// ctx describes what can be next to a position, on one side.
type ctx struct {
	edge bool    // the pattern's unanchored edge: any subject character, or none
	bnd  bool    // the start (or end) of the subject
	cs   runeSet // characters the pattern matches there
}

func (a ctx) union(b ctx) ctx {
	return ctx{edge: a.edge || b.edge, bnd: a.bnd || b.bnd, cs: a.cs.union(b.cs)}
}
func (a ctx) equal(b ctx) bool {
	return a.edge == b.edge && a.bnd == b.bnd && a.cs.equal(b.cs)
}
func (a ctx) impossible() bool { return !a.edge && !a.bnd && a.cs.empty() }
func (a ctx) pureEdge() bool   { return a.edge && !a.bnd && a.cs.empty() }

// unedge is the context after an assertion: the edge is still there, but another
// assertion next to it no longer touches the edge itself.
func (a ctx) unedge() ctx {
	if a.edge {
		return ctx{bnd: true, cs: allRunes}
	}
	return a
}

// words splits a context into whether a word and a non-word neighbour is possible.
func (a ctx) words(w runeSet) (word, nonword bool) {
	return a.cs.overlaps(w), a.bnd || !a.cs.minus(w).empty()
}

// analyze walks forwards (computing what precedes each assertion) or backwards
// (what follows it). in is the context before n in the walking direction.
func (t *translator) analyze(n *node, in ctx, forward bool) ctx {
	switch n.op {
	case opEmpty:
		return in
	case opSet:
		return ctx{cs: n.set}
	case opConcat:
		if forward {
			for _, s := range n.subs {
				in = t.analyze(s, in, forward)
			}
		} else {
			for i := len(n.subs) - 1; i >= 0; i-- {
				in = t.analyze(n.subs[i], in, forward)
			}
		}
		return in
	case opAlt:
		var out ctx
		for _, s := range n.subs {
			out = out.union(t.analyze(s, in, forward))
		}
		return out
	case opRepeat:
		if n.max == 0 {
			return in
		}
		cur := in
		var out ctx
		for {
			out = t.analyze(n.subs[0], cur, forward)
			if n.max == 1 {
				break
			}
			nxt := in.union(out)
			if nxt.equal(cur) {
				break
			}
			cur = nxt
		}
		if n.min == 0 {
			out = out.union(in)
		}
		return out
	case opNotAhead:
		if !forward {
			t.next[n] = t.next[n].union(in)
		}
		return in.unedge()
	case opAt:
		m := t.next
		if forward {
			m = t.prev
		}
		m[n] = m[n].union(in)
		return assertFilter(n, in.unedge(), forward)
	}
	panic("pyre: unexpected node in analyze")
}

// assertFilter narrows a context by what an assertion guarantees.
func assertFilter(n *node, c ctx, forward bool) ctx {
	nl := runes('\n')
	ml := n.flags&flagMultiline != 0
	switch {
	case forward && n.at == atBeginningString, forward && n.at == atBeginning && !ml:
		return ctx{bnd: c.bnd}
	case forward && n.at == atBeginning:
		return ctx{bnd: c.bnd, cs: c.cs.intersect(nl)}
	case !forward && n.at == atEndString:
		return ctx{bnd: c.bnd}
	case !forward && n.at == atEnd && !ml:
		if c.cs.has('\n') {
			return ctx{bnd: c.bnd, cs: nl}
		}
		return ctx{bnd: c.bnd}
	case !forward && n.at == atEnd:
		return ctx{bnd: c.bnd, cs: c.cs.intersect(nl)}
	}
	return c
}

// action is how one assertion is written.
type action uint8

const (
	actDrop         action = iota // always true here
	actNever                      // never true here
	actBOL                        // ^
	actEOL                        // $
	actOptNLEOL                   // (\n)?$   Python's $ at the end
	actBOLorNL                    // (^|\n)   (?m)^ at the start
	actNLorEOL                    // (\n|$)   (?m)$ at the end
	actWordByte                   // [0-9A-Z_a-z]: the neighbour is a word character
	actWordAfter                  // the same, for the character after the match
	actNonWordOrBOL               // (^|[^0-9A-Z_a-z])
	actNonWordOrEOL               // ([^0-9A-Z_a-z]|$)
)

// describe names an assertion for messages.
func describe(n *node) string {
	ml := n.flags&flagMultiline != 0
	switch n.at {
	case atBeginning:
		if ml {
			return "(?m)^"
		}
		return "^"
	case atBeginningString:
		return `\A`
	case atEnd:
		if ml {
			return "(?m)$"
		}
		return "$"
	case atEndString:
		return `\Z`
	case atBoundary:
		return `\b`
	}
	return `\B`
}

// decide chooses the action for an assertion from its two contexts, or refuses.
func (t *translator) decide(n *node) (action, *Error) {
	P, N := t.prev[n], t.next[n]
	name := describe(n)
	if P.impossible() || N.impossible() {
		return actNever, nil
	}
	refuseStart := &Error{Offset: n.pos, Construct: "anchor not at the start",
		Msg:  name + " is not at the start of the pattern or of an alternative, and what precedes it does not decide it",
		Hint: "move " + name + " to the start of the pattern or of an alternative"}
	refuseEnd := &Error{Offset: n.pos, Construct: "anchor not at the end",
		Msg:  name + " is not at the end of the pattern or of an alternative, and what follows it does not decide it",
		Hint: "move " + name + " to the end of the pattern or of an alternative, or use \\Z"}
	ml := n.flags&flagMultiline != 0
	nlOnly := func(c ctx) (ok, other bool) {
		return c.bnd || c.cs.has('\n'), !c.cs.minus(runes('\n')).empty()
	}
	switch {
	case n.at == atBeginningString, n.at == atBeginning && !ml:
		switch {
		case P.pureEdge():
			return actBOL, nil
		case P.edge:
			return 0, refuseStart
		case !P.bnd:
			return actNever, nil
		case P.cs.empty():
			return actDrop, nil
		}
		return 0, refuseStart
	case n.at == atBeginning:
		if P.pureEdge() {
			return actBOLorNL, nil
		}
		if P.edge {
			return 0, refuseStart
		}
		ok, other := nlOnly(P)
		if !ok {
			return actNever, nil
		}
		if !other {
			return actDrop, nil
		}
		return 0, refuseStart
	case n.at == atEndString:
		switch {
		case N.pureEdge():
			return actEOL, nil
		case N.edge:
			return 0, refuseEnd
		case !N.bnd:
			return actNever, nil
		case N.cs.empty():
			return actDrop, nil
		}
		return 0, refuseEnd
	case n.at == atEnd && !ml:
		switch {
		case N.pureEdge():
			return actOptNLEOL, nil
		case N.edge:
			return 0, refuseEnd
		case !N.bnd && !N.cs.has('\n'):
			return actNever, nil
		case N.bnd && N.cs.empty():
			return actDrop, nil
		}
		return 0, refuseEnd
	case n.at == atEnd:
		if N.pureEdge() {
			return actNLorEOL, nil
		}
		if N.edge {
			return 0, refuseEnd
		}
		ok, other := nlOnly(N)
		if !ok {
			return actNever, nil
		}
		if !other {
			return actDrop, nil
		}
		return 0, refuseEnd
	}
	// \b and \B
	w := wordChars(n.flags)
	if t.alpha != nil && n.flags&flagASCII == 0 {
		w = t.alpha.word()
	}
	pW, pN := P.words(w)
	nW, nN := N.words(w)
	boundary := n.at == atBoundary
	refuseB := &Error{Offset: n.pos, Construct: "word boundary",
		Msg: name + " is not at an edge of the pattern, and a character next to it can be a word or a non-word character: " +
			"hookify does not translate that into an ERE (an exact one exists, but hookify does not build it yet)",
		Hint: "make the character next to " + name + " one kind: a word character or a non-word character (e.g. \\s); " +
			"where only the character after or before it varies, write that character as a set: printf\\b[^\\n]*> as printf(?:[^\\w\\n][^\\n]*)?>, and force.*\\bmain as force.*[^\\w\\n]main"}
	switch {
	case P.pureEdge() && N.pureEdge():
		return 0, refuseB
	case P.pureEdge():
		switch {
		case N.edge || nW == nN:
			if !nW && !nN {
				return actNever, nil
			}
			return 0, refuseB
		case nW == boundary:
			// \b before a word char, or \B before a non-word char: the previous
			// character must be a non-word character, or the start.
			if !boundary && N.bnd {
				return 0, refuseB // \B never holds in an empty subject
			}
			return actNonWordOrBOL, nil
		default:
			return actWordByte, nil
		}
	case N.pureEdge():
		switch {
		case P.edge || pW == pN:
			if !pW && !pN {
				return actNever, nil
			}
			return 0, refuseB
		case pW == boundary:
			if !boundary && P.bnd {
				return 0, refuseB
			}
			return actNonWordOrEOL, nil
		default:
			return actWordAfter, nil
		}
	case P.edge || N.edge || pW == pN || nW == nN:
		return 0, refuseB
	}
	// Both sides decided.
	if (pW != nW) == boundary {
		if !boundary && P.bnd && N.bnd {
			return 0, refuseB // could be the empty subject, where \B fails
		}
		return actDrop, nil
	}
	return actNever, nil
}

// translate runs the pipeline on a parsed pattern.
func (t *translator) translate(root *node) (*bnode, *Error) {
	n := t.resolve(root)
	n = strip(n, true)
	if !nullAny(n) {
		n = strip(n, false)
	}
	if nullAny(n) {
		return &bnode{kind: bEmpty}, nil
	}
	t.prev, t.next = map[*node]ctx{}, map[*node]ctx{}
	t.analyze(n, ctx{edge: true}, true)
	t.analyze(n, ctx{edge: true}, false)
	b := t.emit(n)
	if len(t.refusals) > 0 {
		return nil, joinErrors(t.refusals)
	}
	if b.kind == bNever {
		if t.never != nil {
			return nil, t.never
		}
		return nil, &Error{Offset: 0, Construct: "never matches", Msg: "the pattern can never match",
			Hint: "the rule could never fire; fix the pattern or remove the rule"}
	}
	if s := b.size(); s > maxSize {
		return nil, &Error{Offset: 0, Construct: "regex too large",
			Msg:  fmt.Sprintf("the translated regex would expand to about %d items, more than the %d that shell regex engines handle well", s, maxSize),
			Hint: "use smaller repeat counts"}
	}
	return b, nil
}

// emit builds the byte-level tree for a resolved node.
func (t *translator) emit(n *node) *bnode {
	switch n.op {
	case opEmpty:
		return &bnode{kind: bEmpty}
	case opSet:
		return setNode(n.set)
	case opConcat:
		subs := make([]*bnode, len(n.subs))
		for i, s := range n.subs {
			subs[i] = t.emit(s)
		}
		return seqNode(subs...)
	case opAlt:
		subs := make([]*bnode, len(n.subs))
		for i, s := range n.subs {
			subs[i] = t.emit(s)
		}
		return altNode(subs...)
	case opRepeat:
		if n.max == 0 {
			return &bnode{kind: bEmpty}
		}
		if n.min > maxCount || n.max > maxCount {
			t.refuse(&Error{Offset: n.pos, Construct: "count over 255",
				Msg:  fmt.Sprintf("a repeat count over %d is beyond RE_DUP_MAX on macOS and musl", maxCount),
				Hint: "use counts of at most 255; (?:x{250}){4} repeats x 1000 times"})
			return &bnode{kind: bEmpty}
		}
		sub := n.subs[0]
		if sub.op == opSet && n.max < 0 && t.alpha.allHigh(sub.set) {
			return starNode(sub.set, n.min)
		}
		return repNode(t.emit(sub), n.min, n.max)
	case opNotAhead:
		if n.neg || (t.alpha != nil && !t.alpha.marked.empty()) {
			// In a rewritten alphabet that names word characters, those are
			// longer than the characters that share their first bytes,
			// which notInNode's trie does not allow: the automaton builds it.
			t.refuse(&Error{Offset: n.pos, Construct: "negative lookahead",
				Msg:  "hookify translates a negative lookahead into an ERE only when it holds a fixed sequence of characters or sets, without repeats, alternatives or assertions",
				Hint: lookHint})
			return &bnode{kind: bEmpty}
		}
		// Only at the end of the match: there the ERE may consume what follows,
		// since only match or no match counts, and the end of the subject is $.
		if !t.next[n].pureEdge() {
			t.refuse(&Error{Offset: n.pos, Construct: "negative lookahead",
				Msg:  "hookify translates a negative lookahead into an ERE only at the end of the pattern or of an alternative, with nothing after it",
				Hint: lookHint})
			return &bnode{kind: bEmpty}
		}
		if len(n.look) == 0 {
			t.noteNever(n.pos, "(?!) never holds, so this part of the pattern can never match")
		}
		return notAheadNode(n.look)
	case opAt:
		act, err := t.decide(n)
		if err != nil {
			t.refuse(err)
			return &bnode{kind: bEmpty}
		}
		if act == actNever {
			t.noteNever(n.pos, describe(n)+" can never hold here, so this part of the pattern can never match")
		}
		if n.flags&flagASCII != 0 {
			return (*alphabet)(nil).actionNode(act) // ASCII word characters, whatever the alphabet
		}
		return t.alpha.actionNode(act)
	}
	panic("pyre: unexpected node in emit")
}
