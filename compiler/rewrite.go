package compiler

import (
	"strings"

	"github.com/hookify/hookify/diag"
)

// ApplyRewrite applies a diagnostic's suggested rewrite to the rule file
// src it came from: each edit replaces a front-matter entry (the key's
// line from the key's column, and the lines nested under it), removes it,
// or adds a top-level entry before the closing "---". The edits are
// applied from the last line up, so that their positions hold.
func ApplyRewrite(src []byte, rw diag.Rewrite) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	end := 0 // the closing --- line, 0-based
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r\n") == "---" {
			end = i
			break
		}
	}
	edits := append(diag.Rewrite(nil), rw...)
	// Last key first; additions (a zero Key) before any of them, at the end.
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && edits[j].Key.Line > edits[j-1].Key.Line; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
	for _, e := range edits {
		if e.Key.Line == 0 {
			if end > 0 {
				lines = splice(lines, end, end, e.Text)
			}
			continue
		}
		i := e.Key.Line - 1
		if i <= 0 || i >= len(lines) {
			continue
		}
		col := e.Key.Col - 1
		if col < 0 || col > len(lines[i]) {
			col = 0
		}
		prefix := lines[i][:col]
		// The entry runs on while lines are nested deeper than the key, or,
		// for a top-level key, are list items under it.
		j := i + 1
		for ; j < len(lines) && (end == 0 || j < end); j++ {
			l := strings.TrimRight(lines[j], "\r\n")
			ind := len(l) - len(strings.TrimLeft(l, " "))
			if strings.TrimSpace(l) == "" || ind > col || col == 0 && strings.HasPrefix(l, "-") {
				continue
			}
			break
		}
		text := e.Text
		if text != "" {
			pad := strings.Repeat(" ", col)
			text = prefix + strings.ReplaceAll(text, "\n", "\n"+pad)
		} else if strings.TrimSpace(prefix) != "" {
			text = strings.TrimRight(prefix, " ") // "- " of a list item stays
		}
		lines = splice(lines, i, j, text)
		if end > i {
			end += strings.Count(text, "\n") + b2i(text != "") - (j - i)
		}
	}
	return []byte(strings.Join(lines, ""))
}

// splice replaces lines[i:j] by text, one line per line of text.
func splice(lines []string, i, j int, text string) []string {
	var repl []string
	if text != "" {
		for _, l := range strings.Split(text, "\n") {
			repl = append(repl, l+"\n")
		}
	}
	out := append([]string(nil), lines[:i]...)
	out = append(out, repl...)
	return append(out, lines[j:]...)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
