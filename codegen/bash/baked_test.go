package bash_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/compiler"
)

// TestBakedRules builds generated rule sets (file names with spaces,
// double quotes, dollars and UTF-8 among them) and reads back from each
// Unix hook the names of the rule files and their fingerprints, as
// codegen.Fingerprint computes them from the files' bytes; a build from
// rule files elsewhere has no list.
func TestBakedRules(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		fsys := fstest.MapFS{}
		var names []string
		sums := map[string]uint32{}
		for i := range 1 + r.IntN(4) {
			name := fmt.Sprintf("hookify.%s%d.local.md", []string{"a", "b c", `d"e`, "é", "f$g"}[r.IntN(5)], i)
			text := fmt.Sprintf("---\nevent: bash\naction: block\npattern: x%d\n---\nNo %d.\n", r.IntN(100), i)
			fsys[".claude/"+name] = &fstest.MapFile{Data: []byte(text)}
			names = append(names, name)
			sums[name] = codegen.Fingerprint([]byte(text))
		}
		slices.Sort(names)
		res := compiler.Compile(fsys, compiler.Options{})
		if res.Diags.HasErrors() {
			t.Fatal(res.Diags)
		}
		for _, f := range res.Files {
			if f.Path != ".cursor/hooks/hookify-beforeShellExecution.sh" {
				continue
			}
			got, ok := bash.BakedRules(f.Data)
			if !ok || !slices.Equal(got.Names, names) {
				t.Fatalf("names %q, read back %+v (%v)", names, got, ok)
			}
			for i, n := range got.Names {
				if got.Sums[i] != sums[n] {
					t.Errorf("%s: fingerprint %d, read back %d", n, sums[n], got.Sums[i])
				}
			}
		}
	}
	fsys := fstest.MapFS{"rules/hookify.a.local.md": {Data: []byte("---\nevent: bash\npattern: x\n---\nX.\n")}}
	for _, f := range compiler.Compile(fsys, compiler.Options{Inputs: []string{"rules"}}).Files {
		if _, ok := bash.BakedRules(f.Data); ok {
			t.Errorf("%s: a build from rules/ has a baked list", f.Path)
		}
	}
}
