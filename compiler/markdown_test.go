package compiler

import "testing"

func TestPlainText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"**Bold** and *em* and `code`", "Bold and em and code"},
		{"# Title\n\nBody line one\nline two", "Title\n\nBody line one\nline two"},
		{"- one\n- two\n\n1. first\n2. second", "- one\n- two\n\n1. first\n2. second"},
		{"See [the docs](https://x.test/d) or <https://y.test>", "See the docs (https://x.test/d) or https://y.test"},
		{"```\nrm -rf \\*\n```", "rm -rf \\*"},
		// Escapes and references are resolved outside code, as a renderer would.
		{`Use \*args\* and 5 \< 6, C:\\path, \_x\_`, `Use *args* and 5 < 6, C:\path, _x_`},
		{"&amp; &lt;tag&gt; &copy; &#35; &#x41; &nosuch;", "& <tag> © # A &nosuch;"},
		{`\&amp; is written so`, `&amp; is written so`},
		{"`a\\*b &amp;` stays", "a\\*b &amp; stays"},
		{`a\b \ c\`, `a\b \ c\`},
		{"<div>\nhi <b>x</b>\n</div>\n\n    indented code\n\nInline <span>s</span>", "<div>\nhi <b>x</b>\n</div>\n\nindented code\n\nInline <span>s</span>"},
	} {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
