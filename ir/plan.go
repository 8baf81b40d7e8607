package ir

import (
	"slices"
	"strings"
)

// Layout says how hooks are grouped into scripts.
type Layout int

const (
	// PerEvent: one dispatcher script per Cursor event, holding every rule
	// of that event ("hookify-<cursorEvent>").
	PerEvent Layout = iota
	// PerRule: one script per rule ("hookify-<rule-name>"), named as in the
	// conversion sketch this project started from.
	PerRule
)

// WarnMode is where a warn rule about a shell command or an MCP tool
// speaks (--warn; README, "Warnings on shell commands and MCP tools").
type WarnMode int

const (
	// WarnContext (the default): the gate (beforeShellExecution,
	// beforeMCPExecution) allows, and the warning reaches the agent through
	// postToolUse's additional_context for the same call. Cursor 3.9.16 was
	// seen to treat ask as a deny (docs/cursor.md), and upstream's warn never blocks.
	WarnContext WarnMode = iota
	// WarnAsk: the gate answers permission ask with the messages.
	WarnAsk
	// WarnAllow: the gate allows with the messages on its answer only.
	WarnAllow
)

// DefaultLoopLimit is the loop_limit of stop entries.
const DefaultLoopLimit = 5

// RuleCheck is one rule as run on one Cursor event.
type RuleCheck struct {
	Rule  *Rule
	Conds []ResolvedCondition
	// Tools: when the payload names a tool (tool_name), it must be one of
	// these. Empty for events that are not tool events.
	Tools []string
	// Any: when not empty, the conditions of one of these groups must hold
	// as well: the rule's MCP tool patterns, on an MCP event.
	Any [][]ResolvedCondition
}

// AllConds are the conditions of c and of its Any groups.
func (c *RuleCheck) AllConds() []ResolvedCondition {
	return slices.Concat(append([][]ResolvedCondition{c.Conds}, c.Any...)...)
}

// ResolvedCondition is a condition with the payload source of its field.
type ResolvedCondition struct {
	*Condition
	Src Source
}

// Hook is everything hookify runs on one Cursor event within one script.
type Hook struct {
	Event      CursorEvent
	Matcher    string // hooks.json matcher; "" for none
	Checks     []RuleCheck
	FailClosed bool // the hook holds a block rule that can deny
	LoopLimit  int  // stop only
}

// Keys returns the payload keys the hook reads, in first-use order; on an
// MCP event that reads tool_input members, the top-level tool_input last
// (the members may be in its string, docs/mcp.md).
func (h *Hook) Keys() []Key {
	var ks []Key
	add := func(k Key) {
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	for _, c := range h.Checks {
		if len(c.Tools) > 0 {
			add(ToolNameKey)
		}
		for _, cd := range c.AllConds() {
			if cd.Src.Transcript {
				add(TranscriptKey)
			}
			for _, k := range cd.Src.Keys {
				add(k)
			}
		}
	}
	if h.Event.Spec().MCP && slices.ContainsFunc(ks, func(k Key) bool { return k.ToolInput }) {
		add(ToolInputKey)
	}
	return ks
}

// ReadsToolString reports whether h reads the tool's arguments from a
// string tool_input (docs/mcp.md): an MCP hook that reads a tool_input
// member. Text there that is not one JSON object leaves such a hook unable
// to decide (README, "Payload fields").
func (h *Hook) ReadsToolString() bool {
	return h.Event.Spec().MCP && slices.Contains(h.Keys(), ToolInputKey)
}

// ScriptPrefix starts the name of every generated script.
const ScriptPrefix = "hookify-"

// Unit is one generated script and the hooks it serves.
type Unit struct {
	Name    string   // file name without extension: "hookify-beforeShellExecution"
	Sources []string // rule files it was compiled from, sorted
	Hooks   []*Hook  // in CursorEvents order; more than one only in PerRule layout
}

// Dispatches reports whether u's script serves several hooks, and so takes
// the Cursor event name as its first argument (EventArg).
func (u *Unit) Dispatches() bool { return len(u.Hooks) > 1 }

// EventArg is the argument u's script takes to run hook h: the Cursor event
// name when the script dispatches, else "".
func (u *Unit) EventArg(h *Hook) string {
	if u.Dispatches() {
		return h.Event.String()
	}
	return ""
}

// Cursor is the Cursor side of a Program: the scripts (units) and the prompt hooks its rules compile to.
type Cursor struct {
	Units []*Unit
	// Prompts are the prompt-type hooks of Prompt rules, in rule order
	// and, within a rule, in CursorEvents order.
	Prompts []*PromptHook
}

// PromptHook is one Cursor prompt-type entry: a model judges the payload
// of Event against Rule's message.
type PromptHook struct {
	Event   CursorEvent
	Matcher string // hooks.json matcher; "" for none
	Rule    *Rule
}

// promptHooks appends the prompt hooks of a Prompt rule to plan.
func promptHooks(plan *Cursor, r *Rule, warn WarnMode) {
	for _, t := range targets(r, warn) {
		plan.Prompts = append(plan.Prompts, &PromptHook{Event: t.event, Matcher: toolMatcher(t.tools), Rule: r})
	}
}

// toolMatcher is the hooks.json matcher for tools, in the order of the
// rows' Tools in the hookify event table.
func toolMatcher(tools []string) string {
	var ordered []string
	for _, t := range tableTools {
		if slices.Contains(tools, t) {
			ordered = append(ordered, t)
		}
	}
	return strings.Join(ordered, "|")
}

// target is one Cursor event a rule runs on.
type target struct {
	event CursorEvent
	tools []string
	mcp   []MCPTool
}

// Targets returns the Cursor events rule r runs on under --warn mode warn (README, "Event and action mapping"), and the rows
// of the table it cannot be represented in.
func Targets(r *Rule, warn WarnMode) (on []CursorEvent, dropped []CursorEvent) {
	for _, t := range targets(r, warn) {
		on = append(on, t.event)
	}
	return on, droppedEvents(r, warn)
}

func rows(e Event) []Event {
	if e == EventAll {
		return Rows
	}
	return []Event{e}
}

// cursorEvent maps one table row and action to a Cursor event under the
// --warn mode warn; ok is false when Cursor has no channel for it (the
// event's NoChannel), and the event is then the one whose NoChannel says so
// (0 if none does).
func cursorEvent(row Event, a Action, warn WarnMode) (CursorEvent, bool) {
	// A gate whose WarnModes take the rule comes first: beforeMCPExecution
	// follows postToolUse in table order.
	for _, gate := range []bool{true, false} {
		for _, e := range RowEvents(row) {
			if s := e.Spec(); s.Takes(a, warn) && (!gate || s.WarnModes != nil) {
				return e, true
			}
		}
	}
	for _, e := range RowEvents(row) {
		if e.Spec().NoChannel != "" {
			return e, false
		}
	}
	return 0, false
}

// tableTools are the Tools of the hookify event table's rows, in order.
var tableTools = func() []string {
	var out []string
	for _, s := range eventTable {
		out = append(out, s.Tools...)
	}
	return out
}()

// ruleRows are the rows of rule r: those of its event, and, when its event
// is about tools, the MCP row if its tool_matcher names MCP tools and each
// ByToolMatcher row whose tools it names.
func ruleRows(r *Rule) []Event {
	rs := rows(r.Event)
	if r.Event != EventAll && r.Event.Spec().Tools == nil {
		return rs
	}
	rs = slices.Clip(rs)
	if len(r.MCP) > 0 {
		rs = append(rs, EventMCP)
	}
	for e := range eventTable {
		if s := Event(e).Spec(); s.ByToolMatcher && len(intersect(s.Tools, r.Tools)) > 0 {
			rs = append(rs, Event(e))
		}
	}
	return rs
}

func targets(r *Rule, warn WarnMode) []target {
	var out []target
	for _, row := range ruleRows(r) {
		ev, ok := cursorEvent(row, r.Action, warn)
		if !ok {
			continue
		}
		if row.Spec().MCP {
			// No prompt hooks there: with no documented matcher, a model
			// would judge every MCP call (the compiler says so).
			if len(r.MCP) > 0 && !r.Prompt {
				out = append(out, target{event: ev, mcp: r.MCP})
			}
			continue
		}
		tools := row.Spec().Tools
		if r.Tools != nil {
			if tools == nil {
				continue // prompt and stop have no tool
			}
			tools = intersect(tools, r.Tools)
			if len(tools) == 0 {
				continue
			}
		}
		if i := slices.IndexFunc(out, func(t target) bool { return t.event == ev }); i >= 0 {
			// Another row on the same Cursor event (a file write and the
			// Task tool on preToolUse): one check, for the tools of both.
			out[i].tools = append(slices.Clip(out[i].tools), tools...)
			continue
		}
		t := target{event: ev}
		if ev.Spec().Tool {
			t.tools = tools
		}
		out = append(out, t)
	}
	return out
}

// ToolsOn are the tools rule r guards on Cursor event e under --warn mode
// warn, in the order of the hookify event table; nil on an event that is
// not about tools.
func ToolsOn(r *Rule, e CursorEvent, warn WarnMode) []string {
	var tools []string
	for _, t := range targets(r, warn) {
		if t.event == e {
			tools = append(tools, t.tools...)
		}
	}
	return intersect(tableTools, tools)
}

func droppedEvents(r *Rule, warn WarnMode) []CursorEvent {
	var out []CursorEvent
	for _, row := range ruleRows(r) {
		if r.Tools != nil && len(intersect(row.Spec().Tools, r.Tools)) == 0 {
			continue // the tool_matcher names no tool of the row
		}
		if ev, ok := cursorEvent(row, r.Action, warn); !ok && ev != 0 {
			out = append(out, ev)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func check(r *Rule, t target) RuleCheck {
	c := RuleCheck{Rule: r, Tools: t.tools}
	if f := t.event.Spec().FirstOnly; f != nil && (r.Action == Warn || len(r.Conditions) == 0) {
		src, _ := Resolve(t.event, f.Field)
		c.Conds = append(c.Conds, ResolvedCondition{Condition: f, Src: src})
	}
	for i := range r.Conditions {
		src, _ := Resolve(t.event, r.Conditions[i].Field)
		c.Conds = append(c.Conds, ResolvedCondition{Condition: &r.Conditions[i], Src: src})
	}
	for i := range t.mcp {
		c.Any = append(c.Any, t.mcp[i].Conds())
	}
	if g := EventMCP.Spec().Generic; len(t.mcp) > 0 && !t.event.Spec().MCP {
		// postToolUse: only an MCP tool is one of the patterns' tools.
		src, _ := Resolve(t.event, g.Field)
		c.Conds = append([]ResolvedCondition{{Condition: g, Src: src}}, c.Conds...)
	}
	return c
}

// ToCursor maps the rules of p onto Cursor hooks, with the warn rules of
// shell commands and MCP tools where --warn mode warn puts them.
func ToCursor(p *Program, layout Layout, warn WarnMode) *Cursor {
	plan := &Cursor{}
	for _, r := range p.Rules {
		if r.Prompt {
			promptHooks(plan, r, warn)
		}
	}
	if layout == PerRule {
		for _, r := range p.Rules {
			if r.Prompt {
				continue
			}
			u := &Unit{Name: ScriptPrefix + FileName(r.Name), Sources: []string{r.Source}}
			for _, t := range targets(r, warn) {
				h := hookFor(&u.Hooks, t.event)
				h.Checks = append(h.Checks, check(r, t))
			}
			if len(u.Hooks) > 0 {
				finish(u)
				plan.Units = append(plan.Units, u)
			}
		}
		return plan
	}
	byEvent := map[CursorEvent]*Unit{}
	for _, r := range p.Rules {
		if r.Prompt {
			continue
		}
		for _, t := range targets(r, warn) {
			u := byEvent[t.event]
			if u == nil {
				u = &Unit{Name: ScriptPrefix + t.event.String()}
				byEvent[t.event] = u
			}
			h := hookFor(&u.Hooks, t.event)
			h.Checks = append(h.Checks, check(r, t))
			if !slices.Contains(u.Sources, r.Source) {
				u.Sources = append(u.Sources, r.Source)
			}
		}
	}
	for _, e := range CursorEvents {
		if u := byEvent[e]; u != nil {
			finish(u)
			plan.Units = append(plan.Units, u)
		}
	}
	return plan
}

func hookFor(hs *[]*Hook, e CursorEvent) *Hook {
	for _, h := range *hs {
		if h.Event == e {
			return h
		}
	}
	h := &Hook{Event: e}
	*hs = append(*hs, h)
	return h
}

func finish(u *Unit) {
	slices.Sort(u.Sources)
	slices.SortStableFunc(u.Hooks, func(a, b *Hook) int { return int(a.Event) - int(b.Event) })
	for _, h := range u.Hooks {
		var tools []string // only tool events have checks with tools
		mcp := false       // a check of MCP tools on a generic tool event
		for _, c := range h.Checks {
			tools = append(tools, c.Tools...)
			mcp = mcp || len(c.Any) > 0 && !h.Event.Spec().MCP
			if c.Rule.Action == Block && h.Event.Spec().CanDeny {
				h.FailClosed = true
			}
		}
		h.Matcher = toolMatcher(tools)
		if mcp {
			h.Matcher = strings.Trim(h.Matcher+"|"+EventMCP.Spec().Matcher, "|")
		}
		h.LoopLimit = h.Event.Spec().LoopLimit
	}
}

// FileName makes a rule name safe as part of a file name: letters, digits,
// '.', '_' and '-' are kept, every other run of characters becomes one '-',
// and leading dots and dashes are dropped. The result is never empty.
func FileName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimLeft(b.String(), ".-")
	s = strings.TrimRight(s[:min(len(s), 100)], ".-") // cut first, so that it never ends in . or -
	if s == "" {
		s = "rule"
	}
	return s
}
