package pyre

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWriteBytesCache checks that writeBytes, which caches spellings, writes
// what spellBytes computes afresh, for both bracket contexts in either order,
// on random sets with and without a backslash (whose spelling depends on the
// context).
func TestWriteBytesCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	for i := range 4000 {
		var s byteSet
		for range 2 + rng.IntN(40) {
			s.add(byte(1 + rng.IntN(255)))
		}
		if i%2 == 0 {
			s.add('\\')
		}
		precs := []int{precAlt, precAtom}
		if i%4 < 2 {
			precs = []int{precAtom, precAlt}
		}
		for _, prec := range precs {
			var w strings.Builder
			writeBytes(&w, s, prec)
			if want := spellBytes(s, prec); w.String() != want {
				t.Fatalf("writeBytes(%v, %d) = %q, want %q", s, prec, w.String(), want)
			}
		}
	}
}
