package parser_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/upstream"
)

// FuzzParse checks that Parse never panics and that every position it
// reports, in a diagnostic or on a value, lies inside the file: the path is
// the one given, 1 ≤ line ≤ the number of lines, and 1 ≤ col ≤ the line's
// length in bytes + 1. Lines are counted as the parser reads the file: after
// a leading BOM is dropped, with CRLF and a lone CR read as LF (a position
// may point just past the last line end, at the empty last line).
func FuzzParse(f *testing.F) {
	for _, s := range testenv.RuleSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = ".claude/hookify.fuzz.local.md"
		pf, diags := parser.Parse(name, src, upstream.Fallback)
		text := strings.TrimPrefix(string(src), "\uFEFF")
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		lines := strings.Split(text, "\n")
		inside := func(what string, p diag.Pos) {
			t.Helper()
			if p.File != name {
				t.Fatalf("%s: position %v names another file", what, p)
			}
			if p.Line == 0 && p.Col == 0 {
				return // the whole file
			}
			if p.Line < 1 || p.Line > len(lines) {
				t.Fatalf("%s: position %v: line out of 1..%d\nsource: %q", what, p, len(lines), src)
			}
			if n := len(lines[p.Line-1]); p.Col < 1 || p.Col > n+1 {
				t.Fatalf("%s: position %v: column out of 1..%d (line %q)\nsource: %q", what, p, n+1, lines[p.Line-1], src)
			}
		}
		for _, d := range diags {
			inside("diagnostic "+string(d.Code)+" ("+d.Msg+")", d.Pos)
			if d.Code == "" || d.Msg == "" {
				t.Fatalf("diagnostic without code or message: %+v", d)
			}
		}
		if pf == nil {
			if !diags.HasErrors() {
				t.Fatalf("no file and no error; source %q", src)
			}
			return
		}
		if pf.Body != "" {
			inside("body", pf.BodyPos)
		}
		var walk func(what string, v *parser.Value)
		walk = func(what string, v *parser.Value) {
			if v == nil {
				t.Fatalf("%s: nil value", what)
			}
			inside(what, v.Pos)
			for i, it := range v.Items {
				walk(what+"["+strconv.Itoa(i)+"]", it)
			}
			for _, p := range v.Pairs {
				inside(what+"."+p.Key+" (key)", p.KeyPos)
				walk(what+"."+p.Key, p.Value)
			}
		}
		for _, p := range pf.Fields {
			inside(p.Key+" (key)", p.KeyPos)
			walk(p.Key, p.Value)
		}
	})
}

// TestParseAliases: an alias inside the value it names, and aliases that
// multiply a short file into millions of values, are positioned errors, not
// a stack overflow or an endless loop (found by FuzzParse's seeds).
func TestParseAliases(t *testing.T) {
	laughs := "---\na: &a [x,x,x,x,x,x,x,x,x,x]\n"
	for c := 'b'; c <= 'i'; c++ {
		prev := string(c - 1)
		laughs += string(c) + ": &" + string(c) + " [" + strings.Repeat("*"+prev+",", 9) + "*" + prev + "]\n"
	}
	laughs += "---\nbody\n"
	for _, tc := range []struct{ name, src, want string }{
		{"self", "---\na: &a [*a]\n---\n", "f.md:2:8: error: the alias *a is used inside the value it names\n"},
		{"self in map", "---\na: &a {b: *a}\n---\n", "f.md:2:11: error: the alias *a is used inside the value it names\n"},
		{"billion laughs", laughs, "f.md:3:17: error: aliases expand the front matter to more than 10000 values\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan diag.List)
			go func() {
				_, d := parser.Parse("f.md", []byte(tc.src), upstream.Fallback)
				done <- d
			}()
			select {
			case d := <-done:
				if got := d.String(); got != tc.want {
					t.Errorf("got diagnostics\n%swant\n%s", got, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Parse did not return within 10 s")
			}
		})
	}
	// An alias used as intended still works.
	f, d := parser.Parse("f.md", []byte("---\nname: &n x\npattern: *n\n---\n"), upstream.Fallback)
	if len(d) != 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	if p, _ := f.Field("pattern"); p.Value.Str != "x" {
		t.Errorf("pattern = %q, want x", p.Value.Str)
	}
}

// TestParseNULAndBOMPositions: a raw NUL byte anywhere in a rule file is a
// positioned error (one in the body was compiled into the messages), and
// columns on the first line do not count a BOM (an invalid byte after a
// BOM was placed past the line end).
func TestParseNULAndBOMPositions(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"nul in body", "---\nname: x\npattern: a\n---\nbody \x00 text\n", "f.md:5:6: error: the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it\n"},
		{"nul in name", "---\nname: a\x00b\n---\n", "f.md:2:8: error: the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it\n"},
		{"nul first", "\x00", "f.md:1:1: error: the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it\n"},
		{"nul after bom", "\uFEFF\x00", "f.md:1:1: error: the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it\n"},
		{"invalid after bom", "\uFEFF-\xff", "f.md:1:2: error: the file is not valid UTF-8\n\tsave it as UTF-8\n"},
		{"invalid after crlf", "---\r\nname: \xff\r\n", "f.md:2:7: error: the file is not valid UTF-8\n\tsave it as UTF-8\n"},
		{"invalid after lone cr", "---\rname: \xff\r", "f.md:2:7: error: the file is not valid UTF-8\n\tsave it as UTF-8\n"},
		{"nul after lone cr", "---\rname: a\x00\r", "f.md:2:8: error: the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, d := parser.Parse("f.md", []byte(tc.src), upstream.Fallback)
			if got := d.String(); got != tc.want || f != nil {
				t.Errorf("got file %v, diagnostics\n%swant none and\n%s", f != nil, got, tc.want)
			}
		})
	}
}

// TestParseLoneCR: a lone CR ends a line, as in YAML and in hookify (Python
// reads files in text mode). Found by FuzzParse: YAML counted the CR as a
// line end and the parser did not, so a position fell past the last line.
func TestParseLoneCR(t *testing.T) {
	f, d := parser.Parse("f.md", []byte("---\rname: x\revent: bash\r---\rone\rtwo\r"), upstream.Fallback)
	if len(d) != 0 {
		t.Fatalf("diagnostics:\n%s", d)
	}
	ev, _ := f.Field("event")
	if got, want := ev.Value.Pos, (diag.Pos{File: "f.md", Line: 3, Col: 8}); got != want {
		t.Errorf("event value at %v, want %v", got, want)
	}
	if f.Body != "one\ntwo" || f.BodyPos.Line != 5 {
		t.Errorf("body %q at line %d, want \"one\\ntwo\" at 5", f.Body, f.BodyPos.Line)
	}
	_, d = parser.Parse("f.md", []byte("---\n0: \"0\r00\n---"), upstream.Fallback)
	for _, x := range d {
		if x.Pos.Line > 4 {
			t.Errorf("position past the last line: %v", x)
		}
	}
}
