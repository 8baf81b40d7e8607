package pyre

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// Common pieces of expected EREs.
const (
	sp  = "([\t-\r\x1c- ]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80)" // \s
	dot = "([^\n\x80-\xff]|[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3})"           // .
	nw  = "[^0-9A-Z_a-z\xf8\xf9]"                                                                                 // a non-word byte in the rewritten alphabet (words.go)
	wb  = "[0-9A-Z_a-z\xf8\xf9]"                                                                                  // a word byte in the rewritten alphabet
)

var ereTests = []struct{ name, pattern, want string }{
	// literals and case folding
	{"ascii letters", "Git", "[Gg]([Ii]|\xc4[\xb0\xb1])[Tt]"},
	{"kelvin sign", "k", "[Kk]|\u212a"},
	{"long s", "s", "[Ss]|\u017f"},
	{"non-ASCII orbit", "é", "\xc3[\x89\xa9]"},
	{"sharp s", "ß", "\u00df|\u1e9e"},
	{"final sigma", "σ", "Σ|\xcf[\x82\x83]"},
	{"titlecase", "ǅ", "\xc7[\x84-\x86]"},
	{"ohm sign", "ω", "\u03a9|\u03c9|\u2126"},
	{"Python's non-BMP set quirk", "[𐐀x]", "[Xx]"},
	{"deseret literal", "𐐀", "\xf0\x90\x90[\x80\xa8]"},
	{"scoped case off", "(?-i:Ab)c", "Ab[Cc]"},
	{"ASCII mode folding", "(?a)ks", "[Kk][Ss]"},
	{"specials escaped", `a\.b\*\(\$\^\{`, "[Aa]\\.[Bb]\\*\\(\\$\\^\\{"},
	{"plain punctuation", `\/-]}`, "/-]}"},
	// Python escapes
	{"unicode escape", `\u2014`, "—"},
	{"long unicode escape", `\U0001F600`, "😀"},
	{"hex and octal", `\x41\101`, "[Aa][Aa]"},
	{"control escapes", `\t\v\f\a`, "\t\v\f\a"},
	{"backspace in class", `[\b]`, "\b"},
	// classes
	{"range folds", "[a-z]", "[A-Za-z]|\xc4[\xb0\xb1]|\u017f|\u212a"},
	{"negated class keeps newline", "x[^a]y", "[Xx]([^Aa\x80-\xff]|[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3})[Yy]"},
	{"nested set is literal", "[[:alpha:]]", "[:AHLPahlp[]]"},
	{"leading bracket", "[]a]", "[]Aa]"},
	{"backslash class", `[/\\]`, "\\\\|/"},
	{"digits are rewritten", `x\d+y`, "[Xx][0-9\xf9]+[Yy]"},
	{"words are rewritten", `x\w`, "[Xx][0-9A-Z_a-z\xf8\xf9]"},
	{"ASCII flag", `(?a)x\w`, "[Xx][0-9A-Z_a-z]"},
	{"named word character", `\bé`, "(^|[^0-9A-Z_a-z\xf8\xf9\xfb])\xfb"},
	{"space is Unicode", `x\s`, "[Xx]" + sp},
	{"class with category", `[\d-]`, "[0-9\xf9-]"},
	{"NUL dropped, no raw \\x01", `[\x00-\x1f]x`, "[^ -\xff][Xx]"},
	// dot and newlines
	{"dot excludes newline", "a.b", "[Aa]" + dot + "[Bb]"},
	{"dotall dot", "(?s)a.b", "[Aa]([^\x80-\xff]|[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3})[Bb]"},
	{"dot star is compact", "a.*b", "[Aa][^\n]*[Bb]"},
	{"dot plus is compact", "a.+b", "[Aa][^\n]+[Bb]"},
	{"counted dot", "a.{2}b", "[Aa]" + dot + "{2}[Bb]"},
	// anchors
	{"dollar allows a final newline", `\.env$`, "\\.[Ee][Nn][Vv]\n?$"},
	{"caret", "^git", "^[Gg]([Ii]|\xc4[\xb0\xb1])[Tt]"},
	{"end of string", `a\Z`, "[Aa]$"},
	{"start of string", `\Aa`, "^[Aa]"},
	{"multiline caret", "(?m)^a", "(^|\n)[Aa]"},
	{"multiline dollar", "(?m)a$", "[Aa](\n|$)"},
	{"anchors in alternatives", `(^|\s)x(\s|$)`, "(^|" + sp[1:len(sp)-1] + ")[Xx](" + sp[1:len(sp)-1] + "|\n?$)"},
	{"dollar then end", `x$\Z`, "[Xx]$"},
	{"caret alone", "^", "^"},
	{"empty line", "^$", "^\n?$"},
	// word boundaries
	{"boundary at the start", `\bfoo`, "(^|" + nw + ")[Ff][Oo][Oo]"},
	{"boundary at the end", `foo\b`, "[Ff][Oo][Oo](" + nw + "|$)"},
	{"boundary before non-word", `\b-x`, wb + "-[Xx]"},
	{"non-boundary at the start", `\Bfoo`, wb + "[Ff][Oo][Oo]"},
	{"non-boundary at the end", `-\B`, "-(" + nw + "|$)"},
	{"boundary between word and space", `foo\b bar`, "[Ff][Oo][Oo] [Bb][Aa][Rr]"},
	{"boundary after caret", `^\bfoo`, "^[Ff][Oo][Oo]"},
	{"boundary before dollar", `foo\b$`, "[Ff][Oo][Oo]\n?$"},
	{"boundary after a stripped star", `.*\bfoo`, "(^|" + nw + ")[Ff][Oo][Oo]"},
	{"ASCII-mode boundary", `(?a)\bk`, "(^|[^0-9A-Z_a-z])[Kk]"},
	// quantifiers and groups
	{"brace count with empty min", "xa{,3}y", "[Xx][Aa]{0,3}[Yy]"},
	{"literal brace", "a{x}", "[Aa]\\{[Xx]}"},
	{"lazy dropped", "xa+?y", "[Xx][Aa]+[Yy]"},
	{"empty alternative", "x(a|)y", "[Xx][Aa]?[Yy]"},
	{"empty alternative first", "x(|ab)y", "[Xx]([Aa][Bb])?[Yy]"},
	{"alternation", "ab|cd", "[Aa][Bb]|[Cc][Dd]"},
	{"count 255", "x{255}", "[Xx]{255}"},
	{"open count", "xa{2,}y", "[Xx][Aa]{2,}[Yy]"},
	{"zero count", "xa{0}y", "[Xx][Yy]"},
	{"edge repeat trimmed", `\w+@\w+`, "[0-9A-Z_a-z\xf8\xf9]@[0-9A-Z_a-z\xf8\xf9]"},
	{"edge star dropped", "a*b", "[Bb]"},
	{"matches everything", ".*", "^"},
	{"empty pattern", "", "^"},
	// flags and verbose mode
	{"global flags", "(?i)(?s)x", "[Xx]"},
	{"verbose", "(?x) a b # comment\n c", "[Aa][Bb][Cc]"},
	{"verbose escaped space", `(?x)a\ b`, "[Aa] [Bb]"},
	{"scoped verbose", "(?x:a b)c d", "[Aa][Bb][Cc] [Dd]"},
	{"comment group", "a(?#c)*b", "[Bb]"},
	{"named group", "(?P<n>ab)", "[Aa][Bb]"},
	{"negative lookahead at the end", "#[0-9a-f](?![0-9a-f])", "#[0-9A-Fa-f]($|[^0-9A-Fa-f])"},
	{"negative lookahead, sequence", "a(?!bc)", "[Aa]($|[^Bb]|[Bb]($|[^Cc]))"},
	{"negative lookahead of a branch", "(a(?!b)|c)", "[Aa]($|[^Bb])|[Cc]"},
	{"negative lookahead after ^", "^(?!b)", "^($|[^Bb])"},
	{"negative lookahead of K's orbit", "x(?!k)", "[Xx]($|[^Kk\xe2]|\xe2($|[^\x84]|\x84($|[^\xaa])))"},
	{"negative lookahead of s's orbit, then more", "x(?!sa)", "[Xx]($|[^Ss\xc5]|\xc5($|[^\xbf])|([Ss]|\xc5\xbf)($|[^Aa]))"},
}

func TestERE(t *testing.T) {
	for _, tt := range ereTests {
		got, err := ERE(tt.pattern, IgnoreCase)
		if err != nil {
			t.Errorf("%s: ERE(%q): %v", tt.name, tt.pattern, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: ERE(%q)\n got %q\nwant %q", tt.name, tt.pattern, got, tt.want)
		}
	}
}

func TestERECaseSensitive(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"Ab", "Ab"}, {"(?i)ab", "[Aa][Bb]"}, {"[a-c]", "[a-c]"}, {"(?i:k)", "[Kk]|\u212a"},
	} {
		got, err := ERE(tt.pattern, 0)
		if err != nil || got != tt.want {
			t.Errorf("ERE(%q, 0) = %q, %v; want %q", tt.pattern, got, err, tt.want)
		}
	}
}

var refusalTests = []struct {
	pattern   string
	construct string
	offset    int
}{
	{`(?=a)b`, "never matches", 0},
	{`a(?!b*)`, "never matches", 0},
	{`a(?!)`, "never matches", 1},
	{`(a)\1`, "backreference", 3},
	{`(?P<n>a)(?P=n)`, "backreference", 8},
	{`(?>ab)c`, "atomic group", 0},
	{`a*+b`, "possessive quantifier", 2},
	{`(a)?(?(1)b|c)`, "conditional", 4},
	{`x{256}`, "count over 255", 1},
	{`(?s).{3000,}`, "count over 255", 5},
	{`\N{EM DASH}`, "named character escape", 0},
	{`abc(?i)`, "syntax error", 3},
	{`(?t)a`, "template flag", 0},
	{`a[`, "syntax error", 1},
	{`\q`, "syntax error", 0},
	{`(a`, "syntax error", 2},
	{`a{2,1}`, "syntax error", 1},
	{`*a`, "syntax error", 0},
	{`foo\bbar`, "never matches", 3},
	{`[^\s\S]`, "never matches", 0},
	{`\x00`, "never matches", 0},
	{`a^b`, "never matches", 1},
	{`xa?^b`, "never matches", 3},
	{`(a$){2}`, "never matches", 0},
	{`(?<=a+)b`, "syntax error", 0},
	{`(?<=a|bc)d`, "syntax error", 0},
	{`(?<=a$)b`, "lookbehind", 0},
	{`(?<=\bx)b`, "lookbehind", 0},
	{`(?=a)(?>b)`, "atomic group", 5},
	{"\xff", "invalid UTF-8", 0},
}

func TestRefusals(t *testing.T) {
	for _, tt := range refusalTests {
		got, err := ERE(tt.pattern, IgnoreCase)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ERE(%q) = %q, %v; want a refusal (%s)", tt.pattern, got, err, tt.construct)
			continue
		}
		if e.Construct != tt.construct || e.Offset != tt.offset {
			t.Errorf("ERE(%q): %s at %d (%v); want %s at %d", tt.pattern, e.Construct, e.Offset, e, tt.construct, tt.offset)
		}
		if e.Msg == "" || strings.HasSuffix(e.Msg, ".") || strings.ToLower(e.Msg[:1]) != e.Msg[:1] {
			t.Errorf("ERE(%q): message %q should be one lower-case sentence without a period", tt.pattern, e.Msg)
		}
	}
}

func TestErrorString(t *testing.T) {
	_, err := ERE(`ab(?>c)`, IgnoreCase)
	want := "an atomic group (?>...) never gives back what it matched, which a POSIX ERE cannot express (at pattern column 3)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := ERE("a", Flags(2)); err == nil {
		t.Error("unknown flags should be refused")
	}
}

func TestValidate(t *testing.T) {
	valid := []string{
		"^", "a", "[ab]", "(a|b)*", "[[:alpha:]]", "a{2,255}", "a{3}", "a{2,}", "(^|x)", "(x|$)",
		`\.`, `\\`, "[]a]", "[^]a]", "[a-]", "[-a]", "[-^]", "[a^]", "[a[]", "}", "]", "\xc3[\x80-\xbf]",
		"\n?$", "[^\n]*", "a|^b|c$",
	}
	for _, s := range valid {
		if err := Validate(s); err != nil {
			t.Errorf("Validate(%q) = %v, want ok", s, err)
		}
	}
	invalid := []string{
		"", ".", "a{256}", "a{2,1}", "a**", "a+?", "[a\\]", "[]", "[[.a.]]", "[[=a=]]", "[[:foo:]]",
		"a^", "$a", "^*", "()", "(a|)", "a|", "|a", `\a`, `\`, "[z-a]", "[a-c-e]", "[!-\\]", "x\x00",
		"*a", "{", "(a", "a)", "[^]", "[a", "a{", "a{x}",
	}
	for _, s := range invalid {
		if err := Validate(s); err == nil {
			t.Errorf("Validate(%q) = nil, want an error", s)
		}
	}
}

// TestCaseTablesMatchPython checks, for every code point, the Unicode data the
// translation relies on against the local python3: sre's lowercase and uppercase
// mappings and "cased" property, the extra case table, \s, and the word
// characters used to decide \b (for code points Python's Unicode version assigns).
func TestCaseTablesMatchPython(t *testing.T) {
	requireTools(t)
	const script = `
import _sre, json, re._casefix, unicodedata, sys
def ranges(pred):
    out, start = [], None
    for c in range(0x110000):
        if pred(c):
            if start is None: start = c
        elif start is not None:
            out.append([start, c - 1]); start = None
    if start is not None: out.append([start, 0x10FFFF])
    return out
lower, upper = [], []
for c in range(0x110000):
    if 0xD800 <= c <= 0xDFFF: continue
    if _sre.unicode_tolower(c) != c: lower.append([c, _sre.unicode_tolower(c)])
    u = ord(chr(c).upper()[0])
    if u != c: upper.append([c, u])
json.dump({
  "lower": lower, "upper": upper,
  "cased": ranges(lambda c: not 0xD800 <= c <= 0xDFFF and _sre.unicode_iscased(c)),
  "space": ranges(lambda c: chr(c).isspace()),
  "word": ranges(lambda c: chr(c).isalnum() or c == 0x5F),
  "unassigned": ranges(lambda c: unicodedata.category(chr(c)) == "Cn"),
  "fixes": {str(k): list(v) for k, v in re._casefix._EXTRA_CASES.items()},
}, sys.stdout)
`
	out, err := testenv.Command(t, "python3", "-c", script).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var py struct {
		Lower, Upper, Cased, Space, Word, Unassigned [][2]rune
		Fixes                                        map[string][]rune
	}
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatal(err)
	}
	u, _ := folds()
	toSet := func(rs [][2]rune) runeSet {
		var rr []rrange
		for _, r := range rs {
			rr = append(rr, rrange{r[0], r[1]})
		}
		return newRuneSet(rr...)
	}
	var lowerCh []rune
	for _, p := range py.Lower {
		lowerCh = append(lowerCh, p[0])
		if got := u.lower(p[0]); got != p[1] {
			t.Errorf("lower(%U) = %U, Python %U", p[0], got, p[1])
		}
	}
	if !runes(lowerCh...).equal(u.lowerChanged) {
		t.Errorf("characters with a lowercase mapping differ from Python")
	}
	var upperCh []rune
	for _, p := range py.Upper {
		upperCh = append(upperCh, p[0])
		if got := pyUpper(p[0]); got != p[1] {
			t.Errorf("upper(%U) = %U, Python %U", p[0], got, p[1])
		}
	}
	if !runes(upperCh...).equal(u.upperChanged) {
		t.Errorf("characters with an uppercase mapping differ from Python")
	}
	if !toSet(py.Cased).equal(u.cased) {
		t.Errorf("cased characters differ from Python")
	}
	if !toSet(py.Space).equal(pySpace) {
		t.Errorf("\\s differs from Python's str.isspace")
	}
	assigned := toSet(py.Unassigned).complement()
	if !toSet(py.Word).intersect(assigned).equal(wordChars(0).intersect(assigned)) {
		t.Errorf("word characters differ from Python's str.isalnum")
	}
	if len(py.Fixes) != len(pyCaseFixes) {
		t.Errorf("Python has %d extra cases, pyCaseFixes %d", len(py.Fixes), len(pyCaseFixes))
	}
	for k, v := range py.Fixes {
		var c rune
		for _, d := range k {
			c = c*10 + d - '0'
		}
		if got := pyCaseFixes[c]; !runes(got...).equal(runes(v...)) {
			t.Errorf("extra cases of %U: %U, Python %U", c, got, v)
		}
	}
}

// TestAllRefusals: a pattern's every refused construct is reported, at its
// offset, in one run (README, "A rule that does not compile"): patterns are generated from refused
// pieces (lookarounds, which the parser refuses, and \b and (?!...) in
// the middle, which the translator refuses), joined by plain text.
func TestAllRefusals(t *testing.T) {
	// Lookarounds and \b are built (viaDFA): they are not reported beside
	// the constructs that stay refused.
	pieces := []struct {
		src, construct string
		at             int
	}{
		{`(?<=a)`, "", 0},
		{`(?<!a)`, "", 0},
		{`(?=a)`, "", 0},
		{`[^\n]\b[^\n]`, "", 0},
		{`(?!ab+)`, "", 0},
		{`(?>a)`, "atomic group", 0},
		{`b*+`, "possessive quantifier", 2},
		{`(c)\1`, "backreference", 3},
	}
	rng := rand.New(rand.NewPCG(22, 5))
	n := 400
	if testing.Short() {
		n = 100
	}
	for range n {
		var b strings.Builder
		type want struct {
			off       int
			construct string
		}
		var wants []want
		b.WriteString("x")
		for k := 1 + rng.IntN(4); k > 0; k-- {
			p := pieces[rng.IntN(len(pieces))]
			if len(wants) == 0 && k == 1 {
				p = pieces[len(pieces)-1-rng.IntN(3)]
			}
			if p.construct != "" {
				wants = append(wants, want{b.Len() + p.at, p.construct})
			}
			b.WriteString(p.src)
			b.WriteString("yz"[rng.IntN(2):])
		}
		pattern := b.String()
		_, err := ERE(pattern, IgnoreCase)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("ERE(%q) = %v, want refusals", pattern, err)
		}
		var got []want
		for _, x := range e.All() {
			got = append(got, want{x.Offset, x.Construct})
		}
		if len(got) != len(wants) {
			t.Errorf("ERE(%q): refusals %v, want %v", pattern, got, wants)
			continue
		}
		for i := range wants {
			if got[i] != wants[i] {
				t.Errorf("ERE(%q): refusals %v, want %v", pattern, got, wants)
				break
			}
		}
	}
}
