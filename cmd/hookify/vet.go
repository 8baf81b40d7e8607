package main

import (
	"fmt"
	"os"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
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
		case compiler.IsFidelity(d.Code):
			fidelity++
			warns++
		default:
			warns++
		}
	}
	return fmt.Sprintf("%d rule files, %s, %s (%d where upstream hookify differs)",
		files, plural(errs, "error"), plural(warns, "warning"), fidelity)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
