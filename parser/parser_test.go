package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/diag"
)

func TestParsePositions(t *testing.T) {
	src := "---\nname: x\nevent: bash\nconditions:\n  - field: command\n    pattern: \"rm -rf\"\n---\n\n  Body *text*.\n\n"
	f, diags := Parse("r.md", []byte(src), nil)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics:\n%s", diags)
	}
	ev, _ := f.Field("event")
	if got, want := ev.Value.Pos, (diag.Pos{File: "r.md", Line: 3, Col: 8}); got != want {
		t.Errorf("event value at %v, want %v", got, want)
	}
	c, _ := f.Field("conditions")
	pat, _ := c.Value.Items[0].Get("pattern")
	if got, want := pat.Value.Pos, (diag.Pos{File: "r.md", Line: 6, Col: 15}); got != want {
		t.Errorf("quoted pattern at %v, want %v (first character inside the quotes)", got, want)
	}
	if !pat.Value.Quoted || pat.Value.Str != "rm -rf" {
		t.Errorf("pattern = %+v", pat.Value)
	}
	if f.Body != "Body *text*." || f.BodyPos.Line != 9 {
		t.Errorf("body %q at line %d", f.Body, f.BodyPos.Line)
	}
}

func TestParseCRLFAndBOM(t *testing.T) {
	lf := "---\nname: x\npattern: a\n---\nline one\nline two\n"
	crlf := "\uFEFF" + strings.ReplaceAll(lf, "\n", "\r\n")
	a, da := Parse("a.md", []byte(lf), nil)
	b, db := Parse("a.md", []byte(crlf), nil)
	if len(da)+len(db) != 0 {
		t.Fatalf("diagnostics: %v %v", da, db)
	}
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("CRLF+BOM reads differently from LF (-lf +crlf):\n%s", d)
	}
	// Trailing blanks after a fence are accepted.
	if _, d := Parse("a.md", []byte("---  \nname: x\n--- \t\nbody"), nil); len(d) != 0 {
		t.Errorf("trailing blanks after fences: %v", d)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no front matter", "name: x\n", "f.md:1:1: error: missing front matter: the first line must be ---"},
		{"unterminated", "---\nname: x\n", "f.md:1:1: error: the front matter that starts on line 1 has no closing --- line"},
		{"invalid utf8", "---\nname: \xff\n---\n", "f.md:2:7: error: the file is not valid UTF-8"},
		{"not a map", "---\n- a\n- b\n---\n", "f.md:2:1: error: the front matter must be a list of key: value lines"},
		{"yaml error with no hookify reading", "---\n  bad: [\n---\n", "f.md:3:1: error: invalid front matter: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, d := Parse("f.md", []byte(tc.src), nil)
			if len(d) == 0 || !strings.HasPrefix(d[0].String(), tc.want) {
				t.Errorf("got %v, want prefix %q", d, tc.want)
			}
		})
	}
}
