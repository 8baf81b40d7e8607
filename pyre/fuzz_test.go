package pyre

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookify/hookify/internal/testenv"
)

// FuzzERE compares Python's re.search with bash [[ =~ ]] on the translated ERE, and
// with each of the four awks on its awk form (AWK), for one pattern and a few
// subjects derived from the fuzzed one. A pattern ERE refuses
// passes unless the refusal claims a syntax error that Python does not raise.
func FuzzERE(f *testing.F) {
	for _, p := range []string{`\bfoo\b`, `a$`, `(?m)^x`, `[^a-z]+`, `k`, `(?s).{2}`, `x(?!k)`, `(a(?!ſb)|c)`,
		`xa{2,5}y`, `x(ab|c){0,30}y`, `x.{0,61}y`, `x(a{1,3}b){2,}y`, `^\w{3}$`,
		`x[^y]*y`, `git\s+push\s+.*(--force|-f)(\s|$)`, `^(\w+\s?)*$`} {
		f.Add(p, "foo\nK x")
	}
	// lookarounds anywhere, nested, in repeats and alternatives, side by side;
	// \b and \B between characters of either kind; non-ASCII subjects
	for _, c := range [][2]string{
		{`git reset(?!.*--hard)`, "git reset --soft é"}, {`(?<=a)b(?=c)`, "xabcé"}, {`(?<!\w)x\b`, "éx y"},
		{`(a(?=b)|c(?!d))+e`, "abce"}, {`^(?!(feat|fix): ).+`, "feat: x\n"}, {`x\b\w*\B.`, "xé yy"},
		{`(?<=ab)(?=cd)`, "abcd"}, {`((?!ab).)*$`, "aab\nb"}, {`(?<=a(?<!b))c`, "ac bc"}, {`\B$`, "é "},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pattern, subject string) {
		if len(pattern) > 64 || len(subject) > 24 || !utf8.ValidString(pattern) ||
			!utf8.ValidString(subject) || strings.ContainsRune(subject, 0) {
			return
		}
		o := getOracle(t)
		subjects := []string{subject, subject + "\n", "\n" + subject, strings.ToUpper(subject), ""}
		py := o.python(t, pyCase{P: pattern, S: subjects})
		var ere, words string
		var table *Table
		rx, err := Compile(pattern, IgnoreCase)
		if err == nil {
			ere, words, table = rx.ERE, rx.Words, rx.Table
		}
		rewritten := make([]string, len(subjects))
		for i, s := range subjects {
			rewritten[i] = Rewrite(words, s)
		}
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
		got := o.bashMatch(t, ere, rewritten)
		for i, s := range subjects {
			if got[i] == '2' {
				t.Fatalf("pattern %q: bash rejects the ERE %q", pattern, ere)
			}
			if py.Match[i] < 0 || py.newer(i) {
				continue
			}
			if (got[i] == '0') != (py.Match[i] == 1) {
				t.Fatalf("pattern %q subject %q: Python %v, bash %v\nERE %q",
					pattern, s, py.Match[i] == 1, got[i] == '0', ere)
			}
		}
		f, err := AWK(ere)
		re, intervals := f.Text, f.Intervals
		if err != nil {
			t.Fatalf("pattern %q: AWK(%q): %v", pattern, ere, err)
		}
		oracles := getAwkOracles(t)
		for _, a := range testenv.Awks {
			if a == "mawk" && intervals {
				continue // Debian 12's mawk reads intervals as text
			}
			got := oracles[a].match(t, re, rewritten)
			for i, s := range subjects {
				if py.Match[i] >= 0 && !py.newer(i) && (got[i] == '1') != (py.Match[i] == 1) {
					t.Fatalf("pattern %q subject %q: Python %v, %s %v\nERE %q\nawk form %q",
						pattern, s, py.Match[i] == 1, a, got[i] == '1', ere, re)
				}
			}
			if table == nil {
				continue
			}
			got = oracles[a].matchTable(t, table, rewritten)
			for i, s := range subjects {
				if py.Match[i] >= 0 && !py.newer(i) && (got[i] == '1') != (py.Match[i] == 1) {
					t.Fatalf("pattern %q subject %q: Python %v, its table in %s %v", pattern, s, py.Match[i] == 1, a, got[i] == '1')
				}
			}
		}
	})
}

// FuzzNeedle checks Needle against bash [[ =~ ]]: every subject bash matches
// contains the needle, and for an exact needle, bash matches exactly the subjects
// that contain it. It checks the ERE that ERE makes of the fuzzed pattern, and the
// pattern itself when it is an ERE that Validate accepts (so hand-written forms such
// as POSIX classes, negated brackets and quantified groups are covered too). The
// subjects are the fuzzed one, samples of the ERE, and strings built around the
// needle (see needleSubjects).
func FuzzNeedle(f *testing.F) {
	for _, s := range [][2]string{
		{`(^|\s)tool1\s+--(force|danger)\b`, " TOOL1  --Force"},
		{`\.env$`, "a/.ENV\n"},
		{"[Rr][Mm] +-[Rr][Ff]", "rm   -RF /"},
		{"(ab)+c", "xababC"},
		{"x[Aa]{2,}[Bb]", "xaAAb"},
		{"([Aa][0-9][Bb][Cc]){2}", "a1bca2bc"},
		{"[^[:alpha:]]x[[:digit:]]", "-x1"},
		{"(x|yy)[Aa]-[Bb]|z[Aa]-[Bb]", "yyA-b"},
		{"\\[\\\\\\$\n\xc3\xa9", "[\\$\n\xc3\xa9"},
		{"kubectl", "KUBECTL"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, subject string) {
		if len(pattern) > 64 || len(subject) > 24 || strings.ContainsRune(subject, 0) {
			return
		}
		seed := int64(0)
		for _, c := range []byte(pattern + "\x00" + subject) {
			seed = seed*131 + int64(c)
		}
		r := rand.New(rand.NewSource(seed))
		check := func(what, ere string, others []string) {
			root, err := parseERE(ere)
			if err != nil || root.size() > 2000 { // bash expands counted repeats
				return
			}
			needle, exact := Needle(ere)
			if needle == "" {
				if exact {
					t.Fatalf("%s: ERE %q: exact without a needle", what, ere)
				}
				return
			}
			subjects := append(others, subject, randomCase(r, subject)+randomCase(r, needle))
			for _, s := range needleSubjects(r, root, needle, others) {
				if !strings.ContainsRune(s, 0) {
					subjects = append(subjects, s)
				}
			}
			got := getOracle(t).bashMatch(t, ere, subjects)
			for i, s := range subjects {
				if got[i] == '2' {
					t.Fatalf("%s: bash rejects the ERE %q", what, ere)
				}
				matched, has := got[i] == '0', containsNeedle(s, needle)
				if matched && !has || exact && has && !matched {
					t.Fatalf("%s: ERE %q, needle %q (exact %v): bash matched %v on %q",
						what, ere, needle, exact, matched, s)
				}
			}
		}
		if utf8.ValidString(pattern) {
			if ere, err := ERE(pattern, IgnoreCase); err == nil {
				check("pattern "+strconv.Quote(pattern), ere, subjects(r, pattern, 3))
			}
		}
		check("ERE", pattern, nil)
	})
}
