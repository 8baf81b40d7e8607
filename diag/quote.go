package diag

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Quote shows a value in a message: in backquotes, as written
// (backslashes are not escaped), or Go-quoted when it holds a backquote or
// a control character. Long values are cut.
func Quote(s string) string {
	if len(s) > 80 {
		i := 77
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "..."
	}
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r == '`' || r < 0x20 || r == 0x7f }) {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}
