// Package watch is "hookify watch" (docs/live-rules.md): it rebuilds on every save
// of a rule file, until its context ends (Ctrl-C).
//
// It uses fsnotify (inotify, kqueue, ReadDirectoryChangesW), which reports
// a save at once and costs nothing while nothing changes, where a polling
// loop would either lag or read the folder many times a second. It watches
// the folders that hold the rule files, not the files: editors save by
// writing a temporary file and renaming it over the old one, which a watch
// on the file itself loses. Events come in bursts (a save is a create, a
// write and a rename), so a rebuild waits until the folder has been quiet
// for [Options.Debounce].
package watch

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the rule folders must stay quiet before a
// rebuild: long enough to take an editor's save as one change, short
// enough that the hooks are new by the agent's next tool call.
const DefaultDebounce = 150 * time.Millisecond

// Options says what to watch and how to rebuild.
type Options struct {
	// Dirs are the folders that hold the rule files.
	Dirs []string
	// Match reports whether a file name (without its folder) is a rule
	// file: other files in Dirs (an editor's swap and backup files) do not
	// start a rebuild.
	Match func(name string) bool
	// Debounce is the quiet time before a rebuild; 0 means DefaultDebounce.
	Debounce time.Duration
	// Build rebuilds the hooks and reports on w, in one line when it
	// succeeds (diagnostics before it otherwise).
	Build func(w io.Writer)
	// Out receives Build's reports and watch's own lines.
	Out io.Writer
}

// Run builds once, then after every change of a rule file, until ctx ends
// (then it returns nil). It fails only when the folders cannot be watched.
func Run(ctx context.Context, o Options) error {
	if o.Debounce == 0 {
		o.Debounce = DefaultDebounce
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	for _, d := range o.Dirs {
		if err := w.Add(d); err != nil {
			return fmt.Errorf("cannot watch %s: %w", d, err)
		}
	}
	o.Build(o.Out)
	timer := time.NewTimer(o.Debounce)
	timer.Stop()
	var changed []string
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			name := filepath.Base(ev.Name)
			if ev.Op == fsnotify.Chmod || !o.Match(name) {
				continue
			}
			if !slices.Contains(changed, name) {
				changed = append(changed, name)
			}
			timer.Reset(o.Debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			fmt.Fprintf(o.Out, "hookify watch: %v\n", err)
		case <-timer.C:
			slices.Sort(changed)
			fmt.Fprintf(o.Out, "hookify watch: %s changed\n", join(changed))
			changed = changed[:0]
			o.Build(o.Out)
		}
	}
}

func join(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return fmt.Sprintf("%s and %d more", names[0], len(names)-1)
}
