package bash

import (
	"fmt"
	"strings"
)

// Quote returns s as one bash word that expands to exactly s: an ANSI-C
// $'…' string in which backslash, quote and every control character are
// escaped and all other bytes are kept as they are. It is the only way rule
// text enters a generated script. s must not contain NUL, which no shell
// string can hold.
func Quote(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		panic("bash.Quote: NUL in string") // lowering rejects NUL
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
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
