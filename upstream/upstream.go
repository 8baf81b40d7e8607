// Package upstream is what upstream hookify does with a rule file, and how
// to make ours agree: its own reading of the file (the loader and line
// parser, read.go), the dialect of real rule files that hookify reads for
// its evident intent (dialect.go), the fidelity checks that warn wherever
// upstream would read or run a rule differently (fidelity*.go), and the
// text rewrites of hookify fix (fix.go). The README's "Fidelity with
// upstream hookify" and docs/semantics.md say what upstream does;
// docs/architecture.md says where this package stands in the pipeline.
//
// Package compiler calls it through a small API: lowering calls Parse,
// the Read* dialect readers, CompatScalars and Check, and compiler.Fix
// calls Fix; this package never calls the compiler.
package upstream

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/parser"
)

// Reading is how upstream hookify reads one rule file.
type Reading struct {
	// Front is its line parser's reading of the front matter between our
	// --- lines (parser.File.Front), line 2 of the file first: what the
	// YAML fallbacks take.
	Front *FrontMatter
	// File is how hookify loads the whole file: its front matter ends at
	// the first --- anywhere. It drives the fidelity checks.
	File *File
}

// Parse parses a rule file with parser.Parse, the keys that are not valid
// YAML read as hookify reads them (Fallback), and returns hookify's
// reading of it beside ours (nil when the file is nil).
func Parse(path string, src []byte) (*parser.File, *Reading, diag.List) {
	f, diags := parser.Parse(path, src, Fallback)
	if f == nil {
		return nil, nil, diags
	}
	return f, &Reading{Front: readFrontMatter(strings.Join(f.Front, "")), File: ReadFile(src)}, diags
}

// Fallback is a parser.Fallback: the value of key as hookify's line parser
// reads the front matter front (whose first line is line 2 of the file).
func Fallback(path string, front []string, key string) (*parser.Value, string, bool) {
	uv, ok := readFrontMatter(strings.Join(front, "")).Fields[key]
	if !ok {
		return nil, "", false
	}
	return fromUpstream(path, front, 2, key, uv), describe(uv), true
}

// fromUpstream converts hookify's reading of key into a Value. Positions are
// found by looking for each item's keys on its lines.
func fromUpstream(path string, lines []string, firstLine int, key string, uv *Value) *parser.Value {
	line := uv.Line - 1 // index into lines
	at := func(l int, k string) diag.Pos {
		for j := l; j >= 0 && j < len(lines); j++ {
			if i := strings.Index(lines[j], k+":"); i >= 0 {
				col := i + len(k) + 1
				for col < len(lines[j]) && (lines[j][col] == ' ' || lines[j][col] == '\t') {
					col++
				}
				return diag.Pos{File: path, Line: firstLine + j, Col: col + 1}
			}
		}
		return diag.Pos{File: path, Line: firstLine + max(l, 0), Col: 1}
	}
	switch uv.Kind {
	case Text:
		return &parser.Value{Kind: parser.Scalar, Str: uv.Text, Pos: at(line, key), Fallback: true}
	case Bool:
		return &parser.Value{Kind: parser.Scalar, Str: strconv.FormatBool(uv.Bool), Pos: at(line, key), Fallback: true}
	}
	v := &parser.Value{Kind: parser.List, Pos: diag.Pos{File: path, Line: firstLine + line, Col: 1}, Fallback: true}
	for _, it := range uv.Items {
		il := it.Line - 1
		if it.Map == nil {
			v.Items = append(v.Items, &parser.Value{Kind: parser.Scalar, Str: it.Text, Pos: diag.Pos{File: path, Line: firstLine + il, Col: 1}, Fallback: true})
			continue
		}
		m := &parser.Value{Kind: parser.Map, Pos: diag.Pos{File: path, Line: firstLine + il, Col: 1}, Fallback: true}
		for _, k := range slices.Sorted(maps.Keys(it.Map)) {
			p := at(il, k)
			m.Pairs = append(m.Pairs, &parser.Pair{Key: k, KeyPos: diag.Pos{File: path, Line: p.Line, Col: 1}, Value: &parser.Value{Kind: parser.Scalar, Str: it.Map[k], Pos: p, Fallback: true}})
		}
		v.Items = append(v.Items, m)
	}
	return v
}

func describe(uv *Value) string {
	switch uv.Kind {
	case Text:
		return strconv.Quote(uv.Text)
	case List:
		return fmt.Sprintf("a list of %d items", len(uv.Items))
	}
	return strconv.FormatBool(uv.Bool)
}
