package powershell

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/payload"
	"github.com/hookify/hookify/payload/payloadtest"
)

// TestLastMessageOnDotNet runs the C# transliteration of the skeleton's
// hk_lastmsg (testdata/dotnet/lastmsg.cs), with the skeleton's regexes, on
// generated transcripts (payloadtest.GenerateTranscript), and requires the
// bytes of payload.LastAssistantMessage.
func TestLastMessageOnDotNet(t *testing.T) {
	mono, exe := monoExe(t, "lastmsg.cs")
	r := rand.New(rand.NewPCG(4, 20))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	inputs := []string{"", "\n", "{\"role\":\"assistant\",\"message\":{\"content\":\"a\\u0000b\"}}\x01"}
	for range n {
		inputs = append(inputs, strings.ReplaceAll(payloadtest.GenerateTranscript(r), "\x00", "\x01"))
	}
	var in bytes.Buffer
	for _, s := range inputs {
		fmt.Fprintf(&in, "%s\n", hex.EncodeToString([]byte(s)))
	}
	cmd := testenv.Command(t, mono, exe, hex.EncodeToString([]byte(templateRegex(t, "hk_ttok"))), hex.EncodeToString([]byte(templateRegex(t, "hk_esc"))))
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	bad, set := 0, 0
	for _, s := range inputs {
		if !sc.Scan() {
			t.Fatal("missing answers")
		}
		msg := payload.LastAssistantMessage(s)
		if msg != "" {
			set++
		}
		if got, want := sc.Text(), "="+hex.EncodeToString([]byte(msg)); got != want {
			if bad++; bad <= 10 {
				t.Errorf("transcript %q:\n got  %s\n want %s", s, got, want)
			}
		}
	}
	t.Logf("%d transcripts, %d with a message, %d disagreements", len(inputs), set, bad)
}
