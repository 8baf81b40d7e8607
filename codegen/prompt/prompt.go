// Package prompt turns rules whose intent is only in prose into Cursor
// prompt-type hooks (README, "Prompt hooks"): instead of a script, a model reads the
// event's payload and judges it against the rule's message, answering
// {ok, reason}.
//
// A rule gets prompt hooks when it has no pattern and no conditions, or
// when it asks for them with `cursor_hook: prompt`. Its events follow the
// same table as command hooks (README, "Event and action mapping").
package prompt

import (
	"fmt"
	"strings"

	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
)

// Timeout is the timeout of a prompt hook in seconds: a model call takes
// longer than a script.
const Timeout = 30

// Entry returns the hooks.json entry of h.
func Entry(h *ir.PromptHook) hooksjson.Entry {
	e := hooksjson.Entry{Type: "prompt", Prompt: Instruction(h), Matcher: h.Matcher, Timeout: Timeout}
	e.LoopLimit = h.Event.Spec().LoopLimit
	return e
}

// Instruction is the prompt of h: it starts with "[hookify:<rule name>]"
// (how hooksjson recognises hookify's prompt entries), describes the event,
// quotes the rule's message and conditions, tells the model when to answer
// ok: false, and ends with $ARGUMENTS, which Cursor replaces with the
// payload.
func Instruction(h *ir.PromptHook) string {
	r := h.Rule
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s] You check one event of a Cursor agent against a rule of this project. %s\n\n",
		hooksjson.OwnedPromptPrefix, r.Name, h.Event.Spec().Sentence)
	intro, what := "warns about what this message describes", "does what the rule warns about"
	switch s := h.Event.Spec(); {
	case s.PromptIntro != "":
		intro, what = s.PromptIntro, s.PromptWhat
	case r.Action == ir.Block:
		intro, what = "forbids what this message describes", "does what the rule forbids"
	}
	fmt.Fprintf(&b, "The rule %s %s:\n\n<<<\n%s\n>>>\n\n", quote(r.Name), intro, text(r.Message, "(no message)"))
	if len(r.Conditions) > 0 {
		b.WriteString("It applies only when all of these hold:\n")
		for _, c := range r.Conditions {
			fmt.Fprintf(&b, "- %s\n", condition(h.Event, c))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Answer ok: true unless the input clearly %s. If it clearly does, answer ok: false with the rule's message as the reason. When in doubt, answer ok: true.\n\n", what)
	b.WriteString("The event's input (JSON):\n$ARGUMENTS")
	return b.String()
}

// condition describes c in words, with the payload key its field comes from.
func condition(e ir.CursorEvent, c ir.Condition) string {
	src, _ := ir.Resolve(e, c.Field)
	field := code(c.Field)
	switch {
	case src.LastAssistant:
		field += " (the agent's last message)"
	case src.Transcript:
		field += " (the conversation so far)"
	case len(src.Keys) > 0 && !(len(src.Keys) == 1 && src.Keys[0].String() == c.Field):
		field += " (in " + code(src.Keys[0].String()) + ")"
	}
	return field + " " + fmt.Sprintf(c.Op.Spec().Words, code(c.Pattern))
}

// text makes rule text safe inside the instruction: Cursor replaces every
// $ARGUMENTS, so the rule's own are spelled with a fullwidth dollar sign.
func text(s, empty string) string {
	if strings.TrimSpace(s) == "" {
		return empty
	}
	return strings.ReplaceAll(s, "$ARGUMENTS", "\uFF04ARGUMENTS")
}

func quote(s string) string { return `"` + text(s, "") + `"` }

// code wraps s in a markdown code span whose fence is longer than any run
// of backquotes in s; the empty text is "".
func code(s string) string {
	s = text(s, "")
	if s == "" {
		return `""`
	}
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
