package codegen

import (
	"testing"

	"github.com/hookify/hookify/ir"
)

// TestSplitAnswer: the fixed text of every answer, filled with the
// JSON-escaped messages, is the line ir.Answer.Render prints.
func TestSplitAnswer(t *testing.T) {
	const user, agent = "U \"1\"\n<&>", "A\\2\u2028"
	inner := func(s string) string { q := ir.JSONString(s); return q[1 : len(q)-1] }
	for _, e := range ir.CursorEvents {
		for _, o := range []ir.Outcome{ir.None, ir.Warned, ir.Blocked, ir.Failed} {
			for _, w := range []ir.WarnMode{ir.WarnContext, ir.WarnAsk, ir.WarnAllow} {
				a := ir.AnswerFor(e, o, w, true)
				st := SplitAnswer(a)
				if len(st.Fixed) != len(st.Msgs)+1 {
					t.Fatalf("%s %s: %d fixed pieces for %d messages", e, o, len(st.Fixed), len(st.Msgs))
				}
				got := st.Fixed[0]
				for i, m := range st.Msgs {
					msg := user
					if m == ir.AgentText {
						msg = agent
					}
					got += inner(msg) + st.Fixed[i+1]
				}
				if want := string(a.Render(user, agent)); got != want {
					t.Errorf("%s %s warn %d: %q, want %q", e, o, w, got, want)
				}
			}
		}
	}
}

// TestLayoutNumbers: keys and rules are numbered from 1 in first use, and
// AddKey numbers a new key after them.
func TestLayoutNumbers(t *testing.T) {
	r1 := &ir.Rule{Name: "a", Action: ir.Block}
	r2 := &ir.Rule{Name: "b", Action: ir.Warn}
	cmd, _ := ir.Resolve(ir.BeforeShellExecution, "command")
	cwd, _ := ir.Resolve(ir.BeforeShellExecution, "cwd")
	again, _ := ir.Resolve(ir.BeforeShellExecution, "command")
	h := &ir.Hook{Event: ir.BeforeShellExecution, FailClosed: true, Checks: []ir.RuleCheck{
		{Rule: r2, Conds: []ir.ResolvedCondition{{Condition: &ir.Condition{}, Src: cwd}}},
		{Rule: r1, Conds: []ir.ResolvedCondition{{Condition: &ir.Condition{}, Src: cmd}, {Condition: &ir.Condition{}, Src: again}}},
	}}
	l := NewLayout(&ir.Unit{Name: "hookify-x", Hooks: []*ir.Hook{h}}, ir.WarnAsk, false)
	hl := l.Hooks[0]
	if l.Rule(r2) != 1 || l.Rule(r1) != 2 {
		t.Errorf("rules numbered %d, %d; want 1, 2 in first use", l.Rule(r2), l.Rule(r1))
	}
	if l.Key(ir.Key{Name: "cwd"}) != 1 || l.Key(ir.Key{Name: "command"}) != 2 || len(l.Keys) != 2 {
		t.Errorf("keys %v", l.Keys)
	}
	if l.AddKey(ir.Key{Name: "cwd"}) != 1 || l.AddKey(ir.Key{Name: "patch", ToolInput: true}) != 3 || len(l.Keys) != 3 {
		t.Errorf("AddKey: keys %v", l.Keys)
	}
	if !hl.Blocks || !hl.Warns || hl.Arg != "" || l.Path("sh") != ".cursor/hooks/hookify-x.sh" {
		t.Errorf("blocks %v warns %v arg %q path %s", hl.Blocks, hl.Warns, hl.Arg, l.Path("sh"))
	}
}
