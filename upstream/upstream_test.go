package upstream_test

import (
	"strings"
	"testing"

	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/upstream"
)

// TestParseFallback: values that are not valid YAML take hookify's reading,
// with a warning at the YAML error.
func TestParseFallback(t *testing.T) {
	for _, tc := range []struct {
		name, line, want, warn string
	}{
		{"colon in value", `pattern: foo: bar`, "foo: bar", "f.md:2:13: warning: pattern is not valid YAML (mapping values are not allowed in this context)"},
		{"anchor", `pattern: *.env`, "*.env", "f.md:2:10: warning: pattern is not valid YAML"},
		{"unknown escape", `pattern: "rm\s+-rf"`, `rm\s+-rf`, "f.md:2:13: warning: pattern is not valid YAML (found unknown escape character)"},
		{"backquote", "pattern: `eval`", "`eval`", "f.md:2:10: warning: pattern is not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, d := parser.Parse("f.md", []byte("---\n"+tc.line+"\nevent: bash\n---\n"), upstream.Fallback)
			p, ok := f.Field("pattern")
			if !ok || p.Value.Str != tc.want || !p.Value.Fallback {
				t.Fatalf("pattern = %+v, want fallback %q", p, tc.want)
			}
			if len(d) != 1 || !strings.HasPrefix(d[0].String(), tc.warn) {
				t.Errorf("diagnostics %v, want one starting %q", d, tc.warn)
			}
			if ev, ok := f.Field("event"); !ok || ev.Value.Str != "bash" {
				t.Errorf("the other keys must still be read: %+v", ev)
			}
		})
	}
}
