package pyre

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var needleTests = []struct {
	name, ere string
	needle    string
	exact     bool
}{
	{"letters in both cases", "[Tt][Oo][Oo][Ll]1", "tool1", true},
	{"rule-like", "(^|[\t- ])[Tt][Oo][Oo][Ll]1([\t- ])+--([Ff][Oo][Rr][Cc][Ee]|[Dd][Aa][Nn][Gg][Ee][Rr])([^0-9A-Z_a-z]|$)", "tool1", false},
	{"a longer later literal wins", "[Aa][Bb]( |\t)+[Cc][Dd][Ee]", "cde", false},
	{"the earliest of equals wins", "[Aa][Bb]( |\t)+[Cc][Dd]", "ab", false},
	{"suffix of a plus joins the next literal", "[Rr][Mm] +-[Rr][Ff]", " -rf", false},
	{"anchors are transparent but not exact", "^[Gg][Ii][Tt]$", "git", false},
	{"optional newline before the end", "\\.[Ee][Nn][Vv]\n?$", ".env", false},
	{"single letter is loose", "Ab", "ab", false},
	{"single non-letter bytes", `\.\*\(x`, ".*(x", false},
	{"special bytes", "\\[\\\\\\$\n\xc3\xa9", "[\\$\n\xc3\xa9", true},
	{"alternation of bytes", "a|b", "", false},
	{"star", "x*", "", false},
	{"question", "[Aa]?", "", false},
	{"zero count", "[Aa]{0}[Bb]", "b", false},
	{"zero to n", "[Cc][Aa]{0,3}[Bb]", "c", false},
	{"plus of a group joins", "(ab)+c", "abc", false},
	{"counted literal", "[Aa]{3}", "aaa", false},
	{"counted literal in a sequence", "x[Aa]{3}[Bb]", "xaaab", false},
	{"at least n", "x[Aa]{2,}[Bb]", "xaa", false},
	{"counted range", "-(ab){2,5}-", "-abab", false},
	{"long counted literal is capped", "[Aa]{200}", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
	{"counted group, inexact", "([Aa][0-9][Bb][Cc]){2}", "bca", false},
	{"other sets break it", "[Xx][Yy][a-c][Zz]", "xy", false},
	{"three-member set breaks it", "[Xx]!][Aa@][Bb]", "x!]", false},
	{"two letters are not a case pair", "[ab]cd", "cd", false},
	{"letter and digit", "[a1]cd", "cd", false},
	{"negated set of all but one byte", "[^\x02-\xff]z", "\x01z", false},
	{"POSIX class is every byte", "[[:upper:]]-[[:digit:]]", "-", false},
	{"negated POSIX class is every byte", "[^[:alpha:]]x[^[:alnum:]0-9]", "x", false},
	{"bracket with ] first", "[]]x", "]x", false},
	{"bracket with a literal bracket", "[[]x", "[x", false},
	{"bracket with dash", "[-]x[a-]", "-x", false},
	{"alternatives share a prefix", "[Rr][Mm] -[Rr][Ff]|[Rr][Mm] -[Ff][Rr]", "rm -", false},
	{"alternatives share a suffix", "(x|yy)[Aa]-[Bb]|z[Aa]-[Bb]", "a-b", false},
	{"equal alternatives", "(ab|ab)", "ab", false},
	{"alternatives share a one-byte suffix", "(ab|b)", "b", false},
	{"alternatives share nothing", "(ab|ba)", "", false},
	{"empty-only group", "(^)+x", "x", false},
	{"impossible bracket", "[^\x01-\xff]abc", "", false},
	{"invalid ERE", "a**", "", false},
	{"empty ERE", "", "", false},
	{"dot is invalid", "a.b", "", false},
}

func TestNeedle(t *testing.T) {
	for _, tt := range needleTests {
		needle, exact := Needle(tt.ere)
		if needle != tt.needle || exact != tt.exact {
			t.Errorf("%s: Needle(%q) = %q, %v; want %q, %v", tt.name, tt.ere, needle, exact, tt.needle, tt.exact)
		}
	}
}

// TestNeedleOfERE takes the needle of what ERE emits for Python patterns.
func TestNeedleOfERE(t *testing.T) {
	for _, tt := range []struct {
		pattern, needle string
		exact           bool
	}{
		{"tool1", "tool1", true},
		{`\.env$`, ".env", false},
		{`\.env`, ".env", true},
		// k, s and i have non-ASCII case partners (KELVIN SIGN, long s, dotted and
		// dotless i), so their positions are alternations that break the needle.
		{"kubectl", "ubectl", false},
		{"git push", "t pu", false},
		{`rm\s+-rf`, "-rf", false},
		{`(^|\s)tool1\s+--(force|danger)\b`, "tool1", false},
		{`console\.(log|warn|error)\(`, "ole.", false},
		{`git\s+push\s+(--force|-f)(\s|$)`, "pu", false},
		{`(?-i:Tool)1`, "tool1", false},
		{`a|b`, "", false},
		{`x*`, "", false},
		{`.*`, "", false},
		{`\d{3}-\d{4}`, "-", false},
	} {
		ere, err := ERE(tt.pattern, IgnoreCase)
		if err != nil {
			t.Errorf("ERE(%q): %v", tt.pattern, err)
			continue
		}
		needle, exact := Needle(ere)
		if needle != tt.needle || exact != tt.exact {
			t.Errorf("Needle(ERE(%q)) = %q, %v; want %q, %v\nERE %q", tt.pattern, needle, exact, tt.needle, tt.exact, ere)
		}
	}
}

// TestParseERERoundTrip checks the ERE parser on ERE's own output: reading an ERE
// back and printing it gives the same text, so the tree is the one ERE printed.
// The differential tests check the same on every ERE they translate
// (checkRoundTrip), so this one translates only the hand-written patterns
// and a few generated ones.
func TestParseERERoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	patterns := append([]string{}, handPatterns...)
	for i := 0; i < 300; i++ {
		patterns = append(patterns, genPattern(r))
	}
	n := 0
	for _, p := range patterns {
		ere, err := ERE(p, IgnoreCase)
		if err != nil {
			continue
		}
		n++
		checkRoundTrip(t, p, ere)
	}
	if n < 300 {
		t.Errorf("only %d of %d patterns translated", n, len(patterns))
	}
}

// checkRoundTrip reports when parseERE does not read ere back as the tree
// that prints it.
func checkRoundTrip(t *testing.T, p, ere string) {
	t.Helper()
	root, err := parseERE(ere)
	if err != nil {
		t.Errorf("pattern %q: parseERE(%q): %v", p, ere, err)
		return
	}
	if got := root.String(); got != ere {
		t.Errorf("pattern %q: parseERE(%q).String() = %q", p, ere, got)
	}
}

// TestParseEREBrackets checks the byte sets read from bracket expressions.
func TestParseEREBrackets(t *testing.T) {
	set := func(s string) byteSet {
		var b byteSet
		for i := 0; i < len(s); i++ {
			b.add(s[i])
		}
		return b
	}
	all := byteRange(1, 0xFF)
	for _, tt := range []struct {
		ere  string
		want byteSet
	}{
		{"[]a]", set("]a")},
		{"[^]a]", complementBytes(set("]a"))},
		{"[a-]", set("a-")},
		{"[-a]", set("-a")},
		{"[--]", set("-")},
		{"[-^]", set("-^")},
		{"[a^]", set("a^")},
		{"[a[]", set("a[")},
		{"[a-c]", set("abc")},
		{"[a-c]", set("abc")},
		{"[\x80-\xff]", byteRange(0x80, 0xFF)},
		{"[^\n]", complementBytes(set("\n"))},
		{"[[:alpha:]]", all},
		{"[^[:alpha:]]", all},
		{"[x[:digit:]]", all},
		{"[:a]", set(":a")},
		{"x", set("x")},
		{`\\`, set(`\`)},
		{`\{`, set(`{`)},
		{"}", set("}")},
	} {
		root, err := parseERE(tt.ere)
		if err != nil {
			t.Errorf("parseERE(%q): %v", tt.ere, err)
			continue
		}
		if root.kind != bBytes || root.set != tt.want {
			t.Errorf("parseERE(%q) = %q, want the set %q", tt.ere, root.String(), (&bnode{kind: bBytes, set: tt.want}).String())
		}
	}
}

// containsNeedle reports whether s contains needle, where a lower-case letter of
// needle matches either case. It is the meaning of a needle, written out apart
// from the analysis.
func containsNeedle(s, needle string) bool {
	for i := 0; i+len(needle) <= len(s); i++ {
		j := 0
		for j < len(needle) {
			c, n := s[i+j], needle[j]
			if c != n && !('a' <= n && n <= 'z' && c == n-'a'+'A') {
				break
			}
			j++
		}
		if j == len(needle) {
			return true
		}
	}
	return false
}

// randomCase flips the case of each ASCII letter of s at random.
func randomCase(r *rand.Rand, s string) string {
	b := []byte(s)
	for i, c := range b {
		if ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && r.Intn(2) == 0 {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// sampleERE writes a string the tree matches (anchors aside), for subjects that
// reach the regex's matches; the verdicts always come from bash.
func sampleERE(r *rand.Rand, n *bnode, b *strings.Builder) {
	switch n.kind {
	case bBytes:
		var in []byte
		for c := 1; c < 256; c++ {
			if n.set.has(byte(c)) {
				in = append(in, byte(c))
			}
		}
		b.WriteByte(in[r.Intn(len(in))])
	case bSeq:
		for _, x := range n.subs {
			sampleERE(r, x, b)
		}
	case bAlt:
		sampleERE(r, n.subs[r.Intn(len(n.subs))], b)
	case bRep:
		hi := n.max
		if hi < 0 || hi > n.min+3 {
			hi = n.min + 3
		}
		for k := n.min + r.Intn(hi-n.min+1); k > 0; k-- {
			sampleERE(r, n.subs[0], b)
		}
	}
}

// needleSubjects builds subjects around a needle: samples of the ERE, the needle
// in mixed case alone and inside other subjects, and near misses (a byte changed or
// dropped, or a letter's case partner replaced by a lookalike).
func needleSubjects(r *rand.Rand, root *bnode, needle string, others []string) []string {
	var out []string
	for i := 0; i < 4; i++ {
		var b strings.Builder
		sampleERE(r, root, &b)
		out = append(out, b.String(), randomCase(r, b.String()))
	}
	if needle == "" {
		return out
	}
	pick := func() string {
		if len(others) == 0 {
			return ""
		}
		return others[r.Intn(len(others))]
	}
	out = append(out, needle, randomCase(r, needle), " "+randomCase(r, needle)+"\n")
	for i := 0; i < 3; i++ {
		s := pick()
		k := r.Intn(len(s) + 1)
		out = append(out, s[:k]+randomCase(r, needle)+s[k:])
	}
	miss := []byte(randomCase(r, needle))
	k := r.Intn(len(miss))
	miss[k] = "a-Z_\n\xc3\xa9"[r.Intn(7)]
	out = append(out, string(miss), pick()+string(miss)+pick())
	drop := randomCase(r, needle)
	k = r.Intn(len(drop))
	out = append(out, drop[:k]+drop[k+1:])
	if k := strings.IndexAny(needle, "ks"); k >= 0 {
		look := map[byte]string{'k': "\u212a", 's': "\u017f"}[needle[k]]
		out = append(out, needle[:k]+look+needle[k+1:])
	}
	return out
}

// needleCase is one ERE with its needle and the subjects to try.
type needleCase struct {
	what, ere, needle string
	exact             bool
	subjects          []string
}

type needleStats struct {
	eres, needles, exact int
	comparisons, matched int // subjects tried and matched, for EREs with a needle
}

// checkNeedles runs the cases through bash and reports every subject that bash
// matches although it does not contain the needle, and, for an exact needle, every
// subject where the match and containing the needle disagree.
func checkNeedles(t testing.TB, cases []needleCase) needleStats {
	t.Helper()
	var st needleStats
	var eres []string
	var bcases []bashCase
	for i, c := range cases {
		eres = append(eres, c.ere)
		st.eres++
		if c.needle != "" {
			st.needles++
		}
		if c.exact {
			st.exact++
		}
		if strings.IndexFunc(c.needle, func(r rune) bool { return 'A' <= r && r <= 'Z' }) >= 0 {
			t.Errorf("%s: needle %q is not in lower case", c.what, c.needle)
		}
		for _, s := range c.subjects {
			if !strings.ContainsRune(s, 0) {
				bcases = append(bcases, bashCase{i, s})
			}
		}
	}
	out := runBash(t, eres, bcases)
	for i, b := range bcases {
		c := cases[b.ere]
		if out[i] == '2' {
			t.Errorf("%s: bash rejects the ERE %q", c.what, c.ere)
			continue
		}
		matched, has := out[i] == '0', containsNeedle(b.subject, c.needle)
		if c.needle != "" {
			st.comparisons++
			if matched {
				st.matched++
			}
		}
		if matched && !has {
			t.Errorf("%s: bash matches %q, which does not contain the needle %q\nERE %q", c.what, b.subject, c.needle, c.ere)
		}
		if c.exact && has && !matched {
			t.Errorf("%s: exact needle %q: %q contains it, but bash does not match\nERE %q", c.what, c.needle, b.subject, c.ere)
		}
	}
	return st
}

// TestNeedleBash checks Needle against bash's [[ =~ ]] for the EREs of every
// pattern the differential and corpus tests use, and for the EREs of the needle
// table, with the subjects those tests use and subjects built around the needle.
func TestNeedleBash(t *testing.T) {
	requireTools(t)
	r := rand.New(rand.NewSource(2))
	var cases []needleCase
	add := func(what, ere string, subjects []string) {
		root, err := parseERE(ere)
		if err != nil {
			return
		}
		needle, exact := Needle(ere)
		subjects = append(subjects, needleSubjects(r, root, needle, subjects)...)
		cases = append(cases, needleCase{what, ere, needle, exact, subjects})
	}
	translate := func(what, p string, subjects []string) {
		if ere, err := ERE(p, IgnoreCase); err == nil {
			add(what+" "+strconv.Quote(p), ere, subjects)
		}
	}
	for _, c := range differentialCases() {
		translate("pattern", c.P, c.S)
	}
	pats, _ := loadCorpus(t)
	for _, p := range pats {
		translate(p.file+":"+strconv.Itoa(p.line), p.pattern, subjects(r, p.pattern, 6))
	}
	for _, tt := range needleTests {
		add(tt.name, tt.ere, nil)
	}
	st := checkNeedles(t, cases)
	t.Logf("%d EREs, %d with a needle, %d exact; %d subjects tried on EREs with a needle, %d matched", st.eres, st.needles, st.exact, st.comparisons, st.matched)
	if st.needles < 400 || st.exact < 20 || st.matched < 3000 {
		t.Errorf("too few cases to mean much: %+v", st)
	}
}

const needleReport = "testdata/needle-report.txt"

// buildNeedleReport lists the needle of every corpus pattern that ERE translates.
func buildNeedleReport(t *testing.T) string {
	pats, _ := loadCorpus(t)
	var translated, long, exact, short int
	var lines strings.Builder
	for _, p := range pats {
		ere, err := ERE(p.pattern, IgnoreCase)
		if err != nil {
			continue
		}
		translated++
		needle, ex := Needle(ere)
		switch {
		case len(needle) >= 3:
			long++
		case needle != "":
			short++
		}
		kind := ""
		if ex {
			exact++
			kind = " (exact)"
		}
		fmt.Fprintf(&lines, "  %s:%d: %s\n      %q%s\n", p.file, p.line, p.pattern, needle, kind)
	}
	var b strings.Builder
	b.WriteString(`# pyre needle report: the Needle of the ERE of every pattern of the corpus that
# ERE translates (see corpus-report.txt), with IgnoreCase.
# Regenerate with: go test ./pyre -run TestNeedleReport -update

`)
	fmt.Fprintf(&b, "translated: %d\nneedle of 3 bytes or more: %d\nneedle of 1 or 2 bytes: %d\nno needle: %d\nexact: %d\n\n",
		translated, long, short, translated-long-short, exact)
	b.WriteString(lines.String())
	return b.String()
}

// TestNeedleReport compares the needles of the corpus patterns with the committed
// report.
func TestNeedleReport(t *testing.T) {
	got := buildNeedleReport(t)
	if *update {
		if err := os.WriteFile(needleReport, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(needleReport)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("needle report changed (-want +got):\n%s\nrun with -update if the change is intended", diff)
	}
}
