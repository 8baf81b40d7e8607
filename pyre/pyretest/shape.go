// Package pyretest makes patterns for the tests of pyre and of the hooks
// that run its output.
package pyretest

import (
	"math/rand"
	"strings"
)

// Shape draws a Python pattern of the shapes that backtracking engines
// (mawk, busybox awk, .NET) are slow on (docs/awk-engines.md §14): repeats
// whose bytes can begin a match, runs that two repeats can share, repeats
// in repeats, next to words, sets, alternatives, anchors and a non-ASCII
// letter. Half of them end with a y, which long values built without one
// make every start fail late on.
func Shape(r *rand.Rand) string {
	words := []string{"git", "push", "x", "rm", "-f", "é", "a"}
	sets := []string{`\s`, `[^y]`, `.`, `\w`, `[a-z]`, `x`, `a`, `-`, `[éa]`}
	var b strings.Builder
	if r.Intn(4) == 0 {
		b.WriteString("^")
	}
	for n := 2 + r.Intn(4); n > 0; n-- {
		w, s := words[r.Intn(len(words))], sets[r.Intn(len(sets))]
		switch r.Intn(7) {
		case 0:
			b.WriteString(w)
		case 1:
			b.WriteString(s)
		case 2:
			b.WriteString(s + "+")
		case 3:
			b.WriteString(s + "*")
		case 4:
			b.WriteString("(" + w + "|" + words[r.Intn(len(words))] + ")")
		case 5:
			b.WriteString("(" + s + "+" + sets[r.Intn(len(sets))] + "?)*")
		case 6:
			b.WriteString(`(\s|$)`)
		}
	}
	switch r.Intn(4) {
	case 0:
		b.WriteString("$")
	case 1, 2:
		b.WriteString("y")
	}
	return b.String()
}
