package bash

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/internal/tablerules"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// TestPerRuleRerun runs what a per-rule hook does after its rebuild
// (perRuleRerun, then the allow answer) in dash, bash and busybox sh, on
// generated calls: the event's old scripts (the baked list, with matchers,
// some gone), this one among them or gone, new per-rule scripts, and
// scripts that must not run (a per-event one, a user's own); each prints a
// generated answer. The script must run its own new script, and, when it
// is the first of the old scripts Cursor started for the call's tool that
// is still there (else the first it started), every new per-rule script,
// in name order, each once, on the payload as it came; and print their
// answers as one hook holding their rules would: a block with the
// messages of every block joined by a blank line (answers of the warn
// shape too where the event's two shapes are one), else nothing and the
// greatest exit code of those that could not decide, else the warnings
// joined alike, else the allow answer.
func TestPerRuleRerun(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 23))
	var shells [][]string
	for _, sh := range []string{"dash", "bash"} {
		shells = append(shells, []string{testenv.LookPath(t, sh)})
	}
	shells = append(shells, []string{testenv.LookPath(t, "busybox"), "sh"})
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		e := ir.CursorEvents[r.IntN(len(ir.CursorEvents))]
		warn := []ir.WarnMode{ir.WarnContext, ir.WarnAsk, ir.WarnAllow}[r.IntN(3)]
		u := &ir.Unit{Name: "hookify-me", Hooks: []*ir.Hook{{Event: e}}}
		h := codegen.NewLayout(u, warn, true).Hooks[0]
		// The old list: this script and up to two others, in some order.
		old := []string{"hookify-me"}
		for i := range r.IntN(3) {
			old = slices.Insert(old, r.IntN(len(old)+1), fmt.Sprintf("hookify-o%d", i))
		}
		meGone := r.IntN(4) == 0
		present := map[string]bool{"hookify-me": !meGone}
		for _, o := range old[:] {
			if o != "hookify-me" {
				present[o] = r.IntN(3) > 0
			}
		}
		// A script that is not present is gone or retired (a stub that a
		// rebuild run by a hook wrote in its place), which is the same.
		retired := map[string]bool{}
		for _, o := range old {
			retired[o] = !present[o] && r.IntN(2) == 0
		}
		var news []string
		for i := range r.IntN(4) {
			news = append(news, fmt.Sprintf("hookify-n%d", i))
		}
		answers := map[string]tablerules.Answer{}
		for _, n := range append(slices.Clone(old), news...) {
			answers[n] = tablerules.RandomAnswer(r)
		}
		// The tool of the call, and the entries' matchers: Cursor started
		// the old scripts whose matcher selects the tool, this one among them.
		tool := []string{"Shell", "Write", "Edit", "MultiEdit", "MCP:fs", "Read", ""}[r.IntN(7)]
		selects := func(m string) bool {
			for _, alt := range strings.Split(m, "|") {
				if m == "" || alt == tool && tool != "" || alt == "MCP:.*" && strings.HasPrefix(tool, "MCP:") {
					return true
				}
			}
			return false
		}
		matchers := []string{"", "Shell", "Write|Edit", "MCP:.*", "Edit|MCP:.*"}
		var entries []codegen.ScriptEntry
		var started []string
		for _, o := range old {
			m := matchers[r.IntN(len(matchers))]
			for o == "hookify-me" && !selects(m) {
				m = matchers[r.IntN(len(matchers))]
			}
			entries = append(entries, codegen.ScriptEntry{Name: o, Matcher: m})
			if selects(m) {
				started = append(started, o)
			}
		}
		payload := `{"x":"` + string(tablerules.RandomFile(r)) + "\x00\n"
		if tool != "" {
			payload = `{"tool_name":"` + tool + `",` + payload[1:]
		}

		lead := started[0]
		for _, o := range started {
			if present[o] {
				lead = o
				break
			}
		}
		var want []string // the scripts that must run, in order
		if present["hookify-me"] {
			want = append(want, "hookify-me")
		}
		if lead == "hookify-me" {
			want = append(want, news...)
		}
		var ran []tablerules.Answer
		for _, n := range want {
			ran = append(ran, answers[n])
		}
		wantOut, wantExit, allow := tablerules.Combined(h, ran)
		if allow {
			wantOut = "ALLOW\n"
		}

		var lines []string
		perRuleRerun(func(ls ...string) { lines = append(lines, ls...) },
			&codegen.RuleFiles{Entries: map[string][]codegen.ScriptEntry{e.String(): entries}}, codegen.NewLayout(u, warn, true))
		for _, sh := range shells {
			dir := t.TempDir()
			log := filepath.Join(dir, "ran")
			header := "# " + codegen.Header([]string{".claude/x.md"}, "--layout per-rule --warn context")
			child := func(name string) string {
				a := answers[name]
				s := fmt.Sprintf("echo %s >>%s\ncat >%s\n", name, shQuote(log), shQuote(filepath.Join(dir, name+".in")))
				if out := a.Text(h); out != "" {
					s += "printf '%s' " + shQuote(out) + "\n"
				}
				return s + fmt.Sprintf("exit %d\n", a.Exit)
			}
			write := func(name, body string) {
				if err := os.WriteFile(filepath.Join(dir, name+".sh"), []byte(body), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// A retired stub, with a line after its header that logs a run.
			stub := func(name string) string {
				first, rest, _ := strings.Cut(string(codegen.Retired(".cursor/hooks/"+name+".sh", []ir.CursorEvent{e})), "\n")
				header, rest, _ := strings.Cut(rest, "\n")
				return first + "\n" + header + "\necho " + name + " >>" + shQuote(log) + "\n" + rest
			}
			for _, n := range append(slices.Clone(old), news...) {
				if n != "hookify-me" && (present[n] || slices.Contains(news, n)) {
					write(n, "#!/bin/sh\n"+header+"\n"+child(n))
				}
				if n != "hookify-me" && retired[n] {
					write(n, stub(n))
				}
			}
			write("hookify-beforeShellExecution", "#!/bin/sh\n# "+codegen.Header([]string{".claude/x.md"}, "--layout per-event --warn context")+"\n"+child("hookify-beforeShellExecution"))
			write("hookify-mine", "#!/bin/sh\n# my own hook\n"+child("hookify-mine"))
			gone := ""
			if meGone {
				gone = `rm -f "$0"` + "\n"
			}
			if retired["hookify-me"] {
				// In place of the running script, as writer.Apply renames.
				write("hookify-me-stub", stub("hookify-me"))
				gone = `mv "${0%/*}/hookify-me-stub.sh" "$0"` + "\n"
			}
			write("hookify-me", "#!/bin/sh\n"+header+"\nLC_ALL=C\nexport LC_ALL\nhk_awk=awk\n"+
				"if [ -n \"${"+codegen.EventEnv+"-}\" ]; then\n"+child("hookify-me")+"fi\n"+gone+
				"case $0 in */*) hk_h=${0%/*} ;; *) hk_h=. ;; esac\n"+strings.Join(lines, "\n")+"\necho ALLOW\nexit 0\n")
			args := append(slices.Clone(sh[1:]), filepath.Join(dir, "hookify-me.sh"))
			cmd, cancel := testenv.CommandTimeout(20*time.Second, sh[0], args...)
			cmd.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + dir}
			cmd.Stdin = strings.NewReader(payload)
			out, err := cmd.Output()
			cancel()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("round %d, %s, %s, tool %q, old %v (present %v, retired %v), new %v", round, sh, e, tool, entries, present, retired, news)
			if string(out) != wantOut || code != wantExit {
				t.Errorf("%s: got %q exit %d, want %q exit %d", where, out, code, wantOut, wantExit)
			}
			ran, _ := os.ReadFile(log)
			if got := strings.Fields(string(ran)); !slices.Equal(got, want) {
				t.Errorf("%s: ran %v, want %v", where, got, want)
			}
			for _, n := range want {
				if in, err := os.ReadFile(filepath.Join(dir, n+".in")); err != nil || string(in) != payload {
					t.Errorf("%s: %s read %q (%v), want the payload %q", where, n, in, err, payload)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "hookify.*")); len(left) > 0 {
				t.Errorf("%s: the saved payload is left: %v", where, left)
			}
		}
	}
}
