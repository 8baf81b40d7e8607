package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

const usage = `usage: hookify <command> [flags] [RULES...]

commands:
  build   compile the rules and write .cursor/hooks/ and .cursor/hooks.json
  check   exit 1 with a diff when the written output is stale; writes nothing
  vet     report every diagnostic, including where upstream hookify differs; writes nothing
  explain show what each rule becomes in Cursor, how faithful it is, and caveats
  test    run the rules' tests: and --cases fixtures through the scripts; writes nothing
  eval    print the hooks' answer to the payload on stdin (--event E); writes nothing

Run "hookify <command> -h" for the flags of a command.
`

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return build(args[1:], stdout, stderr, false)
	case "check":
		return build(args[1:], stdout, stderr, true)
	case "vet":
		return vet(args[1:], stdout, stderr)
	case "explain":
		return explain(args[1:], stdout, stderr)
	case "test":
		return testCmd(args[1:], stdout, stderr)
	case "eval":
		return evalCmd(args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "hookify: unknown command %q\n%s", args[0], usage)
	return 2
}

// common are the flags shared by the compiling commands.
type common struct {
	dir      string
	user     bool
	layout   string
	platform string
	warn     string
	noPrompt bool
	json     bool
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "C", ".", "project root `DIR`")
	fs.BoolVar(&c.user, "user", false, "read ~/.claude/hookify.*.local.md and write ~/.cursor/")
	fs.StringVar(&c.layout, "layout", "per-event", "script layout: per-event or per-rule")
	fs.StringVar(&c.platform, "platform", "unix", "hooks.json commands for: unix or windows")
	fs.StringVar(&c.warn, "warn", "ask", "answer of a matching bash warn rule: ask or allow")
	fs.BoolVar(&c.noPrompt, "no-prompt-hooks", false, "do not emit Cursor prompt hooks")
}

// registerJSON adds --json, for the commands that print diagnostics.
func (c *common) registerJSON(fs *flag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "print diagnostics (and changes) as JSON on stdout")
}

// parseFlags parses flags and positional arguments in any order.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func (c *common) options(inputs []string) (compiler.Options, error) {
	opts := compiler.Options{Inputs: inputs, User: c.user, NoPromptHooks: c.noPrompt}
	switch c.layout {
	case "per-event":
		opts.Layout = ir.PerEvent
	case "per-rule":
		opts.Layout = ir.PerRule
	default:
		return opts, fmt.Errorf("--layout must be per-event or per-rule, not %q", c.layout)
	}
	switch c.platform {
	case "unix":
		opts.Platform = compiler.Unix
	case "windows":
		opts.Platform = compiler.Windows
	default:
		return opts, fmt.Errorf("--platform must be unix or windows, not %q", c.platform)
	}
	switch c.warn {
	case "ask":
		opts.Warn = ir.WarnAsk
	case "allow":
		opts.Warn = ir.WarnAllow
	default:
		return opts, fmt.Errorf("--warn must be ask or allow, not %q", c.warn)
	}
	for i, in := range inputs {
		if filepath.IsAbs(in) {
			rel, err := filepath.Rel(c.root(), in)
			if err != nil || strings.HasPrefix(rel, "..") {
				return opts, fmt.Errorf("rule path %s is outside the root %s", in, c.root())
			}
			in = rel
		}
		opts.Inputs[i] = filepath.ToSlash(in)
	}
	return opts, nil
}

func (c *common) root() string {
	if c.user {
		if home, err := os.UserHomeDir(); err == nil {
			return home
		}
	}
	return c.dir
}

func build(args []string, stdout, stderr io.Writer, check bool) int {
	name := "build"
	if check {
		name = "check"
	}
	fs := flag.NewFlagSet("hookify "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	c.registerJSON(fs)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	opts, err := c.options(inputs)
	if err != nil {
		fmt.Fprintf(stderr, "hookify %s: %v\n", name, err)
		return 2
	}
	root := c.root()
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "hookify %s: %s is not a directory\n", name, root)
		return 2
	}
	res := compiler.Compile(os.DirFS(root), opts)
	diags := res.Diags
	var changes []writer.Change
	if !diags.HasErrors() {
		changes, err = writer.Plan(os.DirFS(root), res.Files, res.Stale)
		if err != nil {
			diags = append(diags, writeDiags(err)...)
		}
	}
	report := &jsonReport{Diagnostics: jsonDiags(diags)}
	if !c.json {
		printDiags(stderr, diags)
	}
	if diags.HasErrors() {
		if c.json {
			writeJSON(stdout, report)
		}
		return 1
	}
	for _, ch := range changes {
		report.Changes = append(report.Changes, jsonChange{Path: ch.Path, Kind: ch.Kind.String()})
	}
	if check {
		if c.json {
			writeJSON(stdout, report)
		}
		if len(changes) > 0 {
			if !c.json {
				fmt.Fprint(stdout, writer.Diff(changes))
			}
			fmt.Fprintf(stderr, "hookify check: %d generated files are stale; run hookify build\n", len(changes))
			return 1
		}
		return 0
	}
	if err := writer.Apply(root, changes); err != nil {
		fmt.Fprintf(stderr, "hookify build: %v (nothing was changed)\n", err)
		return 1
	}
	if c.json {
		writeJSON(stdout, report)
	} else {
		fmt.Fprintf(stderr, "hookify: %d rules, %d scripts; %s\n", len(res.Program.Rules), len(res.Plan.Units), summary(changes))
	}
	return 0
}

func summary(changes []writer.Change) string {
	if len(changes) == 0 {
		return "up to date"
	}
	counts := map[string]int{}
	var order []string
	for _, ch := range changes {
		k := ch.Kind.String()
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	return strings.Join(parts, ", ")
}

// writeDiags turns writer errors ("path: message", one per line) into
// diagnostics on the paths they name.
func writeDiags(err error) diag.List {
	var out diag.List
	for _, line := range strings.Split(err.Error(), "\n") {
		path, msg, ok := strings.Cut(line, ": ")
		if !ok {
			path, msg = ".cursor", line
		}
		out = append(out, diag.Diagnostic{Pos: diag.Pos{File: path}, Severity: diag.Error, Code: "output", Msg: msg})
	}
	return out.Sort() // a blocked directory is reported once per file in it: once is enough
}

func printDiags(w io.Writer, diags diag.List) {
	for _, d := range diags {
		fmt.Fprintln(w, d)
	}
}

type jsonDiag struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

type jsonChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

type jsonReport struct {
	Diagnostics []jsonDiag   `json:"diagnostics"`
	Changes     []jsonChange `json:"changes,omitempty"`
}

func jsonDiags(diags diag.List) []jsonDiag {
	out := []jsonDiag{}
	for _, d := range diags {
		out = append(out, jsonDiag{d.Pos.File, d.Pos.Line, d.Pos.Col, d.Severity.String(), d.Code, d.Msg})
	}
	return out
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
