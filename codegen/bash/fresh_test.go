package bash

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/internal/tablerules"
	"github.com/hookify/hookify/internal/testenv"
)

// TestFingerprintProgram runs the wrapper's exact check (fpProgram) as the
// wrapper does, under LC_ALL=C with each awk, on generated rule files
// against lists baked from codegen.Fingerprint: the list of the files as
// they are gives no output; a list where files were edited, added and
// removed since gives each by name, in the order the check reports them
// (files in glob order, then the removed ones in list order), and the
// go.mod marker.
func TestFingerprintProgram(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	sh := testenv.LookPath(t, "sh")
	for _, awk := range testenv.Awks {
		bin := filepath.Join(testenv.AwkDir(t, awk), "awk")
		for round := range rounds {
			root := t.TempDir()
			dir := filepath.Join(root, codegen.RulesDir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			asBuilt, then, report, err := tablerules.StaleRules(r, dir)
			if err != nil {
				t.Fatal(err)
			}
			gomod := ""
			switch round % 3 {
			case 1:
				gomod = "module x\n\ntool github.com/hookify/hookify/cmd/hookify\n"
			case 2:
				gomod = "module x\n\ntool (\n\texample.com/other\n\tgithub.com/hookify/hookify/cmd/hookify\n)\n"
			}
			if gomod != "" {
				if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := func(baked *codegen.RuleFiles) string {
				cmd, cancel := testenv.CommandTimeout(20*time.Second, sh, "-c",
					`LC_ALL=C; export LC_ALL; "$1" '`+fpProgram+`' "$2" go.mod .claude/hookify.*.local.md </dev/null`, "sh", bin, baked.Baked())
				defer cancel()
				cmd.Dir = root
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil || errb.Len() > 0 {
					t.Fatalf("%s: %v: %s", awk, err, errb.Bytes())
				}
				return out.String()
			}
			if got := run(asBuilt); got != "" {
				t.Fatalf("%s: rule files as built: %q, want nothing", awk, got)
			}
			// A build that knew another state: one file added since, one
			// changed since, and one removed since.
			marker := "-"
			if gomod != "" {
				marker = "T"
			}
			if got, want := run(then), marker+"/"+strings.Join(report, ", ")+"\n"; got != want {
				t.Errorf("%s: stale rule files:\n got %q\nwant %q", awk, got, want)
			}
		}
	}
}

// TestFingerprintNoRules: with no rule file left, the glob stays the
// pattern itself, which the check skips: every built file is removed.
func TestFingerprintNoRules(t *testing.T) {
	sh := testenv.LookPath(t, "sh")
	for _, awk := range testenv.Awks {
		bin := filepath.Join(testenv.AwkDir(t, awk), "awk")
		root := t.TempDir()
		baked := &codegen.RuleFiles{Names: []string{"hookify.a.local.md"}, Sums: []uint32{codegen.Fingerprint([]byte("x\n"))}}
		cmd, cancel := testenv.CommandTimeout(20*time.Second, sh, "-c",
			`LC_ALL=C; export LC_ALL; "$1" '`+fpProgram+`' "$2" go.mod .claude/hookify.*.local.md </dev/null`, "sh", bin, baked.Baked())
		cmd.Dir = root
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", awk, err)
		}
		if want := "-/hookify.a.local.md (removed)\n"; string(out) != want {
			t.Errorf("%s: got %q, want %q", awk, out, want)
		}
	}
}
