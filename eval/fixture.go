package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// Fixture is one payload and the decision expected from the hooks that
// Cursor runs for it. It comes from a rule's tests: or from a case file.
type Fixture struct {
	Pos  diag.Pos
	Name string // optional, from a case file
	// Rule is the rule whose tests: holds the fixture (nil for a case).
	Rule *ir.Rule
	// Events are the Cursor events the payload is sent to; the decision is
	// the strongest of their answers (block, then warn, then allow).
	Events []ir.CursorEvent
	// Raw is the payload as sent. When nil, Payload builds it from Input.
	Raw   []byte
	Input []ir.Input
	// Transcript, when not nil, is the text of the transcript file that
	// $CURSOR_TRANSCRIPT_PATH names during the run.
	Transcript *string
	Expect     ir.Expect
}

// FromTest is the fixture of a rule's test.
func FromTest(r *ir.Rule, t ir.Example) Fixture {
	return Fixture{Pos: t.Pos, Rule: r, Events: t.Events, Input: t.Input, Expect: t.Expect}
}

// Payload returns the payload for event e. Built from Input, it holds
// hook_event_name and each input field at the first payload key of the
// field's source on e (ir.Resolve): command at the top level, file_path,
// new_text (new_string), old_text (old_string) and content in tool_input,
// user_prompt as prompt; transcript is written with writeTranscript and
// named by transcript_path. A tool event without tool_name gets Write when
// the input has content, else StrReplace, or else the first tool the rule
// of the test guards there (Task for a rule whose tool_matcher is Task); on an MCP event tool_input is a
// string of JSON, as Cursor sends it there.
func (f Fixture) Payload(e ir.CursorEvent, writeTranscript func(text string) (string, error)) ([]byte, error) {
	if f.Raw != nil {
		return f.Raw, nil
	}
	type kv struct{ k, v string }
	top := []kv{{"hook_event_name", ir.JSONString(e.String())}}
	var tool []kv
	set := func(list *[]kv, k, v string) {
		for i := range *list {
			if (*list)[i].k == k {
				(*list)[i].v = v
				return
			}
		}
		*list = append(*list, kv{k, v})
	}
	hasTool, hasContent := false, false
	transcript := ""
	for _, in := range f.Input {
		v := ir.JSONString(in.Value)
		if in.Null {
			v = "null"
		}
		src, _ := ir.Resolve(e, in.Field)
		if src.Transcript {
			// transcript is the file's text; last_assistant_message one
			// more line, an assistant entry of Cursor's transcript that
			// says the value (payload.LastAssistantMessage).
			text := in.Value
			if src.LastAssistant {
				if transcript != "" && !strings.HasSuffix(transcript, "\n") {
					transcript += "\n"
				}
				text = transcript + AssistantEntry(in.Value) + "\n"
			} else if transcript != "" {
				text += "\n" + transcript
			}
			transcript = text
			name, err := writeTranscript(text)
			if err != nil {
				return nil, err
			}
			set(&top, ir.TranscriptKey.Name, ir.JSONString(name))
			continue
		}
		k := src.Keys[0]
		if k.ToolInput {
			set(&tool, k.Name, v)
			hasContent = hasContent || k.Name == "content" || k.Name == "contents"
		} else {
			set(&top, k.Name, v)
			hasTool = hasTool || k == ir.ToolNameKey
		}
	}
	if i := slices.IndexFunc(top, func(x kv) bool { return x.k == ir.ToolNameKey.Name }); i >= 0 && !e.Spec().MCP &&
		slices.ContainsFunc(f.Events, func(e ir.CursorEvent) bool { return e.Spec().MCP }) {
		// An MCP call: a generic tool event names its tool MCP:<tool>.
		var v string
		if top[i].v != "null" && json.Unmarshal([]byte(top[i].v), &v) == nil && !strings.HasPrefix(v, "MCP:") {
			top[i].v = ir.JSONString("MCP:" + v)
		}
	}
	if e.Spec().Tool && !e.Spec().MCP && !hasTool {
		name := "StrReplace"
		if hasContent {
			name = "Write"
		}
		if f.Rule != nil {
			// Under --warn context a shell or MCP warn rule is on
			// postToolUse too; under the other modes it has no tool
			// there, and the payload's tool is one no check of it reads.
			if tools := ir.ToolsOn(f.Rule, e, ir.WarnContext); len(tools) > 0 && !slices.Contains(tools, name) {
				name = tools[0] // a tool the rule guards there: Task for a Task rule
			}
		}
		top = slices.Insert(top, 1, kv{ir.ToolNameKey.Name, ir.JSONString(name)})
	}
	object := func(list []kv) string {
		var b strings.Builder
		b.WriteByte('{')
		for i, x := range list {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(ir.JSONString(x.k) + ":" + x.v)
		}
		b.WriteByte('}')
		return b.String()
	}
	if len(tool) > 0 || e.Spec().Tool {
		ti := object(tool)
		if e.Spec().MCP {
			ti = ir.JSONString(ti) // as Cursor sends it: the arguments as a string of JSON
		}
		top = append(top, kv{"tool_input", ti})
	}
	return []byte(object(top) + "\n"), nil
}

// AssistantEntry is a line of Cursor's agent transcript in which the agent
// says text (payload.LastAssistantMessage), without its newline.
func AssistantEntry(text string) string {
	return `{"role":"assistant","message":{"content":[{"type":"text","text":` + ir.JSONString(text) + `}]}}`
}

// ReadCases reads the fixtures of the case files under dir in fsys: every
// .json, .yaml and .yml file, in bytewise path order. A file holds one case
// or a list of cases:
//
//   - name: force push is blocked   # optional
//     event: beforeShellExecution   # a Cursor event, or bash, file, read, prompt, stop
//     payload: {"command": "git push --force"}   # a map, sent as JSON;
//     # or a string, sent as is (BOMs, broken JSON)
//     input: {command: "git push -f"}            # or rule fields, as in tests:
//     transcript: "..."             # optional: the file $CURSOR_TRANSCRIPT_PATH names
//     expect: block                 # allow, warn or block
//
// The event file means a file write: preToolUse, then postToolUse.
func ReadCases(fsys fs.FS, dir string) ([]Fixture, diag.List) {
	var diags diag.List
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch path.Ext(p) {
		case ".json", ".yaml", ".yml":
			if !d.IsDir() {
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		diags.Errorf(diag.Pos{File: dir}, diag.Case, "cannot read the cases: %v", err)
		return nil, diags
	}
	if len(files) == 0 {
		diags.Errorf(diag.Pos{File: dir}, diag.Case, "no .json, .yaml or .yml case files here")
	}
	slices.Sort(files)
	var out []Fixture
	for _, f := range files {
		// Only regular files (after symbolic links): a FIFO would hang the
		// run and a device such as /dev/zero would exhaust memory.
		if st, err := fs.Stat(fsys, f); err == nil && !st.Mode().IsRegular() {
			diags.Errorf(diag.Pos{File: f}, diag.Case, "cannot read: not a regular file (a named pipe, a device or a socket)")
			continue
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			diags.Errorf(diag.Pos{File: f}, diag.Case, "cannot read: %v", err)
			continue
		}
		out = append(out, parseCases(f, data, &diags)...)
	}
	return out, diags.Sort()
}

func parseCases(file string, data []byte, diags *diag.List) []Fixture {
	doc, ds := parser.ParseYAML(file, data)
	*diags = append(*diags, ds...)
	if ds.HasErrors() {
		return nil
	}
	if doc == nil {
		diags.Errorf(diag.Pos{File: file}, diag.Case, "the file holds no case")
		return nil
	}
	items := []*parser.Value{doc}
	if doc.Kind == parser.List {
		items = doc.Items
	}
	var out []Fixture
	for _, it := range items {
		if f, ok := parseCase(it, diags); ok {
			out = append(out, f)
		}
	}
	return out
}

// parseCase reads one case with parser.ReadFixture, the reader of a
// rule's tests: too, and says what its texts mean.
func parseCase(it *parser.Value, diags *diag.List) (Fixture, bool) {
	report := func(pos diag.Pos, msg string) { diags.Errorf(pos, diag.Case, "%s", msg) }
	fx, ok := parser.ReadFixture(it, parser.CaseFixture, report)
	f := Fixture{Pos: it.Pos}
	if it.Kind != parser.Map {
		return f, false
	}
	if fx.Name != nil {
		f.Name = fx.Name.Value.Str
	}
	if fx.Event != nil {
		evs, known := ParseEvents(fx.Event.Value.Str)
		if !known {
			report(fx.Event.Value.Pos, fmt.Sprintf("unknown event %q: use a Cursor event, or %s", fx.Event.Value.Str, ir.OrList(ir.EventNames(ir.Rows))))
			ok = false
		}
		f.Events = evs
	}
	if fx.Expect != nil {
		e, known := ir.ParseExpect(fx.Expect.Value.Str)
		if !known {
			report(fx.Expect.Value.Pos, fmt.Sprintf("unknown expect %q: use allow, warn or block", fx.Expect.Value.Str))
			ok = false
		}
		f.Expect = e
	}
	if p := fx.Payload; p != nil {
		if p.Value.Kind == parser.Scalar {
			f.Raw = []byte(p.Value.Str)
		} else if js, err := toJSON(p.Value); err != nil {
			report(p.Value.Pos, "payload: "+err.Error())
			ok = false
		} else {
			f.Raw = []byte(js + "\n")
		}
	}
	for _, p := range fx.Input {
		f.Input = append(f.Input, ir.Input(p))
	}
	if fx.Transcript != nil {
		s := fx.Transcript.Value.Str
		f.Transcript = &s
	}
	if !it.Has("payload") && !it.Has("input") {
		f.Raw = []byte("{}\n")
	}
	return f, ok
}

// ParseEvents reads the event of a case or of hookify eval --event: a
// Cursor event, or a hookify event other than all (the Cursor events that
// carry its payloads).
func ParseEvents(s string) ([]ir.CursorEvent, bool) {
	if e, ok := ir.ParseCursorEvent(s); ok {
		return []ir.CursorEvent{e}, true
	}
	if e, ok := ir.ParseEvent(s); ok && slices.Contains(ir.Rows, e) {
		return ir.RowEvents(e), true
	}
	return nil, false
}

// toJSON writes a YAML value as JSON, keeping the order of keys.
func toJSON(v *parser.Value) (string, error) {
	switch v.Kind {
	case parser.Map:
		var parts []string
		for _, p := range v.Pairs {
			s, err := toJSON(p.Value)
			if err != nil {
				return "", err
			}
			parts = append(parts, ir.JSONString(p.Key)+":"+s)
		}
		return "{" + strings.Join(parts, ",") + "}", nil
	case parser.List:
		var parts []string
		for _, it := range v.Items {
			s, err := toJSON(it)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	}
	switch v.Tag {
	case "!!null":
		return "null", nil
	case "!!bool":
		return strconv.FormatBool(v.Str == "true" || v.Str == "True" || v.Str == "TRUE"), nil
	case "!!int", "!!float":
		if isJSONNumber(v.Str) {
			return v.Str, nil
		}
		return "", fmt.Errorf("%s is not a JSON number; quote it", v.Str)
	}
	return ir.JSONString(v.Str), nil
}

func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	start := i
	if n := digits(); n == 0 || n > 1 && s[start] == '0' {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
