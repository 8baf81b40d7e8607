package upstream

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the README's fidelity table")

func TestSpellings(t *testing.T) {
	for _, tc := range []struct{ key, s, want string }{
		{"pattern", `rm\s+-rf`, "Write it as pattern: 'rm\\s+-rf' so both read `rm\\s+-rf`"},
		{"event", "bash", "Write it as event: bash so both read `bash`"},
		{"pattern", `it's "x" now`, "Write it as pattern: it's \"x\" now so both read"},
		{"pattern", `ends with "x"`, "Write it as pattern: 'ends with \"x\"'"},
		{"pattern", "a # b", "Write it as pattern: 'a # b'"},
		{"pattern", "false", "No spelling"},
	} {
		if got := fixFor(tc.key, tc.s, false); !strings.HasPrefix(got, tc.want) {
			t.Errorf("fixFor(%q, %q) = %q, want prefix %q", tc.key, tc.s, got, tc.want)
		}
	}
}

// TestREADMEFidelity: the README's table of fidelity checks is the table
// fidelityChecks, row for row (-update rewrites it).
func TestREADMEFidelity(t *testing.T) {
	const readme = "../README.md"
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	const head = "| code | upstream quirk |\n|---|---|\n"
	start := bytes.Index(data, []byte(head))
	if start < 0 {
		t.Fatalf("%s has no fidelity table starting %q", readme, head)
	}
	end := start + bytes.Index(data[start:], []byte("\n\n")) + 1
	var table strings.Builder
	table.WriteString(head)
	for _, c := range fidelityChecks {
		fmt.Fprintf(&table, "| `%s` | %s |\n", c.code, strings.ReplaceAll(c.doc, "|", `\|`))
	}
	if *update {
		out := slices.Concat(data[:start], []byte(table.String()), data[end:])
		if err := os.WriteFile(readme, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(table.String(), string(data[start:end])); d != "" {
		t.Errorf("%s's fidelity table is not fidelityChecks (-want +got); go test ./upstream -run TestREADMEFidelity -update:\n%s", readme, d)
	}
}
