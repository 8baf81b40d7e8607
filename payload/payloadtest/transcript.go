package payloadtest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// LastAssistant says, using encoding/json only, what the stop field
// last_assistant_message of a transcript is (payload.LastAssistantMessage
// states the rules): the text of the last assistant entry since the last
// user entry, "" when there is none. exact is false when a line it read as
// an entry is not valid UTF-8: encoding/json has replaced bad bytes with
// U+FFFD there, so the text must not be compared.
func LastAssistant(transcript string) (msg string, exact bool) {
	exact = true
	for _, line := range strings.Split(transcript, "\n") {
		b := []byte(line)
		t := bytes.TrimLeft(b, " \t\r")
		if !json.Valid(b) || len(t) == 0 || t[0] != '{' {
			continue
		}
		var entry map[string]json.RawMessage // the last duplicate wins
		if json.Unmarshal(b, &entry) != nil {
			exact = false // valid, but nested deeper than encoding/json reads
			continue
		}
		if !utf8.Valid(b) {
			exact = false
		}
		var role string
		if json.Unmarshal(entry["role"], &role) != nil {
			continue // no role, or not a string
		}
		switch role {
		case "user":
			msg = ""
		case "assistant":
			if text, ok := entryText(entry["message"]); ok {
				msg = text
			}
		}
	}
	return msg, exact
}

// entryText is the text of an entry's message, when it has one.
func entryText(message json.RawMessage) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(message, &m) != nil || m == nil {
		return "", false
	}
	content := m["content"]
	var s string
	if json.Unmarshal(content, &s) == nil && bytes.HasPrefix(bytes.TrimLeft(content, " \t\r\n"), []byte(`"`)) {
		return nul(s), true
	}
	var items []json.RawMessage
	if json.Unmarshal(content, &items) != nil || items == nil {
		return "", false
	}
	var parts []string
	for _, it := range items {
		var item map[string]json.RawMessage
		if json.Unmarshal(it, &item) != nil || item == nil {
			continue
		}
		var typ, text string
		if json.Unmarshal(item["type"], &typ) != nil || typ != "text" || !isString(item["text"]) || json.Unmarshal(item["text"], &text) != nil {
			continue
		}
		parts = append(parts, nul(text))
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

func isString(raw json.RawMessage) bool {
	return bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte(`"`))
}

// nul: the hooks read \u0000 as the byte 01, as a NUL byte of the file.
func nul(s string) string { return strings.ReplaceAll(s, "\x00", "\x01") }

// transcriptTexts are the texts of generated entries: escapes of every
// kind, \u0000, surrogates alone and in pairs, raw and invalid UTF-8, and
// JSON that a text only mentions.
var transcriptTexts = []string{
	"done", "all tests pass", "a", " ", `\n`, `\r\n`, `\t`, `\"`, `\\`, `\/`, `\b`, `\f`, `\u0000`, `a\u0000b`,
	`\u00e9`, "é", "😀", `\ud83d\ude00`, `\ud83d`, `\ude00x`, `\ud83d\u0041`, `\ud83d\\ude00`, `\u0041`,
	`\\u0041`, `{\"role\":\"assistant\"}`, `\"role\":\"user\"`, "\x7f", `\u2028`, "SECRET", `\u0001`,
}

// GenerateTranscript draws a transcript of Cursor's agent transcript lines
// (payload.LastAssistantMessage) from r: user and assistant entries in any
// order, content as a string or as parts (text, tool_use, thinking, parts
// without a type or with a text that is no string), other roles and keys,
// duplicate keys, escaped keys, entries without a role, turn_ended lines,
// blank lines, CRLF line ends, NUL bytes, and damaged lines (cut, a byte
// left out or added, raw control bytes, two objects on a line).
func GenerateTranscript(r *rand.Rand) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	text := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(5) {
			b.WriteString(transcriptTexts[r.IntN(len(transcriptTexts))])
		}
		if r.IntN(40) == 0 {
			b.WriteString(pick("\xff", "\xc3", "\xed\xa0\x80")) // invalid UTF-8
		}
		b.WriteByte('"')
		return b.String()
	}
	ws := func() string { return pick("", "", "", " ", "\t", "\r", " \r ") }
	part := func() string {
		switch r.IntN(9) {
		case 0:
			return `{"type":"tool_use","name":"Shell","input":{"command":` + text() + `}}`
		case 1:
			return `{"type":"thinking","text":` + text() + `}`
		case 2:
			return `{"text":` + text() + `}`
		case 3:
			return `{"type":"text","text":` + pick("null", "1", `["x"]`, `{"text":"x"}`) + `}`
		case 4:
			return `{"type":"text","text":` + text() + `,"type":"tool_use"}`
		case 5:
			return `{"text":` + text() + `,` + ws() + `"type"` + ws() + `:` + ws() + `"text"}`
		case 6:
			return pick(text(), "null", "[]", `[{"type":"text","text":"nested"}]`)
		case 7:
			return `{"t\u0079pe":"t\u0065xt","te\u0078t":` + text() + `}`
		}
		return `{"type":"text",` + ws() + `"text":` + text() + `}`
	}
	content := func() string {
		switch r.IntN(6) {
		case 0:
			return text()
		case 1:
			return pick("null", "1", "{}", `{"type":"text","text":"x"}`, "[]")
		}
		var parts []string
		for range 1 + r.IntN(3) {
			parts = append(parts, part())
		}
		return "[" + ws() + strings.Join(parts, ","+ws()) + ws() + "]"
	}
	message := func() string {
		switch r.IntN(8) {
		case 0:
			return pick("null", `"hi"`, "[]", "{}", `{"content":null}`)
		case 1:
			return `{"content":` + content() + `,"content":` + content() + `}`
		case 2:
			return `{"role":"assistant","content":` + content() + `,"model":"x"}`
		}
		return `{` + ws() + `"content"` + ws() + `:` + ws() + content() + ws() + `}`
	}
	entry := func() string {
		role := pick(`"user"`, `"assistant"`, `"assistant"`, `"assistant"`, `"assistant"`, `"assistant"`, `"system"`, `"Assistant"`, `"assistant "`, "null", "1", `"\u0061ssistant"`, `"us\u0065r"`)
		switch r.IntN(10) {
		case 0:
			return `{"type":"turn_ended","status":"success"}`
		case 1:
			return `{"message":` + message() + `,"role":` + role + `}`
		case 2:
			return `{"role":` + role + `,"message":` + message() + `,"message":` + message() + `}`
		case 3:
			return `{"role":"user","role":` + role + `,"message":` + message() + `}`
		case 4:
			return `{"r\u006fle":` + role + `,"message":` + message() + `}`
		case 5:
			return `{"role":` + role + `,"message":` + message() + `,"extra":{"role":"user","message":{"content":"x"}}}`
		case 6:
			// literals, valid and not, and keys with escapes
			return `{"n":` + pick("0", "-0", "12.5e3", "1E-5", "true", "false", "null", "01", "1.", "-", "+1", ".5", "1e", "tru", "nul", "0x1") +
				`,"k\"e\\y":[1,true,null,{}],"role":` + role + `,"message":` + message() + `}`
		}
		return ws() + `{` + ws() + `"role"` + ws() + `:` + ws() + role + `,` + ws() + `"message":` + message() + ws() + `}` + ws()
	}
	damage := func(s string) string {
		if s == "" {
			return "x"
		}
		i := r.IntN(len(s))
		switch r.IntN(7) {
		case 0:
			return s[:i]
		case 1:
			return s[:i] + s[i+1:]
		case 2:
			return s[:i] + pick("\x00", "\x01", "\x0b", "\x0c", "\t", "\r", "\x7f", "é", "\xff", `\`, `"`, "}", ",", `\u000`, `\x`, "\u2028") + s[i:]
		case 3:
			return s + s
		case 4:
			return s + ","
		case 5:
			return "[" + s + "]"
		}
		return s + pick(" ", "\r", " x")
	}
	var lines []string
	for range r.IntN(8) {
		line := entry()
		switch r.IntN(8) {
		case 0:
			line = damage(line)
		case 1:
			line = pick("", " ", "\r", "\x00", "null", `"text"`)
		}
		lines = append(lines, line)
	}
	t := strings.Join(lines, pick("\n", "\n", "\r\n", "\n\n"))
	if r.IntN(2) == 0 {
		t += "\n"
	}
	return t
}
