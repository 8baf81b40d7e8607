package writer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookify/hookify/diag"
)

// Apply performs changes under the directory root, all or nothing.
//
// First it checks everything without touching the disk: every path must pass
// the same rules as in Plan (relative, clean, slash-separated, under
// ".cursor/", no ".." element, each path once), no directory on the way may be
// a symbolic link or a non-directory, no target may be a symbolic link, and
// every file must still be as planned (absent for Create, holding Old
// otherwise; a Delete whose file is already gone is fine).
//
// Then every new content is written to a temporary file in its target's
// directory (".hookify-*.tmp", created with the wanted mode regardless of the
// umask, and fsynced); missing directories are created with mode 0755. Any
// error up to here removes the temporary files and the directories Apply
// created, so nothing has changed. Only when all temporary files exist are
// they renamed into place, and then the deletions are done. An error in that
// last phase (a failing rename or remove, which is rare) can leave some
// changes applied; the error says so.
//
// Apply works through an [os.Root], so nothing outside root is ever touched
// even if the tree changes while it runs.
func Apply(root string, changes []Change) error {
	return apply(root, changes, nil)
}

// apply is Apply with a hook run after each temporary file is complete, so
// that tests can make the write phase fail part way.
func apply(root string, changes []Change, afterTemp func(path string) error) error {
	return applyChecked(root, changes, afterTemp, checkPath)
}

// ApplyRuleEdits is Apply for hookify fix: every change updates a rule
// file (a .md file under the root, not under .cursor/), all or nothing.
func ApplyRuleEdits(root string, changes []Change) error {
	return applyChecked(root, changes, nil, checkRulePath)
}

// checkRulePath accepts a clean, slash-separated path of a .md file
// outside .cursor/.
func checkRulePath(p string) error {
	if !fs.ValidPath(p) || strings.Contains(p, `\`) || !strings.HasSuffix(p, ".md") || strings.HasPrefix(p, ".cursor/") {
		return errorAt(p, 0, "is not a rule file hookify fix may rewrite")
	}
	return nil
}

// applyChecked is apply with the check that every changed path must pass.
func applyChecked(root string, changes []Change, afterTemp func(path string) error, pathOK func(string) error) error {
	if err := checkChanges(changes, pathOK); err != nil {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := verify(r, changes); err != nil {
		return err
	}

	var (
		temps   = make(map[string]string) // target path → temp path
		created []string                  // directories Apply made, outermost first
	)
	undo := func() {
		for _, t := range temps {
			r.Remove(t)
		}
		for i := len(created) - 1; i >= 0; i-- {
			r.Remove(created[i])
		}
	}
	for _, c := range changes {
		if c.Kind == Delete {
			continue
		}
		dirs, err := mkdirs(r, c.Path)
		created = append(created, dirs...)
		if err != nil {
			undo()
			return err
		}
		data := c.New
		if c.Kind == Chmod {
			data = c.Old // verified to be what is on disk
		}
		t, err := writeTemp(r, c.Path, data, c.NewMode)
		if err != nil {
			undo()
			return err
		}
		temps[c.Path] = t
		if afterTemp != nil {
			if err := afterTemp(c.Path); err != nil {
				undo()
				return err
			}
		}
	}

	// Commit.
	synced := make(map[string]bool)
	for _, c := range changes {
		if c.Kind == Delete {
			continue
		}
		if err := r.Rename(temps[c.Path], osPath(c.Path)); err != nil {
			for _, t := range temps {
				r.Remove(t) // the ones already renamed are gone: no harm
			}
			return errorAt(c.Path, 0, "%w (the changes before it were already applied)", diag.WithoutPath(err))
		}
		delete(temps, c.Path)
		if dir := path.Dir(c.Path); !synced[dir] {
			synced[dir] = true
			syncDir(r, dir)
		}
	}
	var errs []error
	for _, c := range changes {
		if c.Kind != Delete {
			continue
		}
		if err := r.Remove(osPath(c.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, errorAt(c.Path, 0, "%w (the other changes were applied)", diag.WithoutPath(err)))
		}
	}
	return errors.Join(errs...)
}

// checkChanges validates changes without looking at the disk.
func checkChanges(changes []Change, pathOK func(string) error) error {
	seen := make(map[string]bool)
	for _, c := range changes {
		if err := pathOK(c.Path); err != nil {
			return err
		}
		if seen[c.Path] {
			return errorAt(c.Path, 0, "changed twice")
		}
		seen[c.Path] = true
		switch c.Kind {
		case Create, Update, Chmod:
			if err := checkMode(c.Path, c.NewMode); err != nil {
				return err
			}
		case Delete:
		default:
			return errorAt(c.Path, 0, "unknown change kind %v", c.Kind)
		}
	}
	return nil
}

// verify checks the tree under r against changes without modifying it.
func verify(r *os.Root, changes []Change) error {
	for _, c := range changes {
		cur, _, exists, err := readFS(r.FS(), c.Path)
		if err != nil {
			return err
		}
		switch {
		case c.Kind == Create && exists:
			return errorAt(c.Path, 0, "already exists; it was not there when the changes were planned")
		case c.Kind == Delete && !exists:
			// Already gone.
		case c.Kind != Create && !exists:
			return errorAt(c.Path, 0, "no longer exists; it changed since the changes were planned")
		case c.Kind != Create && !bytes.Equal(cur, c.Old):
			return errorAt(c.Path, 0, "changed since the changes were planned")
		}
	}
	return nil
}

// mkdirs creates the missing directories on the way to p and returns the
// ones it created, outermost first, even when it fails part way.
func mkdirs(r *os.Root, p string) ([]string, error) {
	var created []string
	for _, dir := range parents(p) {
		err := r.Mkdir(osPath(dir), 0o755)
		if err == nil {
			created = append(created, osPath(dir))
			continue
		}
		if errors.Is(err, fs.ErrExist) {
			if info, serr := r.Lstat(osPath(dir)); serr == nil && info.IsDir() {
				continue
			}
		}
		return created, err
	}
	return created, nil
}

// writeTemp writes data with mode to a new temporary file next to p and
// returns its name relative to the root.
func writeTemp(r *os.Root, p string, data []byte, mode fs.FileMode) (string, error) {
	dir := path.Dir(p)
	var (
		f    *os.File
		name string
		err  error
	)
	for range 100 {
		var rnd [8]byte
		rand.Read(rnd[:])
		name = osPath(path.Join(dir, ".hookify-"+hex.EncodeToString(rnd[:])+".tmp"))
		f, err = r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		// Name the target and its directory, not the temporary file.
		return "", errorAt(p, 0, "cannot create a file in %s: %w", dir, diag.WithoutPath(err))
	}
	fail := func(err error) (string, error) {
		f.Close()
		r.Remove(name)
		return "", asError(p, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	// Chmod after creation so that the umask does not interfere.
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		r.Remove(name)
		return "", asError(p, err)
	}
	return name, nil
}

// syncDir makes renames in dir durable where the platform allows it.
func syncDir(r *os.Root, dir string) {
	d, err := r.Open(osPath(dir))
	if err != nil {
		return
	}
	d.Sync() // fails on some platforms (Windows); the renames are done anyway
	d.Close()
}

func osPath(p string) string { return filepath.FromSlash(p) }
