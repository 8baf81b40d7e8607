package pyregex

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{`a$`, "a\n", true},
		{`a$\n`, "a\n", true},
		{`a$\b`, "a\n", true},
		{`a\Z`, "a\n", false},
		{`^b`, "a\nb", false},
		{`(?m)^b`, "a\nb", true},
		{`a.b`, "a\nb", false},
		{`(?s)a.b`, "a\nb", true},
		{`a[^x]b`, "a\nb", true},
		{`K`, "\u212a", true},
		{`(?a)k`, "\u212a", false},
		{`i`, "\u0130", true},
		{`[ſ]`, "S", true},
		{`\B`, "", false},
		{`\bé`, " é", true},
		{`(?a)\bé`, " é", false},
		{`(?a:\b)é`, " é", false},
		{`\w`, "\u203f", false},
		{`e\b`, "e\u0308", true},
		{`\d`, "٣", true},
		{`(?a)\d`, "٣", false},
		{`[^\W\d]`, "٣", false},
		{`[^\W\d]`, "Ⅻ", true},
		{`xa+?y`, "xy", false},
		{`x{,2}y`, "xxy", true},
		{`x{,2}y`, "x{,2}y", true},
		{`\u00e9`, "É", true},
		{`[[:alpha:]]`, "a]", true},
		{`[[:alpha:]]`, "a", false},
		{`(?x) a b # comment`, "ab", true},
		{`(?-i:abc)`, "ABC", false},
		{`\s`, "\u3000", true},
		{`(?a)\s`, "\u3000", false},
	} {
		re, err := Compile(c.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.pattern, err)
			continue
		}
		if got := re.MatchString(c.s); got != c.want {
			t.Errorf("%q on %q: got %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		pattern     string
		unsupported bool
	}{
		{`(?<=a+)b`, false}, {`(?<!a|bc)b`, false}, {`(a)\1`, true}, {`(?P=n)`, true}, {`a*+`, true},
		{`(?>a)`, true}, {`\N{DASH}`, true}, {`a{1001}`, true},
		{`a**`, false}, {`*`, false}, {`[z-a]`, false}, {`a|(?i)b`, false}, {`\q`, false}, {`(`, false},
	} {
		_, err := Compile(c.pattern)
		e, ok := err.(*Error)
		if !ok || e.Unsupported != c.unsupported {
			t.Errorf("Compile(%q) = %v, want an error with Unsupported %v", c.pattern, err, c.unsupported)
		}
	}
}

// TestLinear: a long subject and a pattern that backtracks badly in other
// engines take linear time.
func TestLinear(t *testing.T) {
	re := MustCompile(`(a*)*b|go test|npm (run )?test`)
	s := strings.Repeat("a", 1<<20)
	if re.MatchString(s) {
		t.Fatal("match")
	}
}

func BenchmarkTranscript(b *testing.B) {
	re := MustCompile(`go test|npm (run )?test`)
	s := strings.Repeat(`{"role":"assistant","text":"Running the suite now"}`+"\n", 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		re.MatchString(s)
	}
}
