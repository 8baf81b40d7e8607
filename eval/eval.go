// Package eval is hookify's reference evaluator: it decides a Cursor hook
// payload for a compiled rule set exactly as docs/semantics.md §10 and the
// README's "Event and action mapping" say, and returns the answer that the
// generated script must print, byte for byte. It is the
// semantics in one readable place, and the oracle of hookify test and of
// the differential tests of the backends.
//
// A hook runs its checks in file order. A check applies when the payload
// names no tool (tool_name unset or empty) or one of the check's tools. The
// candidates of a field are the set keys of its source, else the source's
// default, else none (the field is missing, and every condition on it is
// false whatever its operator). A check holds when its conditions all hold
// for one choice of a candidate per field: an empty or decoy key never
// hides the real one (README, "Payload fields"). Regex
// operators are Python's re.search with IGNORECASE (package pyregex); the
// others compare bytes. Every matching rule adds its messages, joined by a
// blank line; when a block rule matches, only block messages are used. A
// payload that cannot be read gives the event's fail answer.
package eval

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hookify/hookify/eval/pyregex"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/payload"
)

// Env is what an answer depends on besides the plan and the payload.
type Env struct {
	// Warn is the build's --warn choice.
	Warn ir.WarnMode
	// ReadFile reads the transcript of a stop payload, named by its
	// transcript_path or by $CURSOR_TRANSCRIPT_PATH. It must fail unless
	// the name is a readable regular file (sh's test -f and -r), and resolve a
	// relative name against the hook's working directory (the project
	// root). Nil: no file is readable.
	ReadFile func(name string) ([]byte, error)
	// Getenv reads the hook's environment. Nil: an empty environment.
	Getenv func(key string) string
}

// Result is a hook's decision on one payload.
type Result struct {
	Event   ir.CursorEvent
	Outcome ir.Outcome
	// Matched are the rules whose checks held, in check order: warn rules
	// too, even when a block rule took the answer.
	Matched []*ir.Rule
	// Answer is the script's exact stdout, and Exit its exit code.
	Answer []byte
	Exit   int
	// Err says why the payload could not be read (Outcome Failed).
	Err error
	// Problems are patterns the evaluator could not run (their condition
	// was taken as false). A translator that accepted them disagrees with
	// this package, so callers report them.
	Problems []string
}

// Expect is the decision of r, as test fixtures spell it.
func (r Result) Expect(failClosed bool) ir.Expect { return ir.ExpectOf(r.Outcome, failClosed) }

// Hook decides raw for one hook.
func Hook(h *ir.Hook, raw []byte, env Env) Result {
	res := Result{Event: h.Event}
	decode := payload.Decode
	if h.ReadsPatches() {
		decode = payload.DecodePatched
	}
	p, err := decode(raw)
	if err == nil && h.ReadsToolString() {
		err = p.ParseToolInputString()
	}
	if err != nil {
		res.Outcome, res.Err = ir.Failed, err
		a := ir.AnswerFor(h.Event, ir.Failed, env.Warn, h.FailClosed)
		res.Answer, res.Exit = a.Render("", ""), a.Exit
		return res
	}
	var blockU, blockA, warnU, warnA []string
	// The views a check is tried in: the payload, then one per file of its
	// patches, in which PatchKeys hold that file's values.
	views := []view{{look: func(k ir.Key) payload.Value {
		if k.ToolInput {
			return p.ToolInput(k.Name)
		}
		return p.Top(k.Name)
	}}}
	for _, f := range p.Files() {
		part := map[byte]payload.Value{'f': {Text: f.Path, Set: true}, 'm': f.Move, 'a': {Text: f.Added, Set: true}, 'r': {Text: f.Removed, Set: true}}
		views = append(views, view{look: func(k ir.Key) payload.Value {
			if c, ok := ir.PatchKeys[k.Name]; ok && k.ToolInput {
				return part[c]
			}
			return views[0].look(k)
		}})
	}
	for i := range views {
		views[i].values = map[string][]string{}
	}
	for _, c := range h.Checks {
		if !toolApplies(p, c.Tools) || !slices.ContainsFunc(views, func(v view) bool { return res.holds(p, v, c.Conds, env) }) {
			continue
		}
		if len(c.Any) > 0 && !slices.ContainsFunc(c.Any, func(g []ir.ResolvedCondition) bool { return res.holds(p, views[0], g, env) }) {
			continue
		}
		res.Matched = append(res.Matched, c.Rule)
		if c.Rule.Action == ir.Block {
			blockU, blockA = append(blockU, c.Rule.UserMessage()), append(blockA, c.Rule.AgentMessage())
		} else {
			warnU, warnA = append(warnU, c.Rule.UserMessage()), append(warnA, c.Rule.AgentMessage())
		}
	}
	user, agent := "", ""
	switch {
	case len(blockU) > 0:
		res.Outcome, user, agent = ir.Blocked, strings.Join(blockU, ir.MessageSep), strings.Join(blockA, ir.MessageSep)
	case len(warnU) > 0:
		res.Outcome, user, agent = ir.Warned, strings.Join(warnU, ir.MessageSep), strings.Join(warnA, ir.MessageSep)
	}
	a := ir.AnswerFor(h.Event, res.Outcome, env.Warn, h.FailClosed)
	res.Answer, res.Exit = a.Render(user, agent), a.Exit
	return res
}

// Hooks returns the script hooks of event e in the plan, in unit order.
func Hooks(plan *ir.Cursor, e ir.CursorEvent) []*ir.Hook {
	var out []*ir.Hook
	for _, u := range plan.Units {
		for _, h := range u.Hooks {
			if h.Event == e {
				out = append(out, h)
			}
		}
	}
	return out
}

// toolApplies: the payload names no tool, or one of tools.
func toolApplies(p *payload.Payload, tools []string) bool {
	if len(tools) == 0 {
		return true
	}
	t := p.Top(ir.ToolNameKey.Name)
	if !t.Set || t.Text == "" {
		return true
	}
	for _, x := range tools {
		if x == t.Text {
			return true
		}
	}
	return false
}

// A view is the payload as one check try sees it: look reads a key, and
// values caches the candidate values of each field.
type view struct {
	look   func(ir.Key) payload.Value
	values map[string][]string
}

// holds reports whether conds all hold in v for one choice of a candidate
// value per field.
func (r *Result) holds(p *payload.Payload, v view, conds []ir.ResolvedCondition, env Env) bool {
	fields, of := ir.Fields(conds)
	var lists [][]string
	for _, src := range fields {
		key := src.String()
		if _, ok := v.values[key]; !ok {
			v.values[key] = fieldValues(p, v.look, src, env)
		}
		lists = append(lists, v.values[key])
	}
	return !ir.Choices(lists, func(choice []string) bool {
		for i, c := range conds {
			ok, err := test(c.Condition, choice[of[i]])
			if err != nil && !slices.Contains(r.Problems, err.Error()) {
				r.Problems = append(r.Problems, err.Error())
			}
			if !ok {
				return true // try the next choice
			}
		}
		return false // this choice holds
	})
}

// fieldValues returns the candidate values of a source in a payload, in key
// order: the text of each set key, else the default "", else none.
func fieldValues(p *payload.Payload, look func(ir.Key) payload.Value, src ir.Source, env Env) []string {
	if src.LastAssistant {
		return []string{payload.LastAssistantMessage(transcript(p, env))}
	}
	if src.Transcript {
		return []string{transcript(p, env)}
	}
	var out []string
	for _, k := range src.Keys {
		if v := look(k); v.Set {
			out = append(out, v.Text)
		}
	}
	if len(out) == 0 && src.HasDefault {
		out = []string{""}
	}
	return out
}

// transcript is the text of the file named by transcript_path, else by
// $CURSOR_TRANSCRIPT_PATH, each NUL byte read as the byte 01, or "" when
// neither names a readable file.
func transcript(p *payload.Payload, env Env) string {
	name := p.Top(ir.TranscriptKey.Name).Text
	if name == "" && env.Getenv != nil {
		name = env.Getenv(ir.TranscriptEnv)
	}
	if name == "" || env.ReadFile == nil {
		return ""
	}
	data, err := env.ReadFile(name)
	if err != nil {
		return ""
	}
	// BWK and busybox awk cannot hold a NUL: the scripts read the pieces between
	// NULs and join them with the byte 01 (README, "Payload fields").
	return strings.ReplaceAll(string(data), "\x00", "\x01")
}

// test applies a condition's operator to a value.
func test(c *ir.Condition, v string) (bool, error) {
	s := c.Op.Spec()
	switch s.Test {
	case 0:
		return false, fmt.Errorf("unknown operator %d", c.Op)
	case ir.TestRegex:
		re, err := Regexp(c.Pattern)
		if err != nil {
			return false, fmt.Errorf("pattern %q: %w", c.Pattern, err)
		}
		return re.MatchString(v) != s.Negated, nil
	}
	return c.Op.HoldsPlain(v, c.Pattern), nil
}

var regexps sync.Map // pattern -> regexpEntry

type regexpEntry struct {
	re  *pyregex.Regexp
	err error
}

// Regexp compiles a rule pattern with Python's rules (IGNORECASE), once.
func Regexp(pattern string) (*pyregex.Regexp, error) {
	if e, ok := regexps.Load(pattern); ok {
		return e.(regexpEntry).re, e.(regexpEntry).err
	}
	re, err := pyregex.Compile(pattern)
	regexps.Store(pattern, regexpEntry{re, err})
	return re, err
}
