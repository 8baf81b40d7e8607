// Package bench holds run.sh, which measures generated hooks against two
// floors (bash and dash) and a static binary (refhook) and prints a table,
// then each awk's ratio to mawk's. Nothing is timed here: the test only runs
// the script once, with one round of one call and small sizes, so that it
// cannot rot unnoticed. The script checks each answer before timing it.
//
// The run takes tens of seconds, so it runs in .ci/run only (it sets
// HOOKIFY_BENCH_SMOKE=1), not in every go test ./..., and never under -short.
package bench

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// smoke skips a run of a bench script outside .ci/run (package comment).
func smoke(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("HOOKIFY_BENCH_SMOKE") != "1" {
		t.Skip("runs in .ci/run only (HOOKIFY_BENCH_SMOKE=1, without -short): it takes tens of seconds")
	}
}

func TestRunPrintsTable(t *testing.T) {
	smoke(t)
	var awks []string
	for _, a := range testenv.Awks {
		testenv.LookPath(t, string(a))
		awks = append(awks, string(a))
	}
	testenv.LookPath(t, "dash") // the second floor, and sh on the hooks' PATH
	cmd := testenv.Command(t, "bash", "run.sh", "1", "1")
	// Every row, at sizes that take seconds: the full sizes are what
	// run.sh is for.
	cmd.Env = append(os.Environ(), "AWKS="+strings.Join(awks, " "), "RULES=1 10 100", "SHELL_BIG=10000", "WRITE=20000", "ESCAPES=20000 40000", "TOKENS=20000", "TRANSCRIPT=3000000", "DFA_BIG=20000", "UNI_BIG=20000")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh 1 1: %v\n%s", err, out)
	}
	var missing []string
	cases := []string{"1 rules, 1 KB", "10 rules, 1 KB", "100 rules, 1 KB", "10 rules, 10 KB", "20 KB write, preToolUse", "20 KB write, postToolUse", "20 KB escapes, postToolUse", "40 KB escapes, postToolUse", "3 MB transcript, stop", "3 MB last message, stop"}
	for _, c := range cases {
		for _, awk := range awks {
			if !hasRow(string(out), c, awk) {
				missing = append(missing, c+" / "+awk)
			}
		}
	}
	for _, awk := range awks {
		if !hasRow(string(out), "live check, 10 rules, 1 KB shell", awk) {
			missing = append(missing, "live check / "+awk)
		}
		if !hasRow(string(out), "live check, per-rule, 1 KB shell", awk) {
			missing = append(missing, "live check per-rule / "+awk)
		}
		if !hasRow(string(out), "force-push table, 1 KB shell", awk) {
			missing = append(missing, "table matcher / "+awk)
		}
		for _, c := range []string{"Unicode rule, 1 KB ASCII", "Unicode rule, 1 KB prose"} {
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
		t.Errorf("rows without both floors, the static binary and the three ratios:\n%s\n\n%s", strings.Join(bad, "\n"), out)
	}
	if bad := vsMawk(string(out), cases, awks); len(bad) > 0 {
		t.Errorf("the summary of ratios to mawk's lacks:\n%s\n\n%s", strings.Join(bad, "\n"), out)
	}
}

// vsMawk returns what the summary after the table lacks: a header naming
// each awk but mawk as "AWK/mawk", and per case a row of positive ratios
// ("1.23x"): the static binary's, mawk's, then each other awk's to mawk's.
func vsMawk(out string, cases, awks []string) []string {
	var others []string
	for _, a := range awks {
		if a != "mawk" {
			others = append(others, a+"/mawk")
		}
	}
	var bad []string
	header := false
	for _, l := range strings.Split(out, "\n") {
		var cells []string
		for _, c := range strings.Split(l, "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		if len(cells) > 4 && cells[1] == "case" && cells[2] == "static" && cells[3] == "mawk" {
			header = slices.Equal(cells[4:len(cells)-1], others)
		}
	}
	if !header {
		bad = append(bad, "the header | case | static | mawk | "+strings.Join(others, " | ")+" |")
	}
	for _, c := range cases {
		found := false
		for _, l := range strings.Split(out, "\n") {
			cells := strings.Split(l, "|")
			if !strings.HasPrefix(l, "| "+c) || len(cells) != 5+len(others) || cells[len(cells)-1] != "" {
				continue
			}
			found = positive(cells[2 : len(cells)-1])
		}
		if !found {
			bad = append(bad, "a row for "+c)
		}
	}
	return bad
}

// positive reports whether each cell is a positive number, with or
// without an "x" after it.
func positive(cells []string) bool {
	for _, c := range cells {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(c), "x"), 64)
		if err != nil || v <= 0 {
			return false
		}
	}
	return true
}

// rowsWithoutFloors returns the hook rows (those that name an awk) that do
// not have seven positive numbers after the awk: the bash floor, the dash
// floor, the static binary and the hook in ms, then the hook's ratio to
// each of the three ("1.23x").
func rowsWithoutFloors(out string, awks []string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 || !slices.Contains(awks, strings.TrimSpace(cells[2])) {
			continue
		}
		if strings.HasPrefix(l, "| live check") {
			// Without the check, with it, and the ratio.
			if len(cells) != 7 || cells[6] != "" || !positive(cells[3:6]) {
				bad = append(bad, l)
			}
			continue
		}
		if strings.HasPrefix(l, "| Unicode rule") {
			// As the table matcher's, with a second large value.
			if len(cells) != 10 || cells[9] != "" || !positive(cells[3:6]) {
				bad = append(bad, l)
			}
			continue
		}
		if strings.HasPrefix(l, "| force-push table") {
			// The floor, without the rule, with it (CPU ms), the added
			// time over the floor, and one call on a large value (s),
			// which may round to 0 at the smoke test's sizes.
			if len(cells) != 9 || cells[8] != "" || !positive(cells[3:6]) {
				bad = append(bad, l)
			}
			continue
		}
		if len(cells) != 11 || cells[10] != "" || !positive(cells[3:10]) {
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
