// Package initialize is "hookify init": it writes the Cursor commands that
// bring upstream hookify's /hookify, /hookify:list, /hookify:configure and
// /hookify:help to Cursor (README, "hookify init"), one file per row of [Commands].
//
// Where Cursor reads them: a custom command is a plain Markdown file in
// .cursor/commands/ of the project, or in ~/.cursor/commands/ for every
// project; the file name without ".md" is the command ("/hookify-list"),
// and Cursor puts the file's text into the chat, followed by what the user
// typed after the command. Cursor reads no front matter, so the files have
// none. Sources: Cursor 1.6's changelog as cited by microsoft/apm pull
// request #1046 ("custom slash commands stored as plain Markdown in
// .cursor/commands/"; Cursor does not consume front matter), the
// Cursor-featured collection Terry-Mathew/cursor-commands (project
// .cursor/commands and global ~/.cursor/commands, both scanned when the
// user types "/"), and docs.admtoolk.it's "Cursor Commands Overview" (the
// file name is the command, the whole file goes into the conversation).
// A ":" is not allowed in Windows file names, so upstream's /hookify:list is
// /hookify-list here.
//
// Every file carries hookify's generated header as an HTML comment on its
// first line (writer.IsGenerated), so init replaces its own files and never
// a file someone else wrote.
package initialize

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// CommandsDir is the folder of Cursor's custom commands, relative to the
// project root (or the home directory).
const CommandsDir = ".cursor/commands"

// Command is one Cursor command that init writes.
type Command struct {
	Name     string // the command, and the file name without ".md"
	Upstream string // the upstream hookify command it stands for
	Purpose  string // one line for init's output and the README
	text     string // the template of its body
}

// Commands is the table of what init writes.
var Commands = []Command{
	{"hookify", "/hookify", "write or change a rule from a request or from the conversation", hookifyText},
	{"hookify-list", "/hookify:list", "list the rules and whether each is enforced", listText},
	{"hookify-configure", "/hookify:configure", "enable or disable rules", configureText},
	{"hookify-help", "/hookify:help", "explain hookify and the rule format", helpText},
}

// Path returns the command's file, relative to the root.
func (c Command) Path() string { return CommandsDir + "/" + c.Name + ".md" }

// Header is the first line of every command file.
var Header = "<!-- " + codegen.Header([]string{"hookify init"}, "") + " -->"

// data fills the templates.
type data struct {
	Rules, Glob, Where, Build, Test, Hooks, HooksJSON, Ops string
}

func dataFor(user bool) data {
	var ops []string
	for _, name := range ir.OpNames() {
		ops = append(ops, "`"+name+"`")
	}
	d := data{
		Rules: ".claude/hookify.<name>.local.md", Glob: ".claude/hookify.*.local.md",
		Where: "this project", Build: "hookify build", Test: "hookify test",
		Hooks: codegen.HooksDir + "/", HooksJSON: codegen.HooksJSON,
		Ops: strings.Join(ops, ", "),
	}
	if user {
		d.Rules, d.Glob, d.Where = "~/"+d.Rules, "~/"+d.Glob, "the user (every project)"
		d.Build, d.Test = "hookify build --user", "hookify test --user"
		d.Hooks, d.HooksJSON = "~/"+d.Hooks, "~/"+d.HooksJSON
	}
	return d
}

// Files returns the command files, for the project or (user) the home
// directory.
func Files(user bool) []writer.File {
	d := dataFor(user)
	var out []writer.File
	for _, c := range Commands {
		t := template.Must(template.New(c.Name).Option("missingkey=error").Parse(c.text))
		var b bytes.Buffer
		b.WriteString(Header + "\n\n")
		if err := t.Execute(&b, d); err != nil {
			panic(err) // the templates are constants: a test runs them
		}
		out = append(out, writer.File{Path: c.Path(), Data: b.Bytes(), Mode: 0o644})
	}
	return out
}

// Result is what Write did.
type Result struct {
	// Changes are the files written (created or updated).
	Changes []writer.Change
	// Foreign are command files that exist without hookify's header: left
	// alone.
	Foreign []string
	// Claude is true when Write created the .claude folder.
	Claude bool
}

// Write creates root/.claude when it is missing and writes the command
// files, all or nothing, except those that exist without hookify's header
// (Result.Foreign), which it leaves alone. Files that are already as
// wanted are not touched, so a second Write changes nothing.
func Write(root string, user bool) (Result, error) {
	var res Result
	claude := filepath.Join(root, ".claude")
	if _, err := os.Lstat(claude); errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(claude, 0o755); err != nil {
			return res, err
		}
		res.Claude = true
	}
	fsys := os.DirFS(root)
	var files []writer.File
	for _, f := range Files(user) {
		data, err := fs.ReadFile(fsys, f.Path)
		if err == nil && !writer.IsGenerated(f.Path, data) {
			res.Foreign = append(res.Foreign, f.Path)
			continue
		}
		files = append(files, f)
	}
	changes, err := writer.Plan(fsys, files, nil)
	if err != nil {
		return res, err
	}
	if err := writer.Apply(root, changes); err != nil {
		return res, err
	}
	res.Changes = changes
	return res, nil
}

// Adopt says how to let init write a command file it left alone.
func Adopt(p string) string {
	return fmt.Sprintf("%s exists and is not hookify's, so init left it alone; to use hookify's, move it away (for example to %s) and run hookify init again", p, strings.TrimSuffix(p, path.Ext(p))+"-mine.md")
}
