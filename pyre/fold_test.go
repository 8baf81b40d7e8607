package pyre

import (
	"math/rand/v2"
	"testing"
)

// slowPreimage is preimage by its definition, {c : lower(c) in s}: it lowers
// every character of lowerChanged and looks the result up. It is the oracle
// for the inverse map that preimage uses.
func slowPreimage(m *foldMode, s runeSet) runeSet {
	out := s.minus(m.lowerChanged)
	var extra []rune
	m.lowerChanged.each(func(c rune) {
		if s.has(m.lower(c)) {
			extra = append(extra, c)
		}
	})
	return out.union(runes(extra...))
}

// slowLiteralSet is literalSet without the inverse map or the cache.
func slowLiteralSet(r rune, f pyFlags) runeSet {
	m := foldFor(f)
	if m == nil || !m.cased.has(r) {
		return runes(r)
	}
	return slowPreimage(m, m.withFixes(runes(m.lower(r))))
}

// TestLiteralSetMatchesDefinition compares literalSet with its definition
// for every code point under every flag combination that folds differently,
// twice, so that the second answer comes from the cache.
func TestLiteralSetMatchesDefinition(t *testing.T) {
	for _, f := range []pyFlags{0, flagIgnoreCase, flagIgnoreCase | flagASCII} {
		for r := rune(0); r <= maxRune; r++ {
			want := slowLiteralSet(r, f)
			for range 2 {
				if got := literalSet(r, f); !got.equal(want) {
					t.Fatalf("literalSet(%U, %#x) = %v, want %v", r, f, got, want)
				}
			}
		}
	}
}

// TestPreimageMatchesDefinition compares preimage with its definition in both
// fold modes, on every single character that is cased or a lowercase image,
// and on random sets of ranges and their complements.
func TestPreimageMatchesDefinition(t *testing.T) {
	u, a := folds()
	rng := rand.New(rand.NewPCG(15, 1))
	var sets []runeSet
	interesting := u.cased
	for _, p := range u.inverse {
		interesting = interesting.union(runes(p.l))
	}
	interesting.each(func(r rune) { sets = append(sets, runes(r)) })
	for range 3000 {
		var rs []rrange
		for range 1 + rng.IntN(6) {
			// Mostly where the case mappings are, sometimes anywhere.
			top := rune(0x1FFFF)
			if rng.IntN(4) == 0 {
				top = maxRune
			}
			lo := rng.Int32N(top)
			rs = append(rs, rrange{lo, min(lo+rng.Int32N(1+rng.Int32N(5000)), maxRune)})
		}
		s := newRuneSet(rs...)
		sets = append(sets, s, s.complement())
	}
	sets = append(sets, nil, allRunes, span('A', 'Z'), span('a', 'z'), nonASCII)
	for _, m := range []*foldMode{u, a} {
		for _, s := range sets {
			if got, want := m.preimage(s), slowPreimage(m, s); !got.equal(want) {
				t.Fatalf("preimage(%v) = %v, want %v", s, got, want)
			}
		}
	}
}
