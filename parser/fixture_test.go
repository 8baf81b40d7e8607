package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookify/hookify/diag"
)

// TestReadFixture: one reader for a rule's tests: and for case files, with
// the same problems reported at the same places in both, and only the keys
// and the nouns of each kind.
func TestReadFixture(t *testing.T) {
	for _, c := range []struct {
		src       string
		test, cse []string // the problems reported, as line:col: message
		input     string   // the input read, when there are no problems
	}{
		{src: "input: {command: ls, cwd: null, command: rm}\nexpect: block\nevent: bash",
			input: "[{command rm false} {cwd  true}]"},
		{src: "expect: [a]\ninput: {tool_input.x: [1], 9bad: x}\nextra: 1",
			test: []string{"1:9: expect must be text", "2:23: input tool_input.x must be text; quote it", "2:28: input key \"9bad\" is not a field name", "3:1: unknown test key extra (use input, expect and event)"},
			cse:  []string{"1:1: the case has no event", "1:9: expect must be text", "2:23: input tool_input.x must be text; quote it", "2:28: input key \"9bad\" is not a field name", "3:1: unknown case key extra (use name, event, payload, input, transcript and expect)"}},
		{src: "- a", test: []string{"1:1: a test must be a map of input, expect and event"}, cse: []string{"1:1: a case must be a map of name, event, payload, input, transcript and expect"}},
		{src: "input: x\nevent: {a: 1}",
			test: []string{"1:1: the test has no expect (allow, warn or block)", "1:8: input must be a map of rule fields to text, for example {command: \"npm publish\"}", "2:8: event must be text"},
			cse:  []string{"1:1: the case has no expect (allow, warn or block)", "1:8: input must be a map of rule fields to text, for example {command: \"npm publish\"}", "2:8: event must be text"}},
		{src: "payload: 3\ninput: {}\nexpect: allow\nevent: bash",
			test: []string{"1:1: unknown test key payload (use input, expect and event)"},
			cse:  []string{"1:1: give payload or input, not both", "1:10: payload must be a map (sent as JSON) or a string (sent as is)"}},
	} {
		v, ds := ParseYAML("f.yaml", []byte(c.src))
		if len(ds) > 0 || v == nil {
			t.Fatalf("%q: %v", c.src, ds)
		}
		for _, k := range []struct {
			kind FixtureKind
			want []string
		}{{TestFixture, c.test}, {CaseFixture, c.cse}} {
			var got []string
			f, ok := ReadFixture(v, k.kind, func(pos diag.Pos, msg string) {
				got = append(got, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Col, msg))
			})
			if d := cmp.Diff(sorted(k.want), sorted(got)); d != "" {
				t.Errorf("%s of %q (-want +got):\n%s", k.kind.Noun, c.src, d)
			}
			if ok != (len(got) == 0) {
				t.Errorf("%s of %q: ok=%v with %d problems", k.kind.Noun, c.src, ok, len(got))
			}
			if ok && c.input != "" && fmt.Sprint(f.Input) != c.input {
				t.Errorf("%s of %q: input %v, want %s", k.kind.Noun, c.src, f.Input, c.input)
			}
		}
	}
}

func sorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return slices.Sorted(slices.Values(s))
}

// FuzzReadFixture reads any YAML as a fixture of both kinds: no panic, and
// every problem is in the file, at a line of it.
func FuzzReadFixture(f *testing.F) {
	f.Add("input: {command: ls}\nexpect: block\nevent: bash\n")
	f.Add("- {payload: '{\"a\":1}', expect: allow, event: stop, name: x, transcript: t}\n")
	f.Add("a: &x [*x]\n")
	f.Fuzz(func(t *testing.T, src string) {
		v, _ := ParseYAML("f.yaml", []byte(src))
		if v == nil {
			return
		}
		lines := strings.Count(src, "\n") + strings.Count(src, "\r") + 1 // a lone CR ends a line too
		for _, it := range append([]*Value{v}, v.Items...) {
			for _, k := range []FixtureKind{TestFixture, CaseFixture} {
				ReadFixture(it, k, func(pos diag.Pos, msg string) {
					if pos.File != "f.yaml" || pos.Line < 1 || pos.Line > lines || msg == "" {
						t.Errorf("%q: problem at %v: %q", src, pos, msg)
					}
				})
			}
		}
	})
}
