package powershell

import (
	"errors"
	"strings"
	"testing"
)

func TestDotNetRegex(t *testing.T) {
	for _, c := range []struct{ ere, want string }{
		{``, ``},
		{`abc_09`, `abc_09`},
		{`a.b`, `a[\x00-\xFF]b`},
		{`^a$`, `\Aa\z`},
		{`(a|b)+`, `(?:a|b)+`},
		{`a()b`, `a(?:)b`},
		{`x(a|)y`, `x(?:a|)y`},
		{`\.\*\[\(\)\\\{\|\^\$\+\?`, `\.\*\[\(\)\\\{\|\^\$\+\?`},
		{`a}b]`, `a\}b\]`},
		{"a b\n\t", `a\x20b\x0A\x09`},
		{"caf\xc3\xa9", `caf\xC3\xA9`},
		{`[Aa][Bb]`, `[Aa][Bb]`},
		{`[]a]`, `[\x5Da]`},
		{`[^]a]`, `[\x00-\x5C\x5E-\x60b-\xFF]`},
		{`[a-]`, `[\x2Da]`},
		{`[-a]`, `[\x2Da]`},
		{`[--/]`, `[\x2D-\x2F]`},
		{`[\]`, `[\x5C]`},
		{`[[]`, `[\x5B]`},
		{`[a^]`, `[\x5Ea]`},
		{`[^\n]`, `[\x00-\x5B\x5D-mo-\xFF]`},
		{"[^\n]", `[\x00-\x09\x0B-\xFF]`},
		{"[\x80-\xbf]", `[\x80-\xBF]`},
		{`[[:digit:]x]`, `[0-9x]`},
		{`[[:space:]]`, `[\x09-\x0D\x20]`},
		{`[[:alpha:][:digit:]_]`, `[0-9A-Z\x5Fa-z]`},
		{`[^[:cntrl:]]`, `[\x20-\x7E\x80-\xFF]`},
		{"[^\x01-\xff]", `[\x00]`},
		{"[^\x00-\xff]", `[^\x00-\xFF]`},
		{`a{2}b{2,}c{0,3}`, `a{2}b{2,}c{0,3}`},
		{`a{255}`, `a{255}`},
		{`(a+)?`, `(?:a+)?`},
		{`(^a|b$)`, `(?:\Aa|b\z)`},
		{"(\n)?$", `(?:\x0A)?\z`},
	} {
		got, err := DotNetRegex(c.ere)
		if err != nil || got != c.want {
			t.Errorf("DotNetRegex(%q) = %q, %v; want %q", c.ere, got, err, c.want)
		}
	}
}

func TestDotNetRegexRefuses(t *testing.T) {
	for _, c := range []struct {
		ere    string
		offset int
		msg    string
	}{
		{`a(b`, 1, "unmatched ("},
		{`a)b`, 1, "unmatched )"},
		{`[ab`, 0, "unmatched ["},
		{`*a`, 0, "nothing to repeat"},
		{`a|+`, 2, "nothing to repeat"},
		{`(?:a)`, 1, "nothing to repeat"},
		{`^*`, 0, "cannot be repeated"},
		{`a$?`, 1, "cannot be repeated"},
		{`{2}`, 0, "nothing to repeat"},
		{`a{`, 1, "does not start an interval"},
		{`a{x}`, 1, "does not start an interval"},
		{`a{,3}`, 1, "does not start an interval"},
		{`a{256}`, 1, "over 255"},
		{`a{3,2}`, 1, "below its minimum"},
		{`(a)\1`, 3, "not a portable ERE escape"},
		{`\w`, 0, "not a portable ERE escape"},
		{`a\`, 1, "trailing backslash"},
		{`[[=a=]]`, 1, "not supported"},
		{`[[.a.]]`, 1, "not supported"},
		{`[[:word:]]`, 1, "unknown character class"},
		{`[[:alpha:]-z]`, 10, "starts at a character class"},
		{`[a-[:alpha:]]`, 3, "ends at a character class"},
		{`[z-a]`, 1, "below its start"},
		{`a+?`, 0, "second quantifier"},
		{`a**`, 0, "second quantifier"},
		{`(ab){2}{3}`, 0, "second quantifier"},
	} {
		got, err := DotNetRegex(c.ere)
		var ee *EREError
		if !errors.As(err, &ee) || ee.Offset != c.offset || !strings.Contains(ee.Msg, c.msg) {
			t.Errorf("DotNetRegex(%q) = %q, %v; want an error %q at offset %d", c.ere, got, err, c.msg, c.offset)
		}
	}
}
