package upstream

// The text rewrites of hookify fix (README, "Rules as people write
// them"; docs/semantics.md §4 says how upstream reads a value): respell a
// rule file so that upstream hookify and hookify read it the same way
// wherever a spelling exists for that. compiler.Fix keeps a rewrite only
// when the file still compiles to the same bytes. The edits are made at
// the positions the YAML reading gives (parser.Value.Pos and
// Pair.KeyPos); the message body and comments on their own lines are
// never touched.

import (
	"bytes"
	"slices"
	"strings"

	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// edit replaces bytes [from, to) of a line (0-based byte offsets), or,
// with insert set, puts text on a new line before it.
type edit struct {
	line     int // file line, 1-based
	from, to int
	text     string
	insert   bool
}

// Fix returns the rule file src, named name, with its fixes applied, or
// nil when it has none. rule is the rule it compiles to on its own (nil
// when it compiles to none); tr is the regex translator, whose refusals
// say which (?i) groups go.
func Fix(name string, src []byte, rule *ir.Rule, tr func(string) (string, error)) []byte {
	f, rd, _ := Parse(name, src)
	if f == nil || rd.File.FrontMatter == nil || rd.File.CutLine > 0 {
		return nil // hookify does not load it as one front matter: nothing to align
	}
	bom := bytes.HasPrefix(src, []byte("\uFEFF"))
	lines := strings.SplitAfter(strings.TrimPrefix(string(src), "\uFEFF"), "\n")
	up := rd.File.FrontMatter // its line numbers are file lines
	fx := &fixer{f: f, up: up, lines: lines, tr: tr}
	for _, key := range comparedKeys {
		p, ok := f.Field(key)
		if !ok || key == "conditions" {
			continue
		}
		want := canonical(key, p.Value, rule, tr)
		if uv, ok := up.Fields[key]; ok && uv.Line == p.KeyPos.Line {
			fx.scalar(p, want, uv.Kind == Text && uv.Text == want, false)
		}
	}
	if p, ok := f.Field("conditions"); ok && p.Value.Kind == parser.List && !p.Value.Fallback {
		fx.conditions(p)
	}
	if _, ok := f.Field("name"); !ok && rule != nil {
		if _, theirs := up.Fields["name"]; !theirs {
			if s, ok := Spell("name", rule.Name, false); ok && s == rule.Name {
				fx.edits = append(fx.edits, edit{line: 2, insert: true, text: "name: " + s})
			}
		}
	}
	if len(fx.edits) == 0 {
		return nil
	}
	out := fx.apply()
	if bom {
		out = "\uFEFF" + out
	}
	return []byte(out)
}

// canonical is the text a top-level value should have: its real spelling
// when it is a synonym hookify reads for its evident intent, else what we
// read.
func canonical(key string, v *parser.Value, r *ir.Rule, tr func(string) (string, error)) string {
	s := ourText(v)
	switch key {
	case "event":
		if _, claude := claudeEvents[strings.ToLower(s)]; claude && r != nil {
			return r.Event.String()
		}
	case "action":
		if slices.Contains(actionSynonyms, strings.ToLower(s)) {
			return ir.Warn.String()
		}
	case "enabled":
		if v.Tag != "!!bool" {
			switch strings.ToLower(s) {
			case "yes", "on":
				return "true"
			case "no", "off":
				return "false"
			}
		}
	case "pattern":
		s, _ = DropInlineIgnoreCase(s, tr)
	case "tool_matcher":
		pieces := strings.Split(s, "|")
		for i := range pieces {
			pieces[i] = strings.TrimSpace(pieces[i])
		}
		return strings.Join(pieces, "|")
	}
	return s
}

type fixer struct {
	f     *parser.File
	up    *FrontMatter // hookify's reading, in file lines
	lines []string     // the file's lines, with their line ends
	edits []edit
	tr    func(string) (string, error)
}

// text is file line n without its line end.
func (fx *fixer) text(n int) string {
	if n < 1 || n > len(fx.lines) {
		return ""
	}
	return strings.TrimRight(fx.lines[n-1], "\r\n")
}

// scalar respells the value of p as want, so that both readers read want,
// and moves a trailing comment to a line of its own above the key. agree
// says that upstream reads want already; then only a comment moves.
func (fx *fixer) scalar(p *parser.Pair, want string, agree, inItem bool) {
	v := p.Value
	if v.Kind != parser.Scalar || v.Fallback || v.Pos.Line != p.KeyPos.Line {
		return
	}
	line := fx.text(p.KeyPos.Line)
	from, to, comment, ok := valueExtent(line, p.KeyPos.Col-1, p.Key)
	if !ok || strings.ContainsAny(want, "\n\r") {
		return
	}
	text := line[from:to]
	if agree && comment == "" && want == ourText(v) {
		return
	}
	spelled, ok := Spell(p.Key, want, inItem)
	if p.Key == "enabled" && !inItem && (want == "true" || want == "false") {
		spelled, ok = want, true // a boolean to both readers
	}
	if !ok {
		return
	}
	if spelled != text {
		fx.edits = append(fx.edits, edit{line: p.KeyPos.Line, from: from, to: len(line), text: spelled})
	} else if comment != "" {
		fx.edits = append(fx.edits, edit{line: p.KeyPos.Line, from: to, to: len(line)})
	}
	if comment != "" {
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t-"))]
		indent = strings.Repeat(" ", len(indent))
		fx.edits = append(fx.edits, edit{line: p.KeyPos.Line, insert: true, text: indent + comment})
	}
}

// conditions fixes each condition's keys: respelling values upstream reads
// differently, evident operator synonyms, a value key named as pattern,
// and condition lines indented too little for upstream.
func (fx *fixer) conditions(p *parser.Pair) {
	items := fx.up.Items("conditions")
	for _, it := range p.Value.Items {
		if it.Kind != parser.Map || it.Fallback {
			continue
		}
		var theirs map[string]string
		for _, ui := range items {
			if ui.Line == it.Pos.Line && !ui.Comma {
				theirs = ui.Map
			}
		}
		_, hasPattern := it.Get("pattern")
		for _, kv := range it.Pairs {
			switch kv.Key {
			case "field", "operator", "pattern":
			case "value":
				if hasPattern {
					continue
				}
				line := fx.text(kv.KeyPos.Line)
				at := kv.KeyPos.Col - 1
				if strings.HasPrefix(line[at:], "value:") {
					fx.edits = append(fx.edits, edit{line: kv.KeyPos.Line, from: at, to: at + len("value"), text: "pattern"})
				}
			default:
				continue
			}
			want := ourText(kv.Value)
			if o, ok := opSynonyms[strings.ToLower(want)]; ok && kv.Key == "operator" {
				want = o.String()
			}
			if kv.Key != "field" && kv.Key != "operator" && regexItem(it) {
				want, _ = DropInlineIgnoreCase(want, fx.tr)
			}
			t, seen := theirs[kv.Key]
			fx.scalar(kv, want, seen && t == want, true)
		}
	}
	fx.indent(p)
}

// regexItem reports whether a condition item tests a regex.
func regexItem(it *parser.Value) bool {
	op := ir.RegexMatch
	if p, ok := it.Get("operator"); ok && p.Value.Kind == parser.Scalar {
		var known bool
		if op, known = ir.ParseOp(p.Value.Str); !known {
			op, known = opSynonyms[strings.ToLower(p.Value.Str)]
		}
		if !known {
			return false
		}
	}
	return op.IsRegex()
}

// indent indents a conditions list whose dashes start at column 1 by two
// spaces, so that its continuation lines are indented by more than 2, as
// upstream needs; comment and blank lines stay as they are.
func (fx *fixer) indent(p *parser.Pair) {
	if p.KeyPos.Col != 1 || len(p.Value.Items) == 0 {
		return
	}
	var block []int // the lines of the list, up to the next key or the fence
	for n := p.KeyPos.Line + 1; n <= len(fx.lines) && strings.TrimRight(fx.text(n), " \t") != "---"; n++ {
		l := fx.text(n)
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(l) == len(t) && !strings.HasPrefix(t, "- ") {
			break // the next key
		}
		block = append(block, n)
	}
	if len(block) == 0 || !strings.HasPrefix(fx.text(block[0]), "- ") {
		return // the dashes are indented already
	}
	for _, n := range block {
		fx.edits = append(fx.edits, edit{line: n, text: "  "})
	}
}

// apply makes the edits: replacements right to left on each line, then
// indents, then inserted lines.
func (fx *fixer) apply() string {
	slices.SortStableFunc(fx.edits, func(a, b edit) int {
		if a.line != b.line {
			return b.line - a.line
		}
		return b.from - a.from
	})
	lines := slices.Clone(fx.lines)
	for _, e := range fx.edits {
		if e.insert || e.from == 0 && e.to == 0 {
			continue
		}
		l := lines[e.line-1]
		lines[e.line-1] = l[:e.from] + e.text + l[e.to:]
	}
	for _, e := range fx.edits {
		if !e.insert && e.from == 0 && e.to == 0 {
			lines[e.line-1] = e.text + lines[e.line-1]
		}
	}
	eol := "\n"
	if strings.HasSuffix(fx.lines[0], "\r\n") {
		eol = "\r\n"
	}
	for _, e := range fx.edits { // sorted by line, last first
		if e.insert {
			lines = slices.Insert(lines, e.line-1, e.text+eol)
		}
	}
	return strings.Join(lines, "")
}

// valueExtent finds the value of key on a line where the key starts at
// byte at: [from, to) is the value's text, comment the trailing `# ...`,
// if any. ok is false when the value does not end on this line.
func valueExtent(line string, at int, key string) (from, to int, comment string, ok bool) {
	if at < 0 || !strings.HasPrefix(line[at:], key) {
		return 0, 0, "", false
	}
	i := at + len(key)
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != ':' {
		return 0, 0, "", false
	}
	i++
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	from, to = i, i
	switch {
	case i < len(line) && line[i] == '\'':
		for to = i + 1; to < len(line); to++ {
			if line[to] == '\'' {
				if to+1 < len(line) && line[to+1] == '\'' {
					to++
					continue
				}
				break
			}
		}
		if to >= len(line) {
			return 0, 0, "", false
		}
		to++
	case i < len(line) && line[i] == '"':
		for to = i + 1; to < len(line) && line[to] != '"'; to++ {
			if line[to] == '\\' {
				to++
			}
		}
		if to >= len(line) {
			return 0, 0, "", false
		}
		to++
	default:
		to = len(line)
		for j := i; j < len(line); j++ {
			if line[j] == '#' && j > i && (line[j-1] == ' ' || line[j-1] == '\t') {
				to = j
				break
			}
		}
		to = i + len(strings.TrimRight(line[i:to], " \t"))
	}
	rest := strings.TrimSpace(line[to:])
	if rest != "" && !strings.HasPrefix(rest, "#") {
		return 0, 0, "", false
	}
	return from, to, rest, true
}

// Spell returns the clearest spelling of s that YAML and upstream hookify
// both read as s, for a top-level key or a condition key (inItem).
func Spell(key, s string, inItem bool) (string, bool) {
	for _, cand := range spellings(s) {
		if readsAs(key, cand, inItem) == s {
			return cand, true
		}
	}
	return "", false
}
