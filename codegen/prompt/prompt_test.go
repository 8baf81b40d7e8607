package prompt

import (
	"strings"
	"testing"

	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
)

func TestInstruction(t *testing.T) {
	r := &ir.Rule{Name: "fridays", Action: ir.Block, Message: "Never deploy on **Fridays**; $ARGUMENTS is not a placeholder here."}
	got := Instruction(&ir.PromptHook{Event: ir.BeforeShellExecution, Rule: r})
	if !strings.HasPrefix(got, "[hookify:fridays] ") {
		t.Errorf("no owner prefix: %q", got)
	}
	if !hooksjson.Owned(map[string]any{"type": "prompt", "prompt": got}, hooksjson.Project) {
		t.Error("hooksjson does not recognise the entry as hookify's")
	}
	if strings.Count(got, "$ARGUMENTS") != 1 || !strings.HasSuffix(got, "\n$ARGUMENTS") {
		t.Errorf("$ARGUMENTS must appear once, at the end:\n%s", got)
	}
	for _, want := range []string{"shell command", "forbids", "<<<\nNever deploy on **Fridays**; \uFF04ARGUMENTS is not", "answer ok: false"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestInstructionConditions(t *testing.T) {
	r := &ir.Rule{Name: "x", Action: ir.Warn, Message: "m", Conditions: []ir.Condition{
		{Field: "file_path", Op: ir.EndsWith, Pattern: ".env"},
		{Field: "content", Op: ir.RegexMatch, Pattern: "a`b"},
	}}
	got := Instruction(&ir.PromptHook{Event: ir.PreToolUse, Rule: r})
	for _, want := range []string{
		"- `file_path` (in `tool_input.file_path`) ends with `.env`",
		"- `content` (in `tool_input.content`) matches the Python regular expression ``a`b``, ignoring case",
		"warns about",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestEntry(t *testing.T) {
	r := &ir.Rule{Name: "s", Action: ir.Block, Message: "Run the tests."}
	e := Entry(&ir.PromptHook{Event: ir.Stop, Rule: r})
	if e.Type != "prompt" || e.Timeout != Timeout || e.LoopLimit != ir.DefaultLoopLimit || e.Command != "" {
		t.Errorf("entry %+v", e)
	}
	e = Entry(&ir.PromptHook{Event: ir.PostToolUse, Matcher: "Write", Rule: r})
	if e.LoopLimit != 0 || e.Matcher != "Write" {
		t.Errorf("entry %+v", e)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{"a": "`a`", "a`b": "``a`b``", "`a": "`` `a ``", "": `""`} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
}
