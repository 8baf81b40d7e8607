package main

import (
	"fmt"
	"os"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/initialize"
)

// initCmd is "hookify init": the Cursor commands (package initialize),
// the .claude folder, and a build.
func initCmd(c *cli) int {
	res, err := initialize.Write(c.root, c.user)
	if err != nil {
		printDiags(c.stderr, writeDiags(err))
		fmt.Fprintln(c.stderr, "hookify init: nothing was changed")
		return 1
	}
	home := ""
	if c.user {
		home = "~/"
	}
	if res.Claude {
		fmt.Fprintf(c.stdout, "hookify init: created %s.claude/ for the rules\n", home)
	}
	for _, cmd := range initialize.Commands {
		for _, ch := range res.Changes {
			if cmd.Path() == ch.Path {
				fmt.Fprintf(c.stdout, "hookify init: %s %s%s: /%s, %s\n", ch.Kind, home, ch.Path, cmd.Name, cmd.Purpose)
			}
		}
	}
	for _, p := range res.Foreign {
		fmt.Fprintf(c.stdout, "hookify init: %s\n", initialize.Adopt(home+p))
	}
	if len(res.Changes) == 0 && len(res.Foreign) == 0 {
		fmt.Fprintf(c.stdout, "hookify init: the Cursor commands in %s%s/ are up to date\n", home, initialize.CommandsDir)
	}
	c.res = compiler.Compile(os.DirFS(c.root), c.opts)
	if code := build(c, false); code != 0 {
		return code
	}
	build, where := "hookify build", "this project"
	if c.user {
		build, where = "hookify build --user", "any project"
	}
	fmt.Fprintf(c.stdout, `
Next: open %s in Cursor and ask for a rule in the agent chat:

  /hookify warn me when I use rm -rf
  /hookify-list
  /hookify-configure disable warn-rm
  /hookify-help

The agent writes %s.claude/hookify.<name>.local.md, runs %s and hookify test, and the rule
acts at the next tool call. Run hookify watch in a terminal to rebuild on every save.
`, where, home, build)
	return 0
}
