package compiler

// Fidelity: every place where upstream hookify would read or run a rule
// differently from what we compile gets a warning (docs/semantics.md §1). The checks
// live in one table, fidelityChecks; lowering runs them on every rule file.
//
// Two kinds of difference are reported:
//
//   - reading: hookify's own line parser (parser.ReadHookify, a port of
//     docs/semantics.md §4) reads a value differently from our YAML
//     reading. The two readings are compared field by field; each
//     difference is reported once, by the check of its cause.
//   - behaviour: the same reading runs differently (docs/semantics.md
//     §3, §5–§7, §9): prompt rules that never see the prompt, Write content
//     invisible to new_text, rules leaking onto other tools, and so on.
//
// Each warning is at the field that causes it, its code is the check's
// code, and it says what upstream does, what we do, and how to make both
// agree where that is possible.

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// fidelityCheck is one way upstream hookify reads or runs a rule
// differently.
type fidelityCheck struct {
	code  diag.Code
	doc   string // the quirk, and where docs/semantics.md describes it
	check func(c *fctx)
}

// fidelityChecks is the table of every fidelity check, in report order.
var fidelityChecks = []fidelityCheck{
	// Reading: the front matter as hookify's line parser reads it (§4).
	{diag.UpstreamSkipped, "hookify skips a file whose text does not start with --- (a UTF-8 BOM is enough), §4 splitting 1, and never loads one not named hookify.*.local.md, §2", checkSkipped},
	{diag.UpstreamSplit, "hookify ends the front matter at the first --- anywhere, even inside a value (pattern: ^---$), §4 splitting 2", checkSplit},
	{diag.UpstreamQuotes, "hookify strips quotes without processing escapes, so quoted backslashes stay doubled (q06), §4", readingCheck(causeQuotes)},
	{diag.UpstreamComment, "hookify keeps a trailing # comment in the value (q08: event: bash # c, enabled: false # c), §4", readingCheck(causeComment)},
	{diag.UpstreamBlockScalar, "hookify has no block scalars: pattern: | is the pattern \"|\" (q05), §4", readingCheck(causeBlock)},
	{diag.UpstreamIndent, "hookify drops indented top-level keys and condition lines indented by 2 or fewer characters (q04), §4", readingCheck(causeIndent)},
	{diag.UpstreamComma, "hookify splits a condition's dash line at every comma and drops the lines after it (q03), §4", readingCheck(causeComma)},
	{diag.UpstreamBool, "hookify turns true/false into booleans even in quotes: pattern: true crashes, pattern: \"false\" is no pattern (q01, q02), §4", readingCheck(causeBool)},
	{diag.UpstreamFlow, "hookify reads flow collections (conditions: [...]) as text, §4", readingCheck(causeFlow)},
	{diag.UpstreamEmpty, "hookify reads an empty value as an empty list: no pattern, name [] (q10), §4", readingCheck(causeEmpty)},
	{diag.UpstreamReading, "any other difference between hookify's reading and ours (nested conditions flattened, ~, message white space), §4", readingCheck(causeOther)},
	// Behaviour: the same reading runs differently.
	{diag.UpstreamEvent, "hookify does not know the event (read is a fork event): it runs the rule only on tools other than Bash, Edit, Write, MultiEdit, §3", checkEvent},
	{diag.UpstreamAction, "hookify treats every action but exactly block as warn, §5", checkAction},
	{diag.UpstreamOperator, "hookify treats unknown operators (not_regex_match is a fork operator) as always false, §6.2", checkOperator},
	{diag.UpstreamValueKey, "hookify ignores a condition's value key (a fork alias) and tests an empty pattern, §5", checkValueKey},
	{diag.UpstreamNoConditions, "hookify never fires a rule without conditions; we emit a prompt hook, §5 and SPEC §6", checkNoConditions},
	{diag.UpstreamPromptField, "hookify's prompt rules read user_prompt (always empty; Claude Code sends prompt), and a lone pattern tests content (quirk 2), §6.1", checkPromptField},
	{diag.UpstreamPatternField, "a lone pattern on stop or all tests content, which Stop never has (§6.1)", checkPatternField},
	{diag.UpstreamWriteContent, "hookify reads new_text as empty for Write, so Write content is invisible (quirk 1), §6.1", checkWriteContent},
	{diag.UpstreamField, "a field hookify never sets on the rule's events (tool_input.x, tool_name, cwd, status) makes its condition always false, §6.1", checkField},
	{diag.UpstreamOtherTools, "hookify also runs stop, file and prompt rules on every tool but Bash, Edit, Write, MultiEdit (quirk 4), §3", checkOtherTools},
	{diag.UpstreamPromptBlock, "block on a prompt rule only shows the message upstream (quirk 3), §7", checkPromptBlock},
	{diag.UpstreamToolMatcher, "hookify compares tool_matcher names exactly, without trimming spaces, §5", checkToolMatcher},
	{diag.UpstreamTranscript, "transcript is Claude Code's raw JSONL upstream; Cursor's transcript differs, §6.1 and §14.5", checkTranscript},
	{diag.UpstreamName, "hookify names a rule without name \"unnamed\" in its messages (q10), §5", checkName},
}

// IsFidelity reports whether code is the code of a fidelity check.
func IsFidelity(code diag.Code) bool {
	return slices.ContainsFunc(fidelityChecks, func(c fidelityCheck) bool { return c.code == code })
}

// fctx is what a check sees.
type fctx struct {
	f       *parser.File
	r       *ir.Rule // as lowered; partial when refused
	enabled bool     // our reading of enabled
	refused bool     // lowering found errors
	hk      *parser.Hookify
	up      *parser.Upstream // nil when hookify skips the file
	diffs   []readingDiff
	on      []ir.CursorEvent // the Cursor events we generate the rule on
	code    diag.Code
	diags   *diag.List
}

func (c *fctx) warn(pos diag.Pos, format string, args ...any) {
	c.diags.Warnf(pos, c.code, format, args...)
}

// loaded reports whether both sides load the rule: it compiles and is
// enabled, and hookify loads the file.
func (c *fctx) loaded() bool { return !c.refused && c.enabled && c.up != nil }

// runs reports whether behaviour checks apply: both load the rule, and we
// generate it on at least one Cursor event.
func (c *fctx) runs() bool { return c.loaded() && len(c.on) > 0 }

// runsOn reports whether we generate the rule on one of events.
func (c *fctx) runsOn(events ...ir.CursorEvent) bool {
	return slices.ContainsFunc(c.on, func(e ir.CursorEvent) bool { return slices.Contains(events, e) })
}

// checkFidelity runs every fidelity check on one rule file. r is the rule
// as lowered so far; enabled is our reading of its enabled key.
func checkFidelity(f *parser.File, r *ir.Rule, enabled bool, diags *diag.List) {
	if f.Hookify == nil {
		return
	}
	c := &fctx{f: f, r: r, enabled: enabled, refused: diags.HasErrors(), hk: f.Hookify, up: f.Hookify.Upstream, diags: diags}
	if c.up != nil {
		c.diffs = compareReadings(c)
	}
	if !c.refused {
		c.on, _ = ir.Targets(r)
	}
	for _, fc := range fidelityChecks {
		c.code = fc.code
		fc.check(c)
	}
}

// compatScalars gives hookify's reading, with a warning, to a top-level
// value that YAML reads as a list or map where hookify reads text
// (pattern: [abc], name: [x], tool_matcher: [Bash]; docs/semantics.md §10). The readings
// then agree. event and action keep their type error: no list is one.
func compatScalars(f *parser.File, diags *diag.List) {
	if f.Upstream == nil {
		return
	}
	for _, key := range []string{"name", "pattern", "tool_matcher"} {
		p, ok := f.Field(key)
		if !ok || p.Value.Kind == parser.Scalar {
			continue
		}
		s, ok := f.Upstream.Values[key].(string)
		if !ok || f.Upstream.Lines[key]+1 != p.KeyPos.Line {
			continue
		}
		diags.Warnf(p.Value.Pos, diag.YAMLFallback, "%s is not text in YAML; it is read as hookify reads it, %q: quote the value", key, s)
		p.Value = &parser.Value{Kind: parser.Scalar, Str: s, Pos: p.Value.Pos, Fallback: true}
	}
}

// ---- Reading differences ----

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
		tv, theirs := c.up.Values[key]
		if ours && c.hk.CutLine > 0 && p.KeyPos.Line >= c.hk.CutLine {
			continue // upstream-split reports it
		}
		switch {
		case ours && !theirs:
			if c.role(p.KeyPos.Line) == parser.RoleIgnored && p.KeyPos.Col > 1 {
				add(causeIndent, p.KeyPos, "upstream ignores %s: hookify reads only keys that start at column 1, and this line is indented; we read it as YAML. Start the line at column 1 (and the keys around it too) so that both read it", key)
			}
		case ours && theirs:
			if key == "conditions" {
				out = append(out, compareConditions(c, p, tv)...)
				continue
			}
			if d, ok := compareScalar(c, key, p, tv); ok {
				out = append(out, d)
			}
		}
	}
	if c.hk.CutLine == 0 && c.hk.Body != c.f.Body {
		add(causeOther, c.f.BodyPos, "upstream's message is %s; ours is %s (hookify strips Unicode white space around it, we strip only ASCII white space). Remove the white space around the message so both agree", quoteShort(c.hk.Body), quoteShort(c.f.Body))
	}
	return out
}

// role is what hookify's parser did with file line n.
func (c *fctx) role(n int) parser.Role {
	i := n - c.up.FirstLine
	if i < 0 || i >= len(c.up.Roles) {
		return parser.RoleSkipped
	}
	return c.up.Roles[i]
}

// line is the text of file line n.
func (c *fctx) line(n int) string {
	i := n - c.up.FirstLine
	if i < 0 || i >= len(c.up.Src) {
		return ""
	}
	return c.up.Src[i]
}

// rawValue is the text after the key's colon on the key's line.
func (c *fctx) rawValue(p *parser.Pair) string {
	l := c.line(p.KeyPos.Line)
	if i := strings.Index(l, p.Key+":"); i >= 0 {
		return strings.TrimSpace(l[i+len(p.Key)+1:])
	}
	return ""
}

// ourText is our reading of a scalar as text ("" for null).
func ourText(v *parser.Value) string {
	if v.Tag == "!!null" {
		return ""
	}
	return v.Str
}

func compareScalar(c *fctx, key string, p *parser.Pair, tv any) (readingDiff, bool) {
	v := p.Value
	if v.Kind != parser.Scalar || v.Fallback {
		return readingDiff{}, false // a type error, or hookify's reading already
	}
	s := ourText(v)
	if key == "enabled" {
		return compareEnabled(c, p, tv)
	}
	switch tv := tv.(type) {
	case []any:
		if v.Tag != "!!null" || len(tv) > 0 {
			return readingDiff{}, false
		}
		switch key {
		case "name":
			return readingDiff{causeEmpty, v.Pos, fmt.Sprintf("upstream reads the empty name as an empty list and prefixes its messages with **[[]]**; we name the rule %s. Write the name so both agree", quoteShort(c.r.Name))}, true
		case "pattern":
			return readingDiff{causeEmpty, p.KeyPos, "upstream reads the empty pattern as an empty list, so the rule has no condition there and never fires; we read an empty pattern, which matches everything. Write the pattern, or remove the key, so both agree"}, true
		}
		return readingDiff{}, false
	case bool:
		return compareBool(c, key, p, s, tv)
	case string:
		if s == tv {
			return readingDiff{}, false
		}
		if v.Tag == "!!null" && tv == strings.TrimSpace(c.rawValue(p)) {
			return readingDiff{causeOther, v.Pos, fmt.Sprintf("upstream reads %s as the text %s; we read it as YAML's null, no value. %s", key, quoteShort(tv), fixFor(key, "", false))}, true
		}
		k := classify(v, s, tv, c.rawValue(p))
		return readingDiff{k, v.Pos, scalarMessage(k, key, s, tv, effect(key, s, tv), fixFor(key, s, false))}, true
	}
	return readingDiff{}, false
}

// compareEnabled compares what enabled means: our boolean, hookify's
// Python truthiness. yes/no/on/off are enabled-word's.
func compareEnabled(c *fctx, p *parser.Pair, tv any) (readingDiff, bool) {
	v := p.Value
	if v.Tag != "!!bool" {
		return readingDiff{}, false // enabled-word or a type error
	}
	ours := strings.EqualFold(v.Str, "true")
	var theirs bool
	switch tv := tv.(type) {
	case bool:
		theirs = tv
	case string:
		theirs = tv != ""
	case []any:
		theirs = len(tv) > 0
	}
	if ours == theirs {
		return readingDiff{}, false
	}
	text := fmt.Sprint(tv)
	if s, ok := tv.(string); ok {
		text = quoteShort(s)
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

func compareBool(c *fctx, key string, p *parser.Pair, s string, tv bool) (readingDiff, bool) {
	v := p.Value
	py := "False"
	if tv {
		py = "True"
	}
	switch key {
	case "pattern":
		what := "so the rule has no pattern there and never fires"
		if tv {
			what = "and then crashes on every event it loads the rule for (a boolean is not a regex), losing every rule for that call"
		}
		return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads the pattern as the boolean %s (it converts true and false even in quotes), %s; we read the text %s. No spelling of this value reads as text upstream: write it as %s, which matches the same text", py, what, quoteShort(s), quoteShort(bracketFirst(s)))}, true
	case "name":
		if s == py {
			return readingDiff{}, false
		}
		return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads the name as the boolean %s and prefixes its messages with **[%s]**; we use %s", py, py, quoteShort(s))}, true
	}
	if v.Tag == "!!bool" {
		return readingDiff{}, false // both read a boolean; lowering reports it
	}
	return readingDiff{causeBool, v.Pos, fmt.Sprintf("upstream reads %s as the boolean %s (it converts true and false even in quotes); we read the text %s", key, py, quoteShort(s))}, true
}

// bracketFirst spells a regex so that its text is not true or false:
// "false" becomes "[f]alse".
func bracketFirst(s string) string {
	if s == "" {
		return s
	}
	return "[" + s[:1] + "]" + s[1:]
}

// classify finds why hookify read a scalar as tv where YAML read s. raw is
// the value's text on its line.
func classify(v *parser.Value, s, tv, raw string) cause {
	switch {
	case isBlockIndicator(tv) && isBlockIndicator(strings.TrimSpace(strings.SplitN(raw, "#", 2)[0])):
		return causeBlock
	case strings.Contains(tv, "#") && !strings.Contains(s, "#"):
		return causeComment
	case v.Quoted:
		return causeQuotes
	case strings.Trim(s, `"'`) == tv:
		return causeQuotes
	}
	return causeOther
}

func isBlockIndicator(s string) bool {
	return s != "" && (s[0] == '|' || s[0] == '>') && strings.Trim(s[1:], "+-0123456789") == ""
}

func scalarMessage(k cause, key, s, tv, effect, fix string) string {
	var why string
	switch k {
	case causeQuotes:
		why = "it strips the quotes but does not process escapes"
		if strings.Contains(tv, `\\`) {
			why = "it strips the quotes but keeps every backslash: \\\\ stays two backslashes, which a regex reads as one literal backslash"
		}
	case causeComment:
		why = "it keeps the # comment as part of the value"
	case causeBlock:
		why = "it has no block scalars, so the value is the indicator alone and the indented lines are dropped"
	case causeComma:
		why = "it splits a condition's first line at every comma"
	}
	msg := "upstream reads " + key + " as " + quoteShort(tv)
	if why != "" {
		msg += " (" + why + ")"
	}
	if effect != "" {
		msg += ", " + effect
	}
	msg += "; we read " + quoteShort(s) + ". " + fix
	return msg
}

// effect is what hookify's reading of key does, when that is not obvious.
func effect(key, s, tv string) string {
	switch key {
	case "event":
		if !upstreamEvents[tv] {
			return "an event it does not know, so it runs the rule only before and after tools other than Bash, Edit, Write and MultiEdit"
		}
	case "action":
		if tv != "block" && s == "block" {
			return "so it only warns (only exactly block blocks)"
		}
		if tv == "block" && s != "block" {
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
			return "Write it as " + key + ": " + cand + " so both read " + quoteShort(s)
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
	var h any
	if inItem {
		h = strings.Trim(strings.Trim(strings.TrimSpace(cand), `"`), `'`)
	} else {
		h, _ = parser.ReadUpstreamValue(key + ": " + cand)
	}
	if hs, ok := h.(string); !ok || hs != y {
		return disagree
	}
	return y
}

// quoteShort shows a value in a message: in backquotes, as written
// (backslashes are not escaped), or Go-quoted when it holds a backquote or
// a control character. Long values are cut.
func quoteShort(s string) string {
	if len(s) > 80 {
		i := 77
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "..."
	}
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r == '`' || r < 0x20 || r == 0x7f }) {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}

// compareConditions compares the conditions list item by item, matching
// items by the line they start on.
func compareConditions(c *fctx, p *parser.Pair, tv any) []readingDiff {
	v := p.Value
	var out []readingDiff
	switch tv := tv.(type) {
	case string:
		if v.Kind == parser.List || v.Kind == parser.Map {
			then := "so the rule has no conditions there and never fires"
			if _, ok := c.f.Field("pattern"); ok {
				then = "so it ignores them and uses the rule's pattern instead"
			}
			out = append(out, readingDiff{causeFlow, v.Pos, fmt.Sprintf("upstream reads conditions as the text %s, not as a list, %s; we read them as YAML. Write one condition per item, each starting with - field: on its own line, so both agree", quoteShort(tv), then)})
		}
		return out
	}
	list, ok := tv.([]any)
	if !ok {
		return nil
	}
	if v.Kind == parser.Map {
		out = append(out, readingDiff{causeOther, v.Pos, "upstream ignores the keys of this map (combinator, ...) and reads every nested - field: item as one flat list of conditions that must all hold; we refuse the map. Write conditions as a list of items"})
		return out
	}
	if v.Kind != parser.List || v.Fallback {
		return nil
	}
	items := c.up.Items["conditions"]
	for _, it := range v.Items {
		if it.Kind != parser.Map || it.Fallback {
			continue
		}
		if c.hk.CutLine > 0 && it.Pos.Line >= c.hk.CutLine {
			break // upstream-split reports it
		}
		var ui *parser.UpItem
		var tm map[string]string
		for j := range items {
			if items[j].Line == it.Pos.Line-c.up.FirstLine+1 {
				ui = &items[j]
				if j < len(list) {
					tm, _ = list[j].(map[string]string)
				}
			}
		}
		if ui == nil || tm == nil {
			continue
		}
		op := "regex_match"
		if o, ok := it.Get("operator"); ok && o.Value.Kind == parser.Scalar {
			op = o.Value.Str
		}
		for _, key := range []string{"field", "operator", "pattern"} {
			kv, has := it.Get(key)
			if !has || kv.Value.Kind != parser.Scalar || c.hk.CutLine > 0 && kv.KeyPos.Line >= c.hk.CutLine {
				continue
			}
			theirs, thas := tm[key]
			line := kv.KeyPos.Line - c.up.FirstLine + 1
			if !thas {
				out = append(out, droppedKey(c, ui, kv, line, op))
				continue
			}
			s := ourText(kv.Value)
			if s == theirs || kv.Value.Fallback {
				continue
			}
			k := classify(kv.Value, s, theirs, c.rawValue(kv))
			if ui.Comma && line == ui.Line && k != causeQuotes {
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
func droppedKey(c *fctx, ui *parser.UpItem, kv *parser.Pair, line int, op string) readingDiff {
	var result string
	switch kv.Key {
	case "field":
		result = "the condition has no field there: it is always false and the rule never fires"
	case "operator":
		result = "the condition uses regex_match there"
	case "pattern":
		holds, _ := opOnEmpty(op, "")
		result = "the condition's pattern is empty there, which never holds"
		if holds {
			result = "the condition's pattern is empty there, which always holds"
		}
	}
	if ui.Comma && line != ui.Line {
		return readingDiff{causeComma, kv.KeyPos, fmt.Sprintf("upstream drops this line: the condition's first line holds a comma, so hookify reads that line alone as the whole condition, and %s; we read %s: %s. Start the condition with a key whose value has no comma (- field: …) so both agree", result, kv.Key, quoteShort(ourText(kv.Value)))}
	}
	if c.role(kv.KeyPos.Line) == parser.RoleIgnored {
		return readingDiff{causeIndent, kv.KeyPos, fmt.Sprintf("upstream drops this line: hookify continues a condition only with lines indented by more than 2 characters, and this one is indented by %d, so %s; we read %s: %s. Indent the dash by 2 and the condition's other keys by 4 so both agree", kv.KeyPos.Col-1, result, kv.Key, quoteShort(ourText(kv.Value)))}
	}
	return readingDiff{causeOther, kv.KeyPos, fmt.Sprintf("upstream does not read this key, so %s; we read %s: %s", result, kv.Key, quoteShort(ourText(kv.Value)))}
}

// ---- Whole-file checks ----

func checkSkipped(c *fctx) {
	if ok, _ := path.Match("hookify.*.local.md", path.Base(c.f.Path)); !ok {
		c.warn(diag.Pos{File: c.f.Path, Line: 1, Col: 1}, "upstream never loads this file: it reads only .claude/hookify.*.local.md, and this name does not match; we read it because it was named. Rename it to hookify.%s.local.md so both read it", DefaultName(c.f.Path))
		return
	}
	if c.hk.Skipped == "" {
		return
	}
	c.warn(diag.Pos{File: c.f.Path, Line: 1, Col: 1}, "upstream skips this file (%s), so none of its rule runs there; we read it. Save the file without a byte order mark so both read it", c.hk.Skipped)
}

func checkSplit(c *fctx) {
	if c.up == nil || c.hk.CutLine == 0 {
		return
	}
	var lost []string
	for _, p := range c.f.Fields {
		if p.KeyPos.Line > c.hk.CutLine && !slices.Contains(lost, p.Key) {
			lost = append(lost, p.Key)
		}
	}
	what := "it takes the rest of the front matter as the message"
	if key, val := cutValue(c); key != "" {
		what = fmt.Sprintf("it reads %s as %s and takes the rest of the front matter as the message", key, quoteShort(val))
	}
	if len(lost) > 0 {
		what += " (so it loses " + strings.Join(lost, ", ") + ")"
	}
	c.warn(diag.Pos{File: c.f.Path, Line: c.hk.CutLine, Col: c.hk.CutCol}, "upstream ends the front matter at this --- (hookify splits the file at the first --- anywhere, not only on a line of its own): %s; we read the whole front matter. Avoid --- inside values (in a regex, write -{3}) so both agree", what)
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
	if i := c.hk.CutLine - 1; i >= 0 && i < len(c.up.Src) {
		line = c.up.Src[i]
	}
	var cands []cand
	add := func(k, v string) {
		at := -1 // an empty key is found anywhere: rank it last
		if k != "" {
			at = strings.LastIndex(line, k+":")
		}
		cands = append(cands, cand{k, v, at})
	}
	for k, l := range c.up.Lines {
		if l == c.hk.CutLine {
			if s, ok := c.up.Values[k].(string); ok {
				add(k, s)
			}
		}
	}
	for k, items := range c.up.Items {
		list, _ := c.up.Values[k].([]any)
		for i, it := range items {
			m, ok := list[i].(map[string]string)
			for ik, l := range it.KeyLines {
				if ok && l == c.hk.CutLine {
					add(ik, m[ik])
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

// ---- Behaviour checks ----

// upstreamEvents are the events hookify's scripts filter on (§3).
var upstreamEvents = map[string]bool{"bash": true, "file": true, "stop": true, "prompt": true, "all": true}

// upEvent is hookify's reading of the event, as Python's str() shows it.
func (c *fctx) upEvent() string {
	switch v := c.up.Values["event"].(type) {
	case string:
		return v
	case bool:
		if v {
			return "True"
		}
		return "False"
	case []any:
		return "[]"
	}
	return "all"
}

// fieldPos is where a condition's field is written.
func (c *fctx) item(cd *ir.Condition) *parser.Value {
	if p, ok := c.f.Field("conditions"); ok && p.Value.Kind == parser.List {
		for _, it := range p.Value.Items {
			if it.Pos == cd.Pos {
				return it
			}
		}
	}
	return nil
}

func (c *fctx) keyValuePos(cd *ir.Condition, key string) diag.Pos {
	if it := c.item(cd); it != nil {
		if p, ok := it.Get(key); ok {
			return p.Value.Pos
		}
	}
	return cd.Pos
}

// readsDiffer reports whether hookify reads the given keys of condition cd
// (all of them when none are given) differently from us; behaviour checks
// then leave that condition to the reading difference.
func (c *fctx) readsDiffer(cd *ir.Condition, keys ...string) bool {
	lines := map[int]bool{cd.Pos.Line: true}
	if it := c.item(cd); it != nil {
		lines = map[int]bool{}
		for _, p := range it.Pairs {
			if len(keys) == 0 || slices.Contains(keys, p.Key) || p.Key == "value" && slices.Contains(keys, "pattern") {
				lines[p.KeyPos.Line] = true
				lines[p.Value.Pos.Line] = true
			}
		}
	}
	return slices.ContainsFunc(c.diffs, func(d readingDiff) bool { return lines[d.pos.Line] })
}

// simple reports whether cd is the rule's lone pattern.
func (c *fctx) simple(cd *ir.Condition) bool {
	p, ok := c.f.Field("pattern")
	_, conds := c.f.Field("conditions")
	return ok && !conds && cd.Pos == p.KeyPos
}

func (c *fctx) valuePos(key string) diag.Pos {
	if p, ok := c.f.Field(key); ok {
		return p.Value.Pos
	}
	return c.r.Pos
}

func checkEvent(c *fctx) {
	if c.up == nil {
		return
	}
	ev := c.upEvent()
	p, ok := c.f.Field("event")
	if upstreamEvents[ev] || !ok || p.Value.Kind != parser.Scalar || ourText(p.Value) != ev {
		return // known, or a reading difference that says so
	}
	if _, ours := ir.ParseEvent(ev); ours {
		c.warn(p.Value.Pos, "event %s comes from the hookify-plus fork: upstream hookify does not know it and runs the rule before and after every tool other than Bash, Edit, Write and MultiEdit (Read, but also Glob, Grep, Task, WebFetch, MCP tools…); Cursor runs it only before a file is read (beforeReadFile)", ev)
		return
	}
	c.warn(p.Value.Pos, "upstream does not know event %s either: it runs the rule only before and after tools other than Bash, Edit, Write and MultiEdit (Read, Glob, Task, MCP tools…), never on shell commands, file edits, prompts or stops", quoteShort(ev))
}

func checkAction(c *fctx) {
	p, ok := c.f.Field("action")
	if !ok || p.Value.Kind != parser.Scalar {
		return
	}
	s := ourText(p.Value)
	if s == "warn" || s == "block" || c.up == nil || c.up.Values["action"] != s {
		return
	}
	c.warn(p.Value.Pos, "upstream treats action %s as warn (only exactly block blocks there); write warn or block", quoteShort(s))
}

// upstreamOps are the operators hookify knows (§6.2).
var upstreamOps = func() map[string]bool {
	m := map[string]bool{}
	for _, o := range ir.Ops {
		if o.Spec().Upstream {
			m[o.String()] = true
		}
	}
	return m
}()

func checkOperator(c *fctx) {
	p, ok := c.f.Field("conditions")
	if !ok || p.Value.Kind != parser.List || c.up == nil {
		return
	}
	for _, it := range p.Value.Items {
		if it.Kind != parser.Map {
			continue
		}
		op, ok := it.Get("operator")
		if !ok || op.Value.Kind != parser.Scalar || upstreamOps[op.Value.Str] {
			continue
		}
		s := op.Value.Str
		if _, ours := ir.ParseOp(s); ours {
			c.warn(op.Value.Pos, "operator %s comes from the hookify-plus fork: upstream hookify does not know it, so the condition is always false there and the rule never fires; Cursor tests it", s)
		} else {
			c.warn(op.Value.Pos, "upstream does not know operator %s either: the condition is always false there, so the rule never fires", quoteShort(s))
		}
		return
	}
}

func checkValueKey(c *fctx) {
	p, ok := c.f.Field("conditions")
	if !ok || p.Value.Kind != parser.List {
		return
	}
	for _, it := range p.Value.Items {
		if it.Kind != parser.Map {
			continue
		}
		val, hasVal := it.Get("value")
		if _, hasPat := it.Get("pattern"); !hasVal || hasPat {
			continue
		}
		op := "regex_match"
		if o, ok := it.Get("operator"); ok && o.Value.Kind == parser.Scalar {
			op = o.Value.Str
		}
		holds, _ := opOnEmpty(op, "")
		what := "never holds"
		if holds {
			what = "always holds"
		}
		c.warn(val.KeyPos, "upstream ignores value (an alias of pattern from the hookify-plus fork) and tests an empty pattern, which %s; we use value as the pattern. Rename value to pattern so both agree", what)
		return
	}
}

func checkNoConditions(c *fctx) {
	if !c.runs() || !c.r.Prompt {
		return
	}
	if len(c.r.Conditions) == 0 {
		c.warn(c.valuePos("name"), "upstream never fires a rule without pattern or conditions (it has nothing to match); Cursor gets a prompt hook that asks a model to judge each event against the message. Add conditions for a deterministic check, or build with --no-prompt-hooks to leave it out")
		return
	}
	c.warn(c.valuePos("cursor_hook"), "upstream ignores cursor_hook and tests the conditions itself; Cursor gets a prompt hook that asks a model to judge each event against the message and conditions")
}

// onPrompt reports whether we run the rule on prompts.
func (c *fctx) onPrompt() bool { return c.runsOn(ir.BeforeSubmitPrompt) }

func checkPromptField(c *fctx) {
	if !c.runs() || c.r.Prompt || !c.onPrompt() {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if c.readsDiffer(cd) {
			continue
		}
		switch {
		case c.simple(cd) && c.r.Event == ir.EventPrompt:
			c.warn(cd.Pos, "upstream never fires this prompt rule: it tests a lone pattern against content, which a prompt never has; Cursor tests the prompt. No spelling makes upstream see the prompt (the hookify-plus fork fixes it)")
		case cd.Field == "user_prompt":
			holds, _ := opOnEmpty(cd.Op.String(), cd.Pattern)
			pos := c.keyValuePos(cd, "field")
			if holds {
				c.warn(pos, "upstream reads user_prompt, which Claude Code never sends (the prompt is in prompt), so the value is always empty and this condition always holds there; Cursor tests the prompt. No spelling makes upstream see the prompt (the hookify-plus fork fixes it)")
			} else {
				c.warn(pos, "upstream never fires this prompt rule: it reads user_prompt, which Claude Code never sends (the prompt is in prompt), so the value is always empty; Cursor tests the prompt. No spelling makes upstream see the prompt (the hookify-plus fork fixes it)")
			}
		case cd.Field == "prompt":
			c.warn(c.keyValuePos(cd, "field"), "upstream never fires this condition on a prompt: it has no field prompt there (only a tool input of that name), so the condition is always false; Cursor tests the prompt")
		default:
			continue
		}
		return
	}
}

func checkPatternField(c *fctx) {
	p, ok := c.f.Field("pattern")
	if _, conds := c.f.Field("conditions"); !ok || conds || c.up == nil {
		return
	}
	if s, ok := c.up.Values["pattern"].(string); !ok || s == "" {
		return // upstream has no pattern: a reading difference says so
	}
	switch c.upEvent() {
	case "stop":
		c.warn(p.KeyPos, "upstream tests a lone pattern against content, which Claude Code's Stop event never has, so it never fires this rule; we refuse it. Write a condition on transcript (or reason) to say what it should test")
	case "all":
		c.warn(p.KeyPos, "upstream tests a lone pattern against content, which only file writes have (Write's content, Edit's new_string), so it fires this rule only on file edits; we refuse it. Write event: file, or conditions with the fields to test")
	}
}

func checkWriteContent(c *fctx) {
	if !c.runs() || c.r.Prompt || !c.runsOn(ir.PreToolUse, ir.PostToolUse) {
		return
	}
	if c.r.Tools != nil && !slices.Contains(c.r.Tools, "Write") {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if c.readsDiffer(cd) {
			continue
		}
		if cd.Field != "new_text" && cd.Field != "new_string" {
			continue
		}
		holds, _ := opOnEmpty(cd.Op.String(), cd.Pattern)
		what := "so it never checks what Write writes"
		if holds {
			what = "so this condition always holds on Write there"
		}
		if c.simple(cd) {
			c.warn(cd.Pos, "upstream tests a lone file pattern against new_text, which it reads as empty for Write (it only knows Edit's new_string), %s; Cursor checks every write, Write's content too. Write it as a condition on field content, which both read from every write tool", what)
		} else {
			c.warn(c.keyValuePos(cd, "field"), "upstream reads %s as empty for Write (it only knows Edit's new_string), %s; Cursor checks every write, Write's content too. Use field content, which both read from every write tool", cd.Field, what)
		}
		return
	}
}

// upstreamFields are the fields hookify sets on the Claude Code events of
// each hookify event (§6.1): tool-specific fallbacks and tool_input keys.
// transcript, reason and user_prompt are set on every event.
var upstreamFields = map[ir.Event][]string{
	ir.EventBash: {"command", "description", "timeout", "run_in_background"},
	ir.EventFile: {"file_path", "new_text", "new_string", "old_text", "old_string", "content", "edits", "replace_all"},
}

func upstreamSets(e ir.Event, field string) bool {
	switch field {
	case "transcript", "reason", "user_prompt":
		return true
	}
	for _, row := range []ir.Event{ir.EventBash, ir.EventFile} {
		if (e == row || e == ir.EventAll) && slices.Contains(upstreamFields[row], field) {
			return true
		}
	}
	return false
}

func checkField(c *fctx) {
	if !c.runs() || c.r.Prompt || c.r.Event == ir.EventRead || !upstreamEvents[c.upEvent()] {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if c.readsDiffer(cd, "field") {
			continue
		}
		if cd.Field == "prompt" && c.onPrompt() {
			continue // upstream-prompt-field
		}
		if upstreamSets(c.r.Event, cd.Field) {
			continue
		}
		if len(c.r.MCP) > 0 && !strings.Contains(cd.Field, ".") && !mcpTopFields[cd.Field] {
			continue // upstream reads it from the MCP tool's tool_input
		}
		pos := c.keyValuePos(cd, "field")
		if name, ok := strings.CutPrefix(cd.Field, "tool_input."); ok {
			if c.r.Event != ir.EventFile && len(c.r.MCP) == 0 {
				continue // Cursor has no tool_input there either
			}
			c.warn(pos, "upstream has no dotted fields: it never sets %s, so the condition is always false there and the rule never fires; Cursor reads it from the payload. Write field: %s, which upstream looks up in tool_input", cd.Field, name)
		} else {
			c.warn(pos, "upstream never sets field %s on %s events, so the condition is always false there and the rule never fires; Cursor reads it from the payload", cd.Field, c.r.Event)
		}
		return
	}
}

// mcpTopFields are the fields of an MCP call that Cursor sends beside the
// tool's arguments, and upstream never sets.
var mcpTopFields = map[string]bool{"tool_name": true, "mcp_server_name": true, "mcp_server_url": true}

func checkOtherTools(c *fctx) {
	if !c.loaded() || c.r.Prompt || len(c.r.Conditions) == 0 || c.r.Tools != nil {
		return
	}
	// Does every condition resolve, and can it hold, on a tool call that
	// is not Bash, Edit, Write or MultiEdit?
	for i, cd := range c.r.Conditions {
		if c.readsDiffer(&c.r.Conditions[i]) {
			return
		}
		switch cd.Field {
		case "transcript":
		case "reason", "user_prompt":
			if holds, known := opOnEmpty(cd.Op.String(), cd.Pattern); !holds || !known {
				return
			}
		case "file_path":
			if c.r.Event != ir.EventFile {
				return
			}
		default:
			return
		}
	}
	pos := c.valuePos("event")
	switch c.r.Event {
	case ir.EventStop:
		ours := "Cursor runs it only when the agent stops"
		if len(c.on) == 0 {
			ours = "Cursor does not run it at all"
		}
		c.warn(pos, "upstream also runs this stop rule before and after every tool call other than Bash, Edit, Write and MultiEdit (Read, Glob, Task, WebFetch, MCP tools…), where its fields are set too, so it can %s those calls; %s. Nothing in the rule can change this upstream bug", verb(c.r.Action), ours)
	case ir.EventFile:
		c.warn(pos, "upstream also runs this file rule before and after Read (and any other tool whose input has a file_path), so it also %s when such a file is read; Cursor runs it only on writes. To guard reads in Cursor too, add a copy of the rule with event: read and action: block", verbs(c.r.Action))
	case ir.EventPrompt:
		c.warn(pos, "upstream also runs this prompt rule before and after every tool call other than Bash, Edit, Write and MultiEdit, where user_prompt is empty too and its conditions hold, so it fires on Read, Glob, Task… calls; Cursor runs it only on prompts. Nothing in the rule can change this upstream bug")
	}
}

func verb(a ir.Action) string {
	if a == ir.Block {
		return "deny"
	}
	return "warn on"
}

func verbs(a ir.Action) string {
	if a == ir.Block {
		return "denies"
	}
	return "warns"
}

func checkPromptBlock(c *fctx) {
	if !c.runs() || c.r.Action != ir.Block || !c.onPrompt() || c.r.Tools != nil {
		return
	}
	c.warn(c.valuePos("action"), "upstream does not block prompts: a block rule only shows its message there and the prompt goes through; Cursor refuses the prompt (continue: false). Use action: warn to only show the message, as upstream does")
}

func checkToolMatcher(c *fctx) {
	p, ok := c.f.Field("tool_matcher")
	if !c.runs() || !ok || p.Value.Kind != parser.Scalar {
		return
	}
	for _, m := range c.r.MCP {
		if _, _, whole := strings.Cut(strings.TrimPrefix(m.Pattern, mcpPrefix), "__"); whole && !strings.Contains(m.Pattern, "*") {
			continue
		}
		c.warn(p.Value.Pos, "upstream compares tool names exactly, so %s names no tool there (Claude Code names an MCP tool in full, mcp__<server>__<tool>); we read * as any run of characters and a name without a tool as every tool of the server. Upstream needs every tool written out, joined with |", m.Pattern)
		return
	}
	for _, piece := range strings.Split(p.Value.Str, "|") {
		name := strings.TrimSpace(piece)
		if piece == name {
			continue
		}
		if _, mapped := claudeTools[name]; mapped || name == "*" || strings.HasPrefix(name, mcpPrefix) {
			c.warn(p.Value.Pos, "upstream compares tool names exactly, without trimming spaces, so %s names no tool there; we read %s. Write the names without spaces around |, so both agree", quoteShort(piece), name)
			return
		}
	}
}

// transcriptJSON: a pattern with quotes targets the JSON of Claude Code's
// transcript lines.
var transcriptJSON = regexp.MustCompile(`"|\\"`)

func checkTranscript(c *fctx) {
	if !c.runs() || c.r.Prompt {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if c.readsDiffer(cd, "field", "pattern") {
			continue
		}
		if cd.Field == "transcript" && transcriptJSON.MatchString(cd.Pattern) {
			c.warn(cd.PatternPos, "upstream matches this against Claude Code's raw transcript (JSON lines); Cursor's transcript file has another format, so a pattern on JSON quotes and key names may never match there. Match the words of the conversation instead")
			return
		}
	}
}

func checkName(c *fctx) {
	if _, ok := c.f.Field("name"); ok || c.up == nil || !c.enabled || c.refused {
		return
	}
	if _, ok := c.up.Values["name"]; ok {
		return
	}
	c.warn(c.r.Pos, "upstream calls a rule without name \"unnamed\" in its messages (**[unnamed]**); we name it %s after the file. Add name: %s so both agree", quoteShort(c.r.Name), c.r.Name)
}

// opOnEmpty reports whether operator op with pattern holds on an empty
// value; known is false for a regex that Go cannot compile.
func opOnEmpty(op, pattern string) (holds, known bool) {
	o, ok := ir.ParseOp(op)
	switch {
	case !ok:
		return false, true
	case o.IsRegex():
		re, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			return false, false
		}
		return re.MatchString("") != o.Spec().Negated, true
	}
	return o.HoldsPlain("", pattern), true
}
