package pyre

import (
	"slices"
	"sort"
)

// maxRune is the largest Unicode code point, as in Python's sys.maxunicode.
const maxRune = 0x10FFFF

// rrange is an inclusive range of code points.
type rrange struct{ lo, hi rune }

// runeSet is a set of code points: sorted, non-overlapping, non-adjacent ranges.
// The zero value is the empty set. Values are never modified in place.
type runeSet []rrange

// newRuneSet builds a normalized set from arbitrary ranges.
func newRuneSet(rs ...rrange) runeSet {
	if len(rs) == 0 {
		return nil
	}
	c := append([]rrange(nil), rs...)
	sort.Slice(c, func(i, j int) bool { return c[i].lo < c[j].lo })
	out := runeSet{c[0]}
	for _, r := range c[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			if r.hi > last.hi {
				last.hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// runes builds a set from single code points.
func runes(rs ...rune) runeSet {
	rr := make([]rrange, len(rs))
	for i, r := range rs {
		rr[i] = rrange{r, r}
	}
	return newRuneSet(rr...)
}

// span is the set [lo, hi].
func span(lo, hi rune) runeSet { return runeSet{{lo, hi}} }

func (s runeSet) empty() bool { return len(s) == 0 }

func (s runeSet) has(r rune) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi >= r })
	return i < len(s) && s[i].lo <= r
}

func (s runeSet) union(t runeSet) runeSet {
	if len(t) == 0 {
		return s
	}
	if len(s) == 0 {
		return t
	}
	return newRuneSet(append(append([]rrange(nil), s...), t...)...)
}

// complement returns [0, maxRune] minus s.
func (s runeSet) complement() runeSet {
	var out runeSet
	next := rune(0)
	for _, r := range s {
		if r.lo > next {
			out = append(out, rrange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= maxRune {
		out = append(out, rrange{next, maxRune})
	}
	return out
}

func (s runeSet) intersect(t runeSet) runeSet {
	var out runeSet
	i, j := 0, 0
	for i < len(s) && j < len(t) {
		lo, hi := max(s[i].lo, t[j].lo), min(s[i].hi, t[j].hi)
		if lo <= hi {
			out = append(out, rrange{lo, hi})
		}
		if s[i].hi < t[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

func (s runeSet) minus(t runeSet) runeSet { return s.intersect(t.complement()) }

func (s runeSet) equal(t runeSet) bool { return slices.Equal(s, t) }

// subsetOf reports whether every member of s is in t.
func (s runeSet) subsetOf(t runeSet) bool { return s.minus(t).empty() }

// overlaps reports whether s and t share a member.
func (s runeSet) overlaps(t runeSet) bool { return !s.intersect(t).empty() }

// each calls f for every member of s in ascending order.
func (s runeSet) each(f func(rune)) {
	for _, r := range s {
		for c := r.lo; c <= r.hi; c++ {
			f(c)
		}
	}
}
