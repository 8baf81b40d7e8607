package pyre

import (
	"strconv"
	"strings"
)

// The table matcher (issue 22, SPEC §9.4): the automaton of a pattern's whole
// search (compileDFA with search), as data that a small awk function runs one
// array lookup a byte, stopping at the first state that decides. It is linear
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

// maxTable bounds the entries (states × classes) of a table.
const maxTable = 12000

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

// buildTable returns the table of root's search, the smaller of the
// automaton and its form with UTF-8's free transitions (dontCare), or false
// when the automaton is beyond the limits.
func buildTable(root *node) (*Table, bool) {
	d, err := compileDFA(root, true, pcStart)
	if err != nil {
		return nil, false
	}
	best := d
	if dc := d.dontCare(); len(dc.next) < len(d.next) {
		best = dc
	}
	return tableOf(best)
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

// TableAWK holds the awk functions that run a table (see AWKData):
// hk_dfa(v, T, C, E, classes, next, ends), with T, C and E arrays of the
// table's own, loaded from the three strings the first time, tells whether
// the table matches v. It reads v in windows of 4 KB (BWK and busybox awk
// measure the whole string at every substr) and a byte at a time with
// substr, the fastest of the forms measured (docs/awk-engines.md §14).
// States are numbered by their first entry in T, so a byte costs one lookup
// in C and one in T; 0 is Match and -1 Dead, so the loop stops at the
// first state that decides. A byte that is not in C reads as class 0.
// hk_drle expands a string of AWKData's numbers into A[1], A[2], ...
const TableAWK = `function hk_drle(s, A,   n, i, m, p, r, x, a) {
  n = split(s, a, " "); m = 0
  for (i = 1; i <= n; i++) {
    x = a[i]; r = 1
    if (p = index(x, "*")) { r = substr(x, 1, p - 1) + 0; x = substr(x, p + 1) }
    x += 0
    while (r-- > 0) A[++m] = x
  }
}
function hk_dfa(v, T, C, E, c, t, e,   s, n, p, w, i, m, a) {
  if (!(0 in T)) {
    T[0] = 0
    if (!(1 in hk_chr)) for (i = 1; i < 256; i++) hk_chr[i] = sprintf("%c", i)
    hk_drle(c, a)
    for (i = 1; i < 256; i++) if (a[i]) C[hk_chr[i]] = a[i]
    hk_drle(t, T)
    n = split(e, a, " ")
    for (i = 1; i <= n; i++) E[a[i]] = 1
  }
  s = T[1]
  n = length(v)
  for (p = 1; p <= n && s > 0; p += 4096) {
    w = substr(v, p, 4096); m = length(w)
    for (i = 1; i <= m && s > 0; i++) s = T[s + C[substr(w, i, 1)]]
  }
  return s == 0 || (s > 0 && (s in E))
}
`

// AWKData returns the three strings that hk_dfa (TableAWK) loads t from,
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
	// ERE is ERE's result.
	ERE string
	// Table, when not nil, is the automaton of the search, which the awk
	// hook runs instead of ERE (see Linear).
	Table *Table
}

// Compile translates pattern as ERE does and adds the table of its search
// when the ERE is not Linear and the automaton stays within its limits (a
// pattern whose automaton has too many states keeps its ERE alone). The
// error is ERE's.
func Compile(pattern string, flags Flags) (*Regex, error) {
	ere, root, err := translatePattern(pattern, flags)
	if err != nil {
		return nil, err
	}
	r := &Regex{ERE: ere}
	if !Linear(ere) {
		if t, ok := buildTable(root); ok && t.Start != Match {
			r.Table = t
		}
	}
	return r, nil
}
