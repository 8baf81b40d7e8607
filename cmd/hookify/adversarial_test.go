package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// hostile are fragments of rule text that would run, end a string, or be
// read as a format, an escape or a heredoc end if they ever reached bash,
// PowerShell or printf unquoted. The marker commands create files named
// pwned*.
var hostile = []string{
	"'", `"`, "$(touch pwned)", "`touch pwned2`", "%s%n", "%d%%", `\`, `\\`, `\n`, `\x41`, `\'`,
	"EOF", "\nEOF\n", "\n", "$HOME", "${PATH}", "$'x'", "!!", "'\\''", ";touch pwned3;", "&&", "|", ">pwned4",
	"*", "?", "[a]", "#", "ünïcödé", "✅", "日本", "\u2028", "\u00a0", "<&>", "\t", "a", " b ", "--", "---",
	// PowerShell: typographic quotes end strings there, here-strings, block comments.
	"‘", "’", "‚", "‛", "“", "”", "„", "@'", "'@", "@\"", "<#", "#>", "$env:PATH", "`n",
}

// hostileText joins n random fragments between two letters, so that the
// parser's trimming of a message body leaves it as it is.
func hostileText(rng *rand.Rand, n int, allowControl bool) string {
	var b strings.Builder
	b.WriteString("A")
	for range n {
		f := hostile[rng.IntN(len(hostile))]
		if !allowControl && strings.ContainsAny(f, "\n\t\u2028") {
			continue
		}
		b.WriteString(f)
	}
	b.WriteString("Z")
	return b.String()
}

// TestHostileRuleText builds rule sets whose names, patterns and messages
// are random mixes of hostile fragments, runs the generated bash hook (in
// the default per-event layout and in per-rule) on a payload that holds
// each pattern, and checks that every message comes back byte for byte in
// the deny answer, and that no file appears anywhere but .cursor/: no
// rule text was ever executed. The PowerShell twins are parsed with
// tree-sitter. The seed is fixed so failures reproduce.
func TestHostileRuleText(t *testing.T) {
	bash := testenv.LookPath(t, "bash")
	psparse := testenv.PSParse(t) // before the work, so that it skips early
	rng := rand.New(rand.NewPCG(7, 7))
	psDir := t.TempDir() // every generated .ps1, for one syntax check at the end
	for round := range 6 {
		parent := t.TempDir()
		root := filepath.Join(parent, "p")
		if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		type rule struct{ name, pattern, body string }
		var rules []rule
		for i := range 4 {
			r := rule{
				name:    hostileText(rng, 4, false),
				pattern: hostileText(rng, 3, true),
				body:    hostileText(rng, 6, true),
			}
			rules = append(rules, r)
			src := fmt.Sprintf("---\nname: %s\nevent: bash\naction: block\nconditions:\n  - field: command\n    operator: contains\n    pattern: %s\n---\n%s\n",
				ir.JSONString(r.name), ir.JSONString(r.pattern), r.body) // JSON strings are YAML double-quoted scalars
			if err := os.WriteFile(filepath.Join(root, ".claude", fmt.Sprintf("hookify.r%d.local.md", i)), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, layout := range []string{"per-event", "per-rule"} {
			var stderr bytes.Buffer
			if code := run([]string{"build", "-C", root, "--layout", layout}, nil, io.Discard, &stderr); code != 0 {
				t.Fatalf("round %d: build --layout %s: exit %d\n%s", round, layout, code, stderr.Bytes())
			}
			if bytes.Contains(stderr.Bytes(), []byte(": error: ")) {
				t.Fatalf("round %d: errors:\n%s", round, stderr.Bytes())
			}
			twins, _ := filepath.Glob(filepath.Join(root, ".cursor/hooks/hookify-*.ps1"))
			for _, ps := range twins {
				data, err := os.ReadFile(ps)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("r%d-%s-%s", round, layout, filepath.Base(ps))
				if err := os.WriteFile(filepath.Join(psDir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			scripts, _ := filepath.Glob(filepath.Join(root, ".cursor/hooks/hookify-*.sh"))
			for i, r := range rules {
				payload, _ := json.Marshal(map[string]string{"command": "x " + r.pattern + " y"})
				wantAgent := "**[" + r.name + "]**\n" + r.body
				// Several rules may match (a pattern can hold another's);
				// the rule's message must be one of the joined messages.
				matched := false
				for _, script := range scripts {
					cmd := testenv.Command(t, bash, script)
					cmd.Dir = root
					cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + parent}
					cmd.Stdin = bytes.NewReader(payload)
					out, err := cmd.Output()
					var ans struct {
						Permission   string `json:"permission"`
						AgentMessage string `json:"agent_message"`
					}
					if jerr := json.Unmarshal(out, &ans); jerr != nil || bytes.Count(out, []byte("\n")) != 1 {
						t.Fatalf("round %d, %s: %s: not one JSON line: %q (%v)", round, layout, script, out, err)
					}
					m := ans.AgentMessage
					if ans.Permission == "deny" && (m == wantAgent || strings.HasPrefix(m, wantAgent+"\n\n") ||
						strings.HasSuffix(m, "\n\n"+wantAgent) || strings.Contains(m, "\n\n"+wantAgent+"\n\n")) {
						matched = true
					}
				}
				if !matched {
					t.Errorf("round %d, %s: rule %d (name %q) did not answer with its message %q", round, layout, i, r.name, r.body)
				}
			}
		}
		// Nothing but the inputs and .cursor/ exists under the parent.
		var extra []string
		filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(parent, p)
			switch {
			case rel == "." || rel == "p" || rel == "p/.claude" || rel == "p/.cursor":
			case strings.HasPrefix(rel, "p/.claude/hookify.r") || strings.HasPrefix(rel, "p/.cursor/"):
			default:
				extra = append(extra, rel)
			}
			return nil
		})
		if len(extra) > 0 {
			t.Fatalf("round %d: files outside .cursor/ appeared: %q", round, extra)
		}
	}
	// The PowerShell twins cannot run here (no pwsh), but they must parse:
	// the tree-sitter grammar of codegen/powershell's tests.
	files, _ := filepath.Glob(filepath.Join(psDir, "*.ps1"))
	if len(files) == 0 {
		t.Fatal("no .ps1 files were generated")
	}
	if out, err := testenv.Command(t, psparse[0], append(psparse[1:], files...)...).CombinedOutput(); err != nil {
		t.Errorf("PowerShell syntax check of the generated twins failed (%v):\n%s", err, out)
	}
}

// TestReadOnlyOutputDir: a .cursor/hooks directory that cannot be written
// (not enforceable as root, so skipped there; badinput_output.txtar blocks
// the directory in other ways) fails the build with exit 1, names the
// directory, and leaves no file and no temporary file behind.
func TestReadOnlyOutputDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	root := t.TempDir()
	for name, data := range map[string]string{
		".claude/hookify.a.local.md": "---\nname: a\nevent: bash\npattern: sudo\n---\nCareful.\n",
	} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hooks := filepath.Join(root, ".cursor/hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(hooks, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(hooks, 0o755)
	var stderr bytes.Buffer
	if code := run([]string{"build", "-C", root}, nil, io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "cannot create a file in .cursor/hooks: permission denied") || !strings.Contains(stderr.String(), "nothing was changed") {
		t.Errorf("stderr does not say why and that nothing changed:\n%s", stderr.Bytes())
	}
	var left []string
	filepath.WalkDir(filepath.Join(root, ".cursor"), func(p string, d fs.DirEntry, err error) error {
		left = append(left, strings.TrimPrefix(p, root+"/"))
		return nil
	})
	if want := []string{".cursor", ".cursor/hooks"}; !slices.Equal(left, want) {
		t.Errorf(".cursor holds %q, want only %q", left, want)
	}
}
