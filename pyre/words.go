package pyre

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Python's Unicode \w, \d and \b (docs/awk-engines.md §15).
//
// Python reads \w as str.isalnum() or '_' (the categories L and N, and '_')
// and \d as the category Nd. Written as UTF-8 byte sequences these sets are
// 4 KB of ERE each, which no awk matches cheaply (docs/awk-engines.md §12). So a pattern that
// uses them (or \b, \B) is translated for a rewritten value instead: every
// non-ASCII word character of the value becomes one byte that valid UTF-8
// never holds, 0xF8 for a letter and 0xF9 for a digit (Nd), and the ERE tests
// those bytes. The non-ASCII word characters the pattern names itself (K and
// ſ in a case-insensitive \bks, é in [àé]\b, the ones a negated set leaves
// out) fall into blocks that every set of the pattern holds whole or not at
// all; each block becomes a byte of its own (the other bytes valid UTF-8
// never holds: 0xFB-0xFF, 0xF5-0xF7, 0xC0, 0xC1), and where a pattern has more
// blocks than those bytes, the characters of the rest keep their bytes and
// get a 0xFA after them. So the byte before a position always tells whether
// a word character ends there, and, but for those marked characters, the
// byte after it whether one starts. ASCII text stays as it is: on an ASCII
// value, which hooks mostly see, the ERE runs on the value itself.
//
// The awk hooks rewrite with templates/words.awk and the PowerShell twin with
// its hk_u, both from WordTable and the pattern's words; Rewrite is the same
// in Go.

// The rewritten bytes, and the code points that stand for them in a set of
// the rewritten alphabet (above every Unicode code point; setNode writes them).
const (
	byteWord  = 0xF8 // a non-ASCII letter the pattern does not name
	byteDigit = 0xF9 // a non-ASCII digit (Nd) the pattern does not name
	byteMark  = 0xFA // after a named word character of no block byte

	vWord  rune = 0x110000 // byteWord
	vDigit rune = 0x110001 // byteDigit
	vBlock rune = 0x110002 // vBlock+i: blockBytes[i]
	vMark  rune = 0x200000 // vMark+c: c, then byteMark
)

// blockBytes are the bytes of the blocks of named word characters.
// The ones next to byteWord come first: a rewritten alphabet that uses few
// of them keeps whole ranges of the bytes UTF-8 never holds free (dfa's
// dontCare), so its automata stay small.
var blockBytes = []byte{0xFB, 0xFC, 0xFD, 0xFE, 0xFF, 0xF7, 0xF6, 0xF5, 0xC1, 0xC0}

// rewriteBytes are all the bytes a rewrite writes that valid UTF-8 never
// holds: each ends a word character.
var rewriteBytes = func() byteSet {
	var s byteSet
	for _, b := range blockBytes {
		s.add(b)
	}
	s.add(byteWord)
	s.add(byteDigit)
	s.add(byteMark)
	return s
}()

var (
	pyOnce  sync.Once
	pyWord  runeSet // Python's \w: L, N and '_'
	pyDigit runeSet // Python's \d: Nd
	// and their complements, and the non-ASCII letters and digits
	pyNotWord, pyNotDigit, pyLetters, pyDigits runeSet
)

func pyClasses() {
	pyOnce.Do(func() {
		pyWord = tableSet(unicode.L).union(tableSet(unicode.N)).union(runes('_'))
		pyDigit = tableSet(unicode.Nd)
		pyNotWord = pyWord.complement()
		pyNotDigit = pyDigit.complement()
		pyLetters = pyWord.minus(pyDigit).intersect(nonASCII)
		pyDigits = pyDigit.intersect(nonASCII)
	})
}

func tableSet(t *unicode.RangeTable) runeSet {
	var rs []rrange
	for _, r := range t.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			rs = append(rs, rrange{c, c})
		}
	}
	for _, r := range t.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			rs = append(rs, rrange{c, c})
		}
	}
	return newRuneSet(rs...)
}

// alphabet is the rewritten alphabet of one pattern; nil is the value's own
// (UTF-8, for a pattern that reads no Unicode class).
type alphabet struct {
	blocks              []runeSet // named word characters, each block written as blockBytes[i]
	marked              runeSet   // named word characters written with byteMark after them
	gw, gd              runeSet   // the non-ASCII letters and digits written as byteWord, byteDigit
	freeSet             runeSet   // free(), once
	highSet             runeSet   // high(), once
	wordSet, nonWordSet runeSet   // word() and nonWord(), once
}

// unicodeSensitive reports whether n reads Python's Unicode \w, \d, \b or
// \B somewhere (not under the ASCII flag).
func unicodeSensitive(n *node) (uni bool) {
	var walk func(n *node)
	walk = func(n *node) {
		use := false
		switch n.op {
		case opAt:
			use = n.at == atBoundary || n.at == atNonBoundary
		case opClass:
			for _, it := range n.items {
				switch it.cat {
				case catWord, catNotWord, catDigit, catNotDigit:
					use = true
				}
			}
		}
		if use && n.flags&flagASCII == 0 {
			uni = true
		}
		for _, s := range n.subs {
			walk(s)
		}
	}
	walk(n)
	return uni
}

// newAlphabet builds the rewritten alphabet of root. The non-ASCII word
// characters it names are the ones its sets split the letters or the digits
// at (the smaller side of each split), so every set holds all the others or
// none of them; the sets split the named ones into blocks.
func newAlphabet(root *node) *alphabet {
	pyClasses()
	letters, digits := pyLetters, pyDigits
	var sets []runeSet
	var walk func(n *node)
	walk = func(n *node) {
		switch n.op {
		case opLiteral, opClass, opAny:
			sets = append(sets, itemSet(n))
		}
		for _, s := range n.subs {
			walk(s)
		}
	}
	walk(root)
	var named runeSet
	for _, s := range sets {
		if len(s) == 0 || s[len(s)-1].hi < 0x80 {
			continue // ASCII only
		}
		for _, g := range []runeSet{letters, digits} {
			in := s.intersect(g)
			n, all := size(in), size(g)
			switch {
			case n == 0 || n == all:
			case n <= all-n:
				named = named.union(in)
			default:
				named = named.union(g.minus(s))
			}
		}
	}
	a := &alphabet{gw: letters.minus(named), gd: digits.minus(named)}
	if named.empty() {
		return a
	}
	blocks := []runeSet{named}
	for _, s := range append(sets, pyDigit) {
		var next []runeSet
		for _, b := range blocks {
			for _, part := range []runeSet{b.intersect(s), b.minus(s)} {
				if !part.empty() {
					next = append(next, part)
				}
			}
		}
		blocks = next
	}
	slices.SortFunc(blocks, func(x, y runeSet) int { return int(x[0].lo - y[0].lo) })
	for i, b := range blocks {
		if i < len(blockBytes) {
			a.blocks = append(a.blocks, b)
		} else {
			a.marked = a.marked.union(b)
		}
	}
	return a
}

// of is s in the rewritten alphabet. Letters and digits never occur in a
// rewritten value as their own bytes but the marked ones, so the non-word
// part may hold them or not: of takes the form with fewer ranges.
func (a *alphabet) of(s runeSet) runeSet {
	if a == nil || len(s) == 0 || s[len(s)-1].hi < 0x80 {
		return s // ASCII only
	}
	out := s.intersect(asciiSpan)
	if s.overlaps(a.gw) {
		out = out.union(runes(vWord))
	}
	if s.overlaps(a.gd) {
		out = out.union(runes(vDigit))
	}
	for i, b := range a.blocks {
		if s.overlaps(b) {
			out = out.union(runes(vBlock + rune(i)))
		}
	}
	for _, r := range s.intersect(a.marked) {
		out = out.union(span(vMark+r.lo, vMark+r.hi))
	}
	// Three forms of the same characters in a rewritten value: the
	// non-word ones alone (exact: a \b next to it is decided from the
	// set), all but the marked letters, the non-word ones and every free
	// letter. The others only where the first has many ranges.
	high := s.intersect(nonASCII)
	rest := high.intersect(pyNotWord)
	if len(rest) > 4 {
		if alt := high.minus(a.marked); len(alt) < len(rest) {
			rest = alt
		}
		if len(rest) > 4 {
			if alt := high.intersect(pyNotWord).union(a.free()); len(alt) < len(rest) {
				rest = alt
			}
		}
	}
	return out.union(rest)
}

// free are the non-ASCII characters a rewritten value never holds as
// their own bytes: the letters and digits that are not marked.
func (a *alphabet) free() runeSet {
	if a.freeSet == nil {
		pyClasses()
		a.freeSet = pyWord.intersect(nonASCII).minus(a.marked)
	}
	return a.freeSet
}

// high is every character of the alphabet that is not ASCII.
func (a *alphabet) high() runeSet {
	if a == nil {
		return nonASCII
	}
	if a.highSet == nil {
		a.highSet = nonASCII.minus(a.marked).union(a.words())
	}
	return a.highSet
}

// word is Python's \w in the rewritten alphabet.
func (a *alphabet) word() runeSet {
	if a == nil {
		return asciiWord
	}
	if a.wordSet == nil {
		// of(pyWord), written out: every word character is ASCII or
		// stands for a byte of its own, but the marked ones.
		a.wordSet = asciiWord.union(a.words())
	}
	return a.wordSet
}

// words are the members of the alphabet that stand for the non-ASCII word
// characters: byteWord, byteDigit, the block bytes and the marked ones.
func (a *alphabet) words() runeSet {
	var w runeSet
	if !a.gw.empty() {
		w = w.union(runes(vWord))
	}
	if !a.gd.empty() {
		w = w.union(runes(vDigit))
	}
	for i := range a.blocks {
		w = w.union(runes(vBlock + rune(i)))
	}
	for _, r := range a.marked {
		w = w.union(span(vMark+r.lo, vMark+r.hi))
	}
	return w
}

// wordBytes are the bytes a word character can end with.
func (a *alphabet) wordBytes() byteSet {
	if a == nil {
		return wordBytes
	}
	w := wordBytes
	for b := 0x80; b < 0x100; b++ {
		if rewriteBytes.has(byte(b)) && a.occurs(byte(b)) {
			w.add(byte(b))
		}
	}
	return w
}

// boundary reports whether a match may start before byte b: not inside a
// character (a continuation byte, or the mark after a named word character).
func (a *alphabet) boundary(b byte) bool {
	return !(b >= 0x80 && b <= 0xBF) && !(a != nil && b == byteMark)
}

// spec is the text of the rewrite (Translate's words): "unicode", then the
// named word characters as decimal ranges, each with the byte that stands
// for it, or 0 for a byteMark after it ("unicode 304-305/192 383-383/193").
func (a *alphabet) spec() string {
	if a == nil {
		return ""
	}
	var w strings.Builder
	w.WriteString("unicode")
	var ranges []rrange
	code := map[rune]byte{}
	for i, b := range a.blocks {
		for _, r := range b {
			ranges = append(ranges, r)
			code[r.lo] = blockBytes[i]
		}
	}
	for _, r := range a.marked {
		ranges = append(ranges, r)
		code[r.lo] = 0
	}
	slices.SortFunc(ranges, func(x, y rrange) int { return int(x.lo - y.lo) })
	for _, r := range ranges {
		fmt.Fprintf(&w, " %d-%d/%d", r.lo, r.hi, code[r.lo])
	}
	return w.String()
}

// named is one range of a spec.
type named struct {
	lo, hi rune
	code   byte // 0: byteMark after the character
}

// parseWords reads a spec back.
func parseWords(words string) ([]named, bool) {
	f := strings.Fields(words)
	if len(f) == 0 || f[0] != "unicode" {
		return nil, false
	}
	var out []named
	for _, x := range f[1:] {
		var n named
		var code int
		if _, err := fmt.Sscanf(x, "%d-%d/%d", &n.lo, &n.hi, &code); err != nil {
			return nil, false
		}
		n.code = byte(code)
		out = append(out, n)
	}
	return out, true
}

// Rewrite is v as the ERE of a pattern whose words (from Translate) are
// not "" reads it: every non-ASCII letter or digit becomes byte 0xF8 or
// 0xF9, except the ones the pattern names, which become the byte of their
// block or get a 0xFA after them. Everything else, and every byte that is
// not valid UTF-8, stays.
func Rewrite(words, v string) string {
	names, ok := parseWords(words)
	if !ok {
		return v
	}
	pyClasses()
	var w strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		j := slices.IndexFunc(names, func(x named) bool { return x.lo <= r && r <= x.hi })
		switch {
		case r < 0x80 || (r == utf8.RuneError && n == 1):
			w.WriteString(v[i : i+n])
		case j >= 0 && names[j].code != 0:
			w.WriteByte(names[j].code)
		case j >= 0:
			w.WriteString(v[i : i+n])
			w.WriteByte(byteMark)
		case pyDigit.has(r):
			w.WriteByte(byteDigit)
		case pyWord.has(r):
			w.WriteByte(byteWord)
		default:
			w.WriteString(v[i : i+n])
		}
		i += n
	}
	return w.String()
}

// WordTable is the table the hooks rewrite with: the kind of every code
// point (0 other, 1 letter, 2 digit), in blocks of 4096 code points
// (U+0000-U+0FFF, U+1000-U+1FFF, ...), separated by ";". A block is the
// kinds of its runs of one kind, one digit each, then the offset in the
// block of each run after the first, separated by spaces ("010 65 91": 0
// up to 64, 1 up to 90, 0 from 91). A hook splits the blocks once and a
// block when a character of it comes, and finds the run by binary search:
// no loop over the table in awk.
func WordTable() string {
	wordTableOnce.Do(func() {
		pyClasses()
		kind := func(r rune) int {
			switch {
			case pyDigit.has(r):
				return 2
			case pyWord.has(r):
				return 1
			}
			return 0
		}
		// Where a kind may change: the ends of the ranges of both sets.
		var cuts []rune
		for _, s := range []runeSet{pyWord, pyDigit} {
			for _, r := range s {
				cuts = append(cuts, r.lo, r.hi+1)
			}
		}
		slices.Sort(cuts)
		var w strings.Builder
		for blk := rune(0); blk <= maxRune; blk += wordBlock {
			if blk > 0 {
				w.WriteByte(';')
			}
			kinds, offs := []byte{byte('0' + kind(blk))}, ""
			for _, c := range cuts {
				if c > blk && c < blk+wordBlock && kind(c) != int(kinds[len(kinds)-1]-'0') {
					kinds = append(kinds, byte('0'+kind(c)))
					offs += " " + strconv.Itoa(int(c-blk))
				}
			}
			w.WriteString(string(kinds) + offs)
		}
		wordTable = w.String()
	})
	return wordTable
}

// wordBlock is the size of WordTable's blocks.
const wordBlock = 4096

var (
	wordTableOnce sync.Once
	wordTable     string
)

// nonWord is Python's \W in the rewritten alphabet.
func (a *alphabet) nonWord() runeSet {
	if a.nonWordSet == nil {
		// of(\W), written out: the other letters never occur as their
		// own bytes.
		a.nonWordSet = asciiWord.complement().intersect(asciiSpan).minus(unmatchable).union(nonASCII.minus(a.marked))
	}
	return a.nonWordSet
}

// firstWordBytes are the bytes a word character can start with, when that
// byte alone tells: always in the value's own alphabet (ASCII word bytes),
// and in a rewritten one that marks no word character.
func (a *alphabet) firstWordBytes() (byteSet, bool) {
	if a == nil {
		return wordBytes, true
	}
	if !a.marked.empty() {
		return byteSet{}, false
	}
	return a.wordBytes(), true // without byteMark: it occurs only with marks
}

func size(s runeSet) int {
	n := 0
	for _, r := range s {
		n += int(r.hi-r.lo) + 1
	}
	return n
}

// occurs reports whether a rewritten value can hold byte b, one of
// rewriteBytes.
func (a *alphabet) occurs(b byte) bool {
	switch b {
	case byteWord, byteDigit:
		return true
	case byteMark:
		return !a.marked.empty()
	}
	i := slices.Index(blockBytes, b)
	return i >= 0 && i < len(a.blocks)
}
