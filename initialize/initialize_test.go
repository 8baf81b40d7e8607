package initialize

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v4"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// cursorName is the command Cursor makes of a file in .cursor/commands:
// its name without ".md", for a Markdown file directly in the folder.
func cursorName(p string) (string, bool) {
	dir, file := path.Split(p)
	name, ok := strings.CutSuffix(file, ".md")
	return name, ok && dir == CommandsDir+"/" && regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`).MatchString(name)
}

// TestCommandsAsCursorReadsThem reads each file as Cursor does (a Markdown
// file directly in .cursor/commands whose name is the command, no front
// matter) and checks what the agent is given: the generated header as an
// HTML comment first, a title, blocks that all close, rule examples that
// hookify builds without an error, every operator of ir's table named, and
// a last section that runs the build and the tests.
func TestCommandsAsCursorReadsThem(t *testing.T) {
	for _, user := range []bool{false, true} {
		var names []string
		for _, f := range Files(user) {
			name, ok := cursorName(f.Path)
			if !ok {
				t.Errorf("%s: Cursor would not read it as a command", f.Path)
			}
			names = append(names, "/"+name)
			src := f.Data
			if !writer.IsGenerated(f.Path, src) {
				t.Errorf("%s: no generated header on line 1", f.Path)
			}
			if strings.HasPrefix(string(src), "---") {
				t.Errorf("%s: front matter, which Cursor does not read", f.Path)
			}
			doc := goldmark.New().Parser().Parse(text.NewReader(src))
			var kinds []string
			var fences []string
			var finally string
			for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
				kinds = append(kinds, n.Kind().String())
				if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
					finally = string(h.Lines().Value(src))
				}
			}
			ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if fc, ok := n.(*ast.FencedCodeBlock); ok && entering {
					fences = append(fences, string(fc.Language(src))+"\n"+string(fc.Lines().Value(src)))
				}
				return ast.WalkContinue, nil
			})
			if len(kinds) < 2 || kinds[0] != "HTMLBlock" || kinds[1] != "Heading" {
				t.Errorf("%s: blocks start %v, want the header comment then a title", f.Path, kinds)
			}
			if finally != "Finally" {
				t.Errorf("%s: last section %q, want Finally", f.Path, finally)
			}
			build, test := "hookify build", "hookify test"
			if user {
				build, test = build+" --user", test+" --user"
			}
			if len(fences) == 0 || fences[len(fences)-1] != "sh\n"+build+"\n"+test+"\n" {
				t.Errorf("%s: last code block is not the build and the tests:\n%q", f.Path, fences)
			}
			body := string(src)
			if strings.Count(body, "```")%2 != 0 {
				t.Errorf("%s: a code fence is not closed", f.Path)
			}
			if strings.Contains(f.Path, "hookify.md") || strings.Contains(f.Path, "help") {
				for _, op := range ir.OpNames() {
					if !strings.Contains(body, "`"+op+"`") {
						t.Errorf("%s: operator %s not named", f.Path, op)
					}
				}
				for _, e := range ir.Rows {
					if e.Spec().ByToolMatcher || e.Spec().MCP {
						continue
					}
					if !strings.Contains(body, "- `"+e.String()+"`: ") {
						t.Errorf("%s: event %s not named", f.Path, e)
					}
				}
				checkExamples(t, f.Path, fences)
			}
		}
		want := []string{"/hookify", "/hookify-list", "/hookify-configure", "/hookify-help"}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("commands (-want +got):\n%s", diff)
		}
	}
}

// checkExamples builds the Markdown example of a rule file, and one with
// the YAML example's conditions in place of its pattern: hookify must
// accept both, and their tests: must hold.
func checkExamples(t *testing.T, p string, fences []string) {
	t.Helper()
	var rule, conds string
	for _, f := range fences {
		lang, body, _ := strings.Cut(f, "\n")
		switch lang {
		case "markdown":
			rule = body
		case "yaml":
			conds = body
		}
	}
	if rule == "" || conds == "" {
		t.Fatalf("%s: no rule example (markdown) or conditions example (yaml)", p)
	}
	var c struct {
		Conditions []map[string]string `yaml:"conditions"`
	}
	if err := yaml.Unmarshal([]byte(conds), &c); err != nil || len(c.Conditions) == 0 {
		t.Fatalf("%s: the conditions example does not parse: %v", p, err)
	}
	withConds := strings.Replace(rule, "event: bash\n", "event: file\n", 1)
	withConds = regexp.MustCompile(`(?m)^pattern: .*\n`).ReplaceAllString(withConds, conds)
	withConds = regexp.MustCompile(`(?s)tests:.*?---`).ReplaceAllString(withConds, "---")
	for name, src := range map[string]string{"rule": rule, "conditions": withConds} {
		fsys := fstest.MapFS{".claude/hookify.example.local.md": {Data: []byte(src)}}
		res := compiler.Compile(fsys, compiler.Options{})
		for _, d := range res.Diags {
			if d.Severity.String() == "error" {
				t.Errorf("%s: the %s example does not build: %v\n%s", p, name, d, src)
			}
		}
		if len(res.Program.Rules) != 1 {
			t.Errorf("%s: the %s example gives %d rules", p, name, len(res.Program.Rules))
		}
	}
}

// TestWrite: a second Write changes nothing; a command file without the
// header survives, and the others are written.
func TestWrite(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, ".cursor", "commands", "hookify.md")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("# my own /hookify\n"), 0o644)
	res, err := Write(root, false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Claude || !slices.Equal(res.Foreign, []string{CommandsDir + "/hookify.md"}) || len(res.Changes) != len(Commands)-1 {
		t.Errorf("first Write = %+v, want .claude created, hookify.md foreign, %d files written", res, len(Commands)-1)
	}
	if data, _ := os.ReadFile(mine); string(data) != "# my own /hookify\n" {
		t.Errorf("the user's hookify.md became %q", data)
	}
	res, err = Write(root, false)
	if err != nil || res.Claude || len(res.Changes) != 0 {
		t.Errorf("second Write = %+v, %v; want no change", res, err)
	}
}
