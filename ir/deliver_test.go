package ir

import "testing"

// TestDeliver pins ir.Deliver to the observations of docs/cursor.md (Cursor
// 3.9.16), written out by hand.
func TestDeliver(t *testing.T) {
	const deny = `{"permission":"deny","user_message":"U","agent_message":"A"}` + "\n"
	for _, tt := range []struct {
		name       string
		e          CursorEvent
		out        string
		exit       int
		failClosed bool
		want       Delivery
	}{
		{"deny at exit 0: the model reads user_message", BeforeShellExecution, deny, 0, true,
			Delivery{Blocks: true, Agent: "U", AgentHow: "user_message, as the reason the call failed", User: "U", UserHow: "user_message"}},
		{"deny at exit 2: the raw stdout is the reason", PreToolUse, deny, 2, true,
			Delivery{Blocks: true, Agent: deny[:len(deny)-1], AgentHow: "the raw stdout, as the reason", User: deny[:len(deny)-1], UserHow: "the raw stdout, as the reason"}},
		{"exit 2, nothing: blocked with no reason", BeforeShellExecution, "", 2, false, Delivery{Blocks: true}},
		{"ask is a deny", BeforeShellExecution, `{"permission":"ask","user_message":"W"}`, 0, false,
			Delivery{Blocks: true, Agent: "W", AgentHow: "user_message, as the reason the call failed", User: "W", UserHow: "user_message"}},
		{"allow with messages: only the user may see them", BeforeShellExecution, `{"permission":"allow","user_message":"W","agent_message":"A"}`, 0, false,
			Delivery{User: "W", UserHow: "user_message, where Cursor shows it"}},
		{"empty stdout under failClosed blocks", BeforeMCPExecution, "", 1, true, Delivery{Blocks: true}},
		{"empty stdout without failClosed goes ahead", PostToolUse, "", 1, false, Delivery{}},
		{"not JSON under failClosed blocks", BeforeReadFile, "oops\n", 0, true, Delivery{Blocks: true}},
		{"additional_context reaches the model", PostToolUse, `{"additional_context":"C"}`, 0, false,
			Delivery{Agent: "C", AgentHow: "additional_context, after the tool ran"}},
		{"continue false stops the prompt", BeforeSubmitPrompt, `{"continue":false,"user_message":"P"}`, 0, true,
			Delivery{Blocks: true, User: "P", UserHow: "user_message; the prompt is not sent"}},
		{"a follow-up is the next user message", Stop, `{"followup_message":"F"}`, 0, false,
			Delivery{Agent: "F", AgentHow: "followup_message, as the next user message", User: "F", UserHow: "followup_message, as the next user message"}},
		{"stop cannot deny", Stop, `{"permission":"deny","user_message":"U"}`, 0, false,
			Delivery{User: "U", UserHow: "user_message, where Cursor shows it"}},
	} {
		if got := Deliver(tt.e, []byte(tt.out), tt.exit, tt.failClosed); got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}
