package compiler

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/pyre"
	"github.com/hookify/hookify/upstream"
)

// knownKeys are the front-matter keys hookify reads; others are warned about.
var knownKeys = map[string]bool{
	"name": true, "enabled": true, "event": true, "pattern": true, "conditions": true,
	"action": true, "tool_matcher": true, "tests": true, "cursor_hook": true,
}

// keyHint names the key of known that p's key misspells (another case, or
// one or two letters off), so that a typo such as "acton: block", which
// turns a block rule into a warn rule, is fixed in one edit; "" when no
// key of known is that close.
func keyHint(p *parser.Pair, known []string) (string, []diag.Rewrite) {
	key := strings.ToLower(p.Key)
	limit := 1
	if len(key) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, k := range known {
		if d := editDistance(key, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	switch {
	case best == "":
		return "", nil
	case p.Value != nil && p.Value.Kind == parser.Scalar && !p.Value.Quoted && p.Value.Str != "" && !strings.ContainsAny(p.Value.Str, "\n#"):
		return "write " + best + ": " + p.Value.Str + " if that is what you meant", []diag.Rewrite{diag.Set(p.KeyPos, best+": "+p.Value.Str)}
	default:
		return "spell the key " + best + " if that is what you meant", nil
	}
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// lower turns a parsed file into a rule. It returns nil when the rule is
// disabled or invalid; the diagnostics say which, and disabled says that
// the rule has enabled: false (its errors are then only warnings).
func lower(f *parser.File, rd *upstream.Reading, tr Translator, warn ir.WarnMode) (r *ir.Rule, diags diag.List, disabled bool) {
	r = &ir.Rule{
		Name:   parser.DefaultName(f.Path),
		Source: f.Path,
		Pos:    diag.Pos{File: f.Path, Line: 1, Col: 1},
		Event:  ir.EventAll,
		Action: ir.Warn,
	}
	seen := map[string]*parser.Pair{}
	for _, p := range f.Fields {
		if prev, ok := seen[p.Key]; ok {
			diags.Warnf(p.KeyPos, diag.DuplicateKey, "%s is set again (first set at line %d); the last value wins", p.Key, prev.KeyPos.Line)
		}
		seen[p.Key] = p
		if !knownKeys[p.Key] {
			hint, rw := keyHint(p, slices.Sorted(maps.Keys(knownKeys)))
			diags.Advise(p.KeyPos, diag.UnknownKey, "unknown key "+p.Key+" is ignored", hint)
			diags.Suggest(rw...)
		}
	}
	upstream.CompatScalars(f, rd, &diags)

	if p, ok := f.Field("name"); ok {
		if s, ok := scalar(p, &diags); ok && s != "" {
			r.Name = s
		}
	}
	if strings.ContainsFunc(r.Name, isControl) {
		diags.Refuse(namePos(f), diag.BadName, "the rule name must not contain control characters", "write the name on one line, with printable characters only")
	}
	enabled, known := true, true // known: enabled is read without error
	if p, ok := f.Field("enabled"); ok {
		n := len(diags)
		enabled = lowerEnabled(p, &diags)
		known = !diags[n:].HasErrors()
	}
	if p, ok := f.Field("action"); ok {
		if s, ok := scalar(p, &diags); ok {
			upstream.ReadAction(p, s, r, &diags)
		}
	}
	if p, ok := f.Field("tool_matcher"); ok {
		r.Tools, r.MCP = lowerToolMatcher(p, tr, &diags)
	}
	ep, hasEvent := f.Field("event")
	badEvent := false // refused: what follows from the event is not said
	if hasEvent {
		n := len(diags)
		if s, ok := scalar(ep, &diags); ok {
			upstream.ReadEvent(f, ep, s, r, &diags) // after tool_matcher: PreToolUse reads it
		}
		badEvent = diags[n:].HasErrors()
	}
	if p, ok := f.Field("cursor_hook"); ok {
		r.Prompt = lowerCursorHook(p, &diags)
	}

	cp, hasConds := f.Field("conditions")
	pp, hasPattern := f.Field("pattern")
	switch {
	case hasConds:
		var up []upstream.Item // hookify's reading of the conditions
		if rd != nil {
			up = rd.Front.Items("conditions")
		}
		if inner, ok := upstream.CombinatorList(cp, &diags); ok {
			if inner == nil {
				break
			}
			cp, up = inner, nil
		}
		r.Conditions = lowerConditions(cp, up, &diags)
		if hasPattern {
			diags.Warnf(pp.KeyPos, diag.PatternIgnored, "pattern is ignored because the rule has conditions")
		}
	case hasPattern:
		s, ok := scalar(pp, &diags)
		if !ok {
			break
		}
		if field, ok := ir.MainField(r.Event); ok {
			r.Conditions = []ir.Condition{{Field: field, Op: ir.RegexMatch, Pattern: s, Pos: pp.KeyPos, PatternPos: pp.Value.Pos}}
			break
		}
		if holds, _ := upstream.HoldsOnEmpty(ir.RegexMatch.String(), s); holds && r.Event.FiresOnce() || badEvent {
			break // matches anything: the rule is unconditional (README, "Stop rules")
		}
		var eventKey diag.Pos // zero: the rule has no event key, so add one
		if hasEvent {
			eventKey = ep.KeyPos
		}
		hint, rewrites := patternFix(r.Event, s, eventKey, pp.KeyPos)
		diags.Refuse(pp.KeyPos, diag.PatternNeedsField,
			fmt.Sprintf("a lone pattern has no field to test on event %s", r.Event), hint)
		diags.Suggest(rewrites...)
	case !hasEvent && !r.Prompt:
		upstream.NoEvent(f, rd, r, &diags)
	default:
		r.Prompt = true // the intent is only in the message: a prompt hook (README, "Prompt hooks")
	}

	for i := range r.Conditions {
		c := &r.Conditions[i]
		if strings.IndexByte(c.Pattern, 0) >= 0 {
			diags.Refuse(c.PatternPos, diag.NUL, "the pattern contains a NUL character", "remove it: no shell string can hold it")
			continue
		}
		if c.Op.IsRegex() && !r.Prompt {
			c.Pattern, _ = upstream.DropInlineIgnoreCase(c.Pattern, tr.ERE) // upstream-inline-flag says so
			ere, words, err := tr(c.Pattern)
			if err != nil {
				diags = append(diags, regexDiags(c.PatternPos, err)...)
				continue
			}
			if err := setRegex(c, ere, words); err != nil {
				diags = append(diags, regexDiags(c.PatternPos, err)...)
				continue
			}
		}
		if c.Op.Spec().Test == ir.TestContains && !r.Prompt {
			c.ERE = pyre.LiteralERE(c.Pattern, false)
		}
	}

	r.Message = f.Body
	r.Plain = plainText(f.Body)
	r.Tests = lowerTests(f, r, warn, &diags)
	upstream.Check(f, rd, r, enabled, warn, &diags)
	if !enabled && known {
		msg := "rule %s is disabled (enabled: false): nothing is generated for it"
		if diags.HasErrors() {
			msg += "; its errors are reported as warnings until it is enabled"
		}
		diags.Warnf(namePos(f), diag.Disabled, msg, r.Name)
		return nil, diags, true
	}
	if diags.HasErrors() {
		return nil, diags, false
	}
	if r.Prompt && len(r.MCP) > 0 {
		diags.Warnf(namePos(f), diag.NoMCPPrompt, "rule %s has no conditions, so it would become a prompt hook, which hookify does not put on MCP tools (beforeMCPExecution has no documented matcher, so a model would judge every MCP call): nothing is generated for its MCP tools. Write conditions on the tool's arguments, by name (field: query)", r.Name)
	}
	on, dropped := ir.Targets(r, warn)
	if r.Action == ir.Warn && !r.Prompt && slices.ContainsFunc(on, func(e ir.CursorEvent) bool { return e.Spec().FirstOnly != nil }) {
		diags.Warnf(actionPos(f, r), diag.StopFollowup, "a stop rule that warns sends its message once, when the agent first stops: Cursor continues the agent with it as the next user message (followup_message); upstream hookify only shows it to the user")
	}
	for _, e := range dropped {
		diags.Warnf(actionPos(f, r), diag.NoChannel, "%s", e.Spec().NoChannel)
	}
	if r.Action == ir.Warn && warn == ir.WarnAsk && !r.Prompt {
		for _, e := range on {
			if e.Spec().WarnModes != nil {
				diags.Warnf(actionPos(f, r), diag.AskDenies, "with --warn ask this warn rule answers permission ask on %s, which Cursor 3.9.16 treats as a deny: the call is blocked, with no question to anyone. Build without --warn ask: the default, --warn context, lets the call run and tells the agent right after it (postToolUse)", e)
			}
		}
	}
	if len(on) == 0 {
		if len(dropped) == 0 && (!r.Prompt || len(r.MCP) == 0) {
			unenforced(f, r, &diags)
		}
		return nil, diags, false
	}
	return r, diags, false
}

// unenforced reports a rule that no Cursor hook can enforce: its
// tool_matcher names no tool of its event that Cursor shows its hooks. It
// is an error for a block rule and a warning for a warn rule (README, "A rule that does not compile"):
// either way nothing is generated for it, and the hint says how to accept
// that for good.
func unenforced(f *parser.File, r *ir.Rule, diags *diag.List) {
	tm := ""
	if p, ok := f.Field("tool_matcher"); ok {
		tm = p.Value.Str
	}
	msg := fmt.Sprintf("rule %s is not enforced: its tool_matcher (%s) names no tool of event %s that a Cursor hook sees, so nothing is generated for it", r.Name, diag.Quote(tm), r.Event)
	hint := "to accept that, write enabled: false; to guard tools that Cursor shows its hooks, name them in tool_matcher (" + strings.Join(slices.Sorted(maps.Keys(upstream.ClaudeTools)), ", ") + " or mcp__<server>__<tool>, joined with |)"
	var off diag.Pos // zero: add enabled: false
	if p, ok := f.Field("enabled"); ok {
		off = p.KeyPos
	}
	if r.Action == ir.Block {
		diags.Refuse(namePos(f), diag.NoTarget, msg+": the block never happens", hint)
	} else {
		diags.Advise(namePos(f), diag.NoTarget, msg, hint)
	}
	diags.Suggest(diag.Set(off, "enabled: false"))
}

// patternFix says what to write instead of a lone pattern on event e,
// which has no main field, and the rewrites it names: on event all, the
// event whose field the pattern was evidently meant for, event: bash (the
// command), or event: file (what is written: all that upstream tests); on
// stop, a condition on the transcript. eventKey is the event key's
// position (zero when the rule has none), patternKey the pattern's.
func patternFix(e ir.Event, pattern string, eventKey, patternKey diag.Pos) (string, []diag.Rewrite) {
	if e == ir.EventAll {
		return "write event: bash to test the command of each shell command, or event: file to test the text that file writes put in (all that upstream tests on event all)",
			[]diag.Rewrite{diag.Set(eventKey, "event: bash"), diag.Set(eventKey, "event: file")}
	}
	yaml := conditionsYAML("transcript", ir.RegexMatch.String(), pattern)
	return "write conditions on the field to test (transcript, the whole conversation so far, the user's words and every earlier turn included; last_assistant_message, the agent's last message alone; or reason) instead of the pattern, for example:\n" + yaml,
		[]diag.Rewrite{diag.Set(patternKey, yaml)}
}

func conditionsYAML(field, op, pattern string) string {
	return fmt.Sprintf("conditions:\n  - field: %s\n    operator: %s\n    pattern: %s", field, op, yamlScalar(pattern))
}

// yamlScalar spells s as a YAML value both readers take as that text: as
// it is when that works, else single-quoted.
func yamlScalar(s string) string {
	if cand, ok := upstream.Spell("pattern", s, true); ok {
		return cand
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func namePos(f *parser.File) diag.Pos {
	if p, ok := f.Field("name"); ok {
		return p.Value.Pos
	}
	return diag.Pos{File: f.Path, Line: 1, Col: 1}
}

func actionPos(f *parser.File, r *ir.Rule) diag.Pos {
	if p, ok := f.Field("action"); ok {
		return p.Value.Pos
	}
	if p, ok := f.Field("event"); ok {
		return p.Value.Pos
	}
	return r.Pos
}

// fallbackText is scalar for a condition value, except that a list or map
// takes hookify's reading (from up, the condition as hookify's line parser
// read it) with a warning.
func fallbackText(p *parser.Pair, up map[string]string, diags *diag.List) (string, bool) {
	if p.Value.Kind != parser.Scalar {
		if s, ok := up[p.Key]; ok {
			diags.Warnf(p.Value.Pos, diag.YAMLFallback, "%s is not text in YAML; it is read as hookify reads it, %q: quote the value", p.Key, s)
			return s, true
		}
	}
	return scalar(p, diags)
}

// scalar returns the text of a scalar value. A list or map where text is
// expected takes hookify's own reading if it has one, with a warning.
func scalar(p *parser.Pair, diags *diag.List) (string, bool) {
	v := p.Value
	if v.Kind == parser.Scalar {
		if v.Tag == "!!null" {
			return "", true
		}
		return v.Str, true
	}
	return "", badType(p, "text", diags)
}

func badType(p *parser.Pair, want string, diags *diag.List) bool {
	diags.Refuse(p.Value.Pos, diag.Type, fmt.Sprintf("%s must be %s", p.Key, want), "quote the value if it is meant as text")
	return false
}

func lowerEnabled(p *parser.Pair, diags *diag.List) bool {
	v := p.Value
	if v.Kind != parser.Scalar {
		badType(p, "true or false", diags)
		return false
	}
	if v.Tag == "!!bool" || v.Fallback {
		switch strings.ToLower(v.Str) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	switch strings.ToLower(v.Str) {
	case "yes", "on":
		diags.Advise(v.Pos, diag.EnabledWord, fmt.Sprintf("enabled: %s is read as true (YAML 1.2 and hookify read it as text)", v.Str), "write enabled: true")
		diags.Suggest(diag.Set(p.KeyPos, "enabled: true"))
		return true
	case "no", "off":
		diags.Advise(v.Pos, diag.EnabledWord, fmt.Sprintf("enabled: %s is read as false (hookify reads any text as enabled)", v.Str), "write enabled: false")
		diags.Suggest(diag.Set(p.KeyPos, "enabled: false"))
		return false
	}
	diags.Refuse(v.Pos, diag.Type, fmt.Sprintf("enabled must be true or false, not %q", v.Str), "write enabled: true or enabled: false")
	diags.Suggest(diag.Set(p.KeyPos, "enabled: true"), diag.Set(p.KeyPos, "enabled: false"))
	return false
}

// lowerCursorHook reads cursor_hook: "prompt" asks for a Cursor prompt
// hook (README, "Prompt hooks"), "command" for the default script.
func lowerCursorHook(p *parser.Pair, diags *diag.List) bool {
	s, ok := scalar(p, diags)
	switch {
	case !ok:
	case s == "prompt":
		return true
	case s != "command":
		diags.Refuse(p.Value.Pos, diag.UnknownCursorHook, fmt.Sprintf("unknown cursor_hook %q", s), "write cursor_hook: prompt (a model judges each event) or cursor_hook: command (the default)")
	}
	return false
}

// toolRows names the hookify events that are about a tool: "bash, file, read".
var toolRows = func() string {
	var names []string
	for _, e := range ir.Rows {
		if e.Spec().Tools != nil {
			names = append(names, e.String())
		}
	}
	return strings.Join(names, ", ")
}()

// lowerToolMatcher reads tool_matcher: the Cursor tools it names (nil for
// none given, or `*`), and its MCP tool patterns (docs/mcp.md).
func lowerToolMatcher(p *parser.Pair, tr Translator, diags *diag.List) ([]string, []ir.MCPTool) {
	s, ok := scalar(p, diags)
	if !ok || s == "" {
		return nil, nil
	}
	tools := []string{}
	var mcp []ir.MCPTool
	for _, name := range strings.Split(s, "|") {
		name = strings.TrimSpace(name)
		if name == "*" {
			return nil, nil
		}
		if strings.HasPrefix(name, upstream.MCPPrefix) {
			m, problem := mcpTool(name, p.Value.Pos, tr)
			if problem != "" {
				diags.Errorf(p.Value.Pos, diag.ToolMatcher, "%s", problem)
				continue
			}
			mcp = append(mcp, m)
			continue
		}
		cursor, ok := upstream.ClaudeTools[name]
		if !ok {
			diags.Warnf(p.Value.Pos, diag.ToolMatcher, "tool_matcher names %q, which no Cursor hook sees (hookify's events: %s, the Task tool, and MCP tools as mcp__<server>__<tool>): the rule does not guard it in Cursor", name, toolRows)
			continue
		}
		for _, t := range cursor {
			if !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
		}
	}
	return tools, mcp
}

func lowerConditions(p *parser.Pair, up []upstream.Item, diags *diag.List) []ir.Condition {
	v := p.Value
	if v.Kind != parser.List {
		diags.Refuse(v.Pos, diag.Type, "conditions must be a list of {field, operator, pattern} items", "write one condition per item, for example:\n"+conditionsYAML("command", "regex_match", "rm -rf"))
		return nil
	}
	if len(v.Items) == 0 {
		diags.Refuse(v.Pos, diag.EmptyConditions, "conditions is empty, so the rule can never match", "write at least one condition, or a pattern instead; enabled: false turns a rule off")
		return nil
	}
	var out []ir.Condition
	for i, it := range v.Items {
		var upItem map[string]string // hookify's reading of the item
		if i < len(up) && len(up) == len(v.Items) {
			upItem = up[i].Map
		}
		if it.Kind != parser.Map {
			diags.Refuse(it.Pos, diag.Type, "a condition must be a map with field, operator and pattern", "write it as - field: …, with operator: and pattern: on the lines below, indented past the dash")
			continue
		}
		c := ir.Condition{Op: ir.RegexMatch, Pos: it.Pos, PatternPos: it.Pos}
		ok := true
		for _, kv := range it.Pairs {
			switch kv.Key {
			case "field", "operator", "pattern", "value":
			default:
				hint, rw := keyHint(kv, []string{"field", "operator", "pattern", "value"})
				diags.Advise(kv.KeyPos, diag.UnknownKey, "unknown condition key "+kv.Key+" is ignored", hint)
				diags.Suggest(rw...)
			}
		}
		if fp, found := it.Get("field"); found {
			if s, good := scalar(fp, diags); good {
				c.Field = s
				if !parser.FieldName.MatchString(s) {
					diags.Refuse(fp.Value.Pos, diag.BadField, fmt.Sprintf("field %q is not a payload key name (letters, digits and _, optionally after tool_input.)", s), "write a field such as command, file_path, new_text, content, prompt, transcript or tool_input.<key>")
					ok = false
				}
			} else {
				ok = false
			}
		} else {
			diags.Refuse(it.Pos, diag.NoField, "the condition has no field", "add field: with the value to test (command, file_path, new_text, content, prompt, transcript, …)")
			ok = false
		}
		if op, found := it.Get("operator"); found {
			if s, good := scalar(op, diags); good {
				o, known := upstream.ReadOp(op, s, diags)
				ok = ok && known
				c.Op = o
			} else {
				ok = false
			}
		}
		pat, hasPat := it.Get("pattern")
		if val, hasVal := it.Get("value"); hasVal {
			if hasPat {
				diags.Warnf(val.KeyPos, diag.ValueIgnored, "value is ignored because the condition has a pattern")
			} else {
				pat, hasPat = val, true
			}
		}
		if hasPat {
			if s, good := fallbackText(pat, upItem, diags); good {
				c.Pattern = s
				c.PatternPos = pat.Value.Pos
			} else {
				ok = false
			}
		} else {
			diags.Refuse(it.Pos, diag.NoPattern, "the condition has no pattern", "add pattern: with the text or regex to test")
			ok = false
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
