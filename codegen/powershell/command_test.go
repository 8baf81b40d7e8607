package powershell_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/hookify/hookify/codegen/powershell"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/ir"
)

// TestWindowsCommandsParse parses every windows hooks.json command of the
// examples, in both layouts and at both levels, with the tree-sitter
// PowerShell grammar, the way Cursor on Windows runs it: inside its own
// PowerShell, with the payload piped in (README "Windows"), and alone.
func TestWindowsCommandsParse(t *testing.T) {
	n := 0
	for _, layout := range []ir.Layout{ir.PerEvent, ir.PerRule} {
		for _, user := range []bool{false, true} {
			res := compiler.Compile(os.DirFS("../../examples/basic"), compiler.Options{Platform: compiler.Windows, Layout: layout, User: user})
			if res.Diags.HasErrors() {
				t.Fatalf("examples/basic does not compile:\n%s", res.Diags)
			}
			for _, f := range res.Files {
				if f.Path != compiler.HooksJSON {
					continue
				}
				var doc struct {
					Hooks map[string][]struct {
						Command string `json:"command"`
					} `json:"hooks"`
				}
				if err := json.Unmarshal(f.Data, &doc); err != nil {
					t.Fatal(err)
				}
				for _, entries := range doc.Hooks {
					for _, e := range entries {
						if e.Command == "" {
							continue // a prompt hook
						}
						n++
						for _, src := range []string{e.Command, "'{}' | & { $input | " + e.Command + " }"} {
							if r := powershell.ParseSource(t, src); len(r.Errors) > 0 {
								t.Errorf("%q does not parse: %v", src, r.Errors)
							}
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no windows commands to parse")
	}
}
