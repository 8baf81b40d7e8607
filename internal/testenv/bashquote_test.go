package testenv

import (
	"bytes"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzBashQuote checks that BashQuote gives one bash word that expands to
// exactly the input bytes, in real bash under LC_ALL=C.
func FuzzBashQuote(f *testing.F) {
	for _, s := range []string{
		"", "plain", "it's", `back\slash`, "$(rm -rf /)", "`id`", "%s%n", "EOF\n", "a\nb\r\nc\td",
		"\x01\x1f\x7f", "naïve ✅ 日本", "\xff\xfe invalid utf-8", `\x41 \n \' \\`, "'; echo pwned; '", "!history",
		"${HOME}", "\"", "*?[a]",
	} {
		f.Add(s)
	}
	bash := LookPath(f, "bash")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // NUL cannot be held by a shell string
		}
		q := BashQuote(s)
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("printf %s "+q+"\n"), "")
		if err != nil {
			t.Fatalf("BashQuote(%q) = %s does not parse: %v", s, q, err)
		}
		call := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if len(call.Args) != 3 {
			t.Fatalf("BashQuote(%q) = %s is %d words, want 1", s, q, len(call.Args)-2)
		}
		cmd := Command(t, bash, "-c", "export LC_ALL=C\nprintf %s "+q)
		cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		if !bytes.Equal(out, []byte(s)) {
			t.Fatalf("BashQuote(%q) = %s expands to %q", s, q, out)
		}
	})
}
