package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/upstream"
	"github.com/hookify/hookify/writer"
)

// build is "hookify build", and "hookify check" with check set. With
// --keep-going, the rules with errors are left out and the others written
// (build exits 1) or compared (check exits 0 when they are up to date:
// right after build -k, README, "A rule that does not compile").
func build(c *cli, check bool) int {
	res, root, stdout, stderr := c.res, c.root, c.stdout, c.stderr
	if !check && len(c.opts.Inputs) == 0 {
		if st, err := os.Stat(filepath.Join(root, ".claude")); err != nil || !st.IsDir() {
			advice := "run hookify from the project root, give it -C DIR, or name the rule files"
			if c.user {
				advice = "write rules in ~/.claude/hookify.*.local.md, or drop --user to build a project"
			}
			c.errorf("no .claude/ folder in %s, so no rules to build: %s", root, advice)
			return 2
		}
	}
	diags := res.Diags
	if data, err := readRegular(filepath.Join(root, compiler.HooksJSON)); err == nil {
		diags = append(diags, configWarnings(data)...)
	}
	// The other rules can be built when the compiler generated their files
	// despite errors: every error is in a rule it left out.
	partial := diags.HasErrors() && len(res.Files) > 0
	var changes []writer.Change
	if !diags.HasErrors() || c.keepGoing && partial {
		files, stale := res.Files, res.Stale
		if !check && os.Getenv(codegen.LiveEnv) != "" {
			files, stale = retireStale(root, c.opts.Level(), files, stale)
		}
		var err error
		changes, err = writer.Plan(os.DirFS(root), files, stale)
		if err != nil {
			diags = append(diags, writeDiags(err)...)
			partial = false
		}
	}
	report := &jsonReport{Diagnostics: jsonDiags(diags), LeftOut: res.LeftOut}
	if !c.json {
		printSummarised(stderr, diags)
	}
	if diags.HasErrors() && !(c.keepGoing && partial) {
		if c.json {
			writeJSON(stdout, report)
		} else if partial {
			c.wouldKeepGoing()
		}
		return 1
	}
	if c.scriptsOnly {
		changes = slices.DeleteFunc(changes, func(ch writer.Change) bool { return !strings.HasPrefix(ch.Path, compiler.HooksDir+"/") })
	}
	if check {
		// Retired stubs are a live rebuild's leftovers, not stale output.
		var retired []string
		changes, retired = dropRetired(changes)
		if len(retired) > 0 && !c.json {
			fmt.Fprint(stderr, retiredNote("check", retired))
		}
	}
	for _, ch := range changes {
		report.Changes = append(report.Changes, jsonChange{Path: ch.Path, Kind: ch.Kind.String()})
	}
	if check {
		if c.json {
			writeJSON(stdout, report)
		} else {
			c.leftOut()
		}
		if len(changes) > 0 {
			if !c.json {
				fmt.Fprint(stdout, writer.Diff(changes))
			}
			fix := "run hookify build"
			if len(res.LeftOut) > 0 {
				fix += " --keep-going"
			}
			fmt.Fprintf(stderr, "hookify check: %s stale; %s\n", staleFiles(len(changes)), fix)
			return 1
		}
		return 0
	}
	if err := writer.Apply(root, changes); err != nil {
		fmt.Fprintf(stderr, "hookify build: %v (nothing was changed)\n", err)
		return 1
	}
	if c.json {
		writeJSON(stdout, report)
	} else {
		fmt.Fprintf(stderr, "hookify: %s, %s; %s\n", plural(len(res.Program.Rules), "rule"), plural(len(res.Cursor.Units), "script"), summary(changes))
		c.alsoBuilt()
		c.leftOut()
	}
	if len(res.LeftOut) > 0 {
		return 1
	}
	return 0
}

// them is "it" or "them" for n things.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func summary(changes []writer.Change) string {
	if len(changes) == 0 {
		return "up to date"
	}
	counts := map[string]int{}
	var order []string
	for _, ch := range changes {
		k := ch.Kind.String()
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	return strings.Join(parts, ", ")
}

// writeDiags turns the writer's errors into diagnostics at the paths (and
// lines) they name.
func writeDiags(err error) diag.List {
	var (
		errs writer.Errors
		one  *writer.Error
	)
	switch {
	case errors.As(err, &errs):
	case errors.As(err, &one):
		errs = writer.Errors{one}
	default:
		return diag.List{{Pos: diag.Pos{File: ".cursor"}, Severity: diag.Error, Code: diag.Output, Msg: err.Error()}}
	}
	var out diag.List
	for _, e := range errs {
		out = append(out, diag.Diagnostic{Pos: e.Pos, Severity: diag.Error, Code: diag.Output, Msg: e.Err.Error()})
	}
	return out.Sort() // a blocked directory is reported once per file in it: once is enough
}

func printDiags(w io.Writer, diags diag.List) {
	for _, d := range diags {
		fmt.Fprintln(w, d)
	}
}

// printSummarised prints what build, check and test show: every error and
// every warning about Cursor's side, and the warnings about where upstream
// hookify differs as one line with their count (hookify vet prints them).
func printSummarised(w io.Writer, diags diag.List) {
	differ := 0
	for _, d := range diags {
		if d.Severity != diag.Error && upstream.IsFidelity(d.Code) {
			differ++
			continue
		}
		fmt.Fprintln(w, d)
	}
	if differ > 0 {
		fmt.Fprintf(w, "hookify: %s where upstream hookify reads or runs the rules differently; run hookify vet to see them\n", plural(differ, "warning"))
	}
}

type jsonDiag struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

type jsonChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

type jsonReport struct {
	Diagnostics []jsonDiag   `json:"diagnostics"`
	Changes     []jsonChange `json:"changes,omitempty"`
	// LeftOut are the rule files left out because of their errors.
	LeftOut []string `json:"left_out,omitempty"`
}

func jsonDiags(diags diag.List) []jsonDiag {
	out := []jsonDiag{}
	for _, d := range diags {
		out = append(out, jsonDiag{d.Pos.File, d.Pos.Line, d.Pos.Col, d.Severity.String(), string(d.Code), d.Msg, d.Hint})
	}
	return out
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
