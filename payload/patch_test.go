package payload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodePatched(t *testing.T) {
	set := func(s string) Value { return Value{Text: s, Set: true} }
	for _, tt := range []struct {
		name string
		in   string
		want []File // nil: invalid
	}{
		{"json patch", `{"tool_input":{"patch":"*** Begin Patch\n*** Add File: .env\n+A=1\n+B=2\n*** Update File: a.go\n*** Move to: b.go\n@@ x\n-old\n+new\n ctx\n*** End of File\n*** Delete File: c\n*** End Patch\n"}}`,
			[]File{{Path: ".env", Added: "A=1\nB=2\n"}, {Path: "a.go", Move: set("b.go"), Added: "new\n", Removed: "old\n"}, {Path: "c"}}},
		{"string tool_input, CRLF", "{\"tool_input\":\"*** Begin Patch\\r\\n*** Add File: x\\r\\n+y\\r\\n*** End Patch\"}", []File{{Path: "x", Added: "y\r\n"}}},
		{"diff and patch", `{"tool_input":{"diff":"*** Begin Patch\n*** Add File: d\n","patch":"*** Begin Patch\n*** Add File: p\n"}}`, []File{{Path: "p"}, {Path: "d"}}},
		{"JSON text tool_input", `{"tool_input":" {\"a\":1}"}`, []File{}},
		{"free-form", "\xef\xbb\xbfn++\r\n*** Begin Patch\n*** Add File: {x}\n+{\"a\":1}\n*** End Patch\n", []File{{Path: "{x}", Added: "{\"a\":1}\n"}}},
		{"junk before free-form", "x\n*** Begin Patch\n*** Add File: x\n", nil},
		{"unified diff", `{"tool_input":{"patch":"--- a/x\n+++ b/x\n@@ -1 +1 @@\n+y\n"}}`, nil},
		{"unknown header", `{"tool_input":{"patch":"*** Begin Patch\n*** Copy File: x\n"}}`, nil},
		{"text after the end", `{"tool_input":{"patch":"*** Begin Patch\n*** End Patch\nx"}}`, nil},
		{"move outside an update", `{"tool_input":{"patch":"*** Begin Patch\n*** Add File: x\n*** Move to: y\n"}}`, nil},
		{"white space after a path", "{\"tool_input\":{\"patch\":\"*** Begin Patch\\n*** Update File: a b \\t\\u000b\\f\\r\\r\\n*** Move to: c d\u00a0\u3000 \\n\"}}", []File{{Path: "a b", Move: set("c d")}}},
		{"only white space after a header", `{"tool_input":{"patch":"*** Begin Patch\n*** Add File:  \t\n"}}`, nil},
		{"empty path", `{"tool_input":{"patch":"*** Begin Patch\n*** Add File: \n"}}`, nil},
		{"a number", `{"tool_input":{"patch":5}}`, nil},
		// codex's parser trims a header line where a file section may start
		// (openai/codex, codex-rs/apply-patch/src/parser.rs, parse_one_hunk).
		{"indented header after an add", "{\"tool_input\":{\"patch\":\"*** Begin Patch\\n*** Add File: a\\n+hello\\n *** Add File: .env\\n+A=1\\n\\t*** Delete File: b\\n\u00a0*** Update File: c\\n+x\\n\u3000*** End Patch\\n\"}}",
			[]File{{Path: "a", Added: "hello\n"}, {Path: ".env", Added: "A=1\n"}, {Path: "b"}, {Path: "c", Added: "x\n"}}},
		{"indented first header", "*** Begin Patch\n \t*** Add File: .env \n+A=1\n", []File{{Path: ".env", Added: "A=1\n"}}},
		{"indented Begin Patch", "{\"tool_input\":\"\u00a0*** Begin Patch\u3000\\n*** Delete File: .env\\n\"}", []File{{Path: ".env"}}},
		{"indented header in an update is context", "*** Begin Patch\n*** Update File: a\n@@\n *** Add File: .env\n+x\n*** End Patch\n", []File{{Path: "a", Added: "x\n"}}},
		{"indented Move to is context", "*** Begin Patch\n*** Update File: a\n *** Move to: .env\n+x\n", []File{{Path: "a", Added: "x\n"}}},
		{"indented unknown header", "*** Begin Patch\n*** Add File: a\n+x\n\t*** Copy File: b\n", nil},
		{"white space after the end", "*** Begin Patch\n*** Delete File: a\n*** End Patch\u00a0\n\u3000\t\n", []File{{Path: "a"}}},
	} {
		p, err := DecodePatched([]byte(tt.in))
		if tt.want == nil {
			if err == nil {
				t.Errorf("%s: DecodePatched read %+v, want an error", tt.name, p.Files())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d := cmp.Diff(tt.want, append([]File{}, p.Files()...)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
}
