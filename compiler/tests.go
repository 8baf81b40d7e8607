package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// lowerTests reads the tests: key of a rule: a list of fixtures
//
//	tests:
//	  - input: {command: "npm publish"}
//	    expect: block
//	  - event: file          # required when the rule's event is all
//	    input: {file_path: src/app.ts, new_text: "console.log(1)"}
//	    expect: warn
//
// input maps rule field names (as conditions write them) to text; expect
// is allow, warn or block; event is a hookify event (bash, file, read,
// prompt, stop) or a Cursor event the rule runs on. The fixture is sent to
// the Cursor events of that hookify event (a file write goes to preToolUse
// and postToolUse), or of the rule's own event.
func lowerTests(f *parser.File, r *ir.Rule, warn ir.WarnMode, diags *diag.List) []ir.Example {
	p, ok := f.Field("tests")
	if !ok {
		return nil
	}
	v := p.Value
	if v.Fallback || v.Kind != parser.List {
		if v.Kind == parser.Scalar && !v.Fallback && (v.Tag == "!!null" || v.Str == "") {
			return nil
		}
		diags.Warnf(v.Pos, diag.Test, "tests must be a YAML list of {input, expect} items; the tests are ignored")
		return nil
	}
	var out []ir.Example
	for _, it := range v.Items {
		if t, ok := lowerTest(it, r, warn, diags); ok {
			out = append(out, t)
		}
	}
	return out
}

func lowerTest(it *parser.Value, r *ir.Rule, warn ir.WarnMode, diags *diag.List) (ir.Example, bool) {
	report := func(pos diag.Pos, msg string) { diags.Warnf(pos, diag.Test, "%s; the test is ignored", msg) }
	fx, ok := parser.ReadFixture(it, parser.TestFixture, report)
	t := ir.Example{Pos: it.Pos}
	if it.Kind != parser.Map {
		return t, false
	}
	if fx.Expect != nil {
		e, known := ir.ParseExpect(fx.Expect.Value.Str)
		if !known {
			report(fx.Expect.Value.Pos, fmt.Sprintf("unknown expect %q: use allow, warn or block", fx.Expect.Value.Str))
			ok = false
		}
		t.Expect = e
	}
	for _, p := range fx.Input {
		t.Input = append(t.Input, ir.Input(p))
	}
	evs, good := testEvent(it, fx.Event, r, warn, report)
	t.Events, ok = evs, ok && good
	return t, ok
}

// rowNames lists the hookify events a test may name.
var rowNames = ir.OrList(ir.EventNames(ir.Rows))

// testEvent returns the Cursor events a test's payload goes to; ev is its
// event, nil when it has none or none that is text (already reported).
func testEvent(it *parser.Value, ev *parser.Pair, r *ir.Rule, warn ir.WarnMode, report func(diag.Pos, string)) ([]ir.CursorEvent, bool) {
	on, _ := ir.Targets(r, warn)
	row := r.Event
	if ev == nil && it.Has("event") {
		return nil, false
	}
	if ev != nil {
		s := ev.Value.Str
		if ce, isCursor := ir.ParseCursorEvent(s); isCursor {
			evs := []ir.CursorEvent{ce}
			if spec := ce.Spec(); spec.WarnModes != nil {
				// A gate stands for the whole call: a warn rule may speak
				// on postToolUse for it (--warn context).
				evs = ir.RowEvents(spec.Rows[0])
			}
			if !slices.ContainsFunc(evs, func(e ir.CursorEvent) bool { return slices.Contains(on, e) }) {
				report(ev.Value.Pos, fmt.Sprintf("rule %s does not run on %s (it runs on %s)", r.Name, s, eventList(on)))
				return nil, false
			}
			return evs, true
		}
		e, isRow := ir.ParseEvent(s)
		if !isRow || e == ir.EventAll {
			report(ev.Value.Pos, fmt.Sprintf("unknown test event %q: use %s, or a Cursor event", s, rowNames))
			return nil, false
		}
		if r.Event != ir.EventAll && r.Event != e {
			report(ev.Value.Pos, fmt.Sprintf("the test's event %s is not the rule's event %s", e, r.Event))
			return nil, false
		}
		row = e
	} else if r.Event == ir.EventAll {
		report(it.Pos, fmt.Sprintf("a test of a rule with event all needs an event (%s)", rowNames))
		return nil, false
	}
	events := ir.RowEvents(row)
	if !slices.ContainsFunc(events, func(e ir.CursorEvent) bool { return slices.Contains(on, e) }) {
		pos := it.Pos
		if ev != nil {
			pos = ev.Value.Pos
		}
		report(pos, fmt.Sprintf("rule %s has no Cursor hook for %s, so this test cannot run", r.Name, row))
		return nil, false
	}
	return events, true
}

func eventList(es []ir.CursorEvent) string {
	var names []string
	for _, e := range es {
		names = append(names, e.String())
	}
	if len(names) == 0 {
		return "no event"
	}
	return strings.Join(names, ", ")
}
