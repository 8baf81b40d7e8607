// Command hookify compiles Claude Code hookify rules
// (.claude/hookify.*.local.md) into Cursor hooks: scripts under
// .cursor/hooks/ and entries in .cursor/hooks.json.
//
// Usage:
//
//	hookify build [-C DIR] [--user] [--layout per-event|per-rule] [--platform unix|windows] [--warn ask|allow] [--json] [RULES...]
//	hookify check [same flags]
//	hookify vet [same flags] [--json]
//	hookify explain [-C DIR] [RULE...]
//
// Exit codes: 0 success, 1 diagnostics or stale output, 2 usage.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
