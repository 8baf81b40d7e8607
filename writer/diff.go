package writer

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// Diff renders changes as a git-style unified diff, in path order: a
// "diff --git a/<path> b/<path>" header, mode lines where a file is created,
// deleted or changes mode, then "---"/"+++" and the hunks of go-internal's
// anchored diff, with three lines of context. It returns "" for no changes.
// The output depends only on changes.
func Diff(changes []Change) string {
	sorted := slices.Clone(changes)
	slices.SortStableFunc(sorted, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	var b strings.Builder
	for _, c := range sorted {
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", c.Path, c.Path)
		from, to := "a/"+c.Path, "b/"+c.Path
		var before, after []byte
		switch c.Kind {
		case Create:
			fmt.Fprintf(&b, "new file mode %s\n", gitMode(c.NewMode))
			from, after = "/dev/null", c.New
		case Delete:
			fmt.Fprintf(&b, "deleted file mode %s\n", gitMode(c.OldMode))
			to, before = "/dev/null", c.Old
		default:
			if c.OldMode != c.NewMode {
				fmt.Fprintf(&b, "old mode %s\nnew mode %s\n", gitMode(c.OldMode), gitMode(c.NewMode))
			}
			if c.Kind == Update {
				before, after = c.Old, c.New
			}
		}
		// diff.Diff starts with its own "diff <from> <to>" line, which the
		// git header above replaces; nil means no content change.
		if d := diff.Diff(from, before, to, after); d != nil {
			_, rest, _ := bytes.Cut(d, []byte("\n"))
			b.Write(rest)
		}
	}
	return b.String()
}

// gitMode writes a regular file's mode as git does, e.g. 100644.
func gitMode(m fs.FileMode) string {
	return fmt.Sprintf("%06o", 0o100000|uint32(m.Perm()))
}
