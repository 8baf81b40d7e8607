// Package compiler is hookify's pipeline in one call: it reads rule files
// from an fs.FS, lowers them into the IR, runs the backends, merges
// .cursor/hooks.json, and returns the files to write. It never touches the
// disk; the CLI writes what it returns.
package compiler

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/codegen/powershell"
	"github.com/hookify/hookify/codegen/prompt"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/upstream"
)

// Platform chooses the hooks.json commands.
type Platform int

const (
	Unix Platform = iota
	Windows
)

// Options configure a compilation.
type Options struct {
	// Inputs are rule files or folders, slash-separated and relative to the
	// root. Empty means the default, .claude/hookify.*.local.md.
	Inputs   []string
	Layout   ir.Layout
	Platform Platform
	Warn     ir.WarnMode
	// User: the root is the home directory and hooks.json commands are
	// relative to ~/.cursor/ (Cursor runs user hooks from there).
	User bool
	// Translator overrides the regex translator (tests).
	Translator Translator
	// NoLiveCheck builds hooks without the stale-rule check (tests that
	// compare the outputs of two texts of the same rules).
	NoLiveCheck bool
	// NoPromptHooks: rules that would become Cursor prompt hooks (no
	// conditions, or cursor_hook: prompt) are left out with a warning.
	NoPromptHooks bool
}

// BuildFlags spells out every option that shapes the generated scripts, in
// a fixed order, as the header of each records them (README, "Usage"):
// "--layout per-event --warn context", then " --no-prompt-hooks" when set.
// ParseBuildFlags reads them back. --platform shapes hooks.json alone (it
// picks which twin its commands run; a team that mixes systems commits
// both), so the scripts do not record it: hooks.json's commands say it.
func (o Options) BuildFlags() string {
	s := fmt.Sprintf("--layout %s --warn %s", o.Layout, o.Warn)
	if o.NoPromptHooks {
		s += " --no-prompt-hooks"
	}
	return s
}

// ParseBuildFlags reads flags as BuildFlags spells them into the options
// they set (the others are zero: every recorded build names all of them).
func ParseBuildFlags(flags string) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("header", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&o.Layout, "layout", "")
	fs.Var(&o.Warn, "warn", "")
	fs.BoolVar(&o.NoPromptHooks, "no-prompt-hooks", false, "")
	if err := fs.Parse(strings.Fields(flags)); err != nil {
		return o, fmt.Errorf("build flags %q: %v", flags, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("build flags %q: unexpected %q", flags, fs.Arg(0))
	}
	return o, nil
}

// Output paths, relative to the root.
const (
	HooksDir  = codegen.HooksDir
	HooksJSON = codegen.HooksJSON
)

// Result is the outcome of a compilation.
type Result struct {
	Program *ir.Program
	Cursor  *ir.Cursor
	// Files are all outputs, hooks.json included, sorted by path. When
	// Diags has errors, Files holds the outputs of the other rules if every
	// error is in a rule of LeftOut and some rule is left (build
	// --keep-going writes them), and is empty otherwise.
	Files []codegen.File
	// LeftOut are the rule files left out because of their errors, in
	// order. A disabled rule's problems are warnings: it is never left out.
	LeftOut []string
	// Stale are existing generated files under .cursor/hooks/ that no rule
	// produces any more; the writer deletes them if they carry the header.
	Stale []string
	Diags diag.List
	// Sources are the rule files read, in order.
	Sources []string
	// Names are the rule names of the sources that have one (a name: key,
	// else the name in the file name), also of the rules left out or
	// disabled.
	Names map[string]string
}

// Compile compiles the rules under root (an fs.FS of the project root, or of
// the home directory with Options.User).
func Compile(root fs.FS, opts Options) *Result {
	res := &Result{Program: &ir.Program{}}
	tr := opts.Translator
	if tr == nil {
		tr = DefaultTranslator
	}
	files, err := ruleFiles(root, opts.Inputs)
	if err != nil {
		res.Diags = append(res.Diags, err...)
	}
	res.Sources = files
	// Per-rule script names, folded to lower case: macOS (APFS) and Windows
	// (NTFS) file systems fold case, so hookify-A.sh and hookify-a.sh would
	// be one file there and one rule's script would replace the other's.
	scripts := map[string]ruleScript{}
	leaveOut := func(file string) {
		if !slices.Contains(res.LeftOut, file) {
			res.LeftOut = append(res.LeftOut, file)
		}
		res.Program.Rules = slices.DeleteFunc(res.Program.Rules, func(r *ir.Rule) bool { return r.Source == file })
	}
	res.Names = map[string]string{}
	for _, name := range files {
		pf, r, diags := compileFile(root, name, opts, tr)
		res.Names[name] = ruleName(pf, name)
		if r != nil && opts.Layout == ir.PerRule && !r.Prompt {
			this := ruleScript{r.Name, ir.ScriptPrefix + ir.FileName(r.Name) + ".sh", namePos(pf)}
			if prev, dup := scripts[strings.ToLower(this.file)]; dup {
				diags.Errorf(this.pos, diag.DuplicateName, "%s", this.clash(prev))
				res.Diags.Errorf(prev.pos, diag.DuplicateName, "%s", prev.clash(this))
				leaveOut(prev.pos.File)
			} else {
				scripts[strings.ToLower(this.file)] = this
			}
		}
		res.Diags = append(res.Diags, diags...)
		if diags.HasErrors() {
			leaveOut(name)
			continue
		}
		if r != nil {
			res.Program.Rules = append(res.Program.Rules, r)
		}
	}
	slices.Sort(res.LeftOut)
	res.Diags = res.Diags.Sort()
	if fatal(res) || len(res.LeftOut) > 0 && len(res.Program.Rules) == 0 {
		return res // an error outside the rules, or no rule left: nothing to build
	}
	res.Cursor = ir.ToCursor(res.Program, opts.Layout, opts.Warn)

	var out []codegen.File
	owned := map[string][]hooksjson.Entry{}
	live := liveRules(root, res.Sources, opts)
	if live != nil && opts.Layout == ir.PerRule {
		live.Entries = map[string][]codegen.ScriptEntry{}
		for _, u := range res.Cursor.Units {
			for _, h := range u.Hooks {
				live.Entries[h.Event.String()] = append(live.Entries[h.Event.String()], codegen.ScriptEntry{Name: u.Name, Matcher: h.Matcher})
			}
		}
	}
	for _, u := range res.Cursor.Units {
		out = append(out, bash.Generate(u, bash.Options{Warn: opts.Warn, Flags: opts.BuildFlags(), Rules: live})...)
		// Every unit also gets its PowerShell twin, whatever the platform:
		// --platform only picks the script hooks.json runs, so a team that
		// mixes systems commits both (README, "Windows").
		ps, perr := powershell.Generate(u, powershell.Options{Warn: opts.Warn, Flags: opts.BuildFlags(), Rules: live})
		var pd *diag.Diagnostic
		if errors.As(perr, &pd) {
			res.Diags = append(res.Diags, *pd)
			continue
		}
		out = append(out, ps)
		for _, h := range u.Hooks {
			e := hooksjson.Entry{
				Command:    Command(u, h, opts),
				Matcher:    h.Matcher,
				Timeout:    timeout(opts),
				LoopLimit:  h.LoopLimit,
				FailClosed: h.FailClosed,
			}
			owned[h.Event.String()] = append(owned[h.Event.String()], e)
		}
	}
	for _, ph := range res.Cursor.Prompts {
		owned[ph.Event.String()] = append(owned[ph.Event.String()], prompt.Entry(ph))
	}
	if fatal(res) {
		res.Diags = res.Diags.Sort()
		return res
	}
	existing, rerr := readRegular(root, HooksJSON)
	if rerr != nil && !isNotExist(rerr) {
		res.Diags.Errorf(diag.Pos{File: HooksJSON}, diag.Unreadable, "cannot read: %v", diag.WithoutPath(rerr))
		return res
	}
	merged, merr := hooksjson.Merge(existing, owned, opts.Level())
	if merr != nil {
		pos := diag.Pos{File: HooksJSON}
		msg := merr.Error()
		if he, ok := merr.(*hooksjson.Error); ok {
			pos.Line, pos.Col, msg = he.Line, he.Col, he.Msg
		}
		res.Diags.Errorf(pos, diag.HooksJSON, "%s", msg)
		return res
	}
	out = append(out, codegen.File{Path: HooksJSON, Data: merged, Mode: 0o644})
	slices.SortFunc(out, func(a, b codegen.File) int { return strings.Compare(a.Path, b.Path) })
	res.Files = out

	// Stale generated scripts: hookify-* files we did not produce.
	entries, _ := fs.ReadDir(root, HooksDir)
	for _, e := range entries {
		p := HooksDir + "/" + e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), ir.ScriptPrefix) && !slices.ContainsFunc(out, func(f codegen.File) bool { return f.Path == p }) {
			res.Stale = append(res.Stale, p)
		}
	}
	return res
}

// ruleName is the name of the rule in file name, parsed as pf (nil when it
// could not be parsed): its name: key, else the name in the file name.
func ruleName(pf *parser.File, name string) string {
	if pf != nil {
		if p, ok := pf.Field("name"); ok && p.Value.Kind == parser.Scalar && strings.TrimSpace(p.Value.Str) != "" {
			return p.Value.Str
		}
	}
	return parser.DefaultName(name)
}

// ruleScript is the script that --layout per-rule names after a rule.
type ruleScript struct {
	rule, file string // the rule's name and its script's, e.g. "hookify-block-rm.sh"
	pos        diag.Pos
}

// clash says why s and other cannot both be built, and what to do.
func (s ruleScript) clash(other ruleScript) string {
	if s.file == other.file {
		return fmt.Sprintf("rule name %q gives the same script, %s, as rule %q at %s; rename one of the two rules", s.rule, s.file, other.rule, other.pos)
	}
	return fmt.Sprintf("rule name %q gives the script %s and rule %q at %s gives %s: macOS and Windows file systems fold case, so the two would be one file and one rule's script would replace the other's; rename one of the two rules", s.rule, s.file, other.rule, other.pos, other.file)
}

// fatal reports whether res has an error outside the rules it leaves out.
func fatal(res *Result) bool {
	return slices.ContainsFunc(res.Diags, func(d diag.Diagnostic) bool {
		return d.Severity == diag.Error && !slices.Contains(res.LeftOut, d.Pos.File)
	})
}

// compileFile reads, parses and lowers one rule file. It returns the
// parsed file (nil when unreadable), the rule, or nil when nothing is
// generated for it, and the file's diagnostics: a disabled rule's are all
// warnings (README, "A rule that does not compile").
func compileFile(root fs.FS, name string, opts Options, tr Translator) (*parser.File, *ir.Rule, diag.List) {
	var diags diag.List
	src, err := readRegular(root, name)
	if err != nil {
		diags.Errorf(diag.Pos{File: name}, diag.Unreadable, "cannot read: %v", diag.WithoutPath(err))
		return nil, nil, diags
	}
	pf, rd, pdiags := upstream.Parse(name, src)
	diags = append(diags, pdiags...)
	if pf == nil {
		return nil, nil, diags
	}
	r, ldiags, disabled := lower(pf, rd, tr, opts.Warn)
	diags = append(diags, ldiags...)
	if disabled {
		diags.Demote()
		return pf, nil, diags
	}
	if r == nil || !keepPrompt(r, pf, opts, &diags) {
		return pf, nil, diags
	}
	return pf, r, diags
}

// keepPrompt reports whether a rule is kept: a prompt-hook rule is left out,
// with a warning that says why, under NoPromptHooks or when it has neither
// conditions nor a message to judge by.
func keepPrompt(r *ir.Rule, pf *parser.File, opts Options, diags *diag.List) bool {
	if !r.Prompt {
		return true
	}
	// Left out, the rule agrees with upstream, which never fires it.
	drop := func() {
		*diags = slices.DeleteFunc(*diags, func(d diag.Diagnostic) bool {
			return d.Code == diag.UpstreamNoConditions && d.Pos.File == pf.Path
		})
	}
	switch {
	case len(r.Conditions) == 0 && strings.TrimSpace(r.Message) == "":
		drop()
		diags.Warnf(r.Pos, diag.NoConditions, "rule %s has no pattern, no conditions and no message: there is nothing to check, so nothing is generated for it", r.Name)
		return false
	case opts.NoPromptHooks:
		why := "it has no pattern and no conditions, so only a prompt hook could check it"
		if len(r.Conditions) > 0 {
			why = "it asks for a prompt hook (cursor_hook: prompt)"
		}
		drop()
		diags.Warnf(namePos(pf), diag.NoPromptHook, "rule %s is left out because of --no-prompt-hooks: %s", r.Name, why)
		return false
	}
	return true
}

// Level is where the hooks.json that opts write lives.
func (opts Options) Level() hooksjson.Level {
	if opts.User {
		return hooksjson.User
	}
	return hooksjson.Project
}

// Command is the hooks.json command of hook h of unit u, in a form that
// hooksjson.ParseCommand recognises as hookify's.
func Command(u *ir.Unit, h *ir.Hook, opts Options) string {
	name := strings.TrimPrefix(u.Name, ir.ScriptPrefix)
	return hooksjson.Command(hooksjson.Script{Name: name, Event: u.EventArg(h), PowerShell: opts.Platform == Windows}, opts.Level())
}

func timeout(opts Options) int {
	if opts.Platform == Windows {
		return 30 // PowerShell's cold start can take seconds
	}
	return 10
}

// ruleFiles lists the rule files to read, in bytewise order.
func ruleFiles(root fs.FS, inputs []string) ([]string, diag.List) {
	var diags diag.List
	if len(inputs) == 0 {
		m, _ := fs.Glob(root, ".claude/hookify.*.local.md")
		return m, nil
	}
	var out []string
	for _, in := range inputs {
		in = path.Clean(in)
		if !fs.ValidPath(in) {
			diags.Errorf(diag.Pos{File: in}, diag.Unreadable, "cannot read: the path leaves the root; rule paths are relative to it")
			continue
		}
		st, err := fs.Stat(root, in)
		if err != nil {
			diags.Errorf(diag.Pos{File: in}, diag.Unreadable, "cannot read: %v", diag.WithoutPath(err))
			continue
		}
		if !st.IsDir() {
			out = append(out, in)
			continue
		}
		m, _ := fs.Glob(root, path.Join(in, "hookify.*.local.md"))
		if len(m) == 0 {
			// An error, not a warning: building zero rules would remove
			// every generated hook, and a wrong folder is the likely cause.
			diags.Errorf(diag.Pos{File: in}, diag.NoRules, "no hookify.*.local.md files in this folder")
		}
		out = append(out, m...)
	}
	slices.Sort(out)
	return slices.Compact(out), diags
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// readRegular reads the file name, following symbolic links, but refuses
// anything that is not a regular file before opening it: a FIFO would hang
// the build and a device such as /dev/zero would exhaust memory. A dangling
// symbolic link is named as such.
func readRegular(root fs.FS, name string) ([]byte, error) {
	st, err := fs.Stat(root, name)
	if isNotExist(err) {
		if target, lerr := fs.ReadLink(root, name); lerr == nil {
			return nil, fmt.Errorf("is a symbolic link to %s, which does not exist", target)
		}
	}
	switch {
	case err != nil:
		// Say which directory on the way is not one (.cursor as a file).
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if dst, derr := fs.Stat(root, d); derr == nil && !dst.IsDir() {
				return nil, fmt.Errorf("%s is not a directory", d)
			}
		}
		return nil, err
	case st.IsDir():
		return nil, errors.New("is a directory, not a file")
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("is not a regular file (%s)", fileType(st.Mode()))
	}
	return fs.ReadFile(root, name)
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
