package writer

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// contextLines is the number of unchanged lines shown around a change.
const contextLines = 3

// maxCells bounds the work of the line matcher: a changed region of n old and
// m new lines with n*m above it is shown as a whole replacement, which is
// still a correct diff, just not a minimal one.
const maxCells = 1 << 22

// Diff renders changes as a git-style unified diff, in path order: a
// "diff --git a/<path> b/<path>" header, mode lines where a file is created,
// deleted or changes mode, then "---"/"+++" and the hunks with three lines of
// context. It returns "" for no changes. The output depends only on changes.
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
		hunks := unified(splitLines(before), splitLines(after))
		if len(hunks) == 0 {
			continue
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
		b.WriteString(hunks)
	}
	return b.String()
}

// gitMode writes a regular file's mode as git does, e.g. 100644.
func gitMode(m fs.FileMode) string {
	return fmt.Sprintf("%06o", 0o100000|uint32(m.Perm()))
}

// splitLines cuts data after each newline; the last line may lack one.
func splitLines(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		i := strings.IndexByte(string(data), '\n') + 1
		if i == 0 {
			i = len(data)
		}
		lines = append(lines, string(data[:i]))
		data = data[i:]
	}
	return lines
}

// An edit is one line of a line diff: ' ' kept, '-' removed, '+' added.
type edit struct {
	op   byte
	line string
}

// lineDiff returns a shortest edit script from a to b: common prefix and
// suffix, and in between a longest common subsequence, with removals before
// additions where both happen.
func lineDiff(a, b []string) []edit {
	var pre, suf int
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var edits []edit
	for _, l := range a[:pre] {
		edits = append(edits, edit{' ', l})
	}
	edits = append(edits, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		edits = append(edits, edit{' ', l})
	}
	return edits
}

// middle diffs two regions that differ at both ends.
func middle(a, b []string) []edit {
	var edits []edit
	n, m := len(a), len(b)
	if n*m > maxCells {
		for _, l := range a {
			edits = append(edits, edit{'-', l})
		}
		for _, l := range b {
			edits = append(edits, edit{'+', l})
		}
		return edits
	}
	// lcs[i*(m+1)+j] is the length of a longest common subsequence of a[i:]
	// and b[j:].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			edits = append(edits, edit{' ', a[i]})
			i++
			j++
		case j == m || (i < n && lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			edits = append(edits, edit{'-', a[i]})
			i++
		default:
			edits = append(edits, edit{'+', b[j]})
			j++
		}
	}
	return edits
}

// unified renders the hunks that turn a into b, or "" if they are equal.
func unified(a, b []string) string {
	edits := lineDiff(a, b)
	var out strings.Builder
	// aLine[k] and bLine[k] count the lines of a and b before edits[k].
	aLine := make([]int, len(edits)+1)
	bLine := make([]int, len(edits)+1)
	for k, e := range edits {
		aLine[k+1], bLine[k+1] = aLine[k], bLine[k]
		if e.op != '+' {
			aLine[k+1]++
		}
		if e.op != '-' {
			bLine[k+1]++
		}
	}
	k := 0
	for {
		// Find the next change.
		for k < len(edits) && edits[k].op == ' ' {
			k++
		}
		if k == len(edits) {
			break
		}
		start := max(k-contextLines, 0)
		// Extend over changes whose contexts touch or overlap.
		last := k
		for j := k + 1; j < len(edits); j++ {
			if edits[j].op == ' ' {
				continue
			}
			if j-last-1 > 2*contextLines {
				break
			}
			last = j
		}
		end := min(last+contextLines+1, len(edits))
		fmt.Fprintf(&out, "@@ -%s +%s @@\n",
			hunkRange(aLine[start], aLine[end]-aLine[start]),
			hunkRange(bLine[start], bLine[end]-bLine[start]))
		for _, e := range edits[start:end] {
			out.WriteByte(e.op)
			out.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		k = end
	}
	return out.String()
}

// hunkRange writes a hunk's line range as diff does: the first line (1-based)
// and the count, which is left out when it is 1; an empty range names the
// line before it.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, count)
}
