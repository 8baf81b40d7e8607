package codegen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// TestRetiredStub runs the .sh retired stub of a script that served one
// event (Cursor runs it without an argument) and of one that served every
// event (with the event's name), in dash, bash and busybox sh: it prints
// the event's allow answer (README, "Event and action mapping") and exits
// 0. Both twins carry a generated header that IsRetired and
// writer.IsGenerated read; codegen/powershell.TestGeneratedScripts parses
// the .ps1 twin.
func TestRetiredStub(t *testing.T) {
	want := map[string]string{
		"beforeShellExecution": `{"permission":"allow"}`,
		"preToolUse":           `{"permission":"allow"}`,
		"postToolUse":          `{}`,
		"beforeReadFile":       `{"permission":"allow"}`,
		"beforeSubmitPrompt":   `{"continue":true}`,
		"stop":                 `{}`,
		"beforeMCPExecution":   `{"permission":"allow"}`,
	}
	if len(want) != len(ir.CursorEvents) {
		t.Fatalf("the test knows %d events, ir %d", len(want), len(ir.CursorEvents))
	}
	shells := [][]string{{testenv.LookPath(t, "dash")}, {testenv.LookPath(t, "bash")}, {testenv.LookPath(t, "busybox"), "sh"}}
	dir := t.TempDir()
	run := func(events []ir.CursorEvent, arg string) map[string]string {
		p := ".cursor/hooks/hookify-x.sh"
		data := codegen.Retired(p, events)
		if !codegen.IsRetired(p, data) || !writer.IsGenerated(p, data) {
			t.Fatalf("%v: not a generated retired stub:\n%s", events, data)
		}
		ps := ".cursor/hooks/hookify-x.ps1"
		if d := codegen.Retired(ps, events); !codegen.IsRetired(ps, d) || !writer.IsGenerated(ps, d) || codegen.IsRetired(p, d) {
			t.Fatalf("%v: the .ps1 twin is not a generated retired stub:\n%s", events, d)
		}
		f := filepath.Join(dir, "hookify-x.sh")
		if err := os.WriteFile(f, data, 0o755); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		// The .awk stub, as a wrapper runs its program: awk -f, the event
		// as ARGV[1] where the script serves several.
		pa := ".cursor/hooks/hookify-x.awk"
		ad := codegen.Retired(pa, events)
		if !codegen.IsRetired(pa, ad) || !writer.IsGenerated(pa, ad) {
			t.Fatalf("%v: the .awk program is not a generated retired stub:\n%s", events, ad)
		}
		fa := filepath.Join(dir, "hookify-x.awk")
		if err := os.WriteFile(fa, ad, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, a := range testenv.Awks {
			args := []string{"-f", fa}
			if arg != "" {
				args = append(args, arg)
			}
			out, err := testenv.Command(t, filepath.Join(testenv.AwkDir(t, a), "awk"), args...).Output()
			if err != nil {
				t.Fatalf("%s -f %v: %v", a, events, err)
			}
			got[string(a)] = string(out)
		}
		for _, sh := range shells {
			args := append(sh[1:], f)
			if arg != "" {
				args = append(args, arg)
			}
			out, err := testenv.Command(t, sh[0], args...).Output()
			if err != nil {
				t.Fatalf("%v %v: %v", sh, events, err)
			}
			got[sh[len(sh)-1]] = string(out)
		}
		return got
	}
	for _, e := range ir.CursorEvents {
		for sh, out := range run([]ir.CursorEvent{e}, "") {
			if diff := cmp.Diff(want[e.String()]+"\n", out); diff != "" {
				t.Errorf("%s, %s alone (-want +got):\n%s", sh, e, diff)
			}
		}
		for sh, out := range run(ir.CursorEvents, e.String()) {
			if diff := cmp.Diff(want[e.String()]+"\n", out); diff != "" {
				t.Errorf("%s, %s of all (-want +got):\n%s", sh, e, diff)
			}
		}
	}
}
