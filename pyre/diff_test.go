package pyre

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
)

// handPatterns are real hookify patterns and edge cases for each construct.
var handPatterns = []string{
	// from hookify rules and docs
	`rm\s+-rf|rm\s+-fr`, `console\.(log|warn|error|info|debug)\(`, `\.env$`, `\.tsx?$`,
	`^git\s+`, `git\s+push\s+(--force|-f)(\s|$)`, `\bgh\s+pr\s+create\b`,
	`(api[_-]?key|secret[_-]?key|password)\s*[:=]\s*['"][A-Za-z0-9+/=_-]{16,}['"]`,
	`\.(env|pem|key|secrets?)$|credentials|\.env\.|config\.local`,
	`Traceback \(most recent call last\):|^\w+Error:|^\w+Exception:`, `(?s).{300,}`,
	`(?i)TODO|FIXME`, `(?s)begin.*end`, `(?is)^\s*#!`, `[/\\]`, `[^\n]*\n`, `["']`,
	`[\w.]+@[\w.]+`, `^(git\s|ls|cat|pwd)`, `(^|\s)(pip install|npm i )`,
	`\u2014|\u2013`, `[àâçéèêëîïôûùüÿœÀÂÇÉÈÊ]`, `✅`, `ภาษาไทย`, `日本語`,
	`(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}|rgb\()`, `expect\([^)]+\)\.(toBe|toEqual)\(`,
	`\b(fix|bug|refactor)\b`, `:\s*any\b`, `^\s*(pytest|ruff)\b`, `rm\s+-rf\s+(/|~|\*|\.\.|\$)`,
	`\bprint\(`, `docker-compose\s+down.*-v`, `catch\s*\{\s*\}`, `\|\|\s*true`,
	// case folding
	`k`, `K`, `s`, `ſ`, `i`, `İ`, `ı`, `ß`, `ẞ`, `ﬅ`, `σ`, `ς`, `µ`, `ǅ`, `Ω`, `Ω`, `𐐀`, `𐐨`,
	`[a-z]`, `[A-Z]+`, `[^a-z]`, `[^k]`, `[ks]`, `[𐐀x]`, `[𐐨x]`, `[𐐀-𐐁x]`, `[\u0100-\U00010400]`,
	`[ß]`, `[ßx]`, `(?-i:k)`, `(?-i:[a-z])`, `(?a)k`, `(?a)[a-z]`, `(?a:s)`, `ss|ß`,
	// dot, newlines, anchors
	`.`, `a.b`, `(?s)a.b`, `a.{2}b`, `a.*b`, `a.+b`, `.{3}`, `^.$`, `^..$`, `^$`, `^`, `$`, `a$`,
	`a$|b`, `\Aa`, `a\Z`, `^a\Z`, `(?m)^a`, `(?m)a$`, `(?m)^a$`, `a\n$`, `\n`, `^\n`, `\n$`,
	`[^a]`, `[^a]b`, `a[^\n]+b`, `x$\Z`, `a$\n?`, `(a|b$)`, `(^a|b)c`, `(?m)(^|x)y`,
	// word boundaries
	`\bfoo`, `foo\b`, `\bfoo\b`, `\b-x`, `-x\b`, `\Bfoo`, `foo\B`, `\B-`, `-\B`, `\b`, `\B`,
	`foo\bbar`, `foo\b bar`, `foo \bbar`, `\w\b\W`, `^\bfoo`, `foo\b$`, `\b(a|b)\b`, `(\bx|y\b)`,
	`.*\bfoo`, `\s*\bfoo\b\s*`, `a\b`, `é\b`, `\bé`, `\b\d+\b`,
	// Python's Unicode \w \d \b (words.go): named word characters in blocks,
	// more blocks than block bytes (marked), lookarounds, the ASCII flag
	`\b(ä|ö|ü|é|è|ê|ë|ï|î|ô|ç|ñ)\b`, `\b(äa|öa|üa|éa|èa|êa|ëa|ïa|îa|ôa|ça|ña)\b`, `(äx|öx|üx|éx|èx|êx|ëx|ïx|îx|ôx|çx|ñx)\B.`, `(?<=\w)(ä|ö|ü|é|è|ê|ë|ï|î|ô|ç|ñ|ß)+\b`,
	`\w+\b(?!ö)`, `(?<=\w)ü\b`, `[^\Wé]+\b`, `\d+\s*€`, `\b\w{3}\b`, `(?a:\w)\b\w`, `(?a)\b\w+\b`,
	`[٠-٩]+\b`, `\bſ`, `\b[一-龥]+\b`, `\W\b\w`, `^\w+$`, `\D\d`, `[^\d]\b`, `(?!\w)\S`, `x(?<!\w)`,
	// quantifiers and groups
	`a{,3}b`, `a{2,}`, `xa{2,3}y`, `x(ab){2}y`, `x(a|)y`, `x(|a)y`, `x(a|b|)y`, `x()y`, `(?:)`,
	`a*?b`, `a+?b`, `a??b`, `x{2,3}?y`, `a{3}`, `a{0}b`, `(a*)*b`, `(a|b)*c`, `x{255}`, `x{256}`,
	`a{2,1}`, `a{`, `a{1`, `a{x}`, `a{1,2`, `{`, `}`, `a{}`, `]`, `x{,}`,
	// classes
	`[[:alpha:]]`, `[[]`, `[]a]`, `[^]a]`, `[a-]`, `[-a]`, `[\]]`, `[\\]`, `[\^]`, `[\d-]`, `[\s\S]`,
	`[^\s\S]`, `[\b]`, `[\x00-\x1f]`, `[\x00]`, `\x00`, `[ -~]`, `[\w-]`, `[.]`, `[*+?{}()|^$]`,
	`[a-z&&[^x]]`, `[é-ÿ]`, `[\u2000-\u206f]`,
	// escapes
	`\x41`, `\101`, `\0`, `\07`, `\t`, `\v`, `\a`, `\f`, `\\`, `\.`, `\/`, `\-`, `\ `, `\é`,
	`\U0001F600`, `\N{EM DASH}`, `\q`, `\8`, `\1`, `(a)\1`, `(?P<n>a)(?P=n)`, `\`,
	// verbose
	`(?x) a b # comment`, `(?x)a\ b`, `(?x)[ ]`, `(?x) a {2}`, `(?x:a b)c d`, `(?x)a#b\nc`,
	// flags
	`abc(?i)`, `(?i)(?s)a.b`, `(?is)x`, `(?L)a`, `(?au)a`, `(?a)(?u)a`, `(?u)a`, `(?t)a`,
	`(?i:a)b`, `(?s:.)`, `(?-s:.)`, `(?m:^a)`, `(?i-s:a.)`, `(?-x:a)`, `(?z)a`,
	// negative lookahead at the end of a branch (translated) and elsewhere (refused)
	`#[0-9A-Fa-f]{3}(?![0-9A-Fa-f])`, `git\s+push\s+.*--force(?!-with-lease)|git\s+push\s+.*\s-f\b`,
	`(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}(?![0-9A-Fa-f])|rgb\()`, `x(?!k)`, `x(?!K)`, `x(?!ſ)`, `x(?!s)`,
	`x(?!sk)`, `x(?!ks)`, `a(?!İ)`, `a(?!ı)`, `a(?!ß)`, `a(?!σ)`, `a(?!Ω)`, `a(?!😀)`, `a(?!𐐀)`,
	`a(?!\U0001F600x)`, `(?-i:a(?!K))`, `(?a)a(?!k)`, `a(?![^a-z])`, `a(?!.)`, `(?s)a(?!.)`,
	`a(?!\n)`, `a(?!\s)`, `a(?!\S\d)`, `a(?![α-ω]k)`, `a(?!b)+`, `a(?!b)\s*`, `a(?!(?:bc))`,
	`a(?!b|c)`, `(a(?!b)|c)`, `^(?!b)`, `(?!b)`, `a(?!\x00)`, `a(?![\x00-\x7f])`, `a(?!)`,
	`a(?!b)c`, `a(?!b*)`, `(a(?!b)|c)d`, `a(?!b)$`, `a(?!b){2}`, `a(?!b(?!c))`, `a(?!\bb)`,
	`a(?!b)(?!c)`, `a(?!b|cd)`, `"[^"]{8,}"(?!\s*\/\/)`,
	// lookarounds anywhere and \b between word characters (the automaton path)
	`git reset(?!.*--hard)`, `npx eslint(?!.*--quiet)`, `^(?!(feat|fix|docs)(\(.+\))?: ).+`,
	`git\s+push(?!.*--dry-run).*\b(main|master)\b`, `^rm\s+(?!-rf\s+(node_modules|\.next|dist|build)\b)`,
	`(?<=a)b`, `(?<!x)y`, `(?<=\s)-f\b`, `(?<![\w-])--force\b`, `\bx(?=.*y)`, `(?=.*a)(?=.*b)`,
	`(a(?=b)|c(?!d))+e`, `(?<=ab)(?=cd)`, `((?!ab).)*$`, `^((?!--hard).)*$`, `(?<=a(?<!b))c`,
	`x(?=(a|b)*c)`, `(?!a)b`, `a(?!b)c`, `a(?!b)$`, `\B$`, `\w\b\W`, `x.*\bfoo`, `(a|^b){2}c`,
	`a$\n`, `(?m)a$\nb`, `x(?=\b)`, `\b(?<=é)`, `(?<=é)\B`, `a(?=é\b)`, `(?<=^a)b`, `(?<=\Aa)b`,
	`(?<=a+)b`, `(?<=a|bc)d`, `(?<=a$)b`, `(?<=\bx)b`, `(?<!^)x`, `(?m)(?<!^)x`,
	// refused constructs
	`(?=a)b`, `(?!a)b`, `(?<=a)b`, `(?<!a)b`, `(?>ab)`, `a*+`, `a++b`, `(a)?(?(1)b|c)`,
	`^(?!.*foo)bar`, `(?P<x>a)`, `(?#comment)a`, `a(?#c)*`, `((a)`, `a)`, `(?`, `(?P`, `(?<a>x)`,
}

// genPattern builds a random pattern of Python syntax, mostly valid.
func genPattern(r *rand.Rand) string {
	var b strings.Builder
	if r.Intn(6) == 0 {
		flags := []string{"(?s)", "(?m)", "(?i)", "(?a)", "(?x)", "(?sm)", "(?-i:", "(?u)"}
		f := flags[r.Intn(len(flags))]
		b.WriteString(f)
		genAlt(r, &b, 0)
		if strings.HasSuffix(f, ":") {
			b.WriteByte(')')
		}
		return b.String()
	}
	genAlt(r, &b, 0)
	return b.String()
}

func genAlt(r *rand.Rand, b *strings.Builder, depth int) {
	n := 1
	if r.Intn(4) == 0 {
		n = 2 + r.Intn(2)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('|')
		}
		genSeq(r, b, depth)
	}
}

func genSeq(r *rand.Rand, b *strings.Builder, depth int) {
	for n := 1 + r.Intn(4); n > 0; n-- {
		genPiece(r, b, depth)
	}
	if r.Intn(6) == 0 {
		genNotAhead(r, b)
	}
}

// genNotAhead writes a negative lookahead at the end of a branch: mostly a few
// literals, sets and escapes (translated when nothing follows the branch), sometimes
// a form that stays refused.
func genNotAhead(r *rand.Rand, b *strings.Builder) {
	b.WriteString("(?!")
	for n := 1 + r.Intn(3); n > 0; n-- {
		switch k := r.Intn(10); {
		case k < 5:
			genLiteral(r, b)
		case k < 8:
			genClass(r, b)
		default:
			escapes := []string{`\d`, `\w`, `\s`, `\S`, `.`}
			b.WriteString(escapes[r.Intn(len(escapes))])
		}
	}
	if r.Intn(5) == 0 {
		refused := []string{"*", "+", "|b", `\b`, "$", "(?!a)", "{2}"}
		b.WriteString(refused[r.Intn(len(refused))])
	}
	b.WriteByte(')')
}

// genLook writes a lookaround anywhere: a lookahead of any body (nested
// lookarounds, repeats, alternatives, anchors and \b in it), or a lookbehind of
// a fixed width, sometimes a pair of them side by side. Python rejects a
// lookbehind of no fixed width; the translation must agree.
func genLook(r *rand.Rand, b *strings.Builder, depth int) {
	for n := 1 + r.Intn(2); n > 0; n-- {
		switch r.Intn(4) {
		case 0, 1:
			b.WriteString([]string{"(?=", "(?!"}[r.Intn(2)])
			if depth > 2 {
				genLiteral(r, b)
			} else {
				genAlt(r, b, depth+1)
			}
		default:
			b.WriteString([]string{"(?<=", "(?<!"}[r.Intn(2)])
			alts := 1 + r.Intn(2)
			w := 1 + r.Intn(3)
			for i := 0; i < alts; i++ {
				if i > 0 {
					b.WriteByte('|')
				}
				for j := 0; j < w; j++ {
					switch k := r.Intn(10); {
					case k < 5:
						genLiteral(r, b)
					case k < 7:
						genClass(r, b)
					case k < 8:
						b.WriteString([]string{`\w`, `\d`, `\s`, `.`, `\W`}[r.Intn(5)])
					case k < 9:
						b.WriteString([]string{`^`, `\A`, `(?<!a)`, `(?<=\w)`, `(?m:^)`}[r.Intn(5)])
					default:
						b.WriteString([]string{`a{2}`, `(?:b|c)`, `\b`, `$`, `x*`}[r.Intn(5)])
					}
				}
			}
		}
		b.WriteByte(')')
	}
}

func genPiece(r *rand.Rand, b *strings.Builder, depth int) {
	switch k := r.Intn(20); {
	case k < 7:
		genLiteral(r, b)
	case k < 10:
		genClass(r, b)
	case k < 12:
		escapes := []string{`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `.`, `.`}
		b.WriteString(escapes[r.Intn(len(escapes))])
	case k < 13 && r.Intn(2) == 0:
		genLook(r, b, depth)
		return
	case k < 15:
		anchors := []string{`^`, `$`, `\A`, `\Z`, `\b`, `\B`, `\b`, `$`}
		b.WriteString(anchors[r.Intn(len(anchors))])
		return // a quantifier here is a Python error; tested by handPatterns
	default:
		if depth > 2 {
			genLiteral(r, b)
			break
		}
		opens := []string{"(", "(?:", "(?:", "(?i:", "(?-i:", "(?s:", "(?m:", "(?a:", "(?P<g>"}
		o := opens[r.Intn(len(opens))]
		if o == "(?P<g>" && strings.Contains(b.String(), "(?P<g>") {
			o = "("
		}
		b.WriteString(o)
		genAlt(r, b, depth+1)
		b.WriteByte(')')
	}
	if r.Intn(3) == 0 {
		quants := []string{"*", "+", "?", "{2}", "{1,3}", "{,2}", "{2,}", "{0}", "{0,1}", "*?", "+?", "{1,2}?"}
		b.WriteString(quants[r.Intn(len(quants))])
	}
}

const pySpecial = `.^$*+?{}[]\|()`

func genLiteral(r *rand.Rand, b *strings.Builder) {
	c := randRune(r)
	switch k := r.Intn(12); {
	case k == 0:
		fmt.Fprintf(b, `\x%02x`, c&0xFF)
	case k == 1 && c < 0x10000:
		fmt.Fprintf(b, `\u%04x`, c)
	case k == 2:
		fmt.Fprintf(b, `\U%08x`, c)
	case c == '\n' && r.Intn(2) == 0:
		b.WriteString(`\n`)
	case c == '\t' && r.Intn(2) == 0:
		b.WriteString(`\t`)
	case strings.ContainsRune(pySpecial, c):
		b.WriteByte('\\')
		b.WriteRune(c)
	default:
		b.WriteRune(c)
	}
}

func genClass(r *rand.Rand, b *strings.Builder) {
	b.WriteByte('[')
	if r.Intn(3) == 0 {
		b.WriteByte('^')
	}
	ranges := []string{`a-z`, `A-Z`, `0-9`, `\x00-\x1f`, `é-ÿ`, `\u0100-\u017f`, `\u2000-\u206f`,
		`α-ω`, `\U00010000-\U0001ffff`, `!-/`, `K-S`, `j-l`, `\d`, `\w`, `\s`, `\D`, `\W`, `\S`,
		`\n`, `\t`, `\b`, `\\`, `\]`, `\^`, `\-`, `[`, `.`}
	for n := 1 + r.Intn(3); n > 0; n-- {
		if r.Intn(2) == 0 {
			b.WriteString(ranges[r.Intn(len(ranges))])
			continue
		}
		c := randRune(r)
		if strings.ContainsRune(`]\^-[`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte(']')
}

// countedAtoms are the atoms of genCounted's patterns, each with characters
// it matches.
var countedAtoms = []struct {
	p  string
	in []string
}{
	{"a", []string{"a", "A"}},
	{"k", []string{"k", "K", "K"}},
	{"[a-c]", []string{"b", "C"}},
	{".", []string{"x", "é", "😀", "€", "."}},
	{`\d`, []string{"7", "0"}},
	{`\w`, []string{"k", "_", "9"}},
	{`\s`, []string{" ", "\u3000", "\t"}},
	{`[^x]`, []string{"y", "ſ", "日"}},
	{"é", []string{"é", "É"}},
	{`(ab|c)`, []string{"ab", "c", "aB"}},
	{`(?:\.|-)`, []string{".", "-"}},
}

// genCount picks a counted repeat of one of the shapes: {n} small and
// large, {n,}, {n,m} and {,m} with few, many, and more optional copies
// than pyre.AWK writes out; max < 0 is {n,}.
func genCount(r *rand.Rand) (min, max int) {
	switch r.Intn(7) {
	case 0:
		n := r.Intn(6)
		return n, n
	case 1:
		n := 6 + r.Intn(250)
		return n, n
	case 2:
		if r.Intn(4) == 0 {
			return 240 + r.Intn(16), -1
		}
		return r.Intn(70), -1
	case 3:
		n := r.Intn(5)
		return n, n + 1 + r.Intn(8)
	case 4:
		n := r.Intn(20)
		return n, n + 10 + r.Intn(60)
	case 5:
		n := r.Intn(190)
		return n, n + r.Intn(66)
	default:
		return 0, r.Intn(70)
	}
}

func countText(r *rand.Rand, min, max int) string {
	switch {
	case max < 0:
		return fmt.Sprintf("{%d,}", min)
	case min == max && r.Intn(3) > 0:
		return fmt.Sprintf("{%d}", min)
	case min == 0 && r.Intn(2) == 0:
		return fmt.Sprintf("{,%d}", max)
	}
	return fmt.Sprintf("{%d,%d}", min, max)
}

// boundaryCounts are the counts a subject should try for {min,max}: each
// side of both ends, and one at random.
func boundaryCounts(r *rand.Rand, min, max int) []int {
	hi := max
	if hi < 0 {
		hi = min + 5
	}
	ks := []int{min - 1, min, min + 1, hi - 1, hi, hi + 1, min + r.Intn(hi-min+2)}
	var out []int
	for _, k := range ks {
		if k >= 0 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// genCounted builds a pattern with a counted repeat, q X{..} z or, nested,
// q(X{..}y){..}z, and subjects with runs of X around each end of the
// counts (subjects() samples near the lower end only).
func genCounted(r *rand.Rand) pyCase {
	a := countedAtoms[r.Intn(len(countedAtoms))]
	run := func(k int) string {
		var b strings.Builder
		for range k {
			b.WriteString(a.in[r.Intn(len(a.in))])
		}
		return b.String()
	}
	min, max := genCount(r)
	var c pyCase
	if r.Intn(4) > 0 {
		c.P = "q" + a.p + countText(r, min, max) + "z"
		for _, k := range boundaryCounts(r, min, max) {
			c.S = append(c.S, "q"+run(k)+"z", "Q"+run(k)+"z\n", "\nq"+run(k)+"yz")
		}
		return c
	}
	min, max = min%4, max%13 // nested: smaller counts
	if max >= 0 && max < min {
		max = min + 2
	}
	min2, max2 := r.Intn(3), r.Intn(5)
	max2 = min2 + max2
	c.P = "q(" + a.p + countText(r, min, max) + "y)" + countText(r, min2, max2) + "z"
	for _, k2 := range boundaryCounts(r, min2, max2) {
		var b strings.Builder
		b.WriteString("q")
		for range k2 {
			ks := boundaryCounts(r, min, max)
			b.WriteString(run(ks[r.Intn(len(ks))]) + "y")
		}
		c.S = append(c.S, b.String()+"z")
	}
	return c
}

var (
	diffN       = flag.Int("diffn", 700, "number of generated patterns in TestDifferential")
	diffCounted = flag.Int("diffcounted", 200, "number of generated patterns with counted repeats in TestDifferential")
	diffSeed    = flag.Int64("diffseed", 1, "random seed for TestDifferential")
)

// differentialCases are the handwritten and generated patterns, each with sampled
// subjects, that TestDifferential (and TestNeedleBash) run.
func differentialCases() []pyCase {
	r := rand.New(rand.NewSource(*diffSeed))
	var cases []pyCase
	for _, p := range handPatterns {
		cases = append(cases, pyCase{P: p, S: subjects(r, p, 6)})
	}
	for i := 0; i < *diffN; i++ {
		p := genPattern(r)
		cases = append(cases, pyCase{P: p, S: subjects(r, p, 4)})
	}
	for i := 0; i < *diffCounted; i++ {
		cases = append(cases, genCounted(r))
	}
	return cases
}

// TestDifferential compares Python's re.search with the translated ERE run by
// bash, and with its awk form (AWK) run by each of the four awks, on
// handwritten and generated patterns, each with sampled subjects.
func TestDifferential(t *testing.T) {
	requireTools(t)
	st := compare(t, differentialCases())
	logStats(t, st)
	if st.counted < *diffCounted/2 || st.kept == 0 || st.kept > st.counted/3 {
		t.Errorf("%d EREs with intervals, %d kept: too few to mean much, or too many kept", st.counted, st.kept)
	}
}

// TestDifferentialCorpus is TestDifferential for every regex of the corpus.
func TestDifferentialCorpus(t *testing.T) {
	requireTools(t)
	pats, _ := loadCorpus(t)
	r := rand.New(rand.NewSource(*diffSeed))
	var cases []pyCase
	for _, p := range pats {
		cases = append(cases, pyCase{P: p.pattern, S: subjects(r, p.pattern, 8)})
	}
	st := compare(t, cases)
	logStats(t, st)
	if st.translated < 150 || st.counted < 10 {
		t.Errorf("%d translated patterns, %d with intervals: is the corpus complete?", st.translated, st.counted)
	}
}

func logStats(t *testing.T, st diffStats) {
	var reasons []string
	for k, v := range st.refusals {
		reasons = append(reasons, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(reasons)
	t.Logf("%d patterns: %d translated, %d refused (%s), %d rejected by Python; %d comparisons (%d of subjects with non-ASCII letters or digits; %d left out: a letter newer than Python's Unicode)",
		st.patterns, st.translated, st.refused, strings.Join(reasons, ", "), st.pyErrors, st.comparisons, st.nonASCII, st.newer)
	t.Logf("awks: %d EREs with intervals, %d kept by AWK (not run by mawk); %d verdicts compared; %d tables, %d of their verdicts compared", st.counted, st.kept, st.awkComparisons, st.tables, st.tableComparisons)
}
