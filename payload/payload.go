// Package payload decodes a Cursor hook payload exactly as the generated
// scripts' awk decoder (templates/decode.awk) does.
//
// The rules, shared with the awk decoder:
//
//   - The bytes before the first '{' may only be white space (space, tab,
//     CR, LF), bytes of byte order marks (EF BB BF FE FF) and the text
//     "n++" (see Prefix); anything else there makes the input invalid.
//     From the '{' on the input must be exactly one RFC 8259 object
//     followed only by JSON whitespace.
//   - The escape \u0000 decodes to the byte 01, wherever it stands (keys
//     too): BWK and busybox awk cannot hold a NUL in a string, so every
//     implementation reads a NUL as 01, as transcripts are read (README,
//     "Payload fields"). Raw bytes below 0x20 inside strings make the
//     whole payload invalid, and so does a raw NUL anywhere after the '{'.
//   - Only top-level keys and the members of the top-level tool_input
//     object are reported. Keys are compared after decoding their escapes:
//     "comm\u0061nd" is the key "command".
//   - A string value is decoded byte by byte: escapes are expanded, a
//     surrogate pair becomes 4-byte UTF-8, a lone surrogate becomes U+FFFD,
//     and any other byte, valid UTF-8 or not, is kept as it is.
//   - A number, true or false is reported as its literal text. null, an
//     object or an array is reported as not set.
//   - Duplicate keys: the last one wins. When a top-level tool_input key
//     starts, every member seen so far is forgotten.
//   - MultiEdit: ToolInput("edits[].new_string") and ("edits[].old_string")
//     are those members of the items of the tool_input.edits array, joined
//     by a space.
package payload

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every error that Decode returns: the awk decoder
// would not set hk_ok=1 for that input.
var ErrInvalid = errors.New("invalid hook payload")

// Value is one field as a generated script sees it.
type Value struct {
	// Text holds raw bytes. It is not necessarily valid UTF-8.
	Text string
	// Set is false for a missing key, null, an object or an array.
	Set bool
}

// Payload holds the fields of a decoded payload.
type Payload struct {
	top   map[string]Value
	tool  map[string]Value
	joins map[string]Value // "edits[].new_string", "edits[].old_string"
	files []File           // DecodePatched's
}

// Top returns the top-level key (its decoded text).
func (p *Payload) Top(key string) Value {
	if p == nil {
		return Value{}
	}
	return p.top[key]
}

// ToolInput returns a member of the top-level tool_input object, or, for
// "edits[].new_string" and "edits[].old_string", those members of the
// items of the tool_input.edits array joined by a space (see edits).
func (p *Payload) ToolInput(key string) Value {
	if p == nil {
		return Value{}
	}
	if strings.Contains(key, "[]") {
		return p.joins[key]
	}
	return p.tool[key]
}

// Prefix reports whether b may stand before the payload's '{': white space,
// bytes of UTF-8 and UTF-16 byte order marks, and "n++", the framing that
// Cursor 3.8.11 and later put before the payload on Windows (README,
// "Payload fields").
func Prefix(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r', '\n', 0xEF, 0xBB, 0xBF, 0xFE, 0xFF:
		case 'n':
			if !bytes.HasPrefix(b[i:], []byte("n++")) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// Decode decodes one JSON object, after a Prefix, with the awk decoder's
// rules. It returns an error wrapping ErrInvalid when the awk decoder would
// not set hk_ok=1.
func Decode(raw []byte) (*Payload, error) {
	start := bytes.IndexByte(raw, '{')
	if start < 0 {
		return nil, fmt.Errorf("%w: no '{' in the input", ErrInvalid)
	}
	if !Prefix(raw[:start]) {
		return nil, fmt.Errorf("%w: text before the '{'", ErrInvalid)
	}
	d := &decoder{scanner{b: raw, i: start}}
	p := &Payload{top: map[string]Value{}, tool: map[string]Value{}, joins: map[string]Value{}}
	if err := d.object(func(key []byte) error {
		k := unescape(key)
		if k != "tool_input" {
			v, err := d.value()
			p.top[k] = v
			return err
		}
		clear(p.tool)
		clear(p.joins)
		p.top[k] = Value{}
		if d.peek() != '{' {
			v, err := d.value()
			p.top[k] = v
			return err
		}
		return d.object(func(key []byte) error {
			k := unescape(key)
			if k == "edits" {
				clear(p.joins)
				if d.peek() == '[' {
					delete(p.tool, k)
					return p.edits(d)
				}
			}
			v, err := d.value()
			p.tool[k] = v
			return err
		})
	}); err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.b) {
		return nil, d.errorf("data after the object")
	}
	return p, nil
}

// ParseToolInputString applies, to a payload whose tool_input may be a
// string (beforeMCPExecution's, docs/mcp.md), the rule of the scripts: when
// the top-level tool_input is set (only a string can hold an object), its
// text is decoded as one JSON object with only JSON whitespace around it,
// with Decode's rules, and the members of that object are the tool_input
// members. When the text is not such an object (a raw NUL that \u0000
// put there, read as 01, is a control byte) it returns an error wrapping
// ErrInvalid, and there are no members: a hook that reads the arguments
// cannot decide, and one with a block rule fails closed.
func (p *Payload) ParseToolInputString() error {
	v := p.Top("tool_input")
	if !v.Set {
		return nil
	}
	clear(p.tool)
	d := &decoder{scanner{b: []byte(v.Text)}}
	err := d.object(func(key []byte) error {
		v, err := d.value()
		p.tool[unescape(key)] = v
		return err
	})
	if d.space(); err == nil && d.i < len(d.b) {
		err = d.errorf("data after the object")
	}
	if err != nil {
		clear(p.tool)
		return fmt.Errorf("the string tool_input: %w", err)
	}
	return nil
}

// edits reads a tool_input.edits array (MultiEdit's) at its '[' and sets
// the members "edits[].new_string" and "edits[].old_string": each the
// members of that name of the array's items, joined by a space, an item
// that is no object, or has no such member or a null, object or array
// there, giving "" (README, "Payload fields").
func (p *Payload) edits(d *decoder) error {
	var items [][2]string
	d.i++ // '['
	d.space()
	for first := true; ; first = false {
		if d.peek() == ']' && first {
			break
		}
		var item [2]string
		d.space()
		if d.peek() == '{' {
			if err := d.object(func(key []byte) error {
				v, err := d.value()
				switch unescape(key) {
				case "new_string":
					item[0] = v.Text
				case "old_string":
					item[1] = v.Text
				}
				return err
			}); err != nil {
				return err
			}
		} else if _, err := d.value(); err != nil {
			return err
		}
		items = append(items, item)
		d.space()
		if d.peek() != ',' {
			break
		}
		d.i++
	}
	if err := d.expect(']'); err != nil {
		return err
	}
	var news, olds []string
	for _, it := range items {
		news, olds = append(news, it[0]), append(olds, it[1])
	}
	p.joins["edits[].new_string"] = Value{Text: strings.Join(news, " "), Set: true}
	p.joins["edits[].old_string"] = Value{Text: strings.Join(olds, " "), Set: true}
	return nil
}

// decoder reads a payload with the scanner that the transcript reader
// shares (scan.go).
type decoder struct{ scanner }

func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrInvalid, d.i, fmt.Sprintf(format, args...))
}

func (d *decoder) expect(c byte) error {
	d.space()
	if d.peek() != c { // peek is 0 at the end
		return d.errorf("want %q", c)
	}
	d.i++
	return nil
}

// object reads an object at the '{' and calls member for each key, with the
// input positioned at the start of the value; member must consume the value.
func (d *decoder) object(member func(key []byte) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	d.space()
	if d.peek() == '}' {
		d.i++
		return nil
	}
	for {
		d.space()
		if d.peek() != '"' {
			return d.errorf("want a key")
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		d.space()
		if err := member(key); err != nil {
			return err
		}
		d.space()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return nil
		default:
			return d.errorf("want ',' or '}'")
		}
	}
}

// value reads any value. Containers are checked without recursion.
func (d *decoder) value() (Value, error) {
	d.space()
	if c := d.peek(); c == '{' || c == '[' {
		return Value{}, d.container()
	}
	return d.scalar(true)
}

// scalar reads a string, number, true, false or null.
func (d *decoder) scalar(decode bool) (Value, error) {
	start := d.i
	switch c := d.peek(); {
	case c == '"':
		raw, err := d.str()
		if err != nil || !decode {
			return Value{}, err
		}
		return Value{Text: unescape(raw), Set: true}, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(d.b[d.i:], []byte(lit)) {
				d.i += len(lit)
				if lit == "null" {
					return Value{}, nil
				}
				return Value{Text: lit, Set: true}, nil
			}
		}
		return Value{}, d.errorf("bad literal")
	case c == '-' || c >= '0' && c <= '9':
		if err := d.number(); err != nil {
			return Value{}, err
		}
		return Value{Text: string(d.b[start:d.i]), Set: true}, nil
	}
	return Value{}, d.errorf("want a value")
}

// number reads a number at d.i (scanner.number).
func (d *decoder) number() error {
	if problem := d.scanner.number(); problem != "" {
		return d.errorf("%s", problem)
	}
	return nil
}

// container checks one object or array, however deep, with an explicit stack.
func (d *decoder) container() error {
	const (
		key      = iota // after '{' or ',' in an object
		val             // after '[', ':' or ',' in an array
		afterVal        // after a value
	)
	var stack []byte
	state, first := val, false
	for {
		d.space()
		c := d.peek()
		if d.i >= len(d.b) {
			return d.errorf("unexpected end of input")
		}
		switch state {
		case key:
			if c == '}' && first {
				d.i++
				stack, state = stack[:len(stack)-1], afterVal
				break
			}
			if c != '"' {
				return d.errorf("want a key")
			}
			if _, err := d.str(); err != nil {
				return err
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			state, first = val, false
		case val:
			switch {
			case c == ']' && first:
				d.i++
				stack, state = stack[:len(stack)-1], afterVal
			case c == '{':
				d.i++
				stack, state, first = append(stack, '}'), key, true
			case c == '[':
				d.i++
				stack, state, first = append(stack, ']'), val, true
			default:
				if _, err := d.scalar(false); err != nil {
					return err
				}
				state = afterVal
			}
		case afterVal:
			top := stack[len(stack)-1]
			switch c {
			case ',':
				d.i++
				state, first = val, false
				if top == '}' {
					state = key
				}
			case top:
				d.i++
				stack = stack[:len(stack)-1]
			default:
				return d.errorf("want ',' or %q", top)
			}
		}
		if len(stack) == 0 {
			return nil
		}
	}
}

// str reads a string at its opening quote, checks it, and returns the raw
// text between the quotes (scanner.rawString).
func (d *decoder) str() ([]byte, error) {
	raw, problem := d.rawString()
	if problem != "" {
		return nil, d.errorf("%s", problem)
	}
	return raw, nil
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if hexVal(c) < 0 {
			return false
		}
	}
	return true
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

func hex4(b []byte) rune {
	return hexVal(b[0])<<12 | hexVal(b[1])<<8 | hexVal(b[2])<<4 | hexVal(b[3])
}

// unescape decodes checked string text and keeps every other byte as is.
func unescape(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch e := raw[i+1]; e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if r >= 0xD800 && r < 0xE000 {
				// A high surrogate pairs only with a low one that follows at once.
				if r < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if lo := hex4(raw[i+2 : i+6]); lo >= 0xDC00 && lo < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			if r == 0 {
				out = append(out, 0x01) // NUL is read as 01 (see the package comment)
			} else {
				out = utf8.AppendRune(out, r)
			}
			continue
		default: // '"', '\\', '/'
			out = append(out, e)
		}
		i += 2
	}
	return string(out)
}
