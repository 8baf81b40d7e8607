// Package bench holds run.sh, which measures generated hooks against two
// floors (bash and dash) and prints a table. Nothing is timed here: the test only runs the script
// once, with one round of one call and small sizes, so that it cannot rot
// unnoticed. The script itself checks each hook's answer before timing it.
package bench

import (
	"os"
	"slices"
	"strconv"
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
	testenv.LookPath(t, "dash") // the second floor
	cmd := testenv.Command(t, "bash", "run.sh", "1", "1")
	// Every row, at sizes that take seconds: the full sizes are what
	// run.sh is for.
	cmd.Env = append(os.Environ(), "AWKS="+strings.Join(awks, " "), "RULES=1 10 100", "SHELL_BIG=10000", "WRITE=20000", "TRANSCRIPT=3000000")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh 1 1: %v\n%s", err, out)
	}
	var missing []string
	for _, c := range []string{"1 rules, 1 KB", "10 rules, 1 KB", "100 rules, 1 KB", "10 rules, 10 KB", "20 KB write, preToolUse", "20 KB write, postToolUse", "3 MB transcript, stop"} {
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
	if bad := rowsWithoutFloors(string(out), awks); len(bad) > 0 {
		t.Errorf("rows without both floors and both ratios:\n%s\n\n%s", strings.Join(bad, "\n"), out)
	}
}

// rowsWithoutFloors returns the hook rows (those that name an awk) that do
// not have five positive numbers after the awk: the bash floor, the dash
// floor and the hook in ms, then the hook's ratio to each floor ("1.23x").
func rowsWithoutFloors(out string, awks []string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 || !slices.Contains(awks, strings.TrimSpace(cells[2])) {
			continue
		}
		ok := len(cells) == 9 && cells[8] == ""
		for i := 3; ok && i < 8; i++ {
			v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(cells[i]), "x"), 64)
			ok = err == nil && v > 0
		}
		if !ok {
			bad = append(bad, l)
		}
	}
	return bad
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
