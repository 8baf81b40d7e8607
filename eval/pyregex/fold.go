package pyregex

import (
	"slices"
	"sort"
	"sync"
	"unicode"
)

// Python's re, with IGNORECASE on a str pattern, compares characters by
// their simple lowercase (_sre.unicode_tolower, which is Go's
// unicode.ToLower), and adds "fixes": different lowercase characters whose
// uppercase is the same ('i' and 'ı', 's' and 'ſ', 'β' and 'ϐ', ...). A
// character class matches ch when lower(ch) is in the set made of the
// lowercase of every member plus their fixes (sre_compile's
// _optimize_charset). Here a set keeps its members as written and adds
// their lowercase forms and fixes, which gives the same answers because
// lower(lower(c)) == lower(c) for every c (tested).

// rrange is an inclusive range of code points.
type rrange struct{ lo, hi rune }

// set is a sorted list of non-overlapping, non-adjacent ranges.
type set []rrange

func normalize(rs []rrange) set {
	if len(rs) == 0 {
		return nil
	}
	rs = slices.Clone(rs)
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	out := set{rs[0]}
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			last.hi = max(last.hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func (s set) has(r rune) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi >= r })
	return i < len(s) && s[i].lo <= r
}

// caseData are the characters whose simple lowercase differs from them,
// and the fixes table.
var caseData = sync.OnceValues(func() ([][2]rune, map[rune][]rune) {
	var lowers [][2]rune
	groups := map[rune][]rune{} // simple uppercase -> distinct lowercase forms
	addGroup := func(u, l rune) {
		if !slices.Contains(groups[u], l) {
			groups[u] = append(groups[u], l)
		}
	}
	for _, cr := range unicode.CaseRanges {
		for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
			l, u := unicode.ToLower(c), unicode.ToUpper(c)
			if l != c {
				lowers = append(lowers, [2]rune{c, l})
			}
			addGroup(u, l)
			addGroup(unicode.ToUpper(l), l)
		}
	}
	fixes := map[rune][]rune{}
	add := func(a, b rune) {
		if a != b && !slices.Contains(fixes[a], b) {
			fixes[a] = append(fixes[a], b)
		}
	}
	for _, ls := range groups {
		for _, a := range ls {
			for _, b := range ls {
				add(a, b)
			}
		}
	}
	// Pairs whose full uppercase (SpecialCasing.txt) is the same string of
	// several characters; Go's tables have only simple mappings.
	for _, p := range [][2]rune{
		{0x0390, 0x1FD3}, // ΐ ΐ: "Ϊ́"
		{0x03B0, 0x1FE3}, // ΰ ΰ: "Ϋ́"
		{0xFB05, 0xFB06}, // ﬅ ﬆ: "ST"
	} {
		add(p[0], p[1])
		add(p[1], p[0])
	}
	for k := range fixes {
		slices.Sort(fixes[k])
	}
	return lowers, fixes
})

func lower(r rune) rune { return unicode.ToLower(r) }

func asciiLower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// foldUnicode returns s plus the lowercase of its members and their fixes.
func foldUnicode(s set) set {
	lowers, fixes := caseData()
	out := slices.Clone([]rrange(s))
	var added []rune
	for _, p := range lowers {
		if s.has(p[0]) {
			added = append(added, p[1])
		}
	}
	for _, l := range added {
		out = append(out, rrange{l, l})
	}
	withLowers := normalize(out)
	for k, fs := range fixes {
		if withLowers.has(k) {
			for _, f := range fs {
				out = append(out, rrange{f, f})
			}
		}
	}
	return normalize(out)
}

// foldASCII returns s plus the ASCII lowercase of its members.
func foldASCII(s set) set {
	out := slices.Clone([]rrange(s))
	for _, r := range s {
		lo, hi := max(r.lo, 'A'), min(r.hi, 'Z')
		if lo <= hi {
			out = append(out, rrange{lo + 32, hi + 32})
		}
	}
	return normalize(out)
}

// category is a class escape: \d \D \s \S \w \W.
type category uint8

const (
	catDigit category = iota
	catNotDigit
	catSpace
	catNotSpace
	catWord
	catNotWord
)

// unicodeSpace is Python's str.isspace(), which \s matches in Unicode mode.
var unicodeSpace = set{
	{0x09, 0x0D}, {0x1C, 0x20}, {0x85, 0x85}, {0xA0, 0xA0}, {0x1680, 0x1680},
	{0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
}

// asciiSpace is \s with the ASCII flag.
var asciiSpace = set{{0x09, 0x0D}, {0x20, 0x20}}

// IsWord reports whether r is a word character for \w and \b in a str
// pattern: _sre's Py_UNICODE_ISALNUM(r) || r == '_', which is the Unicode
// categories L* and N* and '_'. Combining marks (Mn, Mc) and connector
// punctuation other than '_' (Pc, such as U+203F) are not word characters.
func IsWord(r rune) bool {
	if r < 0x80 {
		return isWordASCII(r)
	}
	return unicode.In(r, unicode.L, unicode.N)
}

// isWordASCII is \w and \b with the ASCII flag: [0-9A-Za-z_].
func isWordASCII(r rune) bool {
	return '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || r == '_'
}

// isDigit is \d in a str pattern: Py_UNICODE_ISDECIMAL, the category Nd.
func isDigit(r rune) bool {
	if r < 0x80 {
		return isDigitASCII(r)
	}
	return unicode.Is(unicode.Nd, r)
}

// isDigitASCII is \d with the ASCII flag: [0-9].
func isDigitASCII(r rune) bool { return '0' <= r && r <= '9' }

func (c category) match(r rune, ascii bool) bool {
	word, digit, space := IsWord, isDigit, unicodeSpace
	if ascii {
		word, digit, space = isWordASCII, isDigitASCII, asciiSpace
	}
	switch c {
	case catDigit, catNotDigit:
		return digit(r) == (c == catDigit)
	case catSpace, catNotSpace:
		return space.has(r) == (c == catSpace)
	case catWord, catNotWord:
		return word(r) == (c == catWord)
	}
	return false
}

type foldMode uint8

const (
	foldNone foldMode = iota
	foldUni
	foldASCIIOnly
)

// class matches one character: a set, categories, negation, and the case
// rule in force where it was written.
type class struct {
	set   set
	cats  []category
	ascii bool // categories in ASCII mode (the a flag)
	neg   bool
	fold  foldMode
	any   bool // "." : every character but '\n' (dotall: all)
	dotal bool
	low   [2]uint64 // the answers for ASCII characters
}

// done fills the ASCII answers.
func (c *class) done() *class {
	for r := rune(0); r < 128; r++ {
		if c.slow(r) {
			c.low[r>>6] |= 1 << (r & 63)
		}
	}
	return c
}

// match tests r. With IGNORECASE, when the class has a cased member,
// _sre tests the lowercase of r against the folded set and the categories
// (IN_UNI_IGNORE); otherwise it tests r itself (IN).
func (c *class) match(r rune) bool {
	if 0 <= r && r < 128 {
		return c.low[r>>6]&(1<<(r&63)) != 0
	}
	return c.slow(r)
}

func (c *class) slow(r rune) bool {
	if c.any {
		return c.dotal || r != '\n'
	}
	x := r
	switch c.fold {
	case foldUni:
		x = lower(r)
	case foldASCIIOnly:
		x = asciiLower(r)
	}
	in := c.set.has(x)
	for _, cat := range c.cats {
		if in {
			break
		}
		in = cat.match(x, c.ascii)
	}
	return in != c.neg
}

// newClass builds a class of items under flags f.
func newClass(rs []rrange, cats []category, neg bool, f flags) *class {
	c := &class{set: normalize(rs), cats: cats, neg: neg, ascii: f&flagA != 0}
	switch {
	case f&flagI == 0:
	case f&flagA != 0:
		if hasCased(c.set, isCasedASCII) {
			c.fold = foldASCIIOnly
			c.set = foldASCII(c.set)
		}
	case hasCased(c.set, isCased):
		c.fold = foldUni
		c.set = foldUnicode(c.set)
	}
	return c.done()
}

func hasCased(s set, cased func(rune) bool) bool {
	for _, r := range s {
		for c := r.lo; c <= r.hi; c++ {
			if cased(c) {
				return true
			}
			if c == 0x10FFFF {
				break
			}
		}
	}
	return false
}

func isCasedASCII(r rune) bool { return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' }

// isCased is _sre.unicode_iscased: lower(r) != r or upper(r) != r, where
// upper is the first character of the full uppercase mapping. That differs
// from the simple mapping only for the characters of fullUpper.
func isCased(r rune) bool {
	return unicode.ToLower(r) != r || unicode.ToUpper(r) != r || fullUpper.has(r)
}

// fullUpper are the characters whose full uppercase (SpecialCasing.txt)
// starts with another character than their simple uppercase: ß, ŉ, ǰ, ΐ, ΰ,
// և, ẖ..ẚ, the Greek letters with ypogegrammeni and accents, the Latin and
// Armenian ligatures.
var fullUpper = set{
	{0x00DF, 0x00DF}, {0x0149, 0x0149}, {0x01F0, 0x01F0}, {0x0390, 0x0390}, {0x03B0, 0x03B0},
	{0x0587, 0x0587}, {0x1E96, 0x1E9A}, {0x1F50, 0x1F50}, {0x1F52, 0x1F52}, {0x1F54, 0x1F54},
	{0x1F56, 0x1F56}, {0x1F80, 0x1FAF}, {0x1FB2, 0x1FB4}, {0x1FB6, 0x1FB7}, {0x1FBC, 0x1FBC},
	{0x1FC2, 0x1FC4}, {0x1FC6, 0x1FC7}, {0x1FCC, 0x1FCC}, {0x1FD2, 0x1FD3}, {0x1FD6, 0x1FD7},
	{0x1FE2, 0x1FE4}, {0x1FE6, 0x1FE7}, {0x1FF2, 0x1FF4}, {0x1FF6, 0x1FF7}, {0x1FFC, 0x1FFC},
	{0xFB00, 0xFB06}, {0xFB13, 0xFB17},
}
