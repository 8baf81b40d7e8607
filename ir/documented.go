package ir

import "slices"

// DocumentedCursorEvents are the hooks.json event names Cursor documents,
// every version's included. Cursor ignores a whole hooks.json that names an
// event it does not know (docs/runtime.md §1), so hookify writes only
// these, and build, check and doctor warn about any other in an existing
// file. Every event of the Cursor event table is one of them
// (TestCursorEventsDocumented).
var DocumentedCursorEvents = []string{
	"sessionStart", "sessionEnd",
	"preToolUse", "postToolUse", "postToolUseFailure",
	"subagentStart", "subagentStop",
	"beforeShellExecution", "afterShellExecution",
	"beforeMCPExecution", "afterMCPExecution",
	"beforeReadFile", "afterFileEdit",
	"beforeSubmitPrompt", "preCompact", "stop",
	"afterAgentResponse", "afterAgentThought",
	"beforeTabFileRead", "afterTabFileEdit",
	"workspaceOpen",
}

// IsDocumentedCursorEvent reports whether name is one of
// DocumentedCursorEvents, compared exactly (Cursor's keys are case-sensitive).
func IsDocumentedCursorEvent(name string) bool {
	return slices.Contains(DocumentedCursorEvents, name)
}
