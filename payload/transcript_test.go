package payload_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hookify/hookify/payload"
	"github.com/hookify/hookify/payload/payloadtest"
)

// TestLastAssistantMessage: payload.LastAssistantMessage gives what
// encoding/json makes of generated transcripts (payloadtest.LastAssistant),
// and of a few written out.
func TestLastAssistantMessage(t *testing.T) {
	entry := func(role, content string) string {
		return `{"role":"` + role + `","message":{"content":` + content + `}}`
	}
	cases := []string{
		"",
		entry("assistant", `"hi"`),
		entry("assistant", `"hi"`) + "\n" + entry("user", `"go"`),
		entry("user", `"go"`) + "\n" + entry("assistant", `[{"type":"text","text":"a"},{"type":"tool_use","name":"Shell","input":{}},{"type":"text","text":"b\u0000c"}]`) + "\n",
		entry("assistant", `"first"`) + "\n" + entry("assistant", `[{"type":"tool_use","name":"Shell"}]`) + "\r\n",
		entry("assistant", `"cut`) + "\n",
		"{\"role\":\"assistant\",\"message\":{\"content\":\"a\x01b\"}}",
	}
	r := rand.New(rand.NewPCG(20, 9))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		cases = append(cases, strings.ReplaceAll(payloadtest.GenerateTranscript(r), "\x00", "\x01"))
	}
	inexact, set := 0, 0
	for _, c := range cases {
		want, exact := payloadtest.LastAssistant(c)
		if !exact {
			inexact++
			continue
		}
		if want != "" {
			set++
		}
		if got := payload.LastAssistantMessage(c); got != want {
			t.Errorf("transcript %q:\n got  %q\n want %q", c, got, want)
		}
	}
	if set < len(cases)/5 {
		t.Errorf("only %d of %d transcripts have a last assistant message: the generator does not reach the field", set, len(cases))
	}
	t.Logf("%d transcripts, %d with a message, %d not compared (invalid UTF-8)", len(cases), set, inexact)
}

// FuzzLastAssistantMessage: payload.LastAssistantMessage gives what
// encoding/json makes of any transcript (payloadtest.LastAssistant); a
// seed that starts with 0xFF is the transcript itself, any other one seeds
// payloadtest.GenerateTranscript.
func FuzzLastAssistantMessage(f *testing.F) {
	f.Add([]byte("\xff" + `{"role":"assistant","message":{"content":[{"type":"text","text":"a\u0000b"}]}}`))
	f.Add([]byte("\xff" + `{"role":"user","message":{"content":"x"}}` + "\n" + `{"role":"assistant","message":{"content":"y"}}` + "\r\n"))
	f.Add([]byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, seed []byte) {
		text := ""
		if len(seed) > 0 && seed[0] == 0xFF {
			text = string(seed[1:])
		} else {
			var s1, s2 uint64
			for i, c := range seed {
				if i < 8 {
					s1 = s1<<8 | uint64(c)
				} else {
					s2 = s2<<8 | uint64(c)
				}
			}
			text = payloadtest.GenerateTranscript(rand.New(rand.NewPCG(s1, s2)))
		}
		text = strings.ReplaceAll(text, "\x00", "\x01") // as the hooks read the file
		want, exact := payloadtest.LastAssistant(text)
		if !exact {
			return
		}
		if got := payload.LastAssistantMessage(text); got != want {
			t.Errorf("transcript %q:\n got  %q\n want %q", text, got, want)
		}
	})
}
