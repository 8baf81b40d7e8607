// Package payloadtest helps test hook payload decoders: JSON says, using
// encoding/json only, what a decoder must report, so it shares no code with
// the decoders under test; Generate builds hostile documents from fuzz input.
package payloadtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Field is one reported field.
type Field struct {
	Text string
	Set  bool
}

// Doc is what encoding/json makes of a payload.
type Doc struct {
	// Valid is true for one JSON object after nothing but white space,
	// byte order mark bytes (EF BB BF FE FF) and "n++". Every U+0000 in a
	// string or key is read as the byte 01 (README, "Payload fields").
	Valid bool
	// ExactText is true when the document is valid UTF-8. Otherwise
	// encoding/json has replaced bad bytes with U+FFFD, so string values
	// must not be compared.
	ExactText bool
	// Top and Tool hold the last value of each top-level key and of each
	// member of the last top-level tool_input object, by decoded key.
	Top, Tool map[string]Field
	// Joins holds "edits[].new_string" and "edits[].old_string" when the
	// last tool_input.edits is an array: those members of its items
	// (strings, numbers and booleans as their text, anything else or none
	// as ""), joined by a space.
	Joins map[string]Field
}

// JSON reads raw as a hook payload. It fails only when encoding/json cannot
// judge the document (nesting deeper than it allows).
func JSON(raw []byte) (Doc, error) {
	var d Doc
	start := bytes.IndexByte(raw, '{')
	if start < 0 {
		return d, nil
	}
	for _, c := range []byte(strings.ReplaceAll(string(raw[:start]), "n++", "")) {
		if strings.IndexByte(" \t\r\n\xef\xbb\xbf\xfe\xff", c) < 0 {
			return d, nil
		}
	}
	doc := raw[start:]
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		if err != nil && strings.Contains(err.Error(), "exceeded max depth") {
			return d, err
		}
		return d, nil
	}
	d.ExactText = utf8.Valid(doc)
	d.Top, d.Tool, d.Joins = map[string]Field{}, map[string]Field{}, map[string]Field{}
	w := walker{doc: doc, dec: json.NewDecoder(bytes.NewReader(doc))}
	w.dec.UseNumber()
	if _, err := w.token(); err != nil { // the opening '{'
		return d, err
	}
	err := w.members(func(key string) error {
		f, obj, err := w.value()
		if err != nil {
			return err
		}
		if key == "tool_input" {
			clear(d.Tool)
			clear(d.Joins)
		}
		d.Top[key] = f
		if !obj {
			return nil
		}
		if key != "tool_input" {
			return w.skip()
		}
		return w.members(func(key string) error {
			from := w.dec.InputOffset()
			f, obj, err := w.value()
			if err != nil {
				return err
			}
			d.Tool[key] = f
			if key == "edits" {
				clear(d.Joins)
				seg := bytes.TrimLeft(w.doc[from:w.dec.InputOffset()], " \t\r\n:")
				if bytes.HasPrefix(seg, []byte("[")) {
					joins(d.Joins, seg)
				}
			}
			if obj {
				return w.skip()
			}
			return nil
		})
	})
	if err != nil {
		return d, err
	}
	d.Valid = true
	return d, nil
}

// joins sets the members of MultiEdit's edits array (JSON text) joined.
func joins(out map[string]Field, array []byte) {
	dec := json.NewDecoder(bytes.NewReader(array))
	dec.UseNumber()
	var items []any
	if dec.Decode(&items) != nil {
		return
	}
	for _, m := range []string{"new_string", "old_string"} {
		var parts []string
		for _, it := range items {
			text := ""
			if obj, ok := it.(map[string]any); ok {
				switch v := obj[m].(type) {
				case string:
					text = strings.ReplaceAll(v, "\x00", "\x01")
				case json.Number:
					text = string(v)
				case bool:
					text = fmt.Sprint(v)
				}
			}
			parts = append(parts, text)
		}
		out["edits[]."+m] = Field{Text: strings.Join(parts, " "), Set: true}
	}
}

// ToolInputString says what the tool_input members are when a payload's
// tool_input is the string text (beforeMCPExecution, docs/mcp.md): the
// members of the one JSON object that text holds, with only JSON whitespace
// around it; ok is false, and there are none, when text is not such an
// object (a raw NUL, read as 01, is a control byte there).
func ToolInputString(text string) (tool map[string]Field, ok bool) {
	doc := []byte(text)
	if !strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "{") || !json.Valid(doc) {
		return nil, false
	}
	tool = map[string]Field{}
	w := walker{doc: doc, dec: json.NewDecoder(bytes.NewReader(doc))}
	w.dec.UseNumber()
	if _, err := w.token(); err != nil {
		return nil, false
	}
	err := w.members(func(key string) error {
		f, obj, err := w.value()
		if err != nil {
			return err
		}
		tool[key] = f
		if obj {
			return w.skip()
		}
		return nil
	})
	if err != nil {
		return nil, false
	}
	return tool, true
}

type walker struct {
	doc []byte
	dec *json.Decoder
}

// token reads the next token, a string with each NUL read as 01.
func (w *walker) token() (json.Token, error) {
	t, err := w.dec.Token()
	if s, ok := t.(string); ok {
		return strings.ReplaceAll(s, "\x00", "\x01"), err
	}
	return t, err
}

// members calls member with each key of the object whose '{' has just
// been read, and reads the closing '}'.
func (w *walker) members(member func(key string) error) error {
	for w.dec.More() {
		t, err := w.token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return errors.New("payloadtest: a key is not a string")
		}
		if err := member(key); err != nil {
			return err
		}
	}
	_, err := w.token()
	return err
}

// value reads the next value, or the opening delimiter of a container, in
// which case obj tells whether it is an object and the caller must read the
// rest of it.
func (w *walker) value() (f Field, obj bool, err error) {
	t, err := w.token()
	if err != nil {
		return f, false, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			return f, false, w.skipFrom(1)
		}
		return f, true, nil
	case string:
		return Field{Text: t, Set: true}, false, nil
	case json.Number:
		return Field{Text: string(t), Set: true}, false, nil
	case bool:
		if t {
			return Field{Text: "true", Set: true}, false, nil
		}
		return Field{Text: "false", Set: true}, false, nil
	}
	return f, false, nil // null
}

// skip reads the rest of an object whose '{' has been read.
func (w *walker) skip() error { return w.skipFrom(1) }

func (w *walker) skipFrom(depth int) error {
	for depth > 0 {
		t, err := w.token()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}
