package pyre

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzERE compares Python's re.search with bash [[ =~ ]] on the translated ERE, for
// one pattern and a few subjects derived from the fuzzed one. A pattern ERE refuses
// passes unless the refusal claims a syntax error that Python does not raise.
func FuzzERE(f *testing.F) {
	for _, p := range []string{`\bfoo\b`, `a$`, `(?m)^x`, `[^a-z]+`, `k`, `(?s).{2}`} {
		f.Add(p, "foo\nK x")
	}
	f.Fuzz(func(t *testing.T, pattern, subject string) {
		if len(pattern) > 64 || len(subject) > 24 || !utf8.ValidString(pattern) ||
			!utf8.ValidString(subject) || strings.ContainsRune(subject, 0) {
			return
		}
		o := getOracle(t)
		subjects := []string{subject, subject + "\n", "\n" + subject, strings.ToUpper(subject), ""}
		py := o.python(t, pyCase{P: pattern, S: subjects})
		ere, err := ERE(pattern, IgnoreCase)
		if err != nil {
			e, ok := err.(*Error)
			switch {
			case !ok:
				t.Fatalf("error is not an *Error: %v", err)
			case e.Construct == "internal error":
				t.Fatalf("pattern %q: %v", pattern, err)
			case e.Construct == "syntax error" && py.Err == "":
				t.Fatalf("pattern %q: Python compiles it, but ERE says: %v", pattern, err)
			}
			return
		}
		if py.Err != "" {
			t.Fatalf("pattern %q: Python rejects it (%s), but ERE gave %q", pattern, py.Err, ere)
		}
		got := o.bashMatch(t, ere, subjects)
		for i, s := range subjects {
			if got[i] == '2' {
				t.Fatalf("pattern %q: bash rejects the ERE %q", pattern, ere)
			}
			if py.Match[i] < 0 {
				continue
			}
			if (got[i] == '0') != (py.Match[i] == 1) && !(py.NonASCII[i] && usesASCIIClasses(pattern)) {
				t.Fatalf("pattern %q subject %q: Python %v, bash %v\nERE %q",
					pattern, s, py.Match[i] == 1, got[i] == '0', ere)
			}
		}
	})
}
