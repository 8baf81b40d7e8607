// Package bench holds run.sh, which measures generated hooks against a floor
// and prints a table. Nothing is timed here: the test only runs the script
// once, with one round of one call and small sizes, so that it cannot rot
// unnoticed. The script itself checks each hook's answer before timing it.
package bench

import (
	"os"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

func TestRunPrintsTable(t *testing.T) {
	var awks []string
	for _, a := range testenv.Awks {
		testenv.LookPath(t, string(a))
		awks = append(awks, string(a))
	}
	cmd := testenv.Command(t, "bash", "run.sh", "1", "1")
	// Every row, at sizes that take seconds: the full sizes are what
	// run.sh is for.
	cmd.Env = append(os.Environ(), "AWKS="+strings.Join(awks, " "), "RULES=1 10 100", "SHELL_BIG=10000", "WRITE=20000")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh 1 1: %v\n%s", err, out)
	}
	var missing []string
	for _, c := range []string{"1 rules, 1 KB", "10 rules, 1 KB", "100 rules, 1 KB", "10 rules, 10 KB", "20 KB write, preToolUse", "20 KB write, postToolUse"} {
		for _, awk := range awks {
			if !hasRow(string(out), c, awk) {
				missing = append(missing, c+" / "+awk)
			}
		}
	}
	for _, n := range []string{"10 rules", "100 rules"} {
		if !hasRow(string(out), n+" ", "") {
			missing = append(missing, "compile "+n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("rows missing: %s\n%s", strings.Join(missing, ", "), out)
	}
}

// hasRow reports whether a table line starts with case c and names awk.
func hasRow(out, c, awk string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| "+c) && (awk == "" || strings.Contains(l, "| "+awk+" ")) {
			return true
		}
	}
	return false
}
