package compiler

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// patternsReport is pyre's committed corpus report: its "translated:"
// section lists every regex of the public rule corpus that translates, one
// per line as "  file:line: pattern".
const patternsReport = "../pyre/testdata/corpus-report.txt"

var benchProject = flag.String("benchproject", "", "write the 1000-rule benchmark project under this folder (for timing hookify build) and stop")

// corpusPatterns reads the translated patterns of the corpus report.
func corpusPatterns(tb testing.TB) []string {
	tb.Helper()
	data, err := os.ReadFile(patternsReport)
	if err != nil {
		tb.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\ntranslated:\n")
	if !ok {
		tb.Fatalf("%s has no translated: section", patternsReport)
	}
	var pats []string
	for _, l := range strings.Split(section, "\n") {
		// "  file.md:12: pattern": the file name holds no ": ".
		if _, p, ok := strings.Cut(l, ": "); ok {
			pats = append(pats, p)
		}
	}
	if len(pats) < 100 {
		tb.Fatalf("%s: only %d translated patterns", patternsReport, len(pats))
	}
	return pats
}

// benchRules returns n rule files, .claude/hookify.rNNNN.local.md, built from
// the corpus patterns in turn: each pattern is tried on a bash command, on
// new_text and on file_path, with block and warn alternating. Every pattern
// translates, so the project compiles.
func benchRules(tb testing.TB, n int) map[string]string {
	pats := corpusPatterns(tb)
	targets := []struct{ event, field string }{{"bash", "command"}, {"file", "new_text"}, {"file", "file_path"}}
	files := map[string]string{}
	for i := range n {
		t := targets[i/len(pats)%len(targets)]
		action := "warn"
		if i%2 == 0 {
			action = "block"
		}
		pat := strings.ReplaceAll(pats[i%len(pats)], "'", "''")
		files[fmt.Sprintf(".claude/hookify.r%04d.local.md", i)] = fmt.Sprintf(
			"---\nname: rule-%d\nevent: %s\naction: %s\nconditions:\n  - field: %s\n    operator: regex_match\n    pattern: '%s'\n---\nRule %d says no.\n",
			i, t.event, action, t.field, pat, i)
	}
	return files
}

// BenchmarkCompile compiles projects of 10, 100 and 1000 rules made of the
// corpus's patterns: the whole build except the disk. With -benchproject DIR
// it writes the 1000-rule project there instead, for `hookify build -C DIR`.
func BenchmarkCompile(b *testing.B) {
	if *benchProject != "" {
		for name, data := range benchRules(b, 1000) {
			p := filepath.Join(*benchProject, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.Skipf("wrote the 1000-rule project under %s", *benchProject)
	}
	for _, n := range []int{10, 100, 1000} {
		root := mapFS(benchRules(b, n))
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			for b.Loop() {
				res := Compile(root, Options{})
				if res.Diags.HasErrors() || len(res.Files) == 0 {
					b.Fatalf("the benchmark project does not compile:\n%v", res.Diags)
				}
			}
		})
	}
}
