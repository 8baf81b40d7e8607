package eval

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
)

func TestPayload(t *testing.T) {
	noFile := func(string) (string, error) { return "/tmp/t1", nil }
	for _, c := range []struct {
		e    ir.CursorEvent
		in   []ir.Input
		want string
	}{
		{ir.BeforeShellExecution, []ir.Input{{Field: "command", Value: "ls \"x\""}, {Field: "cwd", Null: true}},
			`{"hook_event_name":"beforeShellExecution","command":"ls \"x\"","cwd":null}`},
		{ir.PreToolUse, []ir.Input{{Field: "file_path", Value: "a.go"}, {Field: "new_text", Value: "x"}, {Field: "old_text", Value: "y"}},
			`{"hook_event_name":"preToolUse","tool_name":"StrReplace","tool_input":{"file_path":"a.go","new_string":"x","old_string":"y"}}`},
		{ir.PostToolUse, []ir.Input{{Field: "content", Value: "<b>"}, {Field: "tool_input.mode", Value: "w"}},
			`{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"content":"<b>","mode":"w"}}`},
		{ir.PreToolUse, []ir.Input{{Field: "tool_name", Value: "Read"}},
			`{"hook_event_name":"preToolUse","tool_name":"Read","tool_input":{}}`},
		{ir.BeforeSubmitPrompt, []ir.Input{{Field: "user_prompt", Value: "hi"}, {Field: "prompt", Value: "later wins"}},
			`{"hook_event_name":"beforeSubmitPrompt","prompt":"later wins"}`},
		{ir.Stop, []ir.Input{{Field: "transcript", Value: "text"}, {Field: "status", Value: "completed"}},
			`{"hook_event_name":"stop","transcript_path":"/tmp/t1","status":"completed"}`},
	} {
		got, err := Fixture{Input: c.in}.Payload(c.e, noFile)
		if err != nil || string(got) != c.want+"\n" {
			t.Errorf("%s %v: got %s (%v), want %s", c.e, c.in, got, err, c.want)
		}
	}
}

func TestReadCases(t *testing.T) {
	fsys := fstest.MapFS{
		"cases/a.yaml": {Data: []byte(`- name: one
  event: file
  payload: {tool_name: Write, tool_input: {file_path: .env, n: 1, ok: true, x: null, l: [1, "a"]}}
  expect: block
- event: bash
  payload: "\uFEFF{\"command\": 1"
  expect: allow
`)},
		"cases/b/c.json":  {Data: []byte(`{"event": "stop", "input": {"reason": "r"}, "transcript": "go test", "expect": "warn"}`)},
		"cases/readme.md": {Data: []byte("not a case")},
		"bad/x.yml":       {Data: []byte("event: nope\npayload: 3\nexpect: maybe\nextra: 1\n")},
		"bad/y.yml":       {Data: []byte("[unclosed\n")},
	}
	fx, diags := ReadCases(fsys, "cases")
	if len(diags) > 0 || len(fx) != 3 {
		t.Fatalf("%d fixtures, %v", len(fx), diags)
	}
	if fx[0].Name != "one" || string(fx[0].Raw) != `{"tool_name":"Write","tool_input":{"file_path":".env","n":1,"ok":true,"x":null,"l":[1,"a"]}}`+"\n" ||
		len(fx[0].Events) != 2 || fx[0].Expect != ir.ExpectBlock || fx[0].Pos.String() != "cases/a.yaml:1:3" {
		t.Errorf("case 0: %+v %s", fx[0], fx[0].Raw)
	}
	if string(fx[1].Raw) != "\ufeff{\"command\": 1" || fx[1].Events[0] != ir.BeforeShellExecution {
		t.Errorf("case 1: %+v", fx[1])
	}
	if fx[2].Raw != nil || fx[2].Input[0] != (ir.Input{Field: "reason", Value: "r"}) || *fx[2].Transcript != "go test" || fx[2].Expect != ir.ExpectWarn || fx[2].Pos.File != "cases/b/c.json" {
		t.Errorf("case 2: %+v", fx[2])
	}
	_, diags = ReadCases(fsys, "bad")
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`bad/x.yml:1:8: error: unknown event "nope": use a Cursor event, or bash, file, read, prompt or stop`,
		`bad/x.yml:2:10: error: payload must be a map (sent as JSON) or a string (sent as is)`,
		`bad/x.yml:3:9: error: unknown expect "maybe": use allow, warn or block`,
		`bad/x.yml:4:1: error: unknown case key extra (use name, event, payload, input, transcript and expect)`,
	}
	if len(got) != 5 || strings.Join(got[:4], "\n") != strings.Join(want, "\n") || !strings.HasPrefix(got[4], "bad/y.yml:") {
		t.Errorf("diagnostics:\n%s", strings.Join(got, "\n"))
	}
}

// TestReadCasesSpecialFiles: a FIFO named like a case file is refused,
// not opened (opening it would wait for a writer forever).
func TestReadCasesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cases"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "cases/pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cases/ok.json"), []byte(`{"event": "bash", "input": {"command": "ls"}, "expect": "allow"}`), 0o644)
	done := make(chan struct{})
	var fx []Fixture
	var diags diag.List
	go func() {
		fx, diags = ReadCases(os.DirFS(dir), "cases")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ReadCases opened the FIFO and hangs")
	}
	if len(fx) != 1 || len(diags) != 1 || !strings.HasPrefix(diags[0].String(), "cases/pipe.json: error: cannot read: not a regular file") {
		t.Errorf("%d fixtures, diagnostics %v", len(fx), diags)
	}
}
