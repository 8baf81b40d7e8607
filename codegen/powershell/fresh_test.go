package powershell

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
		var names []string
		sums := map[string]uint32{}
		data := map[string][]byte{}
		for i := range 2 + r.IntN(10) {
			name := fmt.Sprintf("hookify.%c%d.local.md", 'a'+r.IntN(26), i)
			b := tablerules.RandomFile(r)
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
			sums[name] = codegen.Fingerprint(b)
			data[name] = b
		}
		slices.Sort(names)
		run := func(pairs []string) string {
			out, err := testenv.Command(t, mono, append([]string{exe, dir}, pairs...)...).Output()
			if err != nil {
				t.Fatalf("mono: %v", err)
			}
			return string(out)
		}
		var asBuilt []string
		for _, n := range names {
			asBuilt = append(asBuilt, n, fmt.Sprint(sums[n]))
		}
		if got := run(asBuilt); got != "" {
			t.Fatalf("rule files as built: %q, want nothing", got)
		}
		added, changed := names[0], names[len(names)-1]
		var then, report []string
		for _, n := range names {
			switch n {
			case added:
				report = append(report, n+" (added)")
			case changed:
				report = append(report, n+" (changed)")
				then = append(then, n, fmt.Sprint(codegen.Fingerprint(append(slices.Clone(data[n]), 'x'))))
			default:
				then = append(then, n, fmt.Sprint(sums[n]))
			}
		}
		then = append(then, "hookify.~gone.local.md", "1")
		report = append(report, "hookify.~gone.local.md (removed)")
		if got, want := run(then), strings.Join(report, ", ")+"\n"; got != want {
			t.Errorf("stale rule files:\n got %q\nwant %q", got, want)
		}
	}
}
