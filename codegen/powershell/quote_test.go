package powershell

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookify/hookify/internal/testenv"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "''"},
		{"abc", "'abc'"},
		{"it's", "'it''s'"},
		{"‘a’ ‚b‛", "'‘‘a’’ ‚‚b‛‛'"},
		{`$x "y" ` + "`n" + ` \ @'`, `'$x "y" ` + "`n" + ` \ @'''`},
		{"é ✅ 日本", "'é ✅ 日本'"},
		{"a\nb", "('a' + [char]0x0A + 'b')"},
		{"\n", "('' + [char]0x0A)"},
		{"a\r\n", "('a' + [char]0x0D + [char]0x0A)"},
		{"x\u2028y\u0085\u007f\ufeff", "('x' + [char]0x2028 + 'y' + [char]0x85 + [char]0x7F + [char]0xFEFF)"},
		{"'\t'", "('''' + [char]0x09 + '''')"},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
		if got, err := evalQuoted(Quote(c.in)); err != nil || got != c.in {
			t.Errorf("evalQuoted(Quote(%q)) = %q, %v", c.in, got, err)
		}
	}
}

// evalQuoted evaluates the output of Quote the way PowerShell's tokenizer
// reads it: a verbatim string ends at any single-quote character unless
// another one follows, in which case the second is the literal character
// (ScanStringLiteral); a concatenation is '(' part (' + ' part)* ')' with
// parts that are verbatim strings or [char]0xHH casts.
func evalQuoted(q string) (string, error) {
	verbatim := func(s string) (string, string, error) {
		r, n := utf8.DecodeRuneInString(s)
		if !isSingleQuote(r) {
			return "", "", fmt.Errorf("no opening quote at %q", s)
		}
		s = s[n:]
		var b strings.Builder
		for {
			if s == "" {
				return "", "", fmt.Errorf("unterminated string")
			}
			r, n := utf8.DecodeRuneInString(s)
			s = s[n:]
			if isSingleQuote(r) {
				r2, n2 := utf8.DecodeRuneInString(s)
				if s == "" || !isSingleQuote(r2) {
					return b.String(), s, nil
				}
				r, s = r2, s[n2:]
			}
			if unsafeRune(r) {
				return "", "", fmt.Errorf("raw %U inside a literal", r)
			}
			b.WriteRune(r)
		}
	}
	if !strings.HasPrefix(q, "(") {
		v, rest, err := verbatim(q)
		if err == nil && rest != "" {
			err = fmt.Errorf("text after the literal: %q", rest)
		}
		return v, err
	}
	s := q[1:]
	var b strings.Builder
	for i := 0; ; i++ {
		if i > 0 {
			var ok bool
			if s, ok = strings.CutPrefix(s, " + "); !ok {
				if s == ")" {
					return b.String(), nil
				}
				return "", fmt.Errorf("bad concatenation at %q", s)
			}
		}
		if rest, ok := strings.CutPrefix(s, "[char]0x"); ok {
			end := strings.IndexAny(rest, " )")
			if end < 0 {
				return "", fmt.Errorf("bad [char] at %q", s)
			}
			n, err := strconv.ParseUint(rest[:end], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(n))
			s = rest[end:]
			continue
		}
		if i > 0 && !isSingleQuote(firstRune(s)) {
			return "", fmt.Errorf("bad part at %q", s)
		}
		v, rest, err := verbatim(s)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = rest
	}
}

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

// quoteCorpus are strings that stress Quote.
var quoteCorpus = []string{
	"", "'", "''", "'''", "’", "‘’‚‛", "a'b’c‘d‚e‛f", "'\n'", "\r\n", "\t",
	"$(Remove-Item x)", "${env:PATH}", "`", "`'", "@'\n'@", "#>", "<#", "\"", "\"\"",
	"\\", "\\'", "é", "🔒 secrets", "\u2028", "\u0085", "\ufeff", "\x7f", "\x01\x1f",
	"{\"permission\":\"deny\"}", `**[name]**\nUse ` + "`x`.",
}

// randomQuoteString draws a string from an alphabet rich in PowerShell
// syntax, quotes, controls and non-ASCII.
func randomQuoteString(r *rand.Rand) string {
	alphabet := []rune("ab $`'\"‘’‚‛\\@#<>(){}[];|&-–—\n\r\t\x01\x1f\x7f\u0085\u2028\u2029\ufeffé✅😀")
	n := r.Intn(12)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// TestQuoteParses checks with the tree-sitter grammar that Quote's output
// is one string token (or one parenthesized concatenation) spanning exactly
// the quoted text, for the corpus and random strings, all in one file.
func TestQuoteParses(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	strs := append([]string(nil), quoteCorpus...)
	for i := 0; i < 500; i++ {
		strs = append(strs, randomQuoteString(r))
	}
	var src strings.Builder
	for _, s := range strs {
		fmt.Fprintf(&src, "$v = %s\n", Quote(s))
	}
	res := parseSource(t, src.String())
	if len(res.Errors) > 0 {
		t.Fatalf("quoted literals do not parse: %v", res.Errors)
	}
	if len(res.Values) != len(strs) {
		t.Fatalf("got %d values for %d assignments", len(res.Values), len(strs))
	}
	for i, s := range strs {
		checkParsedLiteral(t, s, res.Values[i].Type, res.Values[i].Text)
	}
}

func checkParsedLiteral(t *testing.T, s, typ, text string) {
	t.Helper()
	q := Quote(s)
	want := "verbatim_string_characters"
	if strings.HasPrefix(q, "(") {
		want = "parenthesized_expression"
	}
	if typ != want || text != q {
		t.Errorf("Quote(%q) = %s parses as %s %q, want one %s", s, q, typ, text, want)
	}
}

// FuzzQuote checks that Quote's output reads back as the input under
// PowerShell's tokenizer rules (evalQuoted), that the tree-sitter grammar
// sees one literal, and, when pwsh is on PATH, that pwsh evaluates it to the
// same string.
func FuzzQuote(f *testing.F) {
	for _, s := range quoteCorpus {
		f.Add(s)
	}
	pwsh := testenv.OptionalTool(f, "pwsh")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			t.Skip("Quote's callers reject invalid UTF-8 and NUL")
		}
		q := Quote(s)
		got, err := evalQuoted(q)
		if err != nil || got != s {
			t.Fatalf("Quote(%q) = %s reads back as %q (%v)", s, q, got, err)
		}
		res := parseSource(t, "$v = "+q+"\n")
		if len(res.Errors) > 0 || len(res.Values) != 1 {
			t.Fatalf("Quote(%q) = %s: tree-sitter: %v %v", s, q, res.Errors, res.Values)
		}
		checkParsedLiteral(t, s, res.Values[0].Type, res.Values[0].Text)
		if pwsh != "" {
			// Print the UTF-16 code units, so no console encoding is involved.
			script := "$v = " + q + "; [string]::Join(',', ($v.ToCharArray() | ForEach-Object { [int]$_ }))"
			out, err := testenv.Command(t, pwsh, "-NoProfile", "-NonInteractive", "-Command", script).Output()
			if err != nil {
				t.Fatalf("pwsh: %v", err)
			}
			var want []string
			for _, u := range utf16.Encode([]rune(s)) {
				want = append(want, strconv.Itoa(int(u)))
			}
			if g := strings.TrimSpace(string(out)); g != strings.Join(want, ",") {
				t.Fatalf("pwsh evaluates Quote(%q) = %s to code units %s, want %s", s, q, g, strings.Join(want, ","))
			}
		}
	})
}
