package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// liveRule is a generated bash rule: its file name, rule name, action,
// pattern word and message version.
type liveRule struct {
	file, name, action, word string
	version                  int
}

func (r liveRule) text() string {
	return fmt.Sprintf("---\nname: %s\nevent: bash\naction: %s\npattern: %s\n---\nRule %s, version %d.\n", r.name, r.action, r.word, r.name, r.version)
}

// liveWords are the pattern words of generated rules; a payload's command
// holds some of them.
var liveWords = []string{"alpha", "bravo", "carol", "delta", "echo1", "fox"}

// TestLiveRulesGenerated builds a generated rule set, runs the hooks of a
// Shell call (beforeShellExecution and postToolUse) as Cursor does, then
// applies a generated edit to the rule files (one added, edited, removed or
// renamed) and runs them again, with each awk, in a layout drawn at random,
// once without hookify on the hooks' PATH and once with it (docs/live-rules.md).
// Before the edit every hook answers as the evaluator does on the rules;
// after it, with hookify, as the evaluator does on the edited rules (in the
// per-rule layout, the call right after the edit, whose hooks Cursor
// starts from the old hooks.json at once, means what the evaluator's
// answers for the new scripts mean together, callMeaning; the next call's
// hooks answer each as the evaluator does), and
// without, as it does on the rules as built, with the note, which names
// the files the edit touched, joined to each message and as postToolUse's
// additional_context when nothing matched.
func TestLiveRulesGenerated(t *testing.T) {
	hookify, err := exec.LookPath("hookify") // testscript.Main's copy of this binary
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(hookify, filepath.Join(bin, "hookify")); err != nil {
		t.Fatal(err)
	}
	// gated holds a hookify that waits until the test opens the gate: every
	// hook of a call has started, and opened its script, before one rebuilds.
	gated, gate := t.TempDir(), t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\n: >%s/started.$$\nwhile [ ! -e %[1]s/open ]; do sleep 0.01; done\nexec %s \"$@\"\n", gate, hookify)
	if err := os.WriteFile(filepath.Join(gated, "hookify"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 23))
	cases := 4
	if testing.Short() {
		cases = 1
	}
	for c := range cases {
		layout := []ir.Layout{ir.PerEvent, ir.PerRule}[r.IntN(2)]
		// Two anchors that no edit touches keep both events' scripts.
		before := []liveRule{
			{file: "hookify.zz-block.local.md", name: "zz-block", action: "block", word: "anchor"},
			{file: "hookify.zz-warn.local.md", name: "zz-warn", action: "warn", word: "hint"},
		}
		for i := range r.IntN(4) {
			before = append(before, liveRule{file: fmt.Sprintf("hookify.r%d.local.md", i), name: fmt.Sprintf("r%d", i),
				action: []string{"block", "warn"}[r.IntN(2)], word: liveWords[r.IntN(len(liveWords))]})
		}
		after := slices.Clone(before)
		var report, removed []string
		kind := []string{"added", "edited", "removed", "renamed"}[r.IntN(4)]
		if len(before) == 2 {
			kind = "added"
		}
		pick := 2 + r.IntN(max(len(before)-2, 1))
		switch kind {
		case "added":
			n := liveRule{file: "hookify.new.local.md", name: "new", action: []string{"block", "warn"}[r.IntN(2)], word: liveWords[r.IntN(len(liveWords))]}
			after = append(after, n)
			report = append(report, n.file+" (added)")
		case "edited":
			e := &after[pick]
			e.version++
			e.action = []string{"block", "warn"}[r.IntN(2)]
			e.word = liveWords[r.IntN(len(liveWords))]
			report = append(report, e.file+" (changed)")
		case "removed":
			removed = append(removed, after[pick].file+" (removed)")
			after = slices.Delete(after, pick, pick+1)
		case "renamed":
			removed = append(removed, after[pick].file+" (removed)")
			after[pick].file = "hookify.q" + after[pick].name + ".local.md"
			report = append(report, after[pick].file+" (added)")
		}
		var words []string
		for _, w := range append(slices.Clone(liveWords), "anchor", "hint") {
			if r.IntN(3) == 0 {
				words = append(words, w)
			}
		}
		command := "echo " + strings.Join(words, " ")
		cmdJSON, _ := json.Marshal(command)
		payloads := map[ir.CursorEvent]string{
			ir.BeforeShellExecution: fmt.Sprintf(`{"hook_event_name":"beforeShellExecution","command":%s,"cwd":"/w"}`, cmdJSON),
			ir.PostToolUse:          fmt.Sprintf(`{"hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":%s}}`, cmdJSON),
		}
		note := "hookify: the rule files changed after the hooks were built, and the hooks still enforce the rules as they were built: " +
			strings.Join(append(report, removed...), ", ") +
			". Run hookify build --layout " + layout.String() + " --warn context in the project root to rebuild them" +
			" (hookify is not on PATH, in $GOBIN or in ~/go/bin: go install github.com/hookify/hookify/cmd/hookify@latest installs it)."
		name := fmt.Sprintf("case %d (%s, %s, %q)", c, layout, kind, command)
		for _, awk := range testenv.Awks {
			path := testenv.AwkDir(t, awk) + ":/usr/bin:/bin"
			for _, with := range []bool{false, true} {
				dir := t.TempDir()
				writeRules(t, dir, before, nil)
				var errb bytes.Buffer
				if run([]string{"build", "-C", dir, "--layout", layout.String()}, nil, io.Discard, &errb) != 0 {
					t.Fatalf("%s: build: %s", name, errb.Bytes())
				}
				built := evaluate(t, dir, layout, payloads)
				hookPath := path
				if with {
					hookPath = bin + ":" + path
				}
				where := fmt.Sprintf("%s, %s, hookify on PATH %v", name, awk, with)
				if got := callHooks(t, dir, hookPath, payloads); !sameAnswers(got, built) {
					t.Errorf("%s: before the edit:\n got %v\nwant %v", where, got, built)
				}
				writeRules(t, dir, after, before)
				var want map[ir.CursorEvent][]string
				if with {
					want = evaluate(t, dir, layout, payloads)
					if layout == ir.PerRule {
						// The call right after the edit: Cursor starts the
						// old scripts of each event at once; the one that
						// runs the new scripts answers for them.
						old, err := snapshot(filepath.Join(dir, ".cursor"))
						if err != nil {
							t.Fatal(err)
						}
						for _, e := range []ir.CursorEvent{ir.BeforeShellExecution, ir.PostToolUse} {
							if err := old.restore(); err != nil {
								t.Fatal(err)
							}
							got := callEvent(t, dir, gated+":"+path, e, payloads[e], gate)
							if g, w := callMeaning(got), callMeaning(want[e]); g != w {
								t.Errorf("%s: %s, the call right after the edit:\n got %s (%q)\nwant %s (%q)", where, e, g, got, w, want[e])
							}
						}
					}
				} else {
					want = withNote(t, built, note)
				}
				if got := callHooks(t, dir, hookPath, payloads); !sameAnswers(got, want) {
					t.Errorf("%s: after the edit:\n got %v\nwant %v", where, got, want)
				}
				if with && run([]string{"check", "-C", dir}, nil, io.Discard, io.Discard) != 0 {
					t.Errorf("%s: the output the hook rebuilt is not what build writes", where)
				}
			}
		}
	}
}

// writeRules writes rules under dir/.claude, after removing those of old.
func writeRules(t *testing.T, dir string, rules, old []liveRule) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, o := range old {
		if !slices.ContainsFunc(rules, func(r liveRule) bool { return r.file == o.file }) {
			if err := os.Remove(filepath.Join(dir, ".claude", o.file)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range rules {
		p := filepath.Join(dir, ".claude", r.file)
		if prev, err := os.ReadFile(p); err == nil && string(prev) == r.text() {
			continue
		}
		if err := os.WriteFile(p, []byte(r.text()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// evaluate is the evaluator's answers for each payload, per hook of its
// event, sorted, on the rules under dir.
func evaluate(t *testing.T, dir string, layout ir.Layout, payloads map[ir.CursorEvent]string) map[ir.CursorEvent][]string {
	t.Helper()
	res := compiler.Compile(os.DirFS(dir), compiler.Options{Layout: layout})
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags)
	}
	out := map[ir.CursorEvent][]string{}
	for e, p := range payloads {
		for _, h := range eval.Hooks(res.Cursor, e) {
			r := eval.Hook(h, []byte(p), eval.Env{})
			out[e] = append(out[e], fmt.Sprintf("%sexit %d", r.Answer, r.Exit))
		}
		slices.Sort(out[e])
	}
	return out
}

// callHooks runs, for each payload, every hookify entry of its event in
// dir's hooks.json as Cursor does (sh -c, from dir, the payload on stdin),
// with PATH path, and returns their answers, sorted.
func callHooks(t *testing.T, dir, path string, payloads map[ir.CursorEvent]string) map[ir.CursorEvent][]string {
	t.Helper()
	out := map[ir.CursorEvent][]string{}
	for e, p := range payloads {
		out[e] = callEvent(t, dir, path, e, p, "")
	}
	return out
}

// callEvent runs every hookify entry of event e in dir's hooks.json one
// after the other, or, with a gate (the folder of the hookify on path that
// waits), all at once, as Cursor 3.9.16 was seen to: it opens the gate once
// each has started hookify (every hook of a call whose rules are stale
// does), so that none rebuilds before all have opened their scripts. It
// returns the answers, each "<stdout>exit <code>", sorted.
func callEvent(t *testing.T, dir, path string, e ir.CursorEvent, payload, gate string) []string {
	t.Helper()
	var cfg struct {
		Hooks map[string][]struct {
			Command string `json:"command"`
			Type    string `json:"type"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(filepath.Join(dir, ".cursor/hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	type call struct {
		cmd    *exec.Cmd
		stdout bytes.Buffer
		cancel func()
	}
	var calls []*call
	start := func(command string) *call {
		c := &call{}
		c.cmd, c.cancel = testenv.CommandTimeout(30*time.Second, "/bin/sh", "-c", command)
		c.cmd.Dir = dir
		c.cmd.Env = []string{"PATH=" + path, "HOME=" + home, "CURSOR_PROJECT_DIR=" + dir}
		c.cmd.Stdin = strings.NewReader(payload)
		c.cmd.Stdout = &c.stdout
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	var out []string
	wait := func(c *call) {
		err := c.cmd.Wait()
		c.cancel()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%sexit %d", c.stdout.Bytes(), code))
	}
	for _, entry := range cfg.Hooks[e.String()] {
		if entry.Type == "prompt" || !strings.Contains(entry.Command, "hooks/hookify-") {
			continue
		}
		c := start(entry.Command)
		if gate == "" {
			wait(c)
		} else {
			calls = append(calls, c)
		}
	}
	if gate != "" {
		for deadline := time.Now().Add(30 * time.Second); ; {
			started, _ := filepath.Glob(filepath.Join(gate, "started.*"))
			if len(started) == len(calls) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d of %d hooks started hookify", e, len(started), len(calls))
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := os.WriteFile(filepath.Join(gate, "open"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			wait(c)
		}
		files, _ := filepath.Glob(filepath.Join(gate, "*"))
		for _, f := range files {
			os.Remove(f)
		}
	}
	slices.Sort(out)
	return out
}

// callMeaning is what the answers of the hooks of one call (each
// "<stdout>exit <code>") mean together, as far as a deny from any of them
// blocks: the strongest outcome among them (a block; else a hook that
// could not decide, with its exit code; else a warning; else allow), and
// for it the paragraphs of each message field of every answer of that
// outcome, sorted (the order in which one answer joins them is not a
// meaning, and Cursor's own way of joining several answers is not
// documented: docs/live-rules.md).
func callMeaning(answers []string) string {
	rank := func(kind string) int {
		switch {
		case kind == "block":
			return 3
		case strings.HasPrefix(kind, "fail"):
			return 2
		case kind == "warn":
			return 1
		}
		return 0
	}
	best, fields := "allow", map[string][]string{}
	for _, a := range answers {
		body, exit, _ := strings.Cut(a, "exit ")
		kind := "allow"
		var m map[string]any
		switch {
		case body == "":
			kind = "fail exit " + exit
		case json.Unmarshal([]byte(body), &m) != nil:
			kind = "fail: not JSON: " + body
		case m["permission"] == "deny" || m["permission"] == "ask" || m["continue"] == false:
			kind = "block"
		}
		msgs := map[string][]string{}
		for _, k := range []string{"user_message", "agent_message", "additional_context", "followup_message"} {
			if v, ok := m[k].(string); ok {
				msgs[k] = strings.Split(v, "\n\n")
				if kind == "allow" {
					kind = "warn"
				}
			}
		}
		switch {
		case rank(kind) > rank(best):
			best, fields = kind, msgs
		case kind == best:
			for k, v := range msgs {
				fields[k] = append(fields[k], v...)
			}
		}
	}
	var b strings.Builder
	b.WriteString(best)
	keys := slices.Sorted(maps.Keys(fields))
	for _, k := range keys {
		v := slices.Clone(fields[k])
		slices.Sort(v)
		fmt.Fprintf(&b, " %s=%q", k, v)
	}
	return b.String()
}

// withNote is answers as the hooks give them with the note on stale rules:
// joined after a blank line to every message, and postToolUse's
// additional_context when no rule matched.
func withNote(t *testing.T, answers map[ir.CursorEvent][]string, note string) map[ir.CursorEvent][]string {
	t.Helper()
	out := map[ir.CursorEvent][]string{}
	for e, list := range answers {
		for _, a := range list {
			body, exit, _ := strings.Cut(a, "exit ")
			var m map[string]any
			if err := json.Unmarshal([]byte(body), &m); err != nil {
				t.Fatalf("%q: %v", body, err)
			}
			joined := false
			for _, k := range []string{"user_message", "agent_message", "additional_context", "followup_message"} {
				if v, ok := m[k].(string); ok {
					m[k] = v + "\n\n" + note
					joined = true
				}
			}
			if !joined && e == ir.PostToolUse {
				m["additional_context"] = note
			}
			b, _ := json.Marshal(m)
			out[e] = append(out[e], fmt.Sprintf("%s\nexit %s", b, exit))
		}
	}
	return out
}

// sameAnswers compares answers as JSON objects (the hooks' key order is
// checked elsewhere) with their exit codes.
func sameAnswers(got, want map[ir.CursorEvent][]string) bool {
	norm := func(m map[ir.CursorEvent][]string) map[ir.CursorEvent][]string {
		out := map[ir.CursorEvent][]string{}
		for e, list := range m {
			for _, a := range list {
				body, exit, _ := strings.Cut(a, "exit ")
				var v any
				if json.Unmarshal([]byte(body), &v) == nil {
					b, _ := json.Marshal(v)
					body = string(b)
				}
				out[e] = append(out[e], body+" exit "+exit)
			}
			slices.Sort(out[e])
		}
		return out
	}
	return reflect.DeepEqual(norm(got), norm(want))
}
