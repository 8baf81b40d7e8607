package hooksjson

import (
	"testing"

	"github.com/hookify/hookify/ir"
)

// FuzzCommand: every command Command writes, for a script name ir.FileName
// makes and an event argument, ParseCommand reads back as the same script,
// at its level only.
func FuzzCommand(f *testing.F) {
	f.Add("stop", "", false, false)
	f.Add("no rm -rf!", "beforeShellExecution", true, true)
	f.Fuzz(func(t *testing.T, rule, event string, ps, user bool) {
		if event != "" && !eventArg.MatchString(event) {
			return
		}
		level, other := Project, User
		if user {
			level, other = User, Project
		}
		s := Script{Name: ir.FileName(rule), Event: event, PowerShell: ps}
		cmd := Command(s, level)
		got, ok := ParseCommand(cmd, level)
		s.Path = got.Path
		if !ok || got != s {
			t.Fatalf("ParseCommand(%q) = %+v, %v; want %+v", cmd, got, ok, s)
		}
		if _, ok := ParseCommand(cmd, other); ok {
			t.Errorf("%q is hookify's at the other level too", cmd)
		}
	})
}
