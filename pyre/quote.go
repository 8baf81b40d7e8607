package pyre

import (
	"fmt"
	"strings"
)

// BashQuote returns s as a bash ANSI-C quoted word $'…': printable ASCII as is,
// \\ for a backslash, \' for a quote, \n for a newline, and \xHH for every other
// byte. It is how the code generator embeds an ERE (re=<BashQuote(ere)>, then
// [[ $v =~ $re ]] with $re unquoted). bash cuts a $'…' string at NUL, so s must not
// contain NUL; ERE never emits one.
func BashQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\'':
			b.WriteString(`\'`)
		case c == '\n':
			b.WriteString(`\n`)
		case c >= 0x20 && c < 0x7F:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
