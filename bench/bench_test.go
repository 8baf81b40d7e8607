// Package bench holds run.sh, which measures generated hooks against a floor
// and prints a table. Nothing is timed here: the test only runs the script
// once, with one round of one call, so that it cannot rot unnoticed. The
// script itself checks each hook's answer before timing it.
package bench

import (
	"os/exec"
	"strings"
	"testing"
)

func TestRunPrintsTable(t *testing.T) {
	out, err := exec.Command("bash", "run.sh", "1", "1").CombinedOutput()
	if err != nil {
		t.Fatalf("bench/run.sh 1 1: %v\n%s", err, out)
	}
	var missing []string
	for _, c := range []string{"1 rules, 1 KB", "10 rules, 1 KB", "100 rules, 1 KB", "1000 rules, 1 KB", "10 rules, 100 KB", "1 MB write, preToolUse", "1 MB write, postToolUse"} {
		for _, awk := range []string{"mawk", "gawk", "original-awk", "busybox"} {
			if !hasRow(string(out), c, awk) {
				missing = append(missing, c+" / "+awk)
			}
		}
	}
	for _, n := range []string{"10 rules", "100 rules", "1000 rules"} {
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
