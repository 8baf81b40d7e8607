package ir

import (
	"slices"
	"testing"
)

func TestFileName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"block-grep-extended", "block-grep-extended"},
		{"Sudo rule!", "Sudo-rule"},
		{"../../../evil", "evil"},
		{"a/b\\c", "a-b-c"},
		{".hidden", "hidden"},
		{"日本語", "rule"},
		{"", "rule"},
		{"x\ny", "x-y"},
		{"v1.2..", "v1.2"},
	} {
		if got := FileName(tt.in); got != tt.want {
			t.Errorf("FileName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAnswers pins the answer of every Cursor event and outcome to the
// shapes of the README's "Event and action mapping".
func TestAnswers(t *testing.T) {
	const u, a = "U\n\"x\"", "A"
	for _, tt := range []struct {
		e          CursorEvent
		o          Outcome
		warn       WarnMode
		failClosed bool
		want       string
		exit       int
	}{
		{BeforeShellExecution, Blocked, WarnAsk, true, `{"permission":"deny","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeShellExecution, Warned, WarnAsk, true, `{"permission":"ask","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeShellExecution, Warned, WarnAllow, true, `{"permission":"allow","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeShellExecution, None, WarnAsk, true, `{"permission":"allow"}`, 0},
		{BeforeShellExecution, Failed, WarnAsk, true, ``, 2},
		{BeforeShellExecution, Failed, WarnAsk, false, ``, 1},
		{BeforeMCPExecution, Blocked, WarnAsk, true, `{"permission":"deny","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeMCPExecution, Warned, WarnAsk, true, `{"permission":"ask","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeMCPExecution, Warned, WarnAllow, true, `{"permission":"allow","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{BeforeMCPExecution, None, WarnAsk, true, `{"permission":"allow"}`, 0},
		{BeforeMCPExecution, Failed, WarnAsk, true, ``, 2},
		{BeforeMCPExecution, Failed, WarnAsk, false, ``, 1},
		{PreToolUse, Blocked, WarnAsk, true, `{"permission":"deny","user_message":"U\n\"x\"","agent_message":"A"}`, 0},
		{PreToolUse, None, WarnAsk, true, `{"permission":"allow"}`, 0},
		{PostToolUse, Warned, WarnAsk, false, `{"additional_context":"A"}`, 0},
		{PostToolUse, None, WarnAsk, false, `{}`, 0},
		{BeforeReadFile, Blocked, WarnAsk, true, `{"permission":"deny","user_message":"U\n\"x\""}`, 0},
		{BeforeReadFile, None, WarnAsk, true, `{"permission":"allow"}`, 0},
		{BeforeSubmitPrompt, Blocked, WarnAsk, true, `{"continue":false,"user_message":"U\n\"x\""}`, 0},
		{BeforeSubmitPrompt, Warned, WarnAsk, false, `{"continue":true,"user_message":"U\n\"x\""}`, 0},
		{BeforeSubmitPrompt, None, WarnAsk, false, `{"continue":true}`, 0},
		{Stop, Blocked, WarnAsk, false, `{"followup_message":"A"}`, 0},
		{Stop, None, WarnAsk, false, `{}`, 0},
	} {
		ans := AnswerFor(tt.e, tt.o, tt.warn, tt.failClosed)
		want := tt.want + "\n"
		if tt.want == "" {
			want = "" // a hook that cannot decide prints nothing
		}
		if got := string(ans.Render(u, a)); got != want || ans.Exit != tt.exit {
			t.Errorf("%s %s (failClosed %v): %s exit %d, want %s exit %d", tt.e, tt.o, tt.failClosed, got, ans.Exit, tt.want, tt.exit)
		}
	}
}

func TestJSONStringConcatenates(t *testing.T) {
	a, b := "<a & \"b\"\n", "é\u2028\\"
	ja, jb, jab := JSONString(a), JSONString(b), JSONString(a+b)
	if ja[:len(ja)-1]+jb[1:] != jab {
		t.Errorf("JSONString(a)+JSONString(b) != JSONString(a+b): %s %s %s", ja, jb, jab)
	}
	if JSONString("<&>") != `"<&>"` {
		t.Errorf("HTML characters must not be escaped: %s", JSONString("<&>"))
	}
}

// TestAnswersUseDocumentedKeys: every answer holds only keys Cursor's docs
// give that event's output (docs/cursor.md: an answer that does not fit its
// event's schema may block), written out by hand from
// ../shared/docs/cursor-contract.md's event table.
func TestAnswersUseDocumentedKeys(t *testing.T) {
	documented := map[CursorEvent][]string{
		BeforeShellExecution: {"permission", "user_message", "agent_message"},
		BeforeMCPExecution:   {"permission", "user_message", "agent_message"},
		PreToolUse:           {"permission", "user_message", "agent_message", "updated_input"},
		PostToolUse:          {"additional_context", "updated_mcp_tool_output"},
		BeforeReadFile:       {"permission", "user_message"},
		BeforeSubmitPrompt:   {"continue", "user_message"},
		Stop:                 {"followup_message"},
	}
	for _, e := range CursorEvents {
		keys, ok := documented[e]
		if !ok {
			t.Errorf("%s: no documented output keys in this test", e)
			continue
		}
		for _, o := range []Outcome{None, Warned, Blocked, Failed} {
			for _, w := range []WarnMode{WarnContext, WarnAsk, WarnAllow} {
				for _, f := range AnswerFor(e, o, w, true).Fields {
					if !slices.Contains(keys, f.Key) {
						t.Errorf("%s %s --warn %s: key %q is not documented for the event", e, o, w, f.Key)
					}
				}
			}
		}
	}
}
