package payload

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// LastAssistantMessage returns the stop field last_assistant_message of a
// transcript (the file's bytes, each NUL already read as the byte 01, as
// the hooks read it): the text of the last assistant entry since the last
// user entry, or "" when there is none.
//
// Cursor's agent transcript (transcript_path, …/agent-transcripts/<id>.jsonl;
// griddynamics/rosetta docs/hooks/cursor.md at d6f54aaf, Cursor 3.9.16) is
// JSON lines, one entry a line:
//
//	{"role":"user","message":{"content":[{"type":"text","text":"<user_query>…</user_query>"}]}}
//	{"role":"assistant","message":{"content":[{"type":"text","text":"…"},{"type":"tool_use","name":"Shell","input":{…}}]}}
//	{"type":"turn_ended","status":"success"}
//
// (the readers of mem0ai/mem0 PR #6019, "Cursor agent transcripts use
// role == assistant at the top level", and QuesmaOrg/quesma-shipper
// internal/transforms/cursorjoin; README, "Payload fields"). The rules,
// shared with the hooks (templates/hook.awk.tmpl hk_lastmsg, the
// PowerShell twin's hk_lastmsg):
//
//   - The text is split at each "\n"; a line is an entry when it is exactly
//     one RFC 8259 object, with JSON white space around it (a CR before the
//     newline is white space). Any other line (blank, malformed, cut off,
//     holding a raw byte below 0x20 in a string, or a NUL, which is read as
//     01) is skipped.
//   - An entry's role is its top-level "role" member when that is a string;
//     its text is read from its top-level "message" member when that is an
//     object, from that object's "content" member: a string is the text; an
//     array gives the "text" members of its items that are objects whose
//     "type" member is the string "text" and whose "text" member is a
//     string, joined by "\n" (an array without such an item gives no text).
//     Duplicate keys: the last one wins (a later "message" or "content"
//     replaces the earlier one whole).
//   - Strings are decoded as the payload's are (every escape; a surrogate
//     pair gives 4-byte UTF-8, a lone surrogate U+FFFD; \u0000 the byte 01,
//     as a NUL byte of the file reads; other bytes, valid UTF-8 or not, as
//     they are), by a parser of its own. Keys are compared after decoding.
//   - An entry whose role is "user" forgets the message so far; one whose
//     role is "assistant" and that has a text makes that text the message.
//     Other entries (no role, another role, an assistant entry of tool calls
//     only) change nothing.
func LastAssistantMessage(transcript string) string {
	msg := ""
	for line := range strings.SplitSeq(transcript, "\n") {
		role, text, hasText, ok := transcriptEntry([]byte(line))
		switch {
		case !ok:
		case role == "user":
			msg = ""
		case role == "assistant" && hasText:
			msg = text
		}
	}
	return msg
}

// transcriptEntry reads one line of a transcript: ok is false when it is not
// one JSON object.
func transcriptEntry(line []byte) (role, text string, hasText, ok bool) {
	p := &jparser{b: line}
	p.space()
	v, good := p.value()
	p.space()
	if !good || p.i != len(p.b) || v.kind != '{' {
		return "", "", false, false
	}
	if r, found := v.member("role"); found && r.kind == '"' {
		role = r.s
	}
	m, found := v.member("message")
	if !found || m.kind != '{' {
		return role, "", false, true
	}
	c, found := m.member("content")
	if !found {
		return role, "", false, true
	}
	switch c.kind {
	case '"':
		return role, c.s, true, true
	case '[':
		var parts []string
		for _, it := range c.items {
			if it.kind != '{' {
				continue
			}
			ty, ok1 := it.member("type")
			tx, ok2 := it.member("text")
			if ok1 && ok2 && ty.kind == '"' && ty.s == "text" && tx.kind == '"' {
				parts = append(parts, tx.s)
			}
		}
		if len(parts) > 0 {
			return role, strings.Join(parts, "\n"), true, true
		}
	}
	return role, "", false, true
}

// jvalue is a parsed JSON value: kind is '{', '[', '"', or 'l' for a
// number, true, false or null.
type jvalue struct {
	kind  byte
	s     string   // a string's decoded bytes
	keys  []string // an object's decoded keys, in order
	items []jvalue // an object's values (beside keys), or an array's items
}

// member returns the value of the last member named k.
func (v jvalue) member(k string) (jvalue, bool) {
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == k {
			return v.items[i], true
		}
	}
	return jvalue{}, false
}

// jparser reads RFC 8259 JSON, strictly, from b.
type jparser struct {
	b []byte
	i int
}

func (p *jparser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\r' || p.b[p.i] == '\n') {
		p.i++
	}
}

func (p *jparser) eat(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *jparser) value() (jvalue, bool) {
	p.space()
	if p.i >= len(p.b) {
		return jvalue{}, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		v := jvalue{kind: '{'}
		if p.eat('}') {
			return v, true
		}
		for {
			p.space()
			k, ok := p.str()
			if !ok || !p.eat(':') {
				return v, false
			}
			x, ok := p.value()
			if !ok {
				return v, false
			}
			v.keys, v.items = append(v.keys, k), append(v.items, x)
			if p.eat('}') {
				return v, true
			}
			if !p.eat(',') {
				return v, false
			}
		}
	case c == '[':
		p.i++
		v := jvalue{kind: '['}
		if p.eat(']') {
			return v, true
		}
		for {
			x, ok := p.value()
			if !ok {
				return v, false
			}
			v.items = append(v.items, x)
			if p.eat(']') {
				return v, true
			}
			if !p.eat(',') {
				return v, false
			}
		}
	case c == '"':
		s, ok := p.str()
		return jvalue{kind: '"', s: s}, ok
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.b[p.i:], []byte(lit)) {
				p.i += len(lit)
				return jvalue{kind: 'l'}, true
			}
		}
		return jvalue{kind: 'l'}, p.number()
	}
}

func (p *jparser) digits() int {
	n := 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
func (p *jparser) number() bool {
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

// str reads a string at its opening quote and decodes it: \u0000 gives the
// byte 01.
func (p *jparser) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	p.i++
	var out []byte
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
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
			r, ok := p.hex()
			if !ok {
				return "", false
			}
			if r >= 0xD800 && r < 0xDC00 && p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
				save := p.i
				p.i += 2
				if lo, ok := p.hex(); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				} else {
					p.i = save // the next escape is read on its own
				}
			}
			switch {
			case r == 0:
				out = append(out, 1)
			case r >= 0xD800 && r < 0xE000:
				out = utf8.AppendRune(out, utf8.RuneError)
			default:
				out = utf8.AppendRune(out, r)
			}
		default:
			return "", false
		}
	}
	return "", false
}

// hex reads the four hex digits of a \u escape.
func (p *jparser) hex() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		v := hexVal(c)
		if v < 0 {
			return 0, false
		}
		r = r<<4 | v
	}
	p.i += 4
	return r, true
}
