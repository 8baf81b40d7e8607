package upstream

// The upstream dialect: what people write in real rule files that is not
// hookify's own spelling, and how it is read (docs/semantics.md §10).
// Where upstream runs such a rule anyway and its meaning is evident, it
// compiles as what it means and a fidelity warning says what upstream
// does (`hookify fix` writes the real spelling); otherwise it is an error
// whose hint says what to write instead.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/pyre"
)

// claudeEvents are Claude Code's hook event names, compared in lower
// case, that a rule's event evidently means: UserPromptSubmit and Stop name
// a hookify event, PreToolUse the row of the tools its tool_matcher names
// (0 here). README, "Fidelity with upstream hookify".
var claudeEvents = map[string]ir.Event{
	"pretooluse":       0,
	"userpromptsubmit": ir.EventPrompt,
	"stop":             ir.EventStop,
}

// ClaudeTools maps Claude Code tool names, as tool_matcher names them, to
// the Cursor tools hookify emits.
var ClaudeTools = map[string][]string{
	"Bash":      {"Shell"},
	"Edit":      ir.WriteTools,
	"Write":     ir.WriteTools,
	"MultiEdit": ir.WriteTools,
	"Read":      {"Read"},
	"Task":      {"Task"},
}

// MCPPrefix starts the name of an MCP tool in Claude Code: mcp__server__tool.
const MCPPrefix = "mcp__"

// claudeEventFixes say what to write instead of the Claude Code events
// whose intent is not evident, by their name in lower case.
var claudeEventFixes = map[string]string{
	"posttooluse":  "hookify checks a tool before it runs; for a reminder after a file write write event: file with action: warn (Cursor hands the message to the agent after the write), for shell commands event: bash",
	"sessionstart": "no hookify event runs when a session starts: to check each prompt write event: prompt with conditions on prompt, or keep the text in your project's rules instead",
	"sessionend":   "no hookify event runs when a session ends: for a reminder when the agent stops write event: stop",
	"subagentstop": "hookify has no subagent event: for the main agent write event: stop",
	"notification": "hookify has no notification event",
	"precompact":   "hookify has no compaction event",
}

// ReadEvent reads the value s of event: a hookify event, or a Claude Code
// event name read for its evident intent (PreToolUse by the tools of the
// rule's tool_matcher); else an error whose hint says what to write.
func ReadEvent(f *parser.File, p *parser.Pair, s string, r *ir.Rule, diags *diag.List) {
	if e, ok := ir.ParseEvent(s); ok {
		r.Event = e
		return
	}
	pos := p.Value.Pos
	lower := strings.ToLower(s)
	if e, ok := claudeEvents[lower]; ok {
		if e == 0 {
			e = preToolUseEvent(f, s, r, pos, diags)
		}
		if e != 0 {
			r.Event = e
		}
		return
	}
	if fix, ok := claudeEventFixes[lower]; ok {
		diags.Refuse(pos, diag.ClaudeEvent, fmt.Sprintf("event %s is a Claude Code hook event, which hookify cannot read as one of its events", diag.Quote(s)), fix)
		return
	}
	events := ir.Events
	_, conds := f.Field("conditions")
	_, lone := f.Field("pattern")
	lone = lone && !conds
	// Only the events under which the rule can build: a lone pattern needs
	// a field to test, and a tool_matcher a tool of the event.
	if fit := slices.DeleteFunc(slices.Clone(events), func(e ir.Event) bool { return !fits(r, e, lone) }); len(fit) > 0 {
		events = fit
	}
	hint := "write one of event: " + strings.Join(ir.EventNames(events), ", ")
	switch {
	case slices.ContainsFunc(ir.Events, func(e ir.Event) bool { return strings.EqualFold(e.String(), s) }):
		hint = "write event: " + lower + " (events are lower case)"
	case strings.Contains(lower, "prompt"):
		hint = "write event: prompt"
	case strings.Contains(lower, "tool") && lone:
		hint = "write the event of the tools to guard: event: bash (shell commands), file (file writes) or read (file reads)"
	case strings.Contains(lower, "tool"):
		hint = "write event: all to run on every event, or the event of the tools to guard: bash (shell commands), file (file writes) or read (file reads)"
	}
	diags.Refuse(pos, diag.UnknownEvent, fmt.Sprintf("unknown event %s", diag.Quote(s)), hint)
	diags.Suggest(eventRewrites(f, p, r, lone, hint)...)
}

// eventRewrites are the rewrites of event that hint names ("event: x" and
// the events listed after it), less those under which the rule still
// could not build: a lone pattern needs an event with a field to test.
func eventRewrites(f *parser.File, p *parser.Pair, r *ir.Rule, lone bool, hint string) []diag.Rewrite {
	_, i, ok := strings.Cut(hint, "event: ")
	if !ok {
		return nil
	}
	var out []diag.Rewrite
	for _, e := range ir.Events {
		if strings.Contains(" "+i, " "+e.String()) && fits(r, e, lone) {
			out = append(out, diag.Set(p.KeyPos, "event: "+e.String()))
		}
	}
	return out
}

// fits reports whether rule r, as read so far (its tool_matcher and
// action), can build with event e: a lone pattern needs a field to test,
// and a rule with a tool_matcher a tool of the event.
func fits(r *ir.Rule, e ir.Event, lone bool) bool {
	if _, field := ir.MainField(e); lone && !field {
		return false
	}
	c := *r
	c.Event = e
	on, dropped := ir.Targets(&c, ir.WarnContext) // whether it runs at all does not depend on --warn
	return len(on) > 0 || len(dropped) > 0
}

// preToolUseEvent is the hookify event that Claude Code's PreToolUse means
// for a rule: the row of the tools its tool_matcher names, when they are
// the tools of one row (or only MCP tools and Task, which rules reach by
// tool_matcher: every event, where only those tools match). Else it refuses
// the rule and returns 0.
func preToolUseEvent(f *parser.File, s string, r *ir.Rule, pos diag.Pos, diags *diag.List) ir.Event {
	refuse := func(why string) ir.Event {
		diags.Refuse(pos, diag.ClaudeEvent, fmt.Sprintf("event %s is Claude Code's hook before any tool; %s", diag.Quote(s), why),
			"write the hookify event of the tools to guard: event: bash (shell commands), file (file writes) or read (file reads), and one rule per event")
		return 0
	}
	tm, ok := f.Field("tool_matcher")
	if !ok || r.Tools == nil && len(r.MCP) == 0 {
		return refuse("this rule names no tool (tool_matcher), so it is not evident which hookify event it means")
	}
	if len(r.Tools) == 0 {
		if len(r.MCP) > 0 {
			return ir.EventAll // tool_matcher names MCP tools only: they alone match
		}
		return refuse("its tool_matcher names no tool hookify knows")
	}
	var found []ir.Event
	for _, e := range ir.Rows {
		if tools := e.Spec().Tools; tools != nil && slices.ContainsFunc(r.Tools, func(t string) bool { return slices.Contains(tools, t) }) {
			found = append(found, e)
		}
	}
	if len(found) == 0 {
		return ir.EventAll // only tools of rows that rules reach by tool_matcher (Task, MCP tools): they alone match
	}
	if len(found) != 1 || len(r.MCP) > 0 {
		return refuse(fmt.Sprintf("its tool_matcher %s names the tools of several hookify events", diag.Quote(tm.Value.Str)))
	}
	return found[0]
}

// actionSynonyms are the words that evidently mean warn: upstream reads
// every action but block as warn, and so do we for these.
var actionSynonyms = []string{"ask", "notify", "remind", "warning"}

// actionFixes say what to write instead of actions hookify cannot do.
var actionFixes = map[string]string{
	"deny":           "write action: block (upstream reads deny as warn: write action: warn to keep what upstream does)",
	"approve":        "hookify cannot approve an action, only warn or block: remove the rule, or write action: warn to show the message",
	"allow":          "hookify cannot approve an action, only warn or block: remove the rule, or write action: warn to show the message",
	"addcontext":     "hookify cannot add context by itself: write action: warn; on file writes Cursor hands the message to the agent (additional_context)",
	"inject-context": "hookify cannot add context by itself: write action: warn; on file writes Cursor hands the message to the agent (additional_context)",
}

// ReadAction reads the value s of action.
func ReadAction(p *parser.Pair, s string, r *ir.Rule, diags *diag.List) {
	switch lower := strings.ToLower(s); {
	case s == "warn":
		r.Action = ir.Warn
	case s == "block":
		r.Action = ir.Block
	case slices.Contains(actionSynonyms, lower):
		r.Action = ir.Warn // upstream-action says so
	default:
		hint, ok := actionFixes[lower]
		if !ok {
			hint = "write action: warn or action: block"
			if lower == "warn" || lower == "block" {
				hint = "write action: " + lower + " (upstream compares the action exactly)"
			}
		}
		diags.Refuse(p.Value.Pos, diag.UnknownAction, fmt.Sprintf("unknown action %s", diag.Quote(s)), hint)
		// Each action the hint names, as it names it.
		var rw []diag.Rewrite
		for _, a := range []string{"warn", "block"} {
			if strings.Contains(hint, "action: "+a) {
				rw = append(rw, diag.Set(p.KeyPos, "action: "+a))
			}
		}
		diags.Suggest(rw...)
	}
}

// opSynonyms are the operators that evidently mean one of hookify's.
var opSynonyms = map[string]ir.Op{"regex": ir.RegexMatch}

// ReadOp reads the operator s of a condition; ok is false when it is
// refused.
func ReadOp(op *parser.Pair, s string, diags *diag.List) (ir.Op, bool) {
	if o, ok := ir.ParseOp(s); ok {
		return o, true
	}
	if o, ok := opSynonyms[strings.ToLower(s)]; ok {
		return o, true // upstream-operator says so
	}
	hint := "write one of operator: " + strings.Join(ir.OpNames(), ", ")
	switch strings.ToLower(s) {
	case "not_exists", "exists", "is_empty", "empty":
		hint = "hookify has no test for a missing field (a condition on a missing field is false): to test for an empty value write operator: equals with pattern: ''"
	case "matches", "match", "regexp", "re":
		hint = "write operator: regex_match"
	}
	diags.Refuse(op.Value.Pos, diag.UnknownOperator, fmt.Sprintf("unknown operator %s", diag.Quote(s)), hint)
	if hint == "write operator: regex_match" {
		diags.Suggest(diag.Set(op.KeyPos, "operator: regex_match"))
	}
	return 0, false
}

// CombinatorList reads conditions written as a map {combinator, conditions}
// (a layout some rule packs use): with combinator and, or none, its list is
// the rule's conditions, as upstream reads it too (it flattens the map);
// any other combinator is refused. ok is false when v is no such map.
func CombinatorList(p *parser.Pair, diags *diag.List) (*parser.Pair, bool) {
	v := p.Value
	if v.Kind != parser.Map {
		return nil, false
	}
	inner, ok := v.Get("conditions")
	if !ok {
		return nil, false
	}
	comb := "and"
	if c, ok := v.Get("combinator"); ok && c.Value.Kind == parser.Scalar {
		comb = strings.ToLower(c.Value.Str)
	}
	if comb != "and" && comb != "all" {
		diags.Refuse(v.Pos, diag.Combinator, fmt.Sprintf("conditions is a map with combinator %s, which hookify does not have: every condition of a rule must hold", diag.Quote(comb)),
			"write one rule file per alternative; alternatives on one field can be one regex_match pattern joined with |")
		return nil, true
	}
	diags.Advise(v.Pos, diag.Combinator, "conditions is a map with combinator and: hookify reads its conditions list, which must all hold, as upstream does",
		"write the items directly under conditions:")
	return inner, true
}

// NoEvent refuses a rule that names no event, no pattern and no
// conditions: a prompt hook on every event is never a safe default (it
// costs a model call on every action). The error names the keys it found,
// and the hint the nested keys to move up (rd.Front holds their lines).
func NoEvent(f *parser.File, rd *Reading, r *ir.Rule, diags *diag.List) {
	var keys []string
	for _, p := range f.Fields {
		if !slices.Contains(keys, p.Key) {
			keys = append(keys, p.Key)
		}
	}
	found := "no keys"
	if len(keys) > 0 {
		found = "only " + strings.Join(keys, ", ")
	}
	hint := "write event: (bash, file, read, prompt or stop) and a pattern or conditions at the top level of the front matter; a rule with an event and only a message becomes a prompt hook"
	var rw []diag.Rewrite
	for _, p := range f.Fields {
		if p.Value.Kind != parser.Map || !slices.ContainsFunc(p.Value.Pairs, func(q *parser.Pair) bool {
			return q.Key == "event" || q.Key == "pattern" || q.Key == "conditions"
		}) {
			continue
		}
		hint = fmt.Sprintf("move the keys under %s: to the top level of the front matter, without indent (neither hookify nor upstream reads nested keys)", p.Key)
		if body, ok := nestedLines(rd.Front, p); ok {
			hint += ":\n" + body
			rw = append(rw, diag.Set(p.KeyPos, body))
		}
		break
	}
	diags.Refuse(r.Pos, diag.NoEvent, fmt.Sprintf("rule %s names no event, no pattern and no conditions (its front matter has %s): it says nothing to check", r.Name, found), hint)
	diags.Suggest(rw...)
}

// nestedLines are the source lines of the map under key p, dedented by
// the indent of its first key; up is the front matter from file line 2.
func nestedLines(up *FrontMatter, p *parser.Pair) (string, bool) {
	if up == nil || len(p.Value.Pairs) == 0 {
		return "", false
	}
	first := p.Value.Pairs[0].KeyPos
	indent := first.Col - 1
	var out []string
	for n := first.Line; ; n++ {
		i := n - 2 // up's lines start at file line 2
		if i < 0 || i >= len(up.Src) {
			break
		}
		l := up.Src[i]
		if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) < indent {
			break
		}
		if len(l) >= indent {
			l = l[indent:]
		}
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n "), len(out) > 0
}

// DropInlineIgnoreCase removes each (?i) group that Python 3.11 rejects
// because it is not at the start of the pattern ("global flags not at the
// start"): hookify matches every regex ignoring case, so the group adds
// nothing, as in older Pythons where it applied to the whole pattern. It
// returns the pattern hookify compiles, and whether it differs.
func DropInlineIgnoreCase(pattern string, tr func(string) (string, error)) (string, bool) {
	out := pattern
	for range strings.Count(pattern, "(?i)") {
		_, err := tr(out)
		var pe *pyre.Error
		if !errors.As(err, &pe) || pe.Construct != "syntax error" || pe.Offset == 0 || !strings.HasPrefix(out[pe.Offset:], "(?i)") {
			break
		}
		out = out[:pe.Offset] + out[pe.Offset+len("(?i)"):]
	}
	return out, out != pattern
}
