package ir

import "github.com/hookify/hookify/diag"

// Expect is the decision a test fixture expects from the hooks of one
// Cursor event, as fixtures spell it: allow, warn or block.
type Expect int

const (
	// ExpectAllow: no rule matched (or a payload that cannot be read, on a
	// hook without block rules).
	ExpectAllow Expect = iota
	// ExpectWarn: only warn rules matched. The answer is the event's warn
	// shape: ask (or allow with --warn=allow) with the messages on
	// beforeShellExecution, additional_context on postToolUse, continue
	// with a message on beforeSubmitPrompt.
	ExpectWarn
	// ExpectBlock: a block rule matched (or a payload that cannot be read,
	// on a hook that holds block rules). A deny (exit 0), continue:false on
	// beforeSubmitPrompt, a followup_message on stop; nothing and exit 2 for
	// the unreadable payload, which failClosed turns into a block.
	ExpectBlock
)

var expectNames = [...]string{"allow", "warn", "block"}

func (e Expect) String() string { return expectNames[e] }

// ParseExpect returns the Expect spelled s.
func ParseExpect(s string) (Expect, bool) {
	for i, n := range expectNames {
		if n == s {
			return Expect(i), true
		}
	}
	return 0, false
}

// ExpectOf is the decision of a hook's outcome. failClosed is the hook's
// FailClosed, which decides a payload that cannot be read.
func ExpectOf(o Outcome, failClosed bool) Expect {
	switch o {
	case Warned:
		return ExpectWarn
	case Blocked:
		return ExpectBlock
	case Failed:
		if failClosed {
			return ExpectBlock
		}
	}
	return ExpectAllow
}

// Input is one field of a test fixture's input: a rule field name as
// conditions write it (command, file_path, new_text, user_prompt,
// transcript, tool_input.url, ...) and its text. Null sends JSON null.
type Input struct {
	Field string
	Value string
	Null  bool
}

// Example is one example from a rule's front matter (`tests:`), which
// `hookify test` runs. Upstream hookify ignores the key, and it does not
// change what the rule compiles to.
type Example struct {
	Pos diag.Pos // the list item
	// Events are the Cursor events the fixture's payload is sent to: one,
	// or preToolUse and postToolUse for a file write. The decision is the
	// strongest of their answers.
	Events []CursorEvent
	Input  []Input
	Expect Expect
}
