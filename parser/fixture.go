package parser

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/hookify/hookify/diag"
)

// FieldName is the syntax of a rule field (and of a fixture's input key): a
// payload key name, optionally after tool_input.
var FieldName = regexp.MustCompile(`^(tool_input\.)?[A-Za-z_][A-Za-z0-9_]*$`)

// A Fixture is one item of a rule's tests: (README, "Testing rules") or of
// a case file of hookify test --cases and hookify eval, as written: each
// field is the pair that gives it, or nil. What the texts mean (an expect,
// an event, a payload) is for the reader of the fixture to say.
type Fixture struct {
	Pos                 diag.Pos
	Name, Event, Expect *Pair          // text
	Input               []FixtureInput // the last of each field
	HasInput            bool
	Payload             *Pair // a map (sent as JSON) or a string (sent as is)
	Transcript          *Pair // text
}

// FixtureInput is a rule field of a fixture's input and its text, or
// null (with the fields of ir.Input, which it converts to).
type FixtureInput struct {
	Field string
	Value string
	Null  bool
}

// FixtureKind says where fixtures are written: their keys and what each
// is called in messages.
type FixtureKind struct {
	Noun string   // "test" or "case"
	Keys []string // the keys it may have, in the order messages list them
}

var (
	// TestFixture is an item of a rule's tests:.
	TestFixture = FixtureKind{Noun: "test", Keys: []string{"input", "expect", "event"}}
	// CaseFixture is a case of a case file.
	CaseFixture = FixtureKind{Noun: "case", Keys: []string{"name", "event", "payload", "input", "transcript", "expect"}}
)

// ReadFixture reads v as a fixture of kind k. Each problem goes to report,
// at its position, and makes ok false; a fixture with problems is read on
// as far as it can be, so that all of them are reported.
func ReadFixture(v *Value, k FixtureKind, report func(pos diag.Pos, msg string)) (f Fixture, ok bool) {
	f.Pos = v.Pos
	ok = true
	bad := func(pos diag.Pos, format string, args ...any) {
		report(pos, fmt.Sprintf(format, args...))
		ok = false
	}
	if v.Kind != Map {
		bad(v.Pos, "a %s must be a map of %s", k.Noun, andList(k.Keys))
		return f, false
	}
	text := func(p *Pair) *Pair {
		if p.Value.Kind != Scalar {
			bad(p.Value.Pos, "%s must be text", p.Key)
			return nil
		}
		return p
	}
	for _, p := range v.Pairs {
		if !slices.Contains(k.Keys, p.Key) {
			bad(p.KeyPos, "unknown %s key %s (use %s)", k.Noun, p.Key, andList(k.Keys))
			continue
		}
		switch p.Key {
		case "name":
			f.Name = text(p)
		case "event":
			f.Event = text(p)
		case "expect":
			f.Expect = text(p)
		case "transcript":
			f.Transcript = text(p)
		case "payload":
			if p.Value.Kind == List || p.Value.Kind == Scalar && p.Value.Tag != "!!str" {
				bad(p.Value.Pos, "payload must be a map (sent as JSON) or a string (sent as is)")
				break
			}
			f.Payload = p
		case "input":
			f.HasInput = true
			if p.Value.Kind != Map && !isNull(p.Value) {
				bad(p.Value.Pos, `input must be a map of rule fields to text, for example {command: "npm publish"}`)
				break
			}
			f.Input = readInput(p.Value, bad)
		}
	}
	if !v.Has("expect") {
		bad(v.Pos, "the %s has no expect (allow, warn or block)", k.Noun)
	}
	if slices.Contains(k.Keys, "payload") {
		if !v.Has("event") {
			bad(v.Pos, "the %s has no event", k.Noun)
		}
		if v.Has("payload") && v.Has("input") {
			bad(v.Pos, "give payload or input, not both")
		}
	}
	return f, ok
}

// readInput reads the map of an input: rule fields to text; the last
// of a field wins, as in the front matter.
func readInput(v *Value, bad func(pos diag.Pos, format string, args ...any)) []FixtureInput {
	if v.Kind != Map {
		return nil
	}
	var out []FixtureInput
	for _, kv := range v.Pairs {
		if !FieldName.MatchString(kv.Key) {
			bad(kv.KeyPos, "input key %q is not a field name", kv.Key)
			continue
		}
		if kv.Value.Kind != Scalar {
			bad(kv.Value.Pos, "input %s must be text; quote it", kv.Key)
			continue
		}
		in := FixtureInput{Field: kv.Key, Value: kv.Value.Str}
		if isNull(kv.Value) {
			in = FixtureInput{Field: kv.Key, Null: true}
		}
		if i := slices.IndexFunc(out, func(x FixtureInput) bool { return x.Field == kv.Key }); i >= 0 {
			out[i] = in
			continue
		}
		out = append(out, in)
	}
	return out
}

func isNull(v *Value) bool { return v.Kind == Scalar && v.Tag == "!!null" }

// Has reports whether the map v has the key.
func (v *Value) Has(key string) bool { _, ok := v.Get(key); return ok }

// andList joins the keys of a kind as "a, b and c" (each kind has two or
// more).
func andList(words []string) string {
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// ParseYAML reads a YAML (or JSON) document that is not a rule file, such
// as a case file, into Values with positions in path. A document YAML
// cannot read gives an error at its position; an empty one gives nil.
func ParseYAML(path string, src []byte) (*Value, diag.List) {
	var diags diag.List
	if !utf8.Valid(src) {
		diags.Errorf(diag.Pos{File: path}, diag.YAML, "invalid YAML: the file is not valid UTF-8")
		return nil, diags
	}
	text := string(src)
	n, err := loadYAML(text)
	if err != nil {
		line, col, msg := yamlErrorPos(err)
		diags.Errorf(diag.Pos{File: path, Line: line, Col: col}, diag.YAML, "invalid YAML: %s", msg)
		return nil, diags
	}
	if n == nil {
		return nil, diags
	}
	c := converter{path: path, lines: strings.SplitAfter(text, "\n"), firstLine: 1, aliases: &aliasState{open: map[*yaml.Node]bool{}}}
	return c.value(n, &diags), diags
}
