package upstream_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/compiler"
)

// dialectForms are the spellings of real rule files that hookify reads for
// their evident intent (README, "Rules as people write them"), each with
// the canonical spelling it must compile like. %s is replaced by the
// tool_matcher line where the form needs one.
var dialectForms = []struct{ written, canonical string }{
	{"event: UserPromptSubmit", "event: prompt"},
	{"event: userpromptsubmit", "event: prompt"},
	{"event: Stop", "event: stop"},
	{"event: STOP", "event: stop"},
	{"event: PreToolUse\ntool_matcher: Bash", "event: bash\ntool_matcher: Bash"},
	{"event: pretooluse\ntool_matcher: Edit|Write", "event: file\ntool_matcher: Edit|Write"},
	{"event: PreToolUse\ntool_matcher: Read", "event: read\ntool_matcher: Read"},
	{"event: PreToolUse\ntool_matcher: Task", "event: all\ntool_matcher: Task"},
}

var actionForms = []struct{ written, canonical string }{
	{"action: ask", "action: warn"}, {"action: notify", "action: warn"},
	{"action: remind", "action: warn"}, {"action: warning", "action: warn"},
	{"action: block", "action: block"}, {"", ""},
}

// dialectRule builds, from fuzzed choices, a rule in the upstream dialect
// and the same rule in hookify's own spelling.
func dialectRule(ev, act, op, comb, pat byte, text string) (written, canonical string) {
	e := dialectForms[int(ev)%len(dialectForms)]
	a := actionForms[int(act)%len(actionForms)]
	field := map[bool]string{true: "transcript", false: "command"}[strings.Contains(e.canonical, "stop")]
	switch {
	case strings.Contains(e.canonical, "prompt"):
		field = "prompt"
	case strings.Contains(e.canonical, "file"):
		field = "content"
	case strings.Contains(e.canonical, "read"):
		field = "file_path"
	}
	opW, opC := "regex_match", "regex_match"
	if op%2 == 1 {
		opW = "regex"
	}
	quoted := "'" + strings.ReplaceAll(text, "'", "''") + "'"
	item := func(o string, indent string) string {
		return fmt.Sprintf("%s- field: %s\n%s  operator: %s\n%s  pattern: %s\n", indent, field, indent, o, indent, quoted)
	}
	condW := "conditions:\n" + item(opW, "  ")
	if comb%2 == 1 {
		condW = "conditions:\n  combinator: and\n  conditions:\n" + item(opW, "    ")
	}
	condC := "conditions:\n" + item(opC, "  ")
	if pat%3 == 0 && strings.Contains(e.canonical, "stop") {
		condW, condC = "pattern: .*\n", "pattern: .*\n"
	}
	front := func(ev, act, cond string) string {
		s := "---\nname: d\n" + ev + "\n"
		if act != "" {
			s += act + "\n"
		}
		return s + cond + "---\nA message.\n"
	}
	return front(e.written, a.written, condW), front(e.canonical, a.canonical, condC)
}

// FuzzDialect: a rule in the upstream dialect compiles to exactly what the
// same rule in hookify's spelling compiles to, the same rule disabled
// never stops a build, and hookify fix changes no compiled byte.
func FuzzDialect(f *testing.F) {
	for i := range 40 {
		b := byte(i)
		f.Add(b, b/2, b/3, b/5, b/7, "rm -rf")
	}
	f.Add(byte(0), byte(0), byte(1), byte(1), byte(1), "it's done")
	f.Fuzz(func(t *testing.T, ev, act, op, comb, pat byte, text string) {
		if strings.ContainsAny(text, "\x00\r\n") || !utf8.ValidString(text) {
			return
		}
		written, canonical := dialectRule(ev, act, op, comb, pat, text)
		const name = ".claude/hookify.d.local.md"
		compile := func(src string) *compiler.Result {
			// Without the live check, whose fingerprints see any edit.
			return compiler.Compile(fstest.MapFS{name: {Data: []byte(src)}}, compiler.Options{NoLiveCheck: true})
		}
		w, c := compile(written), compile(canonical)
		if w.Diags.HasErrors() != c.Diags.HasErrors() {
			t.Fatalf("errors differ:\n%s\n%s\n--\n%s\n%s", written, w.Diags, canonical, c.Diags)
		}
		if !reflect.DeepEqual(w.Files, c.Files) {
			t.Fatalf("the dialect compiles differently:\n%s\n--\n%s\n%s", written, canonical, cmp.Diff(c.Files, w.Files))
		}
		disabled := strings.Replace(written, "name: d\n", "name: d\nenabled: false\n", 1)
		if d := compile(disabled); d.Diags.HasErrors() || len(d.Program.Rules) != 0 {
			t.Fatalf("a disabled rule stops the build or is built:\n%s\n%s", disabled, d.Diags)
		}
		fsys := fstest.MapFS{name: {Data: []byte(written)}}
		changes, _ := compiler.Fix(fsys, compiler.Options{})
		for _, ch := range changes {
			if fixed := compile(string(ch.New)); !reflect.DeepEqual(fixed.Files, w.Files) {
				t.Fatalf("fix changes the compiled output:\n%s\n--\n%s", written, ch.New)
			}
		}
	})
}
