package bash_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/compiler"
)

// TestNeeds: NeedsIntervals and ReadsTranscript, which tell hookify doctor
// which programs a hook runs besides sh and awk, read the generated files
// of a hook that needs the program as such and of one that does not, with
// the program inline and in a file beside the script.
func TestNeeds(t *testing.T) {
	rule := func(name, event, pattern string) string {
		return "---\nname: " + name + "\nevent: " + event + "\naction: block\nconditions:\n  - field: " + map[string]string{"bash": "command", "stop": "transcript"}[event] +
			"\n    operator: regex_match\n    pattern: '" + pattern + "'\n---\nNo " + name + ".\n"
	}
	for _, c := range []struct {
		name                   string
		rules                  map[string]string
		script                 string
		intervals, transcripts bool
	}{
		{"plain", map[string]string{"a": rule("a", "bash", `rm\s+-rf`)}, "hookify-beforeShellExecution", false, false},
		{"interval", map[string]string{"a": rule("a", "bash", `rm -r[a-z]{0,200}f`)}, "hookify-beforeShellExecution", true, false},
		{"transcript", map[string]string{"a": rule("a", "stop", `tests? (failed|broke)`)}, "hookify-stop", false, true},
		{"both, in a program file", func() map[string]string {
			m := map[string]string{"a": rule("a", "stop", `x[a-z]{0,200}y`)}
			for i := range 400 {
				n := fmt.Sprintf("r%03d", i)
				m[n] = rule(n, "stop", fmt.Sprintf(`never%d\s+there`, i)) + strings.Repeat("A long message. ", 20) + "\n"
			}
			return m
		}(), "hookify-stop", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, r := range c.rules {
				fsys[".claude/hookify."+n+".local.md"] = &fstest.MapFile{Data: []byte(r)}
			}
			res := compiler.Compile(fsys, compiler.Options{})
			if res.Diags.HasErrors() {
				t.Fatalf("compile: %v", res.Diags)
			}
			var hook []byte
			var files []string
			for _, f := range res.Files {
				if strings.HasPrefix(f.Path, ".cursor/hooks/"+c.script+".") && !strings.HasSuffix(f.Path, ".ps1") {
					hook = append(hook, f.Data...)
					files = append(files, f.Path)
				}
			}
			if len(files) == 0 || c.name == "both, in a program file" && len(files) != 2 {
				t.Fatalf("the hook's files are %q", files)
			}
			if got := bash.NeedsIntervals(hook); got != c.intervals {
				t.Errorf("NeedsIntervals(%q) = %v, want %v", files, got, c.intervals)
			}
			if got := bash.ReadsTranscript(hook); got != c.transcripts {
				t.Errorf("ReadsTranscript(%q) = %v, want %v", files, got, c.transcripts)
			}
		})
	}
}
