package ir

import "strings"

// CursorEvent is a Cursor hook event (a key of hooks.json's "hooks").
type CursorEvent int

const (
	BeforeShellExecution CursorEvent = iota + 1
	PreToolUse
	PostToolUse
	BeforeReadFile
	BeforeSubmitPrompt
	Stop
)

var cursorEventNames = map[CursorEvent]string{
	BeforeShellExecution: "beforeShellExecution", PreToolUse: "preToolUse", PostToolUse: "postToolUse",
	BeforeReadFile: "beforeReadFile", BeforeSubmitPrompt: "beforeSubmitPrompt", Stop: "stop",
}

func (e CursorEvent) String() string { return cursorEventNames[e] }

// CursorEvents lists every Cursor event hookify emits, in a fixed order.
var CursorEvents = []CursorEvent{BeforeShellExecution, PreToolUse, PostToolUse, BeforeReadFile, BeforeSubmitPrompt, Stop}

// ParseCursorEvent returns the CursorEvent spelled s.
func ParseCursorEvent(s string) (CursorEvent, bool) {
	for e, n := range cursorEventNames {
		if n == s {
			return e, true
		}
	}
	return 0, false
}

// WriteTools are the Cursor tool names of file writes (the preToolUse and
// postToolUse matcher of file rules).
var WriteTools = []string{"Write", "StrReplace", "Edit", "MultiEdit", "ApplyPatch"}

// Key names one value in a Cursor payload: a top-level key, or a key of the
// top-level tool_input object.
type Key struct {
	ToolInput bool
	Name      string
}

func (k Key) String() string {
	if k.ToolInput {
		return "tool_input." + k.Name
	}
	return k.Name
}

// Source says where the value of a rule field comes from in a payload: the
// first of Keys that is set, else "" when HasDefault, else the field is
// missing and every condition on it is false (as in hookify).
type Source struct {
	Keys       []Key
	HasDefault bool
	// Transcript: the value is the text of the file named by the payload's
	// transcript_path, else by $CURSOR_TRANSCRIPT_PATH; "" if neither names
	// a readable file.
	Transcript bool
}

// TranscriptKey is the payload key that names the transcript file.
var TranscriptKey = Key{Name: "transcript_path"}

// TranscriptEnv is the environment variable Cursor sets to the transcript.
const TranscriptEnv = "CURSOR_TRANSCRIPT_PATH"

// ToolNameKey is the payload key holding the tool of a tool event.
var ToolNameKey = Key{Name: "tool_name"}

func top(names ...string) []Key {
	var ks []Key
	for _, n := range names {
		ks = append(ks, Key{Name: n})
	}
	return ks
}

func tool(names ...string) []Key {
	var ks []Key
	for _, n := range names {
		ks = append(ks, Key{ToolInput: true, Name: n})
	}
	return ks
}

// Resolve returns where field comes from in the payload of event e.
// known is false when the field is not one of the event's documented
// fields and is read from a payload key of the same name.
func Resolve(e CursorEvent, field string) (src Source, known bool) {
	if name, ok := strings.CutPrefix(field, "tool_input."); ok {
		return Source{Keys: tool(name)}, e == PreToolUse || e == PostToolUse
	}
	switch e {
	case BeforeShellExecution:
		switch field {
		case "command", "cwd":
			return Source{Keys: top(field)}, true
		}
	case PreToolUse, PostToolUse:
		switch field {
		case "file_path":
			return Source{Keys: tool("file_path", "path")}, true
		case "new_text", "new_string":
			return Source{Keys: tool("new_string", "content", "contents"), HasDefault: true}, true
		case "old_text", "old_string":
			return Source{Keys: tool("old_string"), HasDefault: true}, true
		case "content":
			return Source{Keys: tool("content", "contents", "new_string"), HasDefault: true}, true
		case "tool_name":
			return Source{Keys: []Key{ToolNameKey}}, true
		}
		return Source{Keys: tool(field)}, false
	case BeforeReadFile:
		switch field {
		case "file_path", "content":
			return Source{Keys: top(field)}, true
		}
	case BeforeSubmitPrompt:
		switch field {
		case "user_prompt", "prompt":
			return Source{Keys: top("prompt", "prompt_text"), HasDefault: true}, true
		}
	case Stop:
		switch field {
		case "transcript":
			return Source{Transcript: true}, true
		case "reason":
			return Source{Keys: top("reason"), HasDefault: true}, true
		case "status":
			return Source{Keys: top("status")}, true
		}
	}
	return Source{Keys: top(field)}, false
}

// MainField is the field that a rule's `pattern` shorthand tests.
func MainField(e Event) (string, bool) {
	switch e {
	case EventBash:
		return "command", true
	case EventFile:
		return "new_text", true
	case EventRead:
		return "file_path", true
	case EventPrompt:
		return "user_prompt", true
	}
	return "", false
}
