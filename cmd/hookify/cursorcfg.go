package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/hooksjson"
	"github.com/hookify/hookify/ir"
)

// readRegular reads a file that must be a regular one: a FIFO or a device
// in its place would block or never end.
func readRegular(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file")}
	}
	return os.ReadFile(name)
}

// configCode is the code of the warnings about an existing hooks.json that
// Cursor would ignore.
const configCode = "cursor-config"

// configProblems returns what in an existing hooks.json makes Cursor
// ignore the whole file, hookify's entries included (docs/runtime.md §1):
// a "version" that is not a number, and an event name Cursor does not
// know. data that is not a JSON object with an object "hooks" gives
// nothing: the compiler (and doctor) report that themselves.
func configProblems(data []byte) []finding {
	f, err := hooksjson.Read(data)
	if err != nil {
		return nil
	}
	pos := func(off int) diag.Pos {
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		col := off - bytes.LastIndexByte(data[:off], '\n')
		return diag.Pos{File: compiler.HooksJSON, Line: line, Col: col}
	}
	var out []finding
	if f.Version != nil {
		dec := json.NewDecoder(bytes.NewReader(f.Version))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			if _, ok := v.(json.Number); !ok {
				out = append(out, diag.Diagnostic{Pos: pos(f.VersionAt), Severity: diag.Error, Code: configCode,
					Msg:  fmt.Sprintf("\"version\" is %s, not a number: Cursor ignores a hooks.json whose version is not a number, hookify's entries included", bytes.TrimSpace(f.Version)),
					Hint: `write "version": 1 (hookify build does)`})
			}
		}
	}
	for _, ev := range f.Events {
		if !ir.IsDocumentedCursorEvent(ev.Name) {
			out = append(out, diag.Diagnostic{Pos: pos(ev.At), Severity: diag.Error, Code: configCode,
				Msg:  fmt.Sprintf("Cursor does not know the event %q: recent builds then ignore the whole hooks.json, hookify's entries included", ev.Name),
				Hint: unknownEventFix(ev.Name)})
		}
	}
	if f.Version == nil {
		out = append(out, diag.Diagnostic{Pos: pos(0), Severity: diag.Warning, Code: configCode,
			Msg:  "there is no \"version\": Cursor runs such a file, but its Hooks settings do not show it",
			Hint: `add "version": 1 (hookify build does)`})
	}
	return out
}

// unknownEventFix names the documented event that event misspells, if one
// differs only in case, or the list.
func unknownEventFix(event string) string {
	for _, e := range ir.DocumentedCursorEvents {
		if strings.EqualFold(e, event) {
			return fmt.Sprintf("rename it %q", e)
		}
	}
	return "rename or remove it; Cursor documents " + strings.Join(ir.DocumentedCursorEvents, ", ")
}

// configWarnings are configProblems as warnings of build and check.
func configWarnings(data []byte) diag.List {
	var out diag.List
	for _, f := range configProblems(data) {
		out = append(out, diag.Diagnostic{Pos: f.Pos, Severity: diag.Warning, Code: configCode, Msg: f.Msg + "; " + f.Hint})
	}
	return out
}
