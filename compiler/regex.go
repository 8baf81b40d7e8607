package compiler

import "strings"

// DefaultTranslator translates hookify regexes for the bash backend.
var DefaultTranslator Translator = literalOnly

// literalOnly accepts patterns without regex syntax and refuses the rest. It
// stands in until the full translator lands.
func literalOnly(p string) (string, *RegexError) {
	if i := strings.IndexAny(p, `\.^$|?*+()[]{}`); i >= 0 {
		return "", &RegexError{Offset: i, Msg: "regex syntax is not supported yet", Hint: "use a literal pattern"}
	}
	var b strings.Builder
	for _, r := range p {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteString("[" + string(r-32) + string(r) + "]")
		case r >= 'A' && r <= 'Z':
			b.WriteString("[" + string(r) + string(r+32) + "]")
		case r >= 0x80:
			return "", &RegexError{Offset: strings.IndexRune(p, r), Msg: "non-ASCII text is not supported yet"}
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}
