package payload

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/payload/payloadtest"
)

// fields names a top-level key as "name" and a tool_input member as
// "tool_input.name". Keys not listed must be unset.
type fields map[string]Value

func s(text string) Value { return Value{Text: text, Set: true} }

var decodeTests = []struct {
	name string
	in   string
	want fields // nil: invalid
}{
	{"plain", `{"command":"ls -la","cwd":"/tmp"}`, fields{"command": s("ls -la"), "cwd": s("/tmp")}},
	{"whitespace", " \t\r\n{ \"command\" :\n\t\"ls\" ,\r\n\"cwd\":\"/\" } \n\t\r ", fields{"command": s("ls"), "cwd": s("/")}},
	{"empty object", `{}`, fields{}},
	{"simple escapes", `{"command":"\"\\\/\b\f\n\r\t"}`, fields{"command": s("\"\\/\b\f\n\r\t")}},
	{"escaped backslash before quote", `{"command":"a\\","cwd":"b\\\"c"}`, fields{"command": s(`a\`), "cwd": s(`b\"c`)}},
	{"escaped backslash before u", `{"command":"\\u0041\\\u0041"}`, fields{"command": s(`\u0041\A`)}},
	{"unicode escapes", `{"command":"\u0041\u00e9\u20AC\uFFFF\u0027\u005c"}`, fields{"command": s("Aé€\uffff'\\")}},
	{"control escapes", `{"command":"\u0001\u001f\u007f"}`, fields{"command": s("\x01\x1f\x7f")}},
	{"surrogate pair", `{"command":"\ud83d\ude00\uD834\uDD1E"}`, fields{"command": s("😀𝄞")}},
	{"lone high", `{"command":"a\ud800b"}`, fields{"command": s("a\uFFFDb")}},
	{"lone low", `{"command":"a\udc00b"}`, fields{"command": s("a\uFFFDb")}},
	{"high at end", `{"command":"a\udbff"}`, fields{"command": s("a\uFFFD")}},
	{"high high low", `{"command":"\ud800\ud83d\ude00"}`, fields{"command": s("\uFFFD😀")}},
	{"low high", `{"command":"\ude00\ud83d"}`, fields{"command": s("\uFFFD\uFFFD")}},
	{"high then escape", `{"command":"\ud83d\n\ude00"}`, fields{"command": s("\uFFFD\n\uFFFD")}},
	{"high then escaped backslash", `{"command":"\ud83d\\ude00"}`, fields{"command": s("\uFFFD\\ude00")}},
	{"high then letter", `{"command":"\ud83dx\ude00"}`, fields{"command": s("\uFFFDx\uFFFD")}},
	{"raw bytes kept", "{\"command\":\"\xff\xfe\xc3(\xed\xa0\x80\"}", fields{"command": s("\xff\xfe\xc3(\xed\xa0\x80")}},
	{"raw utf-8", `{"command":"café ☃ 😀"}`, fields{"command": s("café ☃ 😀")}},
	{"quotes and shell", `{"command":"it's $(rm -rf /) ` + "`id`" + ` \"x\""}`, fields{"command": s("it's $(rm -rf /) `id` \"x\"")}},
	{"trailing newlines", `{"command":"ls\n\n"}`, fields{"command": s("ls\n\n")}},
	{"bom", "\xef\xbb\xbf{\"command\":\"ls\"}", fields{"command": s("ls")}},
	{"two boms", "\xef\xbb\xbf\xef\xbb\xbf{\"command\":\"ls\"}", fields{"command": s("ls")}},
	{"junk", "junk \"}]\x00\n\xff[{\"command\":\"ls\"}", nil},
	{"marks, space and framing", "\xef\xbb\xbf\xff\xfe \r\n\tn++{\"command\":\"ls\"}", fields{"command": s("ls")}},
	{"nul before", "\x00{\"command\":\"ls\"}", nil},
	{"nested decoy", `{"x":{"command":"rm"},"command":"ls"}`, fields{"command": s("ls")}},
	{"nested decoy after", `{"command":"ls","x":{"command":"rm","y":["command"]}}`, fields{"command": s("ls")}},
	{"decoy in array", `{"x":[{"command":"rm"}],"y":[["command","rm"]]}`, fields{}},
	{"key in string", `{"a":"\"command\":\"rm\"","command":"ls"}`, fields{"a": s(`"command":"rm"`), "command": s("ls")}},
	{"key in string only", `{"a":"{\"command\":\"rm\"}"}`, fields{"a": s(`{"command":"rm"}`)}},
	{"duplicate", `{"command":"a","command":"b"}`, fields{"command": s("b")}},
	{"duplicate null", `{"command":"a","command":null}`, fields{}},
	{"duplicate object", `{"command":"a","command":{"command":"c"}}`, fields{}},
	{"duplicate after null", `{"command":null,"command":"b"}`, fields{"command": s("b")}},
	{"numbers", `{"a":0,"b":-0,"c":1.5e+10,"d":-12.25E-3,"e":10,"f":1e5}`,
		fields{"a": s("0"), "b": s("-0"), "c": s("1.5e+10"), "d": s("-12.25E-3"), "e": s("10"), "f": s("1e5")}},
	{"literals", `{"a":true,"b":false,"c":null,"d":[],"e":{},"f":[1,{"a":2}]}`, fields{"a": s("true"), "b": s("false")}},
	{"tool_input", `{"tool_input":{"file_path":"/a","content":"x\ny","n":3,"o":{"file_path":"rm"}},"file_path":"top"}`,
		fields{"tool_input.file_path": s("/a"), "tool_input.content": s("x\ny"), "tool_input.n": s("3"), "file_path": s("top")}},
	{"tool_input erased", `{"tool_input":{"file_path":"a"},"tool_input":{}}`, fields{}},
	{"tool_input replaced", `{"tool_input":{"file_path":"a","x":"1"},"tool_input":{"file_path":"b"}}`, fields{"tool_input.file_path": s("b")}},
	{"tool_input not object", `{"tool_input":{"file_path":"a"},"tool_input":"x"}`, fields{"tool_input": s("x")}},
	{"tool_input array", `{"tool_input":[{"file_path":"a"}]}`, fields{}},
	{"tool_input null", `{"tool_input":{"file_path":"a"},"tool_input":null}`, fields{}},
	{"tool_input duplicate member", `{"tool_input":{"file_path":"a","file_path":"b"}}`, fields{"tool_input.file_path": s("b")}},
	{"tool_input nested", `{"x":{"tool_input":{"file_path":"rm"}},"tool_input":{"y":{"tool_input":{"file_path":"rm"}}}}`, fields{}},
	{"escaped key", `{"comm\u0061nd":"rm","tool_\u0069nput":{"file_path":"rm"}}`, fields{"command": s("rm"), "tool_input.file_path": s("rm")}},
	{"key with quote", `{"a\"b":"1","command":"ls"}`, fields{`a"b`: s("1"), "command": s("ls")}},
	{"empty key", `{"":"1"}`, fields{"": s("1")}},
	{"deep", strings.Repeat(`{"a":[`, 2000) + strings.Repeat(`]}`, 2000), fields{}},
	{"del byte", "{\"a\":\"\x7f\"}", fields{"a": s("\x7f")}},

	{"empty input", ``, nil},
	{"no brace", `"command":"ls"`, nil},
	{"array", `[1]`, nil},
	{"array of object", `[{"command":"ls"}]`, nil},
	{"open", `{`, nil},
	{"truncated", `{"command":"ls"`, nil},
	{"truncated string", `{"command":"ls`, nil},
	{"truncated escape", `{"command":"ls\`, nil},
	{"truncated u", `{"command":"\u12`, nil},
	{"missing colon", `{"a" "b"}`, nil},
	{"trailing comma", `{"a":1,}`, nil},
	{"array trailing comma", `{"a":[1,]}`, nil},
	{"array leading comma", `{"a":[,1]}`, nil},
	{"leading comma", `{,"a":1}`, nil},
	{"double comma", `{"a":1,,"b":2}`, nil},
	{"missing comma", `{"a":1 "b":2}`, nil},
	{"two values", `{"a":1 2}`, nil},
	{"key without value", `{"a":{"b"}}`, nil},
	{"leading zero", `{"a":01}`, nil},
	{"bare minus", `{"a":-}`, nil},
	{"plus", `{"a":+1}`, nil},
	{"dot", `{"a":.5}`, nil},
	{"trailing dot", `{"a":1.}`, nil},
	{"bad exponent", `{"a":1e}`, nil},
	{"bad literal", `{"a":tru}`, nil},
	{"literal suffix", `{"a":truex}`, nil},
	{"capital literal", `{"a":True}`, nil},
	{"NaN", `{"a":NaN}`, nil},
	{"single quotes", `{'a':1}`, nil},
	{"unquoted key", `{a:1}`, nil},
	{"number key", `{1:1}`, nil},
	{"trailing data", `{"a":1}x`, nil},
	{"two objects", `{"a":1}{}`, nil},
	{"extra brace", `{"a":1}}`, nil},
	{"mismatched", `{"a":[1}]`, nil},
	{"unicode nul", `{"command":"ls\u0000rm"}`, fields{"command": s("ls\x01rm")}},
	{"unicode nul and 01", `{"command":"\u0000\u0001\u0000"}`, fields{"command": s("\x01\x01\x01")}},
	{"unicode nul in key", `{"\u0000":1,"comm\u0000and":"x"}`, fields{"\x01": s("1"), "comm\x01and": s("x")}},
	{"unicode nul nested", `{"x":[{"y":"\u0000"}],"command":"ls"}`, fields{"command": s("ls")}},
	{"unicode nul in tool_input", `{"tool_input":{"content":"a\u0000b","file_path":".env"}}`, fields{"tool_input.content": s("a\x01b"), "tool_input.file_path": s(".env")}},
	{"raw nul in string", "{\"command\":\"ls\x00rm\"}", nil},
	{"raw nul outside", "{\"command\":\"ls\"\x00}", nil},
	{"raw nul after", "{\"command\":\"ls\"}\x00", nil},
	{"raw newline in string", "{\"command\":\"ls\nrm\"}", nil},
	{"raw tab in string", "{\"command\":\"ls\trm\"}", nil},
	{"raw cr in string", "{\"command\":\"ls\rrm\"}", nil},
	{"raw control in string", "{\"command\":\"ls\x01\"}", nil},
	{"bad escape", `{"command":"\x41"}`, nil},
	{"bad escape U", `{"command":"\U0041"}`, nil},
	{"bad u", `{"command":"\u00g1"}`, nil},
	{"short u", `{"command":"\u41"}`, nil},
	{"vertical tab", "{\"a\":1\v}", nil},
	{"form feed", "{\"a\":1\f}", nil},
	{"nbsp", "{\"a\":1\xc2\xa0}", nil},
	{"bom inside", "{\xef\xbb\xbf\"a\":1}", nil},
	{"comment", `{"a":1 /* x */}`, nil},
}

func got(p *Payload) fields {
	f := fields{}
	for k, v := range p.top {
		if v.Set {
			f[k] = v
		}
	}
	for k, v := range p.tool {
		if v.Set {
			f["tool_input."+k] = v
		}
	}
	return f
}

func TestDecode(t *testing.T) {
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode([]byte(tt.in))
			if tt.want == nil {
				if err == nil {
					t.Fatalf("Decode(%q) = %v, want an error", tt.in, got(p))
				}
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v does not wrap ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got(p)); diff != "" {
				t.Errorf("Decode(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestAccessors(t *testing.T) {
	p, err := Decode([]byte(`{"command":"ls","n":null,"tool_input":{"file_path":"/a","x":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		got, want Value
	}{
		{p.Top("command"), s("ls")},
		{p.Top("n"), Value{}},
		{p.Top("missing"), Value{}},
		{p.Top("tool_input"), Value{}},
		{p.Top("file_path"), Value{}},
		{p.ToolInput("file_path"), s("/a")},
		{p.ToolInput("x"), Value{}},
		{p.ToolInput("command"), Value{}},
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: got %+v, want %+v", i, c.got, c.want)
		}
	}
	var nilP *Payload
	if nilP.Top("a").Set || nilP.ToolInput("a").Set {
		t.Error("a nil *Payload reports a set field")
	}
}

// compareJSON checks Decode against encoding/json, through payloadtest.
func compareJSON(t *testing.T, in []byte) {
	t.Helper()
	ref, err := payloadtest.JSON(in)
	if err != nil {
		t.Skipf("encoding/json cannot judge this input: %v", err)
	}
	p, derr := Decode(in)
	if (derr == nil) != ref.Valid {
		t.Fatalf("Decode(%q): error %v, but encoding/json says valid=%v", in, derr, ref.Valid)
	}
	if derr != nil {
		return
	}
	want := fields{}
	for k, v := range ref.Top {
		if v.Set {
			want[k] = Value(v)
		}
	}
	for k, v := range ref.Tool {
		if v.Set {
			want["tool_input."+k] = Value(v)
		}
	}
	g := got(p)
	if !ref.ExactText {
		setOnly(want, g)
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("Decode(%q) differs from encoding/json (-json +Decode):\n%s", in, diff)
	}

	// As a beforeMCPExecution hook reads it: tool_input a string of JSON.
	ti := ref.Top["tool_input"]
	if !ti.Set {
		return
	}
	perr := p.ParseToolInputString()
	refTool, ok := payloadtest.ToolInputString(ti.Text)
	if (perr == nil) != ok {
		t.Errorf("ParseToolInputString(%q): %v, encoding/json reads an object: %v", in, perr, ok)
	}
	want, g = fields{}, fields{}
	for k, v := range refTool {
		if v.Set {
			want[k] = Value(v)
		}
	}
	for k, v := range p.tool {
		if v.Set {
			g[k] = v
		}
	}
	if !ref.ExactText {
		setOnly(want, g)
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("ParseToolInputString(%q) differs from encoding/json (-json +ours):\n%s", in, diff)
	}
}

// setOnly keeps only whether each field is set: encoding/json has replaced
// bad UTF-8, so the texts cannot be compared.
func setOnly(fs ...fields) {
	for _, f := range fs {
		for k, v := range f {
			f[k] = Value{Set: v.Set}
		}
	}
}

func TestDecodeMatchesJSON(t *testing.T) {
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) { compareJSON(t, []byte(tt.in)) })
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, tt := range decodeTests {
		if len(tt.in) < 512 {
			f.Add([]byte(tt.in))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := Decode(in)
		if err == nil {
			for k, v := range p.top {
				if !v.Set && v.Text != "" {
					t.Fatalf("unset key %q has text %q", k, v.Text)
				}
			}
		}
		compareJSON(t, in)
	})
}

// FuzzGenerated checks Decode against encoding/json on generated hostile
// documents; templates.FuzzDecode does the same through the awks.
func FuzzGenerated(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add([]byte{7, 3, 1, 200, 14, 9, 9, 9, 1, 0, 5, 77, 31, 4})
	f.Fuzz(func(t *testing.T, seed []byte) {
		compareJSON(t, payloadtest.Generate(seed).Input)
	})
}
