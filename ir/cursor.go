package ir

import "strings"

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

// Source says where the value of a rule field comes from in a payload:
// each of Keys that is set is a candidate value (a rule holds when it holds
// for one candidate per field); when none is set, the value is "" if
// HasDefault, else the field is missing and every condition on it is false
// (as in hookify).
type Source struct {
	Keys       []Key
	HasDefault bool
	// Transcript: the value is the text of the file named by the payload's
	// transcript_path, else by $CURSOR_TRANSCRIPT_PATH; "" if neither names
	// a readable file.
	Transcript bool
	// LastAssistant, with Transcript: the value is the text of the last
	// assistant entry of that file, read as Cursor's agent transcript
	// (JSON lines), since the last user entry; "" when there is none
	// (README, "Payload fields"; payload.LastAssistantMessage).
	LastAssistant bool
}

// SourceID is a comparable identity of a Source: two sources with the same
// ID read the same value.
type SourceID struct {
	keys                                  string // each key as 't' (tool_input) or 'k', its name and a NUL
	hasDefault, transcript, lastAssistant bool
}

// ID returns s's identity.
func (s Source) ID() SourceID {
	var b strings.Builder
	for _, k := range s.Keys {
		if k.ToolInput {
			b.WriteByte('t')
		} else {
			b.WriteByte('k')
		}
		b.WriteString(k.Name)
		b.WriteByte(0)
	}
	return SourceID{keys: b.String(), hasDefault: s.HasDefault, transcript: s.Transcript, lastAssistant: s.LastAssistant}
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
