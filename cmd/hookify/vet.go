package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/upstream"
	"github.com/hookify/hookify/writer"
)

// vet compiles without writing and reports every diagnostic: errors, and
// warnings, including every place where upstream hookify would read or run
// a rule differently. It exits 1 when there are errors.
func vet(c *cli) int {
	res, stdout, stderr := c.res, c.stdout, c.stderr
	diags := res.Diags
	if !diags.HasErrors() {
		// What build would refuse to write is worth knowing too.
		if _, err := writer.Plan(os.DirFS(c.root), res.Files, res.Stale); err != nil {
			diags = append(diags, writeDiags(err)...)
		}
	}
	if c.json {
		writeJSON(stdout, &jsonReport{Diagnostics: jsonDiags(diags)})
	} else {
		printDiags(stderr, diags)
		fmt.Fprintf(stderr, "hookify vet: %s\n", vetSummary(len(res.Sources), diags))
		if fixes, err := fixChanges(c); err == nil && len(fixes) > 0 {
			fmt.Fprintf(stderr, "hookify vet: hookify fix would rewrite %s so that upstream hookify reads them as hookify does (hookify fix --diff shows how)\n", plural(len(fixes), "rule file"))
		}
	}
	if diags.HasErrors() {
		return 1
	}
	return 0
}

func vetSummary(files int, diags diag.List) string {
	var errs, warns, fidelity int
	for _, d := range diags {
		switch {
		case d.Severity == diag.Error:
			errs++
		case upstream.IsFidelity(d.Code):
			fidelity++
			warns++
		default:
			warns++
		}
	}
	return fmt.Sprintf("%s, %s, %s (%d where upstream hookify differs)",
		plural(files, "rule file"), plural(errs, "error"), plural(warns, "warning"), fidelity)
}

// plural is "1 word" or "N words" ("entry": "entries").
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if w, ok := strings.CutSuffix(word, "y"); ok {
		return fmt.Sprintf("%d %sies", n, w)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// staleFiles is "1 generated file is" or "N generated files are".
func staleFiles(n int) string {
	if n == 1 {
		return "1 generated file is"
	}
	return fmt.Sprintf("%d generated files are", n)
}
