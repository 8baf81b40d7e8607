// Package hooksjson merges hookify's entries into a Cursor hooks.json without
// touching anyone else's.
//
// A Cursor hooks.json is {"version": 1, "hooks": {"<event>": [entry, ...]}}.
// Entries carry no id, so hookify recognises its own by their command or
// prompt (see [Owned]). Everything else in the file (foreign entries with
// their keys and key order, unknown top-level keys, foreign events) is kept.
package hooksjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
)

// Entry is one Cursor hook entry that hookify generates. Zero-valued optional
// fields are omitted from the output.
//
// Its JSON keys are written in this order: type, command, prompt, matcher,
// timeout, loop_limit, failClosed.
type Entry struct {
	Type       string // "" (a command hook; the key is omitted) or "prompt"
	Command    string // command hooks only
	Prompt     string // prompt hooks only
	Matcher    string
	Timeout    int  // seconds; 0 = omitted
	LoopLimit  int  // 0 = omitted
	FailClosed bool // false = omitted
}

// jsonEntry fixes the key order and omission rules of an [Entry].
type jsonEntry struct {
	Type       string `json:"type,omitempty"`
	Command    string `json:"command,omitempty"`
	Prompt     string `json:"prompt,omitempty"`
	Matcher    string `json:"matcher,omitempty"`
	Timeout    int    `json:"timeout,omitempty"`
	LoopLimit  int    `json:"loop_limit,omitempty"`
	FailClosed bool   `json:"failClosed,omitempty"`
}

// Level is where a hooks.json lives. It fixes the directory that the
// commands of hookify's entries name.
type Level int

const (
	// Project: <root>/.cursor/hooks.json, whose commands run from the
	// project root and name ".cursor/hooks/hookify-<name>.<ext>".
	Project Level = iota
	// User: ~/.cursor/hooks.json, whose commands Cursor runs from
	// ~/.cursor/, so they name "hooks/hookify-<name>.<ext>".
	User
)

// Dir is the directory, as a command names it, that holds hookify's scripts
// at this level, with a final slash.
func (l Level) Dir() string {
	if l == User {
		return "hooks/"
	}
	return codegen.HooksDir + "/"
}

// The two command forms hookify writes (README, "Ownership"), around the
// script's path. WindowsSuffix is optional when reading, so that entries
// written before it was added are still recognised and replaced.
const (
	WindowsPrefix = "powershell -NoProfile -ExecutionPolicy Bypass -File "
	WindowsSuffix = "; exit $LASTEXITCODE"
)

// OwnedPromptPrefix starts the prompt of every prompt-type entry hookify writes.
const OwnedPromptPrefix = "[hookify:"

// Script is what a hookify command runs.
type Script struct {
	Path       string // as the command names it, e.g. ".cursor/hooks/hookify-stop.sh"
	Name       string // the file name without "hookify-" and the extension, e.g. "stop"
	PowerShell bool   // the Windows form, running the .ps1 twin
	Event      string // the event argument of a script that serves several events, else ""
}

// scriptName matches the names ir.FileName makes: [A-Za-z0-9._-], at most
// 100 bytes, neither starting nor ending with '.' or '-'.
var scriptName = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9_])?$`)

// eventArg matches the event argument: a Cursor event name.
var eventArg = regexp.MustCompile(`^[A-Za-z]+$`)

// Command is the command that runs s at level, in the form ParseCommand
// reads (s.Path is not used: the path is level's Dir, ir.ScriptPrefix and
// s.Name). The Windows form ends with WindowsSuffix: Cursor on Windows runs
// the command inside its own PowerShell (README, "Windows"), where a
// child's exit code 2 (a hook that cannot decide) reaches Cursor as 1
// unless the command passes it on.
func Command(s Script, level Level) string {
	cmd := level.Dir() + ir.ScriptPrefix + s.Name + ".sh"
	if s.PowerShell {
		cmd = WindowsPrefix + level.Dir() + ir.ScriptPrefix + s.Name + ".ps1"
	}
	if s.Event != "" {
		cmd += " " + s.Event
	}
	if s.PowerShell {
		cmd += WindowsSuffix
	}
	return cmd
}

// ParseCommand reports whether command is exactly one that hookify writes at
// level, and what it runs. The forms are
//
//	<dir>hookify-<name>.sh[ <event>]
//	powershell -NoProfile -ExecutionPolicy Bypass -File <dir>hookify-<name>.ps1[ <event>][; exit $LASTEXITCODE]
//
// with <dir> from [Level.Dir] and <name> as ir.FileName makes it. Anything
// else, such as "/opt/x/hooks/hookify-audit.sh", "./git-hooks/hookify-x.sh",
// "node .cursor/hooks/hookify-notify.js" or a script with other arguments,
// is someone else's command.
func ParseCommand(command string, level Level) (Script, bool) {
	var s Script
	rest, ps := strings.CutPrefix(command, WindowsPrefix)
	if ps {
		rest = strings.TrimSuffix(rest, WindowsSuffix)
	}
	file, event, hasEvent := strings.Cut(rest, " ")
	if hasEvent && !eventArg.MatchString(event) {
		return s, false
	}
	ext := ".sh"
	if ps {
		ext = ".ps1"
	}
	name, ok := strings.CutPrefix(file, level.Dir()+ir.ScriptPrefix)
	if !ok {
		return s, false
	}
	if name, ok = strings.CutSuffix(name, ext); !ok || !scriptName.MatchString(name) {
		return s, false
	}
	return Script{Path: file, Name: name, PowerShell: ps, Event: event}, true
}

// Owned reports whether an existing hooks.json entry at level, decoded as a
// JSON object, belongs to hookify: its "command" is one that
// [ParseCommand] accepts, or its "type" is "prompt" and its "prompt" is a
// string starting with [OwnedPromptPrefix].
func Owned(entry map[string]any, level Level) bool {
	if c, ok := entry["command"].(string); ok {
		if _, ok := ParseCommand(c, level); ok {
			return true
		}
	}
	if t, _ := entry["type"].(string); t == "prompt" {
		p, ok := entry["prompt"].(string)
		return ok && strings.HasPrefix(p, OwnedPromptPrefix)
	}
	return false
}

// ownedRaw applies [Owned] to one array element; anything that is not an
// object is foreign.
func ownedRaw(raw json.RawMessage, level Level) bool {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return false
	}
	return Owned(m, level)
}

// Error is a problem with an existing hooks.json, at a 1-based line and a
// 1-based byte column.
type Error struct {
	Line, Col int
	Msg       string
}

// Error returns "line:col: msg"; callers prefix the file name.
func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Merge returns the new hooks.json bytes: existing with every entry hookify
// owns replaced by the entries in owned.
//
// existing may be nil, empty or whitespace only, meaning there is no file.
// level is where the file lives; it decides which entries are hookify's
// (see [Owned]). owned maps a Cursor event name (e.g. "beforeShellExecution") to hookify's
// entries for it, in order; an event that is absent or has no entries loses
// hookify's entries.
//
// Within an event, hookify's entries come first and the foreign entries
// follow in their order (Cursor builds were reported to run only the first
// entry of an event; docs/cursor.md). An event whose array held only
// hookify's entries and ends up empty is removed; other events, including
// empty ones, stay where they were. New events are appended in sorted order.
// "version" is always 1: it keeps its position, or comes first if missing.
// "hooks" is added at the end if missing.
//
// The output is indented with two spaces, ends with a newline, does not
// escape HTML characters, and depends only on the inputs; merging it again
// with the same owned gives the same bytes.
//
// If existing is not a JSON object with an object "hooks" whose values are
// arrays, Merge returns an *[Error] that locates the problem. Entries that
// hookify could not recognise as its own on the next merge (see [Owned]), or
// that are otherwise malformed, give a plain error.
func Merge(existing []byte, owned map[string][]Entry, level Level) ([]byte, error) {
	if err := checkOwned(owned, level); err != nil {
		return nil, err
	}
	doc := &document{}
	if len(bytes.Trim(existing, " \t\r\n")) > 0 {
		var err error
		if doc, err = parse(existing); err != nil {
			return nil, err
		}
	}

	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	member := func(rawKey []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(rawKey)
		b.WriteByte(':')
	}
	writeVersion := func() {
		member(encodeString("version"))
		b.WriteByte('1')
	}
	writeHooks := func() error {
		member(encodeString("hooks"))
		return writeHooks(&b, doc.events, owned, level)
	}

	if !doc.hasVersion {
		writeVersion()
	}
	for _, m := range doc.members {
		switch m.kind {
		case keyVersion:
			writeVersion()
		case keyHooks:
			if err := writeHooks(); err != nil {
				return nil, err
			}
		default:
			member(m.rawKey)
			if err := json.Compact(&b, m.value); err != nil {
				return nil, err
			}
		}
	}
	if !doc.hasHooks {
		if err := writeHooks(); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')

	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// writeHooks writes the compact "hooks" object: the existing events with
// hookify's entries replaced, then the new events in sorted order.
func writeHooks(b *bytes.Buffer, events []event, owned map[string][]Entry, level Level) error {
	b.WriteByte('{')
	n := 0
	writeEvent := func(rawKey []byte, entries []json.RawMessage) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(rawKey)
		b.WriteString(":[")
		for i, e := range entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(e)
		}
		b.WriteByte(']')
	}

	seen := make(map[string]bool)
	for _, ev := range events {
		seen[ev.name] = true
		mine, err := encodeEntries(owned[ev.name])
		if err != nil {
			return err
		}
		// hookify's entries come first, the foreign ones after them in
		// their order: Cursor builds were reported to run only the first
		// entry of an event (docs/cursor.md).
		out := slices.Clip(mine)
		for _, raw := range ev.entries {
			if ownedRaw(raw, level) {
				continue
			}
			var c bytes.Buffer
			if err := json.Compact(&c, raw); err != nil {
				return err
			}
			out = append(out, c.Bytes())
		}
		if len(out) == 0 && len(ev.entries) > 0 {
			// The array held only hookify's entries, and none are left.
			continue
		}
		writeEvent(ev.rawKey, out)
	}

	var added []string
	for name, entries := range owned {
		if !seen[name] && len(entries) > 0 {
			added = append(added, name)
		}
	}
	sort.Strings(added)
	for _, name := range added {
		mine, err := encodeEntries(owned[name])
		if err != nil {
			return err
		}
		writeEvent(encodeString(name), mine)
	}
	b.WriteByte('}')
	return nil
}

// checkOwned rejects entries that Merge must not write: malformed ones, and
// ones that [Owned] would not recognise, which would pile up on every merge.
func checkOwned(owned map[string][]Entry, level Level) error {
	names := make([]string, 0, len(owned))
	for name := range owned {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "" {
			return errors.New("hooksjson: empty event name")
		}
		for i, e := range owned[name] {
			if err := checkEntry(e, level); err != nil {
				return fmt.Errorf("hooksjson: %s entry %d: %v", name, i, err)
			}
		}
	}
	return nil
}

func checkEntry(e Entry, level Level) error {
	m := map[string]any{}
	switch e.Type {
	case "":
		if e.Command == "" {
			return errors.New("command hook without a command")
		}
		if e.Prompt != "" {
			return errors.New("command hook with a prompt")
		}
		m["command"] = e.Command
	case "prompt":
		if e.Prompt == "" {
			return errors.New("prompt hook without a prompt")
		}
		m["type"], m["prompt"] = e.Type, e.Prompt
		if e.Command != "" {
			m["command"] = e.Command
		}
	default:
		return fmt.Errorf("unknown type %q", e.Type)
	}
	if e.Timeout < 0 || e.LoopLimit < 0 {
		return errors.New("negative timeout or loop_limit")
	}
	if !Owned(m, level) {
		return fmt.Errorf("entry would not be recognised as hookify's (command must run %shookify-<name>.sh or .ps1 as hookify writes it, prompt must start with %q)", level.Dir(), OwnedPromptPrefix)
	}
	return nil
}

func encodeEntries(entries []Entry) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(entries))
	for _, e := range entries {
		raw, err := encode(jsonEntry(e))
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

// encode marshals v compactly without HTML escaping.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func encodeString(s string) []byte {
	b, _ := encode(s) // a string always encodes
	return b
}

// File is an existing hooks.json as hookify reads it: the one reader of
// the file, for Merge, doctor, check, test and the warnings about it.
type File struct {
	// Version is the value of "version" as written (nil when absent), and
	// VersionAt the byte offset of its key.
	Version   json.RawMessage
	VersionAt int
	Events    []Event // the members of "hooks", in order
}

// Event is one member of "hooks": its name, the byte offset of its key,
// and its entries as written, in order.
type Event struct {
	Name    string
	At      int
	Entries []json.RawMessage
}

// Commands are the "command" strings of e's entries, with the entry each
// belongs to decoded; an entry that is no object, or has no string
// command, gives none.
func (e Event) Commands() []CommandEntry {
	var out []CommandEntry
	for _, raw := range e.Entries {
		var entry map[string]any
		if json.Unmarshal(raw, &entry) != nil {
			continue
		}
		if c, ok := entry["command"].(string); ok {
			out = append(out, CommandEntry{Line: c, Entry: entry})
		}
	}
	return out
}

// CommandEntry is one command entry of an event.
type CommandEntry struct {
	Line  string
	Entry map[string]any
}

// Read reads data, which must be a JSON object whose "hooks", if any, is an
// object of arrays; the error locates what is not (*Error).
func Read(data []byte) (*File, error) {
	doc, err := parse(data)
	if err != nil {
		return nil, err
	}
	f := &File{Version: doc.version, VersionAt: doc.versionAt}
	for _, ev := range doc.events {
		f.Events = append(f.Events, Event{Name: ev.name, At: ev.at, Entries: ev.entries})
	}
	return f, nil
}

// document is an existing hooks.json, as far as Merge needs to understand it.
type document struct {
	members    []member // top-level members, in order
	events     []event  // the members of "hooks", in order
	hasVersion bool
	hasHooks   bool
	version    json.RawMessage // the value of "version"
	versionAt  int             // where its key starts
}

type keyKind int

const (
	keyOther keyKind = iota
	keyVersion
	keyHooks
)

// member is one top-level key. rawKey is the key exactly as written,
// quotes included; value is kept only for keyOther.
type member struct {
	kind   keyKind
	rawKey []byte
	value  json.RawMessage
}

// event is one member of "hooks".
type event struct {
	name    string
	rawKey  []byte
	at      int // where the key starts
	entries []json.RawMessage
}

// parser walks the tokens of a document that is known to be valid JSON and
// locates structural problems.
type parser struct {
	data []byte
	dec  *json.Decoder
}

func parse(data []byte) (*document, error) {
	if err := syntaxCheck(data); err != nil {
		return nil, err
	}
	p := &parser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	doc := &document{}

	if err := p.open('{', "the top level"); err != nil {
		return nil, err
	}
	for p.dec.More() {
		key, rawKey, at, err := p.key()
		if err != nil {
			return nil, err
		}
		switch key {
		case "version":
			if doc.hasVersion {
				return nil, p.errorAt(at, `duplicate key "version"`)
			}
			doc.hasVersion = true
			if doc.version, err = p.value(); err != nil {
				return nil, err
			}
			doc.versionAt = at
			doc.members = append(doc.members, member{kind: keyVersion, rawKey: rawKey})
		case "hooks":
			if doc.hasHooks {
				return nil, p.errorAt(at, `duplicate key "hooks"`)
			}
			doc.hasHooks = true
			if doc.events, err = p.hooks(); err != nil {
				return nil, err
			}
			doc.members = append(doc.members, member{kind: keyHooks, rawKey: rawKey})
		default:
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			doc.members = append(doc.members, member{kind: keyOther, rawKey: rawKey, value: v})
		}
	}
	if err := p.close(); err != nil {
		return nil, err
	}
	return doc, nil
}

// hooks reads the value of "hooks".
func (p *parser) hooks() ([]event, error) {
	if err := p.open('{', `"hooks"`); err != nil {
		return nil, err
	}
	var events []event
	seen := make(map[string]bool)
	for p.dec.More() {
		name, rawKey, at, err := p.key()
		if err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, p.errorAt(at, fmt.Sprintf("duplicate event %q", name))
		}
		seen[name] = true
		if err := p.open('[', fmt.Sprintf("event %q", name)); err != nil {
			return nil, err
		}
		ev := event{name: name, rawKey: rawKey, at: at}
		for p.dec.More() {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			ev.entries = append(ev.entries, v)
		}
		if err := p.close(); err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	return events, p.close()
}

// open reads the next token, which must be the delimiter want.
func (p *parser) open(want json.Delim, what string) error {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return p.errorAt(at, err.Error())
	}
	if tok != want {
		kind := "an object"
		if want == '[' {
			kind = "an array"
		}
		return p.errorAt(at, fmt.Sprintf("%s is %s, want %s", what, describe(tok), kind))
	}
	return nil
}

// close reads the closing delimiter of the current object or array.
func (p *parser) close() error {
	at := p.next()
	if _, err := p.dec.Token(); err != nil {
		return p.errorAt(at, err.Error())
	}
	return nil
}

// key reads an object key and returns it decoded, as written, and where it
// starts.
func (p *parser) key() (string, []byte, int, error) {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return "", nil, at, p.errorAt(at, err.Error())
	}
	key, ok := tok.(string)
	if !ok {
		return "", nil, at, p.errorAt(at, "object key is not a string")
	}
	end := int(p.dec.InputOffset())
	return key, slices.Clone(p.data[at:end]), at, nil
}

// value reads one whole value.
func (p *parser) value() (json.RawMessage, error) {
	at := p.next()
	var v json.RawMessage
	if err := p.dec.Decode(&v); err != nil {
		return nil, p.errorAt(at, err.Error())
	}
	return v, nil
}

// next returns the offset of the next token: the decoder's offset moved past
// white space and the separators it has not consumed yet.
func (p *parser) next() int {
	i := int(p.dec.InputOffset())
	for i < len(p.data) {
		switch p.data[i] {
		case ' ', '\t', '\r', '\n', ',', ':':
			i++
			continue
		}
		break
	}
	return i
}

func (p *parser) errorAt(offset int, msg string) *Error {
	return errorAt(p.data, offset, msg)
}

// syntaxCheck reports the first syntax error in data, precisely located
// (the token decoder's own offsets are not exact).
func syntaxCheck(data []byte) error {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return errorAt(data, 0, "file starts with a UTF-8 byte order mark; save it without one")
	}
	var v json.RawMessage
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return err
	}
	// Offset counts the bytes read, including the offending one; at the end
	// of input there is no offending byte.
	at := int(syn.Offset) - 1
	if at < 0 || strings.HasPrefix(syn.Error(), "unexpected end") {
		at = int(syn.Offset)
	}
	return errorAt(data, at, "invalid JSON: "+syn.Error())
}

// errorAt locates offset in data as a 1-based line and byte column.
func errorAt(data []byte, offset int, msg string) *Error {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line := 1 + bytes.Count(before, []byte("\n"))
	col := offset - bytes.LastIndexByte(before, '\n')
	return &Error{Line: line, Col: col, Msg: msg}
}

// describe names the kind of a JSON token for an error message.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}
