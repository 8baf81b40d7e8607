package pyregex

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// flags are Python's regex flags that change matching.
type flags uint8

const (
	flagI flags = 1 << iota // IGNORECASE
	flagM                   // MULTILINE
	flagS                   // DOTALL
	flagX                   // VERBOSE
	flagA                   // ASCII
	flagU                   // UNICODE
	flagL                   // LOCALE (an error with a str pattern)
	flagT                   // TEMPLATE (refused)
)

const typeFlags = flagA | flagU | flagL

var flagChars = map[rune]flags{'i': flagI, 'm': flagM, 's': flagS, 'x': flagX, 'a': flagA, 'u': flagU, 'L': flagL, 't': flagT}

// combine is sre_parse's _combine_flags.
func combine(f, add, del flags) flags {
	if add&typeFlags != 0 {
		f &^= typeFlags
	}
	return (f | add) &^ del
}

// Error is a pattern that Python refuses, or that this package does not
// evaluate (lookaround, backreferences, conditionals, atomic groups,
// possessive quantifiers, named Unicode escapes, huge counts).
type Error struct {
	Offset int // byte offset in the pattern
	Msg    string
	// Unsupported: Python accepts the pattern, this package does not.
	Unsupported bool
}

func (e *Error) Error() string { return fmt.Sprintf("%s at offset %d", e.Msg, e.Offset) }

// op is the kind of a node.
type op uint8

const (
	opEmpty  op = iota
	opChar      // cls
	opAssert    // at
	opCat       // subs in sequence
	opAlt       // subs as alternatives
	opRepeat    // subs[0], min..max (max < 0: no limit)
	opLook      // (?=subs[0]), or (?!subs[0]) when neg
)

// assertion is a zero-width test.
type assertion uint8

const (
	atBegin            assertion = iota // ^ and \A
	atBeginLine                         // ^ with MULTILINE
	atEnd                               // $: the end, or before a final '\n'
	atEndLine                           // $ with MULTILINE
	atEndString                         // \Z
	atBoundary                          // \b
	atNonBoundary                       // \B
	atBoundaryASCII                     // \b with the ASCII flag
	atNonBoundaryASCII                  // \B with the ASCII flag
)

type node struct {
	op       op
	cls      *class
	at       assertion
	subs     []*node
	min, max int
	neg      bool // opLook: a negative lookaround
	behind   int  // opLook: a lookbehind of this many code points, else -1
}

// item kinds, for sre_parse's "nothing to repeat" and "multiple repeat".
type kind uint8

const (
	kOther kind = iota
	kAt
	kRepeat
)

const maxRepeat = 1<<32 - 1 // _sre.MAXREPEAT

type parser struct {
	src    []rune
	off    []int // byte offset of each rune, and of the end
	pos    int
	global flags
	groups int
	names  map[string]bool
}

func (p *parser) errorf(at int, format string, args ...any) *Error {
	return &Error{Offset: p.off[min(at, len(p.src))], Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) unsupported(at int, format string, args ...any) *Error {
	e := p.errorf(at, format, args...)
	e.Unsupported = true
	return e
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

// peek returns the next character, or -1.
func (p *parser) peek() rune {
	if p.eof() {
		return -1
	}
	return p.src[p.pos]
}

func (p *parser) match(r rune) bool {
	if p.peek() == r {
		p.pos++
		return true
	}
	return false
}

// parse reads pattern as re.compile(pattern, re.IGNORECASE) does.
func parse(pattern string) (*node, flags, error) {
	n, f, err := parseWith(pattern, flagI, false)
	if err == nil && f&flagX != 0 {
		// The verbose flag was switched on inside the pattern: read it all
		// again in verbose mode, as sre_parse does.
		n, f, err = parseWith(pattern, flagI|flagX, true)
	}
	return n, f, err
}

func parseWith(pattern string, f flags, verbose bool) (*node, flags, error) {
	if !utf8.ValidString(pattern) {
		return nil, 0, &Error{Msg: "the pattern is not valid UTF-8"}
	}
	p := &parser{global: f, names: map[string]bool{}}
	for i, r := range pattern {
		p.src = append(p.src, r)
		p.off = append(p.off, i)
	}
	p.off = append(p.off, len(pattern))
	n, err := p.sub(0, verbose, 0)
	if err != nil {
		return nil, 0, err
	}
	if !p.eof() {
		return nil, 0, p.errorf(p.pos, "unbalanced parenthesis")
	}
	g := p.global
	if g&flagL != 0 {
		return nil, 0, p.errorf(0, "cannot use LOCALE flag with a str pattern")
	}
	if g&flagA != 0 && g&flagU != 0 {
		return nil, 0, p.errorf(0, "ASCII and UNICODE flags are incompatible")
	}
	return n, g, nil
}

// sub reads alternatives up to a ')' or the end. f are the scoped flags
// (0 at the top level, where the global flags apply).
func (p *parser) sub(f flags, verbose bool, nested int) (*node, error) {
	var alts []*node
	for {
		n, err := p.seq(f, verbose, nested, nested == 0 && len(alts) == 0)
		if err != nil {
			return nil, err
		}
		alts = append(alts, n)
		if !p.match('|') {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{op: opAlt, subs: alts}, nil
}

// seq reads one alternative (sre_parse's _parse).
func (p *parser) seq(scoped flags, verbose bool, nested int, first bool) (*node, error) {
	var items []*node
	var kinds []kind
	push := func(n *node, k kind) { items = append(items, n); kinds = append(kinds, k) }
	flagsNow := func() flags {
		if nested == 0 {
			return p.global
		}
		return scoped
	}
	for !p.eof() {
		c := p.peek()
		if c == '|' || c == ')' {
			break
		}
		start := p.pos
		p.pos++
		if verbose {
			if strings.ContainsRune(" \t\n\r\v\f", c) {
				continue
			}
			if c == '#' {
				// To the end of the line; a backslash takes the next
				// character with it, as sre_parse's tokenizer does.
				for !p.eof() {
					p.pos++
					switch p.src[p.pos-1] {
					case '\n':
					case '\\':
						if p.eof() {
							return nil, p.errorf(p.pos-1, "bad escape (end of pattern)")
						}
						p.pos++
						continue
					default:
						continue
					}
					break
				}
				continue
			}
		}
		f := flagsNow()
		switch c {
		case '\\':
			n, k, err := p.escape(start, f)
			if err != nil {
				return nil, err
			}
			push(n, k)
		case '[':
			n, err := p.class(start, f)
			if err != nil {
				return nil, err
			}
			push(n, kOther)
		case '*', '+', '?', '{':
			lo, hi := 0, -1
			switch c {
			case '?':
				hi = 1
			case '+':
				lo = 1
			case '{':
				if p.peek() == '}' {
					push(literal('{', f), kOther)
					continue
				}
				here := p.pos
				var los, his string
				for isDec(p.peek()) {
					los += string(p.src[p.pos])
					p.pos++
				}
				if p.match(',') {
					for isDec(p.peek()) {
						his += string(p.src[p.pos])
						p.pos++
					}
				} else {
					his = los
				}
				if !p.match('}') {
					push(literal('{', f), kOther)
					p.pos = here
					continue
				}
				if los != "" {
					v, err := strconv.ParseUint(los, 10, 64)
					if err != nil || v >= maxRepeat {
						return nil, p.errorf(here, "the repetition number is too large")
					}
					lo = int(v)
				}
				if his != "" {
					v, err := strconv.ParseUint(his, 10, 64)
					if err != nil || v >= maxRepeat {
						return nil, p.errorf(here, "the repetition number is too large")
					}
					hi = int(v)
					if hi < lo {
						return nil, p.errorf(here, "min repeat greater than max repeat")
					}
				}
			}
			if len(items) == 0 || kinds[len(kinds)-1] == kAt {
				return nil, p.errorf(start, "nothing to repeat")
			}
			if kinds[len(kinds)-1] == kRepeat {
				return nil, p.errorf(start, "multiple repeat")
			}
			if p.match('?') {
				// Lazy: the same match or no match as greedy.
			} else if p.peek() == '+' {
				return nil, p.unsupported(p.pos, "possessive quantifiers are not supported")
			}
			if lo > maxCount || hi > maxCount {
				return nil, p.unsupported(start, "counts over %d are not supported", maxCount)
			}
			last := len(items) - 1
			items[last] = &node{op: opRepeat, subs: []*node{items[last]}, min: lo, max: hi}
			kinds[last] = kRepeat
		case '.':
			push(&node{op: opChar, cls: (&class{any: true, dotal: f&flagS != 0}).done()}, kOther)
		case '(':
			n, ok, err := p.group(start, f, verbose, nested, first && len(items) == 0)
			if err != nil {
				return nil, err
			}
			if n == nil {
				if ok { // global flags
					verbose = p.global&flagX != 0
				}
				continue
			}
			push(n, kOther)
		case '^':
			at := atBegin
			if f&flagM != 0 {
				at = atBeginLine
			}
			push(&node{op: opAssert, at: at}, kAt)
		case '$':
			at := atEnd
			if f&flagM != 0 {
				at = atEndLine
			}
			push(&node{op: opAssert, at: at}, kAt)
		default:
			push(literal(c, f), kOther)
		}
	}
	switch len(items) {
	case 0:
		return &node{op: opEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{op: opCat, subs: items}, nil
}

// maxCount bounds the counts of {m,n}: the evaluator expands them.
const maxCount = 1000

func literal(r rune, f flags) *node {
	return &node{op: opChar, cls: newClass([]rrange{{r, r}}, nil, false, f)}
}

// group reads what follows '('. It returns a nil node for a comment
// (ok false) and for global flags (ok true).
func (p *parser) group(start int, f flags, verbose bool, nested int, first bool) (*node, bool, error) {
	capture := true
	var add, del flags
	if p.match('?') {
		if p.eof() {
			return nil, false, p.errorf(p.pos, "unexpected end of pattern")
		}
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == 'P':
			switch {
			case p.match('<'):
				nameAt := p.pos
				end := p.pos
				for end < len(p.src) && p.src[end] != '>' {
					end++
				}
				if end == len(p.src) {
					return nil, false, p.errorf(nameAt, "missing >, unterminated name")
				}
				name := string(p.src[nameAt:end])
				if name == "" {
					return nil, false, p.errorf(nameAt, "missing group name")
				}
				p.pos = end + 1
				if !isIdentifier(name) {
					return nil, false, p.errorf(nameAt, "bad character in group name %q", name)
				}
				if p.names[name] {
					return nil, false, p.errorf(nameAt, "redefinition of group name %q", name)
				}
				p.names[name] = true
			case p.match('='):
				return nil, false, p.unsupported(start, "backreferences are not supported")
			default:
				return nil, false, p.errorf(p.pos, "unknown extension ?P")
			}
		case c == ':':
			capture = false
		case c == '#':
			for {
				if p.eof() {
					return nil, false, p.errorf(start, "missing ), unterminated comment")
				}
				p.pos++
				switch p.src[p.pos-1] {
				case ')':
					return nil, false, nil
				case '\\':
					if p.eof() {
						return nil, false, p.errorf(p.pos-1, "bad escape (end of pattern)")
					}
					p.pos++
				}
			}
		case c == '=' || c == '!':
			n, err := p.sub(f, verbose, nested+1)
			if err != nil {
				return nil, false, err
			}
			if !p.match(')') {
				return nil, false, p.errorf(start, "missing ), unterminated subpattern")
			}
			return &node{op: opLook, neg: c == '!', subs: []*node{n}, behind: -1}, true, nil
		case c == '<':
			neg := p.match('!')
			if !neg && !p.match('=') {
				return nil, false, p.errorf(p.pos, "unknown extension ?<")
			}
			n, err := p.sub(f, verbose, nested+1)
			if err != nil {
				return nil, false, err
			}
			if !p.match(')') {
				return nil, false, p.errorf(start, "missing ), unterminated subpattern")
			}
			// sre_compile: a lookbehind's least and most widths must agree
			w := maxLen(n)
			if w < 0 || w != minLen(n) {
				return nil, false, p.errorf(start, "look-behind requires fixed-width pattern")
			}
			return &node{op: opLook, neg: neg, subs: []*node{n}, behind: w}, true, nil
		case c == '(':
			return nil, false, p.unsupported(start, "conditional groups are not supported")
		case c == '>':
			return nil, false, p.unsupported(start, "atomic groups are not supported")
		case flagChars[c] != 0 || c == '-':
			a, d, global, err := p.flags(c)
			if err != nil {
				return nil, false, err
			}
			if global {
				if !first {
					return nil, false, p.errorf(start, "global flags not at the start of the expression")
				}
				return nil, true, nil
			}
			add, del, capture = a, d, false
		default:
			return nil, false, p.errorf(p.pos-1, "unknown extension ?%c", c)
		}
	}
	if capture {
		p.groups++
	}
	sf := combine(f, add, del)
	subVerbose := (verbose || add&flagX != 0) && del&flagX == 0
	n, err := p.sub(sf, subVerbose, nested+1)
	if err != nil {
		return nil, false, err
	}
	if !p.match(')') {
		return nil, false, p.errorf(start, "missing ), unterminated subpattern")
	}
	return n, true, nil
}

// maxLen is the most characters n can match, or -1 when unbounded.
func maxLen(n *node) int {
	switch n.op {
	case opChar:
		return 1
	case opCat, opAlt:
		total := 0
		for _, s := range n.subs {
			m := maxLen(s)
			if m < 0 {
				return -1
			}
			if n.op == opCat {
				total += m
			} else {
				total = max(total, m)
			}
		}
		return total
	case opRepeat:
		m := maxLen(n.subs[0])
		switch {
		case m == 0, n.max == 0:
			return 0
		case m < 0, n.max < 0:
			return -1
		}
		return m * n.max
	}
	return 0
}

// minLen is the least number of code points n matches.
func minLen(n *node) int {
	switch n.op {
	case opChar:
		return 1
	case opCat:
		total := 0
		for _, s := range n.subs {
			total += minLen(s)
		}
		return total
	case opAlt:
		least := -1
		for _, s := range n.subs {
			if m := minLen(s); least < 0 || m < least {
				least = m
			}
		}
		return max(least, 0)
	case opRepeat:
		return minLen(n.subs[0]) * n.min
	}
	return 0
}

// flags reads inline flags after "(?" and the first flag character c.
func (p *parser) flags(c rune) (add, del flags, global bool, err error) {
	if c != '-' {
		for {
			fl := flagChars[c]
			if fl == flagL {
				return 0, 0, false, p.errorf(p.pos, "bad inline flags: cannot use 'L' flag with a str pattern")
			}
			if fl == flagT {
				return 0, 0, false, p.unsupported(p.pos, "the TEMPLATE flag is not supported")
			}
			add |= fl
			if fl&typeFlags != 0 && add&typeFlags != fl {
				return 0, 0, false, p.errorf(p.pos, "bad inline flags: flags 'a', 'u' and 'L' are incompatible")
			}
			if p.eof() {
				return 0, 0, false, p.errorf(p.pos, "missing -, : or )")
			}
			c = p.src[p.pos]
			p.pos++
			if c == ')' || c == '-' || c == ':' {
				break
			}
			if flagChars[c] == 0 {
				return 0, 0, false, p.errorf(p.pos-1, "unknown flag")
			}
		}
	}
	if c == ')' {
		p.global |= add
		return 0, 0, true, nil
	}
	if c == '-' {
		if p.eof() {
			return 0, 0, false, p.errorf(p.pos, "missing flag")
		}
		c = p.src[p.pos]
		p.pos++
		if flagChars[c] == 0 {
			return 0, 0, false, p.errorf(p.pos-1, "missing flag")
		}
		for {
			fl := flagChars[c]
			if fl&typeFlags != 0 {
				return 0, 0, false, p.errorf(p.pos, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
			}
			del |= fl
			if p.eof() {
				return 0, 0, false, p.errorf(p.pos, "missing :")
			}
			c = p.src[p.pos]
			p.pos++
			if c == ':' {
				break
			}
			if flagChars[c] == 0 {
				return 0, 0, false, p.errorf(p.pos-1, "unknown flag")
			}
		}
	}
	if (add|del)&flagT != 0 {
		return 0, 0, false, p.unsupported(p.pos, "the TEMPLATE flag is not supported")
	}
	if add&del != 0 {
		return 0, 0, false, p.errorf(p.pos, "bad inline flags: flag turned on and off")
	}
	return add, del, false, nil
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))) {
			return false
		}
	}
	return s != ""
}

func isOct(r rune) bool { return '0' <= r && r <= '7' }
func isDec(r rune) bool { return '0' <= r && r <= '9' }
func isHex(r rune) bool {
	return isDec(r) || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}
func isASCIILetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// simpleEscapes are sre_parse's ESCAPES (\b is backspace only in a class).
var simpleEscapes = map[rune]rune{'a': 7, 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}

var categories = map[rune]category{'d': catDigit, 'D': catNotDigit, 's': catSpace, 'S': catNotSpace, 'w': catWord, 'W': catNotWord}

// escape reads an escape outside a class; start is at the backslash.
func (p *parser) escape(start int, f flags) (*node, kind, error) {
	if p.eof() {
		return nil, 0, p.errorf(start, "bad escape (end of pattern)")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'A':
		return &node{op: opAssert, at: atBegin}, kAt, nil
	case 'Z':
		return &node{op: opAssert, at: atEndString}, kAt, nil
	case 'b', 'B':
		at := atBoundary
		switch {
		case c == 'b' && f&flagA != 0:
			at = atBoundaryASCII
		case c == 'B' && f&flagA != 0:
			at = atNonBoundaryASCII
		case c == 'B':
			at = atNonBoundary
		}
		return &node{op: opAssert, at: at}, kAt, nil
	}
	if cat, ok := categories[c]; ok {
		return &node{op: opChar, cls: newClass(nil, []category{cat}, false, f)}, kOther, nil
	}
	if r, ok := simpleEscapes[c]; ok {
		return literal(r, f), kOther, nil
	}
	if r, handled, err := p.codeEscape(start, c); handled {
		if err != nil {
			return nil, 0, err
		}
		return literal(r, f), kOther, nil
	}
	switch {
	case c == '0':
		v := 0
		for i := 0; i < 2 && isOct(p.peek()); i++ {
			v = v*8 + int(p.src[p.pos]-'0')
			p.pos++
		}
		return literal(rune(v), f), kOther, nil
	case isDec(c):
		if isDec(p.peek()) {
			d := p.src[p.pos]
			p.pos++
			if isOct(c) && isOct(d) && isOct(p.peek()) {
				e := p.src[p.pos]
				p.pos++
				v := (c-'0')*64 + (d-'0')*8 + (e - '0')
				if v > 0o377 {
					return nil, 0, p.errorf(start, "octal escape value outside of range 0-0o377")
				}
				return literal(v, f), kOther, nil
			}
		}
		return nil, 0, p.unsupported(start, "backreferences are not supported")
	case isASCIILetter(c):
		return nil, 0, p.errorf(start, "bad escape \\%c", c)
	}
	return literal(c, f), kOther, nil
}

// codeEscape reads \x, \u, \U and \N, shared by both contexts.
func (p *parser) codeEscape(start int, c rune) (r rune, handled bool, err error) {
	digits := 0
	switch c {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case 'N':
		return 0, true, p.unsupported(start, "named Unicode escapes (\\N{...}) are not supported")
	default:
		return 0, false, nil
	}
	v := 0
	n := 0
	for n < digits && isHex(p.peek()) {
		h, _ := strconv.ParseUint(string(p.src[p.pos]), 16, 8)
		v = v*16 + int(h)
		p.pos++
		n++
	}
	if n != digits {
		return 0, true, p.errorf(start, "incomplete escape \\%c", c)
	}
	if v > unicode.MaxRune {
		return 0, true, p.errorf(start, "bad escape \\%c", c)
	}
	return rune(v), true, nil
}

// classItem is one member of a bracket class.
type classItem struct {
	r   rune
	cat category
	isC bool // a category
}

// classEscape reads an escape inside a class; start is at the backslash.
func (p *parser) classEscape(start int) (classItem, error) {
	if p.eof() {
		return classItem{}, p.errorf(start, "bad escape (end of pattern)")
	}
	c := p.src[p.pos]
	p.pos++
	if c == 'b' {
		return classItem{r: 8}, nil
	}
	if r, ok := simpleEscapes[c]; ok {
		return classItem{r: r}, nil
	}
	if cat, ok := categories[c]; ok {
		return classItem{cat: cat, isC: true}, nil
	}
	if r, handled, err := p.codeEscape(start, c); handled {
		return classItem{r: r}, err
	}
	switch {
	case isOct(c):
		v := c - '0'
		for i := 0; i < 2 && isOct(p.peek()); i++ {
			v = v*8 + p.src[p.pos] - '0'
			p.pos++
		}
		if v > 0o377 {
			return classItem{}, p.errorf(start, "octal escape value outside of range 0-0o377")
		}
		return classItem{r: v}, nil
	case isDec(c), isASCIILetter(c):
		return classItem{}, p.errorf(start, "bad escape \\%c", c)
	}
	return classItem{r: c}, nil
}

// class reads a bracket expression; start is at the '['.
func (p *parser) class(start int, f flags) (*node, error) {
	neg := p.match('^')
	var rs []rrange
	var cats []category
	n := 0
	add := func(it classItem) {
		if it.isC {
			cats = append(cats, it.cat)
		} else {
			rs = append(rs, rrange{it.r, it.r})
		}
		n++
	}
	for {
		if p.eof() {
			return nil, p.errorf(start, "unterminated character set")
		}
		at := p.pos
		c := p.src[p.pos]
		p.pos++
		if c == ']' && n > 0 {
			break
		}
		var it1 classItem
		if c == '\\' {
			var err error
			if it1, err = p.classEscape(at); err != nil {
				return nil, err
			}
		} else {
			it1 = classItem{r: c}
		}
		if !p.match('-') {
			add(it1)
			continue
		}
		if p.eof() {
			return nil, p.errorf(start, "unterminated character set")
		}
		at2 := p.pos
		c2 := p.src[p.pos]
		p.pos++
		if c2 == ']' {
			add(it1)
			add(classItem{r: '-'})
			break
		}
		var it2 classItem
		if c2 == '\\' {
			var err error
			if it2, err = p.classEscape(at2); err != nil {
				return nil, err
			}
		} else {
			it2 = classItem{r: c2}
		}
		if it1.isC || it2.isC {
			return nil, p.errorf(at, "bad character range")
		}
		if it2.r < it1.r {
			return nil, p.errorf(at, "bad character range")
		}
		rs = append(rs, rrange{it1.r, it2.r})
		n++
	}
	return &node{op: opChar, cls: newClass(rs, cats, neg, f)}, nil
}
