package eval

import (
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/internal/tablerules"
)

// tableRules adds the rules of package tablerules, so that the
// differential test runs every operator and every Cursor event through the
// scripts with each awk.
var tableRules = tablerules.Each

// TestTableRulesCompile: every rule tableRules adds compiles to a script,
// so that TestDifferential, which skips rules that do not, runs them all.
func TestTableRulesCompile(t *testing.T) {
	fsys := fstest.MapFS{}
	tableRules(func(name, front string) {
		file := "hookify." + name + ".local.md"
		fsys[file] = &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nMessage.\n")}
		res := compiler.Compile(fsys, compiler.Options{Inputs: []string{file}})
		if res.Diags.HasErrors() || res.Cursor == nil || len(res.Cursor.Units) != 1 {
			t.Errorf("%s does not compile to one script: %v", name, res.Diags)
		}
	})
}
