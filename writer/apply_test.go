package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree describes every entry under root: "dir", "link -> target", or the
// mode and content of a file.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	got := make(map[string]string)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			got[rel] = "link -> " + target
		case info.IsDir():
			got[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = fmt.Sprintf("%04o %s", info.Mode().Perm(), data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// write creates the files under root, given as path → content (mode 0644,
// or 0755 for ".sh").
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, mode); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPlanAndApply(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".cursor/hooks.json":            "{}\n",
		".cursor/hooks/hookify-edit.sh": script,
		".cursor/hooks/hookify-gone.sh": script,
		".cursor/hooks/hookify-mine.sh": handMade,
		".cursor/rules/keep.mdc":        "keep\n",
	})
	if err := os.Chmod(filepath.Join(root, ".cursor/hooks/hookify-edit.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []File{
		{Path: ".cursor/hooks.json", Data: []byte(hooksJSON), Mode: 0o644},
		{Path: ".cursor/hooks/hookify-edit.sh", Data: []byte(script2), Mode: 0o755},
		{Path: ".cursor/hooks/hookify-new.sh", Data: []byte(script), Mode: 0o755},
		{Path: ".cursor/hooks/win/hookify-new.ps1", Data: []byte(psScript), Mode: 0o644},
	}
	candidates := []string{".cursor/hooks/hookify-gone.sh", ".cursor/hooks/hookify-mine.sh"}

	changes, err := Plan(os.DirFS(root), files, candidates)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if err := Apply(root, changes); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := map[string]string{
		".cursor":                           "dir",
		".cursor/hooks":                     "dir",
		".cursor/hooks.json":                "0644 " + hooksJSON,
		".cursor/hooks/hookify-edit.sh":     "0755 " + script2,
		".cursor/hooks/hookify-mine.sh":     "0755 " + handMade,
		".cursor/hooks/hookify-new.sh":      "0755 " + script,
		".cursor/hooks/win":                 "dir",
		".cursor/hooks/win/hookify-new.ps1": "0644 " + psScript,
		".cursor/rules":                     "dir",
		".cursor/rules/keep.mdc":            "0644 keep\n",
	}
	if diff := cmp.Diff(want, tree(t, root)); diff != "" {
		t.Errorf("tree after Apply (-want +got):\n%s", diff)
	}
	for _, p := range []string{".cursor/hooks/hookify-new.sh", ".cursor/hooks/hookify-edit.sh"} {
		info, err := os.Stat(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != 0o755 {
			t.Errorf("%s: mode %04o, want 0755", p, got)
		}
	}

	// Applying the plan made the tree match: nothing more to do.
	again, err := Plan(os.DirFS(root), files, candidates)
	if err != nil || len(again) != 0 {
		t.Errorf("second Plan = %v, %v; want no changes", again, err)
	}
}

func TestApplyIgnoresUmask(t *testing.T) {
	root := t.TempDir()
	changes := []Change{{Path: ".cursor/hooks/hookify-a.sh", Kind: Create, New: []byte(script), NewMode: 0o755}}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(root, ".cursor/hooks/hookify-a.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o755 {
		t.Errorf("mode %04o, want 0755", got)
	}
}

func TestApplyChmodKeepsContent(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{".cursor/hooks/hookify-a.sh": script})
	// New is left empty on purpose: a Chmod keeps the content.
	changes := []Change{{Path: ".cursor/hooks/hookify-a.sh", Kind: Chmod, Old: []byte(script), OldMode: 0o755, NewMode: 0o700}}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{".cursor": "dir", ".cursor/hooks": "dir", ".cursor/hooks/hookify-a.sh": "0700 " + script}
	if diff := cmp.Diff(want, tree(t, root)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestApplyDeleteOfMissingFile(t *testing.T) {
	root := t.TempDir()
	changes := []Change{{Path: ".cursor/hooks/hookify-a.sh", Kind: Delete, Old: []byte(script), OldMode: 0o755}}
	if err := Apply(root, changes); err != nil {
		t.Errorf("Apply: %v", err)
	}
}

// TestApplyAllOrNothing checks that Apply refuses, before changing anything,
// changes it must not or cannot make, and leaves no temporary file behind.
func TestApplyAllOrNothing(t *testing.T) {
	initial := map[string]string{
		".cursor/hooks.json":            "{}\n",
		".cursor/hooks/hookify-a.sh":    script,
		".cursor/hooks/hookify-mine.sh": handMade,
		".cursor/blocked":               "a file where a directory must go\n",
		"outside/x.sh":                  "outside\n",
	}
	// good makes changes that would succeed on their own, so that each
	// case shows that one bad change stops all of them.
	good := []Change{
		{Path: ".cursor/a/hookify-new.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
		{Path: ".cursor/hooks.json", Kind: Update, Old: []byte("{}\n"), New: []byte(hooksJSON), OldMode: 0o644, NewMode: 0o644},
		{Path: ".cursor/hooks/hookify-a.sh", Kind: Delete, Old: []byte(script), OldMode: 0o755},
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		bad   Change
		want  string
	}{
		{name: "hand-written file at an output path",
			bad:  Change{Path: ".cursor/hooks/hookify-mine.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: ".cursor/hooks/hookify-mine.sh: already exists"},
		{name: "file changed since Plan",
			bad:  Change{Path: ".cursor/hooks/hookify-mine.sh", Kind: Update, Old: []byte(script), New: []byte(script2), NewMode: 0o755},
			want: ".cursor/hooks/hookify-mine.sh: changed since the changes were planned"},
		{name: "delete of a changed file",
			bad:  Change{Path: ".cursor/hooks/hookify-mine.sh", Kind: Delete, Old: []byte(script)},
			want: ".cursor/hooks/hookify-mine.sh: changed since the changes were planned"},
		{name: "update of a missing file",
			bad:  Change{Path: ".cursor/hooks/hookify-none.sh", Kind: Update, Old: []byte(script), New: []byte(script2), NewMode: 0o755},
			want: ".cursor/hooks/hookify-none.sh: no longer exists"},
		{name: "a file where a directory must be created",
			bad:  Change{Path: ".cursor/blocked/hookify-x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: ".cursor/blocked: is not a directory"},
		{name: "absolute path",
			bad:  Change{Path: "/tmp/hookify-x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: "/tmp/hookify-x.sh: path must be relative to the root"},
		{name: "dot dot",
			bad:  Change{Path: ".cursor/../outside/x.sh", Kind: Delete, Old: []byte("outside\n")},
			want: ".cursor/../outside/x.sh: path must be clean"},
		{name: "leading dot dot",
			bad:  Change{Path: "../x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: "../x.sh: path must be clean"},
		{name: "outside .cursor",
			bad:  Change{Path: "outside/x.sh", Kind: Delete, Old: []byte("outside\n")},
			want: "outside/x.sh: path is outside .cursor/"},
		{name: "dot element",
			bad:  Change{Path: ".cursor/./hookify-x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: ".cursor/./hookify-x.sh: path must be clean"},
		{name: "backslash",
			bad:  Change{Path: `.cursor\hookify-x.sh`, Kind: Create, New: []byte(script), NewMode: 0o755},
			want: `.cursor\hookify-x.sh: path must use forward slashes`},
		{name: "bad mode",
			bad:  Change{Path: ".cursor/hookify-x.sh", Kind: Create, New: []byte(script), NewMode: fs.ModeDir | 0o755},
			want: ".cursor/hookify-x.sh: mode drwxr-xr-x must be permission bits"},
		{name: "unknown kind",
			bad:  Change{Path: ".cursor/hookify-x.sh", New: []byte(script), NewMode: 0o755},
			want: ".cursor/hookify-x.sh: unknown change kind ChangeKind(0)"},
		{name: "twice",
			bad:  Change{Path: ".cursor/hooks.json", Kind: Chmod, Old: []byte("{}\n"), NewMode: 0o600},
			want: ".cursor/hooks.json: changed twice"},
		{name: "symlinked parent",
			setup: func(t *testing.T, root string) {
				symlink(t, "../outside", filepath.Join(root, ".cursor/linked"))
			},
			bad:  Change{Path: ".cursor/linked/hookify-x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: ".cursor/linked: is a symbolic link"},
		{name: "symlinked .cursor",
			setup: func(t *testing.T, root string) {
				if err := os.RemoveAll(filepath.Join(root, ".cursor")); err != nil {
					t.Fatal(err)
				}
				symlink(t, "outside", filepath.Join(root, ".cursor"))
			},
			bad:  Change{Path: ".cursor/hookify-x.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			want: ".cursor: is a symbolic link"},
		{name: "symlink at the output path",
			setup: func(t *testing.T, root string) {
				symlink(t, "../../outside/x.sh", filepath.Join(root, ".cursor/hooks/hookify-link.sh"))
			},
			bad:  Change{Path: ".cursor/hooks/hookify-link.sh", Kind: Update, Old: []byte("outside\n"), New: []byte(script), NewMode: 0o755},
			want: ".cursor/hooks/hookify-link.sh: is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, initial)
			if tt.setup != nil {
				tt.setup(t, root)
			}
			before := tree(t, root)
			changes := append(append([]Change{}, good...), tt.bad)
			err := Apply(root, changes)
			if err == nil {
				t.Fatalf("Apply succeeded, want error %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Apply error = %q, want prefix %q", err, tt.want)
			}
			if diff := cmp.Diff(before, tree(t, root)); diff != "" {
				t.Errorf("Apply changed the tree (-before +after):\n%s", diff)
			}
		})
	}
}

// TestApplyWriteFailure makes the write phase fail after some temporary
// files and directories exist, and checks that all of them are removed.
func TestApplyWriteFailure(t *testing.T) {
	for _, failAt := range []string{".cursor/hooks.json", ".cursor/new/deeper/hookify-b.sh", ".cursor/new/hookify-c.sh"} {
		t.Run(failAt, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{".cursor/hooks.json": "{}\n", ".cursor/hooks/hookify-a.sh": script})
			before := tree(t, root)
			changes := []Change{
				{Path: ".cursor/hooks.json", Kind: Update, Old: []byte("{}\n"), New: []byte(hooksJSON), NewMode: 0o644},
				{Path: ".cursor/hooks/hookify-a.sh", Kind: Update, Old: []byte(script), New: []byte(script2), NewMode: 0o755},
				{Path: ".cursor/new/deeper/hookify-b.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
				{Path: ".cursor/new/hookify-c.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
			}
			boom := errors.New("boom")
			var temps int
			err := apply(root, changes, func(p string) error {
				temps++
				if p == failAt {
					return boom
				}
				return nil
			})
			if !errors.Is(err, boom) {
				t.Fatalf("apply error = %v, want %v", err, boom)
			}
			if temps == 0 {
				t.Fatal("no temporary file was written")
			}
			if diff := cmp.Diff(before, tree(t, root)); diff != "" {
				t.Errorf("apply changed the tree (-before +after):\n%s", diff)
			}
		})
	}
}

func TestApplyLeavesNoTemps(t *testing.T) {
	root := t.TempDir()
	changes := []Change{
		{Path: ".cursor/hooks.json", Kind: Create, New: []byte(hooksJSON), NewMode: 0o644},
		{Path: ".cursor/hooks/hookify-a.sh", Kind: Create, New: []byte(script), NewMode: 0o755},
	}
	var seen []string
	err := apply(root, changes, func(p string) error {
		// The temporary file sits next to its target until the renames.
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(p), ".."))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".hookify-") && strings.HasSuffix(e.Name(), ".tmp") {
				seen = append(seen, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Errorf("temporary files seen for %v, want one per target", seen)
	}
	want := map[string]string{
		".cursor":                    "dir",
		".cursor/hooks":              "dir",
		".cursor/hooks.json":         "0644 " + hooksJSON,
		".cursor/hooks/hookify-a.sh": "0755 " + script,
	}
	if diff := cmp.Diff(want, tree(t, root)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestApplyMissingRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "missing")
	err := Apply(root, []Change{{Path: ".cursor/hooks.json", Kind: Create, New: []byte(hooksJSON), NewMode: 0o644}})
	if err == nil {
		t.Fatal("Apply succeeded on a missing root")
	}
	if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("root was created: %v", err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}
