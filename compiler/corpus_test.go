package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookify/hookify/ir"
)

const corpusDir = "../../shared/corpus/hookify-rules"

// corpusFiles lists the shared corpus of real rule files. A missing corpus
// fails the test: it is the project's main source of real input.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(corpusDir, "*.md"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no corpus files in %s: %v", corpusDir, err)
	}
	return m
}

// TestCorpus compiles every real rule file on its own. Each must either
// compile to at least one hook, or come with a positioned diagnostic that
// says why not.
func TestCorpus(t *testing.T) {
	var compiled, refused, empty int
	for _, path := range corpusFiles(t) {
		name := filepath.Base(path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fsys := mapFS(map[string]string{".claude/" + name: string(src)})
		res := Compile(fsys, Options{Inputs: []string{".claude/" + name}, Layout: ir.PerEvent})
		for _, d := range res.Diags {
			if d.Pos.File != ".claude/"+name || d.Pos.Line == 0 {
				t.Errorf("%s: diagnostic without a position: %v", name, d)
			}
		}
		switch {
		case res.Diags.HasErrors():
			refused++
		case len(res.Program.Rules) == 0:
			empty++
			if len(res.Diags) == 0 {
				t.Errorf("%s: compiles to nothing without a diagnostic", name)
			}
		default:
			compiled++
		}
		if testing.Verbose() {
			for _, d := range res.Diags {
				t.Logf("%s", strings.TrimPrefix(d.String(), ".claude/"))
			}
		}
	}
	t.Logf("corpus: %d compiled, %d refused, %d compile to nothing (with a reason)", compiled, refused, empty)
}
