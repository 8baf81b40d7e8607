package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"syscall"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/watch"
	"github.com/hookify/hookify/writer"
)

// watchCmd is "hookify watch": a build now and after every save of a rule
// file (package watch), until SIGINT or SIGTERM, then exit 0.
func watchCmd(c *cli) int {
	dir := filepath.Join(c.root, ".claude")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		c.errorf("no .claude/ folder in %s, so no rules to watch: run hookify init there first, or give -C DIR", c.root)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(c.stdout, "hookify watch: watching %s for hookify.*.local.md; Ctrl-C stops\n", dir)
	err := watch.Run(ctx, watch.Options{
		Dirs:  []string{dir},
		Match: func(name string) bool { ok, _ := path.Match("hookify.*.local.md", name); return ok },
		Build: func(w io.Writer) { watchBuild(c, w) },
		Out:   c.stdout,
	})
	if err != nil {
		c.errorf("%v", err)
		return 1
	}
	fmt.Fprintln(c.stdout, "hookify watch: stopped")
	return 0
}

// watchBuild is one build of watch, under the build lock: on success the
// build's one line; on errors, the diagnostics (file:line:col) and a line
// that says the hooks stay as they were, since a build with errors writes
// nothing.
func watchBuild(c *cli, w io.Writer) {
	unlock, err := writer.Lock(c.root, lockWait)
	if err != nil {
		printDiags(w, writeDiags(err))
		return
	}
	defer unlock()
	b := *c
	b.stdout, b.stderr = w, w
	b.res = compiler.Compile(os.DirFS(c.root), c.opts)
	if build(&b, false) != 0 {
		fmt.Fprintln(w, "hookify watch: not built; the hooks stay as they were built last")
	}
}
