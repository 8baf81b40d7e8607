package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// finding is one line of hookify doctor: what is wrong, where, and the fix.
// An error would stop a hook from working or leave a rule unenforced; a
// warning makes hooks misbehave without stopping them; a note is what no
// file can show.
// finding is one of doctor's findings: a diagnostic, with the note
// severity for what is not a problem. Its text is "pos: severity: msg;
// fix: hint".
type finding = diag.Diagnostic

// findingText is f as doctor prints it.
func findingText(f finding) string {
	s := fmt.Sprintf("%s: %s: %s", f.Pos, f.Severity, f.Msg)
	if f.Hint != "" {
		s += "; fix: " + f.Hint
	}
	return s
}

// doctorRun is one run of hookify doctor.
type doctorRun struct {
	c         *cli
	root      string // the project root, or the home directory with --user
	hookDir   string // where Cursor runs the hooks: root, or ~/.cursor
	levelName string // "project" or "user"
	findings  []finding
	// hooks are the text of each .sh hook that hooks.json runs, with its
	// program file when it has one, for the requirements; psOnly: hooks.json
	// runs hookify hooks, and only PowerShell ones.
	hooks  [][]byte
	psOnly bool
	// facts decide which of cursorNotes apply here.
	facts noteFacts
}

func (d *doctorRun) add(f finding) { d.findings = append(d.findings, f) }

// level is where the hooks.json doctor checks lives.
func (d *doctorRun) level() hooksjson.Level { return compiler.Options{User: d.c.user}.Level() }

// at is a position in a file under the root, named as the user sees it.
func (d *doctorRun) at(rel string) diag.Pos {
	if d.c.user {
		return diag.Pos{File: "~/" + rel}
	}
	return diag.Pos{File: rel}
}

// doctor is "hookify doctor": is what Cursor will run here going to work?
// It prints one line per finding with its fix, and exits 1 when a finding
// would stop a hook from working or leave a rule unenforced.
func doctor(c *cli) int {
	d := &doctorRun{c: c, root: c.root, hookDir: hookDir(c.root, c.user), levelName: "project"}
	d.facts.user = c.user
	if c.user {
		d.levelName = "user"
	}
	d.check()
	errs, warns, notes := 0, 0, 0
	for _, f := range d.findings {
		switch f.Severity {
		case diag.Error:
			errs++
		case diag.Warning:
			warns++
		default:
			notes++
		}
	}
	if c.json {
		out := struct {
			Findings []jsonDiag `json:"findings"`
		}{Findings: []jsonDiag{}}
		for _, f := range d.findings {
			out.Findings = append(out.Findings, jsonDiag{f.Pos.File, f.Pos.Line, f.Pos.Col, f.Severity.String(), string(f.Code), f.Msg, f.Hint})
		}
		writeJSON(c.stdout, out)
	} else {
		for _, f := range d.findings {
			fmt.Fprintln(c.stdout, findingText(f))
		}
		verdict := "Cursor's hookify hooks here should work"
		if errs > 0 {
			verdict = "some hookify hooks will not work as the rules say"
		}
		fmt.Fprintf(c.stdout, "hookify doctor: %s, %s, %s: %s\n", plural(errs, "error"), plural(warns, "warning"), plural(notes, "note"), verdict)
	}
	if errs > 0 {
		return 1
	}
	return 0
}

func (d *doctorRun) check() {
	data, err := readRegular(filepath.Join(d.root, compiler.HooksJSON))
	rules, _ := fs.Glob(os.DirFS(d.root), ".claude/hookify.*.local.md")
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(rules) == 0:
		fix := "run hookify doctor from the project root, or -C DIR, or --user for ~/.cursor"
		if d.c.user {
			fix = "write rules in ~/.claude/hookify.*.local.md and run hookify build --user, or drop --user to check a project"
		}
		d.add(diag.Diagnostic{Pos: d.at(".claude"), Severity: diag.Note, Code: "no-rules",
			Msg: fmt.Sprintf("no hookify rules and no hooks.json at the %s level: nothing for Cursor to run", d.levelName), Hint: fix})
	case errors.Is(err, fs.ErrNotExist):
		d.add(diag.Diagnostic{Pos: d.at(compiler.HooksJSON), Severity: diag.Error, Code: "no-hooks-json",
			Msg:  fmt.Sprintf("there is no hooks.json, so Cursor runs none of the %s", plural(len(rules), "rule file")),
			Hint: d.buildCmd("")})
	case err != nil:
		d.add(diag.Diagnostic{Pos: d.at(compiler.HooksJSON), Severity: diag.Error, Code: "no-hooks-json",
			Msg: fmt.Sprintf("cannot read hooks.json: %v", diag.WithoutPath(err)), Hint: "make it a readable file"})
	default:
		d.checkHooksJSON(data)
	}
	d.requirements()
	d.otherLevel()
	d.claudeSettings()
	d.caveats()
}

// checkHooksJSON checks the file, the scripts its hookify entries run, the
// freshness of both against the rules, and runs each hook.
func (d *doctorRun) checkHooksJSON(data []byte) {
	if _, err := hooksjson.Merge(data, nil, d.level()); err != nil {
		pos := d.at(compiler.HooksJSON)
		var he *hooksjson.Error
		if errors.As(err, &he) {
			pos.Line, pos.Col = he.Line, he.Col
			err = errors.New(he.Msg)
		}
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "hooks-json",
			Msg:  fmt.Sprintf("Cursor cannot read hooks.json, so it runs none of its hooks: %v", err),
			Hint: "fix the JSON, or delete the file and run hookify build"})
		return
	}
	for _, f := range configProblems(data) {
		f.Pos.File = d.at(f.Pos.File).File
		d.add(f)
	}
	d.facts.read(data, d.level())
	commands, err := ownedCommands(filepath.Join(d.root, compiler.HooksJSON), d.level())
	if err != nil {
		d.add(diag.Diagnostic{Pos: d.at(compiler.HooksJSON), Severity: diag.Error, Code: "hooks-json", Msg: err.Error()})
		return
	}
	timeouts := entryTimeouts(data)
	d.psOnly = len(commands) > 0
	for _, cmds := range commands {
		for _, cmd := range cmds {
			d.psOnly = d.psOnly && !cmd.sh
		}
	}
	scriptsOK := map[string]bool{}
	for _, event := range slices.Sorted(maps.Keys(commands)) {
		for _, cmd := range commands[event] {
			if _, seen := scriptsOK[cmd.line]; !seen {
				scriptsOK[cmd.line] = d.checkScript(event, cmd)
			}
		}
	}
	plan, warn := d.fresh(commands)
	for _, event := range slices.Sorted(maps.Keys(commands)) {
		for _, cmd := range commands[event] {
			if scriptsOK[cmd.line] {
				d.runHook(event, cmd, timeouts[cmd.line], plan, warn)
			}
		}
	}
	d.gitattributes(commands)
}

// checkScript checks the file that a hookify entry runs; it reports whether
// the script can be run.
func (d *doctorRun) checkScript(event string, cmd command) bool {
	ext := ".ps1"
	if cmd.sh {
		ext = ".sh"
	}
	rel := path.Join(d.relHookDir(), cmd.script+ext)
	file := filepath.Join(d.root, filepath.FromSlash(rel))
	pos := d.at(rel)
	if !cmd.sh && !strings.HasSuffix(cmd.line, hooksjson.WindowsSuffix) {
		d.add(diag.Diagnostic{Pos: d.at(compiler.HooksJSON), Severity: diag.Error, Code: "windows-exit",
			Msg:  fmt.Sprintf("the %s entry %q does not end with %q: inside Cursor's PowerShell the exit code 2 of a hook that cannot read its payload reaches Cursor as 1, which Cursor builds without failClosed let through", event, cmd.line, hooksjson.WindowsSuffix),
			Hint: d.buildCmd("--platform windows") + " (this hookify writes the suffix)"})
	}
	st, err := os.Stat(file)
	if err != nil {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-missing",
			Msg:  fmt.Sprintf("the %s entry %q runs a script that does not exist", event, cmd.line),
			Hint: d.buildCmd("")})
		return false
	}
	if !st.Mode().IsRegular() {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-missing",
			Msg: fmt.Sprintf("the %s entry runs %s, which is not a regular file", event, rel), Hint: "remove it and run hookify build"})
		return false
	}
	data, err := os.ReadFile(file)
	if err != nil {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-unreadable", Msg: fmt.Sprintf("cannot read the script: %v", diag.WithoutPath(err)), Hint: "make it readable"})
		return false
	}
	if cmd.sh {
		hook := slices.Clone(data)
		if program, err := os.ReadFile(strings.TrimSuffix(file, ".sh") + ".awk"); err == nil {
			hook = append(hook, program...)
		}
		d.hooks = append(d.hooks, hook)
	}
	ok := true
	if !writer.IsGenerated(rel, data) {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-not-generated",
			Msg:  "the script lacks hookify's generated header in its place, so it is not what hookify wrote (and build will not overwrite it)",
			Hint: "move your own script elsewhere and run hookify build"})
		ok = false
	}
	if cmd.sh && bytes.Contains(data, []byte("\r\n")) {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-crlf",
			Msg:  "the script has CRLF line ends (a Windows checkout?): its #! line then names a shell that does not exist (its name ends in \\r), so the hook answers nothing",
			Hint: "run hookify build, and keep git from converting it: add \".cursor/hooks/hookify-* -text\" to .gitattributes"})
		ok = false
	}
	if cmd.sh && st.Mode().Perm()&0o111 == 0 {
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "script-not-executable",
			Msg:  "the script is not executable, so Cursor cannot run it",
			Hint: "chmod +x " + rel + " (hookify build sets the mode)"})
		ok = false
	}
	return ok
}

// relHookDir is the hooks' working directory relative to the root.
func (d *doctorRun) relHookDir() string {
	if d.c.user {
		return ".cursor"
	}
	return "."
}

// where are the flags that name this level: "", " -C DIR" or " --user".
func (d *doctorRun) where() string {
	switch {
	case d.c.user:
		return " --user"
	case d.c.dir != ".":
		return " -C " + d.c.dir
	}
	return ""
}

// buildCmd is the hookify build command for this level, with flags.
func (d *doctorRun) buildCmd(flags string) string {
	cmd := "run hookify build" + d.where()
	if flags != "" {
		cmd += " " + flags
	}
	return cmd
}

// candidate is one set of build flags that may have written the outputs.
type candidate struct {
	opts  compiler.Options
	flags string
}

// candidates are the build flags that may have written the outputs: the
// platform and layout that the hookify entries show, and each warn answer
// and prompt-hook choice, which they do not.
func (d *doctorRun) candidates(commands map[string][]command) []candidate {
	if o, ok := builtFlags(d.root); ok {
		// The headers record how the scripts were built (README, "Usage"), and
		// hooks.json's commands the platform.
		o.User = d.c.user
		o.Platform = hooksPlatform(d.root, o.Level())
		return []candidate{{o, nonDefaultFlags(o)}}
	}
	base := compiler.Options{User: d.c.user}
	base.Platform = hooksPlatform(d.root, base.Level())
	for _, cmds := range commands {
		for _, cmd := range cmds {
			name := strings.TrimPrefix(path.Base(cmd.script), ir.ScriptPrefix)
			if _, ok := ir.ParseCursorEvent(name); !ok && cmd.script != "" {
				base.Layout = ir.PerRule
			}
		}
	}
	var flags []string
	if base.Platform == compiler.Windows {
		flags = append(flags, "--platform windows")
	}
	if base.Layout == ir.PerRule {
		flags = append(flags, "--layout per-rule")
	}
	var out []candidate
	for _, warn := range []ir.WarnMode{ir.WarnContext, ir.WarnAsk, ir.WarnAllow} {
		for _, noPrompt := range []bool{false, true} {
			o := base
			o.Warn, o.NoPromptHooks = warn, noPrompt
			f := slices.Clone(flags)
			if warn != ir.WarnContext {
				f = append(f, "--warn "+warn.String())
			}
			if noPrompt {
				f = append(f, "--no-prompt-hooks")
			}
			out = append(out, candidate{o, strings.Join(f, " ")})
		}
	}
	return out
}

// nonDefaultFlags are the build flags of o that differ from the defaults,
// as a command line would give them.
func nonDefaultFlags(o compiler.Options) string {
	var f []string
	if o.Layout != ir.PerEvent {
		f = append(f, "--layout "+o.Layout.String())
	}
	if o.Platform != compiler.Unix {
		f = append(f, "--platform "+o.Platform.String())
	}
	if o.Warn != ir.WarnContext {
		f = append(f, "--warn "+o.Warn.String())
	}
	if o.NoPromptHooks {
		f = append(f, "--no-prompt-hooks")
	}
	return strings.Join(f, " ")
}

// fresh compares the outputs with the rules, as check does, under the
// build flags that fit them best (the fewest differing lines). When the
// outputs are fresh, it returns the plan of the rules and the warn answer
// they were built with; otherwise nil.
func (d *doctorRun) fresh(commands map[string][]command) (*ir.Cursor, ir.WarnMode) {
	fsys := os.DirFS(d.root)
	var bestChanges []writer.Change
	bestFlags, bestDist := "", 0
	leftOutSaid, unenforcedSaid := false, false
	for _, cand := range d.candidates(commands) {
		res := compiler.Compile(fsys, cand.opts)
		if res.Diags.HasErrors() && len(res.Files) == 0 {
			n := 0
			for _, dg := range res.Diags {
				if dg.Severity == diag.Error {
					n++
				}
			}
			d.add(diag.Diagnostic{Pos: d.at(".claude"), Severity: diag.Error, Code: "rules",
				Msg:  fmt.Sprintf("the rules do not compile (%s), so the hooks on disk cannot be what they say", plural(n, "error")),
				Hint: "run hookify vet" + d.where() + " and fix them"})
			return nil, 0
		}
		if !unenforcedSaid {
			unenforcedSaid = true
			// An enabled warn rule that no hook can enforce builds with a
			// warning; here it is what it is: a rule left unenforced.
			for _, dg := range res.Diags {
				if dg.Code == diag.NoTarget && dg.Severity == diag.Warning {
					pos := d.at(dg.Pos.File)
					pos.Line, pos.Col = dg.Pos.Line, dg.Pos.Col
					d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "unenforced", Msg: dg.Msg, Hint: dg.Hint})
				}
			}
		}
		if len(res.LeftOut) > 0 && !leftOutSaid {
			// Only some rules have errors: the others are checked as
			// build --keep-going built them.
			leftOutSaid = true
			sev, msg := diag.Error, "not enforced: these rule files have errors, so no hook holds their rules"
			fix := "run hookify vet" + d.where() + " and fix them; hookify doctor -k checks the others as hookify build -k built them; " + acceptHint
			if d.c.keepGoing {
				sev, msg = diag.Warning, "left out because of errors (--keep-going): no hook holds their rules"
				fix = "run hookify vet" + d.where() + " and fix them; " + acceptHint
			}
			d.add(diag.Diagnostic{Pos: d.at(".claude"), Severity: sev, Code: "rules",
				Msg: msg + ": " + strings.Join(res.LeftOut, ", "), Hint: fix})
		}
		changes, err := writer.Plan(fsys, res.Files, res.Stale)
		if err != nil {
			for _, dg := range writeDiags(err) {
				pos := d.at(dg.Pos.File)
				pos.Line, pos.Col = dg.Pos.Line, dg.Pos.Col
				d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "stale",
					Msg:  "hookify build cannot write this output: " + dg.Msg,
					Hint: "move the file aside, then " + d.buildCmd(cand.flags)})
			}
			return nil, 0
		}
		changes, _ = dropRetired(changes) // a live rebuild's leftovers, not stale output
		if len(changes) == 0 {
			return res.Cursor, cand.opts.Warn
		}
		dist := 0
		for _, ch := range changes {
			dist += lineDistance(ch.Old, ch.New)
		}
		if bestChanges == nil || dist < bestDist {
			bestChanges, bestFlags, bestDist = changes, cand.flags, dist
		}
	}
	var paths []string
	for _, ch := range bestChanges {
		paths = append(paths, ch.Path)
	}
	msg := fmt.Sprintf("%s stale (%s): what Cursor runs is not what the rules say", staleFiles(len(bestChanges)), strings.Join(paths, ", "))
	if why := d.changedRules(bestChanges); why != "" {
		msg += "; " + why
	}
	d.add(diag.Diagnostic{Pos: d.at(codegen.HooksDir), Severity: diag.Error, Code: "stale", Msg: msg,
		Hint: d.buildCmd(bestFlags) + " (hookify check" + d.where() + " shows the diff)"})
	return nil, 0
}

// lineDistance is the number of lines that are in a or b but not in both,
// counted as multisets: how far the files on disk are from a candidate's.
func lineDistance(a, b []byte) int {
	count := map[string]int{}
	for _, l := range strings.Split(string(a), "\n") {
		count[l]++
	}
	for _, l := range strings.Split(string(b), "\n") {
		count[l]--
	}
	n := 0
	for _, c := range count {
		n += max(c, -c)
	}
	return n
}

// changedRules says which rules changed since the stale scripts were
// written: the rule files that a Unix hook's live check knows (the names
// and fingerprints baked in at the build) and that were added, edited or
// removed since; and rules the new scripts come from that the old ones did
// not name (new), rules the old ones named that are gone, and rule files
// modified after the script.
func (d *doctorRun) changedRules(changes []writer.Change) string {
	var added, removed, edited []string
	addTo := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, ch := range changes {
		if baked, ok := bash.BakedRules(ch.Old); ok && path.Ext(ch.Path) == ".sh" {
			d.bakedChanges(baked, func(kind, file string) {
				addTo(map[string]*[]string{"added": &added, "changed": &edited, "removed": &removed}[kind], file)
			})
			break
		}
	}
	for _, ch := range changes {
		if path.Ext(ch.Path) != ".sh" && path.Ext(ch.Path) != ".ps1" {
			continue
		}
		oldSrc, newSrc := headerSources(ch.Path, ch.Old), headerSources(ch.Path, ch.New)
		for _, s := range newSrc {
			if ch.Old != nil && !slices.Contains(oldSrc, s) {
				addTo(&added, s)
			}
		}
		for _, s := range oldSrc {
			if !slices.Contains(newSrc, s) {
				if _, err := os.Stat(filepath.Join(d.root, filepath.FromSlash(s))); err != nil {
					addTo(&removed, s)
				}
			}
		}
		st, err := os.Stat(filepath.Join(d.root, filepath.FromSlash(ch.Path)))
		if err != nil {
			continue
		}
		for _, s := range oldSrc {
			if rst, err := os.Stat(filepath.Join(d.root, filepath.FromSlash(s))); err == nil && rst.ModTime().After(st.ModTime()) {
				addTo(&edited, s)
			}
		}
	}
	var parts []string
	if len(edited) > 0 {
		parts = append(parts, "edited since the build: "+strings.Join(edited, ", "))
	}
	if len(added) > 0 {
		parts = append(parts, "new: "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed: "+strings.Join(removed, ", "))
	}
	return strings.Join(parts, "; ")
}

// headerSources are the rule files a generated script's header names.
func headerSources(p string, data []byte) []string {
	sources, _, _ := writer.Header(p, data)
	return sources
}

// runHook runs a hookify entry as Cursor does (sh -c, from the hooks'
// working directory, a harmless payload of its event on stdin, within its
// timeout) and checks that it answers with exactly one JSON object, with
// the exit code the rules give for that payload (0 unless a rule matches
// it), and, when the outputs are fresh, with the evaluator's answer, and
// says nothing on stderr.
func (d *doctorRun) runHook(event string, cmd command, timeout int, plan *ir.Cursor, warn ir.WarnMode) {
	pos := d.at(compiler.HooksJSON)
	if !cmd.sh {
		if runtime.GOOS != "windows" {
			d.add(diag.Diagnostic{Pos: pos, Severity: diag.Note, Code: "not-run",
				Msg:  fmt.Sprintf("the %s entry runs PowerShell, which doctor does not run on %s", event, runtime.GOOS),
				Hint: "run hookify doctor on the Windows machine, or hookify test there"})
		}
		return
	}
	e, known := ir.ParseCursorEvent(event)
	if !known {
		return // hookify writes no such entry; configProblems named the event if Cursor does not know it
	}
	payload, err := eval.Fixture{Events: []ir.CursorEvent{e}}.Payload(e, nil)
	if err != nil {
		return
	}
	want := -1 // any of 0 and 2, when the outputs are stale
	var wantAnswer []byte
	if plan != nil {
		for _, u := range plan.Units {
			if path.Base(cmd.script) != u.Name {
				continue
			}
			for _, h := range u.Hooks {
				if h.Event == e {
					r := eval.Hook(h, payload, hookEnv(d.hookDir, nil, warn == ir.WarnAllow))
					want, wantAnswer = r.Exit, r.Answer
				}
			}
		}
	}
	if timeout <= 0 {
		timeout = 30
	}
	abs, _ := filepath.Abs(d.root)
	dir, _ := filepath.Abs(d.hookDir)
	environ := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == ir.TranscriptEnv || k == "CURSOR_PROJECT_DIR" || k == "CLAUDE_PROJECT_DIR"
	})
	// A diagnosis changes nothing: a hook that finds its rules stale does
	// not rebuild, it tells (as it does where hookify is not installed).
	environ = append(environ, "CURSOR_PROJECT_DIR="+abs, "CLAUDE_PROJECT_DIR="+abs, codegen.RebuiltEnv+"=1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout)*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd.line)
	c.Dir, c.Env, c.Stdin = dir, environ, bytes.NewReader(payload)
	c.WaitDelay = time.Second // a child that keeps stdout open must not hold doctor
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err = c.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	out := stdout.Bytes()
	why := ""
	switch {
	case ctx.Err() != nil:
		why = fmt.Sprintf("it did not answer within its timeout of %d s", timeout)
	case err != nil && ee == nil:
		why = err.Error()
	case !oneJSONObject(out):
		why = fmt.Sprintf("its stdout is not exactly one JSON object: %q", truncate(out))
	case want >= 0 && code != want || want < 0 && code != 0 && code != 2:
		why = fmt.Sprintf("it exited %d", code)
		if want >= 0 {
			why += fmt.Sprintf(", the rules say %d", want)
		}
	case wantAnswer != nil && !bytes.Equal(out, wantAnswer):
		why = fmt.Sprintf("it answered %q, the rules say %q", truncate(out), truncate(wantAnswer))
	case stderr.Len() > 0 && plan != nil:
		// (With stale outputs, reported above, a hook says so on stderr.)
		why = "it reported a problem on stderr (a generated hook does only when it cannot read the payload)"
	}
	if why == "" {
		return
	}
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		why += "; stderr: " + truncate([]byte(msg))
	}
	d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "hook-run",
		Msg:  fmt.Sprintf("the %s hook %q, run as Cursor runs it with a harmless payload (%s), fails: %s", event, cmd.line, strings.TrimSpace(string(payload)), why),
		Hint: "see the findings above about the script and its programs; hookify eval --event " + event + " shows what it should answer"})
}

// oneJSONObject: out is one JSON object on one line.
func oneJSONObject(out []byte) bool {
	line, ok := bytes.CutSuffix(out, []byte("\n"))
	if !ok || bytes.Contains(line, []byte("\n")) || !json.Valid(line) {
		return false
	}
	return bytes.HasPrefix(bytes.TrimSpace(line), []byte("{"))
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// entryTimeouts maps each command in hooks.json to its entry's timeout.
func entryTimeouts(data []byte) map[string]int {
	out := map[string]int{}
	f, err := hooksjson.Read(data)
	if err != nil {
		return out
	}
	for _, ev := range f.Events {
		for _, e := range ev.Commands() {
			if n, ok := e.Entry["timeout"].(float64); ok {
				out[e.Line] = int(n)
			}
		}
	}
	return out
}

// requirements checks that the programs the generated scripts need are there
// (codegen/bash.Requirements), and names each awk the hooks will run. Not
// where no .sh hook runs: on Windows, Cursor runs the .ps1 twins (README,
// "Windows").
func (d *doctorRun) requirements() {
	if runtime.GOOS == "windows" || d.psOnly {
		return
	}
	awks := map[string]bool{} // the awks named so far
	for _, r := range bash.Requirements {
		if r.Needed != nil && !slices.ContainsFunc(d.hooks, r.Needed) {
			continue
		}
		found := ""
		for _, name := range r.Names {
			if p, err := exec.LookPath(name); err == nil {
				found = p
				break
			}
		}
		if found == "" {
			where := " on PATH"
			if strings.Contains(r.Names[0], "/") {
				where = ""
			}
			d.add(diag.Diagnostic{Pos: diag.Pos{File: "PATH"}, Severity: diag.Error, Code: "requirement",
				Msg:  fmt.Sprintf("no %s%s: %s", strings.Join(r.Names, " or "), where, r.Why),
				Hint: r.Install + " (Cursor gives hooks the PATH it was started with)"})
			continue
		}
		if r.Awk {
			d.awkVersion(found, r, awks[found])
			awks[found] = true
		}
	}
}

// awkVersion names the awk at path, which r's hooks will run, and its
// version, and reports a version they do not support; named: an earlier
// requirement named it already.
func (d *doctorRun) awkVersion(path string, r bash.Requirement, named bool) {
	var out []byte
	var v bash.AwkVersion
	var tried []string
	for _, args := range bash.AwkVersionArgs {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c := exec.CommandContext(ctx, path, args...) // stdin is the null device
		c.Env = append(os.Environ(), "LC_ALL=C")
		b, _ := c.CombinedOutput()
		cancel()
		out = append(out, b...)
		tried = append(tried, strings.Join(args, " "))
		if v = bash.IdentifyAwk(string(out), runtime.GOOS); v.Kind != "" {
			break
		}
	}
	pos := diag.Pos{File: path}
	switch {
	case v.Kind == "":
		if !named {
			d.add(diag.Diagnostic{Pos: pos, Severity: diag.Warning, Code: "awk-version",
				Msg:  fmt.Sprintf("%s run this awk, but it is none hookify knows (%s printed no version of mawk, gawk, BWK awk or busybox awk), and awks differ in what the hooks rely on", r.Who, strings.Join(tried, " and ")),
				Hint: bash.AwkFix})
		}
	case v.Problem != "":
		if !named {
			d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "awk-version",
				Msg:  fmt.Sprintf("%s run this awk, %s %s, which they do not support: %s", r.Who, v.Kind, v.Version, v.Problem),
				Hint: bash.AwkFix})
		}
	case r.Intervals && !v.Intervals:
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: "awk-version",
			Msg:  fmt.Sprintf("%s run this awk, %s %s, which reads {n,m} as plain text, so they answer as on an unreadable payload", r.Who, v.Kind, v.Version),
			Hint: r.Install})
	case !named:
		d.add(diag.Diagnostic{Pos: pos, Severity: diag.Note, Code: "awk",
			Msg:  fmt.Sprintf("%s run this awk, %s %s (%s or later is supported)", r.Who, v.Kind, v.Version, v.Min),
			Hint: "to run another, put it first on PATH as " + r.Names[0] + ", or as awk with no " + r.Names[0] + " on PATH"})
	}
}

// otherLevel warns about rules installed both in the project and in
// ~/.cursor: Cursor runs both, so their messages appear twice.
func (d *doctorRun) otherLevel() {
	home, err := os.UserHomeDir()
	if err != nil {
		return
	}
	project := d.c.dir
	here := rulesInstalled(d.root, d.c.user)
	var there map[string]string
	if d.c.user {
		there = rulesInstalled(project, false)
	} else {
		there = rulesInstalled(home, true)
	}
	for _, name := range slices.Sorted(maps.Keys(here)) {
		if other, ok := there[name]; ok {
			where := "~/" + other
			if d.c.user {
				where = filepath.ToSlash(filepath.Join(project, other))
			}
			d.add(diag.Diagnostic{Pos: d.at(here[name]), Severity: diag.Warning, Code: "both-levels",
				Msg:  fmt.Sprintf("rule %s is installed here and at the other level (%s): Cursor runs project and user hooks alike, so it acts twice and its messages appear twice", name, where),
				Hint: "keep one of the two rule files and run hookify build at both levels"})
		}
	}
}

// rulesInstalled maps the names of the rules under root to their files,
// when root's hooks.json has hookify entries (the rules run there).
func rulesInstalled(root string, user bool) map[string]string {
	out := map[string]string{}
	opts := compiler.Options{User: user}
	cmds, err := ownedCommands(filepath.Join(root, compiler.HooksJSON), opts.Level())
	if err != nil || len(cmds) == 0 {
		return out
	}
	res := compiler.Compile(os.DirFS(root), opts)
	for _, r := range res.Program.Rules {
		out[r.Name] = r.Source
	}
	return out
}

// claudeSettings warns about hookify run through Claude Code hooks in the
// settings files Cursor loads when its third-party hooks are on.
func (d *doctorRun) claudeSettings() {
	home, _ := os.UserHomeDir()
	files := []string{filepath.Join(home, ".claude", "settings.json")}
	if !d.c.user {
		files = append([]string{filepath.Join(d.root, ".claude", "settings.json"), filepath.Join(d.root, ".claude", "settings.local.json")}, files...)
	}
	for _, file := range files {
		data, err := readRegular(file)
		if err != nil {
			continue
		}
		d.facts.settings = true
		shown := filepath.ToSlash(file)
		if rel, err := filepath.Rel(home, file); err == nil && !strings.HasPrefix(rel, "..") && (d.c.user || !strings.HasPrefix(file, filepath.Clean(d.root)+string(filepath.Separator))) {
			shown = "~/" + filepath.ToSlash(rel)
		} else if rel, err := filepath.Rel(d.root, file); err == nil {
			shown = filepath.ToSlash(rel)
		}
		var doc struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"hooks"`
			EnabledPlugins map[string]any `json:"enabledPlugins"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			d.add(diag.Diagnostic{Pos: diag.Pos{File: shown}, Severity: diag.Warning, Code: "claude-settings",
				Msg: fmt.Sprintf("not valid JSON (%v): Claude Code and Cursor may ignore it", err), Hint: "fix the JSON"})
			continue
		}
		for _, event := range slices.Sorted(maps.Keys(doc.Hooks)) {
			for _, group := range doc.Hooks[event] {
				for _, h := range group.Hooks {
					if why := runsHookify(h.Command); why != "" {
						d.add(diag.Diagnostic{Pos: diag.Pos{File: shown}, Severity: diag.Warning, Code: "claude-hooks",
							Msg:  fmt.Sprintf("the Claude Code %s hook %q %s; Cursor runs Claude Code hooks from this file when its third-party hooks are on, so a rule acts twice (and upstream's runtime misreads Cursor's payloads)", event, h.Command, why),
							Hint: "remove the hook from this file, or turn off Cursor Settings → Rules, Skills, Subagents → Include third-party Plugins, Skills, and other configs"})
					}
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(doc.EnabledPlugins)) {
			if on, _ := doc.EnabledPlugins[name].(bool); on && strings.HasPrefix(name, "hookify@") {
				d.add(diag.Diagnostic{Pos: diag.Pos{File: shown}, Severity: diag.Note, Code: "claude-plugin",
					Msg:  fmt.Sprintf("Claude Code's hookify plugin (%s) is enabled here; Cursor does not run Claude plugins' hooks today, but a Cursor that imports them would run every rule twice", name),
					Hint: "keep Cursor's third-party plugin import off while hookify's Cursor hooks are installed"})
			}
		}
	}
}

// gitattributes warns when git may rewrite the line ends of the generated
// scripts (a Windows checkout with core.autocrlf, or text=auto eol=crlf).
func (d *doctorRun) gitattributes(commands map[string][]command) {
	if d.c.user {
		return
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return
	}
	var paths []string
	for _, cmds := range commands {
		for _, cmd := range cmds {
			for _, ext := range []string{".sh", ".ps1"} {
				p := path.Clean(cmd.script + ext)
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
		}
	}
	if len(paths) == 0 {
		return
	}
	slices.Sort(paths)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	inside := exec.CommandContext(ctx, git, "rev-parse", "--is-inside-work-tree")
	inside.Dir = d.root
	if out, err := inside.Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		return
	}
	check := exec.CommandContext(ctx, git, append([]string{"check-attr", "text", "eol", "--"}, paths...)...)
	check.Dir = d.root
	out, err := check.Output()
	if err != nil {
		return
	}
	attrs := map[string]map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, ": ", 3)
		if len(parts) != 3 {
			continue
		}
		if attrs[parts[0]] == nil {
			attrs[parts[0]] = map[string]string{}
		}
		attrs[parts[0]][parts[1]] = parts[2]
	}
	var loose []string
	for _, p := range paths {
		a := attrs[p]
		if a["text"] == "unset" || a["eol"] == "lf" && path.Ext(p) == ".sh" {
			continue
		}
		loose = append(loose, p)
	}
	if len(loose) > 0 {
		d.add(diag.Diagnostic{Pos: diag.Pos{File: ".gitattributes"}, Severity: diag.Warning, Code: "gitattributes",
			Msg:  fmt.Sprintf("git may rewrite the line ends of %s (a Windows checkout with core.autocrlf turns them CRLF): the hooks then fail, and check sees them as stale", strings.Join(loose, ", ")),
			Hint: "add the line \".cursor/hooks/hookify-* -text\" to .gitattributes"})
	}
}

// caveats are what no file shows, as notes: those of the table
// cursorNotes that apply here.
func (d *doctorRun) caveats() {
	for _, n := range cursorNotes {
		if msg := n.applies(&d.facts); msg != "" {
			d.add(diag.Diagnostic{Pos: diag.Pos{File: "Cursor"}, Severity: diag.Note, Code: n.code, Msg: msg, Hint: n.fix})
		}
	}
}

// bakedChanges calls fn with "added", "changed" or "removed" and the path
// of each rule file of the default input that differs from what a hook's
// live check knows (baked): as the hook's exact check sees them.
func (d *doctorRun) bakedChanges(baked *codegen.RuleFiles, fn func(kind, file string)) {
	fsys := os.DirFS(d.root)
	now, _ := fs.Glob(fsys, path.Join(codegen.RulesDir, codegen.RulesPattern))
	for _, p := range now {
		i := slices.Index(baked.Names, path.Base(p))
		data, _ := fs.ReadFile(fsys, p)
		switch {
		case i < 0:
			fn("added", p)
		case baked.Sums[i] != codegen.Fingerprint(data):
			fn("changed", p)
		}
	}
	for _, n := range baked.Names {
		p := path.Join(codegen.RulesDir, n)
		if !slices.Contains(now, p) {
			fn("removed", p)
		}
	}
}
