// Package golden holds hookify's end-to-end compiler golden tests.
//
// Each testdata/*.txtar archive is one case. Its comment says what the case
// shows; a comment line "flags: ..." sets compiler options (--layout,
// --warn, --platform, --user). Files outside out/ are the project tree
// given to the compiler (.claude/hookify.*.local.md, and an existing
// .cursor/hooks.json if any). Files under out/ are the expected results:
// every generated file at out/<path>, the IR dump at out/ir, and all
// diagnostics at out/diagnostics. Run "go test ./golden -update" to
// rewrite the out/ sections from the compiler's output.
package golden
