package powershell_test

import (
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/codegen/powershell"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/internal/tablerules"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// generated collects every .ps1 that the golden cases expect and that
// "build --platform windows" writes for each project under examples/.
func generated(t *testing.T) map[string][]byte {
	t.Helper()
	genOnce.Do(func() { genFiles = generate(t) })
	if genFiles == nil {
		t.Fatal("the generated scripts could not be collected (see the first test that tried)")
	}
	return genFiles
}

var (
	genOnce  sync.Once
	genFiles map[string][]byte
)

func generate(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	goldens, _ := filepath.Glob("../../golden/testdata/*.txtar")
	if len(goldens) == 0 {
		t.Fatal("no golden cases in ../../golden/testdata")
	}
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "out/") && strings.HasSuffix(f.Name, ".ps1") {
				files["golden/"+filepath.Base(g)+"/"+path.Base(f.Name)] = f.Data
			}
		}
	}
	examples, _ := filepath.Glob("../../examples/*/.claude")
	if len(examples) == 0 {
		t.Fatal("no projects under ../../examples")
	}
	for _, e := range examples {
		dir := filepath.Dir(e)
		res := compiler.Compile(os.DirFS(dir), compiler.Options{Platform: compiler.Windows})
		if res.Diags.HasErrors() {
			t.Errorf("%s does not compile:\n%s", dir, res.Diags)
			continue
		}
		add(files, "examples/"+filepath.Base(dir), res.Files)
	}
	return files
}

// generatedCorpus collects the .ps1 files that each rule of the real-rule
// corpus compiles to on its own, in both layouts; the test skips without
// the corpus.
func generatedCorpus(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, c := range testenv.CorpusRules(t) {
		fsys := fstest.MapFS{}
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		fsys[".claude/hookify.rule.local.md"] = &fstest.MapFile{Data: data}
		for _, layout := range []ir.Layout{ir.PerEvent, ir.PerRule} {
			res := compiler.Compile(fsys, compiler.Options{Platform: compiler.Windows, Layout: layout})
			for _, d := range res.Diags {
				if d.Code == "powershell" {
					t.Errorf("%s: %s", c, d)
				}
			}
			add(files, "corpus/"+filepath.Base(c), res.Files)
		}
	}
	return files
}

// scriptSets are the sets of generated .ps1 files the tests below check,
// each in a subtest.
var scriptSets = []struct {
	name  string
	files func(*testing.T) map[string][]byte
}{{"golden-and-examples", generated}, {"corpus", generatedCorpus}, {"table-rows", generatedTableRows}}

// TestRetiredStubs checks the retired stubs as TestGeneratedScripts checks
// every generated script: they hold no regex.
func TestRetiredStubs(t *testing.T) { checkScripts(t, retiredStubs(t)) }

// retiredStubs are the retired stubs (codegen.Retired) of a script that
// served each event, and of one that served them all.
func retiredStubs(*testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, e := range ir.CursorEvents {
		files["retired/"+e.String()] = codegen.Retired(".cursor/hooks/hookify-x.ps1", []ir.CursorEvent{e})
	}
	files["retired/all"] = codegen.Retired(".cursor/hooks/hookify-x.ps1", ir.CursorEvents)
	return files
}

// generatedTableRows are the scripts of the rules of package tablerules,
// so that a new row of ir's tables gets its PowerShell checked too.
func generatedTableRows(t *testing.T) map[string][]byte {
	rules := map[string]string{}
	tablerules.Each(func(name, front string) { rules[name] = front })
	files := map[string][]byte{}
	for name, front := range rules {
		file := "hookify." + name + ".local.md"
		fsys := fstest.MapFS{".claude/" + file: {Data: []byte("---\n" + front + "\n---\nMessage.\n")}}
		res := compiler.Compile(fsys, compiler.Options{Platform: compiler.Windows})
		if res.Diags.HasErrors() || len(res.Files) < 2 {
			t.Errorf("table row %s does not compile to a script:\n%s", name, res.Diags)
			continue
		}
		add(files, "table/"+name, res.Files)
	}
	return files
}

func add(files map[string][]byte, prefix string, out []codegen.File) {
	for _, f := range out {
		if strings.HasSuffix(f.Path, ".ps1") {
			files[prefix+"/"+path.Base(f.Path)] = f.Data
		}
	}
}

var (
	sayRE        = regexp.MustCompile(`^\s*hk_say `)
	exitRE       = regexp.MustCompile(`^\s*exit [0-9]+$`)
	methodCallRE = regexp.MustCompile(`\bhk_[a-z_]+\(`)
	assignRE     = regexp.MustCompile(`\$(hk_[A-Za-z0-9_]+) = `)
	varRE        = regexp.MustCompile(`\$(hk_[A-Za-z0-9_]+)`)
)

// TestGeneratedScripts checks every generated .ps1 with the tree-sitter
// PowerShell grammar (testenv.PSParse says when it skips) and for the
// properties Windows PowerShell 5.1 and Cursor need: a UTF-8 BOM and then
// the generated header, valid UTF-8, LF line ends only, and an explicit
// exit right after every answer.
func TestGeneratedScripts(t *testing.T) {
	for _, set := range scriptSets {
		t.Run(set.name, func(t *testing.T) { checkScripts(t, set.files(t)) })
	}
}

func checkScripts(t *testing.T, files map[string][]byte) {
	dir := t.TempDir()
	var paths []string
	for name, data := range files {
		s := string(data)
		if !strings.HasPrefix(s, powershell.BOM+"# Code generated by hookify from ") || !strings.Contains(strings.SplitN(s, "\n", 2)[0], ". DO NOT EDIT.") {
			t.Errorf("%s: does not start with a BOM and the generated header", name)
		}
		if !utf8.ValidString(s) {
			t.Errorf("%s: not valid UTF-8", name)
		}
		if strings.Contains(s, "\r") || !strings.HasSuffix(s, "\n") {
			t.Errorf("%s: line ends are not all LF", name)
		}
		// Strict mode (Set-StrictMode -Version 2.0) stops a script that
		// calls a function with method syntax or reads a variable that was
		// never assigned.
		for _, m := range methodCallRE.FindAllStringIndex(s, -1) {
			if !strings.HasSuffix(s[:m[0]], "function ") {
				t.Errorf("%s: function called with method syntax: %q", name, s[m[0]:m[1]])
			}
		}
		assigned := map[string]bool{}
		for _, m := range assignRE.FindAllStringSubmatch(s, -1) {
			assigned[m[1]] = true
		}
		for _, m := range varRE.FindAllStringSubmatch(s, -1) {
			if !assigned[m[1]] {
				t.Errorf("%s: $%s is read but never assigned", name, m[1])
				assigned[m[1]] = true
			}
		}
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if sayRE.MatchString(l) && (i+1 >= len(lines) || !exitRE.MatchString(lines[i+1])) {
				t.Errorf("%s:%d: an answer without an exit right after it", name, i+1)
			}
		}
		p := filepath.Join(dir, strings.NewReplacer("/", "__").Replace(name))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	t.Logf("checking %d generated scripts", len(paths))
	powershell.ParseFiles(t, paths)
}

var regexLitRE = regexp.MustCompile(`\[System\.Text\.RegularExpressions\.Regex\]::new\('((?:[^']|'')*)'`)

// TestGeneratedRegexesOnDotNet constructs every regex of every generated
// .ps1 (the rule regexes and the decoder's) with .NET (Mono) and runs it
// once: a pattern .NET refused would stop the script before it answers.
func TestGeneratedRegexesOnDotNet(t *testing.T) {
	for _, set := range scriptSets {
		t.Run(set.name, func(t *testing.T) { constructRegexes(t, set.files(t)) })
	}
}

func constructRegexes(t *testing.T, files map[string][]byte) {
	matcher := powershell.DotNetMatcher(t)
	seen := map[string]bool{}
	var in strings.Builder
	for _, data := range files {
		for _, m := range regexLitRE.FindAllStringSubmatch(string(data), -1) {
			p := strings.ReplaceAll(m[1], "''", "'")
			if !seen[p] {
				seen[p] = true
				in.WriteString(hex.EncodeToString([]byte(p)) + " " + hex.EncodeToString([]byte("x")) + "\n")
			}
		}
	}
	matcher.Stdin = strings.NewReader(in.String())
	out, err := matcher.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(seen) {
		t.Fatalf("%d answers for %d regexes", len(lines), len(seen))
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "E ") {
			t.Errorf(".NET refuses a generated regex: %s", l)
		}
	}
	t.Logf("%d distinct regexes constructed on .NET", len(seen))
}

// TestGeneratedFunctionsDefined: every hk_ function a generated script calls
// is defined in that script (PowerShell finds out only when the call runs,
// and the try block turns that into the answer of an unreadable payload).
func TestGeneratedFunctionsDefined(t *testing.T) {
	call := regexp.MustCompile(`(?:^|[\s(;{&])(hk_[a-z_]+)\b`)
	def := regexp.MustCompile(`(?m)^\s*function (hk_[a-z_]+)\b`)
	for name, data := range generated(t) {
		defined := map[string]bool{}
		for _, m := range def.FindAllStringSubmatch(string(data), -1) {
			defined[m[1]] = true
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			for _, m := range call.FindAllStringSubmatch(line, -1) {
				if !defined[m[1]] {
					t.Errorf("%s: %s is called but not defined: %s", name, m[1], strings.TrimSpace(line))
				}
			}
		}
	}
}
