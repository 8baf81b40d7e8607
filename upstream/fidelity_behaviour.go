package upstream

// Behaviour checks: the same reading runs differently upstream (prompt
// rules that never see the prompt, Write content invisible to new_text,
// rules leaking onto other tools, and so on).

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// upstreamEvents are the events hookify's scripts filter on (docs/semantics.md §3).
var upstreamEvents = map[string]bool{"bash": true, "file": true, "stop": true, "prompt": true, "all": true}

// upEvent is hookify's reading of the event, as Python's str() shows it.
func (c *fctx) upEvent() string {
	if v, ok := c.upstream.Fields["event"]; ok {
		return v.String()
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
	if c.upstream == nil {
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
	if _, claude := claudeEvents[strings.ToLower(ev)]; claude && !c.refusedAt(p.Value.Pos) {
		ours := c.r.Event.String()
		if len(c.r.MCP) > 0 {
			ours = "the MCP tools of its tool_matcher"
		}
		c.warn(p.Value.Pos, "event %s is Claude Code's name: hookify reads it as %s; upstream hookify does not know it and runs the rule only before and after tools other than Bash, Edit, Write and MultiEdit (Read, Glob, Task, MCP tools…). Write event: %s so both agree (hookify fix does it)", diag.Quote(ev), ours, c.r.Event)
		return
	}
	c.warn(p.Value.Pos, "upstream does not know event %s either: it runs the rule only before and after tools other than Bash, Edit, Write and MultiEdit (Read, Glob, Task, MCP tools…), never on shell commands, file edits, prompts or stops", diag.Quote(ev))
}

// refusedAt reports whether lowering refused the value at pos.
func (c *fctx) refusedAt(pos diag.Pos) bool {
	return slices.ContainsFunc(*c.diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Error && d.Pos == pos })
}

func checkAction(c *fctx) {
	p, ok := c.f.Field("action")
	if !ok || p.Value.Kind != parser.Scalar {
		return
	}
	s := ourText(p.Value)
	if s == "warn" || s == "block" || c.upstream == nil {
		return
	}
	if theirs, ok := c.upstream.Text("action"); !ok || theirs != s {
		return
	}
	if c.refusedAt(p.Value.Pos) {
		c.warn(p.Value.Pos, "upstream treats action %s as warn (only exactly block blocks there)", diag.Quote(s))
		return
	}
	c.warn(p.Value.Pos, "action %s is read as warn, as upstream reads every action but exactly block; write action: warn (hookify fix does it)", diag.Quote(s))
}

// upstreamOps are the operators hookify knows (docs/semantics.md §6.2).
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
	if !ok || p.Value.Kind != parser.List || c.upstream == nil {
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
		} else if o, ok := opSynonyms[strings.ToLower(s)]; ok {
			c.warn(op.Value.Pos, "operator %s is read as %s; upstream hookify does not know it, so the condition is always false there and the rule never fires. Write operator: %s so both agree (hookify fix does it)", diag.Quote(s), o, o)
		} else {
			c.warn(op.Value.Pos, "upstream does not know operator %s either: the condition is always false there, so the rule never fires", diag.Quote(s))
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
		holds, _ := HoldsOnEmpty(op, "")
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
			holds, _ := HoldsOnEmpty(cd.Op.String(), cd.Pattern)
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
	if _, conds := c.f.Field("conditions"); !ok || conds || c.upstream == nil {
		return
	}
	if s, ok := c.upstream.Text("pattern"); !ok || s == "" {
		return // upstream has no pattern: a reading difference says so
	}
	switch c.upEvent() {
	case "stop":
		if c.refused {
			c.warn(p.KeyPos, "upstream tests a lone pattern against content, which Claude Code's Stop event never has, so it never fires this rule; we refuse it. Write a condition on transcript (or reason) to say what it should test")
			return
		}
		c.warn(p.KeyPos, "upstream tests a lone pattern against content, which Claude Code's Stop event never has, so it never fires this rule; the pattern matches anything, so Cursor sends the message once, when the agent first stops. No spelling makes upstream fire it once")
	case "all":
		c.warn(p.KeyPos, "upstream tests a lone pattern against content, which only file writes have (Write's content, Edit's new_string), so it fires this rule only on file edits; we refuse it. Write event: bash to test shell commands, or event: file to test file writes as upstream does")
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
		holds, _ := HoldsOnEmpty(cd.Op.String(), cd.Pattern)
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
// each hookify event (docs/semantics.md §6.1): tool-specific fallbacks and tool_input keys.
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
		if upstreamSets(c.r.Event, cd.Field) || cd.Field == lastMessageField && c.r.Event == ir.EventStop {
			continue // upstream-last-message says more
		}
		if (len(c.r.MCP) > 0 && !mcpTopFields[cd.Field] || namesTask(c.r)) && !strings.Contains(cd.Field, ".") {
			continue // upstream reads it from the MCP or Task tool's tool_input
		}
		pos := c.keyValuePos(cd, "field")
		if name, ok := strings.CutPrefix(cd.Field, "tool_input."); ok {
			if c.r.Event != ir.EventFile && len(c.r.MCP) == 0 && !namesTask(c.r) {
				continue // Cursor has no tool_input there either
			}
			c.warn(pos, "upstream has no dotted fields: it never sets %s, so the condition is always false there and the rule never fires; Cursor reads it from the payload. Write field: %s, which upstream looks up in tool_input", cd.Field, name)
		} else {
			c.warn(pos, "upstream never sets field %s on %s events, so the condition is always false there and the rule never fires; Cursor reads it from the payload", cd.Field, c.r.Event)
		}
		return
	}
}

// namesTask reports whether r's tool_matcher names the Task tool.
func namesTask(r *ir.Rule) bool {
	return slices.ContainsFunc(ir.EventTask.Spec().Tools, func(t string) bool { return slices.Contains(r.Tools, t) })
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
			if holds, known := HoldsOnEmpty(cd.Op.String(), cd.Pattern); !holds || !known {
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
		if _, _, whole := strings.Cut(strings.TrimPrefix(m.Pattern, MCPPrefix), "__"); whole && !strings.Contains(m.Pattern, "*") {
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
		if _, mapped := ClaudeTools[name]; mapped || name == "*" || strings.HasPrefix(name, MCPPrefix) {
			c.warn(p.Value.Pos, "upstream compares tool names exactly, without trimming spaces, so %s names no tool there; we read %s. Write the names without spaces around |, so both agree", diag.Quote(piece), name)
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

// lastMessageField is the stop field that Claude Code's Stop input carries
// and upstream hookify never reads.
const lastMessageField = "last_assistant_message"

// checkLastMessage: upstream hookify (anthropics/claude-plugins-official,
// plugins/hookify/core/rule_engine.py at 340e33ae, _extract_field) looks a
// field up in tool_input, which a Stop input does not have, and reads only
// reason, transcript and user_prompt from the input itself: a condition on
// last_assistant_message is None there, so false.
func checkLastMessage(c *fctx) {
	if !c.runs() || c.r.Prompt || c.r.Event != ir.EventStop {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if cd.Field != lastMessageField || c.readsDiffer(cd, "field") {
			continue
		}
		c.warn(c.keyValuePos(cd, "field"), "upstream hookify never reads last_assistant_message: its rule engine looks the field up in tool_input, which Claude Code's Stop input does not have, and takes only reason, transcript and user_prompt from the input itself, so the condition is always false there and the rule never fires (anthropics/claude-plugins-official#1120 asks for it); Claude Code's Stop input does carry the field. Cursor's stop input has no such key: hookify reads the text of the last assistant entry of Cursor's transcript since the user last spoke (\"\" when there is none)")
		return
	}
}

func checkName(c *fctx) {
	if _, ok := c.f.Field("name"); ok || c.upstream == nil || !c.enabled || c.refused {
		return
	}
	if _, ok := c.upstream.Fields["name"]; ok {
		return
	}
	c.warn(c.r.Pos, "upstream calls a rule without name \"unnamed\" in its messages (**[unnamed]**); we name it %s after the file. Add name: %s so both agree", diag.Quote(c.r.Name), c.r.Name)
}

func checkInlineFlag(c *fctx) {
	if c.refused || c.r.Prompt {
		return
	}
	for i := range c.r.Conditions {
		cd := &c.r.Conditions[i]
		if cd.Op.IsRegex() && c.readText(cd, "pattern") != cd.Pattern && strings.Contains(c.readText(cd, "pattern"), "(?i)") {
			c.warn(cd.PatternPos, "upstream's Python (3.11 and later) rejects (?i) anywhere but at the start of a pattern, so the condition never holds there; hookify always ignores case, so it drops the group. Remove (?i) so both agree (hookify fix does it)")
			return
		}
	}
}

// readText is our YAML reading of key in condition cd (or of the rule's
// lone pattern).
func (c *fctx) readText(cd *ir.Condition, key string) string {
	if c.simple(cd) {
		if p, ok := c.f.Field("pattern"); ok {
			return ourText(p.Value)
		}
	}
	if it := c.item(cd); it != nil {
		if p, ok := it.Get(key); ok {
			return ourText(p.Value)
		}
		if p, ok := it.Get("value"); ok && key == "pattern" {
			return ourText(p.Value)
		}
	}
	return cd.Pattern
}
