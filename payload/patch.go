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

// trimPath drops the white space (Unicode's White_Space) that ends a
// header's or a "*** Move to:" line's path, which is not part of it:
// apply_patch trims a file header line before it reads the path (README,
// "Payload fields"), so "*** Add File: .env " writes .env.
func trimPath(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

var (
	jsonText  = regexp.MustCompile(`^[ \t\r\n]*\{`)
	blank     = regexp.MustCompile(`^[ \t]*$`)
	begin     = regexp.MustCompile(`^[ \t]*\*\*\* Begin Patch[ \t]*$`)
	end       = regexp.MustCompile(`^\*\*\* End Patch[ \t]*$`)
	endOfFile = regexp.MustCompile(`^\*\*\* End of File[ \t]*$`)
	header    = regexp.MustCompile(`^\*\*\* (Add|Update|Delete) File: (.*)$`)
)

// readPatch adds the files of the patch text to p.
func (p *Payload) readPatch(text string) error {
	bad := func(i int, why string) error {
		return fmt.Errorf("%w: patch line %d: %s", ErrInvalid, i+1, why)
	}
	lines := strings.Split(text, "\n")
	const (
		before   = iota
		noFile   // after Begin Patch or a Delete File
		adding   // in an Add File
		updating // in an Update File
		after    // after End Patch
	)
	state := before
	var files []File
	var added, removed [][]string // per file
	cur := func() *File { return &files[len(files)-1] }
	for i, l := range lines {
		m := strings.TrimSuffix(l, "\r")
		switch {
		case state == before:
			if blank.MatchString(m) && i < len(lines)-1 {
				continue
			}
			if !begin.MatchString(m) {
				return bad(i, "the patch does not start with *** Begin Patch")
			}
			state = noFile
		case state == after:
			if !blank.MatchString(m) {
				return bad(i, "text after *** End Patch")
			}
		case end.MatchString(m):
			state = after
		case header.MatchString(m):
			h := header.FindStringSubmatch(m)
			h[2] = trimPath(h[2])
			if h[2] == "" {
				return bad(i, "a file header without a path")
			}
			state = map[string]int{"Add": adding, "Update": updating, "Delete": noFile}[h[1]]
			files = append(files, File{Path: h[2]})
			added, removed = append(added, nil), append(removed, nil)
		case strings.HasPrefix(m, "*** Move to: "):
			to := trimPath(strings.TrimPrefix(m, "*** Move to: "))
			if state != updating || to == "" || cur().Move.Set {
				return bad(i, "a *** Move to: line that does not follow an *** Update File: line")
			}
			cur().Move = Value{Text: to, Set: true}
		case endOfFile.MatchString(m):
		case strings.HasPrefix(m, "***") || state == noFile && !blank.MatchString(m):
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
