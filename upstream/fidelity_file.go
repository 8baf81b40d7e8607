package upstream

// Whole-file checks: whether hookify loads the file at all, and where its
// front matter ends.

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/parser"
)

func checkSkipped(c *fctx) {
	if ok, _ := path.Match("hookify.*.local.md", path.Base(c.f.Path)); !ok {
		c.warn(diag.Pos{File: c.f.Path, Line: 1, Col: 1}, "upstream never loads this file: it reads only .claude/hookify.*.local.md, and this name does not match; we read it because it was named. Rename it to hookify.%s.local.md so both read it", parser.DefaultName(c.f.Path))
		return
	}
	if c.hookify.Skipped == "" {
		return
	}
	c.warn(diag.Pos{File: c.f.Path, Line: 1, Col: 1}, "upstream skips this file (%s), so none of its rule runs there; we read it. Save the file without a byte order mark so both read it", c.hookify.Skipped)
}

func checkSplit(c *fctx) {
	if c.upstream == nil || c.hookify.CutLine == 0 {
		return
	}
	var lost []string
	for _, p := range c.f.Fields {
		if p.KeyPos.Line > c.hookify.CutLine && !slices.Contains(lost, p.Key) {
			lost = append(lost, p.Key)
		}
	}
	what := "it takes the rest of the front matter as the message"
	if key, val := cutValue(c); key != "" {
		what = fmt.Sprintf("it reads %s as %s and takes the rest of the front matter as the message", key, diag.Quote(val))
	}
	if len(lost) > 0 {
		what += " (so it loses " + strings.Join(lost, ", ") + ")"
	}
	c.warn(diag.Pos{File: c.f.Path, Line: c.hookify.CutLine, Col: c.hookify.CutCol}, "upstream ends the front matter at this --- (hookify splits the file at the first --- anywhere, not only on a line of its own): %s; we read the whole front matter. Avoid --- inside values (in a regex, write -{3}) so both agree", what)
}

// cutValue is the key and value hookify read on the line where the front
// matter was cut. Several keys can sit on that line (an inline "k: v, k: v"
// item); the cut falls in the value of the last one. The maps are searched
// in any order, so candidates are ranked to keep the message deterministic.
func cutValue(c *fctx) (string, string) {
	type cand struct {
		key, val string
		at       int // where "key:" last occurs on the line
	}
	line := ""
	if i := c.hookify.CutLine - 1; i >= 0 && i < len(c.upstream.Src) {
		line = c.upstream.Src[i]
	}
	var cands []cand
	add := func(k, v string) {
		at := -1 // an empty key is found anywhere: rank it last
		if k != "" {
			at = strings.LastIndex(line, k+":")
		}
		cands = append(cands, cand{k, v, at})
	}
	for k, uv := range c.upstream.Fields {
		if uv.Kind == Text && uv.Line == c.hookify.CutLine {
			add(k, uv.Text)
		}
		for _, it := range uv.Items {
			for ik, l := range it.KeyLines {
				if it.Map != nil && l == c.hookify.CutLine {
					add(ik, it.Map[ik])
				}
			}
		}
	}
	if len(cands) == 0 {
		return "", ""
	}
	best := slices.MinFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.at, a.at), strings.Compare(a.key, b.key), strings.Compare(a.val, b.val))
	})
	return best.key, best.val
}
