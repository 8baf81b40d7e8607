package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookify/hookify/ir"
)

// Layout is what both script backends number and decide the same way for
// one unit: the payload keys it reads, its rules, the check formula of
// each hook, which answers a hook can reach, and the answers themselves.
// Backends only spell them.
type Layout struct {
	Unit *ir.Unit
	// Keys are the payload keys the script reads, in first-use order; a
	// key's number (Key) is its index plus one.
	Keys []ir.Key
	// Rules are the rules of the unit's checks, in first-use order; a
	// rule's number (Rule) is its index plus one.
	Rules []*ir.Rule
	Hooks []*HookLayout // in the unit's order
	keys  map[ir.Key]int
	rules map[*ir.Rule]int
}

// HookLayout is one hook of a unit, with what its script computes once.
type HookLayout struct {
	*ir.Hook
	// Arg is the script argument that selects this hook (ir.Unit.EventArg).
	Arg string
	// Blocks and Warns: the hook holds a block rule, a warn rule; a script
	// writes only the answers it can reach.
	Blocks, Warns bool
	// The answers for an unreadable payload, a matching block rule, only
	// matching warn rules, and no match.
	Fail, Blocked, Warned, Allow ir.Answer
	// Formula is when each check of the hook holds, in order (formula.go).
	Formula []Check
	// Transcripts are the texts the hook reads from the transcript file,
	// in the order of first use; a Value's Transcript is its index plus one.
	Transcripts []Transcript
}

// NewLayout computes u's layout; warn is the answer of warn rules on
// shells (--warn). With toolInputLast, a unit with an MCP hook numbers the
// tool_input members after every other key (the Unix hook's second
// decoder run fills them as one run of slots).
func NewLayout(u *ir.Unit, warn ir.WarnMode, toolInputLast bool) *Layout {
	l := &Layout{Unit: u, keys: map[ir.Key]int{}, rules: map[*ir.Rule]int{}}
	mcp := false
	for _, h := range u.Hooks {
		mcp = mcp || h.Event.Spec().MCP
		for _, k := range h.Keys() {
			if _, ok := l.keys[k]; !ok {
				l.Keys = append(l.Keys, k)
				l.keys[k] = len(l.Keys)
			}
		}
	}
	if toolInputLast && mcp {
		slices.SortStableFunc(l.Keys, func(a, b ir.Key) int {
			switch {
			case a.ToolInput == b.ToolInput:
				return 0
			case a.ToolInput:
				return 1
			}
			return -1
		})
		for i, k := range l.Keys {
			l.keys[k] = i + 1
		}
	}
	for _, h := range u.Hooks {
		hl := &HookLayout{Hook: h, Arg: u.EventArg(h)}
		for _, c := range h.Checks {
			if _, ok := l.rules[c.Rule]; !ok {
				l.Rules = append(l.Rules, c.Rule)
				l.rules[c.Rule] = len(l.Rules)
			}
			hl.Blocks = hl.Blocks || c.Rule.Action == ir.Block
			hl.Warns = hl.Warns || c.Rule.Action != ir.Block
		}
		hl.Fail = ir.AnswerFor(h.Event, ir.Failed, warn, h.FailClosed)
		hl.Blocked = ir.AnswerFor(h.Event, ir.Blocked, warn, h.FailClosed)
		hl.Warned = ir.AnswerFor(h.Event, ir.Warned, warn, h.FailClosed)
		hl.Allow = ir.AnswerFor(h.Event, ir.None, warn, h.FailClosed)
		l.formula(hl)
		l.Hooks = append(l.Hooks, hl)
	}
	return l
}

// RuleData writes, for each rule in number order, a comment naming it and
// its source, and its user and agent messages (JSON-escaped, without
// quotes), each line spelled by sp in the script's language.
func (l *Layout) RuleData(b *strings.Builder, sp RuleSpelling) {
	for i, r := range l.Rules {
		b.WriteString(sp.Comment(Comment(r.Name)+" ("+Comment(r.Source)+")") + "\n")
		b.WriteString(sp.Message(true, i+1, JSONText(r.UserMessage())) + "\n")
		b.WriteString(sp.Message(false, i+1, JSONText(r.AgentMessage())) + "\n")
	}
}

// RuleSpelling spells the lines of RuleData.
type RuleSpelling struct {
	// Comment is a comment line holding text (no control characters).
	Comment func(text string) string
	// Message defines the user message (user) or the agent message of
	// rule n, JSON-escaped text, so that the script's answers can use it.
	Message func(user bool, n int, jsonText string) string
}

// JSONText is s as the inside of a JSON string literal.
func JSONText(s string) string {
	q := ir.JSONString(s)
	return q[1 : len(q)-1]
}

// Key is the number of payload key k (0 if the unit does not read it).
func (l *Layout) Key(k ir.Key) int { return l.keys[k] }

// AddKey numbers k after the keys the hooks read, if it has no number, and
// returns its number: a key a backend reads for its own purposes.
func (l *Layout) AddKey(k ir.Key) int {
	if n, ok := l.keys[k]; ok {
		return n
	}
	l.Keys = append(l.Keys, k)
	l.keys[k] = len(l.Keys)
	return len(l.Keys)
}

// Rule is the number of rule r.
func (l *Layout) Rule(r *ir.Rule) int { return l.rules[r] }

// Events names the unit's Cursor events, for the script's comment.
func (l *Layout) Events() string {
	var names []string
	for _, h := range l.Unit.Hooks {
		names = append(names, h.Event.String())
	}
	return strings.Join(names, ", ")
}

// Path is the path of the unit's script with extension ext ("sh", "ps1").
func (l *Layout) Path(ext string) string { return HooksDir + "/" + l.Unit.Name + "." + ext }

// Printer writes indented lines of a generated script.
type Printer struct {
	b      *strings.Builder
	indent string
}

// NewPrinter returns a printer that writes to b without indentation.
func NewPrinter(b *strings.Builder) *Printer { return &Printer{b: b} }

// In returns a printer that writes to the same text two spaces deeper.
func (p *Printer) In() *Printer { return &Printer{b: p.b, indent: p.indent + "  "} }

// Line writes one line: the indentation, then format applied to args.
func (p *Printer) Line(format string, args ...any) {
	p.b.WriteString(p.indent)
	fmt.Fprintf(p.b, format, args...)
	p.b.WriteByte('\n')
}

// Raw writes s as it is, without indentation.
func (p *Printer) Raw(s string) { p.b.WriteString(s) }

// AnswerText is the JSON line of an answer as a script prints it: fixed
// text around the messages, which the script fills in JSON-escaped. The
// line is Fixed[0], message Msgs[0], Fixed[1], ..., Fixed[len(Msgs)]; the
// quotes of each message's JSON string are in the fixed text.
type AnswerText struct {
	Fixed []string
	Msgs  []ir.ValKind // ir.UserText or ir.AgentText
}

// Parts are t's pieces in order, as a script spells them: each fixed piece
// through quote, each message as the script's expression for the user or
// the agent message.
func (t AnswerText) Parts(quote func(string) string, user, agent string) []string {
	var parts []string
	for i, m := range t.Msgs {
		v := user
		if m == ir.AgentText {
			v = agent
		}
		parts = append(parts, quote(t.Fixed[i]), v)
	}
	return append(parts, quote(t.Fixed[len(t.Msgs)]))
}

// SplitAnswer returns a's line ("{...}\n") as fixed text and messages; an
// Empty answer is one empty piece.
func SplitAnswer(a ir.Answer) AnswerText {
	var t AnswerText
	if a.Empty {
		return AnswerText{Fixed: []string{""}}
	}
	lit := "{"
	for i, f := range a.Fields {
		if i > 0 {
			lit += ","
		}
		lit += ir.JSONString(f.Key) + ":"
		switch f.Kind {
		case ir.Lit:
			lit += ir.JSONString(f.Lit)
		case ir.Bool:
			lit += fmt.Sprint(f.Bool)
		case ir.UserText, ir.AgentText:
			t.Fixed = append(t.Fixed, lit+`"`)
			t.Msgs = append(t.Msgs, f.Kind)
			lit = `"`
		}
	}
	t.Fixed = append(t.Fixed, lit+"}\n")
	return t
}

// AnswerPieces are the fixed pieces of a's line as a per-rule hook that
// rebuilt tells answers apart and joins them (docs/live-rules.md): the text
// before the first message, between the two, and after the last, without
// the final newline; "" for the pieces a has not, and all "" for an answer
// without messages, whose shape is never matched. The last piece ends the
// answer; a piece between two messages starts with a quote, a comma and a
// quote, which no message holds (JSON escapes each quote in it), so that
// the first message ends where it first occurs.
func AnswerPieces(a ir.Answer) [3]string {
	var p [3]string
	t := SplitAnswer(a)
	if a.Empty || len(t.Msgs) == 0 {
		return p
	}
	if len(t.Fixed) > len(p) {
		panic("codegen: an answer with more than two messages")
	}
	copy(p[:], t.Fixed)
	p[len(t.Fixed)-1] = strings.TrimSuffix(p[len(t.Fixed)-1], "\n")
	if len(t.Fixed) == 3 && !strings.HasPrefix(p[1], `","`) {
		panic("codegen: a piece between two messages that a message could hold")
	}
	return p
}
