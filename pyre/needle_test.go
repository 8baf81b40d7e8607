package pyre

import (
	"math/rand"
	"testing"
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
func TestParseERERoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	patterns := append([]string{}, handPatterns...)
	for i := 0; i < 2000; i++ {
		patterns = append(patterns, genPattern(r))
	}
	n := 0
	for _, p := range patterns {
		ere, err := ERE(p, IgnoreCase)
		if err != nil {
			continue
		}
		n++
		root, err := parseERE(ere)
		if err != nil {
			t.Errorf("pattern %q: parseERE(%q): %v", p, ere, err)
			continue
		}
		if got := root.String(); got != ere {
			t.Errorf("pattern %q: parseERE(%q).String() = %q", p, ere, got)
		}
	}
	if n < 1000 {
		t.Errorf("only %d of %d patterns translated", n, len(patterns))
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
