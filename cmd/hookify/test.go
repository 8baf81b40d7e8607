package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// testCmd runs the fixtures of the rules' tests: and of --cases through the
// generated scripts on disk, exactly as Cursor runs them (the hooks.json
// command, from the hooks' working directory, the payload on stdin), with
// the sh/awk hook always and PowerShell when pwsh is on PATH. Each script's answer
// must equal the evaluator's, and the decision must equal the fixture's
// expect. It prints one line per fixture, details of each failure, and a
// summary; it exits 1 on any failure. It never writes to the project (but
// for the stamp the hooks write, as in Cursor, when they find the rule files
// as built; they never rebuild under test: docs/live-rules.md).
func testCmd(c *cli, cases string) int {
	res, root, stdout, stderr := c.res, c.root, c.stdout, c.stderr
	printSummarised(stderr, res.Diags)
	bad := 0
	for _, d := range res.Diags {
		if d.Severity == diag.Error && !slices.Contains(res.LeftOut, d.Pos.File) || d.Code == diag.Test {
			bad++
		}
	}
	if !c.usable() {
		return 1
	}
	c.leftOut()
	changes, err := writer.Plan(os.DirFS(root), res.Files, res.Stale)
	if err != nil {
		printDiags(stderr, writeDiags(err))
		return 1
	}
	if len(changes) > 0 {
		fmt.Fprintf(stderr, "hookify test: %s stale, so the scripts on disk are not what the rules say; run hookify build, or give hookify test the flags build had (hookify check shows the diff)\n", staleFiles(len(changes)))
		return 1
	}

	var fixtures []eval.Fixture
	for _, r := range res.Program.Rules {
		if slices.Contains(c.built, r.Source) {
			continue // built only to keep its hooks: not a rule named
		}
		for _, t := range r.Tests {
			fixtures = append(fixtures, eval.FromTest(r, t))
		}
	}
	if cases != "" {
		dir := path.Clean(filepath.ToSlash(cases))
		fx, diags := eval.ReadCases(os.DirFS(root), dir)
		printDiags(stderr, diags)
		bad += len(diags)
		fixtures = append(fixtures, fx...)
	}

	commands, err := ownedCommands(filepath.Join(root, compiler.HooksJSON), c.opts.Level())
	if err != nil {
		fmt.Fprintf(stderr, "hookify test: %v\n", err)
		return 1
	}
	tmp, err := os.MkdirTemp("", "hookify-test-")
	if err != nil {
		fmt.Fprintf(stderr, "hookify test: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	absRoot, _ := filepath.Abs(root)
	rn := &runner{
		dir:      hookDir(absRoot, c.user),
		plan:     res.Cursor,
		commands: commands,
		tmp:      tmp,
		environ:  hookEnviron(absRoot),
		warn:     c.opts.Warn == ir.WarnAllow,
	}
	if p, err := exec.LookPath("pwsh"); err == nil {
		rn.pwsh = p
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	if len(fixtures) > 0 {
		fmt.Fprintln(tw, "RESULT\tFIXTURE\tEVENT\tEXPECT\tGOT\tMATCHED")
	}
	var details bytes.Buffer
	passed, failed, skipped := 0, 0, 0
	var rows []row
	for i, f := range fixtures {
		row := rn.run(f, i)
		rows = append(rows, row)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", row.status, row.name, row.events, f.Expect, row.got, row.matched)
		switch row.status {
		case "ok":
			passed++
		case "skip":
			skipped++
		default:
			failed++
			details.WriteString(row.detail)
		}
	}
	tw.Flush()
	// What Cursor does with the answers, per fixture (docs/cursor.md).
	for _, r := range rows {
		if r.status == "skip" {
			continue
		}
		fmt.Fprintf(stdout, "\n%s\n", r.name)
		for _, line := range r.delivery {
			fmt.Fprintf(stdout, "  %s\n", line)
		}
	}
	if details.Len() > 0 {
		fmt.Fprintf(stdout, "\n%s", details.Bytes())
	}
	summary := fmt.Sprintf("%s: %d passed, %d failed", plural(len(fixtures), "fixture"), passed, failed)
	if skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", skipped)
	}
	if bad > 0 {
		summary += fmt.Sprintf("; %s in tests or cases", plural(bad, "problem"))
	}
	fmt.Fprintf(stdout, "\nhookify test: %s\n", summary)
	if len(fixtures) == 0 && cases == "" {
		fmt.Fprint(stdout, testsExample(res.Program.Rules))
	}
	if rn.pwsh == "" {
		fmt.Fprintln(stderr, "hookify test: PowerShell scripts not run: pwsh is not on PATH")
	}
	if failed > 0 || bad > 0 {
		return 1
	}
	return 0
}

// hookEnviron is the environment Cursor gives a hook: ours, with the
// project variables set and no transcript unless a fixture gives one.
func hookEnviron(root string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case ir.TranscriptEnv, "CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "CURSOR_PROJECT_DIR="+root, "CLAUDE_PROJECT_DIR="+root, codegen.RebuiltEnv+"=1")
}

// command is one of hookify's hooks.json entries: the script it runs
// (relative to the hooks' working directory, without extension) and the
// arguments after it.
type command struct {
	line   string // as written in hooks.json
	script string
	args   []string
	sh     bool // the entry runs the .sh script
}

// ownedCommands reads hookify's command entries from hooks.json, by event.
func ownedCommands(file string, level hooksjson.Level) (map[string][]command, error) {
	data, err := readRegular(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", filepath.ToSlash(compiler.HooksJSON), err)
	}
	f, err := hooksjson.Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.ToSlash(compiler.HooksJSON), err)
	}
	out := map[string][]command{}
	for _, ev := range f.Events {
		event := ev.Name
		for _, e := range ev.Commands() {
			line := e.Line
			s, ok := hooksjson.ParseCommand(line, level)
			if !ok {
				continue
			}
			cmd := command{line: line, script: strings.TrimSuffix(s.Path, path.Ext(s.Path)), sh: !s.PowerShell}
			if s.Event != "" {
				cmd.args = []string{s.Event}
			}
			out[event] = append(out[event], cmd)
		}
	}
	return out, nil
}

// unix is the command that runs the .sh twin of an entry.
func (c command) unix() string {
	if c.sh {
		return c.line
	}
	return strings.Join(append([]string{c.script + ".sh"}, c.args...), " ")
}

// powershell is the command that runs the .ps1 twin of an entry with pwsh.
func (c command) powershell(pwsh string) string {
	return strings.Join(append([]string{shellQuote(pwsh), "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", c.script + ".ps1"}, c.args...), " ")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

type runner struct {
	dir      string // where hooks run
	plan     *ir.Cursor
	commands map[string][]command
	tmp      string
	environ  []string
	warn     bool
	pwsh     string
}

type row struct {
	status, name, events, got, matched string
	detail                             string
	// delivery is what Cursor does with the hooks' answers (delivered).
	delivery []string
}

// run runs one fixture on every hook of its events.
func (rn *runner) run(f eval.Fixture, n int) row {
	r := row{name: f.Pos.String(), status: "ok"}
	if f.Name != "" {
		r.name += " " + f.Name
	}
	var evs []string
	for _, e := range f.Events {
		evs = append(evs, e.String())
	}
	r.events = strings.Join(evs, "+")
	if f.Rule != nil && f.Rule.Prompt {
		r.status, r.got, r.matched = "skip", "-", "(a prompt hook: a model decides)"
		return r
	}
	var d strings.Builder // the report, kept when the fixture fails
	var why []string
	fail := func(format string, args ...any) {
		r.status = "FAIL"
		why = append(why, fmt.Sprintf(format, args...))
	}
	environ := rn.environ
	if f.Transcript != nil {
		name := filepath.Join(rn.tmp, fmt.Sprintf("env-transcript-%d", n))
		if err := os.WriteFile(name, []byte(*f.Transcript), 0o644); err != nil {
			fail("cannot write the transcript: %v", err)
		}
		environ = append(environ, ir.TranscriptEnv+"="+name)
	}
	env := hookEnv(rn.dir, environ, rn.warn)
	written := 0
	writeTranscript := func(text string) (string, error) {
		written++
		name := filepath.Join(rn.tmp, fmt.Sprintf("transcript-%d-%d", n, written))
		return name, os.WriteFile(name, []byte(text), 0o644)
	}
	decision := ir.ExpectAllow
	var matched []*ir.Rule
	// What Cursor delivers: the events come in the order Cursor fires them
	// (a gate, then postToolUse), and none fires after a stop.
	var delivery ir.Delivery
	for _, e := range f.Events {
		if delivery.Blocks {
			break
		}
		raw, err := f.Payload(e, writeTranscript)
		if err != nil {
			fail("cannot build the payload: %v", err)
			continue
		}
		fmt.Fprintf(&d, "    %s payload: %s\n", e, strings.TrimRight(string(raw), "\n"))
		cmds := rn.commands[e.String()]
		hooks := 0
		for _, u := range rn.plan.Units {
			for _, h := range u.Hooks {
				if h.Event != e {
					continue
				}
				hooks++
				want := eval.Hook(h, raw, env)
				decision = max(decision, want.Expect(h.FailClosed))
				delivery = merge(delivery, ir.Deliver(e, want.Answer, want.Exit, h.FailClosed))
				for _, m := range want.Matched {
					if !slices.Contains(matched, m) {
						matched = append(matched, m)
					}
				}
				cmd, ok := findCommand(cmds, u.Name)
				if !ok {
					fail("hooks.json has no %s entry for %s; run hookify build", e, u.Name)
					continue
				}
				fmt.Fprintf(&d, "    %s: %s\n", cmd.line, describe(want, h))
				fmt.Fprintf(&d, "      evaluator:  %s", want.Answer)
				for _, p := range want.Problems {
					fail("the evaluator cannot run %s", p)
				}
				got := rn.exec(cmd.unix(), raw, environ)
				if got.err != nil || !bytes.Equal(got.out, want.Answer) || got.code != want.Exit {
					fmt.Fprintf(&d, "      sh hook:    %s\n", got)
					fail("the sh hook disagrees with the evaluator")
				} else {
					d.WriteString("      sh hook:    the same\n")
				}
				if rn.pwsh != "" && fileExists(filepath.Join(rn.dir, cmd.script+".ps1")) {
					ps := rn.exec(cmd.powershell(rn.pwsh), raw, environ)
					if ps.err != nil || !sameJSON(ps.out, want.Answer) || ps.code != want.Exit {
						fmt.Fprintf(&d, "      powershell: %s\n", ps)
						fail("PowerShell disagrees with the evaluator")
					} else {
						d.WriteString("      powershell: the same\n")
					}
				}
			}
		}
		if hooks == 0 {
			d.WriteString("    (no hookify script runs on " + e.String() + ")\n")
		}
		if hooks != len(cmds) {
			fail("hooks.json has %s for %s, the rules make %d; run hookify build", plural(len(cmds), "hookify entry"), e, hooks)
		}
	}
	r.delivery = delivered(delivery)
	r.got = decision.String()
	r.matched = ruleNames(matched)
	if r.matched == "" {
		r.matched = "-"
	}
	if decision != f.Expect {
		fail("expected %s, got %s", f.Expect, decision)
	}
	if r.status == "FAIL" {
		r.detail = fmt.Sprintf("--- FAIL %s: %s\n%s", r.name, strings.Join(why, "; "), d.String())
	}
	return r
}

// merge adds what one more hook's answer delivers.
func merge(a, b ir.Delivery) ir.Delivery {
	join := func(x, y, xh, yh string) (string, string) {
		switch {
		case x == "":
			return y, yh
		case y == "":
			return x, xh
		}
		return x + ir.MessageSep + y, xh + "; " + yh
	}
	a.Blocks = a.Blocks || b.Blocks
	a.Agent, a.AgentHow = join(a.Agent, b.Agent, a.AgentHow, b.AgentHow)
	a.User, a.UserHow = join(a.User, b.User, a.UserHow, b.UserHow)
	return a
}

func findCommand(cmds []command, unit string) (command, bool) {
	for _, c := range cmds {
		if path.Base(c.script) == unit {
			return c, true
		}
	}
	return command{}, false
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

type scriptRun struct {
	out, stderr []byte
	code        int
	err         error
}

func (s scriptRun) String() string {
	out := fmt.Sprintf("%q exit %d", s.out, s.code)
	if s.err != nil {
		out += " (" + s.err.Error() + ")"
	}
	if len(s.stderr) > 0 {
		out += "; stderr: " + strings.TrimSpace(string(s.stderr))
	}
	return out
}

// exec runs a hooks.json command as Cursor does: sh -c, from the hooks'
// working directory, with the payload on stdin.
func (rn *runner) exec(line string, stdin []byte, environ []string) scriptRun {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	cmd.Dir = rn.dir
	cmd.Env = environ
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := scriptRun{out: out.Bytes(), stderr: errb.Bytes()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.err = err
	}
	if ctx.Err() != nil {
		r.err = ctx.Err()
	}
	return r
}

// sameJSON: both are one JSON object line with the same content.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return bytes.Count(a, []byte("\n")) <= 1 && reflect.DeepEqual(x, y)
}

// plainInput matches a pattern that matches itself as input text.
var plainInput = regexp.MustCompile(`^[A-Za-z0-9 _/:=,@-]+$`)

// testsExample says how to add tests to a rule, with a copyable tests:
// key for the first rule that has conditions: an input that the rule
// should catch (its pattern, where the pattern matches itself) and, for a
// shell rule, one it should allow.
func testsExample(rules []*ir.Rule) string {
	const intro = "No test ran. Add examples to a rule's front matter under tests: (README, \"Testing rules\"); "
	for _, r := range rules {
		if r.Prompt || len(r.Conditions) == 0 {
			continue
		}
		c := r.Conditions[0]
		value, caught := "TEXT THE RULE SHOULD CATCH", false
		switch c.Op {
		case ir.RegexMatch, ir.Contains, ir.Equals, ir.StartsWith, ir.EndsWith:
			if plainInput.MatchString(c.Pattern) {
				value, caught = c.Pattern, true
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%sfor %s (%s)%s:\n", intro, r.Name, r.Source, map[bool]string{true: "", false: ", with the text it should catch"}[caught])
		b.WriteString("tests:\n")
		fmt.Fprintf(&b, "  - input: {%s: %s}\n    expect: %s\n", c.Field, strconv.Quote(value), r.Action)
		const harmless = "echo hello"
		re, err := regexp.Compile(c.Pattern)
		if c.Field == "command" && len(r.Conditions) == 1 && c.Op != ir.NotContains && c.Op != ir.NotRegexMatch &&
			err == nil && !re.MatchString(harmless) && !strings.Contains(harmless, c.Pattern) {
			fmt.Fprintf(&b, "  - input: {command: %s}\n    expect: allow\n", strconv.Quote(harmless))
		}
		return b.String()
	}
	return intro + "each is an input (the fields the rule tests) and the answer to expect: allow, warn or block\n"
}
