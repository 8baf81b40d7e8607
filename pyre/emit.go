package pyre

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"
)

// This file is the byte-level side: a small ERE tree, how a set of characters
// becomes UTF-8 byte sequences, and how the tree is printed in the portable subset.
//
// Alignment. Every piece emitted for a set of characters is "aligned": it can only
// start matching at a byte that is not a UTF-8 continuation byte, and when it starts
// at a character boundary of a valid UTF-8 subject it ends at one, having matched
// exactly one character of the set. Sequences of aligned pieces therefore match the
// same strings as Python does, character by character. Two exceptions are sound for
// the reasons given where they are made: the compact star (starNode) and the
// consumed neighbour of an edge \b or \B.

type bkind uint8

const (
	bEmpty bkind = iota // matches the empty string
	bNever              // matches nothing
	bBytes              // one byte from set
	bSeq                // subs in sequence
	bAlt                // subs as alternatives
	bRep                // subs[0] min..max times (max < 0: unbounded)
	bBOL                // ^
	bEOL                // $
)

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)     { s[b>>6] |= 1 << (b & 63) }
func (s byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s byteSet) empty() bool     { return s == byteSet{} }
func (s byteSet) union(t byteSet) byteSet {
	return byteSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}
func (s byteSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

func byteRange(lo, hi byte) byteSet {
	var s byteSet
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
	return s
}

type bnode struct {
	kind     bkind
	set      byteSet
	subs     []*bnode
	min, max int
}

func bytesNode(s byteSet) *bnode {
	s[0] &^= 1 // never NUL
	if s.empty() {
		return &bnode{kind: bNever}
	}
	return &bnode{kind: bBytes, set: s}
}

func byteNode(b byte) *bnode { return bytesNode(byteRange(b, b)) }

func seqNode(xs ...*bnode) *bnode {
	var subs []*bnode
	for _, x := range xs {
		switch x.kind {
		case bNever:
			return x
		case bEmpty:
		case bSeq:
			subs = append(subs, x.subs...)
		default:
			subs = append(subs, x)
		}
	}
	switch len(subs) {
	case 0:
		return &bnode{kind: bEmpty}
	case 1:
		return subs[0]
	}
	return &bnode{kind: bSeq, subs: subs}
}

// altNode builds alternatives: impossible ones are dropped, single bytes are merged
// into one set, and an empty alternative makes the rest optional ((a|) -> (a)?).
func altNode(xs ...*bnode) *bnode {
	var subs []*bnode
	var bytes *bnode
	hasEmpty := false
	var flat []*bnode
	for _, x := range xs {
		if x.kind == bAlt {
			flat = append(flat, x.subs...)
		} else {
			flat = append(flat, x)
		}
	}
	for _, x := range flat {
		switch x.kind {
		case bNever:
		case bEmpty:
			hasEmpty = true
		case bBytes:
			if bytes == nil {
				bytes = &bnode{kind: bBytes, set: x.set}
				subs = append(subs, bytes)
			} else {
				bytes.set = bytes.set.union(x.set)
			}
		default:
			subs = append(subs, x)
		}
	}
	var out *bnode
	switch len(subs) {
	case 0:
		if hasEmpty {
			return &bnode{kind: bEmpty}
		}
		return &bnode{kind: bNever}
	case 1:
		out = subs[0]
	default:
		out = &bnode{kind: bAlt, subs: subs}
	}
	if hasEmpty {
		return repNode(out, 0, 1)
	}
	return out
}

func repNode(x *bnode, min, max int) *bnode {
	switch {
	case x.kind == bNever:
		if min == 0 {
			return &bnode{kind: bEmpty}
		}
		return x
	case x.kind == bEmpty, max == 0:
		return &bnode{kind: bEmpty}
	case min == 1 && max == 1:
		return x
	}
	return &bnode{kind: bRep, subs: []*bnode{x}, min: min, max: max}
}

// size estimates how many atoms an engine builds for the tree once counted repeats
// are expanded, as glibc does.
func (b *bnode) size() int {
	switch b.kind {
	case bSeq, bAlt:
		s := 0
		for _, x := range b.subs {
			s += x.size()
		}
		return s
	case bRep:
		k := b.max
		if k < 0 {
			k = max(b.min, 1)
		}
		return b.subs[0].size() * max(k, 1)
	}
	return 1
}

var (
	nonASCII  = span(0x80, maxRune).minus(unmatchable)
	asciiSpan = span(1, 0x7F)
	wordBytes = asciiBytes(asciiWord)
)

func asciiBytes(s runeSet) byteSet {
	var b byteSet
	s.intersect(asciiSpan).each(func(r rune) { b.add(byte(r)) })
	return b
}

// complementBytes is every byte from 0x01 to 0xFF not in s.
func complementBytes(s byteSet) byteSet {
	c := byteSet{^s[0], ^s[1], ^s[2], ^s[3]}
	c[0] &^= 1
	return c
}

// utf8Class describes the code points encoded with n bytes, and the values the same
// lead bytes can carry that never occur in valid UTF-8 (overlong forms, surrogates,
// values above U+10FFFF). Since the subject is valid UTF-8, adding those "don't
// care" values to a set changes nothing and often makes its byte form shorter.
var utf8Classes = []struct {
	n        int
	lo, hi   rune // the code points with this length
	rawMax   rune // the largest value n bytes can carry
	dontCare runeSet
}{
	{2, 0x80, 0x7FF, 0x7FF, span(0, 0x7F)},
	{3, 0x800, 0xFFFF, 0xFFFF, newRuneSet(rrange{0, 0x7FF}, rrange{0xD800, 0xDFFF})},
	{4, 0x10000, 0x10FFFF, 0x1FFFFF, newRuneSet(rrange{0, 0xFFFF}, rrange{0x110000, 0x1FFFFF})},
}

// setNode is the aligned byte form of one character from s.
func setNode(s runeSet) *bnode {
	alts := []*bnode{bytesNode(asciiBytes(s))}
	for _, c := range utf8Classes {
		part := s.intersect(span(c.lo, c.hi))
		if part.empty() {
			continue
		}
		// Fill the don't-care gaps whose neighbours are all in the set, so that
		// whole lead bytes (or continuation ranges) become one range.
		for _, d := range c.dontCare {
			if (d.lo == 0 || part.has(d.lo-1)) && (d.hi == c.rawMax || part.has(d.hi+1)) {
				part = part.union(runeSet{d})
			}
		}
		var seqs [][]byteSet
		for _, r := range part {
			seqs = splitUTF8(r.lo, r.hi, c.n, seqs)
		}
		for _, sq := range mergeSeqs(seqs) {
			alts = append(alts, byteSeqNode(sq))
		}
	}
	return altNode(append(alts, virtualNodes(s)...)...)
}

// virtualBytes are the one-byte members of a set of the rewritten alphabet.
func virtualBytes(s runeSet) byteSet {
	var one byteSet
	if s.has(vWord) {
		one.add(byteWord)
	}
	if s.has(vDigit) {
		one.add(byteDigit)
	}
	for i, b := range blockBytes {
		if s.has(vBlock + rune(i)) {
			one.add(b)
		}
	}
	return one
}

// virtualNodes are the members of a set of the rewritten alphabet (words.go)
// that stand for other bytes than their UTF-8: byteWord, byteDigit, and a
// named word character followed by byteMark.
func virtualNodes(s runeSet) []*bnode {
	var alts []*bnode
	one := virtualBytes(s)
	if !one.empty() {
		alts = append(alts, bytesNode(one))
	}
	var seqs [][]byteSet
	for _, r := range s.intersect(span(vMark, vMark+maxRune)) {
		lo, hi := r.lo-vMark, r.hi-vMark
		for _, c := range utf8Classes {
			l, h := max(lo, c.lo), min(hi, c.hi)
			if l <= h {
				seqs = splitUTF8(l, h, c.n, seqs)
			}
		}
	}
	var mark byteSet
	mark.add(byteMark)
	for _, sq := range mergeSeqs(seqs) {
		alts = append(alts, byteSeqNode(append(sq[:len(sq):len(sq)], mark)))
	}
	return alts
}

// notAheadNode is the form of (?!L) at the end of the match, where L is a sequence
// of one-character items. Starting at a character boundary, it matches some text
// exactly when what follows does not start with L: the end ($), or a first
// character outside look[0], or one inside it followed by the same for look[1:].
// A character outside a set is written on the UTF-8 byte trie of the set (see
// notInNode). What it consumes is of no concern: nothing follows it.
func notAheadNode(look []runeSet) *bnode {
	if len(look) == 0 {
		return &bnode{kind: bNever} // (?!) never holds
	}
	alts := []*bnode{{kind: bEOL}, notInNode(look[0])}
	if len(look) > 1 {
		alts = append(alts, seqNode(setNode(look[0]), notAheadNode(look[1:])))
	}
	return altNode(alts...)
}

// notInNode matches, at a character boundary of a valid UTF-8 subject, a prefix of
// the character there exactly when that character is not in s: a first byte that no
// member starts with, or the first bytes of a member followed by the end or by a byte
// that no member continues with there.
func notInNode(s runeSet) *bnode {
	first := asciiBytes(s).union(virtualBytes(s))
	seqs := [][]byteSet{{first}}
	for _, c := range utf8Classes {
		for _, r := range s.intersect(span(c.lo, c.hi)) {
			seqs = splitUTF8(r.lo, r.hi, c.n, seqs)
		}
	}
	return altNode(mismatch(seqs)...)
}

// mismatch lists the ways the next bytes leave every one of seqs (which all have the
// same length for a given first byte, as UTF-8 does) before it is complete.
func mismatch(seqs [][]byteSet) []*bnode {
	var firsts byteSet
	for _, sq := range seqs {
		firsts = firsts.union(sq[0])
	}
	alts := []*bnode{bytesNode(complementBytes(firsts))}
	// Bytes with the same continuations share one alternative.
	var order []string
	groups := map[string]*struct {
		bytes byteSet
		tails [][]byteSet
	}{}
	for b := 0x80; b <= 0xFF; b++ { // ASCII bytes complete a character
		if !firsts.has(byte(b)) {
			continue
		}
		var tails [][]byteSet
		var key strings.Builder
		for _, sq := range seqs {
			if sq[0].has(byte(b)) {
				tails = append(tails, sq[1:])
				for _, t := range sq[1:] {
					fmt.Fprint(&key, t)
				}
				key.WriteByte('|')
			}
		}
		g := groups[key.String()]
		if g == nil {
			g = &struct {
				bytes byteSet
				tails [][]byteSet
			}{tails: tails}
			groups[key.String()] = g
			order = append(order, key.String())
		}
		g.bytes.add(byte(b))
	}
	for _, k := range order {
		g := groups[k]
		if len(g.tails[0]) == 0 {
			continue
		}
		rest := append([]*bnode{{kind: bEOL}}, mismatch(g.tails)...)
		alts = append(alts, seqNode(bytesNode(g.bytes), altNode(rest...)))
	}
	return alts
}

// encodeRaw writes v with the UTF-8 bit layout of an n-byte sequence.
func encodeRaw(v rune, n int) []byte {
	out := make([]byte, n)
	for i := n - 1; i > 0; i-- {
		out[i] = 0x80 | byte(v&0x3F)
		v >>= 6
	}
	out[0] = byte(0xFF<<(8-n)) | byte(v)
	return out
}

// splitUTF8 appends byte-range sequences whose product is exactly [lo, hi] (as raw
// n-byte encodings): split until each byte position is an independent range.
func splitUTF8(lo, hi rune, n int, out [][]byteSet) [][]byteSet {
	for i := 1; i < n; i++ {
		m := rune(1)<<(6*i) - 1
		if lo&^m != hi&^m {
			if lo&m != 0 {
				out = splitUTF8(lo, lo|m, n, out)
				return splitUTF8((lo|m)+1, hi, n, out)
			}
			if hi&m != m {
				out = splitUTF8(lo, (hi&^m)-1, n, out)
				return splitUTF8(hi&^m, hi, n, out)
			}
		}
	}
	a, b := encodeRaw(lo, n), encodeRaw(hi, n)
	seq := make([]byteSet, n)
	for j := range seq {
		seq[j] = byteRange(a[j], b[j])
	}
	return append(out, seq)
}

// mergeSeqs merges sequences that differ in one position only.
func mergeSeqs(seqs [][]byteSet) [][]byteSet {
	for changed := true; changed; {
		changed = false
	outer:
		for i := 0; i < len(seqs); i++ {
			for j := i + 1; j < len(seqs); j++ {
				diff := -1
				for k := range seqs[i] {
					if seqs[i][k] != seqs[j][k] {
						if diff >= 0 {
							diff = -2
							break
						}
						diff = k
					}
				}
				if diff == -2 {
					continue
				}
				if diff >= 0 {
					seqs[i][diff] = seqs[i][diff].union(seqs[j][diff])
				}
				seqs = append(seqs[:j], seqs[j+1:]...)
				changed = true
				break outer
			}
		}
	}
	return seqs
}

// byteSeqNode writes a sequence of byte sets, with runs of one set as {k}.
func byteSeqNode(sq []byteSet) *bnode {
	var parts []*bnode
	for i := 0; i < len(sq); {
		j := i
		for j < len(sq) && sq[j] == sq[i] {
			j++
		}
		if sq[i].count() == 1 && j-i < 3 {
			j = i + 1 // \x80\x80 is as short as \x80{2}
		}
		parts = append(parts, repNode(bytesNode(sq[i]), j-i, j-i))
		i = j
	}
	return seqNode(parts...)
}

// starNode writes s{min,} when s contains every non-ASCII character. Then
// [ascii-part \x80-\xff]* matches, between two character boundaries, exactly the
// strings of characters from s. It may stop inside a character, but only where the
// next piece starts with a continuation byte; every other piece is aligned and
// cannot, so a match that does that could as well have taken the whole character.
func starNode(s runeSet, min int) *bnode {
	b := bytesNode(asciiBytes(s).union(byteRange(0x80, 0xFF)))
	if min == 0 {
		return repNode(b, 0, -1)
	}
	return seqNode(repNode(setNode(s), min-1, min-1), repNode(b, 1, -1))
}

// allHigh reports whether s holds every character of the alphabet that is
// not ASCII, so that a repeat of s may take any byte from 0x80 up.
func (a *alphabet) allHigh(s runeSet) bool {
	return a.high().subsetOf(s)
}

// actionNode writes an assertion's decision.
func (al *alphabet) actionNode(a action) *bnode {
	nl := byteNode('\n')
	bol, eol := &bnode{kind: bBOL}, &bnode{kind: bEOL}
	switch a {
	case actNever:
		return &bnode{kind: bNever}
	case actBOL:
		return bol
	case actEOL:
		return eol
	case actOptNLEOL:
		return seqNode(repNode(nl, 0, 1), eol)
	case actBOLorNL:
		return altNode(bol, nl)
	case actNLorEOL:
		return altNode(nl, eol)
	case actWordByte:
		return bytesNode(al.wordBytes())
	case actWordAfter:
		if first, ok := al.firstWordBytes(); ok {
			return bytesNode(first)
		}
		return setNode(al.word())
	case actNonWordOrBOL:
		// The consumed byte is the last byte of the character before the
		// match: in the value's own alphabet a non-ASCII character's is a
		// continuation byte, which counts as non-word (the ASCII \b of a
		// pattern under the ASCII flag); in the rewritten one a word
		// character ends with a byte of its own.
		return altNode(bol, bytesNode(complementBytes(al.wordBytes())))
	case actNonWordOrEOL:
		if first, ok := al.firstWordBytes(); ok {
			return altNode(bytesNode(complementBytes(first)), eol)
		}
		return altNode(setNode(al.nonWord()), eol)
	}
	return &bnode{kind: bEmpty}
}

// String prints the tree as an ERE.
func (b *bnode) String() string {
	var w strings.Builder
	if b.kind == bEmpty {
		return "^" // matches every value
	}
	b.print(&w, 0)
	return w.String()
}

// Precedence levels for print.
const (
	precAlt = iota
	precSeq
	precAtom
)

func (b *bnode) print(w *strings.Builder, prec int) {
	switch b.kind {
	case bBOL:
		w.WriteByte('^')
	case bEOL:
		w.WriteByte('$')
	case bBytes:
		writeBytes(w, b.set, prec)
	case bSeq: // never needs brackets: only a bRep asks for precAtom, and only of a bBytes
		for _, x := range b.subs {
			x.print(w, precSeq)
		}
	case bAlt:
		if prec > precAlt {
			w.WriteByte('(')
		}
		for i, x := range b.subs {
			if i > 0 {
				w.WriteByte('|')
			}
			x.print(w, precAlt)
		}
		if prec > precAlt {
			w.WriteByte(')')
		}
	case bRep:
		x := b.subs[0]
		if x.kind == bBytes {
			x.print(w, precAtom)
		} else {
			w.WriteByte('(')
			x.print(w, precAlt)
			w.WriteByte(')')
		}
		w.WriteString(quantifier(b.min, b.max))
	default:
		panic("pyre: cannot print an empty or impossible node")
	}
}

func quantifier(min, max int) string {
	switch {
	case min == 0 && max == 1:
		return "?"
	case min == 0 && max < 0:
		return "*"
	case min == 1 && max < 0:
		return "+"
	case min == max:
		return "{" + strconv.Itoa(min) + "}"
	case max < 0:
		return "{" + strconv.Itoa(min) + ",}"
	}
	return "{" + strconv.Itoa(min) + "," + strconv.Itoa(max) + "}"
}

// ereSpecial are the bytes that are special outside a bracket expression.
const ereSpecial = `.[\()*+?{|^$`

// bracketSpecial are the bytes with a meaning inside a bracket expression; they are
// never written as a range endpoint.
const bracketSpecial = `]^-[\`

// writeBytes writes one byte from s: the byte itself, a backslash and a special
// byte, or a bracket expression (spellBytes, cached).
func writeBytes(w *strings.Builder, s byteSet, prec int) {
	if s.count() == 1 {
		for c := 1; c < 256; c++ {
			if s.has(byte(c)) {
				if strings.IndexByte(ereSpecial, byte(c)) >= 0 {
					w.WriteByte('\\')
				}
				w.WriteByte(byte(c))
			}
		}
		return
	}
	key := spellingKey{s, prec > precAlt}
	best, ok := spellings.Load(key)
	if !ok {
		best, _ = spellings.LoadOrStore(key, spellBytes(s, prec))
	}
	w.WriteString(best.(string))
}

// spellBytes spells a set of two bytes or more as a bracket expression. A
// backslash is never written inside brackets (awk reads it as an escape): a
// set with a backslash is written negated, or as an alternative (\\|[...]),
// whichever is shorter.
func spellBytes(s byteSet, prec int) string {
	best := ""
	if body, ok := bracketBody(s); ok {
		best = "[" + body + "]"
	}
	if body, ok := bracketBody(complementBytes(s)); ok && (best == "" || cost("[^"+body+"]") < cost(best)) {
		best = "[^" + body + "]"
	}
	if s.has('\\') {
		rest := s
		rest[1] &^= 1 << ('\\' - 64)
		var alt strings.Builder
		if prec > precAlt {
			alt.WriteByte('(')
		}
		alt.WriteString(`\\|`)
		writeBytes(&alt, rest, precAlt)
		if prec > precAlt {
			alt.WriteByte(')')
		}
		if best == "" || cost(alt.String()) < cost(best) {
			best = alt.String()
		}
	}
	return best
}

// spellings caches writeBytes's choice for sets of two bytes or more: the same
// sets ([Aa], [^"], the UTF-8 continuation ranges) recur in every pattern.
var spellings sync.Map // spellingKey -> string

// spellingKey is a set and whether an alternative would need brackets.
type spellingKey struct {
	s       byteSet
	bracket bool
}

// cost ranks equivalent spellings: shorter is better, and the bytes bash uses as
// internal quoting markers (\x01 CTLESC, \x7f CTLNUL) are avoided where another
// spelling exists, as old bash versions have mishandled them in patterns.
func cost(s string) int {
	return len(s) + 8*(strings.Count(s, "\x01")+strings.Count(s, "\x7f"))
}

// bracketBody lists s for the inside of a bracket expression: ']' first, then
// ranges and single bytes whose endpoints are not special, then '[', '^' and '-'.
// ok is false if s is empty or needs a backslash that is not inside a range.
func bracketBody(s byteSet) (string, bool) {
	if s.empty() {
		return "", false
	}
	var mid strings.Builder
	var lone byteSet
	for c := 1; c < 256; {
		if !s.has(byte(c)) {
			c++
			continue
		}
		lo := c
		for c < 256 && s.has(byte(c)) {
			c++
		}
		hi := c - 1
		for lo <= hi && strings.IndexByte(bracketSpecial, byte(lo)) >= 0 {
			lone.add(byte(lo))
			lo++
		}
		for hi >= lo && strings.IndexByte(bracketSpecial, byte(hi)) >= 0 {
			lone.add(byte(hi))
			hi--
		}
		switch {
		case lo > hi:
		case hi-lo >= 2:
			mid.WriteByte(byte(lo))
			mid.WriteByte('-')
			mid.WriteByte(byte(hi))
		default:
			for x := lo; x <= hi; x++ {
				mid.WriteByte(byte(x))
			}
		}
	}
	if lone.has('\\') {
		return "", false
	}
	var out strings.Builder
	if lone.has(']') {
		out.WriteByte(']')
	}
	out.WriteString(mid.String())
	if lone.has('[') {
		out.WriteByte('[')
	}
	if lone.has('^') {
		if out.Len() == 0 {
			// '^' first would negate: put '-' first if there is one.
			if lone.has('-') {
				return "-^", true
			}
			return "", false
		}
		out.WriteByte('^')
	}
	if lone.has('-') {
		out.WriteByte('-')
	}
	return out.String(), true
}
