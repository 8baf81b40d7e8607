package pyre

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The table matcher (issue 22, docs/awk-engines.md §14): the automaton of a pattern's whole
// search (compileDFA with search), as data that a small awk function
// (templates/table.awk) runs one array lookup a byte, stopping at the first
// state that decides. It is linear
// in every awk, where the regex engines of mawk and busybox awk backtrack:
// docs/awk-engines.md §14 has the shapes that blow up and the measurements.

// Table is the automaton of a pattern's search over bytes. Bytes fall into
// K classes (Class); class 0 is the largest, and NUL is read as one of its
// bytes: the patterns' sets never hold NUL, where Python's '.' and [^…]
// match it, but no value does either (the decoders write \u0000 as \001). Next[s*K+c] is the state
// after a byte of class c in state s, or Match when every continuation
// matches (a match was found), or Dead when none does. End[s] tells that a
// subject ending in s matches. Start is the first state (or Match: the
// empty string matches at the start, so every subject does).
type Table struct {
	K     int
	Class [256]uint8
	Start int32
	Next  []int32
	End   []bool
}

// The targets of Table.Next that are no state.
const (
	Match int32 = -1
	Dead  int32 = -2
)

// maxTable bounds the entries (states × classes) of a table, and
// maxTableStates the states of the automaton before it is minimized: a
// larger one costs too much to build (10-100 ms) and its table too much
// program text to read at every call.
const (
	maxTable       = 8000
	maxTableStates = 400
)

// States is the number of states of t.
func (t *Table) States() int { return len(t.End) }

// Run runs t over v and reports whether Python's search matches.
func (t *Table) Run(v string) bool {
	s := t.Start
	for i := 0; i < len(v) && s >= 0; i++ {
		s = t.Next[int(s)*t.K+int(t.Class[v[i]])]
	}
	return s == Match || (s >= 0 && t.End[s])
}

// tableOf writes d as a Table, its classes numbered as d numbers them.
func tableOf(d *dfa) (*Table, bool) {
	k := len(d.reps)
	if k*len(d.next) > maxTable {
		return nil, false
	}
	live := d.live()
	// The largest class becomes class 0, which the awk data leave out, and
	// NUL joins it (see AWKData).
	var count [256]int
	for b := 1; b < 256; b++ {
		count[d.class[b]]++
	}
	big := 0
	for c := 1; c < k; c++ {
		if count[c] > count[big] {
			big = c
		}
	}
	perm := make([]int, k)
	for c := range perm {
		perm[c] = c
	}
	perm[big], perm[0] = 0, big
	t := &Table{K: k}
	for b := 1; b < 256; b++ {
		t.Class[b] = uint8(perm[d.class[b]])
	}
	// number the states that stay states: live and not yet decided
	num := make([]int32, len(d.next))
	for i := range d.next {
		switch {
		case !live[i]:
			num[i] = Dead
		case d.accept[i] == accSink:
			num[i] = Match
		default:
			num[i] = int32(len(t.End))
			t.End = append(t.End, d.accept[i] == accEnd)
		}
	}
	t.Start = num[0]
	for i, row := range d.next {
		if num[i] < 0 {
			continue
		}
		out := make([]int32, k)
		for c, to := range row {
			out[perm[c]] = num[to]
		}
		t.Next = append(t.Next, out...)
	}
	return t, true
}

// AWKData returns the three strings that hk_dfa (templates/table.awk) loads t from,
// as space-separated numbers: the classes of the bytes 1 to 255, the
// transitions, and the states that accept at the end of the value. In the
// awk table a state s is the number 2+s*K, the index of its first entry
// after T[1], which holds the start; Match is 0 and Dead -1. A run of n
// equal numbers is written n*x.
func (t *Table) AWKData() (classes, next, ends string) {
	var cs, ns, es strings.Builder
	rle := func(w *strings.Builder, vals []int) {
		for i := 0; i < len(vals); {
			j := i
			for j < len(vals) && vals[j] == vals[i] {
				j++
			}
			if w.Len() > 0 {
				w.WriteByte(' ')
			}
			if j-i > 1 {
				w.WriteString(strconv.Itoa(j - i))
				w.WriteByte('*')
			}
			w.WriteString(strconv.Itoa(vals[i]))
			i = j
		}
	}
	var cls []int
	for i := 1; i < 256; i++ {
		cls = append(cls, int(t.Class[i]))
	}
	rle(&cs, cls)
	num := func(s int32) int {
		switch s {
		case Match:
			return 0
		case Dead:
			return -1
		}
		return 2 + int(s)*t.K
	}
	vals := append([]int{num(t.Start)}, make([]int, 0, len(t.Next))...)
	for _, s := range t.Next {
		vals = append(vals, num(s))
	}
	rle(&ns, vals)
	for s, end := range t.End {
		if end {
			if es.Len() > 0 {
				es.WriteByte(' ')
			}
			es.WriteString(strconv.Itoa(num(int32(s))))
		}
	}
	return cs.String(), ns.String(), es.String()
}

// Linear reports whether the regex engines of mawk and busybox awk match
// ere (as AWK writes it) in time linear in the subject, judged
// conservatively from its shape (docs/awk-engines.md §14). Both try the
// regex at every start of an unanchored search and backtrack from each: a
// repeat whose bytes can also begin a match (x[^y]*y on xxx…), two
// repeats that can share a run (\s+.* on spaces), or a repeat inside a
// repeat ((a+)+) make the work quadratic, polynomial or exponential. ere
// is linear when each branch of its top-level alternation is a sequence of
// bytes, groups without unbounded repeats, and unbounded repeats of bodies
// that match each string in one way only, and each such repeat is preceded,
// since the branch's start or the repeat before it, by a byte that the
// repeat cannot take: an attempt then reaches a run of the repeat from a
// bounded number of starts, and every way of shortening the run fails at
// that byte.
func Linear(ere string) bool {
	root, err := parseERE(ere)
	if err != nil {
		return false
	}
	branches := []*bnode{root}
	if root.kind == bAlt {
		branches = root.subs
	}
	for _, br := range branches {
		items := []*bnode{br}
		if br.kind == bSeq {
			items = br.subs
		}
		var before []byteSet // the mandatory bytes since the last repeat
		for _, it := range items {
			switch {
			case it.kind == bBytes:
				before = append(before, it.set)
			case it.kind == bRep && it.max < 0:
				body := it.subs[0]
				if !unambiguous(body) {
					return false
				}
				taken := bytesOf(body)
				stop := false
				for _, s := range before {
					if s.intersect(taken).empty() {
						stop = true
					}
				}
				if !stop {
					return false
				}
				before = nil
			case unbounded(it):
				return false
			}
		}
	}
	return true
}

func (s byteSet) intersect(t byteSet) byteSet {
	return byteSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

// unbounded reports whether b holds a repeat without a maximum.
func unbounded(b *bnode) bool {
	if b.kind == bRep && b.max < 0 {
		return true
	}
	for _, x := range b.subs {
		if unbounded(x) {
			return true
		}
	}
	return false
}

// bytesOf is every byte that b can match.
func bytesOf(b *bnode) byteSet {
	s := b.set
	for _, x := range b.subs {
		s = s.union(bytesOf(x))
	}
	return s
}

// unambiguous reports whether b is a set of strings of bytes (sequences
// of bytes, alternatives of them) that matches a string in one way only
// and of which no string is a prefix of another: any two alternatives
// differ at a position where both have a byte, in disjoint sets.
func unambiguous(b *bnode) bool {
	var seqs [][]byteSet
	alts := []*bnode{b}
	if b.kind == bAlt {
		alts = b.subs
	}
	for _, a := range alts {
		var seq []byteSet
		items := []*bnode{a}
		if a.kind == bSeq {
			items = a.subs
		}
		for _, it := range items {
			if it.kind != bBytes {
				return false
			}
			seq = append(seq, it.set)
		}
		seqs = append(seqs, seq)
	}
	for i := range seqs {
		for j := i + 1; j < len(seqs); j++ {
			apart := false
			for k := 0; k < len(seqs[i]) && k < len(seqs[j]); k++ {
				if seqs[i][k].intersect(seqs[j][k]).empty() {
					apart = true
					break
				}
			}
			if !apart {
				return false
			}
		}
	}
	return true
}

// Regex is a pattern compiled for the hooks: its ERE, and its table where
// the awks that backtrack could take more than linear time on the ERE.
type Regex struct {
	// ERE and Words are Translate's results: with Words, ERE and Table
	// read Rewrite(Words, v).
	ERE, Words string
	// Table, when not nil, is the automaton of the search, which the awk
	// hook runs instead of ERE (see Linear).
	Table *Table
}

// Compile translates pattern as ERE does and adds the table of its search
// when the ERE is not Linear and the automaton stays within its limits (a
// pattern whose automaton has too many states keeps its ERE alone). The
// error is ERE's.
func Compile(pattern string, flags Flags) (*Regex, error) {
	ere, words, err := Translate(pattern, flags)
	if err != nil {
		return nil, err
	}
	r := &Regex{ERE: ere, Words: words}
	r.Table, _ = TableFor(ere)
	return r, nil
}

// The table of an ERE: a Thompson NFA of pyre's byte tree and its subset
// construction with bit sets, which takes microseconds a state where the
// automaton of the Python pattern (compileDFA, with its lookaround
// obligations) takes a millisecond. The ERE is exact (it matches what
// Python's search does), so its search automaton is too: an unanchored
// search, ^ only at the start of the value and $ only at its end.

const (
	enByte = iota
	enEps
	enBOL
	enEOL
	enFinal
)

type enState struct {
	kind uint8
	set  byteSet
	out  []int
}

type enfa struct {
	st []enState
}

func (n *enfa) add(s enState) int {
	n.st = append(n.st, s)
	return len(n.st) - 1
}

// build adds b so that it continues at next and returns its entry, or -1
// when the NFA grows past limit states.
func (n *enfa) build(b *bnode, next, limit int) int {
	if next < 0 || len(n.st) > limit {
		return -1
	}
	switch b.kind {
	case bEmpty:
		return next
	case bNever:
		return n.add(enState{kind: enByte, out: []int{next}})
	case bBytes:
		return n.add(enState{kind: enByte, set: b.set, out: []int{next}})
	case bSeq:
		for i := len(b.subs) - 1; i >= 0; i-- {
			next = n.build(b.subs[i], next, limit)
		}
		return next
	case bAlt:
		e := enState{kind: enEps}
		for _, s := range b.subs {
			x := n.build(s, next, limit)
			if x < 0 {
				return -1
			}
			e.out = append(e.out, x)
		}
		return n.add(e)
	case bRep:
		if b.max < 0 {
			loop := n.add(enState{kind: enEps})
			body := n.build(b.subs[0], loop, limit)
			if body < 0 {
				return -1
			}
			n.st[loop].out = []int{body, next}
			next = loop
		} else {
			for i := b.max - b.min; i > 0 && next >= 0; i-- {
				body := n.build(b.subs[0], next, limit)
				if body < 0 {
					return -1
				}
				next = n.add(enState{kind: enEps, out: []int{body, next}})
			}
		}
		for i := 0; i < b.min && next >= 0; i++ {
			next = n.build(b.subs[0], next, limit)
		}
		return next
	case bBOL:
		return n.add(enState{kind: enBOL, out: []int{next}})
	case bEOL:
		return n.add(enState{kind: enEOL, out: []int{next}})
	}
	return -1
}

// closure adds to set every state reachable from its members without a
// byte; ^ holds only atStart, $ only atEnd.
func (n *enfa) closure(set []uint64, atStart, atEnd bool, stack []int) []int {
	stack = stack[:0]
	for w, x := range set {
		for x != 0 {
			stack = append(stack, w*64+bits.TrailingZeros64(x))
			x &= x - 1
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := &n.st[i]
		switch {
		case s.kind == enEps, s.kind == enBOL && atStart, s.kind == enEOL && atEnd:
			for _, o := range s.out {
				if set[o>>6]&(1<<(o&63)) == 0 {
					set[o>>6] |= 1 << (o & 63)
					stack = append(stack, o)
				}
			}
		}
	}
	return stack
}

// TableFor returns the table that a hook runs instead of ere
// (docs/awk-engines.md §14): for an ERE that is not Linear (mawk, busybox
// awk or .NET could backtrack on it) and whose automaton NewTable builds;
// ok is false where the ERE itself runs. Both backends ask it, so they
// decide alike. A process builds each table once: a build asks for each
// ERE of both backends, and watch and the tests build the same rules again
// and again (the first maxCached EREs asked are kept).
func TableFor(ere string) (t *Table, ok bool) {
	if v, found := tables.Load(ere); found {
		e := v.(cachedTable)
		return e.t, e.ok
	}
	if !Linear(ere) {
		t, ok = NewTable(ere)
	}
	if cached.Add(1) <= maxCached {
		tables.Store(ere, cachedTable{t, ok})
	}
	return t, ok
}

type cachedTable struct {
	t  *Table
	ok bool
}

const maxCached = 4096

var (
	tables sync.Map // ERE → cachedTable
	cached atomic.Int64
)

// NewTable returns the table of the search of ere (an ERE that Validate
// accepts, as ERE writes them), or false when its automaton is beyond the
// table's limits or every value matches (no table is needed).
func NewTable(ere string) (*Table, bool) {
	root, err := parseERE(ere)
	if err != nil {
		return nil, false
	}
	n := &enfa{}
	fin := n.add(enState{kind: enFinal})
	start := n.build(root, fin, 20000)
	if start < 0 {
		return nil, false
	}
	// byte classes: bytes that every set of the ERE treats alike
	var sig [256][]byte
	for _, s := range n.st {
		if s.kind != enByte {
			continue
		}
		for b := 0; b < 256; b++ {
			if s.set.has(byte(b)) {
				sig[b] = append(sig[b], 1)
			} else {
				sig[b] = append(sig[b], 0)
			}
		}
	}
	d := &dfa{}
	classOf := map[string]uint8{}
	for b := 0; b < 256; b++ {
		k := string(sig[b])
		c, ok := classOf[k]
		if !ok {
			c = uint8(len(d.reps))
			classOf[k] = c
			d.reps = append(d.reps, byte(b))
		}
		d.class[b] = c
	}
	// Minimizing seldom halves the states: past twice what the table
	// may hold, give up early.
	limit := min(maxTableStates, 2*maxTable/len(d.reps))
	words := (len(n.st) + 63) / 64
	has := func(set []uint64, i int) bool { return set[i>>6]&(1<<(i&63)) != 0 }
	index := map[string]int32{}
	var sets [][]uint64
	var first []bool
	var kb []byte
	key := func(set []uint64, atStart bool) string {
		kb = kb[:0]
		if atStart {
			kb = append(kb, 1)
		}
		for _, x := range set {
			kb = binary.LittleEndian.AppendUint64(kb, x)
		}
		return string(kb)
	}
	intern := func(set []uint64, atStart bool) (int32, bool) {
		k := key(set, atStart)
		if id, ok := index[k]; ok {
			return id, true
		}
		if len(sets) >= limit {
			return 0, false
		}
		sets = append(sets, set)
		first = append(first, atStart)
		index[k] = int32(len(sets) - 1)
		return int32(len(sets) - 1), true
	}
	var stack []int
	s0 := make([]uint64, words)
	s0[start>>6] |= 1 << (start & 63)
	stack = n.closure(s0, true, false, stack)
	intern(s0, true)
	next := make([]uint64, words)
	for i := 0; i < len(sets); i++ {
		set := sets[i]
		row := make([]int32, len(d.reps))
		if has(set, fin) {
			// a match: the state loops, whatever follows
			for c := range row {
				row[c] = int32(i)
			}
			d.next = append(d.next, row)
			d.accept = append(d.accept, accSink)
			continue
		}
		acc := uint8(0)
		end := slices.Clone(set)
		stack = n.closure(end, first[i], true, stack)
		if has(end, fin) {
			acc = accEnd
		}
		var active []int // the states that read a byte
		for w, x := range set {
			for x != 0 {
				j := w*64 + bits.TrailingZeros64(x)
				x &= x - 1
				if n.st[j].kind == enByte {
					active = append(active, j)
				}
			}
		}
		for c, b := range d.reps {
			clear(next)
			next[start>>6] |= 1 << (start & 63)
			for _, j := range active {
				if n.st[j].set.has(b) {
					o := n.st[j].out[0]
					next[o>>6] |= 1 << (o & 63)
				}
			}
			stack = n.closure(next, false, false, stack)
			id, ok := intern(next, false)
			if !ok {
				return nil, false
			}
			if int(id) == len(sets)-1 && &sets[id][0] == &next[0] {
				next = make([]uint64, words)
			}
			row[c] = id
		}
		d.next = append(d.next, row)
		d.accept = append(d.accept, acc)
	}
	t, ok := tableOf(d.minimize())
	if !ok || t.Start == Match {
		return nil, false
	}
	return t, true
}
