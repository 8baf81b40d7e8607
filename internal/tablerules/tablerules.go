// Package tablerules makes rules from ir's event and operator tables, for
// tests: one rule per operator (with a pattern and with an empty one) and
// one per Cursor event, so that adding a row adds its tests in the
// backends and the differential test (docs/architecture.md).
package tablerules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookify/hookify/ir"
)

// Each calls add with the name and the front matter (without the ---
// lines) of every table rule, in a fixed order.
func Each(add func(name, front string)) {
	for i, o := range ir.Ops {
		for j, pat := range []string{"rm -", ""} {
			action := [...]string{"block", "warn"}[(i+j)%2]
			add(fmt.Sprintf("op-%s-%d", o, j), fmt.Sprintf("event: bash\naction: %s\nconditions:\n  - field: command\n    operator: %s\n    pattern: '%s'", action, o, pat))
		}
	}
	i := 0
	for _, e := range ir.CursorEvents {
		s := e.Spec()
		for _, row := range s.Rows {
			name := "event-" + e.String()
			if row != s.Rows[0] {
				name += "-" + row.String()
			}
			field := row.Spec().MainField
			if field == "" {
				field = slices.Sorted(maps.Keys(s.Fields))[0]
			}
			event := "event: " + row.String()
			switch {
			case row.Spec().MCP:
				// Rules reach MCP tools through their tool_matcher, and read
				// the tools' arguments by name.
				event, field = "tool_matcher: mcp__srv-*__go_*|mcp__other", "query"
			case row.Spec().ByToolMatcher:
				// Rules reach the row through their tool_matcher, and read
				// the tool's input parameters by name.
				event, field = "tool_matcher: "+strings.Join(row.Spec().Tools, "|"), "prompt"
			}
			o := ir.Ops[i%len(ir.Ops)]
			i++
			add(name, fmt.Sprintf("%s\naction: %s\nconditions:\n  - field: %s\n    operator: %s\n    pattern: 'go'", event, s.Actions[0], field, o))
		}
	}
}
