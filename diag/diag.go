// Package diag holds source positions and diagnostics: the errors and
// warnings that hookify reports about rule files, as values.
package diag

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Pos is a position in a source file: a slash-separated path relative to
// the input root, a 1-based line and a 1-based byte column. A zero Line
// means the position names only the file.
type Pos struct {
	File string
	Line int
	Col  int
}

// String returns "file:line:col", "file:line" or "file".
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Severity says whether a diagnostic stops the build.
type Severity int

const (
	Error Severity = iota
	Warning
	// Note: not a problem, but something to know (hookify doctor's notes).
	Note
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// Diagnostic is one message about the input, at a position. It is also
// the error type of every stage that reports a problem at a position in a
// rule file or an output (a *Diagnostic is an error).
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Code     Code
	Msg      string // what is wrong
	// Hint says how to fix it: what to write instead, with the corrected
	// line where one exists. Empty when there is nothing to add.
	Hint string
	// Rewrites are the rewrites the hint suggests, each one way to fix the
	// rule as it stands, when the hint names them literally (README, "A rule that does not compile":
	// every one, applied, gives a rule that builds). The hint shows the
	// text of each of their edits.
	Rewrites []Rewrite
}

// Rewrite is one suggested fix of a rule file: edits of its front matter.
type Rewrite []Edit

// Edit replaces one front-matter entry: the key at Key (its line, from
// the key's column) with the lines nested under it, by Text (more lines
// are indented to the key's column). Text "" removes the entry. A zero Key
// adds Text as a top-level entry at the end of the front matter.
type Edit struct {
	Key  Pos
	Text string
}

// Set is a rewrite of one edit.
func Set(key Pos, text string) Rewrite { return Rewrite{{Key: key, Text: text}} }

// String renders the diagnostic as "pos: severity: message", followed by
// the hint, if any, on lines of its own, each indented by a tab.
func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Msg)
	if d.Hint != "" {
		s += "\n\t" + strings.ReplaceAll(d.Hint, "\n", "\n\t")
	}
	return s
}

func (d *Diagnostic) Error() string { return d.String() }

// List collects diagnostics.
type List []Diagnostic

// Errorf appends an error.
func (l *List) Errorf(pos Pos, code Code, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Warnf appends a warning.
func (l *List) Warnf(pos Pos, code Code, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Warning, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Refuse appends an error whose hint says what to write instead.
func (l *List) Refuse(pos Pos, code Code, msg, hint string) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Code: code, Msg: msg, Hint: hint})
}

// Advise appends a warning with a hint.
func (l *List) Advise(pos Pos, code Code, msg, hint string) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Warning, Code: code, Msg: msg, Hint: hint})
}

// Suggest sets the rewrites that the hint of the list's last diagnostic
// names.
func (l List) Suggest(rw ...Rewrite) {
	if len(l) > 0 {
		l[len(l)-1].Rewrites = rw
	}
}

// Demote turns every error of the list into a warning (a disabled rule's
// problems never stop a build, README, "A rule that does not compile").
func (l List) Demote() {
	for i := range l {
		l[i].Severity = Warning
	}
}

// Sort orders the list by file, line, column, severity and message, and
// drops exact duplicates.
func (l List) Sort() List {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Severity, b.Severity),
			strings.Compare(a.Msg, b.Msg),
		)
	})
	return slices.CompactFunc(l, func(a, b Diagnostic) bool {
		return a.Pos == b.Pos && a.Severity == b.Severity && a.Code == b.Code && a.Msg == b.Msg && a.Hint == b.Hint
	})
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Err returns the errors of the list as one error, or nil if there are none.
func (l List) Err() error {
	var errs []error
	for _, d := range l {
		if d.Severity == Error {
			errs = append(errs, &d)
		}
	}
	return errors.Join(errs...)
}

// String renders the list one diagnostic per line.
func (l List) String() string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// WithoutPath drops the path from an error of the file system
// (*fs.PathError, *os.LinkError): a diagnostic names the path already, and
// the OS's own spelling of it (maybe a temporary one) adds nothing.
func WithoutPath(err error) error {
	var (
		pe *fs.PathError
		le *os.LinkError
	)
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
