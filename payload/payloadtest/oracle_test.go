package payloadtest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// viaMap is the plain way to read a payload with encoding/json: a map of raw
// messages, each unquoted. It decodes keys, so it can only confirm JSON on
// documents whose keys (at the levels that count) hold no escapes. A NUL
// is read as 01, as JSON reads it.
func viaMap(t *testing.T, doc []byte) (top, tool map[string]Field) {
	t.Helper()
	field := func(raw json.RawMessage) Field {
		switch raw[0] {
		case '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			return Field{Text: nul01(s), Set: true}
		case '{', '[', 'n':
			return Field{}
		}
		return Field{Text: string(raw), Set: true}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	top, tool = map[string]Field{}, map[string]Field{}
	for k, raw := range m {
		top[nul01(k)] = field(raw)
	}
	if raw, ok := m["tool_input"]; ok && raw[0] == '{' {
		var ti map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ti); err != nil {
			t.Fatal(err)
		}
		for k, raw := range ti {
			tool[nul01(k)] = field(raw)
		}
	}
	return top, tool
}

func nul01(s string) string { return strings.ReplaceAll(s, "\x00", "\x01") }

func hasEscapedKey(m map[string]Field) bool {
	for k := range m {
		if strings.Contains(k, `\`) {
			return true
		}
	}
	return false
}

// TestJSONMatchesMap checks the token-based oracle against the plain map
// reading on generated documents.
func TestJSONMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	compared := 0
	for range 3000 {
		seed := make([]byte, 10+rng.IntN(300))
		for j := range seed {
			seed[j] = byte(rng.Uint32())
		}
		in := Generate(seed).Input
		d, err := JSON(in)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Valid || !d.ExactText || hasEscapedKey(d.Top) || hasEscapedKey(d.Tool) {
			continue
		}
		compared++
		top, tool := viaMap(t, in[bytes.IndexByte(in, '{'):])
		if diff := cmp.Diff(top, d.Top); diff != "" {
			t.Errorf("top-level fields of %q (-map +JSON):\n%s", in, diff)
		}
		if _, ok := top["tool_input"]; !ok && len(d.Tool) == 0 {
			continue
		}
		if diff := cmp.Diff(tool, d.Tool); diff != "" {
			t.Errorf("tool_input fields of %q (-map +JSON):\n%s", in, diff)
		}
	}
	if compared < 500 {
		t.Errorf("only %d documents compared", compared)
	}
}

func TestJSONInvalid(t *testing.T) {
	for _, in := range []string{"", "[1]", `{"a":1,}`, "{\"a\":\"\x00\"}", "{\"a\":\"\x01\"}", `{"a":1}x`} {
		d, err := JSON([]byte(in))
		if err != nil || d.Valid {
			t.Errorf("JSON(%q) = %+v, %v; want invalid", in, d, err)
		}
	}
	if _, err := JSON([]byte(`{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}")); err == nil {
		t.Error("JSON judged a document deeper than encoding/json allows")
	}
}

func TestGenerateDeterministic(t *testing.T) {
	seed := []byte("some fuzz input \x00\x01\x02\xff")
	a, b := Generate(seed), Generate(seed)
	if !bytes.Equal(a.Input, b.Input) || strings.Join(a.Want, " ") != strings.Join(b.Want, " ") {
		t.Error("Generate is not deterministic")
	}
	if g := Generate(nil); string(g.Input) != `{"command":""}` || len(g.Want) != 0 {
		t.Errorf("Generate(nil) = %q", g.Input)
	}
	raw := Generate([]byte("\xff{\"a\":1}"))
	if string(raw.Input) != `{"a":1}` {
		t.Errorf("raw mode: got %q", raw.Input)
	}
}
