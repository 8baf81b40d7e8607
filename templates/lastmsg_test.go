package templates_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/payload"
	"github.com/hookify/hookify/payload/payloadtest"
	"github.com/hookify/hookify/templates"
)

// lastmsgDriver prints, for each path on stdin, the hex of
// last_assistant_message of that file as the hook's functions read it.
const lastmsgDriver = `BEGIN { for (i = 1; i < 256; i++) ORD[sprintf("%c", i)] = i }
{
  hk_tread($0); m = hk_lastmsg(); h = ""
  for (j = 1; j <= length(m); j++) h = h sprintf("%02x", ORD[substr(m, j, 1)])
  print "=" h
}`

// TestLastMessageAWK: hk_tread and hk_lastmsg of hook.awk.tmpl, run by each
// awk on generated transcripts (payloadtest.GenerateTranscript: entries in
// any order, escapes, \u0000, NUL bytes, invalid UTF-8, damaged lines) and
// on a missing file and a directory, give payload.LastAssistantMessage's
// bytes exactly.
func TestLastMessageAWK(t *testing.T) {
	var prog bytes.Buffer
	err := template.Must(template.New("").Parse(templates.HookAWK)).Execute(&prog, map[string]any{
		"Wanted": `""`, "Data": "", "Decoder": "", "Body": lastmsgDriver, "Patches": false, "Transcript": true, "LastMessage": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prog.awk"), prog.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 20))
	n := 400
	if testing.Short() {
		n = 150
	}
	texts := []string{"", "\n", `{"role":"assistant","message":{"content":"a\u0000b\ud83d\ude00"}}`, "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}\x00"}
	for range n {
		texts = append(texts, payloadtest.GenerateTranscript(r))
	}
	var paths, want []string
	for i, text := range texts {
		p := filepath.Join(dir, fmt.Sprint("t", i, ".jsonl"))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		want = append(want, "="+hex.EncodeToString([]byte(payload.LastAssistantMessage(strings.ReplaceAll(text, "\x00", "\x01")))))
	}
	paths = append(paths, filepath.Join(dir, "missing"), dir)
	want = append(want, "=", "=")
	sh := testenv.LookPath(t, "sh")
	for _, a := range testenv.Awks {
		cmd := testenv.Command(t, sh, "-c", "awk -f prog.awk")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + testenv.AwkDir(t, a), "LC_ALL=C"}
		cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Fatalf("%s: %v\n%s", a, err, stderr.Bytes())
		}
		got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if len(got) != len(want) {
			t.Fatalf("%s: %d answers for %d transcripts", a, len(got), len(want))
		}
		bad := 0
		for i := range want {
			if got[i] != want[i] {
				if bad++; bad <= 5 {
					text, _ := os.ReadFile(paths[i])
					t.Errorf("%s: transcript %q:\n got  %s\n want %s", a, text, got[i], want[i])
				}
			}
		}
	}
}
