package payload

import (
	"bytes"
	"strings"
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
	p := &jparser{scanner{b: line}}
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

// jparser reads RFC 8259 JSON, strictly, with the payload decoder's
// scanner (scan.go).
type jparser struct{ scanner }

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
		return jvalue{kind: 'l'}, p.number() == ""
	}
}

// str reads a string at its opening quote and decodes it as the payload
// decoder does (unescape: \u0000 gives the byte 01).
func (p *jparser) str() (string, bool) {
	raw, problem := p.rawString()
	if problem != "" {
		return "", false
	}
	return unescape(raw), true
}
