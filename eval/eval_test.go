package eval

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/ir"
)

// acceptAll stands in for the translator: the evaluator never reads the ERE.
func acceptAll(string) (string, string, error) { return "x", "", nil }

// plan compiles rule files given as name → text, with the default --warn.
func plan(t *testing.T, rules map[string]string) *ir.Cursor {
	t.Helper()
	return planWarn(t, ir.WarnContext, rules)
}

// planWarn is plan under --warn warn.
func planWarn(t *testing.T, warn ir.WarnMode, rules map[string]string) *ir.Cursor {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range rules {
		fsys[".claude/hookify."+name+".local.md"] = &fstest.MapFile{Data: []byte(text)}
	}
	res := compiler.Compile(fsys, compiler.Options{Translator: acceptAll, Warn: warn})
	if res.Diags.HasErrors() {
		t.Fatalf("compile: %v", res.Diags)
	}
	return res.Cursor
}

func rule(front, body string) string { return "---\n" + front + "\n---\n" + body + "\n" }

// one evaluates the single hook of event e.
func one(t *testing.T, p *ir.Cursor, e ir.CursorEvent, raw string, env Env) Result {
	t.Helper()
	rs := decideAll(p, e, []byte(raw), env)
	if len(rs) != 1 {
		t.Fatalf("%d hooks for %s, want 1", len(rs), e)
	}
	for _, prob := range rs[0].Problems {
		t.Errorf("problem: %s", prob)
	}
	return rs[0]
}

func want(t *testing.T, r Result, answer string, exit int) {
	t.Helper()
	if answer != "" {
		answer += "\n" // "": the hook prints nothing
	}
	if string(r.Answer) != answer || r.Exit != exit {
		t.Errorf("got %sexit %d\nwant %s\nexit %d", r.Answer, r.Exit, answer, exit)
	}
}

func TestBash(t *testing.T) {
	rules := map[string]string{
		"a-rm":   rule("event: bash\naction: block\npattern: rm\\s+-rf", "No **rm**."),
		"b-sudo": rule("event: bash\npattern: ^sudo\\b", "Careful."),
		"c-curl": rule("event: bash\nconditions:\n  - field: command\n    operator: contains\n    pattern: curl", "Network."),
	}
	p := plan(t, rules)
	env := Env{}
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"ls"}`, env), `{"permission":"allow"}`, 0)
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"RM  -RF /"}`, env),
		`{"permission":"deny","user_message":"[a-rm]\nNo rm.","agent_message":"**[a-rm]**\nNo **rm**."}`, 0)
	// --warn context: the gate allows, and postToolUse of the Shell call
	// tells the agent.
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"sudo curl x"}`, env), `{"permission":"allow"}`, 0)
	want(t, one(t, p, ir.PostToolUse, `{"tool_name":"Shell","tool_input":{"command":"sudo curl x","cwd":"","timeout":30000}}`, env),
		`{"additional_context":"**[b-sudo]**\nCareful.\n\n**[c-curl]**\nNetwork."}`, 0)
	want(t, one(t, p, ir.PostToolUse, `{"tool_name":"Write","tool_input":{"command":"sudo curl x"}}`, env), `{}`, 0)
	want(t, one(t, planWarn(t, ir.WarnAsk, rules), ir.BeforeShellExecution, `{"command":"sudo curl x"}`, Env{Warn: ir.WarnAsk}),
		`{"permission":"ask","user_message":"[b-sudo]\nCareful.\n\n[c-curl]\nNetwork.","agent_message":"**[b-sudo]**\nCareful.\n\n**[c-curl]**\nNetwork."}`, 0)
	want(t, one(t, planWarn(t, ir.WarnAllow, rules), ir.BeforeShellExecution, `{"command":"sudo curl x"}`, Env{Warn: ir.WarnAllow}),
		`{"permission":"allow","user_message":"[b-sudo]\nCareful.\n\n[c-curl]\nNetwork.","agent_message":"**[b-sudo]**\nCareful.\n\n**[c-curl]**\nNetwork."}`, 0)
	// A block rule takes the answer; the warn rules still matched.
	r := one(t, planWarn(t, ir.WarnAsk, rules), ir.BeforeShellExecution, `{"command":"sudo rm -rf / && curl"}`, Env{Warn: ir.WarnAsk})
	want(t, r, `{"permission":"deny","user_message":"[a-rm]\nNo rm.","agent_message":"**[a-rm]**\nNo **rm**."}`, 0)
	if len(r.Matched) != 3 || r.Outcome != ir.Blocked || r.Expect(true) != ir.ExpectBlock {
		t.Errorf("matched %v, outcome %v", r.Matched, r.Outcome)
	}
	// Decoys: a key inside a string or a deeper object is not the field.
	want(t, one(t, p, ir.BeforeShellExecution, "\ufeffn++{\"x\":{\"command\":\"rm -rf /\"},\"command\":\"ls\",\"y\":\"\\\"command\\\":\\\"rm -rf\\\"\"}", env), `{"permission":"allow"}`, 0)
	// Duplicate keys: the last one wins.
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"rm -rf /","command":"ls"}`, env), `{"permission":"allow"}`, 0)
	// A payload that cannot be read: this hook holds a block rule.
	r = one(t, p, ir.BeforeShellExecution, `{"command":"rm -rf /"`, env)
	if r.Outcome != ir.Failed || r.Err == nil || r.Expect(true) != ir.ExpectBlock {
		t.Errorf("outcome %v, err %v", r.Outcome, r.Err)
	}
	want(t, r, ``, 2) // nothing on stdout: Cursor's failClosed blocks
}

func TestFailOpen(t *testing.T) {
	// A hook without block rules that cannot decide prints nothing and
	// exits 1: without failClosed, Cursor lets the call through.
	p := plan(t, map[string]string{"w": rule("event: bash\npattern: x", "W.")})
	want(t, one(t, p, ir.PostToolUse, `not json`, Env{}), ``, 1)
	p = planWarn(t, ir.WarnAsk, map[string]string{"w": rule("event: bash\npattern: x", "W.")})
	want(t, one(t, p, ir.BeforeShellExecution, `not json`, Env{Warn: ir.WarnAsk}), ``, 1)
}

func TestFile(t *testing.T) {
	p := plan(t, map[string]string{
		"env": rule("event: file\naction: block\nconditions:\n  - field: file_path\n    operator: ends_with\n    pattern: .env", "No."),
		"log": rule("event: file\nconditions:\n  - field: new_text\n    operator: regex_match\n    pattern: console\\.log\\(", "Log."),
		"new": rule("event: file\nconditions:\n  - field: old_text\n    operator: equals\n    pattern: ''\n  - field: file_path\n    operator: contains\n    pattern: draft", "New draft."),
	})
	env := Env{}
	want(t, one(t, p, ir.PreToolUse, `{"tool_name":"Write","tool_input":{"file_path":"a/.env","content":"x"}}`, env),
		`{"permission":"deny","user_message":"[env]\nNo.","agent_message":"**[env]**\nNo."}`, 0)
	// .path is the other spelling of file_path.
	want(t, one(t, p, ir.PreToolUse, `{"tool_name":"StrReplace","tool_input":{"path":"a/.env"}}`, env),
		`{"permission":"deny","user_message":"[env]\nNo.","agent_message":"**[env]**\nNo."}`, 0)
	// Another tool is not a write; no tool_name at all is checked.
	want(t, one(t, p, ir.PreToolUse, `{"tool_name":"Read","tool_input":{"file_path":".env"}}`, env), `{"permission":"allow"}`, 0)
	want(t, one(t, p, ir.PreToolUse, `{"tool_name":"","tool_input":{"file_path":".env"}}`, env),
		`{"permission":"deny","user_message":"[env]\nNo.","agent_message":"**[env]**\nNo."}`, 0)
	// new_text is new_string, else content; old_text defaults to "".
	want(t, one(t, p, ir.PostToolUse, `{"tool_name":"Write","tool_input":{"file_path":"x.js","content":"console.log(1)"}}`, env),
		`{"additional_context":"**[log]**\nLog."}`, 0)
	want(t, one(t, p, ir.PostToolUse, `{"tool_name":"Write","tool_input":{"file_path":"draft.md","content":"hi"}}`, env),
		`{"additional_context":"**[new]**\nNew draft."}`, 0)
	want(t, one(t, p, ir.PostToolUse, `{"tool_name":"Edit","tool_input":{"file_path":"draft.md","old_string":"a","new_string":"b"}}`, env), `{}`, 0)
	// The last tool_input object wins whole.
	want(t, one(t, p, ir.PostToolUse, `{"tool_input":{"new_string":"console.log(1)"},"tool_input":{"file_path":"y"}}`, env), `{}`, 0)
}

func TestMissingField(t *testing.T) {
	p := planWarn(t, ir.WarnAsk, map[string]string{
		"x": rule("event: bash\nconditions:\n  - field: cwd\n    operator: not_contains\n    pattern: safe", "Not safe."),
	})
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"ls"}`, Env{}), `{"permission":"allow"}`, 0)
	want(t, one(t, p, ir.BeforeShellExecution, `{"command":"ls","cwd":null}`, Env{}), `{"permission":"allow"}`, 0)
	want(t, one(t, p, ir.BeforeShellExecution, `{"cwd":"/tmp"}`, Env{}),
		`{"permission":"ask","user_message":"[x]\nNot safe.","agent_message":"**[x]**\nNot safe."}`, 0)
	// Numbers and booleans are their text.
	want(t, one(t, p, ir.BeforeShellExecution, `{"cwd":12}`, Env{}),
		`{"permission":"ask","user_message":"[x]\nNot safe.","agent_message":"**[x]**\nNot safe."}`, 0)
}

func TestReadPrompt(t *testing.T) {
	p := plan(t, map[string]string{
		"sec":  rule("event: read\naction: block\nconditions:\n  - field: file_path\n    operator: contains\n    pattern: /secrets/", "Off limits."),
		"prod": rule("event: prompt\naction: block\npattern: deploy\\s+prod", "Use the pipeline."),
		"hint": rule("event: prompt\npattern: refactor", "Small steps."),
	})
	want(t, one(t, p, ir.BeforeReadFile, `{"file_path":"/a/secrets/k","content":"x"}`, Env{}),
		`{"permission":"deny","user_message":"[sec]\nOff limits."}`, 0)
	want(t, one(t, p, ir.BeforeSubmitPrompt, `{"prompt":"please DEPLOY  prod"}`, Env{}),
		`{"continue":false,"user_message":"[prod]\nUse the pipeline."}`, 0)
	want(t, one(t, p, ir.BeforeSubmitPrompt, `{"prompt_text":"refactor it"}`, Env{}),
		`{"continue":true,"user_message":"[hint]\nSmall steps."}`, 0)
	want(t, one(t, p, ir.BeforeSubmitPrompt, `{"prompt":"hello"}`, Env{}), `{"continue":true}`, 0)
}

func TestStop(t *testing.T) {
	p := plan(t, map[string]string{
		"tests": rule("event: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_regex_match\n    pattern: go test", "Run the tests."),
	})
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran.jsonl")
	os.WriteFile(ran, []byte(`{"text":"ran GO TEST ./..."}`), 0o644)
	nul := filepath.Join(dir, "nul.jsonl")
	os.WriteFile(nul, []byte("nothing\x00go test"), 0o644)
	nulRule := filepath.Join(dir, "nul-only.jsonl")
	os.WriteFile(nulRule, []byte("nothing\x00\x00"), 0o644)
	env := Env{ReadFile: readRegular, Getenv: func(k string) string {
		if k == ir.TranscriptEnv {
			return ran
		}
		return ""
	}}
	follow := `{"followup_message":"**[tests]**\nRun the tests."}`
	want(t, one(t, p, ir.Stop, `{"status":"completed","transcript_path":`+ir.JSONString(ran)+`}`, env), `{}`, 0)
	// A NUL byte hides nothing after it: the whole file is read, each NUL
	// as the byte 01 (a bash string cannot hold NUL).
	want(t, one(t, p, ir.Stop, `{"transcript_path":`+ir.JSONString(nul)+`}`, env), `{}`, 0)
	want(t, one(t, p, ir.Stop, `{"transcript_path":`+ir.JSONString(nulRule)+`}`, env), follow, 0)
	// No transcript_path: $CURSOR_TRANSCRIPT_PATH.
	want(t, one(t, p, ir.Stop, `{"transcript_path":null}`, env), `{}`, 0)
	// Neither names a readable file: "".
	want(t, one(t, p, ir.Stop, `{"transcript_path":`+ir.JSONString(dir)+`}`, env), follow, 0)
	want(t, one(t, p, ir.Stop, `{}`, Env{ReadFile: readRegular}), follow, 0)
	want(t, one(t, p, ir.Stop, `{}`, Env{}), follow, 0)
}

// readRegular reads name if it is a regular file.
func readRegular(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file")}
	}
	return os.ReadFile(name)
}

func TestPerRule(t *testing.T) {
	fsys := fstest.MapFS{
		".claude/hookify.a.local.md": {Data: []byte(rule("event: all\naction: block\nconditions:\n  - field: command\n    operator: contains\n    pattern: x", "A."))},
		".claude/hookify.b.local.md": {Data: []byte(rule("event: bash\npattern: x", "B."))},
	}
	res := compiler.Compile(fsys, compiler.Options{Translator: acceptAll, Layout: ir.PerRule, Warn: ir.WarnAsk})
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags)
	}
	rs := decideAll(res.Cursor, ir.BeforeShellExecution, []byte(`{"command":"x"}`), Env{})
	if len(rs) != 2 || rs[0].Outcome != ir.Blocked || rs[1].Outcome != ir.Warned {
		t.Fatalf("got %+v", rs)
	}
}

// decideAll decides raw for every script hook of event e, in unit order.
func decideAll(plan *ir.Cursor, e ir.CursorEvent, raw []byte, env Env) []Result {
	var out []Result
	for _, h := range Hooks(plan, e) {
		out = append(out, Hook(h, raw, env))
	}
	return out
}
