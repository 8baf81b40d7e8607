package compiler

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/upstream"
)

// corpusReport is the committed summary of TestCorpus.
const corpusReport = "testdata/corpus-report.txt"

var updateCorpus = flag.Bool("update", false, "rewrite "+corpusReport)

// corpusPaths maps each corpus file to the path it had in its repository
// (SOURCES.tsv), so that it is compiled under its real name. The test skips
// without the corpus (testenv.CorpusDir).
func corpusPaths(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, src := range corpusSources(t) {
		out[src.saved] = src.path
	}
	return out
}

// corpusSource is one line of SOURCES.tsv.
type corpusSource struct {
	saved, repo, path string
}

func corpusSources(t *testing.T) []corpusSource {
	data, err := os.ReadFile(filepath.Join(testenv.CorpusDir(t), "SOURCES.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusSource
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if f := strings.Split(line, "\t"); len(f) > 2 {
			out = append(out, corpusSource{f[0], f[1], f[2]})
		}
	}
	return out
}

// corpusRepos stages the corpus per repository, as SOURCES.tsv says: each
// repository's files under their paths there, in one file system.
func corpusRepos(t *testing.T) (repos []string, files map[string]map[string]string) {
	dir := testenv.CorpusDir(t)
	files = map[string]map[string]string{}
	for _, src := range corpusSources(t) {
		data, err := os.ReadFile(filepath.Join(dir, src.saved))
		if err != nil {
			t.Fatal(err)
		}
		if files[src.repo] == nil {
			files[src.repo] = map[string]string{}
			repos = append(repos, src.repo)
		}
		files[src.repo][src.path] = string(data)
	}
	slices.Sort(repos)
	return repos, files
}

// compiles reports whether res gives hooks for at least one rule.
func compiles(res *Result) bool {
	return len(res.Files) > 0 && len(res.Program.Rules) > 0
}

// TestCorpusRepositories builds each repository's rules together, as
// build --keep-going does (README, "Rules as people write them"): every repository with at least one
// rule that compiles on its own gets hooks, whatever its other rules hold.
func TestCorpusRepositories(t *testing.T) {
	repos, files := corpusRepos(t)
	valid, hooked := 0, 0
	for _, repo := range repos {
		good := false
		var inputs []string
		for p, src := range files[repo] {
			inputs = append(inputs, p)
			if compiles(Compile(mapFS(map[string]string{p: src}), Options{Inputs: []string{p}})) {
				good = true
			}
		}
		if !good {
			continue
		}
		valid++
		slices.Sort(inputs)
		res := Compile(mapFS(files[repo]), Options{Inputs: inputs})
		if !compiles(res) {
			t.Errorf("%s: has a valid enabled rule, but --keep-going builds nothing:\n%s", repo, res.Diags)
			continue
		}
		hooked++
	}
	t.Logf("%d repositories, %d with a valid enabled rule, %d of them get hooks with --keep-going", len(repos), valid, hooked)
}

// TestCorpus compiles every real rule file on its own. Each must either
// compile to at least one hook, or be refused with a positioned error, or
// compile to nothing with a warning that says why. With -update it writes
// the counts, per check, to testdata/corpus-report.txt.
func TestCorpus(t *testing.T) {
	paths := corpusPaths(t)
	for _, noPrompt := range []bool{false, true} {
		var st corpusStats
		for _, path := range testenv.CorpusRules(t) {
			name := filepath.Base(path)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			file := paths[name]
			if file == "" {
				t.Fatalf("%s is not in SOURCES.tsv", name)
			}
			fsys := mapFS(map[string]string{file: string(src)})
			res := Compile(fsys, Options{Inputs: []string{file}, Layout: ir.PerEvent, NoPromptHooks: noPrompt})
			for _, d := range res.Diags {
				if d.Pos.File != file || d.Pos.Line == 0 {
					t.Errorf("%s: diagnostic without a position: %v", name, d)
				}
			}
			outcome := "compiled"
			switch {
			case res.Diags.HasErrors():
				outcome = "refused"
				for _, d := range res.Diags {
					if d.Severity == diag.Error && d.Hint == "" {
						outcome = "refused-" // without saying what to write
					}
				}
			case slices.ContainsFunc(res.Diags, func(d diag.Diagnostic) bool { return d.Code == diag.Disabled }):
				outcome = "disabled"
			case len(res.Program.Rules) == 0:
				outcome = "nothing"
				if !slices.ContainsFunc(res.Diags, func(d diag.Diagnostic) bool { return d.Code.LeavesOut() || d.Code == diag.NoChannel }) {
					t.Errorf("%s: compiles to nothing without a warning that says why:\n%s", name, res.Diags)
				}
			case res.Cursor == nil || len(res.Cursor.Units)+len(res.Cursor.Prompts) == 0:
				t.Errorf("%s: a compiled rule gives no hook", name)
			}
			st.add(name, outcome, res.Diags)
			if testing.Verbose() && !noPrompt {
				for _, d := range res.Diags {
					t.Logf("%s: %s", name, d)
				}
			}
		}
		if noPrompt {
			if st.outcomes["compiled"] == 0 {
				t.Error("with --no-prompt-hooks nothing compiles")
			}
			continue
		}
		report := st.report()
		t.Logf("corpus:\n%s", report[:strings.Index(report, "\nper file")])
		if *updateCorpus {
			if err := os.MkdirAll(filepath.Dir(corpusReport), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(corpusReport, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if old, err := os.ReadFile(corpusReport); err != nil || !bytes.Equal(old, []byte(report)) {
			// Counts move with the regex translator and the checks: the
			// report is a record, not a test.
			t.Logf("%s is out of date: go test ./compiler -run TestCorpus -update", corpusReport)
		}
	}
}

type corpusStats struct {
	files    int
	outcomes map[string]int
	warned   int
	warnings map[diag.Code]int
	errors   map[diag.Code]int
	perFile  []string
}

func (s *corpusStats) add(name, outcome string, ds diag.List) {
	if s.outcomes == nil {
		s.outcomes, s.warnings, s.errors = map[string]int{}, map[diag.Code]int{}, map[diag.Code]int{}
	}
	s.files++
	s.outcomes[outcome]++
	var codes []string
	warned := false
	for _, d := range ds {
		if d.Severity == diag.Warning {
			s.warnings[d.Code]++
			warned = true
		} else {
			s.errors[d.Code]++
		}
		codes = append(codes, string(d.Code))
	}
	if warned {
		s.warned++
	}
	slices.Sort(codes)
	s.perFile = append(s.perFile, fmt.Sprintf("%-9s %s  %s", outcome, name, strings.Join(slices.Compact(codes), " ")))
}

func (s *corpusStats) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Every file of shared/corpus/hookify-rules compiled on its own, under its path in its\n# repository (SOURCES.tsv), in the per-event layout.\n")
	fmt.Fprintf(&b, "# Regenerate: go test ./compiler -run TestCorpus -update\n\n")
	fmt.Fprintf(&b, "files     %4d\n", s.files)
	fmt.Fprintf(&b, "compiled  %4d  at least one Cursor hook\n", s.outcomes["compiled"])
	fmt.Fprintf(&b, "disabled  %4d  enabled: false, cleanly: warnings only\n", s.outcomes["disabled"])
	fmt.Fprintf(&b, "refused   %4d  with a positioned error that says what to write instead\n", s.outcomes["refused"])
	fmt.Fprintf(&b, "refused-  %4d  with a positioned error that does not say what to write\n", s.outcomes["refused-"])
	fmt.Fprintf(&b, "nothing   %4d  compile to nothing, with a warning that says why\n", s.outcomes["nothing"])
	fmt.Fprintf(&b, "warned    %4d  with at least one warning\n", s.warned)
	ok := s.outcomes["compiled"] + s.outcomes["disabled"]
	fmt.Fprintf(&b, "\nworking hook or cleanly disabled: %d of %d files, %.1f%%\n", ok, s.files, 100*float64(ok)/float64(s.files))
	var fid, other int
	for code, n := range s.warnings {
		if upstream.IsFidelity(code) {
			fid += n
		} else {
			other += n
		}
	}
	fmt.Fprintf(&b, "\nfidelity warnings by check (%d in all):\n", fid)
	for _, code := range upstream.Codes() {
		fmt.Fprintf(&b, "  %-24s %4d\n", code, s.warnings[code])
	}
	fmt.Fprintf(&b, "\nother warnings by code (%d in all):\n", other)
	writeCounts(&b, s.warnings, func(code diag.Code) bool { return !upstream.IsFidelity(code) })
	fmt.Fprintf(&b, "\nerrors by code:\n")
	writeCounts(&b, s.errors, func(diag.Code) bool { return true })
	fmt.Fprintf(&b, "\nper file (outcome, file, diagnostic codes):\n")
	for _, l := range s.perFile {
		fmt.Fprintf(&b, "  %s\n", strings.TrimRight(l, " "))
	}
	return b.String()
}

func writeCounts(b *strings.Builder, counts map[diag.Code]int, keep func(diag.Code) bool) {
	var codes []diag.Code
	for code := range counts {
		if keep(code) {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	for _, code := range codes {
		fmt.Fprintf(b, "  %-24s %4d\n", code, counts[code])
	}
}

// TestCorpusFix runs hookify fix over every real rule file on its own and
// over each repository's rules: compile, fix, compile gives the same bytes
// (README, "Rules as people write them"), and the warnings about where upstream reads or runs a rule
// differently go down.
func TestCorpusFix(t *testing.T) {
	repos, files := corpusRepos(t)
	var before, after, fixed, total int
	for _, repo := range repos {
		var inputs []string
		for p := range files[repo] {
			inputs = append(inputs, p)
		}
		slices.Sort(inputs)
		for _, layout := range []ir.Layout{ir.PerEvent, ir.PerRule} {
			// Without the live check, whose fingerprints see any edit.
			opts := Options{Inputs: inputs, Layout: layout, NoLiveCheck: true}
			fsys := mapFS(files[repo])
			changes, _ := Fix(fsys, opts)
			fixedFiles := maps.Clone(files[repo])
			for _, c := range changes {
				if !bytes.Equal(c.Old, []byte(files[repo][c.Path])) {
					t.Fatalf("%s: the change's old content is not the file's", c.Path)
				}
				fixedFiles[c.Path] = string(c.New)
			}
			a, b := Compile(fsys, opts), Compile(mapFS(fixedFiles), opts)
			if d := cmp.Diff(filesOf(a), filesOf(b)); d != "" {
				t.Errorf("%s (%v): fix changes the compiled output (-before +after):\n%s", repo, layout, d)
			}
			if layout != ir.PerEvent {
				continue
			}
			for _, c := range changes {
				if !bytes.Equal(body(c.Old), body(c.New)) {
					t.Errorf("%s: fix changes the message body", c.Path)
				}
			}
			fixed += len(changes)
			total += len(inputs)
			before += countFidelity(a.Diags)
			after += countFidelity(b.Diags)
			// Fixing twice changes nothing more.
			if again, _ := Fix(mapFS(fixedFiles), opts); len(again) > 0 {
				t.Errorf("%s: a second fix still changes %s:\n%s", repo, again[0].Path, again[0].New)
			}
		}
	}
	t.Logf("hookify fix rewrites %d of %d files; warnings where upstream differs: %d before, %d after", fixed, total, before, after)
	if after >= before {
		t.Errorf("fix does not lower the upstream warnings: %d before, %d after", before, after)
	}
}

func filesOf(r *Result) map[string]string {
	out := map[string]string{}
	for _, f := range r.Files {
		out[f.Path] = string(f.Data)
	}
	return out
}

func countFidelity(l diag.List) int {
	n := 0
	for _, d := range l {
		if upstream.IsFidelity(d.Code) {
			n++
		}
	}
	return n
}

// body is what follows the front matter's closing line.
func body(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(string(lines[i]), " \t\r\n") == "---" {
			return bytes.Join(lines[i+1:], nil)
		}
	}
	return nil
}
