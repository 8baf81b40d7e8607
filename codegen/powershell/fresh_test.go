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
			b := randomRule(r)
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

// randomRule is generated rule-file content: empty, a lone newline, text
// with CR LF and bytes up to 255 (NUL aside, as in the Unix hook's test),
// with or without a final newline.
func randomRule(r *rand.Rand) []byte {
	switch r.IntN(8) {
	case 0:
		return nil
	case 1:
		return []byte("\n")
	}
	b := make([]byte, r.IntN(3000))
	for i := range b {
		switch r.IntN(6) {
		case 0:
			b[i] = '\n'
		case 1:
			b[i] = byte(1 + r.IntN(255))
		default:
			b[i] = byte(' ' + r.IntN(95))
		}
	}
	if r.IntN(2) == 0 {
		b = append(b, '\n')
	}
	if r.IntN(4) == 0 {
		b = append(b, "\r\n\r\n\n\n"...)
	}
	return b
}
