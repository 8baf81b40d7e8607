package compiler

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// genHintRule writes a rule file from parts that real rule files hold and
// that the compiler answers with a hint: events and actions misspelt or
// of Claude Code, a lone pattern on events without a field, tools Cursor
// does not expose, enabled words, typos of keys and operators.
func genHintRule(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var b strings.Builder
	b.WriteString("---\nname: r\n")
	if ev := pick("", "all", "bash", "file", "stop", "prompt", "Bash", "FILE", "tool", "pre_tool", "tooluse", "prompting", "shell", "xyz"); ev != "" {
		fmt.Fprintf(&b, "event: %s\n", ev)
	}
	if a := pick("", "warn", "block", "deny", "Block", "WARN", "approve", "allow", "addcontext", "stop", "xyz"); a != "" {
		fmt.Fprintf(&b, "action: %s\n", a)
	}
	if e := pick("", "", "true", "yes", "on", "no", "maybe"); e != "" {
		fmt.Fprintf(&b, "enabled: %s\n", e)
	}
	if tm := pick("", "", "", "Bash", "Write|Edit", "AskUserQuestion", "Bash|AskUserQuestion", "TodoWrite"); tm != "" {
		fmt.Fprintf(&b, "tool_matcher: %s\n", tm)
	}
	if k := pick("", "", "", "acton: block", "evnt: bash", "enabeld: false", "tool_macher: Bash", "messge: hi"); k != "" {
		b.WriteString(k + "\n")
	}
	pattern := pick("rm -rf", "sudo", `\.env$`, "git push --force", "done")
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "pattern: %s\n", pattern)
	} else {
		field := pick("command", "file_path", "new_text", "transcript", "prompt")
		op := pick("regex_match", "contains", "matches", "regexp", "regex", "equals", "xyz")
		b.WriteString("conditions:\n")
		fmt.Fprintf(&b, "  - field: %s\n", field)
		if rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "    operater: %s\n", op)
		} else {
			fmt.Fprintf(&b, "    operator: %s\n", op)
		}
		fmt.Fprintf(&b, "    pattern: %s\n", pattern)
	}
	fm := b.String()
	if rng.IntN(8) == 0 {
		// Keys nested under a map, as some real files have them.
		lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(fm, "---\n"), "\n"), "\n")
		fm = "---\nhookify:\n  " + strings.Join(lines, "\n  ") + "\n"
	}
	return fm + "---\nMind the rule.\n"
}

const hintRuleName = ".claude/hookify.r.local.md"

func compileHintRule(src string) *Result {
	return Compile(mapFS(map[string]string{hintRuleName: src}), Options{Inputs: []string{hintRuleName}})
}

func countCode(ds diag.List, code diag.Code, sev diag.Severity) int {
	n := 0
	for _, d := range ds {
		if d.Code == code && d.Severity == sev {
			n++
		}
	}
	return n
}

// TestHintRewrites applies every diagnostic's suggested rewrite to the
// rule it came from (README, "A rule that does not compile"): the hint shows the rewrite's text, the
// rewritten rule has no error that the original did not have, the
// diagnostic is gone, and a lone pattern moved to an event keeps testing
// its pattern against that event's field. Then, applying the first
// rewrite of each diagnostic in turn, a rule whose every error had a
// rewrite builds.
func TestHintRewrites(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(20, 9))
	seen := map[diag.Code]int{}
	for range n {
		src := genHintRule(rng)
		res := compileHintRule(src)
		for _, d := range res.Diags {
			for _, rw := range d.Rewrites {
				seen[d.Code]++
				checkRewrite(t, src, res, d, rw)
			}
		}
		// Apply the first rewrite of each diagnostic until none is left.
		cur, fixable := src, true
		for step := 0; ; step++ {
			r := compileHintRule(cur)
			for _, d := range r.Diags {
				if d.Severity == diag.Error && len(d.Rewrites) == 0 {
					fixable = false
				}
			}
			i := slices.IndexFunc(r.Diags, func(d diag.Diagnostic) bool { return len(d.Rewrites) > 0 })
			if i < 0 {
				if fixable && r.Diags.HasErrors() {
					t.Errorf("every error of this rule had a rewrite, but the rule, rewritten, does not build:\n%s\n%s", cur, r.Diags)
				}
				break
			}
			if step > 10 {
				t.Fatalf("the rewrites do not end:\n%s\n%s", cur, r.Diags)
			}
			cur = string(ApplyRewrite([]byte(cur), r.Diags[i].Rewrites[0]))
		}
	}
	// The generator reaches every diagnostic that suggests a rewrite.
	for _, code := range []diag.Code{diag.PatternNeedsField, diag.UnknownAction, diag.UnknownEvent, diag.NoTarget, diag.Type, diag.EnabledWord, diag.UnknownKey, diag.UnknownOperator, diag.NoEvent} {
		if seen[code] == 0 {
			t.Errorf("no %s diagnostic with a rewrite was generated", code)
		}
	}
}

func checkRewrite(t *testing.T, src string, res *Result, d diag.Diagnostic, rw diag.Rewrite) {
	t.Helper()
	for _, e := range rw {
		key, value, _ := strings.Cut(e.Text, ": ")
		if !strings.Contains(e.Text, "\n") && !(strings.Contains(d.Hint, key+": ") && strings.Contains(d.Hint, value)) ||
			strings.Contains(e.Text, "\n") && !strings.Contains(d.Hint, e.Text) {
			t.Errorf("%s\nthe hint does not show the rewrite %q", d, e.Text)
		}
	}
	out := string(ApplyRewrite([]byte(src), rw))
	after := compileHintRule(out)
	fail := func(why string) {
		t.Errorf("%s:\n%s\nrewritten by %q:\n%s\ngives:\n%s", why, src, rw, out, after.Diags)
	}
	if countCode(after.Diags, d.Code, d.Severity) >= countCode(res.Diags, d.Code, d.Severity) {
		fail("the rewrite leaves the diagnostic")
	}
	for _, a := range after.Diags {
		// A rule that no hook enforces is only looked for in a rule
		// without other errors: the rewrite may bring it to light.
		hidden := a.Code == diag.NoTarget && res.Diags.HasErrors()
		// A misspelt key's value is read, and checked, once the key is
		// spelt right; so are nested keys once moved to the top level.
		hidden = hidden || d.Code == diag.UnknownKey || d.Code == diag.NoEvent
		if a.Severity == diag.Error && !hidden && countCode(after.Diags, a.Code, diag.Error) > countCode(res.Diags, a.Code, diag.Error) {
			fail("the rewrite adds an error")
			break
		}
	}
	if d.Code == diag.PatternNeedsField && !after.Diags.HasErrors() && len(after.Program.Rules) == 1 {
		r := after.Program.Rules[0]
		field, ok := ir.MainField(r.Event)
		if !ok {
			field = "transcript"
		}
		pp := strings.SplitN(src[strings.Index(src, "\npattern: ")+len("\npattern: "):], "\n", 2)[0]
		if len(r.Conditions) != 1 || r.Conditions[0].Field != field || r.Conditions[0].Pattern != pp {
			fail("the rewritten rule does not test the pattern against the event's field")
		}
	}
}

// TestApplyRewrite: edits replace a key's entry with what is nested under
// it, remove it, or add a top-level key.
func TestApplyRewrite(t *testing.T) {
	src := "---\nname: x\nevent: all\nconditions:\n  - field: command\n    operater: regexp\n    pattern: rm\npattern: y\n---\nbody\n"
	for _, c := range []struct {
		rw   diag.Rewrite
		want string
	}{
		{diag.Set(diag.Pos{Line: 3, Col: 1}, "event: bash"), "---\nname: x\nevent: bash\nconditions:\n  - field: command\n    operater: regexp\n    pattern: rm\npattern: y\n---\nbody\n"},
		{diag.Set(diag.Pos{Line: 6, Col: 5}, "operator: regexp"), "---\nname: x\nevent: all\nconditions:\n  - field: command\n    operator: regexp\n    pattern: rm\npattern: y\n---\nbody\n"},
		{diag.Set(diag.Pos{Line: 4, Col: 1}, ""), "---\nname: x\nevent: all\npattern: y\n---\nbody\n"},
		{diag.Set(diag.Pos{Line: 8, Col: 1}, "conditions:\n  - field: a\n    pattern: b"), "---\nname: x\nevent: all\nconditions:\n  - field: command\n    operater: regexp\n    pattern: rm\nconditions:\n  - field: a\n    pattern: b\n---\nbody\n"},
		{diag.Set(diag.Pos{}, "enabled: false"), "---\nname: x\nevent: all\nconditions:\n  - field: command\n    operater: regexp\n    pattern: rm\npattern: y\nenabled: false\n---\nbody\n"},
		{diag.Rewrite{{Key: diag.Pos{Line: 3, Col: 1}, Text: "event: stop"}, {Key: diag.Pos{Line: 8, Col: 1}, Text: ""}}, "---\nname: x\nevent: stop\nconditions:\n  - field: command\n    operater: regexp\n    pattern: rm\n---\nbody\n"},
	} {
		if got := string(ApplyRewrite([]byte(src), c.rw)); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.rw, got, c.want)
		}
	}
}

// TestHintRewritesCorpus applies every suggested rewrite to the real rule
// file it came from, as TestHintRewrites does to generated ones.
func TestHintRewritesCorpus(t *testing.T) {
	dir := testenv.CorpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) == 0 {
		t.Fatalf("no rule files in %s", dir)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		res := compileHintRule(src)
		for _, d := range res.Diags {
			for _, rw := range d.Rewrites {
				n++
				checkRewrite(t, src, res, d, rw)
			}
		}
	}
	if n == 0 {
		t.Error("no diagnostic of the corpus suggests a rewrite")
	}
	t.Logf("%d rewrites of %d files", n, len(files))
}
