package ir

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Outcome is what a hook decided.
type Outcome int

const (
	// None: no rule matched.
	None Outcome = iota
	// Warned: only warn rules matched.
	Warned
	// Blocked: a block rule matched.
	Blocked
	// Failed: the payload could not be parsed.
	Failed
)

func (o Outcome) String() string {
	return [...]string{"none", "warn", "block", "fail"}[o]
}

// ValKind says what fills an answer field.
type ValKind int

const (
	Lit       ValKind = iota // the string Lit
	Bool                     // the boolean Bool
	UserText                 // the joined user messages
	AgentText                // the joined agent messages
)

// Field is one key of an answer object.
type Field struct {
	Key  string
	Kind ValKind
	Lit  string
	Bool bool
}

// Answer is the JSON object a hook prints (keys in this order, compact, one
// line) and its exit code.
type Answer struct {
	Fields []Field
	Exit   int
	// Empty: the hook prints nothing (Fields is nil), the answer of a hook
	// that cannot decide.
	Empty bool
}

// MessageSep joins the messages of several matching rules.
const MessageSep = "\n\n"

// Exit codes of a hook that cannot decide (an unreadable payload): it
// prints nothing and exits non-zero, and Cursor blocks where the entry has
// failClosed: true (a hook that holds a block rule), else lets the action
// through (docs/cursor.md). The code of a failClosed hook is 2, which Cursor's
// docs read as a deny even where failClosed is not honoured.
const (
	FailClosedExit = 2
	FailOpenExit   = 1
)

// AnswerFor returns the answer shape of event e for outcome o. For Failed,
// failClosed says whether the hook's entry fails closed: the answer is
// Empty either way, and only its exit code differs.
func AnswerFor(e CursorEvent, o Outcome, warn WarnMode, failClosed bool) Answer {
	if o == Failed {
		if failClosed {
			return Answer{Exit: FailClosedExit, Empty: true}
		}
		return Answer{Exit: FailOpenExit, Empty: true}
	}
	s := e.Spec()
	a := s.Allow
	switch o {
	case Blocked:
		a = s.Block
	case Warned:
		a = s.Warn
		if warn == WarnAllow && s.WarnAllow != nil {
			a = *s.WarnAllow
		}
	}
	return Answer{Fields: slices.Clone(a.Fields), Exit: a.Exit}
}

// Render prints the answer with the given joined messages: compact JSON,
// no HTML escaping, and a final newline.
func (a Answer) Render(user, agent string) []byte {
	if a.Empty {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range a.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(JSONString(f.Key))
		b.WriteByte(':')
		switch f.Kind {
		case Lit:
			b.WriteString(JSONString(f.Lit))
		case Bool:
			if f.Bool {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
		case UserText:
			b.WriteString(JSONString(user))
		case AgentText:
			b.WriteString(JSONString(agent))
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// JSONString returns s as a JSON string literal, quotes included, without
// HTML escaping. Escaping is per character, so the literal of a+b is the
// literal of a joined with the literal of b.
func JSONString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // encoding a string cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}
