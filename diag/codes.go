package diag

// Code names one kind of diagnostic. It is stable: scripts read it from
// `--json`, and `hookify explain` selects diagnostics by it. Every code is
// declared here, with what it means, and no code means two things.
type Code string

// Reading rule files and outputs.
const (
	Unreadable              Code = "read"                      // a rule file, folder or hooks.json cannot be read
	NoRules                 Code = "no-rules"                  // a folder given on the command line holds no rule file
	InvalidUTF8             Code = "invalid-utf8"              // a rule file is not valid UTF-8
	NUL                     Code = "nul"                       // a rule file or pattern holds a NUL byte
	NoFrontMatter           Code = "no-front-matter"           // the first line of a rule file is not ---
	UnterminatedFrontMatter Code = "unterminated-front-matter" // the front matter has no closing --- line
	FrontMatterNotMap       Code = "front-matter-not-map"      // the front matter is YAML, but not key: value lines
	YAML                    Code = "yaml"                      // the front matter is not valid YAML, and hookify's reading cannot stand in
	YAMLFallback            Code = "yaml-fallback"             // a value is not valid YAML text; hookify's own reading of it is taken
	Output                  Code = "output"                    // a generated file cannot be written where it belongs
	HooksJSON               Code = "hooks-json"                // the existing .cursor/hooks.json cannot be merged
	PowerShell              Code = "powershell"                // a rule cannot be written as PowerShell
)

// The keys of a rule.
const (
	DuplicateKey      Code = "duplicate-key"       // a key is set twice; the last value wins
	UnknownKey        Code = "unknown-key"         // a key hookify does not read is ignored
	Type              Code = "type"                // a value has the wrong type (a list where text is expected, ...)
	BadName           Code = "bad-name"            // the rule name holds control characters
	DuplicateName     Code = "duplicate-name"      // two rules give the same per-rule script name
	EnabledWord       Code = "enabled-word"        // enabled: yes/no/on/off is read as the boolean it spells
	Disabled          Code = "disabled"            // enabled: false: the rule is checked, and nothing is generated
	UnknownEvent      Code = "unknown-event"       // an event neither hookify nor Claude Code names
	ClaudeEvent       Code = "claude-event"        // a Claude Code event name whose hookify event is not evident
	UnknownAction     Code = "unknown-action"      // an action that is neither warn nor block nor an evident synonym
	ActionSynonym     Code = "action-synonym"      // an evident synonym of warn (ask, notify, remind, warning) is read as warn
	UnknownCursorHook Code = "unknown-cursor-hook" // cursor_hook is neither prompt nor command
	ToolMatcher       Code = "tool-matcher"        // a tool_matcher name has no Cursor tool among hookify's events
	NoEvent           Code = "no-event"            // no event, no pattern and no conditions: nothing says what to check
)

// Patterns and conditions.
const (
	PatternIgnored    Code = "pattern-ignored"     // pattern is ignored because the rule has conditions
	PatternNeedsField Code = "pattern-needs-field" // a lone pattern on an event with no main field (all, or stop with a pattern that needs a field)
	EmptyConditions   Code = "empty-conditions"    // conditions: [] can never match
	Combinator        Code = "combinator"          // conditions written as a map with combinator, which hookify does not have
	NoField           Code = "no-field"            // a condition without field
	BadField          Code = "bad-field"           // a field that is not a payload key name
	NoPattern         Code = "no-pattern"          // a condition without pattern
	ValueIgnored      Code = "value-ignored"       // a condition's value is ignored beside its pattern
	UnknownOperator   Code = "unknown-operator"    // an operator that is not known nor an evident synonym
	OperatorSynonym   Code = "operator-synonym"    // an evident operator synonym (regex) is read as the operator it means
	Regex             Code = "regex"               // a regex that cannot be translated exactly
)

// What is generated.
const (
	NoConditions Code = "no-conditions"  // no pattern, no conditions and no message: nothing to check, nothing generated
	NoPromptHook Code = "no-prompt-hook" // a prompt-hook rule left out by --no-prompt-hooks
	NoTarget     Code = "no-target"      // the rule's tool_matcher names no tool of its event: nothing generated
	NoMCPPrompt  Code = "no-mcp-prompt"  // a rule without conditions gets no prompt hook on MCP tools
	NoChannel    Code = "no-channel"     // a row of the event table has no Cursor channel for the action: nothing generated there
	StopFollowup Code = "stop-followup"  // a warn stop rule becomes a one-time follow-up: what Cursor and upstream do
	AskDenies    Code = "ask-denies"     // --warn ask puts a warn rule on a gate whose ask Cursor 3.9.16 treats as a deny
	Test         Code = "test"           // a rule's tests: key has a mistake; the test is ignored
	Case         Code = "case"           // a --cases file has a mistake
)

// Fidelity: where upstream hookify reads or runs a rule differently
// (README, "Fidelity with upstream hookify").
const (
	UpstreamSkipped      Code = "upstream-skipped"       // upstream never loads the file (BOM, name)
	UpstreamSplit        Code = "upstream-split"         // upstream ends the front matter at the first --- anywhere
	UpstreamQuotes       Code = "upstream-quotes"        // upstream strips quotes without processing escapes
	UpstreamComment      Code = "upstream-comment"       // upstream keeps a trailing # comment in the value
	UpstreamBlockScalar  Code = "upstream-block-scalar"  // upstream has no block scalars
	UpstreamIndent       Code = "upstream-indent"        // upstream drops indented keys and shallow condition lines
	UpstreamComma        Code = "upstream-comma"         // upstream splits a condition's dash line at commas
	UpstreamBool         Code = "upstream-bool"          // upstream turns true/false into booleans even in quotes
	UpstreamFlow         Code = "upstream-flow"          // upstream reads flow collections as text
	UpstreamEmpty        Code = "upstream-empty"         // upstream reads an empty value as an empty list
	UpstreamReading      Code = "upstream-reading"       // any other reading difference
	UpstreamEvent        Code = "upstream-event"         // upstream does not know the event
	UpstreamAction       Code = "upstream-action"        // upstream treats every action but block as warn
	UpstreamOperator     Code = "upstream-operator"      // upstream treats unknown operators as always false
	UpstreamValueKey     Code = "upstream-value-key"     // upstream ignores a condition's value key
	UpstreamNoConditions Code = "upstream-no-conditions" // upstream never fires a rule without conditions
	UpstreamPromptField  Code = "upstream-prompt-field"  // upstream's prompt rules never see the prompt
	UpstreamPatternField Code = "upstream-pattern-field" // a lone pattern on stop or all tests content upstream
	UpstreamWriteContent Code = "upstream-write-content" // upstream reads new_text as empty for Write
	UpstreamField        Code = "upstream-field"         // a field upstream never sets on the rule's events
	UpstreamOtherTools   Code = "upstream-other-tools"   // upstream also runs the rule on other tools
	UpstreamPromptBlock  Code = "upstream-prompt-block"  // block on a prompt only shows the message upstream
	UpstreamToolMatcher  Code = "upstream-tool-matcher"  // upstream compares tool names exactly
	UpstreamTranscript   Code = "upstream-transcript"    // transcript is Claude Code's JSONL upstream
	UpstreamLastMessage  Code = "upstream-last-message"  // upstream never reads last_assistant_message
	UpstreamName         Code = "upstream-name"          // upstream calls a rule without name "unnamed"
	UpstreamInlineFlag   Code = "upstream-inline-flag"   // a (?i) inside a pattern is an error to upstream's Python
)

// LeavesOut reports whether a warning of code c says why nothing is
// generated for a rule: `hookify explain` shows it as the rule's Cursor side.
func (c Code) LeavesOut() bool {
	switch c {
	case Disabled, NoConditions, NoPromptHook, NoTarget, NoMCPPrompt:
		return true
	}
	return false
}
