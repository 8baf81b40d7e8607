package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/writer"
)

// fixCmd is "hookify fix": it rewrites the rule files, all or nothing, so
// that upstream hookify reads them as hookify does wherever a spelling
// exists for that, without changing what any rule compiles to (README, "Rules as people write them").
// With showDiff it prints the changes as a unified diff, writes nothing,
// and exits 1 when there are any.
func fixCmd(c *cli, showDiff bool) int {
	changes, err := fixChanges(c)
	if err != nil {
		c.errorf("%v", err)
		return 1
	}
	if showDiff {
		fmt.Fprint(c.stdout, writer.Diff(changes))
		if len(changes) > 0 {
			fmt.Fprintf(c.stderr, "hookify fix: %s would change; run hookify fix\n", plural(len(changes), "rule file"))
			return 1
		}
		return 0
	}
	if err := writer.ApplyRuleEdits(c.root, changes); err != nil {
		printDiags(c.stderr, writeDiags(err))
		fmt.Fprintln(c.stderr, "hookify fix: nothing was changed")
		return 1
	}
	if len(changes) == 0 {
		fmt.Fprintln(c.stderr, "hookify fix: nothing to fix")
	} else {
		fmt.Fprintf(c.stderr, "hookify fix: rewrote %s; the rules mean what they meant, and hookify build records the new contents in the hooks, which check them at each call\n", plural(len(changes), "rule file"))
	}
	return 0
}

// fixChanges are the rewrites of hookify fix as writer changes.
func fixChanges(c *cli) ([]writer.Change, error) {
	fixes, diags := compiler.Fix(os.DirFS(c.root), c.opts)
	if diags.HasErrors() {
		return nil, diags.Err()
	}
	var out []writer.Change
	for _, f := range fixes {
		st, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil, err
		}
		mode := st.Mode().Perm()
		out = append(out, writer.Change{Path: f.Path, Kind: writer.Update, Old: f.Old, New: f.New, OldMode: mode, NewMode: mode})
	}
	return out, nil
}
