package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/writer"
)

// TestExamples checks that the committed output under examples/ is what
// hookify build produces now; -update rewrites it.
func TestExamples(t *testing.T) {
	dirs, _ := filepath.Glob("../../examples/*")
	if len(dirs) == 0 {
		t.Fatal("no examples")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			res := compiler.Compile(os.DirFS(dir), compiler.Options{})
			if res.Diags.HasErrors() {
				t.Fatalf("examples must compile:\n%s", res.Diags)
			}
			changes, err := writer.Plan(os.DirFS(dir), res.Files, res.Stale)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := writer.Apply(dir, changes); err != nil {
					t.Fatal(err)
				}
				return
			}
			if len(changes) > 0 {
				t.Errorf("%s is stale (go test ./cmd/hookify -run TestExamples -update):\n%s", dir, writer.Diff(changes))
			}
		})
	}
}
