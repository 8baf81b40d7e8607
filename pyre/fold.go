package pyre

import (
	"cmp"
	"slices"
	"sync"
	"unicode"
)

// This file models which characters Python's re module matches for a literal or a
// character set, including its IGNORECASE rules for str patterns. The model follows
// what CPython 3.11's compiler emits (LITERAL_UNI_IGNORE, IN_UNI_IGNORE, the charset
// optimizer and RANGE_UNI_IGNORE): a subject character c matches a case-insensitive
// item when lower(c) is in the item's "lowered" set. Lowercase mapping is Unicode's
// simple mapping, which is Go's unicode.ToLower; the two tables below hold the only
// places where Python's sre differs from Go's simple case mappings. Both are checked
// against the local python3 by TestCaseTablesMatchPython.

// pyUpperSpecial maps the characters whose uppercase in sre (the first character of
// the full uppercase mapping) differs from the simple uppercase mapping.
var pyUpperSpecial = map[rune]rune{
	0x00DF: 0x0053, 0x0149: 0x02BC, 0x01F0: 0x004A, 0x0390: 0x0399, 0x03B0: 0x03A5,
	0x0587: 0x0535, 0x1E96: 0x0048, 0x1E97: 0x0054, 0x1E98: 0x0057, 0x1E99: 0x0059,
	0x1E9A: 0x0041, 0x1F50: 0x03A5, 0x1F52: 0x03A5, 0x1F54: 0x03A5, 0x1F56: 0x03A5,
	0x1F80: 0x1F08, 0x1F81: 0x1F09, 0x1F82: 0x1F0A, 0x1F83: 0x1F0B, 0x1F84: 0x1F0C,
	0x1F85: 0x1F0D, 0x1F86: 0x1F0E, 0x1F87: 0x1F0F, 0x1F88: 0x1F08, 0x1F89: 0x1F09,
	0x1F8A: 0x1F0A, 0x1F8B: 0x1F0B, 0x1F8C: 0x1F0C, 0x1F8D: 0x1F0D, 0x1F8E: 0x1F0E,
	0x1F8F: 0x1F0F, 0x1F90: 0x1F28, 0x1F91: 0x1F29, 0x1F92: 0x1F2A, 0x1F93: 0x1F2B,
	0x1F94: 0x1F2C, 0x1F95: 0x1F2D, 0x1F96: 0x1F2E, 0x1F97: 0x1F2F, 0x1F98: 0x1F28,
	0x1F99: 0x1F29, 0x1F9A: 0x1F2A, 0x1F9B: 0x1F2B, 0x1F9C: 0x1F2C, 0x1F9D: 0x1F2D,
	0x1F9E: 0x1F2E, 0x1F9F: 0x1F2F, 0x1FA0: 0x1F68, 0x1FA1: 0x1F69, 0x1FA2: 0x1F6A,
	0x1FA3: 0x1F6B, 0x1FA4: 0x1F6C, 0x1FA5: 0x1F6D, 0x1FA6: 0x1F6E, 0x1FA7: 0x1F6F,
	0x1FA8: 0x1F68, 0x1FA9: 0x1F69, 0x1FAA: 0x1F6A, 0x1FAB: 0x1F6B, 0x1FAC: 0x1F6C,
	0x1FAD: 0x1F6D, 0x1FAE: 0x1F6E, 0x1FAF: 0x1F6F, 0x1FB2: 0x1FBA, 0x1FB3: 0x0391,
	0x1FB4: 0x0386, 0x1FB6: 0x0391, 0x1FB7: 0x0391, 0x1FBC: 0x0391, 0x1FC2: 0x1FCA,
	0x1FC3: 0x0397, 0x1FC4: 0x0389, 0x1FC6: 0x0397, 0x1FC7: 0x0397, 0x1FCC: 0x0397,
	0x1FD2: 0x0399, 0x1FD3: 0x0399, 0x1FD6: 0x0399, 0x1FD7: 0x0399, 0x1FE2: 0x03A5,
	0x1FE3: 0x03A5, 0x1FE4: 0x03A1, 0x1FE6: 0x03A5, 0x1FE7: 0x03A5, 0x1FF2: 0x1FFA,
	0x1FF3: 0x03A9, 0x1FF4: 0x038F, 0x1FF6: 0x03A9, 0x1FF7: 0x03A9, 0x1FFC: 0x03A9,
	0xFB00: 0x0046, 0xFB01: 0x0046, 0xFB02: 0x0046, 0xFB03: 0x0046, 0xFB04: 0x0046,
	0xFB05: 0x0053, 0xFB06: 0x0053, 0xFB13: 0x0544, 0xFB14: 0x0544, 0xFB15: 0x0544,
	0xFB16: 0x054E, 0xFB17: 0x0544,
}

// pyCaseFixes is Python's re._casefix._EXTRA_CASES: for a lowercase code, the other
// lowercase codes whose characters have the same uppercase (s and long s, the Greek
// symbol variants, ...). A case-insensitive item matching l also matches them.
var pyCaseFixes = map[rune][]rune{
	0x0069: {0x0131}, 0x0073: {0x017F}, 0x00B5: {0x03BC}, 0x0131: {0x0069},
	0x017F: {0x0073}, 0x0345: {0x03B9, 0x1FBE}, 0x0390: {0x1FD3}, 0x03B0: {0x1FE3},
	0x03B2: {0x03D0}, 0x03B5: {0x03F5}, 0x03B8: {0x03D1}, 0x03B9: {0x0345, 0x1FBE},
	0x03BA: {0x03F0}, 0x03BC: {0x00B5}, 0x03C0: {0x03D6}, 0x03C1: {0x03F1},
	0x03C2: {0x03C3}, 0x03C3: {0x03C2}, 0x03C6: {0x03D5}, 0x03D0: {0x03B2},
	0x03D1: {0x03B8}, 0x03D5: {0x03C6}, 0x03D6: {0x03C0}, 0x03F0: {0x03BA},
	0x03F1: {0x03C1}, 0x03F5: {0x03B5}, 0x0432: {0x1C80}, 0x0434: {0x1C81},
	0x043E: {0x1C82}, 0x0441: {0x1C83}, 0x0442: {0x1C84, 0x1C85}, 0x044A: {0x1C86},
	0x0463: {0x1C87}, 0x1C80: {0x0432}, 0x1C81: {0x0434}, 0x1C82: {0x043E},
	0x1C83: {0x0441}, 0x1C84: {0x0442, 0x1C85}, 0x1C85: {0x0442, 0x1C84},
	0x1C86: {0x044A}, 0x1C87: {0x0463}, 0x1C88: {0xA64B}, 0x1E61: {0x1E9B},
	0x1E9B: {0x1E61}, 0x1FBE: {0x0345, 0x03B9}, 0x1FD3: {0x0390}, 0x1FE3: {0x03B0},
	0xA64B: {0x1C88}, 0xFB05: {0xFB06}, 0xFB06: {0xFB05},
}

// pyUpper is sre's uppercase mapping (used by RANGE_UNI_IGNORE and iscased).
func pyUpper(r rune) rune {
	if u, ok := pyUpperSpecial[r]; ok {
		return u
	}
	return unicode.ToUpper(r)
}

// foldMode is one of Python's two case-insensitive modes for str patterns.
type foldMode struct {
	lower        func(rune) rune
	lowerChanged runeSet // characters c with lower(c) != c
	lowerSame    runeSet // the complement of lowerChanged: lower(c) == c
	upperChanged runeSet // characters c with pyUpper(c) != c (Unicode, used by RANGE_UNI_IGNORE)
	cased        runeSet // characters sre calls cased in this mode
	fixes        map[rune][]rune
	// inverse is lower on lowerChanged, as pairs sorted by lower(c), then c:
	// preimage finds the characters that lower to a range by binary search
	// instead of calling lower on every member of lowerChanged.
	inverse []lowerPair
}

// lowerPair is one character c of lowerChanged and its lowercase l.
type lowerPair struct{ l, c rune }

// newFoldMode fills in the sets and the inverse map derived from lower.
func newFoldMode(lower func(rune) rune, lowerChanged, upperChanged, cased runeSet, fixes map[rune][]rune) *foldMode {
	m := &foldMode{
		lower:        lower,
		lowerChanged: lowerChanged,
		lowerSame:    lowerChanged.complement(),
		upperChanged: upperChanged,
		cased:        cased,
		fixes:        fixes,
	}
	lowerChanged.each(func(c rune) { m.inverse = append(m.inverse, lowerPair{lower(c), c}) })
	slices.SortFunc(m.inverse, func(a, b lowerPair) int { return cmp.Or(cmp.Compare(a.l, b.l), cmp.Compare(a.c, b.c)) })
	return m
}

var (
	foldOnce               sync.Once
	unicodeFold, asciiFold *foldMode
)

func folds() (*foldMode, *foldMode) {
	foldOnce.Do(func() {
		var lowerCh, upperCh []rrange
		for _, cr := range unicode.CaseRanges {
			for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
				if unicode.ToLower(c) != c {
					lowerCh = append(lowerCh, rrange{c, c})
				}
				if pyUpper(c) != c {
					upperCh = append(upperCh, rrange{c, c})
				}
			}
		}
		for c := range pyUpperSpecial {
			upperCh = append(upperCh, rrange{c, c})
		}
		lc, uc := newRuneSet(lowerCh...), newRuneSet(upperCh...)
		unicodeFold = newFoldMode(unicode.ToLower, lc, uc, lc.union(uc), pyCaseFixes)
		asciiFold = newFoldMode(lowerASCII, span('A', 'Z'), uc, newRuneSet(rrange{'A', 'Z'}, rrange{'a', 'z'}), nil)
	})
	return unicodeFold, asciiFold
}

// lowerASCII is lower in ASCII mode: only A-Z change.
func lowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// foldFor returns the case-insensitive mode for the flags, or nil when case matters.
func foldFor(f pyFlags) *foldMode {
	if f&flagIgnoreCase == 0 {
		return nil
	}
	u, a := folds()
	if f&flagASCII != 0 {
		return a
	}
	return u
}

// lowerSet returns {lower(c) : c in s}.
func (m *foldMode) lowerSet(s runeSet) runeSet {
	out := s.intersect(m.lowerSame)
	var extra []rune
	s.intersect(m.lowerChanged).each(func(c rune) { extra = append(extra, m.lower(c)) })
	return out.union(runes(extra...))
}

// withFixes adds the extra case equivalents of the lowercase codes in s.
func (m *foldMode) withFixes(s runeSet) runeSet {
	if m.fixes == nil {
		return s
	}
	var extra []rune
	for l, ks := range m.fixes {
		if s.has(l) {
			extra = append(extra, ks...)
		}
	}
	return s.union(runes(extra...))
}

// preimage returns {c : lower(c) in s}: the members of s that lower to
// themselves, and the characters of lowerChanged whose lowercase is in s,
// found range by range in the inverse map.
func (m *foldMode) preimage(s runeSet) runeSet {
	out := s.intersect(m.lowerSame)
	var extra []rune
	for _, r := range s {
		i, _ := slices.BinarySearchFunc(m.inverse, r.lo, func(p lowerPair, l rune) int { return cmp.Compare(p.l, l) })
		for ; i < len(m.inverse) && m.inverse[i].l <= r.hi; i++ {
			extra = append(extra, m.inverse[i].c)
		}
	}
	return out.union(runes(extra...))
}

// literalSet is the set of characters a literal matches under flags f.
func literalSet(r rune, f pyFlags) runeSet {
	m := foldFor(f)
	if m == nil || !m.cased.has(r) {
		return runes(r)
	}
	key := literalKey{m, r}
	if s, ok := literals.Load(key); ok {
		return s.(runeSet)
	}
	s := m.preimage(m.withFixes(runes(m.lower(r))))
	literals.Store(key, s)
	return s
}

// literals caches literalSet for cased characters, which patterns repeat
// (every letter of every word). A runeSet is never modified in place, so
// the cached value can be shared.
var literals sync.Map // literalKey -> runeSet

type literalKey struct {
	m *foldMode
	r rune
}

// classItem is one member of a Python character set: a literal, a range or a category.
type classItem struct {
	lo, hi rune    // literal when lo == hi and cat == catNone
	cat    catKind // category escape (\d, \s, ...) when not catNone
}

type catKind uint8

const (
	catNone catKind = iota
	catDigit
	catNotDigit
	catSpace
	catNotSpace
	catWord
	catNotWord
)

// pySpace is Python's str.isspace() set, which \s matches in Unicode mode.
var pySpace = newRuneSet(rrange{0x09, 0x0D}, rrange{0x1C, 0x20}, rrange{0x85, 0x85},
	rrange{0xA0, 0xA0}, rrange{0x1680, 0x1680}, rrange{0x2000, 0x200A},
	rrange{0x2028, 0x2029}, rrange{0x202F, 0x202F}, rrange{0x205F, 0x205F},
	rrange{0x3000, 0x3000})

var (
	asciiDigit = span('0', '9')
	asciiWord  = newRuneSet(rrange{'0', '9'}, rrange{'A', 'Z'}, rrange{'_', '_'}, rrange{'a', 'z'})
	asciiSpace = newRuneSet(rrange{0x09, 0x0D}, rrange{' ', ' '})
)

// catSet is the set a category matches: Python's, in Unicode mode and under
// the ASCII flag.
func catSet(c catKind, f pyFlags) runeSet {
	space, digit, word := pySpace, asciiDigit, asciiWord
	if f&flagASCII != 0 {
		space = asciiSpace
	} else {
		pyClasses()
		digit, word = pyDigit, pyWord
	}
	switch c {
	case catDigit:
		return digit
	case catNotDigit:
		if f&flagASCII == 0 {
			return pyNotDigit
		}
		return digit.complement()
	case catSpace:
		return space
	case catNotSpace:
		return space.complement()
	case catWord:
		return word
	case catNotWord:
		if f&flagASCII == 0 {
			return pyNotWord
		}
		return word.complement()
	}
	return nil
}

// classSet is the set of characters a Python character set matches under flags f,
// following CPython's _optimize_charset: with IGNORECASE and at least one cased
// member, c matches when lower(c) is in the lowered set (plus the extra cases), or in
// a non-BMP "tail" item, or when lower(c) belongs to a category.
func classSet(items []classItem, negate bool, f pyFlags) runeSet {
	var plain runeSet
	for _, it := range items {
		if it.cat != catNone {
			plain = plain.union(catSet(it.cat, f))
		} else {
			plain = plain.union(span(it.lo, it.hi))
		}
	}
	pos := plain
	if m := foldFor(f); m != nil {
		hascased := false
		var lowered, tail, cats runeSet
		var tailRanges runeSet
		for _, it := range items {
			switch {
			case it.cat != catNone:
				cats = cats.union(catSet(it.cat, f))
			case it.hi > 0xFFFF:
				// Python's charmap holds only the BMP; the rest goes to the tail
				// unlowered: literals as is, ranges as RANGE_UNI_IGNORE.
				hascased = true
				if it.lo < 0x10000 {
					lowered = lowered.union(m.withFixes(m.lowerSet(span(it.lo, 0xFFFF))))
				}
				if it.lo == it.hi {
					tail = tail.union(runes(it.lo))
				} else {
					tailRanges = tailRanges.union(span(it.lo, it.hi))
				}
			default:
				r := span(it.lo, it.hi)
				lowered = lowered.union(m.withFixes(m.lowerSet(r)))
				if r.overlaps(m.cased) {
					hascased = true
				}
			}
		}
		if hascased {
			q := lowered.union(tail).union(tailRanges).union(cats)
			if !tailRanges.empty() {
				var up []rune
				m.upperChanged.each(func(l rune) {
					if tailRanges.has(pyUpper(l)) {
						up = append(up, l)
					}
				})
				q = q.union(runes(up...))
			}
			pos = m.preimage(q)
		}
	}
	if negate {
		return pos.complement()
	}
	return pos
}

// anySet is the set '.' matches.
func anySet(f pyFlags) runeSet {
	if f&flagDotAll != 0 {
		return allRunes
	}
	return allRunes.minus(runes('\n'))
}

// wordChars is the set of word characters used to decide a \b or \B from the
// characters the pattern matches next to it: Python's, in Unicode mode and
// under the ASCII flag.
func wordChars(f pyFlags) runeSet {
	if f&flagASCII != 0 {
		return asciiWord
	}
	pyClasses()
	return pyWord
}
