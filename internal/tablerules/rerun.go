package tablerules

import (
	"math/rand/v2"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
)

// An Answer is what one script of a call prints, for the tests of the
// per-rule rerun (docs/live-rules.md, "The per-rule layout"): an answer of
// its event's block or warn shape with its messages, the allow answer, or
// nothing with an exit code (ir.Failed: a script that could not decide,
// or, with 0, one that serves no hook of the event).
type Answer struct {
	Kind        ir.Outcome // ir.Blocked, ir.Warned, ir.None or ir.Failed
	User, Agent string
	Exit        int
}

// answerPieces are the pieces of generated messages: the fixed text of
// answers, quotes, backslashes, escapes, control and non-ASCII characters.
var answerPieces = []string{"[r1]\nNo.", `","agent_message":"`, `"}`, `"`, `\`, `\n\n`, "a'b", "\t\x01", "é€", "$(x) `y` *", " "}

// RandomAnswer draws an answer.
func RandomAnswer(r *rand.Rand) Answer {
	msg := func() string {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(answerPieces[r.IntN(len(answerPieces))])
		}
		return b.String()
	}
	switch r.IntN(5) {
	case 0:
		return Answer{Kind: ir.Blocked, User: msg(), Agent: msg()}
	case 1, 2:
		return Answer{Kind: ir.Warned, User: msg(), Agent: msg()}
	case 3:
		return Answer{Kind: ir.None}
	}
	return Answer{Kind: ir.Failed, Exit: r.IntN(3)}
}

// Text is the line a script of hook h prints for a ("" for nothing).
func (a Answer) Text(h *codegen.HookLayout) string {
	switch a.Kind {
	case ir.Blocked:
		return string(h.Blocked.Render(a.User, a.Agent))
	case ir.Warned:
		return string(h.Warned.Render(a.User, a.Agent))
	case ir.None:
		return string(h.Allow.Render("", ""))
	}
	return ""
}

// Combined is the one answer a per-rule hook of h that rebuilt gives for
// the answers of the scripts it ran, in order, as one hook holding their
// rules would: a block with the messages of every block joined by a blank
// line (a warning too where the event's two shapes are one: nothing tells
// them apart), else nothing and the greatest exit code of the scripts that
// could not decide, else the warnings joined alike; allow when none of
// these (the event's allow answer follows).
func Combined(h *codegen.HookLayout, answers []Answer) (out string, exit int, allow bool) {
	blockMsgs := len(codegen.SplitAnswer(h.Blocked).Msgs) > 0
	warnMsgs := len(codegen.SplitAnswer(h.Warned).Msgs) > 0
	same := codegen.AnswerPieces(h.Blocked) == codegen.AnswerPieces(h.Warned)
	var blocks, warns []Answer
	fail := 0
	for _, a := range answers {
		switch {
		case a.Kind == ir.Blocked && blockMsgs, a.Kind == ir.Warned && same && warnMsgs:
			blocks = append(blocks, a)
		case a.Kind == ir.Warned && warnMsgs:
			warns = append(warns, a)
		case a.Kind == ir.Failed:
			fail = max(fail, a.Exit)
		}
	}
	joined := func(as []Answer, shape ir.Answer) string {
		var us, ags []string
		for _, a := range as {
			us, ags = append(us, a.User), append(ags, a.Agent)
		}
		return string(shape.Render(strings.Join(us, "\n\n"), strings.Join(ags, "\n\n")))
	}
	switch {
	case len(blocks) > 0:
		return joined(blocks, h.Blocked), h.Blocked.Exit, false
	case fail > 0:
		return "", fail, false
	case len(warns) > 0:
		return joined(warns, h.Warned), h.Warned.Exit, false
	}
	return "", 0, true
}
