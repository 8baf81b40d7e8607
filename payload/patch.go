package payload

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// File is one file of a patch (README, "Payload fields"): its path, the
// path it moves to (Move.Set only after a "*** Move to:" line), and its
// added and removed lines, each without its '+' or '-' and with a newline.
type File struct {
	Path           string
	Move           Value
	Added, Removed string
}

// Files returns the files of the patches in p, as DecodePatched read them.
func (p *Payload) Files() []File {
	if p == nil {
		return nil
	}
	return p.files
}

// DecodePatched decodes raw as Decode does, and also reads patches, as the
// awk decoder does with A=1: a payload whose first line, after what may
// stand before the JSON, starts "*** Begin Patch" is a patch and nothing
// else (all its lines); otherwise the string top-level tool_input (unless
// it starts with '{' after white space: JSON text), tool_input.patch and
// tool_input.diff, each when set, are patches. A patch that cannot be read
// makes the payload invalid.
func DecodePatched(raw []byte) (*Payload, error) {
	for rest := raw; len(rest) > 0; {
		line, _, _ := bytes.Cut(rest, []byte("\n"))
		if i := bytes.Index(line, []byte(beginPatch)); i >= 0 && Prefix(line[:i]) {
			p := &Payload{top: map[string]Value{}, tool: map[string]Value{}}
			if err := p.readPatch(string(rest[i:])); err != nil {
				return nil, err
			}
			return p, nil
		}
		if bytes.IndexByte(line, '{') >= 0 || !Prefix(line) {
			break // JSON, or what Decode refuses
		}
		rest = rest[min(len(line)+1, len(rest)):]
	}
	p, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	if t := p.Top("tool_input"); t.Set && !jsonText.MatchString(t.Text) {
		if err := p.readPatch(t.Text); err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"patch", "diff"} {
		if v := p.ToolInput(k); v.Set {
			if err := p.readPatch(v.Text); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

const beginPatch = "*** Begin Patch"

// space is the white space that codex's apply_patch parser trims off a
// line (Rust's str::trim: Unicode's White_Space, NBSP and U+3000 too).
func space(r rune) bool { return unicode.IsSpace(r) }

// header is line as apply_patch reads a header there (openai/codex,
// codex-rs/apply-patch/src/parser.rs, commit 0e0fb63): where a file
// section may start (after *** Begin Patch, after a Delete File line, and
// at the first line of an Add File section that does not start with '+'),
// parse_one_hunk reads lines[0].trim(), so "\t*** Add File: .env" after
// "+hello" adds .env; in an Update File section only a line that starts
// with '*' ends the hunks (an indented one is a context line), and it is
// read trimmed as well. Elsewhere line is content, and header returns "".
func header(line, raw string, state int) string {
	switch {
	case state == updating && strings.HasPrefix(line, "*"):
		return strings.TrimRightFunc(line, space)
	case state == noFile || state == adding && !strings.HasPrefix(raw, "+"):
		return strings.TrimFunc(line, space)
	}
	return ""
}

var (
	jsonText = regexp.MustCompile(`^[ \t\r\n]*\{`)
	head     = regexp.MustCompile(`^\*\*\* (Add|Update|Delete) File: (.*)$`)
)

// The states of readPatch.
const (
	before   = iota
	noFile   // after Begin Patch or a Delete File
	adding   // in an Add File
	updating // in an Update File
	after    // after End Patch
)

// readPatch adds the files of the patch text to p.
func (p *Payload) readPatch(text string) error {
	bad := func(i int, why string) error {
		return fmt.Errorf("%w: patch line %d: %s", ErrInvalid, i+1, why)
	}
	lines := strings.Split(text, "\n")
	state := before
	var files []File
	var added, removed [][]string // per file
	cur := func() *File { return &files[len(files)-1] }
	for i, l := range lines {
		m := strings.TrimSuffix(l, "\r")
		if state == before {
			t := strings.TrimFunc(m, space)
			if t == "" && i < len(lines)-1 {
				continue
			}
			if t != beginPatch {
				return bad(i, "the patch does not start with *** Begin Patch")
			}
			state = noFile
			continue
		}
		if state == after {
			if strings.TrimFunc(m, space) != "" {
				return bad(i, "text after *** End Patch")
			}
			continue
		}
		h := header(m, l, state)
		switch {
		case h == "*** End Patch":
			state = after
		case head.MatchString(h):
			f := head.FindStringSubmatch(h)
			if f[2] == "" {
				return bad(i, "a file header without a path")
			}
			state = map[string]int{"Add": adding, "Update": updating, "Delete": noFile}[f[1]]
			files = append(files, File{Path: f[2]})
			added, removed = append(added, nil), append(removed, nil)
		case strings.HasPrefix(h, "*** Move to: "):
			to := strings.TrimPrefix(h, "*** Move to: ")
			if state != updating || to == "" || cur().Move.Set {
				return bad(i, "a *** Move to: line that does not follow an *** Update File: line")
			}
			cur().Move = Value{Text: to, Set: true}
		case h == "*** End of File":
		case strings.HasPrefix(h, "***") || state == noFile && h != "":
			return bad(i, "a line the patch format does not have here")
		case state != noFile && strings.HasPrefix(l, "+"):
			added[len(files)-1] = append(added[len(files)-1], l[1:]+"\n")
		case state == updating && strings.HasPrefix(l, "-"):
			removed[len(files)-1] = append(removed[len(files)-1], l[1:]+"\n")
		}
	}
	if state == before {
		return bad(len(lines)-1, "no *** Begin Patch")
	}
	for i := range files {
		files[i].Added, files[i].Removed = strings.Join(added[i], ""), strings.Join(removed[i], "")
	}
	p.files = append(p.files, files...)
	return nil
}
