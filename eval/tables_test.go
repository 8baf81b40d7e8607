package eval

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/ir"
)

// tableRules adds synthetic rules derived from ir's tables, so that the
// differential test runs every operator (with a pattern and with an empty
// one) and every Cursor event through the scripts: adding a row adds its
// test (docs/architecture.md).
func tableRules(add func(name, front string)) {
	for i, o := range ir.Ops {
		for j, pat := range []string{"rm -", ""} {
			action := [...]string{"block", "warn"}[(i+j)%2]
			add(fmt.Sprintf("op-%s-%d", o, j), fmt.Sprintf("event: bash\naction: %s\nconditions:\n  - field: command\n    operator: %s\n    pattern: '%s'", action, o, pat))
		}
	}
	for i, e := range ir.CursorEvents {
		s := e.Spec()
		field := s.Row.Spec().MainField
		if field == "" {
			field = slices.Sorted(maps.Keys(s.Fields))[0]
		}
		event := "event: " + s.Row.String()
		if s.MCP {
			// Rules reach MCP tools through their tool_matcher, and read
			// the tools' arguments by name.
			event, field = "tool_matcher: mcp__srv-*__go_*|mcp__other", "query"
		}
		o := ir.Ops[i%len(ir.Ops)]
		add("event-"+e.String(), fmt.Sprintf("%s\naction: %s\nconditions:\n  - field: %s\n    operator: %s\n    pattern: 'go'", event, s.Actions[0], field, o))
	}
}

// TestTableRulesCompile: every rule tableRules adds compiles to a script,
// so that TestDifferential, which skips rules that do not, runs them all.
func TestTableRulesCompile(t *testing.T) {
	fsys := fstest.MapFS{}
	n := 0
	tableRules(func(name, front string) {
		n++
		file := "hookify." + name + ".local.md"
		fsys[file] = &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nMessage.\n")}
		res := compiler.Compile(fsys, compiler.Options{Inputs: []string{file}})
		if res.Diags.HasErrors() || res.Cursor == nil || len(res.Cursor.Units) != 1 {
			t.Errorf("%s does not compile to one script: %v", name, res.Diags)
		}
	})
	if want := 2*len(ir.Ops) + len(ir.CursorEvents); n != want {
		t.Errorf("%d table rules, want %d", n, want)
	}
}
