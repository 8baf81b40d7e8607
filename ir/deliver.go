package ir

import (
	"bytes"
	"encoding/json"
)

// Delivery is what Cursor does with one hook's answer, as a live run of
// Cursor 3.9.16 showed it (docs/cursor.md): whether the action
// is stopped, what the model reads, and what the user is shown.
type Delivery struct {
	Blocks bool
	// Agent is the text the model reads ("" for none); User the text the
	// user is shown ("" for none). AgentHow and UserHow say how it reaches
	// them, for a reader.
	Agent, AgentHow string
	User, UserHow   string
}

// Deliver returns what Cursor does with the stdout and exit code of a hook
// on event e whose hooks.json entry has failClosed as given:
//
//   - exit 0 and one JSON object: permission deny (and ask, which Cursor
//     3.9.16 treated as a deny on beforeShellExecution, and the docs
//     enforce the same way on beforeMCPExecution) stops the action, and the
//     model reads user_message (agent_message was never seen reaching it);
//     allow lets it run, and only the user may see user_message;
//     continue false stops a prompt, and the user sees user_message;
//     additional_context reaches the model after the tool ran;
//     followup_message arrives as the next user message;
//   - exit 2 stops the action on an event that can deny, and Cursor hands
//     the raw stdout to the model and the user as the reason;
//   - anything else (a crash, empty stdout, no JSON) stops the action only
//     where the entry fails closed, with no reason.
func Deliver(e CursorEvent, stdout []byte, exit int, failClosed bool) Delivery {
	can := e.Spec().CanDeny
	if exit == 2 && can {
		d := Delivery{Blocks: true}
		if raw := string(bytes.TrimSpace(stdout)); raw != "" {
			d.Agent, d.AgentHow = raw, "the raw stdout, as the reason"
			d.User, d.UserHow = raw, "the raw stdout, as the reason"
		}
		return d
	}
	var a struct {
		Permission        *string `json:"permission"`
		Continue          *bool   `json:"continue"`
		UserMessage       string  `json:"user_message"`
		AdditionalContext string  `json:"additional_context"`
		FollowupMessage   string  `json:"followup_message"`
	}
	if exit != 0 || json.Unmarshal(stdout, &a) != nil || len(bytes.TrimSpace(stdout)) == 0 {
		return Delivery{Blocks: failClosed && can}
	}
	var d Delivery
	switch {
	case a.Permission != nil && (*a.Permission == "deny" || *a.Permission == "ask") && can:
		d = Delivery{Blocks: true, Agent: a.UserMessage, AgentHow: "user_message, as the reason the call failed", User: a.UserMessage, UserHow: "user_message"}
	case a.Continue != nil && !*a.Continue && can:
		d = Delivery{Blocks: true, User: a.UserMessage, UserHow: "user_message; the prompt is not sent"}
	case a.UserMessage != "":
		d = Delivery{User: a.UserMessage, UserHow: "user_message, where Cursor shows it"}
	}
	if a.AdditionalContext != "" {
		d.Agent, d.AgentHow = a.AdditionalContext, "additional_context, after the tool ran"
	}
	if a.FollowupMessage != "" {
		d.Agent, d.AgentHow = a.FollowupMessage, "followup_message, as the next user message"
		d.User, d.UserHow = a.FollowupMessage, "followup_message, as the next user message"
	}
	return d
}
