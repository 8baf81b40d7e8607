// Command hookify compiles Claude Code hookify rules
// (.claude/hookify.*.local.md) into Cursor hooks: scripts under
// .cursor/hooks/ and entries in .cursor/hooks.json.
//
// Usage:
//
//	hookify build [-C DIR] [--user] [--layout per-event|per-rule] [--platform unix|windows] [--warn context|ask|allow] [--no-prompt-hooks] [--json] [-k] [RULES...]
//	hookify check [the flags of build] [RULES...]
//	hookify vet [-C DIR] [--user] [--layout L] [--no-prompt-hooks] [--json] [RULES...]
//	hookify explain [-C DIR] [--user] [--layout L] [--platform P] [--warn W] [--no-prompt-hooks] [RULE...]
//	hookify test [the flags of build but --json] [--cases DIR] [RULES...]
//	hookify eval --event EVENT [-C DIR] [--user] [--layout L] [--warn W] [--no-prompt-hooks] [-k] [RULES...] < payload.json
//	hookify doctor [-C DIR] [--user] [--json] [-k]
//	hookify init [-C DIR] [--user] [-k]
//	hookify watch [the flags of build but --json and -k]
//	hookify help [COMMAND]
//
// The commands are declared in cli.go, which also holds the prologue they
// share (flags, root, compilation). "-h" of any command prints its help
// and exits 0.
//
// Exit codes: 0 success, 1 diagnostics or stale output, 2 usage.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
