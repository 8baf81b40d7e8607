package ir

import (
	"slices"
	"strings"
)

// Event is a hookify rule event (`event:` in a rule file): an index into
// the hookify event table.
type Event int

const (
	EventBash Event = iota + 1
	EventFile
	EventRead
	EventPrompt
	EventStop
	EventAll
	// EventMCP is the row of MCP tools (docs/mcp.md). Rules do not name it:
	// a rule of event all, bash, file or read whose tool_matcher names MCP
	// tools (mcp__server__tool) runs here for those tools.
	EventMCP
	// EventTask is the row of Cursor's Task tool (a subagent): a row that
	// rules reach only through their tool_matcher (ByToolMatcher).
	EventTask
)

// RowSpec is one row of the hookify event table.
type RowSpec struct {
	Name string // as rules spell it
	// MainField is the field that the rule's `pattern` shorthand tests;
	// "" when a lone pattern has no field on this event.
	MainField string
	// Tools are the Cursor tools of the row, which a rule's tool_matcher
	// narrows; nil for a row that is not about a tool.
	Tools []string
	// MCP: the row of MCP tools, which rules cannot name as their event;
	// only rules whose tool_matcher names MCP tools run on it (Rule.MCP).
	MCP bool
	// ByToolMatcher: rules do not name the row as their event; a rule of
	// event all, or of a row with Tools, runs on it when its tool_matcher
	// names one of the row's Tools (README, "tool_matcher").
	ByToolMatcher bool
	// Matcher is the hooks.json matcher of the row's tools on a generic
	// tool event (postToolUse), where the rules pick their tools by
	// pattern (MCP tools, named MCP:<tool> there; docs/mcp.md), and
	// Generic the condition that tells them from the event's other tools.
	Matcher string
	Generic *Condition
}

// eventTable is the hookify event table. Which Cursor events a row's rules
// run on is said by the Cursor event table (EventSpec.Row); `all` runs on
// every row that has a Cursor event.
var eventTable = [...]RowSpec{
	EventBash:   {Name: "bash", MainField: "command", Tools: []string{"Shell"}},
	EventFile:   {Name: "file", MainField: "new_text", Tools: WriteTools},
	EventRead:   {Name: "read", MainField: "file_path", Tools: []string{"Read"}},
	EventPrompt: {Name: "prompt", MainField: "user_prompt"},
	EventStop:   {Name: "stop"},
	EventAll:    {Name: "all"},
	EventMCP:    {Name: "mcp", MCP: true, Matcher: "MCP:.*", Generic: &Condition{Field: "tool_name", Op: StartsWith, Pattern: "MCP:"}},
	EventTask:   {Name: "task", Tools: []string{"Task"}, ByToolMatcher: true},
}

// Events lists every hookify event that rules can name, in table order, all
// included.
var Events = rowsOf[Event](eventTable[:], func(s RowSpec) string {
	if s.MCP || s.ByToolMatcher {
		return ""
	}
	return s.Name
})

// Spec returns e's row of the hookify event table.
func (e Event) Spec() *RowSpec {
	if e <= 0 || int(e) >= len(eventTable) {
		return &RowSpec{}
	}
	return &eventTable[e]
}

func (e Event) String() string { return e.Spec().Name }

// ParseEvent returns the Event spelled s.
func ParseEvent(s string) (Event, bool) { return parse(Events, s) }

// Rows are the hookify events that have a Cursor event, in table order:
// the rows `all` stands for, and the events a test or fixture may name.
var Rows = func() []Event {
	var out []Event
	for _, e := range Events {
		if len(RowEvents(e)) > 0 {
			out = append(out, e)
		}
	}
	return out
}()

// EventNames lists the names of es.
func EventNames(es []Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.String())
	}
	return out
}

// FiresOnce reports whether every Cursor event of row e fires a rule
// without conditions only once (FirstOnly): there a rule without
// conditions is a reminder, not a prompt hook, and a lone pattern that
// matches the empty string makes it one (README, "Stop rules").
func (e Event) FiresOnce() bool {
	evs := RowEvents(e)
	return len(evs) > 0 && !slices.ContainsFunc(evs, func(ce CursorEvent) bool { return ce.Spec().FirstOnly == nil })
}

// MainField is the field that a rule's `pattern` shorthand tests.
func MainField(e Event) (string, bool) {
	f := e.Spec().MainField
	return f, f != ""
}

// CursorEvent is a Cursor hook event (a key of hooks.json's "hooks"): an
// index into the Cursor event table.
type CursorEvent int

const (
	BeforeShellExecution CursorEvent = iota + 1
	PreToolUse
	PostToolUse
	BeforeReadFile
	BeforeSubmitPrompt
	Stop
	BeforeMCPExecution
)

// EventSpec is one row of the Cursor event table: everything the planner,
// the compiler, the evaluator, both backends, the prompt hooks and explain
// know about a Cursor event (docs/architecture.md).
type EventSpec struct {
	Name string // the hooks.json key
	// Rows are the hookify events whose rules run here, and Actions the
	// actions of those rules that run here; WarnModes, when set, the
	// --warn modes under which warn rules run here (a rule goes to the
	// event of its row with WarnModes that takes it, else to the first
	// event of its row that takes it, in table order).
	Rows      []Event
	Actions   []Action
	WarnModes []WarnMode
	// NoChannel is the warning for a rule of Rows whose action no Cursor
	// event of Row takes: nothing is generated for it there.
	NoChannel string
	// Tool: the payload names its tool (tool_name) and carries tool_input;
	// the hooks.json entry has the row's tools as its matcher, and the
	// script re-checks the tool.
	Tool bool
	// MCP: the tools are MCP tools, which the checks pick by the rules'
	// mcp__ patterns (RuleCheck.Any); tool_input may be a string holding the
	// arguments as JSON, whose members are then the tool_input fields
	// (docs/mcp.md).
	MCP bool
	// CanDeny: a block answer stops the action, so a hook with a block rule
	// denies a payload it cannot read (failClosed).
	CanDeny bool
	// Fields are the documented rule fields and where their values come
	// from. Any other field is read from the payload key of its name (under
	// tool_input on a tool event).
	Fields map[string]Source
	// The answers when no rule matched (Allow), when only warn rules did
	// (Warn; WarnAllow instead under --warn allow, when set), and when a
	// block rule did (Block).
	Allow, Warn, Block Answer
	WarnAllow          *Answer
	LoopLimit          int // the entry's loop_limit; 0 for none
	// FirstOnly, when set, holds only on the first call of a loop: a rule
	// that warns, or has no condition of its own, gets it as an extra
	// condition, so that it fires once (a reminder; repeating it only
	// wastes the agent's turns). README, "Stop rules".
	FirstOnly *Condition
	// Sentence describes the event to the model of a prompt hook.
	// PromptIntro and PromptWhat, when set, replace the words that say
	// what the rule asks for and when to answer ok: false.
	Sentence                string
	PromptIntro, PromptWhat string
	// Caveats are what Cursor itself may do differently from what a rule
	// running here says (explain prints them): the first that applies.
	Caveats []Caveat
}

// Takes reports whether rules of action a run on the event under --warn
// mode warn.
func (s *EventSpec) Takes(a Action, warn WarnMode) bool {
	return slices.Contains(s.Actions, a) && (a != Warn || s.WarnModes == nil || slices.Contains(s.WarnModes, warn))
}

// Caveat is a note of explain about an event, for the rules it applies to.
type Caveat struct {
	Action     Action     // only rules of this action; 0 for any
	Warn       []WarnMode // only under these --warn modes; nil for any
	ScriptOnly bool       // only for rules without a prompt hook
	Text       string
}

// The answer fields.
var (
	userField  = Field{Key: "user_message", Kind: UserText}
	agentField = Field{Key: "agent_message", Kind: AgentText}
)

func litField(k, v string) Field       { return Field{Key: k, Kind: Lit, Lit: v} }
func boolField(k string, v bool) Field { return Field{Key: k, Kind: Bool, Bool: v} }

func answer(exit int, fs ...Field) Answer { return Answer{Fields: fs, Exit: exit} }

// fileFields are the fields of a file write (the file row of the README's
// "Event and action mapping"). edits[].new_string and edits[].old_string
// are MultiEdit's edits joined by a space (README, "Payload fields").
var fileFields = map[string]Source{
	"file_path":  {Keys: tool("file_path", "path")},
	"new_text":   {Keys: tool("new_string", "content", "contents", "edits[].new_string"), HasDefault: true},
	"new_string": {Keys: tool("new_string", "content", "contents", "edits[].new_string"), HasDefault: true},
	"old_text":   {Keys: tool("old_string", "edits[].old_string"), HasDefault: true},
	"old_string": {Keys: tool("old_string", "edits[].old_string"), HasDefault: true},
	"content":    {Keys: tool("content", "contents", "new_string", "edits[].new_string"), HasDefault: true},
	"tool_name":  {Keys: []Key{ToolNameKey}},
}

var (
	allowAnswer = answer(0, litField("permission", "allow"))
	// A block exits 0 with the deny on stdout: with exit 2 and a body,
	// Cursor 3.9.16 hands the raw JSON to the model as the reason
	// (docs/cursor.md). user_message is what the model reads; agent_message, never
	// seen reaching it, repeats the message as the docs promise it.
	denyAnswer = answer(0, litField("permission", "deny"), userField, agentField)
	// askAnswer and warnAllowAnswer are a warning on a gate under --warn
	// ask and --warn allow. Cursor 3.9.16 treats ask on
	// beforeShellExecution as a deny.
	askAnswer       = answer(0, litField("permission", "ask"), userField, agentField)
	warnAllowAnswer = answer(0, litField("permission", "allow"), userField, agentField)
)

// cursorTable is the Cursor event table. Adding a Cursor event is one row
// here (and a constant above); docs/architecture.md lists the tests.
var cursorTable = [...]EventSpec{
	BeforeShellExecution: {
		Name: "beforeShellExecution", Rows: []Event{EventBash}, Actions: []Action{Block, Warn}, WarnModes: gateWarn, CanDeny: true,
		Fields: map[string]Source{"command": {Keys: top("command")}, "cwd": {Keys: top("cwd")}},
		Allow:  allowAnswer, Block: denyAnswer, Warn: askAnswer, WarnAllow: &warnAllowAnswer,
		Sentence: "The agent is about to run a shell command (`command`, run in `cwd`).",
		Caveats: []Caveat{
			{Action: Warn, Warn: []WarnMode{WarnAsk}, ScriptOnly: true, Text: askCaveat},
			{Action: Warn, Warn: []WarnMode{WarnAllow}, ScriptOnly: true, Text: "with --warn allow the command runs and the agent is not told: Cursor does not pass the messages of an allow to the model (the default, --warn context, tells it after the command ran)"},
		},
	},
	PreToolUse: {
		Name: "preToolUse", Rows: []Event{EventFile, EventTask}, Actions: []Action{Block}, Tool: true, CanDeny: true,
		Fields: fileFields,
		Allow:  allowAnswer, Warn: allowAnswer, Block: denyAnswer,
		Sentence: "The agent is about to use the tool `tool_name` with the input in `tool_input`: a file write's file and new text, or the Task tool's `prompt`, `description` and `subagent_type`.",
	},
	PostToolUse: {
		Name: "postToolUse", Rows: []Event{EventFile, EventTask, EventBash, EventMCP}, Actions: []Action{Warn}, Tool: true,
		Fields:   fileFields,
		Warn:     answer(0, Field{Key: "additional_context", Kind: AgentText}),
		Block:    answer(0, Field{Key: "additional_context", Kind: AgentText}),
		Sentence: "The agent has just used the tool `tool_name` with the input in `tool_input`: a file write's file and new text, a shell command's `command`, an MCP tool's arguments, or the Task tool's `prompt`, `description` and `subagent_type`.",
		Caveats:  []Caveat{{Text: "a warning reaches the agent after the tool ran (the write, the shell command, the MCP tool, or the Task tool's subagent), as additional_context; nothing is blocked. A call that fails gets postToolUseFailure instead, which takes no answer, so its warning is not delivered"}},
	},
	BeforeReadFile: {
		Name: "beforeReadFile", Rows: []Event{EventRead}, Actions: []Action{Block}, CanDeny: true,
		NoChannel: "a read rule that warns has no Cursor channel (beforeReadFile can only allow or deny): nothing is generated for it on read",
		Fields:    map[string]Source{"file_path": {Keys: top("file_path")}, "content": {Keys: top("content")}},
		Allow:     allowAnswer, Warn: allowAnswer,
		Block:    answer(0, litField("permission", "deny"), userField),
		Sentence: "The agent is about to read the file `file_path` (its text is in `content`).",
		Caveats:  []Caveat{{Text: "beforeReadFile answers carry no agent message: only the user sees why the read was denied"}},
	},
	BeforeSubmitPrompt: {
		Name: "beforeSubmitPrompt", Rows: []Event{EventPrompt}, Actions: []Action{Block, Warn}, CanDeny: true,
		Fields: map[string]Source{
			"user_prompt": {Keys: top("prompt", "prompt_text"), HasDefault: true},
			"prompt":      {Keys: top("prompt", "prompt_text"), HasDefault: true},
		},
		Allow:    answer(0, boolField("continue", true)),
		Warn:     answer(0, boolField("continue", true), userField),
		Block:    answer(0, boolField("continue", false), userField),
		Sentence: "The user is about to send the prompt in `prompt` to the agent.",
		Caveats: []Caveat{
			{Action: Block, Text: "Cursor builds up to 2.3 were reported not to enforce continue: false on prompts"},
			{Text: "on prompts the message goes to the user only: Cursor cannot give it to the agent there"},
		},
	},
	Stop: {
		Name: "stop", Rows: []Event{EventStop}, Actions: []Action{Block, Warn},
		Fields: map[string]Source{
			"transcript": {Transcript: true},
			"reason":     {Keys: top("reason"), HasDefault: true},
			"status":     {Keys: top("status")},
			"loop_count": {Keys: top("loop_count"), HasDefault: true},

			// The text of the transcript's last assistant entry: Claude
			// Code's Stop input names it last_assistant_message; Cursor's
			// has no such key (README, "Payload fields").
			"last_assistant_message": {Transcript: true, LastAssistant: true},
		},
		Warn:        answer(0, Field{Key: "followup_message", Kind: AgentText}),
		Block:       answer(0, Field{Key: "followup_message", Kind: AgentText}),
		LoopLimit:   DefaultLoopLimit,
		FirstOnly:   firstLoop,
		Sentence:    "The agent is about to end its turn (`status`); answering ok: false sends it the reason so that it carries on.",
		PromptIntro: "asks for this before the agent stops", PromptWhat: "shows that this has not been done",
		Caveats: []Caveat{
			{Action: Warn, ScriptOnly: true, Text: "Cursor continues the agent with the message as its next user message (followup_message), once, when it first stops (loop_count 0); upstream hookify only shows a warning to the user"},
			{ScriptOnly: true, Text: "Cursor cannot refuse to stop: it sends the message back as a follow-up turn, while the conditions hold and at most loop_limit times; a rule without conditions sends it once, when the agent first stops (loop_count 0)"},
			// A prompt hook cannot read loop_count (FirstOnly is a script's condition).
			{Text: "Cursor cannot refuse to stop: a model judges every stop, and while it answers ok: false Cursor sends the reason back as a follow-up turn, at most loop_limit times"},
		},
	},
	BeforeMCPExecution: {
		Name: "beforeMCPExecution", Rows: []Event{EventMCP}, Actions: []Action{Block, Warn}, WarnModes: gateWarn, Tool: true, MCP: true, CanDeny: true,
		Fields: map[string]Source{
			"tool_name":       {Keys: []Key{ToolNameKey}},
			"mcp_server_name": {Keys: []Key{MCPServerKey}},
			"mcp_server_url":  {Keys: top("mcp_server_url", "url")},
		},
		Allow: allowAnswer, Block: denyAnswer, Warn: askAnswer, WarnAllow: &warnAllowAnswer,
		Sentence: "The agent is about to call the tool `tool_name` of the MCP server `mcp_server_name`; the tool's arguments are in `tool_input` (an object, or a string of JSON).",
		Caveats: []Caveat{
			{Action: Warn, Warn: []WarnMode{WarnAsk}, ScriptOnly: true, Text: askCaveat + ". MCP hooks do not run in cloud agents"},
			{Text: "MCP hooks do not run in cloud agents; a pattern's server is compared with Cursor's name for the server (its key in mcp.json), which may differ from Claude Code's"},
		},
	},
}

// gateWarn are the --warn modes under which a gate (beforeShellExecution,
// beforeMCPExecution) takes warn rules; under --warn context they run on
// postToolUse.
var gateWarn = []WarnMode{WarnAsk, WarnAllow}

// askCaveat is explain's note on a warn rule under --warn ask.
const askCaveat = "Cursor 3.9.16 treats ask here as a deny: the call is blocked, with no question to the user or the agent (docs/cursor.md); the default, --warn context, lets it run and tells the agent after it ran"

// firstLoop holds while loop_count is 0 or absent: no follow-up was sent
// in this loop yet. Its ERE is written here: it is not a rule's pattern.
var firstLoop = &Condition{Field: "loop_count", Op: NotRegexMatch, Pattern: "[1-9]", ERE: "[1-9]"}

// CursorEvents lists every Cursor event hookify emits, in table order (the
// order of scripts, hooks and hooks.json entries).
var CursorEvents = rowsOf[CursorEvent](cursorTable[:], func(s EventSpec) string { return s.Name })

// Spec returns e's row of the Cursor event table.
func (e CursorEvent) Spec() *EventSpec {
	if e <= 0 || int(e) >= len(cursorTable) {
		return &EventSpec{}
	}
	return &cursorTable[e]
}

func (e CursorEvent) String() string { return e.Spec().Name }

// ParseCursorEvent returns the CursorEvent spelled s.
func ParseCursorEvent(s string) (CursorEvent, bool) { return parse(CursorEvents, s) }

// RowEvents are the Cursor events that carry the payloads of a hookify
// event (a row of the README's "Event and action mapping"), in table order:
// a file write goes to preToolUse and then postToolUse.
func RowEvents(e Event) []CursorEvent {
	var out []CursorEvent
	for _, ce := range CursorEvents {
		if slices.Contains(ce.Spec().Rows, e) {
			out = append(out, ce)
		}
	}
	return out
}

// Resolve returns where field comes from in the payload of event e.
// known is false when the field is not one of the event's documented
// fields and is read from a payload key of the same name.
func Resolve(e CursorEvent, field string) (src Source, known bool) {
	s := e.Spec()
	if name, ok := strings.CutPrefix(field, "tool_input."); ok {
		return Source{Keys: tool(name)}, s.Tool
	}
	if src, ok := s.Fields[field]; ok {
		return src, true
	}
	if s.Tool {
		return Source{Keys: tool(field)}, false
	}
	return Source{Keys: top(field)}, false
}
