package pyregex

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/eval/internal/pyoracle"
	"github.com/hookify/hookify/internal/testenv"
)

// edgePatterns exercise every part of the syntax, and the places where
// Python differs from other engines.
var edgePatterns = []string{
	// Anchors and newlines.
	`a$`, `^a`, `a\Z`, `\Aa`, `a$\n`, `a$\s*`, `$`, `^$`, `a$$`, `a\n$`, `(?m)a$`, `(?m)^b`,
	`(?m)a$\nb`, `a.b`, `(?s)a.b`, `a[^x]b`, `(?s:a.)b`, `(?m:^b)`, `x$|y`, `(?:a|b$)c`,
	`a$\b`, `\ba$`, `^\s*$`, `\Z`, `^\Z`, `a\Z\n`,
	// Word characters, digits and boundaries (Unicode; ASCII with the a flag).
	`\bgh\s+pr\b`, `\Bb\B`, `\B`, `\b`, `\bé`, `foo\b`, `\W\b`, `\w+`, `\W`, `\d+`, `\D`,
	`[\w.]+@`, `[^\w]`, `[\W\d]`, `\b(rm|mv)\b`, `caf\w`, `\bé\b`, `ß\B`, `\b٣`, `\d\b`, `[\w-]+`,
	`[^\W\d]+`, `[^\W\d_]`, `\w\W\w`, `(?<=\w)\b`, `\b(?=\W)`, `(?<!\w)\d+(?!\w)`, `(?a)\w`, `(?a)\bé`,
	`x(?a:\w)`, `x(?a:\b)é`, `x(?a:\W)`, `\b‿`, `\w‿\w`, `\w\u0308`, `e\b\u0308`, `\bİ`, `\wı\b`,
	`\b\u212a\b`, `\d{2}`, `[\d\s]+`, `Ⅻ\b`, `\b½`, `\w*中\B`, `𝐀\b`, `\W🤖\W`,
	// Spaces.
	`a\sb`, `a\Sb`, `[\s]`, `[^\s]`, `(?a)\s`, `(?a)a\sb`, `[\S\s]`,
	// Case folding.
	`k`, `K`, `s`, `S`, `i`, `I`, `ß`, `ẞ`, `σ`, `Σ`, `µ`, `é`, `É`, `[a-z]+`, `[A-Z]`, `[^a-z]`,
	`[^K]`, `[k]`, `[ſ]`, `[ı]`, `(?-i:abc)`, `(?-i:K)`, `(?a)k`, `(?a)[a-z]`, `(?a:s)t`,
	`(?u)é`, `(?a:é)`, `[Σσ]`, `[À-Ö]`, `[\u0100-\u017f]`, `ǅ`, `Ǆ`, `ΐ`, `ﬅ`, `ı`, `İ`,
	`[İ]`, `(?i)İ`, `[^İ]`,
	// Escapes.
	`\x41`, `\x4`, `\u00e9`, `\u00E9x`, `\U0001F600`, `\U00110000`, `\0`, `\012`, `\101`, `\1`,
	`\8`, `\400`, `\.`, `\/`, `\-`, `\ `, `\q`, `\é`, `\N{DASH}`, `\a\f\t\v`, `[\b]`, `\b\B`,
	`[\A]`, `[\Z]`, `[\8]`, `[\0]`, `[\101]`, `[\x41-\x43]`, `[\u2014]`, `\u2014`, `\\`, `\`,
	`[\]]`, `[\\]`, `[\-]`, `[a\-z]`, `\*`,
	// Classes.
	`[]a]`, `[^]a]`, `[]-a]`, `[a-]`, `[-a]`, `[^-]`, `[a-c-e]`, `[[]`, `[[:alpha:]]`, `[z-a]`,
	`[\d-z]`, `[a-\d]`, `[]`, `[^]`, `[`, `[a`, `[^\n]`, `["']`, `[/\\]`, `[.]`, `[*+?]`,
	`[&&]`, `[--]`, `[||]`, `[~~]`, `[a-a]`, `[\x00-\x7f]`, `[^\x00-\x7f]`,
	// Repeats.
	`a{2}`, `a{2,}`, `a{,2}`, `a{2,3}`, `a{3,2}`, `a{}`, `a{,}`, `a{x}`, `a{1,x}`, `{2}`, `{`,
	`a{`, `x{2}{3}`, `a**`, `a*?`, `a+?b`, `xa+?y`, `a??`, `a{2}?`, `a*+`, `*a`, `^*`, `\b*`,
	`(?:^)*a`, `(a*)*b`, `(a|)*c`, `(?:)*`, `a{0}`, `a{0,0}b`, `(?:ab){2,4}$`, `.{3,}`,
	`a{1001}`, `a{4294967295}`, `(?s).{30,}`, `x{,3}y`, `(a{2}){3}`,
	// Groups.
	`(a)`, `(?:a)`, `(?P<n>a)b`, `(?P<n>a)(?P<n>b)`, `(?P<1>a)`, `(?P<>a)`, `(?P<n`, `(?P=n)`,
	`(?P<n>a)(?P=n)`, `(a)\1`, `(?#comment)a`, `a(?#c)*`, `(?#unterminated`, `(?=a)`, `(?!a)b`,
	`(?<=a)b`, `(?<!a)b`, `(?<n>a)`, `(?(1)a|b)`, `(?>a)`, `(?x)a b`, `(?x)a\ b`, `(?x)a#c\nb`,
	`(?x)[ ]`, `(?x: a b )c d`, `(?-x:a b)`, `(?i)a`, `(?is)a.b`, `(?s)(?m)a$`, `a(?i)b`,
	`a|(?i)b`, `(?L)a`, `(?au)a`, `(?a)(?u)a`, `(?-a:a)`, `(?i-i:a)`, `(?z)`, `(?`, `(?-)`,
	`(?i:`, `(?im-sx:a.b)`, `(?t)a`, `)`, `(`, `a)`, `(a`, `()`, `a||b`, `|`, `(|a)`,
	`(?x)(?#c)a`, `(?#c)(?x) a`, `(?x)\#`, `(?x)a#\\`,
	// Lookaround: lookaheads of any body, lookbehinds of a fixed width.
	`(?=a*)`, `^(?!.*foo)`, `(?!a(?=b+))`, `git reset(?!.*--hard)`, `^(?!(feat|fix)(\(.+\))?: ).+`,
	`(a(?=b)|c(?!d))+e`, `((?!ab).)*$`, `(?<=a)b`, `(?<!a)b`, `(?<=ab|cd)e`, `(?<=a(?<!b))c`, `(?<=\bx)y`,
	`(?<=a$)`, `(?<=a+)b`, `(?<=a|bc)d`, `(?<![\w-])--force\b`, `(?<=^a)b`, `(?<=é)\B`, `\b(?<=é)`,
	`a(?!b)`, `a(?=b)`, `(?!a)`, `^(?!a)`, `a(?!b)*`, `a(?!b)+c`, `(?!b){2}`, `a(?!)`, `(?=)a`,
	`k(?!s)`, `x(?!k)`, `x(?!ſ)`, `x(?![a-f]\s)`, `#[0-9a-f]{3}(?![0-9a-f])`, `a(?!b|cd)`, `a(?!b{2,3})`,
	`a(?!(?-i:B))`, `a(?!$)`, `a(?!\b)`, `(a(?!b)|c)d`, `a(?!b(?!c))`, `a(?=b(?!c))`, `a(?!b)(?!c)`,
	`x(?!.)`, `x(?!\n)`, `(?!`, `(?!a`, `a(?!b*)`, `--force(?!-with-lease)`,
	// Real rules.
	`rm\s+-rf\s+/`, `git\s+push\s+.*(--force|-f)(\s|$)`, `\.(js|ts)x?$`, `console\.log\(`,
	`(^|/)\.env(\.[a-z]+)?$`, `(^|[;&|]\s*)sudo\s`, `\bdeploy\s+(to\s+)?prod(uction)?\b`,
	`(?i)(password|secret|api[_-]?key)\s*[:=]\s*["'][^"']{8,}`, `^(?!.*test)`,
	`(?s).{3000,}`, `(?<!` + "`" + `)<[a-z_][a-z0-9_]*>(?!` + "`" + `)`, `eval\(|exec\(`,
	`\.tsx?$`, `[/\\]node_modules[/\\]`, `AKIA[0-9A-Z]{16}`, `-----BEGIN [A-Z ]*PRIVATE KEY`,
	`✅|🚀`, `ครับ`, `中文`,
}

// pool are characters that random subjects are made of, besides the
// pattern's own.
var pool = []rune("aAbBzZ019_ -./\\\t\n\r\v\f\x1c\x1f\u0085\u00a0\u2028\u3000éÉßẞſKİıσςΣµμ✅中٣²😀" +
	"０Ⅻ½‿\u0308𝐀🤖")

func subjects(r *rand.Rand, pool []rune, pattern string, n int) []string {
	alpha := slices.Clone(pool)
	for _, c := range pattern {
		if c != utf8RuneError && !unicode.Is(unicode.Cs, c) {
			alpha = append(alpha, c)
		}
	}
	out := []string{""}
	for len(out) < n {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteRune(alpha[r.IntN(len(alpha))])
		}
		out = append(out, b.String())
	}
	return out
}

const utf8RuneError = '\uFFFD'

// corpusPatterns returns the regex patterns of the corpus rules, read as
// hookify reads them. The test skips without the corpus.
func corpusPatterns(t *testing.T) []string {
	dir := testenv.CorpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	var pats []string
	record := func(p string) (string, string, error) {
		if !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
		return "x", "", nil
	}
	for _, f := range files {
		compiler.Compile(os.DirFS(dir), compiler.Options{Inputs: []string{filepath.Base(f)}, Translator: record})
	}
	return pats
}

// TestPython compares Compile and MatchString with Python's re on edge
// cases, for strings generated from each pattern by Python and random
// strings.
func TestPython(t *testing.T) { comparePython(t, edgePatterns, 1) }

// TestPythonCorpus does the same for every regex of the corpus.
func TestPythonCorpus(t *testing.T) { comparePython(t, corpusPatterns(t), len(edgePatterns)+1) }

// comparePython compares pyregex with Python's re on pats; seed numbers the
// first pattern's samples.
func comparePython(t *testing.T, pats []string, seed int) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := pythonAssigned(t, pool)
	var reqs []Request
	for i, p := range pats {
		reqs = append(reqs, Request{Pattern: p, Subjects: subjects(r, pool, p, 40), Samples: 60, Seed: i + seed})
	}
	answers := pyoracle.Ask(t, reqs)
	var pairs, matched, unsupported, failures int
	for i, a := range answers {
		p := pats[i]
		re, err := Compile(p)
		if a.Error != nil {
			if err == nil {
				t.Errorf("Compile(%q) succeeded; Python: %s", p, *a.Error)
			}
			continue
		}
		if err != nil {
			if e, ok := err.(*Error); ok && e.Unsupported {
				unsupported++
				continue
			}
			t.Errorf("Compile(%q): %v; Python accepts it", p, err)
			continue
		}
		all := append(slices.Clone(a.Samples), reqs[i].Subjects...)
		for j, s := range all {
			pairs++
			if a.Matches[j] {
				matched++
			}
			if got := re.MatchString(s); got != a.Matches[j] {
				failures++
				if failures <= 40 {
					t.Errorf("pattern %q on %s: got %v, Python %v", p, strconv.QuoteToASCII(s), got, a.Matches[j])
				}
			}
		}
	}
	t.Logf("%d patterns (%d unsupported), %d pattern x subject pairs, %d matching", len(pats), unsupported, pairs, matched)
}

// TestCaseTables compares the case rules with Python's: the simple
// lowercase of every character Python knows, and re's fixes table.
func TestCaseTables(t *testing.T) {
	out := pyoracle.Run(t, `
import json, sys, unicodedata, _sre
try:
    from re import _casefix
except ImportError:
    import sre_compile as _casefix
lower = {}
cased = []
assigned = []
for c in range(0x110000):
    if unicodedata.category(chr(c)) == "Cn":
        continue
    assigned.append(c)
    if _sre.unicode_iscased(c):
        cased.append(c)
    l = _sre.unicode_tolower(c)
    if l != c:
        lower[c] = l
json.dump({"version": unicodedata.unidata_version, "lower": lower,
           "fixes": {k: list(v) for k, v in _casefix._EXTRA_CASES.items()},
           "assigned": assigned, "cased": cased}, sys.stdout)
`, nil)
	var py struct {
		Version  string
		Lower    map[string]rune
		Fixes    map[string][]rune
		Assigned []rune
		Cased    []rune
	}
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatal(err)
	}
	known := map[rune]bool{}
	for _, c := range py.Assigned {
		known[c] = true
	}
	diffs := 0
	for _, c := range py.Assigned {
		want := c
		if l, ok := py.Lower[fmt.Sprint(c)]; ok {
			want = l
		}
		if got := lower(c); got != want {
			diffs++
			if diffs < 20 {
				t.Errorf("lower(%U) = %U, Python %U", c, got, want)
			}
		}
		if lower(lower(c)) != lower(c) {
			t.Errorf("lower is not idempotent at %U", c)
		}
	}
	pyCased := map[rune]bool{}
	for _, c := range py.Cased {
		pyCased[c] = true
	}
	for _, c := range py.Assigned {
		if isCased(c) != pyCased[c] {
			t.Errorf("isCased(%U) = %v, Python %v", c, isCased(c), pyCased[c])
		}
	}
	_, fixes := caseData()
	for k, v := range py.Fixes {
		c, _ := strconv.Atoi(k)
		got := fixes[rune(c)]
		slices.Sort(v)
		if !slices.Equal(got, v) {
			t.Errorf("fixes[%U] = %U, Python %U", c, got, v)
		}
	}
	for c, v := range fixes {
		if !known[c] || slices.ContainsFunc(v, func(r rune) bool { return !known[r] }) {
			continue // newer than Python's Unicode database
		}
		if _, ok := py.Fixes[fmt.Sprint(c)]; !ok {
			t.Errorf("fixes[%U] = %U; Python has none", c, v)
		}
	}
	t.Logf("Python's Unicode %s, Go's %s", py.Version, unicode.Version)
}

type Request = pyoracle.Request
