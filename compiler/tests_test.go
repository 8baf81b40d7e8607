package compiler

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/upstream"
)

const withTests = `---
name: no-publish
event: bash
action: block
conditions:
  - field: command
    operator: contains
    pattern: npm publish
tests:
  - input: {command: "npm publish --tag next"}
    expect: block
  - input:
      command: npm test
      cwd: null
    expect: allow
tests_note: keep
---
Publishing is done by CI.
`

// TestTestsChangeNothing: a rule's tests: changes neither what hookify
// generates nor how upstream hookify's line parser reads the other keys.
func TestTestsChangeNothing(t *testing.T) {
	without := strings.Replace(withTests, withTests[strings.Index(withTests, "tests:\n"):strings.Index(withTests, "tests_note")], "", 1)
	compile := func(text string) *Result {
		fsys := fstest.MapFS{".claude/hookify.x.local.md": {Data: []byte(text)}}
		// Without the live check, whose fingerprints see any edit.
		res := Compile(fsys, Options{NoLiveCheck: true})
		if res.Diags.HasErrors() {
			t.Fatal(res.Diags)
		}
		return res
	}
	a, b := compile(withTests), compile(without)
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files with tests, %d without", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			t.Errorf("%s differs with tests:", a.Files[i].Path)
		}
	}
	upA := upstream.ReadFile([]byte(withTests)).FrontMatter
	upB := upstream.ReadFile([]byte(without)).FrontMatter
	for _, k := range slices.Sorted(maps.Keys(upB.Fields)) {
		if k == "tests_note" {
			continue
		}
		if !equalUpstream(upA.Fields[k], upB.Fields[k]) {
			t.Errorf("upstream reads %s as %v with tests:, %v without", k, upA.Fields[k], upB.Fields[k])
		}
	}

	r := a.Program.Rules[0]
	want := []ir.Example{
		{Events: []ir.CursorEvent{ir.BeforeShellExecution, ir.PostToolUse}, Input: []ir.Input{{Field: "command", Value: "npm publish --tag next"}}, Expect: ir.ExpectBlock},
		{Events: []ir.CursorEvent{ir.BeforeShellExecution, ir.PostToolUse}, Input: []ir.Input{{Field: "command", Value: "npm test"}, {Field: "cwd", Null: true}}, Expect: ir.ExpectAllow},
	}
	if len(r.Tests) != len(want) {
		t.Fatalf("tests: %+v", r.Tests)
	}
	for i, w := range want {
		got := r.Tests[i]
		if !slices.Equal(got.Events, w.Events) || !slices.Equal(got.Input, w.Input) || got.Expect != w.Expect || got.Pos.Line != 10+2*i {
			t.Errorf("test %d: got %+v, want %+v", i, got, w)
		}
	}
}

// equalUpstream compares two readings of a value, ignoring the lines.
func equalUpstream(a, b *upstream.Value) bool {
	if a == nil || b == nil || a.Kind != b.Kind || a.Text != b.Text || a.Bool != b.Bool || len(a.Items) != len(b.Items) {
		return a == b
	}
	for i := range a.Items {
		if a.Items[i].Text != b.Items[i].Text || !maps.Equal(a.Items[i].Map, b.Items[i].Map) {
			return false
		}
	}
	return true
}

func TestTestEvents(t *testing.T) {
	for _, c := range []struct {
		front string
		want  []ir.CursorEvent
		warn  string
	}{
		{"event: file\naction: block", []ir.CursorEvent{ir.PreToolUse, ir.PostToolUse}, ""},
		{"event: all\naction: block\ntests_event: file", nil, "needs an event"},
		{"event: all\naction: block\ntests_event: event: stop", []ir.CursorEvent{ir.Stop}, ""},
		{"event: all\naction: block\ntests_event: event: preToolUse", []ir.CursorEvent{ir.PreToolUse}, ""},
		{"event: bash\ntests_event: event: file", nil, "is not the rule's event"},
		{"event: bash\naction: block\ntests_event: event: postToolUse", nil, "does not run on postToolUse"},
		// A gate stands for the whole call: a warn rule speaks on postToolUse.
		{"event: bash\ntests_event: event: beforeShellExecution", []ir.CursorEvent{ir.BeforeShellExecution, ir.PostToolUse}, ""},
		{"event: bash\ntests_event: event: postToolUse", []ir.CursorEvent{ir.PostToolUse}, ""},
		{"event: all\naction: warn\ntests_event: event: stop", []ir.CursorEvent{ir.Stop}, ""},
		{"event: all\naction: warn\ntests_event: event: read", nil, "has no Cursor hook for read"},
		{"event: all\ntests_event: event: everything", nil, `unknown test event "everything"`},
	} {
		front, ev, _ := strings.Cut(c.front, "\ntests_event: ")
		if strings.HasPrefix(ev, "event: ") {
			ev = "    " + ev + "\n"
		} else {
			ev = ""
		}
		text := "---\n" + front + "\nconditions:\n  - field: reason\n    operator: contains\n    pattern: x\ntests:\n  - input: {reason: x}\n" + ev + "    expect: block\n---\nM.\n"
		res := Compile(fstest.MapFS{".claude/hookify.x.local.md": {Data: []byte(text)}}, Options{})
		var warns []string
		for _, d := range res.Diags {
			if d.Code == diag.Test {
				warns = append(warns, d.Msg)
			}
		}
		if c.warn == "" {
			if len(warns) > 0 || len(res.Program.Rules) != 1 || len(res.Program.Rules[0].Tests) != 1 {
				t.Errorf("%q: %v %v", c.front, warns, res.Diags)
				continue
			}
			if got := res.Program.Rules[0].Tests[0].Events; !slices.Equal(got, c.want) {
				t.Errorf("%q: events %v, want %v", c.front, got, c.want)
			}
			continue
		}
		if len(warns) != 1 || !strings.Contains(warns[0], c.warn) {
			t.Errorf("%q: warnings %q, want %q", c.front, warns, c.warn)
		}
	}
}
