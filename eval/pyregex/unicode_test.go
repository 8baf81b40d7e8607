package pyregex

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/hookify/hookify/eval/internal/pyoracle"
)

// classPatterns are one-character patterns whose classes TestClassTables
// checks on every code point: the categories alone (IN), in sets with and
// without a cased member (IN_UNI_IGNORE tests the lowercase), negated, and
// in ASCII mode.
var classPatterns = []string{
	`\w`, `\W`, `\d`, `\D`, `[\w-]`, `[^\W\d]`, `[\wK]`, `[^\wé]`, `[\d\s]`, `[^\D٣]`,
	`(?a)\w`, `(?a)\W`, `(?a)\d`, `(?a)[\WK]`, `(?a)[^\d]`,
}

// boundaryPatterns are the assertions whose positions TestClassTables
// checks in the string of every code point.
var boundaryPatterns = []string{`\b`, `\B`, `(?a)\b`, `(?a:\B)`}

// TestClassTables compares \w \W \d \D (alone, in sets, negated, in ASCII
// mode) with Python's on every code point Python's Unicode database
// assigns (surrogates too), and \b \B at every position of the string of
// all those code points in order. Code points newer than Python's Unicode
// version are not compared: Go's tables may call them word characters or
// digits where the user's Python does not know them yet.
func TestClassTables(t *testing.T) {
	in, err := json.Marshal(map[string][]string{"classes": classPatterns, "boundaries": boundaryPatterns})
	if err != nil {
		t.Fatal(err)
	}
	out := pyoracle.Run(t, `
import json, re, sys, unicodedata
q = json.load(sys.stdin)
assigned = [c for c in range(0x110000) if unicodedata.category(chr(c)) != "Cn"]
s = "".join(map(chr, assigned))
def ranges(xs):
    out = []
    for x in xs:
        if out and out[-1][1] == x - 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out
json.dump({
    "version": unicodedata.unidata_version,
    "assigned": ranges(assigned),
    "classes": [ranges(ord(m) for m in re.findall(p, s, re.IGNORECASE)) for p in q["classes"]],
    "boundaries": [ranges(m.start() for m in re.finditer(p, s, re.IGNORECASE)) for p in q["boundaries"]],
}, sys.stdout)
`, in)
	var py struct {
		Version    string
		Assigned   [][2]int
		Classes    [][][2]int
		Boundaries [][][2]int
	}
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatal(err)
	}
	var assigned []rune
	for _, r := range py.Assigned {
		for c := r[0]; c <= r[1]; c++ {
			assigned = append(assigned, rune(c))
		}
	}
	member := func(rs [][2]int, x int) bool {
		i, _ := slices.BinarySearchFunc(rs, x, func(r [2]int, x int) int {
			if r[1] < x {
				return -1
			}
			if r[0] > x {
				return 1
			}
			return 0
		})
		return i < len(rs) && rs[i][0] <= x && x <= rs[i][1]
	}
	words := 0
	for i, p := range classPatterns {
		cls := onlyClass(t, p)
		diffs := 0
		for _, c := range assigned {
			want := member(py.Classes[i], int(c))
			if got := cls.match(c); got != want {
				diffs++
				if diffs <= 10 {
					t.Errorf("%s on %U: got %v, Python %v", p, c, got, want)
				}
			}
			if i == 0 && want {
				words++
			}
		}
		if diffs > 10 {
			t.Errorf("%s: %d code points differ", p, diffs)
		}
	}
	for i, p := range boundaryPatterns {
		n := onlyAssert(t, p)
		diffs := 0
		for pos := 0; pos <= len(assigned); pos++ {
			want := member(py.Boundaries[i], pos)
			if got := holds(n, pos, assigned); got != want {
				diffs++
				if diffs <= 10 {
					t.Errorf("%s at %d (between %U and %U): got %v, Python %v", p, pos, at(assigned, pos-1), at(assigned, pos), got, want)
				}
			}
		}
		if diffs > 10 {
			t.Errorf("%s: %d positions differ", p, diffs)
		}
	}
	t.Logf("Python's Unicode %s, Go's %s: %d assigned code points, %d of them \\w; \\b holds in %d ranges of positions", py.Version, unicode.Version, len(assigned), words, len(py.Boundaries[0]))
}

// leadingTypeFlag reports whether p may begin with a class in a group
// that turns on the ASCII flag, where _sre's search skips the positions
// whose character fails the class as the pattern's own flags read it (the
// quirk pyregex's package doc describes and does not reproduce).
func leadingTypeFlag(p string) bool {
	for {
		switch {
		case strings.HasPrefix(p, "(?a:"):
			return true
		case strings.HasPrefix(p, "(?:"):
			p = p[3:]
		case strings.HasPrefix(p, "(") && !strings.HasPrefix(p, "(?"):
			p = p[1:]
		default:
			return false
		}
	}
}

func at(s []rune, i int) rune {
	if i < 0 || i >= len(s) {
		return -1
	}
	return s[i]
}

// onlyClass returns the class of a one-character pattern.
func onlyClass(t *testing.T, p string) *class {
	t.Helper()
	n := onlyNode(t, p)
	if n.op != opChar {
		t.Fatalf("%s is not one character", p)
	}
	return n.cls
}

// onlyAssert returns the assertion of a one-assertion pattern.
func onlyAssert(t *testing.T, p string) assertion {
	t.Helper()
	n := onlyNode(t, p)
	if n.op != opAssert {
		t.Fatalf("%s is not one assertion", p)
	}
	return n.at
}

func onlyNode(t *testing.T, p string) *node {
	t.Helper()
	n, _, err := parse(p)
	if err != nil {
		t.Fatal(err)
	}
	for n.op == opCat && len(n.subs) == 1 {
		n = n.subs[0]
	}
	return n
}

// wordPool are the characters at the edges of Python's \w, \d and \b that
// the generated subjects are made of: ASCII; letters that fold specially
// (é É ß ſ K İ ı), digits other than ASCII (Arabic-Indic ٣ and fullwidth ０
// are Nd), other numbers (Ⅻ is Nl, ½ is No: word characters, not digits),
// connector punctuation other than '_' (‿, Pc) and a combining mark
// (U+0308, Mn), neither of them word characters; CJK and an astral letter
// (𝐀); an emoji; no-break space and line separator (\s, not \w).
var wordPool = []rune("aZk_09 -.\n" + "éÉßſ\u212aİı" + "٣０Ⅻ½" + "‿\u0308" + "中𝐀🤖" + "\u00a0\u2028")

// pythonAssigned returns the characters of rs that Python's Unicode
// database assigns, so that no verdict depends on a code point newer than
// python3's Unicode version.
func pythonAssigned(t *testing.T, rs []rune) []rune {
	t.Helper()
	in, _ := json.Marshal(string(rs))
	out := pyoracle.Run(t, `
import json, sys, unicodedata
print(json.dumps([unicodedata.category(c) for c in json.load(sys.stdin)]))
`, in)
	var cats []string
	if err := json.Unmarshal(out, &cats); err != nil || len(cats) != len(rs) {
		t.Fatalf("python3's categories of the pool: %v (%s)", err, out)
	}
	var keep []rune
	for i, c := range rs {
		if cats[i] == "Cn" {
			t.Logf("python3 does not know %U; left out of the pool", c)
			continue
		}
		keep = append(keep, c)
	}
	return keep
}

// wordGen generates patterns with \w \W \d \D \b \B at the edges, in the
// middle, in repeats, alternatives, lookaheads, lookbehinds and sets.
type wordGen struct {
	r    *rand.Rand
	pool []rune
}

var wordEscapes = []string{`\w`, `\W`, `\d`, `\D`}
var wordAsserts = []string{`\b`, `\B`}

func (g *wordGen) lit() string {
	c := g.pool[g.r.IntN(len(g.pool))]
	switch c {
	case '\n':
		return `\n`
	case '.', '-', ' ':
		return `\` + string(c)
	}
	return string(c)
}

// set is a bracket expression of categories, \s, literals and '-'.
func (g *wordGen) set() string {
	var b strings.Builder
	b.WriteByte('[')
	if g.r.IntN(2) == 0 {
		b.WriteByte('^')
	}
	for range 1 + g.r.IntN(3) {
		switch g.r.IntN(5) {
		case 0, 1, 2:
			b.WriteString(wordEscapes[g.r.IntN(len(wordEscapes))])
		case 3:
			b.WriteString(g.lit())
		default:
			b.WriteString(`\s`)
		}
	}
	if g.r.IntN(4) == 0 {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

// width1 is one fixed-width item for a lookbehind: one character or an
// assertion.
func (g *wordGen) width1() string {
	switch g.r.IntN(6) {
	case 0, 1:
		return wordEscapes[g.r.IntN(len(wordEscapes))]
	case 2:
		return wordAsserts[g.r.IntN(len(wordAsserts))]
	case 3:
		return g.set()
	case 4:
		return g.lit()
	}
	return "."
}

// behind is a lookbehind of a fixed width, with assertions in it.
func (g *wordGen) behind() string {
	var b strings.Builder
	b.WriteString([]string{"(?<=", "(?<!"}[g.r.IntN(2)])
	for range 1 + g.r.IntN(3) {
		b.WriteString(g.width1())
	}
	if g.r.IntN(4) == 0 {
		b.WriteString(`\w{2}`)
	}
	b.WriteByte(')')
	return b.String()
}

func (g *wordGen) atom(depth int) string {
	k := g.r.IntN(14)
	if depth >= 2 && k >= 9 {
		k = g.r.IntN(9)
	}
	switch k {
	case 0, 1, 2:
		return wordEscapes[g.r.IntN(len(wordEscapes))]
	case 3, 4:
		return wordAsserts[g.r.IntN(len(wordAsserts))]
	case 5:
		return g.set()
	case 6, 7:
		return g.lit()
	case 8:
		return "."
	case 9:
		return "(?:" + g.alt(depth+1) + ")"
	case 10:
		return []string{"(?=", "(?!"}[g.r.IntN(2)] + g.alt(depth+1) + ")"
	case 11:
		return g.behind()
	case 12:
		return "(?a:" + g.alt(depth+1) + ")"
	}
	return "(" + g.alt(depth+1) + ")"
}

func (g *wordGen) seq(depth int) string {
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		a := g.atom(depth)
		if g.r.IntN(4) == 0 && a != `\b` && a != `\B` {
			a += []string{"*", "+", "?", "{2}", "{0,2}", "*?"}[g.r.IntN(6)]
		}
		b.WriteString(a)
	}
	return b.String()
}

func (g *wordGen) alt(depth int) string {
	s := g.seq(depth)
	for g.r.IntN(4) == 0 {
		s += "|" + g.seq(depth)
	}
	return s
}

// wordSubjects are n strings of up to 8 pool characters, the empty one
// first.
func (g *wordGen) subjects(n int) []string {
	out := []string{""}
	for len(out) < n {
		var b strings.Builder
		for range g.r.IntN(9) {
			b.WriteRune(g.pool[g.r.IntN(len(g.pool))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestPythonUnicodeWords compares the evaluator with Python's re on
// generated patterns that use \w \W \d \D \b \B everywhere, on subjects
// drawn from wordPool and strings Python generates from each pattern.
func TestPythonUnicodeWords(t *testing.T) {
	g := &wordGen{r: rand.New(rand.NewPCG(3, 4)), pool: pythonAssigned(t, wordPool)}
	n := 400
	if testing.Short() {
		n = 100
	}
	var pats []string
	for len(pats) < n {
		p := g.alt(0)
		switch {
		case g.r.IntN(6) == 0:
			p = wordAsserts[g.r.IntN(2)] + p
		case g.r.IntN(5) == 0:
			p += wordAsserts[g.r.IntN(2)]
		}
		if !slices.Contains(pats, p) && !leadingTypeFlag(p) {
			pats = append(pats, p)
		}
	}
	var reqs []Request
	for i, p := range pats {
		reqs = append(reqs, Request{Pattern: p, Subjects: g.subjects(30), Samples: 12, Seed: 1000 + i})
	}
	answers := pyoracle.Ask(t, reqs)
	var pairs, matched, refused, failures int
	nonASCII := 0
	for i, a := range answers {
		p := pats[i]
		re, err := Compile(p)
		if a.Error != nil {
			refused++
			if err == nil {
				t.Errorf("Compile(%q) succeeded; Python: %s", p, *a.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("Compile(%q): %v; Python accepts it", p, err)
			continue
		}
		for j, s := range append(slices.Clone(a.Samples), reqs[i].Subjects...) {
			pairs++
			if a.Matches[j] {
				matched++
			}
			if strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) {
				nonASCII++
			}
			if got := re.MatchString(s); got != a.Matches[j] {
				failures++
				if failures <= 40 {
					t.Errorf("pattern %q on %s: got %v, Python %v", p, strconv.QuoteToASCII(s), got, a.Matches[j])
				}
			}
		}
	}
	if failures > 40 {
		t.Errorf("%d verdicts differ", failures)
	}
	if refused > len(pats)/10 {
		t.Errorf("Python refuses %d of %d generated patterns", refused, len(pats))
	}
	t.Logf("%d patterns (%d refused by Python), %d pattern x subject pairs (%d non-ASCII), %d matching", len(pats), refused, pairs, nonASCII, matched)
}
