package upstream

// Upstream hookify's own reading of a rule file: a port, written from its
// documented behaviour (docs/semantics.md §4), of the plugin's loader and
// hand-written line parser. It is not YAML.

import (
	"strings"
	"unicode"
)

// FrontMatter is hookify's own line parser's reading of a front matter
// block (docs/semantics.md §4).
//
// Line numbers are 1-based within the block; FirstLine says which file line
// the block's first line is.
type FrontMatter struct {
	// Fields maps each top-level key to its value, as last set.
	Fields map[string]*Value
	// Roles says what the parser did with each line (Roles[i] is line i+1).
	Roles []Role
	// Src holds the block's lines, without their line ends.
	Src []string
	// FirstLine is the file line of the block's line 1 (0 if unknown).
	FirstLine int
}

// Kind is the type of a value as hookify's line parser reads it.
type Kind int

const (
	Text Kind = iota // text, its quotes stripped
	Bool             // true or false in any case, even quoted
	List             // a key with an empty value, and the "- " items after it
)

// Value is one top-level value as hookify read it.
type Value struct {
	Kind  Kind
	Text  string // Text
	Bool  bool   // Bool
	Items []Item // List
	Line  int    // the line that set the key
}

// String is the value as Python's str() shows it in hookify's messages
// and comparisons: the text, True or False, or a list.
func (v *Value) String() string {
	switch v.Kind {
	case Bool:
		if v.Bool {
			return "True"
		}
		return "False"
	case List:
		return "[]"
	}
	return v.Text
}

// Item is one list item as hookify read it: text, or a map of keys.
type Item struct {
	Line int
	Text string            // a text item (Map is nil)
	Map  map[string]string // a map item: keys to their text
	// Comma: the dash line held both ':' and ',', so it was read as an
	// inline "k: v, k: v" map (and later continuation lines were dropped).
	Comma bool
	// KeyLines maps each key of a map item to the line that set it.
	KeyLines map[string]int
}

// Text returns the text of key when it is read as text.
func (u *FrontMatter) Text(key string) (string, bool) {
	v, ok := u.Fields[key]
	if !ok || v.Kind != Text {
		return "", false
	}
	return v.Text, true
}

// Items returns the items of key when it is read as a list.
func (u *FrontMatter) Items(key string) []Item {
	if v, ok := u.Fields[key]; ok && v.Kind == List {
		return v.Items
	}
	return nil
}

// Role is what hookify's line parser did with one line.
type Role int

const (
	RoleSkipped      Role = iota // blank or a full-line # comment
	RoleKey                      // a top-level "key: value"
	RoleListKey                  // a top-level "key:" with no value: starts a list
	RoleItem                     // a "- ..." list item
	RoleContinuation             // "k: v" added to the open map item
	RoleIgnored                  // dropped: none of the above applied
)

// File is how hookify loads a whole rule file.
type File struct {
	// Skipped says why hookify skips the file ("" when it loads it).
	Skipped string
	// FrontMatter is its reading of the front matter. The block starts right
	// after the first "---", so its line numbers are file line numbers.
	FrontMatter *FrontMatter
	// Body is the message: everything after the second "---", stripped.
	Body string
	// CutLine and CutCol locate the "---" that ended the front matter when
	// it is not a line of its own (a value such as `pattern: ^---$`);
	// CutLine is 0 otherwise.
	CutLine, CutCol int
}

// ReadFile reads a whole rule file the way hookify's loader does: the
// text (universal newlines) must start with "---"; the front matter is what
// lies between the first two occurrences of "---" anywhere in the text, not
// only on lines of their own; the body is the rest, stripped.
func ReadFile(src []byte) *File {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if !strings.HasPrefix(text, "---") {
		why := "the text does not start with ---"
		if strings.HasPrefix(text, "\uFEFF") {
			why = "the file starts with a UTF-8 byte order mark, so the text does not start with ---"
		}
		return &File{Skipped: why}
	}
	parts := strings.SplitN(text, "---", 3)
	if len(parts) < 3 {
		return &File{Skipped: "there is no second ---"}
	}
	h := &File{FrontMatter: readFrontMatter(parts[1]), Body: pyStrip(parts[2])}
	h.FrontMatter.FirstLine = 1
	// Where did the front matter end?
	end := 3 + len(parts[1]) // offset of the second "---"
	line := 1 + strings.Count(text[:end], "\n")
	lineStart := strings.LastIndexByte(text[:end], '\n') + 1
	lineEnd := strings.IndexByte(text[end:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text)
	} else {
		lineEnd += end
	}
	if strings.TrimRight(text[lineStart:lineEnd], " \t") != "---" {
		h.CutLine, h.CutCol = line, end-lineStart+1
	}
	return h
}

// readFrontMatter runs hookify's line parser over a front matter block.
//
// For each line, in order: blank lines and full-line "#" comments are
// skipped; a line with no indent that holds ':' and does not start with '-'
// is a top-level key (an empty value opens a list; otherwise the value loses
// every leading and trailing double quote, then every leading and trailing
// single quote, and exactly "true"/"false" in any case become booleans); a
// line starting with '-' while a list is open is an item (with both ':' and
// ',' an inline map split at every comma; with ':' a map item; else a
// string); a line indented by more than 2 characters that holds ':' while a
// map item is open adds a key to it; anything else is dropped.
func readFrontMatter(fm string) *FrontMatter {
	up := &FrontMatter{Fields: map[string]*Value{}}
	var (
		list   *Value // the open list, if any
		key    string // its key
		inDict bool   // the last item is a map that continuation lines extend
	)
	closeList := func() {
		if list != nil && key != "" {
			up.Fields[key] = list
		}
		list, inDict = nil, false
	}
	up.Src = strings.Split(fm, "\n")
	up.Roles = make([]Role, len(up.Src))
	for i, line := range up.Src {
		n := i + 1
		stripped := pyStrip(line)
		if stripped == "" || strings.HasPrefix(stripped, "#") {
			up.Roles[i] = RoleSkipped
			continue
		}
		indent := indentOf(line)
		switch {
		case indent == 0 && strings.Contains(line, ":") && !strings.HasPrefix(stripped, "-"):
			closeList()
			k, v, _ := strings.Cut(line, ":")
			k, v = pyStrip(k), pyStrip(v)
			if v == "" {
				key, list = k, &Value{Kind: List, Line: n, Items: []Item{}}
				up.Roles[i] = RoleListKey
				continue
			}
			sv := readScalar(v)
			sv.Line = n
			up.Fields[k] = sv
			up.Roles[i] = RoleKey
		case strings.HasPrefix(stripped, "-") && list != nil:
			up.Roles[i] = RoleItem
			item := pyStrip(stripped[1:])
			it := Item{Line: n}
			inDict = false
			switch {
			case strings.Contains(item, ":") && strings.Contains(item, ","):
				it.Map, it.Comma, it.KeyLines = map[string]string{}, true, map[string]int{}
				for _, part := range strings.Split(item, ",") {
					if k, v, ok := strings.Cut(part, ":"); ok {
						it.Map[pyStrip(k)] = stripQuotes(pyStrip(v))
						it.KeyLines[pyStrip(k)] = n
					}
				}
			case strings.Contains(item, ":"):
				k, v, _ := strings.Cut(item, ":")
				it.Map = map[string]string{pyStrip(k): stripQuotes(pyStrip(v))}
				it.KeyLines = map[string]int{pyStrip(k): n}
				inDict = true
			default:
				it.Text = stripQuotes(item)
			}
			list.Items = append(list.Items, it)
		case indent > 2 && inDict && strings.Contains(line, ":"):
			k, v, _ := strings.Cut(stripped, ":")
			last := &list.Items[len(list.Items)-1]
			last.Map[pyStrip(k)] = stripQuotes(pyStrip(v))
			last.KeyLines[pyStrip(k)] = n
			up.Roles[i] = RoleContinuation
		default:
			up.Roles[i] = RoleIgnored
		}
	}
	closeList()
	return up
}

// readScalar converts a top-level value as hookify does: quotes
// stripped, then "true"/"false" (any case) become booleans.
func readScalar(v string) *Value {
	v = stripQuotes(v)
	switch strings.ToLower(v) {
	case "true":
		return &Value{Kind: Bool, Bool: true}
	case "false":
		return &Value{Kind: Bool, Bool: false}
	}
	return &Value{Kind: Text, Text: v}
}

// indentOf is Python's len(line) - len(line.lstrip()): the number of
// leading white-space characters (a tab counts as one).
func indentOf(line string) int {
	n := 0
	for _, r := range line {
		if !pyIsSpace(r) {
			break
		}
		n++
	}
	return n
}

// pyIsSpace is Python's str.isspace for one character: Unicode white space,
// plus the ASCII separators \x1c-\x1f.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// pyStrip is Python's str.strip() with no argument.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// stripQuotes is Python's v.strip('"').strip("'").
func stripQuotes(s string) string { return strings.Trim(strings.Trim(s, `"`), `'`) }

// ReadValue reads one top-level "key: value" line as hookify does
// and returns its value. ok is false when the line is not a top-level key.
func ReadValue(line string) (v *Value, ok bool) {
	up := readFrontMatter(line)
	for _, v := range up.Fields {
		return v, true
	}
	return nil, false
}
