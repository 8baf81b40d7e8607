package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// retireStale is the build that a hook ran (codegen.LiveEnv set;
// docs/live-rules.md, "What remains"): Cursor may still start, in this
// very call, a script that the hooks.json on disk runs, so each stale
// script that it runs (or whose twin it runs), and the .awk program of
// such a script, which a wrapper started before the rebuild runs after it,
// becomes a retired stub (codegen.Retired) instead of being deleted, and a
// stub already there stays. Other stale files are deleted as in any build.
func retireStale(root string, level hooksjson.Level, files []codegen.File, stale []string) ([]codegen.File, []string) {
	served := map[string][]ir.CursorEvent{} // script name → the events hooks.json runs it for
	if commands, err := ownedCommands(filepath.Join(root, compiler.HooksJSON), level); err == nil {
		for event, cmds := range commands {
			e, ok := ir.ParseCursorEvent(event)
			if !ok {
				continue
			}
			for _, c := range cmds {
				s, ok := hooksjson.ParseCommand(c.line, level)
				if ok && !slices.Contains(served[s.Name], e) {
					served[s.Name] = append(served[s.Name], e)
				}
			}
		}
	}
	var keep []string
	for _, p := range stale {
		data, err := readRegular(filepath.Join(root, filepath.FromSlash(p)))
		if err == nil && codegen.IsRetired(p, data) {
			continue
		}
		base := path.Base(p)
		ext := path.Ext(base)
		events := served[strings.TrimSuffix(strings.TrimPrefix(base, ir.ScriptPrefix), ext)]
		if err != nil || !writer.IsGenerated(p, data) || (ext != ".sh" && ext != ".ps1" && ext != ".awk") || len(events) == 0 {
			keep = append(keep, p)
			continue
		}
		slices.Sort(events)
		mode := os.FileMode(0o644)
		if ext == ".sh" {
			mode = 0o755
		}
		files = append(files, codegen.File{Path: p, Data: codegen.Retired(p, events), Mode: mode})
	}
	slices.SortFunc(files, func(a, b codegen.File) int { return strings.Compare(a.Path, b.Path) })
	return files, keep
}

// dropRetired leaves out of changes the deletion of retired stubs, which a
// rebuild that a hook ran leaves behind on purpose: hookify check and
// doctor do not call the output stale for them. It returns their paths.
func dropRetired(changes []writer.Change) (kept []writer.Change, retired []string) {
	for _, ch := range changes {
		if ch.Kind == writer.Delete && codegen.IsRetired(ch.Path, ch.Old) {
			retired = append(retired, ch.Path)
			continue
		}
		kept = append(kept, ch)
	}
	return kept, retired
}

// retiredNote is what check says of the retired stubs it found.
func retiredNote(cmd string, retired []string) string {
	return fmt.Sprintf("hookify %s: %s retired by a rebuild that a hook ran (%s): each answers allow to a call that Cursor started from the hooks.json before it; the next hookify build deletes %s\n",
		cmd, plural(len(retired), "script"), strings.Join(retired, ", "), them(len(retired)))
}
