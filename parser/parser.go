// Package parser reads hookify rule files: markdown with a YAML front matter
// block. It keeps the position of every value, and the front matter's lines
// (File.Front), from which package upstream reads the file as upstream
// hookify's own line parser does. A top-level key that is not valid YAML
// takes the reading of a Fallback (upstream.Fallback: that line parser's).
//
// The parser never touches the disk: it takes a name and the file's bytes.
package parser

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/hookify/hookify/diag"
)

// Kind is the shape of a Value.
type Kind int

const (
	Scalar Kind = iota
	List
	Map
)

// Value is a front-matter value with its position.
type Value struct {
	Kind   Kind
	Str    string // scalar text (for Scalar)
	Tag    string // YAML tag of a scalar: "!!str", "!!bool", "!!int", "!!null", ...; "" if read by the line parser
	Quoted bool   // the scalar was quoted in the source
	Items  []*Value
	Pairs  []*Pair
	Pos    diag.Pos
	// Fallback is set when YAML could not read the value and hookify's line
	// parser's reading was taken instead.
	Fallback bool
}

// Pair is a key and its value in a map.
type Pair struct {
	Key    string
	KeyPos diag.Pos
	Value  *Value
}

// Get returns the value of key in a map value (the last one, if repeated).
func (v *Value) Get(key string) (*Pair, bool) {
	var found *Pair
	for _, p := range v.Pairs {
		if p.Key == key {
			found = p
		}
	}
	return found, found != nil
}

// File is one parsed rule file.
type File struct {
	Path string
	// Fields are the top-level keys of the front matter, in source order.
	// A repeated key appears more than once; the last one wins.
	Fields []*Pair
	// Body is the markdown message after the front matter, with leading and
	// trailing white space removed (as hookify does). CRLF and a lone CR are
	// read as LF.
	Body    string
	BodyPos diag.Pos
	// Front holds the lines of the front matter, between the two --- lines,
	// with their line ends read as LF; Front[0] is line 2 of the file.
	Front []string
}

// A Fallback reads a top-level key of the front matter whose text is not
// valid YAML another way: given the file's path, File.Front and the key, it
// returns the key's value, positioned in the file, and how the warning
// names it; ok is false when it has none, and the YAML error stands.
// upstream.Fallback reads as upstream hookify's line parser does.
type Fallback func(path string, front []string, key string) (v *Value, what string, ok bool)

// Field returns the last top-level pair named key.
func (f *File) Field(key string) (*Pair, bool) {
	var found *Pair
	for _, p := range f.Fields {
		if p.Key == key {
			found = p
		}
	}
	return found, found != nil
}

// Parse parses one rule file. path is used in positions only; fallback,
// if not nil, reads the keys that are not valid YAML. Errors and warnings
// are returned as diagnostics; the File is nil only when the front matter
// could not be found at all, or the file is not valid UTF-8 or holds a NUL
// byte.
func Parse(path string, src []byte, fallback Fallback) (*File, diag.List) {
	var diags diag.List
	fileStart := diag.Pos{File: path, Line: 1, Col: 1}
	// Positions count columns after a leading BOM, and lines as YAML and
	// hookify (Python's text mode) do: CRLF and a lone CR both end a line.
	norm := src
	if len(norm) >= 3 && norm[0] == 0xEF && norm[1] == 0xBB && norm[2] == 0xBF {
		norm = norm[3:]
	}
	norm = bytes.ReplaceAll(norm, []byte("\r\n"), []byte("\n"))
	norm = bytes.ReplaceAll(norm, []byte("\r"), []byte("\n"))
	if !utf8.Valid(norm) {
		line, col := invalidUTF8Pos(norm)
		diags.Refuse(diag.Pos{File: path, Line: line, Col: col}, diag.InvalidUTF8, "the file is not valid UTF-8", "save it as UTF-8")
		return nil, diags
	}
	if i := bytes.IndexByte(norm, 0); i >= 0 {
		line := 1 + bytes.Count(norm[:i], []byte("\n"))
		col := i - bytes.LastIndexByte(norm[:i], '\n')
		diags.Errorf(diag.Pos{File: path, Line: line, Col: col}, diag.NUL, "the file holds a NUL byte, which no rule text may contain (a shell string cannot hold it): remove it")
		return nil, diags
	}
	text := string(norm)
	lines := strings.SplitAfter(text, "\n")
	if !isFence(lines[0]) { // SplitAfter returns at least one line
		diags.Refuse(fileStart, diag.NoFrontMatter, "missing front matter: the first line must be ---", "start the file with a line ---, then the keys (event: …), then a line --- before the message")
		return nil, diags
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if isFence(lines[i]) {
			end = i
			break
		}
	}
	if end < 0 {
		diags.Refuse(fileStart, diag.UnterminatedFrontMatter, "the front matter that starts on line 1 has no closing --- line", "end the keys with a line --- before the message")
		return nil, diags
	}
	fmLines := lines[1:end]
	f := &File{Path: path, Front: fmLines}

	// Body: everything after the closing fence, trimmed like Python's strip().
	rest := strings.Join(lines[end+1:], "")
	lead := len(rest) - len(strings.TrimLeft(rest, pyspace))
	f.Body = strings.Trim(rest, pyspace)
	bl := end + 2 + strings.Count(rest[:lead], "\n")
	f.BodyPos = diag.Pos{File: path, Line: bl, Col: 1}

	f.Fields = parseFrontMatter(path, fmLines, fallback, &diags)
	return f, diags
}

// pyspace is the ASCII white space that Python's str.strip() removes.
const pyspace = " \t\n\r\v\f"

func isFence(line string) bool {
	return strings.TrimRight(line, " \t\r\n") == "---"
}

// parseFrontMatter reads the front matter as YAML. The first line of
// fmLines is line 2 of the file. If the whole block is not valid YAML, each
// top-level key is read on its own, and a key whose text is not valid YAML
// takes the fallback's reading, with a warning.
func parseFrontMatter(path string, fmLines []string, fallback Fallback, diags *diag.List) []*Pair {
	const firstLine = 2
	aliases := &aliasState{open: map[*yaml.Node]bool{}}
	conv := converter{path: path, lines: fmLines, firstLine: firstLine, aliases: aliases}
	if strings.TrimSpace(strings.Join(fmLines, "")) == "" {
		return nil
	}
	root, err := loadYAML(strings.Join(fmLines, ""))
	if err == nil {
		if root == nil {
			return nil
		}
		if root.Kind != yaml.MappingNode {
			diags.Refuse(conv.pos(root.Line, root.Column), diag.FrontMatterNotMap, "the front matter must be a list of key: value lines", "write one key: value per line between the --- lines, for example event: bash")
			return nil
		}
		return conv.pairs(root, diags)
	}
	// Read each top-level key on its own.
	var out []*Pair
	for _, c := range chunks(fmLines) {
		sub := converter{path: path, lines: fmLines[c.start:c.end], firstLine: firstLine + c.start, aliases: aliases}
		node, err := loadYAML(strings.Join(fmLines[c.start:c.end], ""))
		if err == nil && node != nil && node.Kind == yaml.MappingNode {
			out = append(out, sub.pairs(node, diags)...)
			continue
		}
		line, col, msg := yamlErrorPos(err)
		pos := sub.pos(line, col)
		if line == 0 {
			pos = sub.pos(1, 1)
		}
		key := c.key
		if fallback != nil && key != "" {
			if v, what, ok := fallback(path, fmLines, key); ok {
				out = append(out, &Pair{Key: key, KeyPos: diag.Pos{File: path, Line: firstLine + c.start, Col: 1}, Value: v})
				diags.Warnf(pos, diag.YAMLFallback, "%s is not valid YAML (%s); it is read as hookify reads it, %s: quote the value (single quotes keep backslashes as written)", key, msg, what)
				continue
			}
		}
		diags.Errorf(pos, diag.YAML, "invalid front matter: %s", msg)
	}
	return out
}

type chunk struct {
	key        string
	start, end int
}

// chunks splits front-matter lines into top-level keys with their indented
// or list continuation lines. Lines before the first key form a keyless chunk.
func chunks(lines []string) []chunk {
	var out []chunk
	for i, l := range lines {
		t := strings.TrimRight(l, "\n")
		isKey := t != "" && t[0] != ' ' && t[0] != '\t' && t[0] != '#' && t[0] != '-' && strings.Contains(t, ":")
		if isKey || len(out) == 0 {
			k := ""
			if isKey {
				k = strings.TrimSpace(t[:strings.Index(t, ":")])
			}
			out = append(out, chunk{key: k, start: i, end: i + 1})
			continue
		}
		out[len(out)-1].end = i + 1
	}
	return out
}

func loadYAML(s string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

func yamlErrorPos(err error) (line, col int, msg string) {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		return le.Mark.Line, le.Mark.Column, le.Message
	}
	if err == nil {
		return 0, 0, "expected key: value lines"
	}
	return 0, 0, strings.TrimPrefix(err.Error(), "yaml: ")
}

type converter struct {
	path      string
	lines     []string
	firstLine int
	aliases   *aliasState
}

// aliasState bounds what aliases can do: an alias inside the value it names
// would be converted forever, and nested aliases can multiply a short file
// into billions of values ("billion laughs").
type aliasState struct {
	open     map[*yaml.Node]bool // anchored nodes being converted through an alias
	expanded int                 // values converted through aliases so far
	reported bool
}

// maxExpanded is far above what a rule needs: a few dozen values.
const maxExpanded = 10000

// pos converts a YAML mark (1-based line, 1-based column in characters)
// into a file position with a byte column.
func (c converter) pos(line, col int) diag.Pos {
	if line < 1 {
		line = 1
	}
	bcol := col
	if line-1 < len(c.lines) {
		l := c.lines[line-1]
		n := 0
		for i := range l {
			if n == col-1 {
				bcol = i + 1
				break
			}
			n++
		}
	}
	return diag.Pos{File: c.path, Line: c.firstLine + line - 1, Col: bcol}
}

func (c converter) pairs(m *yaml.Node, diags *diag.List) []*Pair {
	var out []*Pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			diags.Errorf(c.pos(k.Line, k.Column), diag.YAML, "a key must be a plain name")
			continue
		}
		out = append(out, &Pair{Key: k.Value, KeyPos: c.pos(k.Line, k.Column), Value: c.value(v, diags)})
	}
	return out
}

func (c converter) value(n *yaml.Node, diags *diag.List) *Value {
	st := c.aliases
	if len(st.open) > 0 {
		st.expanded++
	}
	if n.Kind == yaml.AliasNode {
		at := c.pos(n.Line, n.Column)
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case st.open[n]:
			diags.Errorf(at, diag.YAML, "the alias *%s is used inside the value it names", n.Anchor)
			return &Value{Kind: Scalar, Tag: "!!null", Pos: at}
		case st.expanded > maxExpanded:
			if !st.reported {
				st.reported = true
				diags.Errorf(at, diag.YAML, "aliases expand the front matter to more than %d values", maxExpanded)
			}
			return &Value{Kind: Scalar, Tag: "!!null", Pos: at}
		}
		st.open[n] = true
		defer delete(st.open, n)
	}
	v := &Value{Pos: c.pos(n.Line, n.Column)}
	switch n.Kind {
	case yaml.SequenceNode:
		v.Kind = List
		for _, it := range n.Content {
			v.Items = append(v.Items, c.value(it, diags))
		}
	case yaml.MappingNode:
		v.Kind = Map
		v.Pairs = c.pairs(n, diags)
	default:
		v.Kind = Scalar
		v.Str = n.Value
		v.Tag = n.ShortTag()
		v.Quoted = n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
		if v.Quoted {
			v.Pos.Col++ // point at the first character inside the quotes
		}
	}
	return v
}

func invalidUTF8Pos(b []byte) (line, col int) {
	line, col = 1, 1
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += size
		}
		b = b[size:]
	}
	return line, col
}
