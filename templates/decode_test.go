package templates_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/payload"
	"github.com/hookify/hookify/payload/payloadtest"
	"github.com/hookify/hookify/templates"
)

// nulSafe tells whether an awk sees raw NUL bytes (see decode.awk, Known gaps).
var nulSafe = map[string]bool{"mawk": true, "gawk": true}

type awkEnv struct {
	name string
	sh   string // absolute path of sh
	dir  string // PATH for the programs: holds the awk under test as "awk", and tr
}

// awkEnvs returns one environment per awk (testenv.Awks), each a directory
// whose commands are that awk (testenv.AwkDir). It skips the test, or fails
// it under HOOKIFY_REQUIRE_TOOLS=1, when sh or an awk is missing.
func awkEnvs(t testing.TB) []awkEnv {
	t.Helper()
	sh := testenv.LookPath(t, "sh")
	var envs []awkEnv
	for _, a := range testenv.Awks {
		envs = append(envs, awkEnv{name: string(a), sh: sh, dir: testenv.AwkDir(t, a)})
	}
	return envs
}

// awkCase is one payload and the keys to ask for. With tool set, the
// script also runs the "readtool" reader of a beforeMCPExecution hook, and
// want must hold the top-level tool_input, followed by all the
// tool_input.NAME keys and nothing else (see toolWant).
type awkCase struct {
	name string
	in   []byte
	want []string
	tool bool
}

// toolWant orders keys as a beforeMCPExecution script asks for them: the
// top-level ones, tool_input, then the tool_input.NAME ones.
func toolWant(keys []string) []string {
	var top, tool []string
	for _, k := range keys {
		switch {
		case k == "tool_input":
		case strings.HasPrefix(k, "tool_input."):
			tool = append(tool, k)
		default:
			top = append(top, k)
		}
	}
	return append(append(top, "tool_input"), tool...)
}

// awkResult is what the hook code of the program saw.
type awkResult struct {
	ok   string // OK: "1" or ""
	vals []payload.Value
}

// reporter is the hook() of the test programs: it prints OK as "O1" or "O"
// (with A=1, " N" and NV after it), then each of the NW wanted keys as "U"
// (unset) or "S", its length, a newline and its value; with A=1, the same
// for every key in each view j of a patch (X[j, i]). With TN set, it first
// decodes a string tool_input (key SLOT) as a beforeMCPExecution hook does,
// for the names TN, into the keys after SLOT.
const reporter = `
function hook(   i, j) {
	if (TN != "" && OK && (SLOT in V)) dec_input(V[SLOT], TN, SLOT)
	print "O" (OK ? 1 : "") (PA ? " N" NV : "") "\n"
	for (i = 1; i <= NW; i++) if (i in V) show(V[i]); else print "U\n"
	if (PA && OK) for (j = 1; j <= NV; j++) for (i = 1; i <= NW; i++) if ((j, i) in X) show(X[j, i]); else print "U\n"
}
function show(v) { print "S" length(v) "\n" v "\n" }
`

// shQuote quotes s for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// invocation is the command line that runs the decoder with the reporter
// on the keys want; with tool, as a beforeMCPExecution hook (see awkCase),
// with patches, with A=1.
func invocation(want []string, tool, patches bool) string {
	args := []string{"awk", "-v", "W=" + strings.Join(want, " "), "-v", fmt.Sprint("NW=", len(want))}
	if tool {
		slot := slices.Index(want, "tool_input") + 1
		var names []string
		for _, k := range want[slot:] {
			names = append(names, strings.TrimPrefix(k, "tool_input."))
		}
		args = append(args, "-v", fmt.Sprint("SLOT=", slot), "-v", "TN="+strings.Join(names, " "))
	}
	if patches {
		args = append(args, "-v", "A=1", "-v", "PA=1")
	}
	for i, a := range args {
		args[i] = shQuote(a)
	}
	if patches {
		return strings.Join(args, " ") + " -f decode.awk -f patch.awk -f reporter.awk"
	}
	return strings.Join(args, " ") + " -f decode.awk -f nopatch.awk -f reporter.awk"
}

// writePrograms writes the decoder and the reporter into dir.
func writePrograms(t testing.TB, dir string) {
	t.Helper()
	for name, text := range map[string]string{"decode.awk": templates.DecodeAWK, "patch.awk": templates.PatchAWK, "nopatch.awk": templates.NoPatchAWK, "reporter.awk": reporter} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runCases runs every case through the decoder and the reporter with the
// awk of env (with patches, A=1), from one sh process, and returns what the
// reporter printed.
func runCases(t testing.TB, env awkEnv, cases []awkCase, patches bool) *output {
	t.Helper()
	dir := t.TempDir()
	writePrograms(t, dir)
	var sc strings.Builder
	for i, c := range cases {
		if err := os.WriteFile(filepath.Join(dir, "in"+strconv.Itoa(i)), c.in, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sc, "%s <in%d\n", invocation(c.want, c.tool, patches), i)
	}
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte(sc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := testenv.Command(t, env.sh, script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + env.dir, "LC_ALL=C"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("%s: sh: %v\nstderr:\n%s", env.name, err, stderr.Bytes())
	}
	return &output{t: t, awk: env.name, r: bufio.NewReader(&stdout)}
}

// output reads the reporter's lines and values.
type output struct {
	t   testing.TB
	awk string
	r   *bufio.Reader
}

func (o *output) line() string {
	s, err := o.r.ReadString('\n')
	if err != nil {
		o.t.Fatalf("%s: reading the output: %v", o.awk, err)
	}
	return strings.TrimSuffix(s, "\n")
}

// value reads "U" (unset) or "S", the length, a newline, the value and a
// newline.
func (o *output) value() payload.Value {
	l := o.line()
	if l == "U" {
		return payload.Value{}
	}
	n, err := strconv.Atoi(strings.TrimPrefix(l, "S"))
	if err != nil || !strings.HasPrefix(l, "S") {
		o.t.Fatalf("%s: bad output line %q", o.awk, l)
	}
	b := make([]byte, n+1)
	if _, err := io.ReadFull(o.r, b); err != nil || b[n] != '\n' {
		o.t.Fatalf("%s: short value", o.awk)
	}
	return payload.Value{Text: string(b[:n]), Set: true}
}

// runAWK runs every case through the decoder with the awk of env, and
// returns what the hook code of the program saw.
func runAWK(t testing.TB, env awkEnv, cases []awkCase) []awkResult {
	t.Helper()
	out := runCases(t, env, cases, false)
	res := make([]awkResult, len(cases))
	for i, c := range cases {
		ok := out.line()
		if !strings.HasPrefix(ok, "O") {
			t.Fatalf("%s: case %d: bad output line %q", env.name, i, ok)
		}
		res[i].ok = ok[1:]
		for range c.want {
			res[i].vals = append(res[i].vals, out.value())
		}
	}
	return res
}

func lookup(p *payload.Payload, key string) payload.Value {
	if k, ok := strings.CutPrefix(key, "tool_input."); ok {
		return p.ToolInput(k)
	}
	return p.Top(key)
}

func lookupJSON(d payloadtest.Doc, key string) payload.Value {
	if k, ok := strings.CutPrefix(key, "tool_input."); ok {
		if strings.Contains(k, "[]") {
			return payload.Value(d.Joins[k])
		}
		return payload.Value(d.Tool[k])
	}
	return payload.Value(d.Top[key])
}

func show(in []byte) string {
	if len(in) > 300 {
		return fmt.Sprintf("%q... (%d bytes)", in[:300], len(in))
	}
	return fmt.Sprintf("%q", in)
}

func showValue(v payload.Value) string {
	if !v.Set {
		return "unset"
	}
	if len(v.Text) > 100 {
		return fmt.Sprintf("%q... (%d bytes)", v.Text[:100], len(v.Text))
	}
	return fmt.Sprintf("%q", v.Text)
}

// check compares an awk result with payload.Decode and with encoding/json.
func check(t testing.TB, awk string, c awkCase, r awkResult) {
	t.Helper()
	p, err := payload.Decode(c.in)
	want := err == nil
	ref, rerr := payloadtest.JSON(c.in)
	// As a beforeMCPExecution hook, when it asks for a member: a string
	// tool_input that is not one JSON object leaves the hook undecided.
	if c.tool && want && slices.Index(c.want, "tool_input") < len(c.want)-1 {
		if err = p.ParseToolInputString(); err != nil {
			want = false
		}
		if t := ref.Top["tool_input"]; rerr == nil && ref.Valid && t.Set {
			ref.Tool, ref.Valid = payloadtest.ToolInputString(t.Text)
		}
	}
	if r.ok != "1" && r.ok != "" {
		t.Errorf("%s: %s: OK=%q, want 1 or empty; input %s", awk, c.name, r.ok, show(c.in))
		return
	}
	if got := r.ok == "1"; got != want {
		t.Errorf("%s: %s: awk valid=%v, payload.Decode valid=%v (%v); input %s", awk, c.name, got, want, err, show(c.in))
		return
	}
	if rerr == nil && ref.Valid != want {
		t.Errorf("%s: %s: encoding/json valid=%v, decoders valid=%v; input %s", awk, c.name, ref.Valid, want, show(c.in))
		return
	}
	if !want {
		return
	}
	for i, key := range c.want {
		got, dv := r.vals[i], lookup(p, key)
		if got != dv {
			t.Errorf("%s: %s: hk_%d (%s) = %s, payload.Decode says %s; input %s", awk, c.name, i+1, key, showValue(got), showValue(dv), show(c.in))
			continue
		}
		if rerr != nil {
			continue
		}
		jv := lookupJSON(ref, key)
		if !ref.ExactText {
			got, jv = payload.Value{Set: got.Set}, payload.Value{Set: jv.Set}
		}
		if got != jv {
			t.Errorf("%s: %s: hk_%d (%s) = %s, encoding/json says %s; input %s", awk, c.name, i+1, key, showValue(got), showValue(jv), show(c.in))
		}
	}
}

// runAll runs the cases with every awk, in parallel, and checks them.
// Inputs with raw NUL bytes are checked only with awks that see them.
func runAll(t *testing.T, cases []awkCase) {
	t.Helper()
	for _, env := range awkEnvs(t) {
		t.Run(env.name, func(t *testing.T) {
			t.Parallel()
			var mine []awkCase
			for _, c := range cases {
				if nulSafe[env.name] || bytes.IndexByte(c.in, 0) < 0 {
					mine = append(mine, c)
				}
			}
			for i, r := range runAWK(t, env, mine) {
				check(t, env.name, mine[i], r)
			}
		})
	}
}

var defaultWant = []string{"command", "cwd", "tool_input.file_path", "tool_input.content", "tool_input", "a", "file_path", "tool_input.edits[].new_string", "tool_input.edits[].old_string"}

// big repeats unit to about n bytes, never cutting it.
func big(n int, unit string) string { return strings.Repeat(unit, n/len(unit)+1) }

// tableCases hold the hand-written cases; want, when set, spells out the
// expected fields by key (unset keys omitted) so that the decoders are not
// only compared with each other.
var tableCases = []struct {
	name string
	in   string
	want map[string]string
}{
	{"plain", `{"command":"ls -la","cwd":"/tmp"}`, map[string]string{"command": "ls -la", "cwd": "/tmp"}},
	{"whitespace", " \t\r\n{ \"command\" :\n\t\"ls\" ,\r\n\"cwd\":\"/\" } \n\t\r ", map[string]string{"command": "ls", "cwd": "/"}},
	{"multi-line", "{\n  \"command\": \"ls\",\n  \"tool_input\": {\n    \"file_path\": \"/a\"\n  }\n}\n", map[string]string{"command": "ls", "tool_input.file_path": "/a"}},
	{"empty object", `{}`, map[string]string{}},
	{"simple escapes", `{"command":"\"\\\/\b\f\n\r\t"}`, map[string]string{"command": "\"\\/\b\f\n\r\t"}},
	{"escaped backslash before quote", `{"command":"a\\","cwd":"b\\\"c\\\\"}`, map[string]string{"command": `a\`, "cwd": `b\"c\\`}},
	{"escaped backslash before u", `{"command":"\\u0041\\\u0041"}`, map[string]string{"command": `\u0041\A`}},
	{"backslash runs", `{"command":"\\\\\\\"\\\\\\n\\\\\\\\"}`, map[string]string{"command": `\\\"\\\n\\\\`}},
	{"unicode escapes", `{"command":"\u0041\u00e9\u20AC\uFFFF\u0027\u005c\u0022\u002F"}`, map[string]string{"command": "Aé€\uffff'\\\"/"}},
	{"control escapes", `{"command":"\u0001\u001f\u007f\u000A"}`, map[string]string{"command": "\x01\x1f\x7f\n"}},
	{"escapes read at once", `{"command":"\u0026\u005c\u005C\u0022&\u0026\u0003\u0002\u0001\u0000\u00e9\u00E9\u2603\ud83d\ude00\ud83d\u0026\udfff","cwd":"\u0061\u0062\u0063\u0064\u0065\u0066\u0067\u0068\u0069\u006a\u0061"}`,
		map[string]string{"command": "&\\\\\"&&\x03\x02\x01\x01éé☃😀\uFFFD&\uFFFD", "cwd": "abcdefghija"}},
	{"surrogate pairs", `{"command":"\ud83d\ude00\uD834\uDD1E\udbff\udfff"}`, map[string]string{"command": "😀𝄞\U0010FFFF"}},
	{"lone high", `{"command":"a\ud800b"}`, map[string]string{"command": "a\uFFFDb"}},
	{"lone low", `{"command":"a\udc00b"}`, map[string]string{"command": "a\uFFFDb"}},
	{"high at end", `{"command":"a\udbff"}`, map[string]string{"command": "a\uFFFD"}},
	{"high high low", `{"command":"\ud800\ud83d\ude00"}`, map[string]string{"command": "\uFFFD😀"}},
	{"low high", `{"command":"\ude00\ud83d"}`, map[string]string{"command": "\uFFFD\uFFFD"}},
	{"high then escape", `{"command":"\ud83d\n\ude00"}`, map[string]string{"command": "\uFFFD\n\uFFFD"}},
	{"high then escaped backslash", `{"command":"\ud83d\\ude00"}`, map[string]string{"command": "\uFFFD\\ude00"}},
	{"high then quote", `{"command":"\ud83d\"\ude00"}`, map[string]string{"command": "\uFFFD\"\uFFFD"}},
	{"raw bytes kept", "{\"command\":\"\xff\xfe\xc3(\xed\xa0\x80\"}", map[string]string{"command": "\xff\xfe\xc3(\xed\xa0\x80"}},
	{"raw utf-8", `{"command":"café ☃ 😀"}`, map[string]string{"command": "café ☃ 😀"}},
	{"single quotes", `{"command":"it's '' '\\''"}`, map[string]string{"command": `it's '' '\''`}},
	{"shell syntax", `{"command":"$(rm -rf /) ` + "`id` ${HOME} $HOME \\\\$x \\\" ; & | > %s %d %%" + `"}`, map[string]string{"command": "$(rm -rf /) `id` ${HOME} $HOME \\$x \" ; & | > %s %d %%"}},
	{"eval breakout", `{"command":"'; touch pwned; '","cwd":"'\"$(touch pwned)\"'"}`, map[string]string{"command": "'; touch pwned; '", "cwd": `'"$(touch pwned)"'`}},
	{"trailing newlines", `{"command":"ls\n\n","cwd":"\n"}`, map[string]string{"command": "ls\n\n", "cwd": "\n"}},
	{"bom", "\xef\xbb\xbf{\"command\":\"ls\"}", map[string]string{"command": "ls"}},
	{"two boms", "\xef\xbb\xbf\xef\xbb\xbf{\"command\":\"ls\"}", map[string]string{"command": "ls"}},
	{"utf-16 marks", "\xff\xfe\xfe\xff{\"command\":\"ls\"}", map[string]string{"command": "ls"}},
	{"cursor framing", "n++{\"command\":\"ls\"}", map[string]string{"command": "ls"}},
	{"framing, marks and lines", "\xef\xbb\xbf\r\n n++\n\t\xef\xbb\xbf\n{\n\"command\"\n:\n\"ls\"\n}", map[string]string{"command": "ls"}},
	{"junk", "junk \"}]\n\xff\r\n[{\"command\":\"ls\"}", nil},
	{"junk lines", "\n\n\"\n{\n\"command\"\n:\n\"ls\"\n}", nil},
	{"one junk byte", "x{\"command\":\"ls\"}", nil},
	{"junk after the framing", "n++x{\"command\":\"ls\"}", nil},
	{"half a framing", "n+{\"command\":\"ls\"}", nil},
	{"non-ASCII before", "\xc3\xa9{\"command\":\"ls\"}", nil},
	{"free-form text", "*** Begin Patch\n*** Add File: a\n+{\"command\":\"ls\"}", nil},
	{"nested decoy", `{"x":{"command":"rm"},"command":"ls"}`, map[string]string{"command": "ls"}},
	{"nested decoy after", `{"command":"ls","x":{"command":"rm","y":["command"]}}`, map[string]string{"command": "ls"}},
	{"decoy only nested", `{"x":{"command":"rm"}}`, map[string]string{}},
	{"decoy in array", `{"x":[{"command":"rm"}],"y":[["command","rm"]]}`, map[string]string{}},
	{"key in string", `{"a":"\"command\":\"rm\"","command":"ls"}`, map[string]string{"a": `"command":"rm"`, "command": "ls"}},
	{"key in string only", `{"a":"{\"command\":\"rm\",\"tool_input\":{\"file_path\":\"/x\"}}"}`, map[string]string{"a": `{"command":"rm","tool_input":{"file_path":"/x"}}`}},
	{"key as value", `{"a":"command","b":"rm"}`, map[string]string{"a": "command"}},
	{"duplicate", `{"command":"a","command":"b"}`, map[string]string{"command": "b"}},
	{"duplicate null", `{"command":"a","command":null}`, map[string]string{}},
	{"duplicate object", `{"command":"a","command":{"command":"c"}}`, map[string]string{}},
	{"duplicate array", `{"command":"a","command":["c"]}`, map[string]string{}},
	{"duplicate after null", `{"command":null,"command":"b"}`, map[string]string{"command": "b"}},
	{"numbers", `{"command":-12.25E-3,"cwd":0,"a":1e5,"file_path":-0}`, map[string]string{"command": "-12.25E-3", "cwd": "0", "a": "1e5", "file_path": "-0"}},
	{"literals", `{"command":true,"cwd":false,"a":null,"file_path":[]}`, map[string]string{"command": "true", "cwd": "false"}},
	{"tool_input", `{"tool_input":{"file_path":"/a","content":"x\ny","n":3,"o":{"file_path":"rm"}},"file_path":"top"}`,
		map[string]string{"tool_input.file_path": "/a", "tool_input.content": "x\ny", "file_path": "top"}},
	{"tool_input erased", `{"tool_input":{"file_path":"a","content":"c"},"tool_input":{}}`, map[string]string{}},
	{"tool_input replaced", `{"tool_input":{"file_path":"a","content":"c"},"tool_input":{"file_path":"b"}}`, map[string]string{"tool_input.file_path": "b"}},
	{"tool_input not object", `{"tool_input":{"file_path":"a"},"tool_input":"x"}`, map[string]string{"tool_input": "x"}},
	{"tool_input number", `{"tool_input":{"file_path":"a"},"tool_input":5}`, map[string]string{"tool_input": "5"}},
	{"tool_input array", `{"tool_input":[{"file_path":"a"}]}`, map[string]string{}},
	{"tool_input null", `{"tool_input":{"file_path":"a"},"tool_input":null}`, map[string]string{}},
	{"tool_input duplicate member", `{"tool_input":{"file_path":"a","file_path":"b"}}`, map[string]string{"tool_input.file_path": "b"}},
	{"tool_input member null", `{"tool_input":{"file_path":"a","file_path":null}}`, map[string]string{}},
	{"tool_input nested", `{"x":{"tool_input":{"file_path":"rm"}},"tool_input":{"y":{"tool_input":{"file_path":"rm"}},"z":[{"file_path":"rm"}]}}`, map[string]string{}},
	{"tool_input then top", `{"tool_input":{"command":"rm"},"command":"ls"}`, map[string]string{"command": "ls"}},
	{"top key under tool_input", `{"tool_input":{"command":"rm","cwd":"/"}}`, map[string]string{}},
	{"escaped key", `{"comm\u0061nd":"rm","tool_\u0069nput":{"file_p\u0061th":"/x","\u0063ontent":"c"},"\u0061":"x"}`,
		map[string]string{"command": "rm", "tool_input.file_path": "/x", "tool_input.content": "c", "a": "x"}},
	{"escaped key, last wins", `{"command":"rm","comm\u0061nd":"ls","cwd":"\/","\u0063wd":"/w","c\u0077d":null}`, map[string]string{"command": "ls"}},
	{"escaped key, plain last", `{"comm\u0061nd":"rm","command":"ls"}`, map[string]string{"command": "ls"}},
	{"escaped tool_input erases", `{"tool_input":{"file_path":"a"},"tool\u005Finput":{"content":"c"}}`, map[string]string{"tool_input.content": "c"}},
	{"escaped key, other escapes", `{"\/command":"rm","command\n":"rm","comm\\and":"rm","\u0063\u006f\u006d\u006d\u0061\u006e\u0064":"ls"}`, map[string]string{"command": "ls"}},
	{"escaped key, quote", `{"comm\"and":"rm","\"":"q","command":"ls"}`, map[string]string{"command": "ls"}},
	{"key with quote", `{"command\"":"rm","\"command":"rm","command":"ls"}`, map[string]string{"command": "ls"}},
	{"near keys", `{"Command":"rm","commands":"rm","comman":"rm","command ":"rm"," command":"rm"}`, map[string]string{}},
	{"empty key", `{"":"1"}`, map[string]string{}},
	{"deep", strings.Repeat(`{"a":[`, 2000) + strings.Repeat(`]}`, 2000), map[string]string{}},
	{"deep then key", `{"a":` + strings.Repeat(`[`, 500) + strings.Repeat(`]`, 500) + `,"command":"ls"}`, map[string]string{"command": "ls"}},
	{"del byte", "{\"command\":\"\x7f\"}", map[string]string{"command": "\x7f"}},
	{"1 MB plain", `{"command":"` + big(1<<20, "abcdefgh ") + `","cwd":"/"}`, map[string]string{"command": big(1<<20, "abcdefgh "), "cwd": "/"}},
	{"1 MB escapes", `{"tool_input":{"content":"` + big(1<<20, `it's \"x\"\n\t\\ $(y) `) + `"},"command":"ls"}`, nil},
	{"256 KB unicode escapes", `{"command":"` + big(256<<10, `\u00e9\ud83d\ude00\u2603x\u0027`) + `"}`, nil},
	{"1 MB unwanted", `{"x":"` + big(1<<20, `{\"command\":\"rm -rf /\"} and some more text to skip \\ `) + `","command":"ls"}`, map[string]string{"command": "ls"}},
	{"big array", `{"x":[` + big(100000, `1,"a",{"command":"rm"},`) + `0],"command":"ls"}`, map[string]string{"command": "ls"}},

	{"multiedit", `{"tool_input":{"file_path":"a.js","edits":[{"old_string":"a","new_string":"console.log(1)"},{"new_string":"x\ny","old_string":null},{"old_string":"c","new_string":"z","new_string":"w"},"str",5,{"new_string":{"a":1}},{"new_string":7}]}}`, nil},
	{"multiedit escaped keys", `{"tool_input":{"\u0065dits":[{"new_\u0073tring":"a"},{"new_string":"b"}],"edits[].new_string":"literal"}}`, nil},
	{"multiedit replaced", `{"tool_input":{"edits":[{"new_string":"a"}],"edits":[{}]}}`, nil},
	{"multiedit not an array", `{"tool_input":{"edits":[{"new_string":"a"}],"edits":{"new_string":"b"}}}`, nil},
	{"multiedit nested", `{"tool_input":{"edits":[[{"new_string":"a"}],{"x":{"new_string":"b"}}]},"edits":[{"new_string":"top"}]}`, nil},
	{"empty input", ``, nil},
	{"only newline", "\n", nil},
	{"no brace", `"command":"ls"`, nil},
	{"array", `[1]`, nil},
	{"array of object", `[{"command":"ls"}]`, nil},
	{"open", `{`, nil},
	{"truncated", `{"command":"ls"`, nil},
	{"truncated after comma", `{"command":"ls",`, nil},
	{"truncated string", `{"command":"ls`, nil},
	{"truncated escape", `{"command":"ls\`, nil},
	{"truncated u", `{"command":"\u12`, nil},
	{"truncated nested", `{"command":"ls","x":{"y":[1,2`, nil},
	{"missing colon", `{"a" "b"}`, nil},
	{"trailing comma", `{"a":1,}`, nil},
	{"array trailing comma", `{"a":[1,]}`, nil},
	{"array leading comma", `{"a":[,1]}`, nil},
	{"leading comma", `{,"a":1}`, nil},
	{"double comma", `{"a":1,,"b":2}`, nil},
	{"missing comma", `{"a":1 "b":2}`, nil},
	{"missing comma strings", `{"a":"x""b":"y"}`, nil},
	{"two values", `{"a":1 2}`, nil},
	{"colon in array", `{"a":[1:2]}`, nil},
	{"key without value", `{"a":{"b"}}`, nil},
	{"leading zero", `{"a":01}`, nil},
	{"bare minus", `{"a":-}`, nil},
	{"plus", `{"a":+1}`, nil},
	{"dot", `{"a":.5}`, nil},
	{"trailing dot", `{"a":1.}`, nil},
	{"bad exponent", `{"a":1e}`, nil},
	{"hex number", `{"a":0x10}`, nil},
	{"bad literal", `{"a":tru}`, nil},
	{"literal suffix", `{"a":truex}`, nil},
	{"capital literal", `{"a":True}`, nil},
	{"NaN", `{"a":NaN}`, nil},
	{"split literal", "{\"a\":tr\nue}", nil},
	{"single quoted", `{'a':1}`, nil},
	{"unquoted key", `{a:1}`, nil},
	{"number key", `{1:1}`, nil},
	{"trailing data", `{"command":"ls"}x`, nil},
	{"trailing data next line", "{\"command\":\"ls\"}\n\nx", nil},
	{"two objects", `{"command":"ls"}{"command":"rm"}`, nil},
	{"extra brace", `{"a":1}}`, nil},
	{"mismatched", `{"a":[1}]`, nil},
	{"unicode nul", `{"command":"ls\u0000rm"}`, map[string]string{"command": "ls\x01rm"}},
	{"unicode nuls", `{"command":"\u0000\u0000x\u0000","cwd":"\u0000"}`, map[string]string{"command": "\x01\x01x\x01", "cwd": "\x01"}},
	{"unicode nul unwanted", `{"command":"ls","x":"\u0000"}`, map[string]string{"command": "ls"}},
	{"unicode nul in key", `{"\u0000":1,"command":"ls","comm\u0000and":"rm"}`, map[string]string{"command": "ls"}},
	{"unicode nul nested", `{"x":[{"y":"\u0000"}],"command":"ls"}`, map[string]string{"command": "ls"}},
	{"unicode nul in content", `{"tool_input":{"file_path":".env","content":"A=1\u0000console.log(x)"}}`, map[string]string{"tool_input.file_path": ".env", "tool_input.content": "A=1\x01console.log(x)"}},
	{"unicode nul before escapes", `{"command":"\u0000\\\u0000\"\u0000\n"}`, map[string]string{"command": "\x01\\\x01\"\x01\n"}},
	{"raw newline in string", "{\"command\":\"ls\nrm\"}", nil},
	{"raw tab in string", "{\"command\":\"ls\trm\"}", nil},
	{"raw cr in string", "{\"command\":\"ls\rrm\"}", nil},
	{"raw control in string", "{\"command\":\"ls\x01\"}", nil},
	{"raw escape byte", "{\"command\":\"\x1b[31m\"}", nil},
	{"bad escape", `{"command":"\x41"}`, nil},
	{"bad escape U", `{"command":"\U0041"}`, nil},
	{"bad escape apostrophe", `{"command":"\'"}`, nil},
	{"bad u", `{"command":"\u00g1"}`, nil},
	{"short u", `{"command":"\u41"}`, nil},
	{"backslash outside", `{"command":"ls"\n}`, nil},
	{"escaped quote outside", `{"a":1\"b":2}`, nil},
	{"vertical tab", "{\"a\":1\v}", nil},
	{"form feed", "{\"a\":1\f}", nil},
	{"control outside", "{\"a\":1\x01}", nil},
	{"nbsp", "{\"a\":1\xc2\xa0}", nil},
	{"bom inside", "{\xef\xbb\xbf\"a\":1}", nil},
	{"comment", `{"a":1 /* x */}`, nil},
}

func tableAWKCases() []awkCase {
	var cases []awkCase
	for _, tt := range tableCases {
		cases = append(cases, awkCase{name: tt.name, in: []byte(tt.in), want: defaultWant})
	}
	return cases
}

func TestDecodeTable(t *testing.T) {
	t.Parallel()
	// The explicit expectations, against payload.Decode.
	for _, tt := range tableCases {
		if tt.want == nil {
			continue
		}
		p, err := payload.Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: payload.Decode: %v", tt.name, err)
			continue
		}
		for _, key := range defaultWant {
			text, set := tt.want[key]
			if got := lookup(p, key); got != (payload.Value{Text: text, Set: set}) {
				t.Errorf("%s: %s = %s, want set=%v %q", tt.name, key, showValue(got), set, text)
			}
		}
	}
	runAll(t, tableAWKCases())
}

func TestDecodeWanted(t *testing.T) {
	t.Parallel()
	in := []byte(`{"command":"ls","cwd":"/","tool_input":{"file_path":"/a","command":"rm"},"file_path":"top"}`)
	cases := []awkCase{
		{"none", in, nil, false},
		{"one", in, []string{"command"}, false},
		{"order", in, []string{"tool_input.command", "cwd", "command", "tool_input.file_path", "file_path"}, false},
		{"repeated", in, []string{"command", "tool_input.file_path", "command", "tool_input.file_path", "command"}, false},
		{"missing", in, []string{"missing", "tool_input.missing", "tool_input.cwd"}, false},
		{"tool_input itself", in, []string{"tool_input", "tool_input.tool_input"}, false},
		{"repeated unset", []byte(`{"command":"ls","command":null,"tool_input":{"x":"1"},"tool_input":{}}`), []string{"command", "tool_input.x", "command", "tool_input.x"}, false},
	}
	runAll(t, cases)
}

// TestDecodeBadWanted: a W that breaks the contract makes every run invalid.
func TestDecodeBadWanted(t *testing.T) {
	in := []byte(`{"command":"ls"}`)
	for _, env := range awkEnvs(t) {
		for _, w := range []string{"1command", "tool_input.", "tool_input.a.b", "a-b", "x.command", "$(id)", "a,b"} {
			r := runAWK(t, env, []awkCase{{in: in, want: []string{"command", w}}})
			if r[0].ok != "" {
				t.Errorf("%s: W=%q: OK=%q, want empty", env.name, "command "+w, r[0].ok)
			}
		}
	}
}

// TestDecodeSpacing: W may hold several blanks between and around names.
func TestDecodeSpacing(t *testing.T) {
	for _, env := range awkEnvs(t) {
		// W="  command   cwd" names two keys; the third must stay unset.
		r := runAWK(t, env, []awkCase{{in: []byte(`{"command":"ls","cwd":"/"}`), want: []string{" ", "command ", " cwd"}}})[0]
		if r.ok != "1" || r.vals[0] != (payload.Value{Text: "ls", Set: true}) || r.vals[1] != (payload.Value{Text: "/", Set: true}) || r.vals[2].Set {
			t.Errorf("%s: W with extra blanks: %+v", env.name, r)
		}
	}
}

// TestDecodeRawNUL pins down the documented gap: mawk and gawk reject raw NUL
// bytes like payload.Decode; BWK and busybox awk cut lines at them. A NUL
// inside a string still makes every awk reject the input.
func TestDecodeRawNUL(t *testing.T) {
	inString := []awkCase{
		{"in string", []byte("{\"command\":\"ls\x00rm\"}"), defaultWant, false},
		{"in string, more lines", []byte("{\"command\":\"ls\x00\",\n\"cwd\":\"/\"}\n"), defaultWant, false},
		{"in key", []byte("{\"comm\x00and\":\"ls\"}"), defaultWant, false},
	}
	outside := []awkCase{
		{"after the object", []byte("{\"command\":\"ls\"}\x00"), defaultWant, false},
		{"between tokens", []byte("{\"command\":\"ls\"\x00}"), defaultWant, false},
		{"in junk", []byte("junk\x00\n{\"command\":\"ls\"}"), defaultWant, false},
	}
	for _, env := range awkEnvs(t) {
		for i, r := range runAWK(t, env, inString) {
			if r.ok != "" {
				t.Errorf("%s: NUL %s: OK=%q, want empty", env.name, inString[i].name, r.ok)
			}
		}
		res := runAWK(t, env, outside)
		if nulSafe[env.name] {
			for i, r := range res {
				check(t, env.name, outside[i], r)
			}
		}
	}
}

// TestDecodeGenerated runs a fixed sample of generated documents.
func TestDecodeGenerated(t *testing.T) {
	t.Parallel()
	n := 400
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var cases []awkCase
	valid := 0
	for i := range n {
		seed := make([]byte, 20+rng.IntN(400))
		for j := range seed {
			seed[j] = byte(rng.Uint32())
		}
		g := payloadtest.Generate(seed)
		if _, err := payload.Decode(g.Input); err == nil {
			valid++
		}
		cases = append(cases, awkCase{name: fmt.Sprintf("generated %d", i), in: g.Input, want: g.Want},
			awkCase{name: fmt.Sprintf("generated %d, tool_input string", i), in: g.Input, want: toolWant(g.Want), tool: true})
	}
	if valid < n/3 || valid > n*9/10 {
		t.Errorf("%d of %d generated documents are valid; the generator is off balance", valid, n)
	}
	runAll(t, cases)
}

// FuzzDecode builds a document from the fuzz input (see payloadtest.Generate)
// and checks every awk against payload.Decode and encoding/json.
func FuzzDecode(f *testing.F) {
	envs := awkEnvs(f)
	f.Fuzz(func(t *testing.T, seed []byte) {
		g := payloadtest.Generate(seed)
		for _, c := range []awkCase{
			{name: "fuzz", in: g.Input, want: g.Want},
			{name: "fuzz, tool_input string", in: g.Input, want: toolWant(g.Want), tool: true},
		} {
			for _, env := range envs {
				if nulSafe[env.name] || bytes.IndexByte(c.in, 0) < 0 {
					check(t, env.name, c, runAWK(t, env, []awkCase{c})[0])
				}
			}
		}
	})
}

// TestDecodeSkim damages bulk containers (payloadtest.Bulk), which
// decode.awk skims in chunks (dec_long, dec_skim), with each byte that can
// make or break a token, inserted, put in place of one or removed, mostly
// where the structure is, and checks every awk against payload.Decode and encoding/json.
func TestDecodeSkim(t *testing.T) {
	t.Parallel()
	docs, places := 4, 3
	if testing.Short() {
		docs, places = 2, 2
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []awkCase
	for i, seed := 0, uint64(0); i < docs; i, seed = i+1, seed+1 {
		bulk := payloadtest.Bulk(seed, 7)
		for len(bulk) > 24<<10 { // a few chunks are enough
			seed++
			bulk = payloadtest.Bulk(seed, 7)
		}
		heads := []string{`{"a":`, `{"tool_input":{"x":1,"edits":[{"new_string":"n"},`, `{"tool_input":{"content":"c","x":`}
		tails := []string{`,"command":"ls"}`, `],"file_path":"f"},"cwd":"/"}`, `},"command":"ls"}`}
		k := i % len(heads)
		doc := heads[k] + bulk + tails[k]
		cases = append(cases, awkCase{name: fmt.Sprintf("bulk %d", i), in: []byte(doc), want: defaultWant})
		// the places of the bytes that make the structure (and some in strings)
		var structure []int
		for j := range bulk {
			if strings.IndexByte(",:{}[]1e", bulk[j]) >= 0 {
				structure = append(structure, len(heads[k])+j)
			}
		}
		for _, b := range []byte(",:{}[]\"x0- \t.e\\") {
			for range places {
				at := structure[rng.IntN(len(structure))]
				ins := doc[:at] + string(b) + doc[at:]
				put := doc[:at] + string(b) + doc[at+1:]
				cases = append(cases,
					awkCase{name: fmt.Sprintf("bulk %d, %q inserted at %d", i, b, at), in: []byte(ins), want: defaultWant},
					awkCase{name: fmt.Sprintf("bulk %d, %q put at %d", i, b, at), in: []byte(put), want: defaultWant})
			}
		}
		for range places * 4 {
			at := structure[rng.IntN(len(structure))]
			cases = append(cases, awkCase{name: fmt.Sprintf("bulk %d, byte %d removed", i, at), in: []byte(doc[:at] + doc[at+1:]), want: defaultWant})
		}
	}
	runAll(t, cases)
}

func TestDecodeProgramText(t *testing.T) {
	for name, text := range map[string]string{"decode.awk": templates.DecodeAWK, "patch.awk": templates.PatchAWK, "nopatch.awk": templates.NoPatchAWK} {
		if strings.Contains(text, "'") {
			t.Errorf("%s holds a single quote; it cannot be inlined in single quotes", name)
		}
		if bytes.IndexFunc([]byte(text), func(r rune) bool { return r >= 0x80 }) >= 0 {
			t.Errorf("%s holds non-ASCII text", name)
		}
	}
}

// TestDecodeLargeValue decodes a 1 MB value with every awk. How long that
// takes is measured by BenchmarkDecode and bench/run.sh, not here.
func TestDecodeLargeValue(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow")
	}
	content := big(1<<20, "if (x) { return \"it's \\\"ok\\\"\"; }\n\t// café ☃ <&>\n")
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"hook_event_name": "preToolUse", "tool_input": map[string]string{"file_path": "/a.js", "content": content}, "cwd": "/"}); err != nil {
		t.Fatal(err)
	}
	for _, env := range awkEnvs(t) {
		r := runAWK(t, env, []awkCase{{name: "1 MB", in: doc.Bytes(), want: []string{"tool_input.content"}}})[0]
		if r.ok != "1" || r.vals[0] != (payload.Value{Text: content, Set: true}) {
			t.Errorf("%s: OK=%q, %d bytes (%q...); want OK=1 and the %d bytes of content", env.name, r.ok, len(r.vals[0].Text), r.vals[0].Text[:min(len(r.vals[0].Text), 40)], len(content))
		}
	}
}

// TestDecodeChunkBoundaries: decode.awk cuts lines, strings and structure
// longer than 8192 bytes into pieces of about 4096 (esc, dec, st), never
// inside an escape, between the two backslashes of a pair or the halves of
// a surrogate pair, or inside a token. Every escape and token is placed at
// every offset around the first two cuts, in a value, in a key and between
// values.
func TestDecodeChunkBoundaries(t *testing.T) {
	t.Parallel()
	units := []string{`\\`, `\"`, `\\\"`, `\\\\\\`, `\u00e9`, `\ud83d\ude00`, `\ud83d\ud83d\ude00`, `\ud83d`, `\n`, `\u0000`, `\\u0041`, `\/`, "é", "\xff"}
	var cases []awkCase
	add := func(name, in string) {
		cases = append(cases, awkCase{name: name, in: []byte(in), want: []string{"command", "cwd", "tool_input.content", "a"}})
	}
	lo, hi := 4088, 4100
	if testing.Short() {
		lo, hi = 4091, 4096
	}
	for _, u := range units {
		for shift := lo; shift <= hi; shift++ {
			pad := strings.Repeat("a", shift)
			body := pad + strings.Repeat(u, 3) + strings.Repeat("b", 4096-len(u)*3) + strings.Repeat(u, 3) + strings.Repeat("c", 700)
			add(fmt.Sprintf("%s at %d in a value", u, shift), `{"command":"`+body+`","cwd":"/"}`)
			add(fmt.Sprintf("%s at %d in a tool_input value", u, shift), `{"tool_input":{"content":"`+strings.Repeat("x", shift%7)+body+`"},"a":1}`)
			if shift%4 == 0 {
				add(fmt.Sprintf("%s at %d in a key", u, shift), `{"`+body+`":1,"command":"ls"}`)
			}
		}
	}
	for _, tok := range []string{"true", "false", "null", "-12.5e+3", "0", `"s"`, "{}", "[]"} {
		for shift := lo; shift <= hi; shift += 2 {
			items := strings.Repeat("1,", shift/2) + strings.Repeat(" ", shift%2) + strings.Repeat(tok+" , ", 2000/len(tok)) + tok
			add(fmt.Sprintf("%s at %d in an array", tok, shift), `{"a":[`+items+`],"command":"ls"}`)
			add(fmt.Sprintf("%s at %d after white space", tok, shift), `{"a":`+strings.Repeat(" ", shift)+strings.Repeat("\t", 4200)+tok+`,"command":"ls"}`)
		}
	}
	runAll(t, cases)
}

// realisticPayload is a preToolUse payload as Cursor sends it (raw UTF-8,
// escapes for quotes, backslashes and control characters) with about size
// bytes of file content.
func realisticPayload(size int) []byte {
	unit := "\tif (s.endsWith(\"\\\\\")) { return `it's ${x}`; } // café ☃\n"
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetEscapeHTML(false)
	content := strings.Repeat(unit, size/len(unit)+1)[:size]
	if err := enc.Encode(map[string]any{
		"conversation_id": "668320d2-2fd8-4888-b33c-2a466fec86e7", "generation_id": "490b90b7-a2ce-4c2c-bb76-cb77b125df2f",
		"hook_event_name": "preToolUse", "tool_name": "Write", "cwd": "/home/user/project",
		"tool_input":      map[string]string{"file_path": "/home/user/project/src/app.ts", "content": content},
		"workspace_roots": []string{"/home/user/project"},
	}); err != nil {
		panic(err)
	}
	return doc.Bytes()
}

// BenchmarkDecode times one awk run (process start included) per payload.
func BenchmarkDecode(b *testing.B) {
	want := "command cwd tool_input.file_path tool_input.content"
	for _, size := range []int{1 << 10, 100 << 10, 1 << 20} {
		in := realisticPayload(size)
		for _, env := range awkEnvs(b) {
			b.Run(fmt.Sprintf("%s/%dKB", env.name, size>>10), func(b *testing.B) {
				dir := b.TempDir()
				writePrograms(b, dir)
				for b.Loop() {
					cmd := testenv.Command(b, filepath.Join(env.dir, "awk"), "-v", "W="+want, "-v", "NW=4", "-f", "decode.awk", "-f", "nopatch.awk", "-f", "reporter.awk")
					cmd.Dir = dir
					cmd.Env = []string{"LC_ALL=C"}
					cmd.Stdin = bytes.NewReader(in)
					out, err := cmd.Output()
					if err != nil || !bytes.HasPrefix(out, []byte("O1\n")) {
						b.Fatalf("%v: %q", err, out[max(0, len(out)-100):])
					}
				}
			})
		}
	}
}

// toolStringCases are beforeMCPExecution payloads, whose tool_input is a
// string of JSON (docs/mcp.md), with the members a script must see; want
// nil: the text is not one JSON object, and the hook cannot decide.
var toolStringCases = []struct {
	name string
	in   string
	want map[string]string // tool_input.NAME → value; unset ones omitted
}{
	{"arguments", `{"tool_name":"q","tool_input":"{\"query\":\"SELECT 1\",\"limit\":5}"}`, map[string]string{"query": "SELECT 1", "limit": "5"}},
	{"an object", `{"tool_input":{"query":"a"}}`, map[string]string{"query": "a"}},
	{"white space around", `{"tool_input":" \n\t\r{\"query\" : \"a\"}\n "}`, map[string]string{"query": "a"}},
	{"lines", `{"tool_input":"{\n  \"query\": \"a\",\n  \"limit\": 1\n}\n"}`, map[string]string{"query": "a", "limit": "1"}},
	{"junk before", `{"tool_input":"x{\"query\":\"a\"}"}`, nil},
	{"a BOM before", "{\"tool_input\":\"\xef\xbb\xbf{\\\"query\\\":\\\"a\\\"}\"}", nil},
	{"data after", `{"tool_input":"{\"query\":\"a\"}x"}`, nil},
	{"two objects", `{"tool_input":"{\"query\":\"a\"}{}"}`, nil},
	{"escapes inside", `{"tool_input":"{\"query\":\"a\\\"b\\n\\\\c\\u00e9\"}"}`, map[string]string{"query": "a\"b\n\\cé"}},
	{"escaped structure", `{"tool_input":"\u007b\"query\"\u003a\"a\"\u007d"}`, map[string]string{"query": "a"}},
	{"unterminated", `{"tool_input":"{\"query\":\"a}"}`, nil},
	{"NUL inside", `{"tool_input":"{\"query\":\"a\\u0000\",\"limit\":1}"}`, map[string]string{"query": "a\x01", "limit": "1"}},
	{"NUL in a key inside", `{"tool_input":"{\"qu\\u0000ery\":\"a\",\"limit\":1}"}`, map[string]string{"limit": "1"}},
	{"NUL in the other argument", `{"tool_input":"{\"x\":\"\\u0000\",\"query\":\"DROP\"}"}`, map[string]string{"query": "DROP"}},
	{"raw tab inside a string", `{"tool_input":"{\"query\":\"a\tb\"}"}`, nil},
	{"control byte outside strings", `{"tool_input":"{\u0001\"query\":\"a\"}"}`, nil},
	{"a number", `{"tool_input":5}`, nil},
	{"an array", `{"tool_input":"[{\"query\":\"a\"}]"}`, nil},
	{"null", `{"tool_input":null}`, map[string]string{}},
	{"empty", `{"tool_input":"{}"}`, map[string]string{}},
	{"empty text", `{"tool_input":""}`, nil},
	{"raw NUL inside", `{"tool_input":"{\"x\":\"\u0000\",\"query\":\"DROP\"}"}`, nil},
	{"raw NUL in a key", `{"tool_input":"{\"qu\u0000ery\":\"DROP\"}"}`, nil},
	{"raw NUL after", `{"tool_input":"{\"query\":\"DROP\"}\u0000"}`, nil},
	{"the string last", `{"tool_input":{"query":"obj"},"tool_input":"{\"query\":\"str\"}"}`, map[string]string{"query": "str"}},
	{"the object last", `{"tool_input":"{\"query\":\"str\"}","tool_input":{"limit":"obj"}}`, map[string]string{"limit": "obj"}},
	{"duplicates inside", `{"tool_input":"{\"query\":\"a\",\"query\":\"b\",\"limit\":1,\"limit\":null}"}`, map[string]string{"query": "b"}},
	{"tool_input inside", `{"tool_input":"{\"tool_input\":\"x\",\"query\":{\"limit\":1}}"}`, map[string]string{"tool_input": "x"}},
	{"deeper keys", `{"tool_input":"{\"a\":{\"query\":\"no\"},\"b\":[\"limit\",1]}"}`, map[string]string{}},
}

var toolStringWant = toolWant([]string{"tool_name", "tool_input.query", "tool_input.limit", "tool_input.tool_input"})

// TestDecodeToolString runs the decoder as a beforeMCPExecution hook does
// (dstr) on payloads whose tool_input is a string.
func TestDecodeToolString(t *testing.T) {
	t.Parallel()
	var cases []awkCase
	for _, tt := range toolStringCases {
		p, err := payload.Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: payload.Decode: %v", tt.name, err)
			continue
		}
		if err := p.ParseToolInputString(); (err == nil) != (tt.want != nil) {
			t.Errorf("%s: ParseToolInputString: %v, want an error: %v", tt.name, err, tt.want == nil)
		}
		for _, key := range toolStringWant[2:] {
			name := strings.TrimPrefix(key, "tool_input.")
			text, set := tt.want[name]
			if got := p.ToolInput(name); got != (payload.Value{Text: text, Set: set}) {
				t.Errorf("%s: %s = %s, want set=%v %q", tt.name, key, showValue(got), set, text)
			}
		}
		cases = append(cases, awkCase{name: tt.name, in: []byte(tt.in), want: toolStringWant, tool: true})
	}
	runAll(t, cases)
}

// runPatchCases checks payloads read with A=1 against payload.DecodePatched:
// validity, the base values, and in each file's view (X[j, i]) the values
// of the patch keys (ir.PatchKeys; tool_name has none there).
func runPatchCases(t *testing.T, env awkEnv, cases []awkCase) {
	t.Helper()
	out := runCases(t, env, cases, true)
	line, value := out.line, out.value
	for _, c := range cases {
		var ok, np string
		fmt.Sscanf(line(), "O%s N%s", &ok, &np)
		if strings.HasPrefix(ok, "N") { // OK empty
			ok, np = "", strings.TrimPrefix(ok, "N")
		}
		p, err := payload.DecodePatched(c.in)
		views := 0
		if ok == "1" {
			views, _ = strconv.Atoi(np)
		}
		got := make([][]payload.Value, views+1)
		for j := range got {
			for range c.want {
				got[j] = append(got[j], value())
			}
		}
		if (ok == "1") != (err == nil) {
			t.Errorf("%s: awk valid=%v, DecodePatched: %v; input %s", env.name, ok == "1", err, show(c.in))
			continue
		}
		if err != nil {
			continue
		}
		if views != len(p.Files()) {
			t.Errorf("%s: NV=%d, DecodePatched has %d files; input %s", env.name, views, len(p.Files()), show(c.in))
			continue
		}
		for i, key := range c.want {
			if want := lookup(p, key); got[0][i] != want {
				t.Errorf("%s: %s = %s, want %s; input %s", env.name, key, showValue(got[0][i]), showValue(want), show(c.in))
			}
			for j, f := range p.Files() {
				var want payload.Value
				if name, ok := strings.CutPrefix(key, "tool_input."); ok {
					switch ir.PatchKeys[name] {
					case 'f':
						want = payload.Value{Text: f.Path, Set: true}
					case 'm':
						want = f.Move
					case 'a':
						want = payload.Value{Text: f.Added, Set: true}
					case 'r':
						want = payload.Value{Text: f.Removed, Set: true}
					}
				}
				if got[j+1][i] != want {
					t.Errorf("%s: file %d: %s = %s, want %s; input %s", env.name, j+1, key, showValue(got[j+1][i]), showValue(want), show(c.in))
				}
			}
		}
	}
}

// TestDecodePatches reads hand-written and generated ApplyPatch payloads
// (payloadtest.GeneratePatch) with every awk.
func TestDecodePatches(t *testing.T) {
	t.Parallel()
	want := payloadtest.GeneratePatch(nil).Want
	var cases []awkCase
	for _, in := range []string{
		`{"tool_name":"ApplyPatch","tool_input":{"patch":"*** Begin Patch\n*** Add File: .env\n+A=1\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n z\n*** Delete File: c\n*** End Patch\n"}}`,
		`{"tool_input":"*** Begin Patch\r\n*** Add File: .env\r\n+A=1\r\n*** End Patch"}`,
		`{"tool_input":" {\"patch\":1}"}`,
		`{"tool_input":{"diff":"*** Begin Patch\n*** Update File: a\n+1\n*** End Patch\n"},"tool_input":{"content":"x"}}`,
		"\xef\xbb\xbf\n*** Begin Patch\n*** Add File: x\n+{\"a\":1}\n*** End Patch\n",
		"junk\n*** Begin Patch\n*** Add File: x\n*** End Patch\n",
		`{"tool_input":{"patch":"--- a/x\n+++ b/x\n"}}`,
		`{"tool_input":{"patch":"*** Begin Patch\n*** Frobnicate File: x\n*** End Patch"}}`,
		`{"tool_input":{"patch":"*** Begin Patch\n*** End Patch\nmore"}}`,
		`{"tool_input":{"patch":5}}`,
	} {
		cases = append(cases, awkCase{in: []byte(in), want: want})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		seed := make([]byte, 10+rng.IntN(80))
		for j := range seed {
			seed[j] = byte(rng.Uint32())
		}
		g := payloadtest.GeneratePatch(seed)
		cases = append(cases, awkCase{in: g.Input, want: g.Want})
	}
	valid := 0
	for _, c := range cases {
		if _, err := payload.DecodePatched(c.in); err == nil {
			valid++
		}
	}
	if valid < len(cases)/4 || valid > len(cases)*9/10 {
		t.Errorf("%d of %d patch payloads are valid; the generator is off balance", valid, len(cases))
	}
	for _, env := range awkEnvs(t) {
		t.Run(env.name, func(t *testing.T) {
			t.Parallel()
			runPatchCases(t, env, cases)
		})
	}
}

// TestPatchKeysTable: patch.awk's table of the keys a patch view sets is
// ir.PatchKeys.
func TestPatchKeysTable(t *testing.T) {
	m := regexp.MustCompile(`split\("((?:[a-z_]+ [fmar] ?)+)", w, " "\)`).FindStringSubmatch(templates.PatchAWK)
	if m == nil {
		t.Fatal("no patch key table in patch.awk")
	}
	got := map[string]byte{}
	f := strings.Fields(m[1])
	for i := 0; i+1 < len(f); i += 2 {
		got[f[i]] = f[i+1][0]
	}
	if d := cmp.Diff(ir.PatchKeys, got); d != "" {
		t.Errorf("decode.awk's patch keys (-ir.PatchKeys +awk):\n%s", d)
	}
}
