package testenv

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// BashQuote returns s as one bash word that expands to exactly s: an ANSI-C
// $'…' string in which backslash, quote, every control character and
// every byte that is not part of valid UTF-8 are escaped, and all other
// characters are kept as they are. Tests that compare a regex engine with
// bash's [[ =~ ]] embed their regexes and subjects with it (the generated
// hooks hold no bash: codegen/awkquote.String quotes their rule text). s
// must not contain NUL, which no shell string can hold.
func BashQuote(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		panic("testenv.BashQuote: NUL in string")
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
				b.WriteString(s[i : i+size])
				i += size - 1
			} else {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
			continue
		}
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\'':
			b.WriteString(`\'`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
