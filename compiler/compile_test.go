package compiler

import (
	"strings"
	"testing"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/pyre"
)

// anyRegex accepts every pattern (as the ERE of its literal text), so that
// these tests do not depend on the regex translator.
func anyRegex(p string) (string, string, error) { return pyre.LiteralERE(p, false), "", nil }

// compileOne compiles one rule file and returns its diagnostics.
func compileOne(t *testing.T, src string, opts Options) *Result {
	t.Helper()
	return compileNamed(t, ".claude/hookify.t.local.md", src, opts)
}

func compileNamed(t *testing.T, name, src string, opts Options) *Result {
	t.Helper()
	opts.Inputs = []string{name}
	if opts.Translator == nil {
		opts.Translator = anyRegex
	}
	return Compile(mapFS(map[string]string{name: src}), opts)
}

func withCode(ds diag.List, code diag.Code) diag.List {
	var out diag.List
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestPromptHooks: a prose-only rule becomes a prompt hook on its event;
// with --no-prompt-hooks it is left out with a warning; one without a
// message is left out with a warning too.
func TestPromptHooks(t *testing.T) {
	src := "---\nname: fridays\nevent: bash\naction: block\n---\nNever deploy on Fridays."
	res := compileOne(t, src, Options{})
	if res.Diags.HasErrors() || len(res.Cursor.Prompts) != 1 {
		t.Fatalf("diags %s; prompts %v", res.Diags, res.Cursor.Prompts)
	}
	ph := res.Cursor.Prompts[0]
	if ph.Event != ir.BeforeShellExecution || ph.Rule.Name != "fridays" {
		t.Errorf("prompt hook %+v", ph)
	}
	var hooks string
	for _, f := range res.Files {
		if f.Path == HooksJSON {
			hooks = string(f.Data)
		}
	}
	if !strings.Contains(hooks, `"type": "prompt"`) || !strings.Contains(hooks, `"prompt": "[hookify:fridays] `) || !strings.Contains(hooks, `$ARGUMENTS"`) {
		t.Errorf("hooks.json:\n%s", hooks)
	}
	if len(res.Cursor.Units) != 0 {
		t.Errorf("a prompt rule must not get a script: %v", res.Cursor.Units)
	}

	res = compileOne(t, src, Options{NoPromptHooks: true})
	if w := withCode(res.Diags, diag.NoPromptHook); len(w) != 1 || w[0].Pos.Line != 2 || len(res.Program.Rules) != 0 {
		t.Errorf("--no-prompt-hooks: %s", res.Diags)
	}

	res = compileOne(t, "---\nname: empty\nevent: bash\n---\n", Options{})
	if w := withCode(res.Diags, diag.NoConditions); len(w) != 1 || len(res.Program.Rules) != 0 {
		t.Errorf("empty rule: %s", res.Diags)
	}

	res = compileOne(t, "---\nname: x\nevent: bash\ncursor_hook: sometimes\npattern: a\n---\nx", Options{})
	if e := withCode(res.Diags, diag.UnknownCursorHook); len(e) != 1 || e[0].Pos.Line != 4 {
		t.Errorf("unknown cursor_hook: %s", res.Diags)
	}
}
