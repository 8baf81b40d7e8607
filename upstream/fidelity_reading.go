package upstream

// Reading checks: where hookify's own line parser reads a value of the
// front matter differently from our YAML reading. The two readings are
// compared field by field; each difference is reported once, by the check
// of its cause.

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/parser"
)

type cause int

const (
	causeOther cause = iota
	causeQuotes
	causeComment
	causeBlock
	causeIndent
	causeComma
	causeBool
	causeFlow
	causeEmpty
)

type readingDiff struct {
	cause cause
	pos   diag.Pos
	msg   string
}

func readingCheck(k cause) func(c *fctx) {
	return func(c *fctx) {
		for _, d := range c.diffs {
			if d.cause == k {
				c.warn(d.pos, "%s", d.msg)
			}
		}
	}
}

// comparedKeys are the top-level keys hookify reads.
var comparedKeys = []string{"name", "enabled", "event", "pattern", "conditions", "action", "tool_matcher"}

// compareReadings compares our reading of each key hookify reads with
// hookify's.
func compareReadings(c *fctx) []readingDiff {
	var out []readingDiff
	add := func(k cause, pos diag.Pos, format string, args ...any) {
		out = append(out, readingDiff{k, pos, fmt.Sprintf(format, args...)})
	}
	for _, key := range comparedKeys {
		p, ours := c.f.Field(key)
		uv, theirs := c.upstream.Fields[key]
		if ours && c.hookify.CutLine > 0 && p.KeyPos.Line >= c.hookify.CutLine {
			continue // upstream-split reports it
		}
		switch {
		case ours && !theirs:
			if c.role(p.KeyPos.Line) == RoleIgnored && p.KeyPos.Col > 1 {
				add(causeIndent, p.KeyPos, "upstream ignores %s: hookify reads only keys that start at column 1, and this line is indented; we read it as YAML. Start the line at column 1 (and the keys around it too) so that both read it", key)
			}
		case ours && theirs:
			if key == "conditions" {
				out = append(out, compareConditions(c, p, uv)...)
				continue
			}
			if d, ok := compareScalar(c, key, p, uv); ok {
				out = append(out, d)
			}
		}
	}
	if c.hookify.CutLine == 0 && c.hookify.Body != c.f.Body {
		add(causeOther, c.f.BodyPos, "upstream's message is %s; ours is %s (hookify strips Unicode white space around it, we strip only ASCII white space). Remove the white space around the message so both agree", diag.Quote(c.hookify.Body), diag.Quote(c.f.Body))
	}
	return out
}

// role is what hookify's parser did with file line n.
func (c *fctx) role(n int) Role {
	i := n - c.upstream.FirstLine
	if i < 0 || i >= len(c.upstream.Roles) {
		return RoleSkipped
	}
	return c.upstream.Roles[i]
}

// line is the text of file line n.
func (c *fctx) line(n int) string {
	i := n - c.upstream.FirstLine
	if i < 0 || i >= len(c.upstream.Src) {
		return ""
	}
	return c.upstream.Src[i]
}

// rawValue is the text after the key's colon on the key's line.
func (c *fctx) rawValue(p *parser.Pair) string {
	l := c.line(p.KeyPos.Line)
	if i := strings.Index(l, p.Key+":"); i >= 0 {
		return strings.TrimSpace(l[i+len(p.Key)+1:])
	}
	return ""
}

func compareScalar(c *fctx, key string, p *parser.Pair, uv *Value) (readingDiff, bool) {
	v := p.Value
	if v.Kind != parser.Scalar || v.Fallback {
		return readingDiff{}, false // a type error, or hookify's reading already
	}
	s := ourText(v)
	if key == "enabled" {
		return compareEnabled(c, p, uv)
	}
	switch uv.Kind {
	case List:
		if v.Tag != "!!null" || len(uv.Items) > 0 {
			return readingDiff{}, false
		}
		switch key {
		case "name":
			return readingDiff{causeEmpty, v.Pos, fmt.Sprintf("upstream reads the empty name as an empty list and prefixes its messages with **[[]]**; we name the rule %s. Write the name so both agree", diag.Quote(c.r.Name))}, true
		case "pattern":
			return readingDiff{causeEmpty, p.KeyPos, "upstream reads the empty pattern as an empty list, so the rule has no condition there and never fires; we read an empty pattern, which matches everything. Write the pattern, or remove the key, so both agree"}, true
		}
		return readingDiff{}, false
	case Bool:
		return compareBool(c, key, p, s, uv.Bool)
	case Text:
		theirs := uv.Text
		if s == theirs {
			return readingDiff{}, false
		}
		if v.Tag == "!!null" && theirs == strings.TrimSpace(c.rawValue(p)) {
			return readingDiff{causeOther, v.Pos, fmt.Sprintf("upstream reads %s as the text %s; we read it as YAML's null, no value. %s", key, diag.Quote(theirs), fixFor(key, "", false))}, true
		}
		k := classify(v, s, theirs, c.rawValue(p))
		return readingDiff{k, v.Pos, scalarMessage(k, key, s, theirs, effect(key, s, theirs), fixFor(key, s, false))}, true
	}
	return readingDiff{}, false
}

// compareEnabled compares what enabled means: our boolean, hookify's
// Python truthiness. yes/no/on/off are enabled-word's.
func compareEnabled(c *fctx, p *parser.Pair, uv *Value) (readingDiff, bool) {
	v := p.Value
	if v.Tag != "!!bool" {
		return readingDiff{}, false // enabled-word or a type error
	}
	ours := strings.EqualFold(v.Str, "true")
	var theirs bool // Python's truthiness
	switch uv.Kind {
	case Bool:
		theirs = uv.Bool
	case Text:
		theirs = uv.Text != ""
	case List:
		theirs = len(uv.Items) > 0
	}
	if ours == theirs {
		return readingDiff{}, false
	}
	text := strings.ToLower(uv.String())
	if uv.Kind == Text {
		text = diag.Quote(uv.Text)
	}
	k := classify(v, v.Str, text, c.rawValue(p))
	what := "disabled"
	if theirs {
		what = "enabled: any non-empty text counts as true there"
	}
	msg := fmt.Sprintf("upstream reads enabled as %s, so the rule is %s; we read %s. ", text, what, v.Str)
	if k == causeComment {
		msg += "Move the comment to a line of its own so both agree"
	} else {
		msg += "Write enabled: " + v.Str + " with nothing after it so both agree"
	}
	return readingDiff{k, v.Pos, msg}, true
}

func compareBool(c *fctx, key string, p *parser.Pair, s string, theirs bool) (readingDiff, bool) {
	v := p.Value
	py := "False"
	if theirs {
		py = "True"
	}
	switch key {
	case "pattern":
		what := "so the rule has no pattern there and never fires"
		if theirs {
			what = "and then crashes on every event it loads the rule for (a boolean is not a regex), losing every rule for that call"
		}
		return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads the pattern as the boolean %s (it converts true and false even in quotes), %s; we read the text %s. No spelling of this value reads as text upstream: write it as %s, which matches the same text", py, what, diag.Quote(s), diag.Quote(bracketFirst(s)))}, true
	case "name":
		if s == py {
			return readingDiff{}, false
		}
		return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads the name as the boolean %s and prefixes its messages with **[%s]**; we use %s", py, py, diag.Quote(s))}, true
	}
	if v.Tag == "!!bool" {
		return readingDiff{}, false // both read a boolean; lowering reports it
	}
	return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads %s as the boolean %s (it converts true and false even in quotes); we read the text %s", key, py, diag.Quote(s))}, true
}

// bracketFirst spells a regex so that its text is not true or false:
// "false" becomes "[f]alse".
func bracketFirst(s string) string {
	if s == "" {
		return s
	}
	return "[" + s[:1] + "]" + s[1:]
}

// classify finds why hookify read a scalar as theirs where YAML read s. raw is
// the value's text on its line.
func classify(v *parser.Value, s, theirs, raw string) cause {
	switch {
	case isBlockIndicator(theirs) && isBlockIndicator(strings.TrimSpace(strings.SplitN(raw, "#", 2)[0])):
		return causeBlock
	case strings.Contains(theirs, "#") && !strings.Contains(s, "#"):
		return causeComment
	case v.Quoted:
		return causeQuotes
	case strings.Trim(s, `"'`) == theirs:
		return causeQuotes
	}
	return causeOther
}

func isBlockIndicator(s string) bool {
	return s != "" && (s[0] == '|' || s[0] == '>') && strings.Trim(s[1:], "+-0123456789") == ""
}

func scalarMessage(k cause, key, s, theirs, effect, fix string) string {
	var why string
	switch k {
	case causeQuotes:
		why = "it strips the quotes but does not process escapes"
		if strings.Contains(theirs, `\\`) {
			why = "it strips the quotes but keeps every backslash: \\\\ stays two backslashes, which a regex reads as one literal backslash"
		}
	case causeComment:
		why = "it keeps the # comment as part of the value"
	case causeBlock:
		why = "it has no block scalars, so the value is the indicator alone and the indented lines are dropped"
	case causeComma:
		why = "it splits a condition's first line at every comma"
	}
	msg := "upstream reads " + key + " as " + diag.Quote(theirs)
	if why != "" {
		msg += " (" + why + ")"
	}
	if effect != "" {
		msg += ", " + effect
	}
	msg += "; we read " + diag.Quote(s) + ". " + fix
	return msg
}

// effect is what hookify's reading of key does, when that is not obvious.
func effect(key, s, theirs string) string {
	switch key {
	case "event":
		if !upstreamEvents[theirs] {
			return "an event it does not know, so it runs the rule only before and after tools other than Bash, Edit, Write and MultiEdit"
		}
	case "action":
		if theirs != "block" && s == "block" {
			return "so it only warns (only exactly block blocks)"
		}
		if theirs == "block" && s != "block" {
			return "so it blocks"
		}
	case "tool_matcher":
		return "and compares tool names with it exactly"
	case "name":
		return "in its message prefix"
	}
	return ""
}

// fixFor says how to spell value s of key so that both parsers read s. An
// item key (inItem) is on a continuation line, where hookify converts no
// booleans.
func fixFor(key, s string, inItem bool) string {
	if strings.ContainsAny(s, "\n\r") {
		return "Write the value on one line so both agree"
	}
	for _, cand := range spellings(s) {
		if readsAs(key, cand, inItem) == s {
			return "Write it as " + key + ": " + cand + " so both read " + diag.Quote(s)
		}
	}
	return "No spelling of this value reads the same in both; change the value"
}

// spellings are the ways to write s, clearest first: plain for simple
// text, else single-quoted (YAML keeps backslashes there), then the rest.
func spellings(s string) []string {
	var out []string
	single := !strings.Contains(s, "'")
	if single && strings.ContainsAny(s, `\:#[]{}*&!|>"%@,`+"`") {
		out = append(out, "'"+s+"'")
		single = false
	}
	out = append(out, s)
	if single {
		out = append(out, "'"+s+"'")
	}
	if !strings.ContainsAny(s, `\"`) {
		out = append(out, `"`+s+`"`)
	}
	return out
}

// readsAs returns the text both parsers read for `key: cand`, or a value
// that differs from every candidate when they disagree.
func readsAs(key, cand string, inItem bool) string {
	const disagree = "\x00"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(key+": "+cand), &doc); err != nil || len(doc.Content) == 0 {
		return disagree
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[1].Kind != yaml.ScalarNode || m.Content[1].ShortTag() != "!!str" {
		return disagree
	}
	y := m.Content[1].Value
	if inItem {
		if strings.Trim(strings.Trim(strings.TrimSpace(cand), `"`), `'`) != y {
			return disagree
		}
	} else if uv, ok := ReadValue(key + ": " + cand); !ok || uv.Kind != Text || uv.Text != y {
		return disagree
	}
	return y
}

// compareConditions compares the conditions list item by item, matching
// items by the line they start on.
func compareConditions(c *fctx, p *parser.Pair, uv *Value) []readingDiff {
	v := p.Value
	var out []readingDiff
	switch uv.Kind {
	case Text:
		if v.Kind == parser.List || v.Kind == parser.Map {
			then := "so the rule has no conditions there and never fires"
			if _, ok := c.f.Field("pattern"); ok {
				then = "so it ignores them and uses the rule's pattern instead"
			}
			out = append(out, readingDiff{causeFlow, v.Pos, fmt.Sprintf("upstream reads conditions as the text %s, not as a list, %s; we read them as YAML. Write one condition per item, each starting with - field: on its own line, so both agree", diag.Quote(uv.Text), then)})
		}
		return out
	case Bool:
		return nil
	}
	if v.Kind == parser.Map {
		if c.refusedAt(v.Pos) {
			out = append(out, readingDiff{causeOther, v.Pos, "upstream ignores the keys of this map (combinator, ...) and reads every nested - field: item as one flat list of conditions that must all hold; we refuse the map. Write conditions as a list of items"})
		}
		return out // else read as upstream reads it: combinator says so
	}
	if v.Kind != parser.List || v.Fallback {
		return nil
	}
	items := uv.Items
	for _, it := range v.Items {
		if it.Kind != parser.Map || it.Fallback {
			continue
		}
		if c.hookify.CutLine > 0 && it.Pos.Line >= c.hookify.CutLine {
			break // upstream-split reports it
		}
		var theirItem *Item // hookify's reading of the item
		for j := range items {
			if items[j].Line == it.Pos.Line-c.upstream.FirstLine+1 {
				theirItem = &items[j]
			}
		}
		if theirItem == nil || theirItem.Map == nil {
			continue
		}
		op := "regex_match"
		if o, ok := it.Get("operator"); ok && o.Value.Kind == parser.Scalar {
			op = o.Value.Str
		}
		for _, key := range []string{"field", "operator", "pattern"} {
			kv, has := it.Get(key)
			if !has || kv.Value.Kind != parser.Scalar || c.hookify.CutLine > 0 && kv.KeyPos.Line >= c.hookify.CutLine {
				continue
			}
			theirs, thas := theirItem.Map[key]
			line := kv.KeyPos.Line - c.upstream.FirstLine + 1
			if !thas {
				out = append(out, droppedKey(c, theirItem, kv, line, op))
				continue
			}
			s := ourText(kv.Value)
			if s == theirs || kv.Value.Fallback {
				continue
			}
			k := classify(kv.Value, s, theirs, c.rawValue(kv))
			if theirItem.Comma && line == theirItem.Line && k != causeQuotes {
				k = causeComma
			}
			fix := fixFor(key, s, true)
			if k == causeComma {
				fix = "Start the condition with a key whose value has no comma (- field: …) and put this key on its own line below it, indented past the dash, so both agree"
			}
			out = append(out, readingDiff{k, kv.Value.Pos, scalarMessage(k, key, s, theirs, "", fix)})
		}
	}
	return out
}

// droppedKey reports a condition key that hookify's parser dropped.
func droppedKey(c *fctx, theirItem *Item, kv *parser.Pair, line int, op string) readingDiff {
	var result string
	switch kv.Key {
	case "field":
		result = "the condition has no field there: it is always false and the rule never fires"
	case "operator":
		result = "the condition uses regex_match there"
	case "pattern":
		holds, _ := HoldsOnEmpty(op, "")
		result = "the condition's pattern is empty there, which never holds"
		if holds {
			result = "the condition's pattern is empty there, which always holds"
		}
	}
	if theirItem.Comma && line != theirItem.Line {
		return readingDiff{causeComma, kv.KeyPos, fmt.Sprintf("upstream drops this line: the condition's first line holds a comma, so hookify reads that line alone as the whole condition, and %s; we read %s: %s. Start the condition with a key whose value has no comma (- field: …) so both agree", result, kv.Key, diag.Quote(ourText(kv.Value)))}
	}
	if c.role(kv.KeyPos.Line) == RoleIgnored {
		return readingDiff{causeIndent, kv.KeyPos, fmt.Sprintf("upstream drops this line: hookify continues a condition only with lines indented by more than 2 characters, and this one is indented by %d, so %s; we read %s: %s. Indent the dash by 2 and the condition's other keys by 4 so both agree", kv.KeyPos.Col-1, result, kv.Key, diag.Quote(ourText(kv.Value)))}
	}
	return readingDiff{causeOther, kv.KeyPos, fmt.Sprintf("upstream does not read this key, so %s; we read %s: %s", result, kv.Key, diag.Quote(ourText(kv.Value)))}
}
