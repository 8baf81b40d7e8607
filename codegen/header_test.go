package codegen

import (
	"slices"
	"strings"
	"testing"
)

// FuzzHeader: the sources and the build flags of every header come back
// from ParseHeader, whatever the rule paths hold (" with --layout ", ", "
// aside, which no path holds once split), and a line that is not a header
// is not one.
func FuzzHeader(f *testing.F) {
	f.Add(".claude/hookify.a.local.md", "rules/x with y.md", "--layout per-event --warn context")
	f.Add("a", "b", "")
	f.Add("a with --layout per-rule", "b", "--layout per-rule --warn ask --no-prompt-hooks")
	f.Fuzz(func(t *testing.T, a, b, flags string) {
		if a == "" || b == "" || strings.Contains(a+b, ", ") || Comment(a) != a || Comment(b) != b || Comment(flags) != flags {
			return
		}
		if flags != "" && !strings.HasPrefix(flags, "--layout ") || strings.Contains(flags, " with --layout ") {
			return // BuildFlags always starts with --layout, once
		}
		line := Header([]string{a, b}, flags)
		sources, got, ok := ParseHeader(line)
		if !ok || !slices.Equal(sources, []string{a, b}) || got != flags {
			t.Fatalf("ParseHeader(%q) = %q, %q, %v; want %q, %q", line, sources, got, ok, []string{a, b}, flags)
		}
		for _, bad := range []string{line[:len(line)-1], "x" + line, strings.Replace(line, " from ", " from\x01", 1)} {
			if IsHeader(bad) {
				t.Errorf("IsHeader(%q) = true", bad)
			}
		}
	})
}
