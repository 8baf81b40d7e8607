package powershell_test

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookify/hookify/codegen/powershell"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

var (
	buildRE  = regexp.MustCompile(`(?m)^exec hookify build((?: --?[a-z-]+(?:[ =][a-z-]+)?)*)\s*$`)
	cursorRE = regexp.MustCompile(`(?m)^!? *cursor (\S+) (\S+)\s*$`)
)

// TestScriptsAgreeWithBash runs the generated PowerShell scripts with pwsh
// on the event fixtures of the bash testscript cases (cmd/hookify/testdata/
// script: every "cursor EVENT PAYLOAD" line, after the case's first build)
// and on random hostile payloads, next to the generated bash scripts of the
// same build, and requires the same stdout bytes and exit code from both.
//
// It runs only where pwsh is on PATH and says so when it skips (it fails
// instead under HOOKIFY_REQUIRE_PWSH=1): nothing in this project can install
// PowerShell, so only the scripts' syntax is checked elsewhere
// (TestGeneratedScripts). See README, Windows.
func TestScriptsAgreeWithBash(t *testing.T) {
	pwsh := testenv.LookPath(t, "pwsh")
	bash := testenv.LookPath(t, "bash")
	archives, _ := filepath.Glob("../../cmd/hookify/testdata/script/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no testscript cases in ../../cmd/hookify/testdata/script")
	}
	r := rand.New(rand.NewSource(8))
	runs := 0
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		m := buildRE.FindStringSubmatch(string(ar.Comment))
		if m == nil {
			continue
		}
		opts := compiler.Options{Platform: compiler.Windows}
		for _, f := range strings.Fields(strings.ReplaceAll(m[1], "=", " ")) {
			switch f {
			case "per-rule":
				opts.Layout = ir.PerRule
			case "allow":
				opts.Warn = ir.WarnAllow
			case "--no-prompt-hooks":
				opts.NoPromptHooks = true
			}
		}
		dir := t.TempDir()
		for _, f := range ar.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res := compiler.Compile(os.DirFS(dir), opts)
		if res.Diags.HasErrors() {
			t.Errorf("%s: %s", a, res.Diags)
			continue
		}
		for _, f := range res.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, f.Mode); err != nil {
				t.Fatal(err)
			}
		}
		transcript := filepath.Join(dir, "transcript.txt")
		if err := os.WriteFile(transcript, []byte("go test ./...\ntests pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var payloads []struct{ event, name string }
		for _, c := range cursorRE.FindAllStringSubmatch(string(ar.Comment), -1) {
			payloads = append(payloads, struct{ event, name string }{c[1], c[2]})
		}
		for _, u := range res.Cursor.Units {
			for _, h := range u.Hooks {
				var args []string
				if len(u.Hooks) > 1 {
					args = []string{h.Event.String()}
				}
				check := func(what string, payload []byte, env []string) {
					runs++
					sh := append([]string{filepath.Join(dir, compiler.HooksDir, u.Name+".sh")}, args...)
					ps := append([]string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", filepath.Join(dir, compiler.HooksDir, u.Name+".ps1")}, args...)
					bOut, bCode := run(t, dir, env, payload, bash, sh...)
					pOut, pCode := run(t, dir, env, payload, pwsh, ps...)
					if !bytes.Equal(bOut, pOut) || bCode != pCode {
						t.Errorf("%s, %s %s, %s:\nbash: %q exit %d\npwsh: %q exit %d", filepath.Base(a), u.Name, h.Event, what, bOut, bCode, pOut, pCode)
					}
				}
				for _, p := range payloads {
					if p.event != h.Event.String() {
						continue
					}
					data, err := os.ReadFile(filepath.Join(dir, p.name))
					if err != nil {
						t.Fatal(err)
					}
					check(p.name, data, nil)
					if h.Event == ir.Stop {
						check(p.name+" with CURSOR_TRANSCRIPT_PATH", data, []string{"CURSOR_TRANSCRIPT_PATH=" + transcript})
					}
				}
				for i := 0; i < 20; i++ {
					check("random payload", powershell.RandomPayload(r), nil)
				}
			}
		}
	}
	t.Logf("%d runs compared", runs)
}

// run runs name with args from dir, payload on stdin, and returns stdout and
// the exit code.
func run(t *testing.T, dir string, env []string, payload []byte, name string, args ...string) ([]byte, int) {
	t.Helper()
	cmd := testenv.Command(t, name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return stdout.Bytes(), code
}
