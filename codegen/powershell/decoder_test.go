package powershell

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/payload"
	"github.com/hookify/hookify/payload/payloadtest"
	"github.com/hookify/hookify/templates"
)

// templateRegex returns the pattern of the regex that the skeleton assigns
// to variable name (a single-quoted literal without quotes inside).
func templateRegex(t *testing.T, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\$` + name + ` = \[System\.Text\.RegularExpressions\.Regex\]::new\('([^']*)'`).FindStringSubmatch(templates.PowerShellHook)
	if m == nil {
		t.Fatalf("no $%s regex in the PowerShell skeleton", name)
	}
	return m[1]
}

// decodeKeys are the keys the decoder test asks for.
var decodeKeys = []string{"command", "cwd", "tool_name", "tool_input", "n", "tool_input.file_path", "tool_input.content", "tool_input.command", "tool_input.edits", "tool_input.edits[].new_string", "tool_input.edits[].old_string"}

// randomPayload draws a hostile payload: every kind of value and escape,
// surrogates, raw and invalid UTF-8, decoy keys (other case, escaped,
// nested, inside strings), duplicates, repeated tool_input objects, BOMs and
// junk before the object, odd whitespace, and sometimes damage.
func randomPayload(r *rand.Rand) []byte {
	var b bytes.Buffer
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	ws := func() { b.WriteString(pick("", "", " ", "\n", "\t", "\r\n", "  ")) }
	keys := []string{"command", "cwd", "tool_name", "tool_input", "n", "file_path", "content", "Command", "comm\\u0061nd", "x", "tool_inpu", "\\\"command",
		"tool\\u005Finput", "\\u0063ontent", "file\\u005fpath", "\\/command", "command\\n", "\\u0074ool_name", "edits", "edits", "new_string", "old_string", "edits[].new_string",
		"comm\\u0000and", "\\u0000", "file_path\\u0000"}
	str := func() {
		b.WriteByte('"')
		for n := r.Intn(5); n > 0; n-- {
			b.WriteString(pick("a", "rm -rf /", "é", "✅", "\xff", "\xc3", "'", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t",
				"\\u00e9", "\\u0041", "\\ud83d\\ude00", "\\ud83d", "\\ude00x", "\\uD83D\\uDE00", "\\u0027", "\\u2028", "\\\\u0041", "\"command\":\"x\"", "{", "}"))
		}
		if r.Intn(12) == 0 {
			b.WriteString(pick("\\u0000", "\\u0000", "\\u0000", "\x01", "\\x", "\\u12", "\t"))
		}
		b.WriteByte('"')
	}
	var value func(depth int)
	object := func(depth int) {
		b.WriteByte('{')
		ws()
		for n := r.Intn(4); n > 0; n-- {
			b.WriteString(`"` + pick(keys...) + `"`)
			ws()
			b.WriteByte(':')
			ws()
			value(depth + 1)
			ws()
			if n > 1 {
				b.WriteByte(',')
				ws()
			}
		}
		b.WriteByte('}')
	}
	value = func(depth int) {
		switch k := r.Intn(10); {
		case k < 4:
			str()
		case k < 5:
			b.WriteString(pick("0", "-1", "12.50", "1e5", "-0.0E+2", "true", "false", "null", "01", "1.", "tru", "-"))
		case k < 7 && depth < 4:
			object(depth)
		case k < 8 && depth < 4:
			b.WriteByte('[')
			for n := r.Intn(3); n > 0; n-- {
				value(depth + 1)
				if n > 1 {
					b.WriteByte(',')
				}
			}
			b.WriteByte(']')
		default:
			str()
		}
	}
	b.WriteString(pick("", "", "\xef\xbb\xbf", "\xef\xbb\xbf\xef\xbb\xbf", "\xff\xfe", "n++", "\r\n\tn++\xef\xbb\xbf", "n+", "\xc3\xa9", "junk", "x\n"))
	object(0)
	ws()
	out := b.Bytes()
	if r.Intn(6) == 0 && len(out) > 0 {
		i := r.Intn(len(out))
		switch r.Intn(3) {
		case 0:
			out = out[:i]
		case 1:
			junk := "\x00 ,:{}[]\"x"
			out = append(out[:i:i], append([]byte{junk[r.Intn(len(junk))]}, out[i:]...)...)
		default:
			out = append(out, "}x"[r.Intn(2)])
		}
	}
	return out
}

// jsonString is b as a JSON string literal: quotes, backslashes and control
// bytes escaped (some other ASCII bytes too, as \u escapes), other bytes
// kept as they are.
func jsonString(r *rand.Rand, b []byte) string {
	var out strings.Builder
	out.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			out.WriteString(`\` + string(c))
		case c == '\n':
			out.WriteString(`\n`)
		case c < 0x20 || c < 0x80 && r.Intn(12) == 0:
			fmt.Fprintf(&out, `\u%04x`, c)
		case r.Intn(200) == 0:
			out.WriteString(`\u0000`) // a raw NUL in the text: no JSON object
			out.WriteByte(c)
		default:
			out.WriteByte(c)
		}
	}
	out.WriteByte('"')
	return out.String()
}

// randomToolPayload draws a beforeMCPExecution payload: its tool_input is a
// string holding a random (sometimes broken) payload, or an object.
func randomToolPayload(r *rand.Rand) []byte {
	ti := jsonString(r, randomPayload(r))
	if r.Intn(5) == 0 {
		ti = string(randomPayload(r))
	}
	return []byte(`{"tool_name":"q","tool_input":` + ti + `,"n":1}`)
}

// TestDecoderOnDotNet runs a C# transliteration of the skeleton's hk_read,
// hk_read_tool and hk_dec, with the skeleton's own regexes, on .NET (Mono)
// over random hostile payloads, and requires the answers of the reference
// decoder (package payload, which states decode.awk's rules): validity, and
// each key's presence and bytes; once as every hook reads a payload, once
// as a beforeMCPExecution hook does (tool_input a string of JSON).
func TestDecoderOnDotNet(t *testing.T) {
	mono, exe := monoExe(t, "decode.cs")
	r := rand.New(rand.NewSource(7))
	var inputs [][]byte
	for i := 0; i < 20000; i++ {
		inputs = append(inputs, randomPayload(r))
	}
	inputs = append(inputs, []byte(""), []byte("no object"), []byte(`{}`), []byte(`{"command":"a"}{`), []byte(`{"command":"a"} `+"\n"))
	runDotNet(t, mono, exe, inputs, false)

	var toolInputs [][]byte
	for i := 0; i < 5000; i++ {
		toolInputs = append(toolInputs, randomToolPayload(r))
	}
	toolInputs = append(toolInputs, []byte(`{"tool_input":" {\"command\":\"a\"} "}`), []byte(`{"tool_input":"x{\"command\":\"a\"}"}`))
	runDotNet(t, mono, exe, toolInputs, true)
}

// TestPatchDecoderOnDotNet runs the C# transliteration of the skeleton's
// hk_free and hk_patch, with the skeleton's regexes, on generated ApplyPatch
// payloads (payloadtest.GeneratePatch), and requires the files that
// payload.DecodePatched reads.
func TestPatchDecoderOnDotNet(t *testing.T) {
	mono, exe := monoExe(t, "decode.cs")
	keys := []string{"tool_name", "tool_input", "tool_input.patch", "tool_input.diff", "tool_input.file_path"}
	r := rand.New(rand.NewSource(9))
	var inputs [][]byte
	for i := 0; i < 3000; i++ {
		seed := make([]byte, 10+r.Intn(80))
		r.Read(seed)
		inputs = append(inputs, payloadtest.GeneratePatch(seed).Input)
	}
	sc := decodeOnDotNet(t, mono, exe, "P", keys, inputs)
	h := func(v payload.Value) string {
		if !v.Set {
			return "-"
		}
		return "=" + hex.EncodeToString([]byte(v.Text))
	}
	bad, files := 0, 0
	for _, p := range inputs {
		if !sc.Scan() {
			t.Fatal("missing answers")
		}
		want := "invalid"
		if d, err := payload.DecodePatched(p); err == nil {
			var f []string
			for _, k := range keys {
				if name, ok := strings.CutPrefix(k, "tool_input."); ok {
					f = append(f, h(d.ToolInput(name)))
				} else {
					f = append(f, h(d.Top(k)))
				}
			}
			for _, x := range d.Files() {
				files++
				f = append(f, "|", h(payload.Value{Text: x.Path, Set: true}), h(x.Move), h(payload.Value{Text: x.Added, Set: true}), h(payload.Value{Text: x.Removed, Set: true}))
			}
			want = strings.Join(f, " ")
		}
		if got := sc.Text(); got != want {
			if bad++; bad <= 10 {
				t.Errorf("payload %q:\n got  %s\n want %s", p, got, want)
			}
		}
	}
	t.Logf("%d patch payloads, %d files, %d disagreements", len(inputs), files, bad)
}

// runDotNet runs the C# decoder on inputs and compares its answers with the
// reference decoder's; with tool, both read tool_input as a string of JSON.
func runDotNet(t *testing.T, mono, exe string, inputs [][]byte, tool bool) {
	t.Helper()
	slot := "0"
	if tool {
		slot = fmt.Sprint(slices.Index(decodeKeys, "tool_input") + 1)
	}
	sc := decodeOnDotNet(t, mono, exe, slot, decodeKeys, inputs)
	bad, valid, members := 0, 0, 0
	for _, p := range inputs {
		if !sc.Scan() {
			t.Fatal("missing answers")
		}
		want := "invalid"
		d, err := payload.Decode(p)
		if err == nil && tool {
			err = d.ParseToolInputString()
		}
		if err == nil {
			valid++
			var f []string
			for _, k := range decodeKeys {
				var v payload.Value
				if name, ok := strings.CutPrefix(k, "tool_input."); ok {
					v = d.ToolInput(name)
					if v.Set {
						members++
					}
				} else {
					v = d.Top(k)
				}
				if v.Set {
					f = append(f, "="+hex.EncodeToString([]byte(v.Text)))
				} else {
					f = append(f, "-")
				}
			}
			want = strings.Join(f, " ")
		}
		if got := sc.Text(); got != want {
			if bad++; bad <= 10 {
				t.Errorf("tool=%v: payload %q:\n got  %s\n want %s", tool, p, got, want)
			}
		}
	}
	t.Logf("tool=%v: %d payloads (%d valid, %d tool_input members set), %d disagreements", tool, len(inputs), valid, members, bad)
}

// decodeOnDotNet runs the C# decoder (testdata/dotnet/decode.cs) with the
// skeleton's own regexes on inputs, one hex line each, and returns a scanner
// over its answers, one line an input. mode is the tool_input slot read as a
// string of JSON ("0": none), or "P" for patch payloads.
func decodeOnDotNet(t *testing.T, mono, exe, mode string, keys []string, inputs [][]byte) *bufio.Scanner {
	t.Helper()
	regexes := func(names ...string) (hexes []string) {
		for _, name := range names {
			hexes = append(hexes, hex.EncodeToString([]byte(templateRegex(t, name))))
		}
		return hexes
	}
	args := append([]string{exe}, regexes("hk_tok", "hk_esc", "hk_space", "hk_pre")...)
	args = append(args, mode)
	args = append(args, regexes("hk_phead", "hk_ppad", "hk_plead")...)
	args = append(args, keys...)
	var in bytes.Buffer
	for _, p := range inputs {
		fmt.Fprintf(&in, "%s\n", hex.EncodeToString(p))
	}
	cmd := testenv.Command(t, mono, args...)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	return sc
}
