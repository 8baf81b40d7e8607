package powershell

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/internal/tablerules"
	"github.com/hookify/hookify/internal/testenv"
)

// TestFingerprintOnDotNet runs the C# transliteration of the skeleton's
// hk_fp and of hk_live's exact check (testdata/dotnet/fingerprint.cs) on
// generated rule files: against the fingerprints of codegen.Fingerprint it
// reports nothing; against a build that knew another state, the file added,
// the file changed and the file removed since, in that order.
func TestFingerprintOnDotNet(t *testing.T) {
	mono, exe := monoExe(t, "fingerprint.cs")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 9))
	rounds := 4
	if testing.Short() {
		rounds = 1
	}
	for range rounds {
		dir := t.TempDir()
		asBuilt, then, report, err := tablerules.StaleRules(r, dir)
		if err != nil {
			t.Fatal(err)
		}
		pairs := func(rf *codegen.RuleFiles) []string {
			var out []string
			for i, n := range rf.Names {
				out = append(out, n, fmt.Sprint(rf.Sums[i]))
			}
			return out
		}
		run := func(pairs []string) string {
			out, err := testenv.Command(t, mono, append([]string{exe, dir}, pairs...)...).Output()
			if err != nil {
				t.Fatalf("mono: %v", err)
			}
			return string(out)
		}
		if got := run(pairs(asBuilt)); got != "" {
			t.Fatalf("rule files as built: %q, want nothing", got)
		}
		if got, want := run(pairs(then)), strings.Join(report, ", ")+"\n"; got != want {
			t.Errorf("stale rule files:\n got %q\nwant %q", got, want)
		}
	}
}
