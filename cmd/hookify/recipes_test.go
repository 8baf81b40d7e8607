package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v4"
)

// readmeRecipes are the README's go generate and pre-commit recipes: the
// go get line, the //go:generate line, and the command the pre-commit
// hook runs (the entry that .pre-commit-hooks.yaml gives the README's
// hook id) with the args the README says to add while a rule is left out.
type readmeRecipes struct {
	goGet, generate, precommit, args string
}

func readRecipes(t *testing.T) readmeRecipes {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	var r readmeRecipes
	if m := regexp.MustCompile("After `(go get -tool [^`]+)`").FindStringSubmatch(text); m != nil {
		r.goGet = m[1]
	}
	if m := regexp.MustCompile("(?m)^//go:generate .*$").FindString(text); m != "" {
		r.generate = m
	}
	if r.goGet == "" || r.generate == "" {
		t.Fatalf("README: no go get -tool line or //go:generate line in \"go generate\"")
	}
	_, after, _ := strings.Cut(text, "### pre-commit\n\n```yaml\n")
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatal("README: no yaml block under ### pre-commit")
	}
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID string `yaml:"id"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(block), &cfg); err != nil || len(cfg.Repos) != 1 || len(cfg.Repos[0].Hooks) != 1 {
		t.Fatalf("README's pre-commit block is not one repo with one hook (%v):\n%s", err, block)
	}
	repo := cfg.Repos[0]
	// The rev must name something that exists: the repository has no tags,
	// so a branch, or a commit of this repository.
	if repo.Rev != "main" {
		if err := exec.Command("git", "rev-parse", "--verify", "--quiet", repo.Rev+"^{commit}").Run(); err != nil {
			t.Errorf("README's pre-commit rev %q names no branch or commit of this repository", repo.Rev)
		}
	}
	hooks, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		ID       string `yaml:"id"`
		Entry    string `yaml:"entry"`
		Language string `yaml:"language"`
	}
	if err := yaml.Unmarshal(hooks, &defs); err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if d.ID == repo.Hooks[0].ID {
			if d.Language != "golang" {
				t.Fatalf("hook %s: language %s, want golang (installed by go install)", d.ID, d.Language)
			}
			r.precommit = d.Entry
		}
	}
	if r.precommit == "" {
		t.Fatalf("README's pre-commit hook id %q is not in .pre-commit-hooks.yaml", repo.Hooks[0].ID)
	}
	m := regexp.MustCompile("add `args: \\[([^]`]+)\\]`").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README, pre-commit: no `args: [...]` to add while a rule is left out")
	}
	r.args = m[1]
	return r
}

// TestREADMERecipes runs the README's go generate and pre-commit recipes
// as written in a fresh module (testdata/recipes), offline: GOPROXY=off,
// and a replace directive points at this module. It needs the go command
// and the module cache that built this test.
func TestREADMERecipes(t *testing.T) {
	r := readRecipes(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goenv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command(goBin, "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		goenv[k] = strings.TrimSpace(string(out))
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/recipes",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", filepath.Dir(goBin)+":"+env.Getenv("PATH"))
			env.Setenv("HOME", env.WorkDir+"/home")
			for k, v := range goenv {
				env.Setenv(k, v)
			}
			env.Setenv("GOPROXY", "off")
			env.Setenv("GOSUMDB", "off")
			env.Setenv("GOTOOLCHAIN", "local")
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("MODROOT", root)
			env.Setenv("GOGET", r.goGet)
			env.Setenv("GENERATE", r.generate)
			env.Setenv("PRECOMMIT", r.precommit)
			env.Setenv("PRECOMMIT_ARGS", r.args)
			return nil
		},
	})
}
