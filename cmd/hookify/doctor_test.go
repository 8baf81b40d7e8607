package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// breakage is one thing doctor must find, done to a built copy of
// examples/basic, and the code of the error doctor must report for it
// (unless the breakage named hides it: outputs cannot be compared with
// rules that do not compile).
type breakage struct {
	name   string
	code   string
	apply  func(t *testing.T, dir string)
	unless string
}

func editFile(t *testing.T, name string, edit func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, edit(data), st.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

func script(dir, event string) string {
	return filepath.Join(dir, ".cursor", "hooks", "hookify-"+event+".sh")
}

// Each breakage touches its own file, or its own part of hooks.json, so
// that any subset can be applied together.
var breakages = []breakage{
	{"string version", "cursor-config", func(t *testing.T, dir string) {
		editFile(t, filepath.Join(dir, ".cursor", "hooks.json"), func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"version": 1`), []byte(`"version": "1"`), 1)
		})
	}, ""},
	{"unknown event", "cursor-config", func(t *testing.T, dir string) {
		editFile(t, filepath.Join(dir, ".cursor", "hooks.json"), func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"hooks": {`), []byte(`"hooks": {"onStop": [{"command": "./x.sh"}], `), 1)
		})
	}, ""},
	{"not executable", "script-not-executable", func(t *testing.T, dir string) {
		if err := os.Chmod(script(dir, "beforeReadFile"), 0o644); err != nil {
			t.Fatal(err)
		}
	}, ""},
	{"CRLF", "script-crlf", func(t *testing.T, dir string) {
		editFile(t, script(dir, "beforeSubmitPrompt"), func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) })
	}, ""},
	{"missing", "script-missing", func(t *testing.T, dir string) {
		if err := os.Remove(script(dir, "postToolUse")); err != nil {
			t.Fatal(err)
		}
	}, ""},
	{"garbage answer", "hook-run", func(t *testing.T, dir string) {
		editFile(t, script(dir, "stop"), func(b []byte) []byte {
			lines := strings.SplitN(string(b), "\n", 3)
			return []byte(lines[0] + "\n" + lines[1] + "\necho nope\n")
		})
	}, ""},
	{"rule edited", "stale", func(t *testing.T, dir string) {
		editFile(t, filepath.Join(dir, ".claude", "hookify.no-console-log.local.md"), func(b []byte) []byte { return append(b, "More.\n"...) })
	}, "rule not compiling"},
	{"rule not compiling", "rules", func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, ".claude", "hookify.zz-bad.local.md"), []byte("---\nname: bad\nevent: shell\n---\nBad.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}, ""},
}

// TestDoctorFindsBreakages applies random sets of breakages to a freshly
// built project and requires doctor to report each one's error, to report
// no error when none was applied, and to exit 1 exactly when one was.
func TestDoctorFindsBreakages(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	r := rand.New(rand.NewSource(1))
	for i := range 24 {
		var applied []breakage
		for _, b := range breakages {
			if i > 0 && r.Intn(3) == 0 {
				applied = append(applied, b)
			}
		}
		var names []string
		for _, b := range applied {
			names = append(names, b.name)
		}
		t.Run(fmt.Sprintf("%d:%s", i, strings.Join(names, "+")), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("../../examples/basic")); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(dir, ".cursor")); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			if code := run([]string{"build", "-C", dir}, nil, io.Discard, &stderr); code != 0 {
				t.Fatalf("build: exit %d\n%s", code, &stderr)
			}
			for _, b := range applied {
				b.apply(t, dir)
			}
			findings, stdout, code := doctorJSON(t, dir)
			var errs []string
			for _, f := range findings {
				if f.Severity == "error" {
					errs = append(errs, f.Code)
				}
			}
			for _, b := range applied {
				hidden := slices.ContainsFunc(applied, func(o breakage) bool { return o.name == b.unless })
				if !hidden && !slices.Contains(errs, b.code) {
					t.Errorf("%s: no %s error; findings:\n%s", b.name, b.code, stdout)
				}
			}
			if len(applied) == 0 && len(errs) > 0 {
				t.Errorf("errors on a fresh build:\n%s", stdout)
			}
			if want := min(len(applied), 1); code != want {
				t.Errorf("exit %d, want %d", code, want)
			}
		})
	}
}

// TestDoctorNamesTheAwk: doctor names the awk the hooks will run, with its
// kind and version, for each awk the hooks are tested with, each alone on
// PATH (as awk and as mawk), and finds no fault with the installed ones.
func TestDoctorNamesTheAwk(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		awk  testenv.Awk
		kind string
	}{{"mawk", "mawk"}, {"gawk", "gawk"}, {"original-awk", "BWK awk"}, {"busybox", "busybox awk"}} {
		t.Run(string(c.awk), func(t *testing.T) {
			t.Setenv("PATH", testenv.AwkDir(t, c.awk))
			findings, stdout, _ := doctorJSON(t, t.TempDir())
			named := false
			for _, f := range findings {
				if f.Code == "awk" || f.Code == "awk-version" || f.Code == "requirement" {
					named = named || f.Severity == "note" && f.Code == "awk" && strings.HasPrefix(f.Message, "the hooks run this awk, "+c.kind+" ") && filepath.Base(f.File) == "mawk"
					if f.Severity != "note" {
						t.Errorf("%s: %s: %s", f.Severity, f.Code, f.Message)
					}
				}
			}
			if !named {
				t.Errorf("no note naming %s as the awk the hooks run (as mawk):\n%s", c.kind, stdout)
			}
		})
	}
}

// TestDoctorRequirements: the programs only some hooks run are checked when
// a hook needs them: gawk or an awk with intervals for a regex that keeps
// an interval, tr for a stop rule on the transcript.
func TestDoctorRequirements(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	mawk, gawk, tr := testenv.LookPath(t, "mawk"), testenv.LookPath(t, "gawk"), testenv.LookPath(t, "tr")
	dir := t.TempDir()
	rules := map[string]string{
		"long":  "---\nname: long\nevent: bash\naction: block\npattern: 'rm -r[a-z]{0,200}f'\n---\nNo.\n",
		"tests": "---\nname: tests\nevent: stop\nconditions:\n  - field: transcript\n    operator: not_contains\n    pattern: go test\n---\nRun the tests.\n",
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range rules {
		if err := os.WriteFile(filepath.Join(dir, ".claude", "hookify."+name+".local.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"build", "-C", dir}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, &stderr)
	}
	for _, c := range []struct {
		name string
		path map[string]string // the PATH: each name and the program it runs
		want []string          // each finding's severity, code and the start of its message
	}{
		{"mawk as awk", map[string]string{"awk": mawk}, []string{
			"note awk the hooks run this awk, mawk ",
			"error awk-version the hooks whose regexes keep an interval ({n,m}) run this awk, mawk 1.3.4 20200120, which reads {n,m} as plain text",
			"error requirement no tr on PATH: a hook that reads the transcript",
		}},
		{"mawk, gawk and tr", map[string]string{"mawk": mawk, "gawk": gawk, "tr": tr}, []string{
			"note awk the hooks run this awk, mawk ",
			"note awk the hooks whose regexes keep an interval ({n,m}) run this awk, gawk ",
		}},
		{"gawk as awk, and tr", map[string]string{"awk": gawk, "tr": tr}, []string{
			"note awk the hooks run this awk, gawk ",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := t.TempDir()
			for name, p := range c.path {
				if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", bin)
			findings, _, _ := doctorJSON(t, dir)
			var got []string
			for _, f := range findings {
				if f.Code == "awk" || f.Code == "awk-version" || f.Code == "requirement" {
					got = append(got, f.Severity+" "+f.Code+" "+f.Message)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("got %d requirement findings, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for _, w := range c.want {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
					t.Errorf("no finding %q in:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// doctorFinding is a finding as doctor --json prints it.
type doctorFinding struct{ File, Severity, Code, Message string }

// doctorJSON runs hookify doctor -C dir --json and returns its findings,
// its output and its exit code.
func doctorJSON(t *testing.T, dir string) ([]doctorFinding, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run([]string{"doctor", "-C", dir, "--json"}, nil, &stdout, &stderr)
	var report struct{ Findings []doctorFinding }
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("doctor --json: %v\n%s%s", err, &stdout, &stderr)
	}
	return report.Findings, stdout.String(), code
}
