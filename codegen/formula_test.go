package codegen

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookify/hookify/ir"
)

// TestFormula: the check formula of a write rule on preToolUse, written
// out by hand: the tool re-check, one choice per candidate of each field
// (old_text's last key also stands for its default "", so it applies when
// no earlier key is set), and the same conditions in the view of one file
// of a patch, where file_path is the file's path ('f') and old_string its
// removed lines ('r'); a rule without conditions always holds.
func TestFormula(t *testing.T) {
	old, _ := ir.Resolve(ir.PreToolUse, "old_text")
	path, _ := ir.Resolve(ir.PreToolUse, "file_path")
	c1 := ir.ResolvedCondition{Condition: &ir.Condition{Field: "old_text", Op: ir.RegexMatch, Pattern: "x"}, Src: old}
	c2 := ir.ResolvedCondition{Condition: &ir.Condition{Field: "file_path", Op: ir.Contains, Pattern: ".env"}, Src: path}
	r1, r2 := &ir.Rule{Name: "a", Action: ir.Block}, &ir.Rule{Name: "b", Action: ir.Warn}
	h := &ir.Hook{Event: ir.PreToolUse, Checks: []ir.RuleCheck{
		{Rule: r1, Tools: []string{"Write"}, Conds: []ir.ResolvedCondition{c1, c2}},
		{Rule: r2},
	}}
	l := NewLayout(&ir.Unit{Name: "hookify-x", Hooks: []*ir.Hook{h}}, ir.WarnContext, false)
	// Keys: 1 tool_name, 2 old_string, 3 edits[].old_string, 4 file_path,
	// 5 path.
	for i, k := range []ir.Key{ir.ToolNameKey, {ToolInput: true, Name: "old_string"}, {ToolInput: true, Name: "edits[].old_string"}, {ToolInput: true, Name: "file_path"}, {ToolInput: true, Name: "path"}} {
		if l.Key(k) != i+1 {
			t.Fatalf("key %v is %d, want %d", k, l.Key(k), i+1)
		}
	}
	choices := func(old2, path4, path5 Value) Node {
		old3 := Value{Key: 3, Default: true}
		return OneOf{
			All{Present{Val: old2}, Present{Val: path4}, Test{c1, old2}, Test{c2, path4}},
			All{Present{Val: old2}, Present{Val: path5}, Test{c1, old2}, Test{c2, path5}},
			All{Present{Val: old3, OrNoneOf: []Value{old2}}, Present{Val: path4}, Test{c1, old3}, Test{c2, path4}},
			All{Present{Val: old3, OrNoneOf: []Value{old2}}, Present{Val: path5}, Test{c1, old3}, Test{c2, path5}},
		}
	}
	want := []Check{
		{Rule: r1, Num: 1, When: All{
			ToolIs{Key: 1, Tools: []string{"Write"}},
			OneOf{
				choices(Value{Key: 2}, Value{Key: 4}, Value{Key: 5}),
				InSomeView{choices(Value{Key: 2, View: 'r'}, Value{Key: 4, View: 'f'}, Value{Key: 5, View: 'm'})},
			},
		}},
		{Rule: r2, Num: 2, When: All{All{}}},
	}
	if d := cmp.Diff(want, l.Hooks[0].Formula, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("formula (-want +got):\n%s", d)
	}
}
