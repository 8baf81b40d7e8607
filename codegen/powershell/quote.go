package powershell

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Quote returns a PowerShell expression whose value is exactly s. It is the
// only way rule text enters a generated script.
//
// The result is one single-quoted (verbatim) string, in which nothing is
// special but the quote: PowerShell ends such a string at any of the five
// single-quote characters ' ‘ ’ ‚ ‛ (U+0027, U+2018-U+201B), and reads two
// of them in a row as one literal character, so each of them is doubled.
// Non-ASCII text stays as it is (generated scripts are UTF-8 with a BOM).
//
// Characters that an editor, git's line-ending conversion or a console
// could change or hide are never written raw: control characters (CR, LF,
// tab, ...), DEL, U+0085, U+2028, U+2029 and U+FEFF. A string holding any of
// them becomes a parenthesized concatenation that starts with a string,
// ('a' + [char]0x0A + 'b'), so that + always means string concatenation.
//
// s must be valid UTF-8 without NUL; Quote panics otherwise (callers check
// rule text first).
func Quote(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		panic("powershell.Quote: NUL in string")
	}
	if !utf8.ValidString(s) {
		panic("powershell.Quote: invalid UTF-8")
	}
	var parts []string
	var cur strings.Builder
	cur.WriteByte('\'')
	for _, r := range s {
		switch {
		case unsafeRune(r):
			cur.WriteByte('\'')
			if lit := cur.String(); lit != "''" || len(parts) == 0 {
				parts = append(parts, lit) // the first part is a string even if empty
			}
			parts = append(parts, fmt.Sprintf("[char]0x%02X", r))
			cur.Reset()
			cur.WriteByte('\'')
		case isSingleQuote(r):
			cur.WriteRune(r)
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
	}
	cur.WriteByte('\'')
	if len(parts) == 0 {
		return cur.String()
	}
	if last := cur.String(); last != "''" {
		parts = append(parts, last)
	}
	return "(" + strings.Join(parts, " + ") + ")"
}

// isSingleQuote reports whether PowerShell's tokenizer treats r as a
// single quote.
func isSingleQuote(r rune) bool {
	return r == '\'' || r >= 0x2018 && r <= 0x201B
}

// unsafeRune reports whether r is written as [char]0x.. rather than raw.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff
}
