// Package ir is the typed form of hookify rules that every backend reads.
//
// A Program holds Rules in input order (files in bytewise path order).
// ToCursor maps them onto Cursor hooks (a Cursor): for each Cursor event,
// the checks to run in file order, and the answer shapes a hook prints. The
// reference evaluator, the sh/awk and PowerShell backends all read the same
// Cursor, and what each event and operator means is one row of the tables
// in events.go and ops.go, so the semantics of docs/semantics.md §10 and of
// the README's "Event and action mapping" live here and in package eval,
// not in templates.
package ir

import (
	"fmt"

	"github.com/hookify/hookify/diag"
)

// Action is what a matching rule does.
type Action int

const (
	Warn Action = iota + 1
	Block
)

func (a Action) String() string {
	if a == Block {
		return "block"
	}
	return "warn"
}

// Condition is one test of a rule: Op applied to the value of Field.
type Condition struct {
	Field   string // as written: "command", "new_text", "tool_input.url", ...
	Op      Op
	Pattern string
	Pos     diag.Pos // where the condition (or the pattern shorthand) is written
	// PatternPos is where the pattern text starts, so that an error at byte
	// offset n of the pattern can be reported at PatternPos.Col+n.
	PatternPos diag.Pos
	// ERE is the POSIX ERE the scripts match (set by lowering): the
	// translated regex for regex operators, and for contains and
	// not_contains the literal pattern ("" for an empty one).
	ERE string
	// Words, for regex operators, is how the value is rewritten before ERE
	// reads it (pyre.Translate): "" for the value itself; else ERE reads
	// Python's Unicode \w \d \b as bytes the rewrite writes (pyre.Rewrite).
	Words string
	// Needle, for regex operators, is a literal that every value ERE
	// matches contains, which the scripts look for first because it is much
	// cheaper to find; its ASCII letters are in lower case and stand for
	// either case (pyre.Needle). "" if there is no such literal worth a test.
	Needle string
}

// Rule is one enabled hookify rule.
type Rule struct {
	Name       string
	Source     string // slash-separated path relative to the input root
	Pos        diag.Pos
	Event      Event
	Action     Action
	Conditions []Condition
	// Tools restricts the rule to these Cursor tool names ("Shell", "Write",
	// "StrReplace", "Read", ...); nil means no restriction.
	Tools []string
	// MCP are the MCP tool patterns of the rule's tool_matcher: the rule
	// guards the MCP tools they name (docs/mcp.md), and only rules that name
	// MCP tools do.
	MCP []MCPTool
	// Tests are the rule's examples (`tests:`), for hookify test only.
	Tests []Example
	// Message is the rule body as written (markdown); Plain is the same text
	// rendered to plain text for user-facing messages.
	Message string
	Plain   string
	// Prompt: the rule becomes Cursor prompt hooks (a model judges each
	// event against the message) instead of script checks: it has no
	// conditions, or asks for it with `cursor_hook: prompt` (README, "Prompt hooks").
	Prompt bool
}

// AgentMessage is the message for the agent: "**[name]**\n" and the body.
func (r *Rule) AgentMessage() string { return "**[" + r.Name + "]**\n" + r.Message }

// UserMessage is the message for the user: "[name]\n" and the plain body.
func (r *Rule) UserMessage() string { return "[" + r.Name + "]\n" + r.Plain }

// Program is a compiled rule set.
type Program struct {
	Rules []*Rule
}

func (r *Rule) String() string { return fmt.Sprintf("%s (%s)", r.Name, r.Source) }
