package ir

import "testing"

// TestCursorEventsDocumented: hookify writes only event names Cursor knows.
func TestCursorEventsDocumented(t *testing.T) {
	for _, e := range CursorEvents {
		if !IsDocumentedCursorEvent(e.String()) {
			t.Errorf("the Cursor event table has %q, which is not in DocumentedCursorEvents", e)
		}
	}
	if IsDocumentedCursorEvent("BeforeShellExecution") || IsDocumentedCursorEvent("") {
		t.Error("event names are compared exactly")
	}
}
