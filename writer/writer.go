// Package writer applies generated files to a directory all-or-nothing.
// Its errors are values: an [*Error] names the path (and line) it is about.
//
// The compiler returns its output as data ([File]). [Plan] compares it with
// what is on disk and returns the [Change]s; [Diff] renders them for
// "hookify check" and [Apply] performs them for "hookify build". Only
// generated files (see [IsGenerated]) and the merged ".cursor/hooks.json" are
// ever replaced or deleted, and only under ".cursor/".
package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/diag"
)

// File is one generated file, as the compiler returns it.
type File = codegen.File

// ChangeKind says what a [Change] does to its path.
type ChangeKind int

const (
	Create ChangeKind = iota + 1 // the file does not exist yet
	Update                       // the content changes (and maybe the mode)
	Chmod                        // only the mode changes
	Delete                       // a generated file that is no longer wanted
)

func (k ChangeKind) String() string {
	switch k {
	case Create:
		return "create"
	case Update:
		return "update"
	case Chmod:
		return "chmod"
	case Delete:
		return "delete"
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// Change is one file to create, rewrite, chmod or delete.
//
// Old and OldMode describe the file on disk when the change was planned
// (nil and 0 for Create); New and NewMode describe the wanted file (nil and 0
// for Delete). For Chmod, Old and New are the same bytes. Apply checks that
// the file still holds Old before it changes anything.
type Change struct {
	Path             string
	Kind             ChangeKind
	Old, New         []byte
	OldMode, NewMode fs.FileMode
}

// Error is a problem with one path, as Plan and Apply report it: Pos names
// the path (slash-separated, relative to the root) and, where the problem
// is in the file's content, the line; Err says what is wrong.
type Error struct {
	Pos diag.Pos
	Err error
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Errors are all the problems Plan found, one per path and problem, in the
// order of the files and then the delete candidates.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// errorAt returns an *Error for the path p, or for a line in it.
func errorAt(p string, line int, format string, args ...any) *Error {
	pos := diag.Pos{File: p, Line: line}
	if line > 0 {
		pos.Col = 1
	}
	return &Error{Pos: pos, Err: fmt.Errorf(format, args...)}
}

// asError makes err, which is about the path p, an *Error.
func asError(p string, err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Pos: diag.Pos{File: p}, Err: diag.WithoutPath(err)}
}

// ErrNotGenerated is wrapped by Plan's error for a file at an output path
// that lacks hookify's header in its place: someone else's file, which
// hookify leaves alone.
var ErrNotGenerated = errors.New("exists and is not hookify's")

// headerLine is the 1-based line that holds the generated header in a file
// named p (README, "Ownership"): line 2 of a .sh script, after its "#!"
// line; line 1 of a .ps1 script, after its UTF-8 byte order mark, of a
// .awk program and of a Cursor command (.md, written by hookify init).
// Other files carry no header hookify can recognise: 0.
func headerLine(p string) int {
	switch path.Ext(p) {
	case ".sh":
		return 2
	case ".ps1", ".awk", ".md":
		return 1
	}
	return 0
}

// IsGenerated reports whether data, the content of the file p, carries
// hookify's header in its fixed place (see headerLine): the line is "# "
// and a [codegen.IsHeader] line (in a .md file "<!-- ", the line and
// " -->"), and nothing else, but for a "\r" that git
// may have added before the newline. A file that merely mentions the words
// elsewhere is not generated.
func IsGenerated(p string, data []byte) bool {
	_, _, ok := Header(p, data)
	return ok
}

// Header returns the rule files and the build flags that the header of the
// generated file at p names (codegen.ParseHeader); ok is false when data is
// not a generated file's (IsGenerated).
func Header(p string, data []byte) (sources []string, flags string, ok bool) {
	n := headerLine(p)
	if n == 0 {
		return nil, "", false
	}
	if n == 1 {
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	}
	lines := strings.SplitN(string(data), "\n", n+1)
	if len(lines) < n || n == 2 && !strings.HasPrefix(lines[0], "#!") {
		return nil, "", false
	}
	open, close := "# ", ""
	if path.Ext(p) == ".md" {
		open, close = "<!-- ", " -->"
	}
	line, opened := strings.CutPrefix(strings.TrimSuffix(lines[n-1], ""), open)
	line, closed := strings.CutSuffix(line, close)
	if !opened || !closed {
		return nil, "", false
	}
	return codegen.ParseHeader(line)
}

// notGenerated is Plan's error for a file at an output path that is not
// hookify's.
func notGenerated(p string) *Error {
	n := max(headerLine(p), 1)
	return &Error{
		Pos: diag.Pos{File: p, Line: n, Col: 1},
		Err: fmt.Errorf("%w: line %d is not its \"# %s from <rules>. %s\" header, so hookify will not overwrite it; move the file away, or rename the rule whose script this would be, and build again", ErrNotGenerated, n, codegen.HeaderPrefix, codegen.HeaderSuffix),
	}
}

// Plan compares the wanted files with what fsys (for example os.DirFS(root))
// holds and returns the changes needed, sorted by path. An unchanged file
// (same bytes and same permission bits) gives no change.
//
// deleteCandidates are paths that may be deleted: each one that is not among
// files, exists as a regular file, carries the generated header in its
// place ([IsGenerated]) and is not the same file as one of files on a file
// system that folds case becomes a Delete; the others are ignored.
//
// It is an error when a path is invalid (see Apply) or repeated, when a
// directory on the way to it or the file itself is a symbolic link or not
// what it should be, or when a file other than [codegen.HooksJSON] exists
// without the generated header in its place (that *Error is at the header's
// line and wraps [ErrNotGenerated]). The error is an [Errors] with an
// [*Error] for every such problem.
//
// Modes are not compared on Windows, which has no permission bits to speak of.
func Plan(fsys fs.FS, files []File, deleteCandidates []string) ([]Change, error) {
	var (
		changes []Change
		errs    Errors
		wanted  = make(map[string]bool)
	)
	for _, f := range files {
		if err := checkPath(f.Path); err != nil {
			errs = append(errs, asError(f.Path, err))
			continue
		}
		if wanted[f.Path] {
			errs = append(errs, errorAt(f.Path, 0, "listed twice"))
			continue
		}
		wanted[f.Path] = true
		if err := checkMode(f.Path, f.Mode); err != nil {
			errs = append(errs, asError(f.Path, err))
			continue
		}
		old, oldMode, exists, err := readFS(fsys, f.Path)
		switch {
		case err != nil:
			errs = append(errs, asError(f.Path, err))
		case !exists:
			changes = append(changes, Change{Path: f.Path, Kind: Create, New: f.Data, NewMode: f.Mode})
		case f.Path != codegen.HooksJSON && !IsGenerated(f.Path, old):
			errs = append(errs, notGenerated(f.Path))
		case !bytes.Equal(old, f.Data):
			changes = append(changes, Change{Path: f.Path, Kind: Update, Old: old, New: f.Data, OldMode: oldMode, NewMode: f.Mode})
		case !sameMode(oldMode, f.Mode):
			changes = append(changes, Change{Path: f.Path, Kind: Chmod, Old: old, New: old, OldMode: oldMode, NewMode: f.Mode})
		}
	}
	folded := make(map[string]string) // the outputs by lower-case path
	for _, f := range files {
		folded[strings.ToLower(f.Path)] = f.Path
	}
	for _, p := range deleteCandidates {
		if err := checkPath(p); err != nil {
			errs = append(errs, asError(p, err))
			continue
		}
		if wanted[p] {
			continue
		}
		wanted[p] = true // a candidate listed twice is deleted once
		old, oldMode, exists, err := readFS(fsys, p)
		if err != nil || !exists || !IsGenerated(p, old) {
			// Not ours, or not something we could delete safely: leave it.
			continue
		}
		if out, ok := folded[strings.ToLower(p)]; ok && sameFile(fsys, p, out) {
			// A file system that folds case (macOS, Windows) finds an
			// output under this name, as after a rule was renamed from
			// Foo to foo: deleting it would delete the new output.
			continue
		}
		changes = append(changes, Change{Path: p, Kind: Delete, Old: old, OldMode: oldMode})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

// readFS reads the regular file p from fsys. A missing file is not an error;
// a symbolic link on the way or at p, or anything but a regular file, is,
// and it is an *Error.
func readFS(fsys fs.FS, p string) (data []byte, mode fs.FileMode, exists bool, err error) {
	for _, dir := range parents(p) {
		info, err := fs.Lstat(fsys, dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, false, nil
		}
		if err != nil {
			return nil, 0, false, asError(dir, err)
		}
		if err := checkDir(dir, info.Mode()); err != nil {
			return nil, 0, false, err
		}
	}
	info, err := fs.Lstat(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, asError(p, err)
	}
	if err := checkRegular(p, info.Mode()); err != nil {
		return nil, 0, false, err
	}
	data, err = fs.ReadFile(fsys, p)
	if err != nil {
		return nil, 0, false, asError(p, err)
	}
	return data, info.Mode().Perm(), true, nil
}

// checkPath accepts a clean, slash-separated path under ".cursor/".
func checkPath(p string) error {
	switch {
	case p == "":
		return errorAt(p, 0, "empty path")
	case strings.Contains(p, `\`):
		return errorAt(p, 0, "path must use forward slashes")
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(filepath.FromSlash(p)) != "":
		return errorAt(p, 0, "path must be relative to the root")
	case !fs.ValidPath(p):
		return errorAt(p, 0, "path must be clean and stay inside the root (no \".\", \"..\" or empty elements)")
	case !strings.HasPrefix(p, ".cursor/"):
		return errorAt(p, 0, "path is outside .cursor/")
	}
	return nil
}

// checkMode accepts permission bits only, and not none.
func checkMode(p string, m fs.FileMode) error {
	if m == 0 || m&^fs.ModePerm != 0 {
		return errorAt(p, 0, "mode %v must be permission bits such as 0644 or 0755", m)
	}
	return nil
}

func checkDir(dir string, m fs.FileMode) error {
	switch {
	case m&fs.ModeSymlink != 0:
		return errorAt(dir, 0, "is a symbolic link; hookify only writes into real directories")
	case !m.IsDir():
		return errorAt(dir, 0, "is not a directory")
	}
	return nil
}

func checkRegular(p string, m fs.FileMode) error {
	switch {
	case m&fs.ModeSymlink != 0:
		return errorAt(p, 0, "is a symbolic link; hookify will not replace it")
	case m.IsDir():
		return errorAt(p, 0, "is a directory")
	case !m.IsRegular():
		return errorAt(p, 0, "is not a regular file")
	}
	return nil
}

// parents returns the directories on the way to p below the root, outermost
// first: ".cursor/hooks/x.sh" gives ".cursor", ".cursor/hooks".
func parents(p string) []string {
	var dirs []string
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		dirs = append(dirs, d)
	}
	slices.Reverse(dirs)
	return dirs
}

// sameFile reports whether the paths a and b of fsys name one file; only
// an fsys of the operating system's files (os.DirFS) can tell.
func sameFile(fsys fs.FS, a, b string) bool {
	ia, errA := fs.Stat(fsys, a)
	ib, errB := fs.Stat(fsys, b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

func sameMode(a, b fs.FileMode) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	return a.Perm() == b.Perm()
}
