package pyre

import (
	"testing"
)

// TestDFASearch runs the automaton of the whole search (the one a pattern with
// a lookbehind is written from, and the one a table matcher would run) in Go
// on the differential cases that need it, and compares each verdict with
// Python's.
func TestDFASearch(t *testing.T) {
	requireTools(t)
	cases := differentialCases()
	if testing.Short() {
		cases = cases[:len(cases)/4]
	}
	res := runPython(t, cases)
	built, compared := 0, 0
	for ci, c := range cases {
		py := res[ci]
		root, perr := parse(c.P, flagIgnoreCase)
		if py.Err != "" || root == nil || (perr != nil && !perr.onlyDFA()) {
			continue
		}
		// only the patterns that need it: the others are plain EREs
		var alpha *alphabet
		if unicodeSensitive(root) {
			alpha = newAlphabet(root)
		}
		if _, terr := (&translator{alpha: alpha}).translate(root); terr == nil && perr == nil {
			continue
		}
		d, err := compileDFA(root, true, pcStart, alpha)
		if err != nil {
			continue
		}
		built++
		for si, s := range c.S {
			if py.Match[si] < 0 || py.newer(si) {
				continue
			}
			compared++
			if got, want := d.match(Rewrite(alpha.spec(), s)), py.Match[si] == 1; got != want {
				t.Errorf("pattern %q subject %q: Python %v, automaton %v", c.P, s, want, got)
			}
		}
	}
	t.Logf("%d automata, %d verdicts compared", built, compared)
	if built < len(cases)/10 {
		t.Errorf("only %d of %d patterns built an automaton", built, len(cases))
	}
}

// TestLinear pins Linear's verdicts on the shapes measured in
// docs/awk-engines.md §14: each non-linear one took mawk or busybox awk
// seconds on a value of 10 KB or less.
func TestLinear(t *testing.T) {
	for p, want := range map[string]bool{
		`x[^y]*y`: false, `a.*b`: false, `a[ab]+c`: false, `a(a|b)*c`: false, `x(a|b)*c`: true, `x.*x.*x.*y`: false,
		`git\s+push\s+.*(--force|-f)(\s|$)`: false, `^(\w+\s?)*$`: false, `^(a|aa)*$`: false,
		`(x+x+)+y`: false, `a[^\n]*b[^\n]*c`: false,
		`rm\s+-rf`: true, `rm\s+-rf\s+/`: true, `(^|\s)tool1\s+--(force|danger)\b`: true,
		`git\s+push\s+(--force|-f)(\s|$)`: true, `foo`: true, `\.env$`: true, `x\s*y`: true,
	} {
		ere, err := ERE(p, IgnoreCase)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := Linear(ere); got != want {
			t.Errorf("Linear(ERE(%q)) = %v, want %v (ERE %q)", p, got, want, ere)
		}
	}
}
