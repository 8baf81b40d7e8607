// Package awkquote writes rule text as awk string literals that every
// supported awk reads back byte for byte: the one way rule text enters a
// generated awk program (codegen/bash) or a test's.
package awkquote

import (
	"fmt"
	"strings"
)

// maxLiteral is the longest string literal String writes: mawk rejects
// literals over 8191 bytes (docs/awk-engines.md §2).
const maxLiteral = 4000

// String returns s as an awk expression that every supported awk reads
// back as exactly s (docs/awk-engines.md §5, §10): a double-quoted string in
// which the printable ASCII characters other than ", \ and ' stand for
// themselves and every other byte is a three-digit octal escape (BWK ends a
// literal at a raw CR and reads \x greedily; the single quote would end the
// program's quoting in the sh wrapper). A string whose literal would be
// longer than maxLiteral bytes is written as several literals concatenated
// inside parentheses. It is the only way rule text enters an awk program.
// s must not contain NUL, which BWK and busybox awk cannot hold.
func String(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		panic("awkquote.String: NUL in string") // lowering rejects NUL
	}
	var pieces []string
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if b.Len() >= maxLiteral {
			b.WriteByte('"')
			pieces = append(pieces, b.String())
			b.Reset()
			b.WriteByte('"')
		}
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '\'':
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	if len(pieces) == 0 {
		return b.String()
	}
	pieces = append(pieces, b.String())
	return "(" + strings.Join(pieces, " ") + ")"
}
