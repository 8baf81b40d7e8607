package compiler

import (
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
	t := ir.Example{Pos: it.Pos}
	if it.Kind != parser.Map {
		diags.Warnf(it.Pos, diag.Test, "a test must be a map with input and expect; it is ignored")
		return t, false
	}
	ok := true
	for _, kv := range it.Pairs {
		switch kv.Key {
		case "input", "expect", "event":
		default:
			diags.Warnf(kv.KeyPos, diag.Test, "unknown test key %s (use input, expect and event); the test is ignored", kv.Key)
			ok = false
		}
	}
	if p, found := it.Get("expect"); !found {
		diags.Warnf(it.Pos, diag.Test, "the test has no expect (allow, warn or block); it is ignored")
		ok = false
	} else if s, good := testScalar(p, diags); good {
		e, known := ir.ParseExpect(s)
		if !known {
			diags.Warnf(p.Value.Pos, diag.Test, "unknown expect %q: use allow, warn or block; the test is ignored", s)
			ok = false
		}
		t.Expect = e
	} else {
		ok = false
	}
	if p, found := it.Get("input"); found {
		in, good := lowerInput(p, diags)
		t.Input, ok = in, ok && good
	}
	evs, good := testEvent(it, r, warn, diags)
	t.Events, ok = evs, ok && good
	return t, ok
}

func testScalar(p *parser.Pair, diags *diag.List) (string, bool) {
	if p.Value.Kind != parser.Scalar {
		diags.Warnf(p.Value.Pos, diag.Test, "%s must be text; the test is ignored", p.Key)
		return "", false
	}
	return p.Value.Str, true
}

func lowerInput(p *parser.Pair, diags *diag.List) ([]ir.Input, bool) {
	v := p.Value
	if v.Kind == parser.Scalar && v.Tag == "!!null" {
		return nil, true
	}
	if v.Kind != parser.Map {
		diags.Warnf(v.Pos, diag.Test, "input must be a map of rule fields to text, for example {command: \"npm publish\"}; the test is ignored")
		return nil, false
	}
	var out []ir.Input
	ok := true
	for _, kv := range v.Pairs {
		if !fieldRE.MatchString(kv.Key) {
			diags.Warnf(kv.KeyPos, diag.Test, "input key %q is not a field name; the test is ignored", kv.Key)
			ok = false
			continue
		}
		if kv.Value.Kind != parser.Scalar {
			diags.Warnf(kv.Value.Pos, diag.Test, "input %s must be text; quote it; the test is ignored", kv.Key)
			ok = false
			continue
		}
		in := ir.Input{Field: kv.Key, Value: kv.Value.Str}
		if kv.Value.Tag == "!!null" {
			in = ir.Input{Field: kv.Key, Null: true}
		}
		if i := slices.IndexFunc(out, func(x ir.Input) bool { return x.Field == kv.Key }); i >= 0 {
			out[i] = in // the last one wins, as in the front matter
			continue
		}
		out = append(out, in)
	}
	return out, ok
}

// rowNames lists the hookify events a test may name.
var rowNames = ir.OrList(ir.EventNames(ir.Rows))

// testEvent returns the Cursor events a test's payload goes to.
func testEvent(it *parser.Value, r *ir.Rule, warn ir.WarnMode, diags *diag.List) ([]ir.CursorEvent, bool) {
	on, _ := ir.Targets(r, warn)
	row := r.Event
	p, found := it.Get("event")
	if found {
		s, ok := testScalar(p, diags)
		if !ok {
			return nil, false
		}
		if ce, isCursor := ir.ParseCursorEvent(s); isCursor {
			evs := []ir.CursorEvent{ce}
			if spec := ce.Spec(); spec.WarnModes != nil {
				// A gate stands for the whole call: a warn rule may speak
				// on postToolUse for it (--warn context).
				evs = ir.RowEvents(spec.Rows[0])
			}
			if !slices.ContainsFunc(evs, func(e ir.CursorEvent) bool { return slices.Contains(on, e) }) {
				diags.Warnf(p.Value.Pos, diag.Test, "rule %s does not run on %s (it runs on %s); the test is ignored", r.Name, s, eventList(on))
				return nil, false
			}
			return evs, true
		}
		e, isRow := ir.ParseEvent(s)
		if !isRow || e == ir.EventAll {
			diags.Warnf(p.Value.Pos, diag.Test, "unknown test event %q: use %s, or a Cursor event; the test is ignored", s, rowNames)
			return nil, false
		}
		if r.Event != ir.EventAll && r.Event != e {
			diags.Warnf(p.Value.Pos, diag.Test, "the test's event %s is not the rule's event %s; the test is ignored", e, r.Event)
			return nil, false
		}
		row = e
	} else if r.Event == ir.EventAll {
		diags.Warnf(it.Pos, diag.Test, "a test of a rule with event all needs an event (%s); the test is ignored", rowNames)
		return nil, false
	}
	events := ir.RowEvents(row)
	if !slices.ContainsFunc(events, func(e ir.CursorEvent) bool { return slices.Contains(on, e) }) {
		pos := it.Pos
		if found {
			pos = p.Value.Pos
		}
		diags.Warnf(pos, diag.Test, "rule %s has no Cursor hook for %s, so this test cannot run; it is ignored", r.Name, row)
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
