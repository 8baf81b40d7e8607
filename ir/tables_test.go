package ir

import (
	"slices"
	"testing"
)

// TestTargets pins the event table's routing to the README's "Event and
// action mapping": the Cursor event a rule of each hookify event and action
// runs on, or none.
func TestTargets(t *testing.T) {
	for _, tt := range []struct {
		event   Event
		action  Action
		on      []CursorEvent
		dropped []CursorEvent
	}{
		{EventBash, Block, []CursorEvent{BeforeShellExecution}, nil},
		{EventBash, Warn, []CursorEvent{PostToolUse}, nil},
		{EventFile, Block, []CursorEvent{PreToolUse}, nil},
		{EventFile, Warn, []CursorEvent{PostToolUse}, nil},
		{EventRead, Block, []CursorEvent{BeforeReadFile}, nil},
		{EventRead, Warn, nil, []CursorEvent{BeforeReadFile}},
		{EventPrompt, Block, []CursorEvent{BeforeSubmitPrompt}, nil},
		{EventPrompt, Warn, []CursorEvent{BeforeSubmitPrompt}, nil},
		{EventStop, Block, []CursorEvent{Stop}, nil},
		{EventStop, Warn, []CursorEvent{Stop}, nil},
		{EventAll, Block, []CursorEvent{BeforeShellExecution, PreToolUse, BeforeReadFile, BeforeSubmitPrompt, Stop}, nil},
		{EventAll, Warn, []CursorEvent{PostToolUse, BeforeSubmitPrompt, Stop}, []CursorEvent{BeforeReadFile}},
	} {
		on, dropped := Targets(&Rule{Event: tt.event, Action: tt.action}, WarnContext)
		if !slices.Equal(on, tt.on) || !slices.Equal(dropped, tt.dropped) {
			t.Errorf("%s %s: on %v, dropped %v; want %v, %v", tt.event, tt.action, on, dropped, tt.on, tt.dropped)
		}
	}
	// A tool_matcher that names MCP tools (docs/mcp.md) adds the MCP row to
	// the rows about tools, and is all the tools a rule names when it names
	// no other tool.
	mcp := []MCPTool{{Pattern: "mcp__github__*"}}
	for _, tt := range []struct {
		event  Event
		action Action
		tools  []string
		on     []CursorEvent
	}{
		{EventAll, Block, []string{}, []CursorEvent{BeforeMCPExecution}},
		{EventAll, Warn, []string{}, []CursorEvent{PostToolUse}},
		{EventAll, Block, []string{"Shell"}, []CursorEvent{BeforeShellExecution, BeforeMCPExecution}},
		{EventBash, Warn, []string{}, []CursorEvent{PostToolUse}},
		{EventFile, Block, WriteTools, []CursorEvent{PreToolUse, BeforeMCPExecution}},
		{EventRead, Block, []string{}, []CursorEvent{BeforeMCPExecution}},
		{EventMCP, Warn, []string{}, []CursorEvent{PostToolUse}},
		{EventPrompt, Block, []string{}, nil},
		{EventStop, Block, []string{}, nil},
	} {
		on, _ := Targets(&Rule{Event: tt.event, Action: tt.action, Tools: tt.tools, MCP: mcp}, WarnContext)
		if !slices.Equal(on, tt.on) {
			t.Errorf("%s %s with MCP tools: on %v, want %v", tt.event, tt.action, on, tt.on)
		}
	}
	// Under --warn ask and --warn allow, a warn rule about a shell command
	// or an MCP tool speaks on the gate; under --warn context (above) on
	// postToolUse.
	for _, warn := range []WarnMode{WarnAsk, WarnAllow} {
		for _, tt := range []struct {
			event Event
			mcp   []MCPTool
			on    []CursorEvent
		}{
			{EventBash, nil, []CursorEvent{BeforeShellExecution}},
			{EventFile, nil, []CursorEvent{PostToolUse}},
			{EventAll, nil, []CursorEvent{BeforeShellExecution, PostToolUse, BeforeSubmitPrompt, Stop}},
			{EventAll, mcp, []CursorEvent{BeforeShellExecution, PostToolUse, BeforeSubmitPrompt, Stop, BeforeMCPExecution}},
		} {
			if on, _ := Targets(&Rule{Event: tt.event, Action: Warn, MCP: tt.mcp}, warn); !slices.Equal(on, tt.on) {
				t.Errorf("%s warn under --warn %s (MCP tools %v): on %v, want %v", tt.event, warn, tt.mcp != nil, on, tt.on)
			}
		}
	}
	if on, _ := Targets(&Rule{Event: EventAll, Action: Block, Tools: []string{"Shell"}}, WarnContext); slices.Contains(on, BeforeMCPExecution) {
		t.Error("a rule that names no MCP tool runs on beforeMCPExecution")
	}
	if _, ok := ParseEvent("mcp"); ok {
		t.Error("rules can name the MCP row as their event")
	}
	// A tool_matcher that names Task reaches the Task row from the rows
	// about tools (README, "tool_matcher"): preToolUse to block,
	// postToolUse to warn, matcher Task; a write tool too shares the event.
	for _, tt := range []struct {
		event  Event
		action Action
		tools  []string
		on     []CursorEvent
		onTool []string // the tools on the first event
	}{
		{EventAll, Block, []string{"Task"}, []CursorEvent{PreToolUse}, []string{"Task"}},
		{EventAll, Warn, []string{"Task"}, []CursorEvent{PostToolUse}, []string{"Task"}},
		{EventBash, Block, []string{"Task"}, []CursorEvent{PreToolUse}, []string{"Task"}},
		{EventAll, Block, []string{"Shell", "Task"}, []CursorEvent{BeforeShellExecution, PreToolUse}, nil},
		{EventFile, Block, []string{"Write", "Task"}, []CursorEvent{PreToolUse}, []string{"Write", "Task"}},
		{EventAll, Warn, []string{"Write"}, []CursorEvent{PostToolUse}, []string{"Write"}},
		{EventAll, Block, nil, []CursorEvent{BeforeShellExecution, PreToolUse, BeforeReadFile, BeforeSubmitPrompt, Stop}, nil},
		{EventPrompt, Block, []string{"Task"}, nil, nil},
		{EventStop, Warn, []string{"Task"}, nil, nil},
	} {
		r := &Rule{Event: tt.event, Action: tt.action, Tools: tt.tools}
		on, _ := Targets(r, WarnContext)
		if !slices.Equal(on, tt.on) {
			t.Errorf("%s %s with tools %v: on %v, want %v", tt.event, tt.action, tt.tools, on, tt.on)
		}
		if len(on) > 0 && !slices.Equal(ToolsOn(r, on[0], WarnContext), tt.onTool) {
			t.Errorf("%s %s with tools %v: tools on %s %v, want %v", tt.event, tt.action, tt.tools, on[0], ToolsOn(r, on[0], WarnContext), tt.onTool)
		}
	}
	if _, ok := ParseEvent("task"); ok {
		t.Error("rules can name the Task row as their event")
	}
}

// TestEventTable checks what every row of the Cursor event table must say.
func TestEventTable(t *testing.T) {
	for _, e := range CursorEvents {
		s := e.Spec()
		if len(s.Rows) == 0 || len(s.Actions) == 0 || s.Sentence == "" {
			t.Errorf("%s: a row needs a hookify event, actions and a prompt sentence", e)
		}
		for _, row := range s.Rows {
			if !slices.Contains(Rows, row) && !row.Spec().MCP && !row.Spec().ByToolMatcher {
				t.Errorf("%s: row %s is neither one rules name nor one they reach by tool_matcher", e, row)
			}
			if s.Tool && row.Spec().Tools == nil && row.Spec().Matcher == "" && !s.MCP {
				t.Errorf("%s is a tool event of a row without tools (%s)", e, row)
			}
		}
		if p, ok := ParseCursorEvent(s.Name); !ok || p != e {
			t.Errorf("%s does not parse back", s.Name)
		}
		// A deny stops the action with exit 0 (README, "Event and action
		// mapping"; exit 2 with a body shows the model raw JSON); an event
		// whose block answer does not deny cannot fail closed.
		denies := slices.ContainsFunc(s.Block.Fields, func(f Field) bool {
			return f.Key == "permission" && f.Lit == "deny" || f.Key == "continue" && f.Kind == Bool && !f.Bool
		})
		if s.CanDeny != denies || s.Block.Exit != 0 {
			t.Errorf("%s: CanDeny %v, but the block answer denies: %v, exits %d", e, s.CanDeny, denies, s.Block.Exit)
		}
	}
	for _, row := range Rows {
		for _, a := range []Action{Warn, Block} {
			for _, warn := range []WarnMode{WarnContext, WarnAsk, WarnAllow} {
				if ev, ok := cursorEvent(row, a, warn); !ok && (ev == 0 || ev.Spec().NoChannel == "") {
					t.Errorf("%s %s under --warn %s runs on no Cursor event and no row says why (NoChannel)", row, a, warn)
				}
			}
		}
	}
}

// TestResolve pins a few documented fields to the sources the README's
// "Event and action mapping" gives.
func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		e     CursorEvent
		field string
		want  string
		known bool
	}{
		{BeforeShellExecution, "command", "command", true},
		{BeforeShellExecution, "tool_input.x", "tool_input.x", false},
		{BeforeShellExecution, "anything", "anything", false},
		{PreToolUse, "file_path", "each set one of tool_input.file_path, tool_input.path", true},
		{PostToolUse, "new_text", `each set one of tool_input.new_string, tool_input.content, tool_input.contents, tool_input.edits[].new_string, else ""`, true},
		{PreToolUse, "mode", "tool_input.mode", false},
		{PreToolUse, "tool_input.mode", "tool_input.mode", true},
		{PreToolUse, "tool_name", "tool_name", true},
		{BeforeSubmitPrompt, "user_prompt", `each set one of prompt, prompt_text, else ""`, true},
		{Stop, "transcript", "the file at transcript_path or $CURSOR_TRANSCRIPT_PATH", true},
		{Stop, "status", "status", true},
		{BeforeMCPExecution, "query", "tool_input.query", false},
		{BeforeMCPExecution, "tool_input.query", "tool_input.query", true},
		{BeforeMCPExecution, "tool_name", "tool_name", true},
		{BeforeMCPExecution, "mcp_server_name", "mcp_server_name", true},
		{BeforeMCPExecution, "command", "tool_input.command", false},
	} {
		src, known := Resolve(tt.e, tt.field)
		if src.String() != tt.want || known != tt.known {
			t.Errorf("Resolve(%s, %s) = %s, %v; want %s, %v", tt.e, tt.field, src, known, tt.want, tt.known)
		}
	}
}

// TestOps pins the plain-text operators of docs/semantics.md §6.2, on empty values and
// patterns too, and the names the parser reads.
func TestOps(t *testing.T) {
	for _, tt := range []struct {
		op             Op
		value, pattern string
		want           bool
	}{
		{Contains, "git push -f", "push", true},
		{Contains, "anything", "", true},
		{NotContains, "git push -f", "push", false},
		{NotContains, "", "", false},
		{NotContains, "", "x", true},
		{Equals, "a", "a", true},
		{Equals, "a", "A", false},
		{Equals, "", "", true},
		{StartsWith, "/etc/passwd", "/etc/", true},
		{StartsWith, "x/etc/", "/etc/", false},
		{EndsWith, "go!!", "!!", true},
		{EndsWith, "!!go", "!!", false},
	} {
		if got := tt.op.HoldsPlain(tt.value, tt.pattern); got != tt.want {
			t.Errorf("%s %q on %q = %v, want %v", tt.op, tt.pattern, tt.value, got, tt.want)
		}
	}
	want := []string{"regex_match", "not_regex_match", "contains", "not_contains", "equals", "starts_with", "ends_with"}
	if got := OpNames(); !slices.Equal(got, want) {
		t.Errorf("OpNames() = %v, want %v", got, want)
	}
	for _, o := range Ops {
		if p, ok := ParseOp(o.String()); !ok || p != o {
			t.Errorf("%s does not parse back", o)
		}
		if o.Spec().Words == "" || o.Spec().Test == 0 {
			t.Errorf("%s: a row needs a test and words", o)
		}
	}
	if !RegexMatch.IsRegex() || !NotRegexMatch.IsRegex() || Contains.IsRegex() {
		t.Error("IsRegex is wrong")
	}
}

// TestFirstOnly: on stop, a warn rule and a rule without conditions fire
// only on the first call of a loop (loop_count 0 or absent); a block rule
// with conditions fires while they hold (README, "Stop rules").
func TestFirstOnly(t *testing.T) {
	cond := []Condition{{Field: "transcript", Op: Contains, Pattern: "x"}}
	for _, tt := range []struct {
		action Action
		conds  []Condition
		once   bool
	}{
		{Warn, cond, true},
		{Warn, nil, true},
		{Block, nil, true},
		{Block, cond, false},
	} {
		r := &Rule{Name: "r", Event: EventStop, Action: tt.action, Conditions: tt.conds}
		plan := ToCursor(&Program{Rules: []*Rule{r}}, PerEvent, WarnContext)
		ck := plan.Units[0].Hooks[0].Checks[0]
		once := slices.ContainsFunc(ck.Conds, func(c ResolvedCondition) bool { return c.Field == "loop_count" })
		if once != tt.once || len(ck.Conds) != len(tt.conds)+map[bool]int{true: 1}[once] {
			t.Errorf("%s with %d conditions: conds %v, want once %v", tt.action, len(tt.conds), ck.Conds, tt.once)
		}
		// On every other event nothing is added.
		r.Event = EventBash
		r.Conditions = []Condition{{Field: "command", Op: Contains, Pattern: "x"}}
		if ck := ToCursor(&Program{Rules: []*Rule{r}}, PerEvent, WarnContext).Units[0].Hooks[0].Checks[0]; len(ck.Conds) != 1 {
			t.Errorf("bash %s: conds %v", tt.action, ck.Conds)
		}
	}
}
