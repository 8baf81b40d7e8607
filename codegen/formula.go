package codegen

import (
	"fmt"

	"github.com/hookify/hookify/ir"
)

// The check formula: when a rule of a hook holds, as one small tree that
// NewLayout builds once per hook and each script backend only prints, one
// function per kind of node (codegen/bash, codegen/powershell). What the
// formula means (README, "Payload fields") is decided here:
//
//   - a check holds when the payload's tool is one it names (ToolIs), its
//     conditions hold in the payload or in the view of some file of a
//     patch (OneOf of the payload's formula and InSomeView), and one of its
//     Any groups holds as well;
//   - conditions hold for some choice of a candidate value per field
//     (OneOf, one All per choice, ir.Choices): the candidate applies
//     (Present), and every condition holds on it (Test);
//   - Test is the test of one value: the one leaf that runs a rule's
//     pattern, where a new kind of matcher plugs into both backends.
//
// An All with no nodes always holds; a printer spells such a node as ""
// and drops it from an All, and a OneOf with such a node always holds
// (AnyOf).

// Node is a node of the check formula: All, OneOf, Present, Test,
// InSomeView or ToolIs.
type Node interface{ node() }

// All holds when each of its nodes does, tried in order; an empty All
// always holds.
type All []Node

// OneOf holds when one of its nodes does, tried in order.
type OneOf []Node

// Present holds when the candidate Val applies: its key is set or, for the
// candidate that stands for the field's default, none of the keys
// OrNoneOf is (the field's earlier keys).
type Present struct {
	Val      Value
	OrNoneOf []Value
}

// Test holds when the condition Cond holds on the value Val: the operator's
// test kind (ir.OpSpec.Test) on Cond's pattern, then its negation. It is
// the formula's one leaf that reads a rule's pattern.
type Test struct {
	Cond ir.ResolvedCondition
	Val  Value
}

// InSomeView holds when Node holds in the view of some file of a patch in
// the payload (README, "Payload fields"): Node reads the patch keys of one
// file (Value.View).
type InSomeView struct{ Node Node }

// ToolIs holds when the payload names no tool (the tool_name key, numbered
// Key, is empty) or one of Tools: the hooks.json matcher already filtered,
// and the check re-checks the tool when named.
type ToolIs struct {
	Key   int
	Tools []string
}

func (All) node()        {}
func (OneOf) node()      {}
func (Present) node()    {}
func (Test) node()       {}
func (InSomeView) node() {}
func (ToolIs) node()     {}

// Value is one candidate value of a field, as a script reads it.
type Value struct {
	// Key is the number of its payload key (Layout.Key); 0 for a
	// transcript text.
	Key int
	// View, when not 0, is the part of a patch's file the key reads in
	// the view of that file (ir.PatchKeys: 'f', 'm', 'a' or 'r').
	View byte
	// Transcript, when not 0, is the number of the transcript text
	// (HookLayout.Transcripts) the value is.
	Transcript int
	// Default: the value also stands for the field's default, "" when
	// its key is not set.
	Default bool
}

// Transcript is one text a hook reads from the transcript file, once,
// before its checks: the whole transcript, or its last assistant entry.
type Transcript struct {
	LastAssistant bool
}

// Check is one rule as a hook runs it: its number (Layout.Rule) and when it
// holds (nil when it always does).
type Check struct {
	Rule *ir.Rule
	Num  int
	When Node
}

// formula builds the checks of h, numbering transcripts in hl as it goes.
type formula struct {
	l           *Layout
	hl          *HookLayout
	transcripts map[ir.SourceID]int
}

// checks sets hl.Formula and hl.Transcripts from the hook's checks.
func (l *Layout) formula(hl *HookLayout) {
	f := &formula{l: l, hl: hl, transcripts: map[ir.SourceID]int{}}
	for _, c := range hl.Hook.Checks {
		for _, cd := range c.AllConds() {
			f.candidates(cd.Src, false) // the transcript is read before the checks
		}
	}
	patches := hl.ReadsPatches()
	for _, c := range hl.Hook.Checks {
		var when All
		if len(c.Tools) > 0 {
			when = append(when, ToolIs{Key: l.Key(ir.ToolNameKey), Tools: c.Tools})
		}
		views := OneOf{f.conds(c.Conds, false)}
		if patches && f.readsPatch(c.Conds) {
			// ... or in the view of one file of a patch.
			views = append(views, InSomeView{f.conds(c.Conds, true)})
		}
		when = append(when, unwrap(views))
		if len(c.Any) > 0 {
			// With groups in Any, one of them must hold as well.
			var alts OneOf
			for _, group := range c.Any {
				alts = append(alts, f.conds(group, false))
			}
			when = append(when, alts)
		}
		hl.Formula = append(hl.Formula, Check{Rule: c.Rule, Num: l.Rule(c.Rule), When: when})
	}
}

// unwrap is the one node of a OneOf of one node, else the OneOf.
func unwrap(o OneOf) Node {
	if len(o) == 1 {
		return o[0]
	}
	return o
}

// conds is the formula of conds: one All per choice of a candidate per
// field; with patch, in the view of one file of a patch.
func (f *formula) conds(conds []ir.ResolvedCondition, patch bool) Node {
	srcs, of := ir.Fields(conds)
	var lists [][]Value
	for _, src := range srcs {
		lists = append(lists, f.candidates(src, patch))
	}
	var choices OneOf
	ir.Choices(lists, func(choice []Value) bool {
		var all All
		for i, v := range choice {
			if p, ok := f.present(srcs[i], v, patch); ok {
				all = append(all, p)
			}
		}
		for i, cd := range conds {
			all = append(all, Test{Cond: cd, Val: choice[of[i]]})
		}
		choices = append(choices, all)
		return true
	})
	return unwrap(choices)
}

// readsPatch reports whether a condition of conds reads a patch key.
func (f *formula) readsPatch(conds []ir.ResolvedCondition) bool {
	for _, cd := range conds {
		for _, k := range cd.Src.Keys {
			if isPatchKey(k) {
				return true
			}
		}
	}
	return false
}

func isPatchKey(k ir.Key) bool {
	_, ok := ir.PatchKeys[k.Name]
	return ok && k.ToolInput
}

// candidates are the candidate values of src (README, "Payload fields"):
// the transcript text, read once; else each key of the field's source,
// when set; else, when none is, the source's default "", for which the
// last key's candidate also stands. With patch, the patch keys are read in
// the view of one file.
func (f *formula) candidates(src ir.Source, patch bool) []Value {
	if src.Transcript {
		id := src.ID()
		n, ok := f.transcripts[id]
		if !ok {
			f.hl.Transcripts = append(f.hl.Transcripts, Transcript{LastAssistant: src.LastAssistant})
			n = len(f.hl.Transcripts)
			f.transcripts[id] = n
		}
		return []Value{{Transcript: n}}
	}
	var vs []Value
	for i, k := range src.Keys {
		v := Value{Key: f.l.Key(k), Default: i == len(src.Keys)-1 && src.HasDefault}
		if patch && isPatchKey(k) {
			v.View = ir.PatchKeys[k.Name]
		}
		vs = append(vs, v)
	}
	return vs
}

// present is the test that candidate v of src applies, false when it
// always does: a transcript, or the default of a field of one key.
func (f *formula) present(src ir.Source, v Value, patch bool) (Present, bool) {
	if v.Transcript != 0 {
		return Present{}, false
	}
	if !v.Default {
		return Present{Val: v}, true
	}
	others := f.candidates(ir.Source{Keys: src.Keys[:len(src.Keys)-1]}, patch)
	return Present{Val: v, OrNoneOf: others}, len(others) > 0
}

// Spelling spells each kind of formula node in a script's language, one
// function per construct; Spell walks the tree.
type Spelling[T any] struct {
	All        func(nodes []T) T
	OneOf      func(nodes []T) T
	InSomeView func(node T) T
	Present    func(Present) T
	ToolIs     func(ToolIs) T
	Test       func(Test) T
}

// Spell spells n with s: the nodes of a node first, in order, then the
// node itself.
func Spell[T any](n Node, s Spelling[T]) T {
	switch n := n.(type) {
	case All:
		return s.All(spellEach(n, s))
	case OneOf:
		return s.OneOf(spellEach(n, s))
	case InSomeView:
		return s.InSomeView(Spell(n.Node, s))
	case Present:
		return s.Present(n)
	case ToolIs:
		return s.ToolIs(n)
	case Test:
		return s.Test(n)
	}
	panic(fmt.Sprintf("codegen: unknown formula node %T", n))
}

func spellEach[T any](ns []Node, s Spelling[T]) []T {
	out := make([]T, 0, len(ns))
	for _, n := range ns {
		out = append(out, Spell(n, s))
	}
	return out
}
