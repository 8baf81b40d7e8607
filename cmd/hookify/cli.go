package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/writer"
)

// lockWait is how long build waits for another build of the same outputs
// to finish before it refuses.
var lockWait = 30 * time.Second

// flags are the common flags a command takes. A command lists only the
// flags it uses, so its help shows nothing it would ignore.
type flags uint

const (
	fDir      flags = 1 << iota // -C DIR
	fUser                       // --user
	fLayout                     // --layout
	fPlatform                   // --platform
	fWarn                       // --warn
	fNoPrompt                   // --no-prompt-hooks
	fJSON                       // --json
	fKeep                       // -k, --keep-going
)

// fOutput are the flags that change what build writes.
const fOutput = fDir | fUser | fLayout | fPlatform | fWarn | fNoPrompt

// subcommand is one hookify command.
type subcommand struct {
	name    string
	args    string // the positional arguments in the usage line: "[RULES...]"
	summary string // one line for hookify's usage
	doc     string // the help's paragraphs after the usage line
	flags   flags
	user    string // what --user does for this command
	// rules: the positional arguments are rule files or folders, and the
	// prologue compiles them (or the default ones) before the body runs.
	rules bool
	// compile: the prologue compiles the rules even though the positional
	// arguments are not rule inputs.
	compile bool
	// flagsFromOutput: a build flag not given on the command line is the
	// one the output on disk was built with, as the scripts' headers record
	// them (README, "Usage"; builtFlags), and the platform the one of the
	// hookify entries in hooks.json.
	flagsFromOutput bool
	// keepsBuilt: given RULES, the command also compiles the rules whose
	// hooks the output holds (builtSources), so that naming one rule never
	// removes the hooks of the others.
	keepsBuilt bool
	// writes: the command writes the outputs, so the prologue holds the
	// build lock (writer.Lock) from before it compiles until the body is
	// done: two builds at once run one after the other.
	writes bool
	// setup registers the command's own flags on fs and returns its body.
	setup func(fs *flag.FlagSet) func(*cli) int
}

// cli is one invocation of a command: its flags, root and compiled rules.
type cli struct {
	cmd            *subcommand
	stdin          io.Reader
	stdout, stderr io.Writer

	dir  string // -C
	user bool
	json bool
	// keepGoing (-k): the rules with errors are left out and named, and
	// the command goes on with the others (README, "A rule that does not compile").
	keepGoing bool
	opts      compiler.Options
	args      []string // positional arguments
	root      string   // the directory read from: -C, or the home directory with --user
	res       *compiler.Result

	scriptsOnly bool // check --scripts
	// named are the rule files or folders given as arguments; built are
	// the rule files added to them by keepsBuilt.
	named, built []string
}

const rulesDoc = "RULES are rule files or folders, relative to the root; without them, .claude/hookify.*.local.md."

var commands []*subcommand

func init() {
	body := func(f func(*cli) int) func(*flag.FlagSet) func(*cli) int {
		return func(*flag.FlagSet) func(*cli) int { return f }
	}
	commands = []*subcommand{{
		name: "build", args: "[RULES...]", rules: true,
		summary: "compile the rules and write .cursor/hooks/ and .cursor/hooks.json",
		doc: "Compiles the rules and writes the hooks and hooks.json entries, all or nothing: any error\n" +
			"in an enabled rule, or an output path that is not hookify's, changes no file. With\n" +
			"--keep-going, rules with errors are left out and named, the others are written (still\n" +
			"all or nothing), and the exit code is 1. Named RULES are built with the rules already\n" +
			"built: their hooks replace their own, and every other rule's hooks stay.",
		flags:  fOutput | fJSON | fKeep,
		user:   "read ~/.claude/hookify.*.local.md and write ~/.cursor/",
		writes: true, keepsBuilt: true,
		setup: body(func(c *cli) int { return build(c, false) }),
	}, {
		name: "check", flagsFromOutput: true, args: "[RULES...]", rules: true, keepsBuilt: true,
		summary: "exit 1 with a diff when the written output is stale; writes nothing",
		doc: "Compiles the rules in memory and compares the result with the files on disk: exit 1 and a\n" +
			"unified diff when they differ. For pre-commit and CI. With --keep-going, the output is\n" +
			"compared with what build --keep-going writes, and rules left out do not fail the check.",
		flags: fOutput | fJSON | fKeep,
		user:  "read ~/.claude/hookify.*.local.md and compare with ~/.cursor/",
		setup: func(fs *flag.FlagSet) func(*cli) int {
			scripts := fs.Bool("scripts", false, "compare only the scripts under .cursor/hooks/, not hooks.json (for teams that do not commit hooks.json)")
			return func(c *cli) int {
				c.scriptsOnly = *scripts
				return build(c, true)
			}
		},
	}, {
		name: "vet", args: "[RULES...]", rules: true,
		summary: "report every diagnostic, including where upstream hookify differs; writes nothing",
		doc:     "Prints every diagnostic, warnings about where upstream hookify reads or runs a rule\ndifferently included. Exit 1 when there are errors.",
		flags:   fDir | fUser | fLayout | fNoPrompt | fJSON,
		user:    "read ~/.claude/hookify.*.local.md",
		setup:   body(vet),
	}, {
		name: "fix", args: "[RULES...]", rules: true,
		summary: "rewrite the rule files so that upstream hookify reads them as hookify does",
		doc: "Rewrites the rule files in place, all or nothing, wherever a spelling exists that\n" +
			"upstream hookify and hookify read the same way: quoting, indentation, booleans, inline\n" +
			"comments (moved to a line of their own), Claude Code event names, evident synonyms. It\n" +
			"never changes what a rule compiles to, nor the message or comment lines.",
		flags: fDir | fUser,
		user:  "fix ~/.claude/hookify.*.local.md",
		setup: func(fs *flag.FlagSet) func(*cli) int {
			diff := fs.Bool("diff", false, "print the changes as a unified diff and write nothing; exit 1 when there are any")
			return func(c *cli) int { return fixCmd(c, *diff) }
		},
	}, {
		name: "explain", flagsFromOutput: true, args: "[RULE...]", compile: true,
		summary: "show what each rule becomes in Cursor, how faithful it is, and caveats",
		doc:     "For each rule (or the ones named, by rule name or file), prints its Cursor events and\nhooks.json entries, the fields it reads, the answer Cursor sees, fidelity and caveats.",
		flags:   fDir | fUser | fLayout | fPlatform | fWarn | fNoPrompt,
		user:    "read ~/.claude/hookify.*.local.md",
		setup:   body(explain),
	}, {
		name: "test", flagsFromOutput: true, args: "[RULES...]", rules: true, keepsBuilt: true,
		summary: "run the rules' tests: and --cases fixtures through the scripts; writes nothing",
		doc: "Runs each fixture through the hooks.json commands on disk as Cursor does and compares\n" +
			"every answer with the reference evaluator and with the fixture's expect. With\n" +
			"--keep-going, the tests of the rules with errors are left out, the others run.",
		flags: fOutput | fKeep,
		user:  "read ~/.claude/hookify.*.local.md and run the hooks in ~/.cursor/",
		setup: func(fs *flag.FlagSet) func(*cli) int {
			cases := fs.String("cases", "", "also run the case files (.json, .yaml, .yml) under `DIR`, relative to the root")
			return func(c *cli) int { return testCmd(c, *cases) }
		},
	}, {
		name: "eval", flagsFromOutput: true, args: "[RULES...]", rules: true,
		summary: "print the hooks' answer to the payload on stdin (--event E) and exit with their code; writes nothing",
		doc: "Compiles the rules in memory and prints the answer the hooks of one event give to the\n" +
			"payload on stdin, byte for byte what the scripts print; a summary goes to stderr. The\n" +
			"exit code is the hooks' own: 2 when one blocks, else 0 (1 when the evaluator cannot run).\n" +
			"With --keep-going, the rules with errors are left out and the others answer.",
		flags: fDir | fUser | fLayout | fWarn | fNoPrompt | fKeep,
		user:  "read ~/.claude/hookify.*.local.md",
		setup: func(fs *flag.FlagSet) func(*cli) int {
			event := fs.String("event", "", "the `EVENT` of the payload, a Cursor or a hookify event: "+eventNames())
			return func(c *cli) int { return evalCmd(c, *event) }
		},
	}, {
		name: "watch", flagsFromOutput: true,
		summary: "build now and after every save of a rule file, until Ctrl-C",
		doc: "Builds, then watches the rule folder and builds again after every save of a rule file\n" +
			"(changes within a short quiet time are one build), one line per build. A rule with errors\n" +
			"is reported at file:line:col and nothing is written, so the hooks of the last good build\n" +
			"stay. Flags not given are the ones the output was built with. Ctrl-C (SIGINT) or SIGTERM\n" +
			"stops it with exit 0.",
		flags: fOutput,
		user:  "watch ~/.claude/ and write ~/.cursor/",
		setup: body(watchCmd),
	}, {
		name:    "init",
		summary: "write Cursor's /hookify commands to .cursor/commands/, create .claude/ and build",
		doc: "Writes the Cursor commands /hookify (write or change a rule from a request or from the\n" +
			"conversation), /hookify-list, /hookify-configure and /hookify-help to .cursor/commands/,\n" +
			"creates .claude/ when it is missing, builds, and says what to do next. A second init\n" +
			"changes nothing, and a command file that is not hookify's is left alone (init says how to\n" +
			"adopt it).",
		flags:  fDir | fUser | fKeep,
		user:   "write ~/.cursor/commands/ and build ~/.claude/hookify.*.local.md into ~/.cursor/",
		writes: true,
		setup:  body(initCmd),
	}, {
		name:    "doctor",
		summary: "check that what Cursor will run here works: hooks.json, scripts, freshness, programs; writes nothing",
		doc: "Checks hooks.json and each hookify hook it runs: the file is what Cursor reads, every script\n" +
			"exists, is executable, has LF line ends and the generated header, the outputs are fresh\n" +
			"against the rules, /bin/sh and a supported awk (which it names) are there, each hook\n" +
			"answers a harmless payload as Cursor runs it, and no rule also runs from the other level or\n" +
			"from Claude Code's settings. Prints one line per finding with its fix; exit 1 when a\n" +
			"finding stops a hook from working or leaves a rule unenforced. With --keep-going, the\n" +
			"rules with errors are taken as left out (as build --keep-going leaves them): a warning.",
		flags: fDir | fUser | fJSON | fKeep,
		user:  "check ~/.cursor/hooks.json and its hooks, run from ~/.cursor as Cursor runs them",
		setup: body(doctor),
	}, {
		name:    "version",
		summary: "print hookify's module version and VCS revision (also: hookify --version)",
		setup:   body(version),
	}, {
		name: "help", args: "[COMMAND]",
		summary: "print the usage, or a command's flags",
		setup:   body(help),
	}}
}

func lookup(name string) *subcommand {
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage: hookify <command> [flags] [RULES...]\n\ncommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(&b, "  %-8s%s\n", cmd.name, cmd.summary)
	}
	b.WriteString("\nRun \"hookify help <command>\" for the flags of a command.\n")
	return b.String()
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "hookify: unknown command %q\n%s", args[0], usage())
		return 2
	}
	c := &cli{cmd: cmd, stdin: stdin, stdout: stdout, stderr: stderr}
	return c.run(args[1:])
}

// flagSet registers the command's flags on a new FlagSet and returns it
// with the command's body.
func (c *cli) flagSet() (*flag.FlagSet, func(*cli) int) {
	cmd := c.cmd
	fs := flag.NewFlagSet("hookify "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {} // run prints the help
	if cmd.flags&fDir != 0 {
		fs.StringVar(&c.dir, "C", ".", "project root `DIR`")
	}
	if cmd.flags&fUser != 0 {
		fs.BoolVar(&c.user, "user", false, cmd.user)
	}
	if cmd.flags&fLayout != 0 {
		fs.Var(&c.opts.Layout, "layout", "script `LAYOUT`: per-event (the default) or per-rule")
	}
	if cmd.flags&fPlatform != 0 {
		fs.Var(&c.opts.Platform, "platform", "hooks.json commands for `PLATFORM`: unix (the default) or windows")
	}
	if cmd.flags&fWarn != 0 {
		fs.Var(&c.opts.Warn, "warn", "where a warn rule on shell commands and MCP tools speaks, `MODE`: context (the default: the call runs, and postToolUse tells the agent), ask (Cursor 3.9.16 treats it as a deny), or allow (the messages on the allow only)")
	}
	if cmd.flags&fNoPrompt != 0 {
		fs.BoolVar(&c.opts.NoPromptHooks, "no-prompt-hooks", false, "do not emit Cursor prompt hooks")
	}
	if cmd.flags&fJSON != 0 {
		fs.BoolVar(&c.json, "json", false, "print diagnostics (and changes) as JSON on stdout")
	}
	if cmd.flags&fKeep != 0 {
		fs.BoolVar(&c.keepGoing, "keep-going", false, "leave out the rules with errors (named on stderr) and go on with the others")
		fs.BoolVar(&c.keepGoing, "k", false, "short for --keep-going")
	}
	return fs, cmd.setup(fs)
}

// run is the prologue every command shares: it parses the flags, resolves
// the root, compiles the rules when the command reads them, and runs the
// command's body.
func (c *cli) run(args []string) int {
	fs, body := c.flagSet()
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.help(c.stdout, fs)
		return 0
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "run \"hookify help %s\" for its flags\n", c.cmd.name)
		return 2
	}
	c.args = pos
	if c.cmd.args == "" && len(pos) > 0 {
		c.errorf("takes no arguments, not %q", pos[0])
		return 2
	}
	if c.cmd.flags&fDir != 0 {
		c.root = c.dir
		if c.user {
			home, err := os.UserHomeDir()
			if err != nil {
				c.errorf("--user: %v", err)
				return 2
			}
			c.root = home
		}
		if st, err := os.Stat(c.root); err != nil || !st.IsDir() {
			c.errorf("%s is not a directory", c.root)
			return 2
		}
	}
	c.opts.User = c.user
	if c.cmd.flagsFromOutput {
		c.flagsFromOutput(fs)
	}
	if c.cmd.rules {
		if err := c.inputs(pos); err != nil {
			c.errorf("%v", err)
			return 2
		}
		c.named = slices.Clone(c.opts.Inputs)
		if c.cmd.keepsBuilt && len(c.named) > 0 {
			for _, src := range builtSources(c.root) {
				if !slices.ContainsFunc(c.named, func(in string) bool { return covers(in, src) }) {
					c.built = append(c.built, src)
				}
			}
			c.opts.Inputs = append(c.opts.Inputs, c.built...)
		}
	}
	if c.cmd.writes {
		unlock, err := writer.Lock(c.root, lockWait)
		if err != nil {
			printDiags(c.stderr, writeDiags(err))
			return 1
		}
		defer unlock()
	}
	if c.cmd.rules || c.cmd.compile {
		c.res = compiler.Compile(os.DirFS(c.root), c.opts)
	}
	return body(c)
}

// flagsFromOutput sets each build flag that fs does not set to the one the
// output under the root was built with.
func (c *cli) flagsFromOutput(fs *flag.FlagSet) {
	if !isSet(fs, "platform") {
		c.opts.Platform = hooksPlatform(c.root, c.opts.Level())
	}
	recorded, ok := builtFlags(c.root)
	if !ok {
		return
	}
	if !isSet(fs, "layout") {
		c.opts.Layout = recorded.Layout
	}
	if !isSet(fs, "warn") {
		c.opts.Warn = recorded.Warn
	}
	if !isSet(fs, "no-prompt-hooks") {
		c.opts.NoPromptHooks = recorded.NoPromptHooks
	}
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// hooksPlatform is the platform of the hookify entries in the hooks.json
// under root: windows when they run .ps1 scripts, else unix (also when
// there is no readable hooks.json or no hookify entry in it).
func hooksPlatform(root string, level hooksjson.Level) compiler.Platform {
	commands, err := ownedCommands(filepath.Join(root, compiler.HooksJSON), level)
	if err != nil {
		return compiler.Unix
	}
	for _, cmds := range commands {
		for _, cmd := range cmds {
			if !cmd.sh {
				return compiler.Windows
			}
		}
	}
	return compiler.Unix
}

// inputs sets the compiler's inputs from the positional arguments, made
// relative to the root.
func (c *cli) inputs(args []string) error {
	for _, in := range args {
		if filepath.IsAbs(in) {
			rel, err := filepath.Rel(c.root, in)
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("rule path %s is outside the root %s", in, c.root)
			}
			in = rel
		}
		c.opts.Inputs = append(c.opts.Inputs, filepath.ToSlash(in))
	}
	return nil
}

// covers reports whether the rule input in (a file or a folder) names the
// rule file src.
func covers(in, src string) bool {
	in = path.Clean(in)
	return in == src || path.Dir(src) == in
}

// errorf prints "hookify CMD: message" to stderr.
func (c *cli) errorf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "hookify %s: %s\n", c.cmd.name, fmt.Sprintf(format, args...))
}

// help prints the command's usage line, description and flags.
func (c *cli) help(w io.Writer, fs *flag.FlagSet) {
	cmd := c.cmd
	line := "hookify " + cmd.name
	if cmd.flags != 0 {
		line += " [flags]"
	}
	if cmd.args != "" {
		line += " " + cmd.args
	}
	doc := cmd.doc
	if doc == "" {
		doc = strings.ToUpper(cmd.summary[:1]) + cmd.summary[1:] + "."
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", line, doc)
	if cmd.rules {
		fmt.Fprintf(w, "\n%s\n", rulesDoc)
	}
	if cmd.flags != 0 {
		fmt.Fprint(w, "\nflags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(c.stderr)
	}
}

// help is "hookify help [COMMAND]".
func help(c *cli) int {
	switch len(c.args) {
	case 0:
		fmt.Fprint(c.stdout, usage())
		return 0
	case 1:
		cmd := lookup(c.args[0])
		if cmd == nil {
			c.errorf("unknown command %q\n%s", c.args[0], usage())
			return 2
		}
		h := &cli{cmd: cmd, stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		fs, _ := h.flagSet()
		h.help(c.stdout, fs)
		return 0
	}
	c.errorf("takes one command, not %s", plural(len(c.args), "argument"))
	return 2
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
