package pyre

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file is the exact path for what the ERE translator refuses: lookaheads and
// lookbehinds, positive and negative, anywhere, and \b \B ^ $ \A \Z wherever they
// stand. The pattern becomes a byte-level NFA whose edges may test the previous
// byte's class (start of subject, newline, ASCII word byte, other), spawn a
// lookahead (an obligation on the rest of the subject, run as its own automaton
// alongside) or test a lookbehind (a tracker automaton of .*B run over the whole
// subject). Subset construction over such configurations (an NFA state and the
// pending obligations, each a run state of its lookahead's automaton) is
// deterministic and finite, so it gives a DFA over byte classes, which is
// minimized and written back as an ERE by state elimination.
//
// \b and \B read the byte before a position: in the value's own alphabet a
// word byte is [0-9A-Za-z_] (a pattern under the ASCII flag); in a rewritten
// one (words.go) every non-ASCII word character ends with a byte of its own
// (pcUWord), and the next character is a word character when it is in the
// alphabet's \w.

// Classes of the byte before a position.
const (
	pcStart uint8 = 1 << iota // no byte: the start of the subject
	pcNL                      // '\n'
	pcWord                    // [0-9A-Za-z_]
	pcOther                   // any other byte
	pcUWord                   // in the rewritten alphabet: the last byte of a non-ASCII word character

)

func (a *alphabet) prevClass(b byte) uint8 {
	switch {
	case b == '\n':
		return pcNL
	case wordBytes.has(b):
		return pcWord
	case a.wordBytes().has(b):
		return pcUWord
	}
	return pcOther
}

type mkind uint8

const (
	mByte  mkind = iota // one byte from set, then out[0]
	mEps                // every out
	mPrev               // out[0] when the previous byte's class is in mask
	mLook               // out[0] when the lookaround sub holds (neg: does not)
	mEnd                // out[0] at the end of the subject
	mFinal              // the automaton matched
)

type mstate struct {
	kind   mkind
	set    byteSet
	mask   uint8
	sub    int  // mLook: the lookahead automaton, or the lookbehind tracker
	neg    bool // mLook
	behind bool // mLook: sub is a tracker
	out    []int
}

// machine is one automaton: the pattern, a lookahead body, or a tracker.
type machine struct {
	st      []mstate
	start   int
	tracker bool // holding at one position says nothing of the next
}

func (m *machine) add(s mstate) int {
	m.st = append(m.st, s)
	return len(m.st) - 1
}

// dfaLimits bound the work of the exact path.
const (
	maxNFAStates = 20000
	maxDFAStates = 2000
	maxRunStates = 20000
	maxWork      = 400000 // configurations visited by the closures of one automaton
)

// errTooLarge is returned (as an *Error) when a pattern is beyond the limits.
func errTooLarge(what string) *Error {
	return &Error{Construct: "regex too large", Msg: "the exact matcher of this pattern would be too large (" + what + ")",
		Hint: "use smaller repeat counts, or fewer lookarounds"}
}

type nfaBuilder struct {
	alpha    *alphabet        // the rewritten alphabet (words.go), or nil
	sets     map[*node]*bnode // the byte form of each set item, once (setNode is costly on large sets)
	word     [2]int           // the machines of a word and a non-word character, once (+1; 0: not yet)
	machines []*machine       // lookahead bodies and trackers; the pattern is separate
	trackers []int            // tracker index -> machine index
	size     int
	err      *Error
}

func (b *nfaBuilder) fail(e *Error) {
	if b.err == nil {
		b.err = e
	}
}

// compile adds n to m so that it continues at next, and returns its entry.
func (b *nfaBuilder) compile(m *machine, n *node, next int) int {
	b.size++
	if b.size > maxNFAStates || len(m.st) > maxNFAStates {
		b.fail(errTooLarge("too many automaton states"))
		return next
	}
	if b.err != nil {
		return next
	}
	switch n.op {
	case opEmpty:
		return next
	case opGroup:
		return b.compile(m, n.subs[0], next)
	case opLiteral, opClass, opAny:
		x, ok := b.sets[n]
		if !ok {
			x = setNode(b.alpha.of(itemSet(n).minus(unmatchable)))
			if b.sets == nil {
				b.sets = map[*node]*bnode{}
			}
			b.sets[n] = x
		}
		return b.compileBytes(m, x, next)
	case opConcat:
		for i := len(n.subs) - 1; i >= 0; i-- {
			next = b.compile(m, n.subs[i], next)
		}
		return next
	case opAlt:
		e := mstate{kind: mEps}
		for _, s := range n.subs {
			e.out = append(e.out, b.compile(m, s, next))
		}
		return m.add(e)
	case opRepeat:
		sub := n.subs[0]
		if n.max < 0 {
			loop := m.add(mstate{kind: mEps})
			body := b.compile(m, sub, loop)
			m.st[loop].out = []int{body, next}
			next = loop
		} else {
			for i := n.max - n.min; i > 0 && b.err == nil; i-- {
				body := b.compile(m, sub, next)
				next = m.add(mstate{kind: mEps, out: []int{body, next}})
			}
		}
		for i := 0; i < n.min && b.err == nil; i++ {
			next = b.compile(m, sub, next)
		}
		return next
	case opNotAhead:
		return m.add(mstate{kind: mLook, sub: b.lookahead(n.subs[0]), neg: true, out: []int{next}})
	case opLook:
		if !n.behind {
			return m.add(mstate{kind: mLook, sub: b.lookahead(n.subs[0]), neg: n.neg, out: []int{next}})
		}
		tr, ok := b.tracker(n.subs[0])
		if !ok {
			b.fail(&Error{Offset: n.pos, Construct: "lookbehind",
				Msg:  "hookify does not build a lookbehind that holds a lookahead, \\b, \\B, $ or \\Z yet",
				Hint: "move the assertion out of the lookbehind"})
			return next
		}
		return m.add(mstate{kind: mLook, sub: tr, neg: n.neg, behind: true, out: []int{next}})
	case opAt:
		return b.compileAt(m, n, next)
	}
	panic("pyre: unexpected node in compile")
}

// compileBytes adds a byte-level tree of sets.
func (b *nfaBuilder) compileBytes(m *machine, x *bnode, next int) int {
	switch x.kind {
	case bEmpty:
		return next
	case bNever:
		return m.add(mstate{kind: mByte, out: []int{next}})
	case bBytes:
		return m.add(mstate{kind: mByte, set: x.set, out: []int{next}})
	case bSeq:
		for i := len(x.subs) - 1; i >= 0; i-- {
			next = b.compileBytes(m, x.subs[i], next)
		}
		return next
	case bAlt:
		e := mstate{kind: mEps}
		for _, s := range x.subs {
			e.out = append(e.out, b.compileBytes(m, s, next))
		}
		return m.add(e)
	case bRep:
		if x.max < 0 {
			loop := m.add(mstate{kind: mEps})
			body := b.compileBytes(m, x.subs[0], loop)
			m.st[loop].out = []int{body, next}
			next = loop
		} else {
			for i := x.max - x.min; i > 0; i-- {
				body := b.compileBytes(m, x.subs[0], next)
				next = m.add(mstate{kind: mEps, out: []int{body, next}})
			}
		}
		for i := 0; i < x.min; i++ {
			next = b.compileBytes(m, x.subs[0], next)
		}
		return next
	case bBOL:
		return m.add(mstate{kind: mPrev, mask: pcStart, out: []int{next}})
	case bEOL:
		return m.add(mstate{kind: mEnd, out: []int{next}})
	}
	panic("pyre: unexpected byte node")
}

// bytesMachine is a lookahead automaton of one byte from s.
func (b *nfaBuilder) bytesMachine(s byteSet) int {
	m := &machine{}
	fin := m.add(mstate{kind: mFinal})
	m.start = m.add(mstate{kind: mByte, set: s, out: []int{fin}})
	b.machines = append(b.machines, m)
	return len(b.machines) - 1
}

// setMachine is the automaton of one character from s.
func (b *nfaBuilder) setMachine(s runeSet) int {
	m := &machine{}
	fin := m.add(mstate{kind: mFinal})
	m.start = b.compileBytes(m, setNode(s), fin)
	b.machines = append(b.machines, m)
	return len(b.machines) - 1
}

// compileAt writes an assertion with the previous byte's class and lookaheads.
func (b *nfaBuilder) compileAt(m *machine, n *node, next int) int {
	ml := n.flags&flagMultiline != 0
	prev := func(mask uint8, to int) int { return m.add(mstate{kind: mPrev, mask: mask, out: []int{to}}) }
	look := func(sub int, neg bool, to int) int {
		return m.add(mstate{kind: mLook, sub: sub, neg: neg, out: []int{to}})
	}
	end := func(to int) int { return m.add(mstate{kind: mEnd, out: []int{to}}) }
	var nl byteSet
	nl.add('\n')
	switch {
	case n.at == atBeginningString, n.at == atBeginning && !ml:
		return prev(pcStart, next)
	case n.at == atBeginning:
		return prev(pcStart|pcNL, next)
	case n.at == atEndString:
		return end(next)
	case n.at == atEnd && !ml:
		// the end, or a newline that is the last byte
		sm := &machine{}
		fin := sm.add(mstate{kind: mFinal})
		e := sm.add(mstate{kind: mEnd, out: []int{fin}})
		sm.start = sm.add(mstate{kind: mByte, set: nl, out: []int{e}})
		b.machines = append(b.machines, sm)
		return m.add(mstate{kind: mEps, out: []int{end(next), look(len(b.machines)-1, false, next)}})
	case n.at == atEnd:
		return m.add(mstate{kind: mEps, out: []int{end(next), look(b.bytesMachine(nl), false, next)}})
	}
	// The word characters: ASCII ones under the ASCII flag, Python's
	// (the rewritten alphabet's) otherwise.
	wordPrev, otherPrev := uint8(pcWord), uint8(pcNL|pcOther|pcUWord)
	var word, nonword int
	if b.alpha == nil || n.flags&flagASCII != 0 {
		word, nonword = b.bytesMachine(wordBytes), b.bytesMachine(complementBytes(wordBytes))
	} else {
		wordPrev, otherPrev = pcWord|pcUWord, pcNL|pcOther
		if b.word[0] == 0 {
			if first, ok := b.alpha.firstWordBytes(); ok {
				b.word = [2]int{b.bytesMachine(first) + 1, b.bytesMachine(complementBytes(first)) + 1}
			} else {
				b.word = [2]int{b.setMachine(b.alpha.word()) + 1, b.setMachine(b.alpha.nonWord()) + 1}
			}
		}
		word, nonword = b.word[0]-1, b.word[1]-1
	}
	if n.at == atBoundary {
		return m.add(mstate{kind: mEps, out: []int{
			prev(wordPrev, look(word, true, next)),
			prev(pcStart|otherPrev, look(word, false, next)),
		}})
	}
	// \B: never in the empty subject (sre's AT_NON_BOUNDARY)
	return m.add(mstate{kind: mEps, out: []int{
		prev(wordPrev, look(word, false, next)),
		prev(otherPrev, look(word, true, next)),
		prev(pcStart, look(nonword, false, next)),
	}})
}

// lookahead builds the automaton of a lookahead body.
func (b *nfaBuilder) lookahead(body *node) int {
	m := &machine{}
	b.machines = append(b.machines, m)
	idx := len(b.machines) - 1
	fin := m.add(mstate{kind: mFinal})
	m.start = b.compile(m, body, fin)
	return idx
}

// tracker builds the automaton of .*B for a lookbehind body B. It reports false
// when B looks ahead (a lookahead, \b, \B, $, \Z): a tracker is decided by the
// bytes before the position alone.
func (b *nfaBuilder) tracker(body *node) (int, bool) {
	m := &machine{}
	fin := m.add(mstate{kind: mFinal})
	nm := len(b.machines)
	entry := b.compile(m, body, fin)
	for _, s := range m.st {
		if s.kind == mEnd || (s.kind == mLook && !s.behind) {
			return 0, false
		}
	}
	_ = nm
	m.tracker = true
	loop := m.add(mstate{kind: mEps})
	anyb := m.add(mstate{kind: mByte, set: complementBytes(byteSet{}), out: []int{loop}})
	m.st[anyb].set.add(0)
	m.st[loop].out = []int{anyb, entry}
	m.start = loop
	b.machines = append(b.machines, m)
	b.trackers = append(b.trackers, len(b.machines)-1)
	return len(b.trackers) - 1, true
}

// An obligation is a lookahead still undecided: the run state of its automaton.
type obl struct {
	sub int32
	neg bool
	rs  int32
}

type config struct {
	q   int32
	obs []obl // sorted
}

func (c config) key(w *strings.Builder) {
	w.WriteString(strconv.Itoa(int(c.q)))
	for _, o := range c.obs {
		w.WriteByte(',')
		if o.neg {
			w.WriteByte('!')
		}
		w.WriteString(strconv.Itoa(int(o.sub)))
		w.WriteByte(':')
		w.WriteString(strconv.Itoa(int(o.rs)))
	}
	w.WriteByte(';')
}

// pctx is what a position knows: the previous byte's class, which trackers hold
// there, and whether it is the end of the subject.
type pctx struct {
	prev  uint8
	holds uint64
	end   bool
}

type runState struct {
	m       int // machine index; -1 for the pattern
	cfgs    []config
	decided int8 // 1 true, 0 false, -1 pending
}

type stepKey struct {
	rs    int32
	b     byte
	prev  uint8
	holds uint64
}

type runner struct {
	alpha    *alphabet
	pat      *machine
	machines []*machine
	trackers []int
	rs       []runState
	ids      map[string]int32
	steps    map[stepKey]int32
	inits    map[[2]uint64]int32
	ends     map[[2]uint64]bool
	work     int
	err      *Error
}

func (r *runner) mach(i int) *machine {
	if i < 0 {
		return r.pat
	}
	return r.machines[i]
}

// intern canonicalizes configurations into a run state of machine mi.
func (r *runner) intern(mi int, cfgs []config) int32 {
	fin := -1
	m := r.mach(mi)
	for i, s := range m.st {
		if s.kind == mFinal {
			fin = i
		}
	}
	dec := int8(-1)
	if len(cfgs) == 0 {
		dec = 0
	}
	for _, c := range cfgs {
		if m.tracker {
			break
		}
		if int(c.q) == fin && len(c.obs) == 0 {
			dec = 1
			cfgs = []config{c}
			break
		}
	}
	if dec == -1 {
		cfgs = antichain(cfgs)
	}
	var w strings.Builder
	w.WriteString(strconv.Itoa(mi))
	w.WriteByte('|')
	for _, c := range cfgs {
		c.key(&w)
	}
	k := w.String()
	if id, ok := r.ids[k]; ok {
		return id
	}
	if len(r.rs) >= maxRunStates {
		if r.err == nil {
			r.err = errTooLarge("too many lookahead states")
		}
	}
	r.rs = append(r.rs, runState{m: mi, cfgs: cfgs, decided: dec})
	id := int32(len(r.rs) - 1)
	r.ids[k] = id
	return id
}

// antichain sorts configurations and drops those another one subsumes (the
// same state with fewer obligations).
func antichain(cfgs []config) []config {
	slices.SortFunc(cfgs, func(a, b config) int {
		if a.q != b.q {
			return int(a.q - b.q)
		}
		if len(a.obs) != len(b.obs) {
			return len(a.obs) - len(b.obs)
		}
		return slices.CompareFunc(a.obs, b.obs, cmpObl)
	})
	var out []config
	for _, c := range cfgs {
		keep := true
		for _, o := range out {
			if o.q == c.q && subset(o.obs, c.obs) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

func cmpObl(a, b obl) int {
	switch {
	case a.sub != b.sub:
		return int(a.sub - b.sub)
	case a.neg != b.neg:
		if a.neg {
			return 1
		}
		return -1
	}
	return int(a.rs - b.rs)
}

func subset(a, b []obl) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func addObl(obs []obl, o obl) []obl {
	if slices.Contains(obs, o) {
		return obs
	}
	out := append(append([]obl(nil), obs...), o)
	slices.SortFunc(out, cmpObl)
	return out
}

// close follows every edge that consumes nothing from the configurations, at a
// position described by c, and returns the configurations that wait for a byte
// (or, at the end, those that reached the final state).
func (r *runner) close(mi int, cfgs []config, c pctx) []config {
	m := r.mach(mi)
	seen := map[string]bool{}
	var out []config
	var stack []config
	stack = append(stack, cfgs...)
	for len(stack) > 0 && r.err == nil {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if r.work++; r.work > maxWork {
			r.err = errTooLarge("too much work to build it")
		}
		var w strings.Builder
		x.key(&w)
		k := w.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		s := &m.st[x.q]
		follow := func(to int, obs []obl) {
			stack = append(stack, config{q: int32(to), obs: obs})
		}
		switch s.kind {
		case mByte:
			if !c.end && !s.set.empty() {
				out = append(out, x)
			}
		case mFinal:
			out = append(out, x)
		case mEnd:
			if c.end {
				follow(s.out[0], x.obs)
			} else {
				out = append(out, x) // waits for the end
			}
		case mEps:
			for i := len(s.out) - 1; i >= 0; i-- {
				follow(s.out[i], x.obs)
			}
		case mPrev:
			if s.mask&c.prev != 0 {
				follow(s.out[0], x.obs)
			}
		case mLook:
			if s.behind {
				if (c.holds>>uint(s.sub)&1 == 1) != s.neg {
					follow(s.out[0], x.obs)
				}
				continue
			}
			rs := r.initial(s.sub, c)
			if c.end {
				if r.endValue(rs, c) != s.neg {
					follow(s.out[0], x.obs)
				}
				continue
			}
			switch d := r.rs[rs].decided; {
			case d < 0:
				follow(s.out[0], addObl(x.obs, obl{sub: int32(s.sub), neg: s.neg, rs: rs}))
			case (d == 1) != s.neg:
				follow(s.out[0], x.obs)
			}
		}
	}
	return out
}

func ctxKey(c pctx) uint64 {
	k := uint64(c.prev)
	if c.end {
		k |= 1 << 8
	}
	return k
}

// initial is the run state of lookahead automaton sub spawned at c.
func (r *runner) initial(sub int, c pctx) int32 {
	k := [2]uint64{uint64(sub)<<16 | ctxKey(c), c.holds}
	if id, ok := r.inits[k]; ok {
		return id
	}
	m := r.machines[sub]
	id := r.intern(sub, r.close(sub, []config{{q: int32(m.start)}}, c))
	r.inits[k] = id
	return id
}

// endValue reports whether run state rs matches when the subject ends at c.
func (r *runner) endValue(rs int32, c pctx) bool {
	if d := r.rs[rs].decided; d >= 0 {
		return d == 1
	}
	k := [2]uint64{uint64(rs)<<16 | ctxKey(c), c.holds}
	if v, ok := r.ends[k]; ok {
		return v
	}
	st := r.rs[rs]
	m := r.mach(st.m)
	v := false
	for _, x := range r.close(st.m, st.cfgs, c) {
		if m.st[x.q].kind != mFinal {
			continue
		}
		ok := true
		for _, o := range x.obs {
			if r.endValue(o.rs, c) == o.neg {
				ok = false
				break
			}
		}
		if ok {
			v = true
			break
		}
	}
	r.ends[k] = v
	return v
}

// step consumes byte b from run state rs; c describes the position after b.
func (r *runner) step(rs int32, b byte, c pctx) int32 {
	k := stepKey{rs: rs, b: b, prev: c.prev, holds: c.holds}
	if id, ok := r.steps[k]; ok {
		return id
	}
	st := r.rs[rs]
	if st.decided >= 0 {
		r.steps[k] = rs
		return rs
	}
	m := r.mach(st.m)
	var next []config
	memo := map[int32]int32{}
	for _, x := range st.cfgs {
		s := &m.st[x.q]
		to := x.q
		switch {
		case s.kind == mFinal && len(x.obs) > 0:
			// matched; its lookaheads are still pending
		case s.kind == mByte && s.set.has(b):
			to = int32(s.out[0])
		default:
			continue
		}
		var obs []obl
		alive := true
		for _, o := range x.obs {
			n, ok := memo[o.rs]
			if !ok {
				n = r.step(o.rs, b, c)
				memo[o.rs] = n
			}
			switch d := r.rs[n].decided; {
			case d < 0:
				obs = append(obs, obl{sub: o.sub, neg: o.neg, rs: n})
			case (d == 1) == o.neg:
				alive = false
			}
			if !alive {
				break
			}
		}
		if alive {
			slices.SortFunc(obs, cmpObl)
			obs = slices.CompactFunc(obs, func(a, b obl) bool { return a == b })
			next = append(next, config{q: to, obs: obs})
		}
	}
	id := r.intern(st.m, r.close(st.m, next, c))
	r.steps[k] = id
	return id
}

// dstate is a state of the pattern's DFA.
type dstate struct {
	prev  uint8
	trk   []int32 // tracker run states
	main  int32
	holds uint64
}

func (d dstate) key() string {
	var w strings.Builder
	w.WriteString(strconv.Itoa(int(d.prev)))
	for _, t := range d.trk {
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(int(t)))
	}
	w.WriteByte('/')
	w.WriteString(strconv.Itoa(int(d.main)))
	return w.String()
}

// dfa is a deterministic automaton over byte classes. State 0 is the start.
// accept[s] is 1 when every continuation matches (a match was found), 2 when
// the subject matches if it ends in s.
type dfa struct {
	alpha *alphabet // the rewritten alphabet (words.go), or nil
	// prevFree: no state tests the class of the byte before the start, so
	// compileDFA gives the same automaton for every prev.
	prevFree bool
	class    [256]uint8
	reps     []byte // a byte of each class
	next     [][]int32
	accept   []uint8
}

const (
	accSink = 1
	accEnd  = 2
)

// byteClasses partitions the bytes by every set the automata test.
func byteClasses(ms []*machine, a *alphabet) (cls [256]uint8, reps []byte) {
	sets := []byteSet{a.wordBytes(), byteRange(0x80, 0xBF), byteRange('\n', '\n'),
		byteRange(0xC2, 0xDF), byteRange(0xE0, 0xEF), byteRange(0xF0, 0xF4)}
	for _, m := range ms {
		for _, s := range m.st {
			if s.kind == mByte {
				sets = append(sets, s.set)
			}
		}
	}
	sig := map[string]uint8{}
	for b := 0; b < 256; b++ {
		var w strings.Builder
		for i, s := range sets {
			if s.has(byte(b)) {
				w.WriteString(strconv.Itoa(i))
				w.WriteByte(',')
			}
		}
		k := w.String()
		id, ok := sig[k]
		if !ok {
			id = uint8(len(reps))
			sig[k] = id
			reps = append(reps, byte(b))
		}
		cls[b] = id
	}
	return cls, reps
}

// compileDFA builds the pattern's automaton. With search, it runs Python's
// re.search over the whole subject (a match may start at any character
// boundary); without, the match starts at the first byte, the byte before it
// being of class prev.
func compileDFA(root *node, search bool, prev uint8, alpha *alphabet) (*dfa, *Error) {
	b := &nfaBuilder{alpha: alpha}
	pat := &machine{}
	fin := pat.add(mstate{kind: mFinal})
	body := b.compile(pat, root, fin)
	if b.err != nil {
		return nil, b.err
	}
	if !search && len(b.trackers) > 0 {
		return nil, &Error{Construct: "lookbehind", Msg: "a lookbehind needs the whole subject"}
	}
	if len(b.trackers) > 64 {
		return nil, errTooLarge("too many lookbehinds")
	}
	pat.start = body
	// inside: the bytes before which no character starts (alphabet.boundary).
	var inside byteSet
	for c := 0; c < 256; c++ {
		if !alpha.boundary(byte(c)) {
			inside.add(byte(c))
		}
	}
	if !search && alpha != nil {
		// The caller consumed the byte before the match, which may be the
		// first byte of a character (or the character before a mark).
		pat.start = pat.add(mstate{kind: mLook, sub: b.bytesMachine(inside), neg: true, out: []int{body}})
	}
	if search {
		// .*? in front: at every character boundary (the next byte is not a
		// continuation byte), the pattern may start.
		cont := b.bytesMachine(inside)
		loop := pat.add(mstate{kind: mEps})
		anyb := pat.add(mstate{kind: mByte, set: complementBytes(byteSet{}), out: []int{loop}})
		pat.st[anyb].set.add(0)
		start := pat.add(mstate{kind: mLook, sub: cont, neg: true, out: []int{body}})
		pat.st[loop].out = []int{start, anyb}
		pat.start = loop
	}
	r := &runner{alpha: alpha, pat: pat, machines: b.machines, trackers: b.trackers, ids: map[string]int32{},
		steps: map[stepKey]int32{}, inits: map[[2]uint64]int32{}, ends: map[[2]uint64]bool{}}
	d := &dfa{alpha: alpha, prevFree: true}
	for _, m := range append([]*machine{pat}, b.machines...) {
		for _, st := range m.st {
			if st.kind == mPrev {
				d.prevFree = false
			}
		}
	}
	d.class, d.reps = byteClasses(append([]*machine{pat}, b.machines...), alpha)

	// trackerStates closes the trackers at a position in order, each seeing the
	// ones before it (a nested lookbehind is built first).
	holdsOf := func(trk []int32) uint64 {
		var h uint64
		for i, t := range trk {
			if r.trackerFinal(t) {
				h |= 1 << uint(i)
			}
		}
		return h
	}
	var states []dstate
	index := map[string]int32{}
	addState := func(s dstate) int32 {
		k := s.key()
		if r.rs[s.main].decided == 1 {
			k = "sink"
		}
		if id, ok := index[k]; ok {
			return id
		}
		if len(states) >= maxDFAStates {
			if r.err == nil {
				r.err = errTooLarge(fmt.Sprintf("over %d DFA states", maxDFAStates))
			}
			return 0
		}
		states = append(states, s)
		index[k] = int32(len(states) - 1)
		return int32(len(states) - 1)
	}
	c0 := pctx{prev: prev}
	var trk0 []int32
	for i, t := range b.trackers {
		c0.holds = holdsOf(trk0)
		id := r.intern(t, r.close(t, []config{{q: int32(b.machines[t].start)}}, c0))
		trk0 = append(trk0, id)
		_ = i
	}
	c0.holds = holdsOf(trk0)
	main0 := r.intern(-1, r.close(-1, []config{{q: int32(pat.start)}}, c0))
	addState(dstate{prev: prev, trk: trk0, main: main0, holds: c0.holds})
	for i := 0; i < len(states) && r.err == nil; i++ {
		s := states[i]
		row := make([]int32, len(d.reps))
		for ci, by := range d.reps {
			c := pctx{prev: alpha.prevClass(by)}
			trk := make([]int32, len(s.trk))
			for ti, t := range s.trk {
				c.holds = holdsOf(trk[:ti])
				trk[ti] = r.step(t, by, c)
			}
			c.holds = holdsOf(trk)
			row[ci] = addState(dstate{prev: c.prev, trk: trk, main: r.step(s.main, by, c), holds: c.holds})
		}
		d.next = append(d.next, row)
		acc := uint8(0)
		if r.rs[s.main].decided == 1 {
			acc = accSink
		} else if r.endValue(s.main, pctx{prev: s.prev, holds: s.holds, end: true}) {
			acc = accEnd
		}
		d.accept = append(d.accept, acc)
	}
	if r.err != nil {
		return nil, r.err
	}
	return d.minimize(), nil
}

// trackerFinal reports whether a tracker's run state holds here: it has a
// configuration at its final state (trackers have no obligations).
func (r *runner) trackerFinal(rs int32) bool {
	st := r.rs[rs]
	m := r.mach(st.m)
	for _, c := range st.cfgs {
		if m.st[c.q].kind == mFinal && len(c.obs) == 0 {
			return true
		}
	}
	return false
}

// minimize merges equivalent states (Moore's refinement) and drops the states
// from which no acceptance is reachable into one dead state.
func (d *dfa) minimize() *dfa {
	n := len(d.next)
	part := make([]int32, n)
	for i := range part {
		part[i] = int32(d.accept[i])
	}
	for {
		sig := map[string]int32{}
		np := make([]int32, n)
		for i := 0; i < n; i++ {
			var w strings.Builder
			w.WriteString(strconv.Itoa(int(part[i])))
			for _, t := range d.next[i] {
				w.WriteByte(',')
				w.WriteString(strconv.Itoa(int(part[t])))
			}
			k := w.String()
			id, ok := sig[k]
			if !ok {
				id = int32(len(sig))
				sig[k] = id
			}
			np[i] = id
		}
		same := len(sig) == countDistinct(part)
		part = np
		if same {
			break
		}
	}
	// renumber so that the start is 0, in BFS order
	order := map[int32]int32{}
	var reps []int
	queue := []int{0}
	order[part[0]] = 0
	reps = append(reps, 0)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, t := range d.next[i] {
			if _, ok := order[part[t]]; !ok {
				order[part[t]] = int32(len(reps))
				reps = append(reps, int(t))
				queue = append(queue, int(t))
			}
		}
	}
	out := &dfa{alpha: d.alpha, class: d.class, reps: d.reps}
	for _, i := range reps {
		row := make([]int32, len(d.reps))
		for c, t := range d.next[i] {
			row[c] = order[part[t]]
		}
		out.next = append(out.next, row)
		out.accept = append(out.accept, d.accept[i])
	}
	return out
}

func countDistinct(p []int32) int {
	m := map[int32]bool{}
	for _, x := range p {
		m[x] = true
	}
	return len(m)
}

// Match runs the automaton over a subject.
func (d *dfa) match(s string) bool {
	st := int32(0)
	for i := 0; i < len(s); i++ {
		if d.accept[st] == accSink {
			return true
		}
		st = d.next[st][d.class[s[i]]]
	}
	return d.accept[st] != 0
}

// live reports, for each state, whether an accepting state is reachable.
func (d *dfa) live() []bool {
	n := len(d.next)
	live := make([]bool, n)
	for i := range live {
		live[i] = d.accept[i] != 0
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			if live[i] {
				continue
			}
			for _, t := range d.next[i] {
				if live[t] {
					live[i] = true
					changed = true
					break
				}
			}
		}
	}
	return live
}

// ere writes the language of the automaton as a byte-level tree by state
// elimination: a path into a sink state ends the match there, a path into an
// end-accepting state ends with $. The caller puts what precedes the match in
// front; the result is unanchored at its start.
func (d *dfa) ere(limit int) (*bnode, bool) {
	n := len(d.next)
	live := d.live()
	// edges[i][j]; index n is the final state
	edges := make([]map[int]*bnode, n+1)
	for i := range edges {
		edges[i] = map[int]*bnode{}
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		switch d.accept[i] {
		case accSink:
			edges[i][n] = &bnode{kind: bEmpty}
			continue
		case accEnd:
			edges[i][n] = &bnode{kind: bEOL}
		}
		sets := map[int32]byteSet{}
		for c, t := range d.next[i] {
			if !live[t] {
				continue
			}
			s := sets[t]
			for b := 0; b < 256; b++ {
				if d.class[b] == uint8(c) {
					s.add(byte(b))
				}
			}
			sets[t] = s
		}
		for t, s := range sets {
			x := bytesNode(s)
			if x.kind == bNever {
				continue
			}
			edges[i][int(t)] = x
		}
	}
	if !live[0] {
		return &bnode{kind: bNever}, true
	}
	alive := map[int]bool{}
	for i := 1; i < n; i++ {
		if live[i] {
			alive[i] = true
		}
	}
	// preds[k]: the states with an edge into k
	preds := make([]map[int]bool, n+1)
	for i := range preds {
		preds[i] = map[int]bool{}
	}
	for i := range edges {
		for j := range edges[i] {
			preds[j][i] = true
		}
	}
	ins := func(k int) []int {
		var out []int
		for i := range preds[k] {
			if i != k && (i == 0 || alive[i]) {
				out = append(out, i)
			}
		}
		slices.Sort(out)
		return out
	}
	for len(alive) > 0 {
		// the state with the fewest paths through it
		best, bestCost := -1, 0
		for k := range alive {
			// Delgado and Morais' weight: the size the elimination adds
			in := ins(k)
			nin, nout := len(in), len(edges[k])
			if _, ok := edges[k][k]; ok {
				nout--
			}
			cost := 0
			for _, p := range in {
				cost += edges[p][k].size() * (nout - 1)
			}
			for t, x := range edges[k] {
				if t == k {
					cost += x.size() * (nin*nout - 1)
				} else {
					cost += x.size() * (nin - 1)
				}
			}
			if best < 0 || cost < bestCost || (cost == bestCost && k < best) {
				best, bestCost = k, cost
			}
		}
		k := best
		loop := edges[k][k]
		var star *bnode
		if loop != nil {
			star = repNode(loop, 0, -1)
		} else {
			star = &bnode{kind: bEmpty}
		}
		for _, p := range ins(k) {
			in := edges[p][k]
			for t, out := range edges[k] {
				if t == k {
					continue
				}
				path := seqNode(in, star, out)
				if old, ok := edges[p][t]; ok {
					path = altNode(old, path)
				}
				if path.size() > limit {
					return nil, false
				}
				edges[p][t] = path
				preds[t][p] = true
			}
			delete(edges[p], k)
			delete(preds[k], p)
		}
		delete(alive, k)
		for t := range edges[k] {
			delete(preds[t], k)
		}
		edges[k] = nil
	}
	res := edges[0][n]
	if res == nil {
		return &bnode{kind: bNever}, true
	}
	if loop := edges[0][0]; loop != nil {
		res = seqNode(repNode(loop, 0, -1), res)
	}
	return res, res.size() <= limit
}

// maxDFAERE bounds the size of an ERE written from an automaton, and
// maxTableERE that of one that the hooks run as a table (TableFor): its size
// matters only to NewTable, which has limits of its own.
const (
	maxDFAERE   = 3000
	maxTableERE = 12000
)

// dfaRefusals are the constructs the automaton path builds.
var dfaRefusals = map[string]bool{
	"lookahead": true, "lookbehind": true, "negative lookahead": true, "negative lookbehind": true,
	"word boundary": true, "anchor not at the start": true, "anchor not at the end": true,
}

// viaDFA builds the ERE of a pattern through its automaton: for each class of
// the byte before the match (the start, a newline, a word byte, another byte)
// the automaton of a match starting there, written as an ERE after that byte.
// A pattern with a lookbehind is written from the automaton of the whole
// search, anchored at the start.
//
// An ERE over maxDFAERE atoms is written, up to maxTableERE, for an automaton
// small enough for a table (big): the caller keeps it only when TableFor runs
// it as one.
func viaDFA(root *node, first *Error, alpha *alphabet) (ere *bnode, big bool, err *Error) {
	at := func(e *Error) *Error {
		if e.Offset == 0 && first != nil {
			e.Offset = first.Offset
		}
		return e
	}
	type part struct {
		mask uint8
		re   *bnode
	}
	var parts []part
	classes, all := []uint8{pcStart, pcNL, pcWord, pcOther}, uint8(pcStart|pcNL|pcWord|pcOther)
	if alpha != nil {
		classes, all = append(classes, pcUWord), all|pcUWord
	}
	for _, pc := range classes {
		d, err := compileDFA(root, false, pc, alpha)
		if err != nil && err.Construct == "lookbehind" && err.Msg == "a lookbehind needs the whole subject" {
			parts = nil
			break
		}
		if err != nil {
			return nil, false, at(err)
		}
		re, ok := d.smallestERE(maxDFAERE)
		if !ok && len(d.next)*len(d.reps) <= maxTable {
			re, ok = d.smallestERE(maxTableERE)
			big = true
		}
		if !ok {
			return nil, false, at(errTooLarge("its ERE is too large"))
		}
		if re.kind == bNever {
			continue
		}
		merged := false
		for i := range parts {
			if parts[i].re.String() == re.String() {
				parts[i].mask |= pc
				merged = true
			}
		}
		if !merged {
			parts = append(parts, part{pc, re})
		}
		if d.prevFree {
			parts = []part{{all, re}}
			break
		}
		if pc == classes[len(classes)-1] && len(parts) == 0 {
			return &bnode{kind: bNever}, false, nil
		}
	}
	if parts != nil {
		var alts []*bnode
		for _, p := range parts {
			if p.mask == all {
				alts = append(alts, p.re)
				continue
			}
			var pre []*bnode
			var bs byteSet
			for b := 1; b < 256; b++ {
				if alpha.prevClass(byte(b))&p.mask != 0 {
					bs.add(byte(b))
				}
			}
			if p.mask&pcStart != 0 {
				pre = append(pre, &bnode{kind: bBOL})
			}
			pre = append(pre, bytesNode(bs))
			alts = append(alts, seqNode(altNode(pre...), p.re))
		}
		return altNode(alts...), big, nil
	}
	d, err := compileDFA(root, true, pcStart, alpha)
	if err != nil {
		return nil, false, at(err)
	}
	re, ok := d.smallestERE(maxDFAERE)
	if !ok && len(d.next)*len(d.reps) <= maxTable {
		re, ok = d.smallestERE(maxTableERE)
		big = true
	}
	if !ok {
		return nil, false, at(errTooLarge("its ERE is too large"))
	}
	if re.kind == bNever {
		return re, big, nil
	}
	return seqNode(&bnode{kind: bBOL}, re), big, nil
}

// utf8Need is how many continuation bytes a byte starts (0 for ASCII), or -1
// for a byte that never starts a character.
func (a *alphabet) utf8Need(b byte) int {
	switch {
	case b < 0x80, a != nil && rewriteBytes.has(b) && a.occurs(b):
		return 0
	case b >= 0xC2 && b <= 0xDF:
		return 1
	case b >= 0xE0 && b <= 0xEF:
		return 2
	case b >= 0xF0 && b <= 0xF4:
		return 3
	}
	return -1
}

// dontCare uses what never happens in valid UTF-8 to make the automaton
// smaller: it runs the automaton with a UTF-8 decoder, and where the decoder
// sees an invalid byte the transition is free. At a character boundary it
// stays in place; inside a character it goes where the character's most
// common completion goes, so that the states inside a character merge with
// the state after it (.* becomes one state over all bytes). On valid UTF-8
// the result reads the same as d; started inside a character, it skips the
// rest of the character, as if started after it.
func (d *dfa) dontCare() *dfa {
	type pst struct {
		q    int32
		need int
	}
	index := map[pst]int32{}
	var states []pst
	add := func(p pst) int32 {
		if id, ok := index[p]; ok {
			return id
		}
		states = append(states, p)
		index[p] = int32(len(states) - 1)
		return int32(len(states) - 1)
	}
	add(pst{0, 0})
	var rows [][]int32
	for i := 0; i < len(states); i++ {
		p := states[i]
		row := make([]int32, len(d.reps))
		for c, b := range d.reps {
			row[c] = -1
			if p.need == 0 {
				if n := d.alpha.utf8Need(b); n >= 0 {
					row[c] = add(pst{d.next[p.q][c], n})
				}
			} else if b >= 0x80 && b <= 0xBF {
				row[c] = add(pst{d.next[p.q][c], p.need - 1})
			}
		}
		rows = append(rows, row)
	}
	// one state that matches nothing, whatever follows
	dead := int32(len(states))
	deadRow := make([]int32, len(d.reps))
	for c := range deadRow {
		deadRow[c] = dead
	}
	out := &dfa{alpha: d.alpha, class: d.class, reps: d.reps, next: make([][]int32, len(states)+1), accept: make([]uint8, len(states)+1)}
	out.next[dead] = deadRow
	for need := 0; need <= 3; need++ {
		for i, p := range states {
			if p.need != need {
				continue
			}
			row := append([]int32(nil), rows[i]...)
			if need == 0 {
				// A state that loops takes the free bytes into its loop;
				// another sends them nowhere (a state of no match).
				loops := slices.Contains(row, int32(i))
				for c := range row {
					if row[c] < 0 {
						if loops {
							row[c] = int32(i)
						} else {
							row[c] = dead
						}
					}
				}
				out.accept[i] = d.accept[p.q]
			} else {
				count := map[int32]int{}
				best := int32(-1)
				for _, t := range row {
					if t >= 0 {
						count[t]++
						if best < 0 || count[t] > count[best] || (count[t] == count[best] && t < best) {
							best = t
						}
					}
				}
				for c := range row {
					if row[c] < 0 {
						row[c] = out.next[best][c]
					}
				}
				// Inside a character the value never ends, so the
				// state may accept at the end as its completion does;
				// but a sink decides at once, before the rest of the
				// character: only a sink is one.
				out.accept[i] = out.accept[best]
				if d.accept[p.q] == accSink {
					out.accept[i] = accSink
				} else if out.accept[i] == accSink {
					out.accept[i] = 0
				}
			}
			out.next[i] = row
		}
	}
	return out.minimize()
}

// smallestERE writes the automaton, or its form with UTF-8's free
// transitions, as an ERE: the smaller of the two.
func (d *dfa) smallestERE(limit int) (*bnode, bool) {
	a, okA := d.ere(limit)
	b, okB := d.dontCare().ere(limit)
	switch {
	case okA && okB:
		if a.kind == bNever || b.kind == bNever {
			return a, true
		}
		if len(b.String()) < len(a.String()) {
			return b, true
		}
		return a, true
	case okB:
		return b, true
	}
	return a, okA
}
