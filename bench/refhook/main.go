// Command refhook is the static-binary reference of bench/run.sh: the cost
// of deciding a payload in one compiled process, with nothing to start but
// itself. It decides with hookify's reference evaluator (package eval), the
// oracle the generated scripts are tested against, so it gives their
// answers byte for byte and exits as they do.
//
//	refhook EVENT < payload
//
// The rules are compiled in: hooks.go holds the hooks of one project as Go
// values, written by refhook/gen and put in place of the empty hooks.go of
// the repository with go build -overlay (bench/run.sh does both). Per call
// it does what a compiled hook does: read the payload, decode it, run the
// checks (compiling each regex it reaches, as eval does once per process)
// and print the answer.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/ir"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: refhook EVENT < payload")
		os.Exit(1)
	}
	e, ok := ir.ParseCursorEvent(os.Args[1])
	if !ok {
		fmt.Fprintf(os.Stderr, "refhook: unknown Cursor event %q\n", os.Args[1])
		os.Exit(1)
	}
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "refhook: %v\n", err)
		os.Exit(1)
	}
	for _, h := range hooks {
		if h.Event == e {
			r := eval.Hook(h, raw, eval.Env{ReadFile: readRegular, Getenv: os.Getenv})
			os.Stdout.Write(r.Answer)
			os.Exit(r.Exit)
		}
	}
	fmt.Fprintf(os.Stderr, "refhook: no hook for %s compiled in (build it with bench/run.sh)\n", e)
	os.Exit(1)
}

// readRegular reads a transcript as the scripts do: only a regular file,
// relative names against the working directory (the project root).
func readRegular(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return os.ReadFile(name)
}
