package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the Python-aware front end: a parser for the syntax of Python 3.11's
// re module (re/_parser.py), written for this package. It accepts exactly what Python
// accepts, with Python's quirks ({,n}, "[[" as a literal, "a{" as a literal, octal
// and group-reference escapes, verbose mode, inline and scoped flags), and records
// the byte offset of every construct so that refusals can point at it. Go's
// regexp/syntax is not used: its tree carries no offsets, it folds case with Go's
// orbits at parse time, and it differs from Python in the ways the research notes
// list (counts over 1000, [[:alpha:]], a{,3}, \Z, \u, (?x), ...).

// pyFlags are Python's sre flags.
type pyFlags uint16

const (
	flagIgnoreCase pyFlags = 1 << iota
	flagLocale
	flagMultiline
	flagDotAll
	flagUnicode
	flagVerbose
	flagDebug
	flagASCII
	flagTemplate
)

const (
	typeFlags   = flagASCII | flagLocale | flagUnicode
	globalFlags = flagDebug | flagTemplate
	maxRepeat   = 4294967295 // _sre.MAXREPEAT; counts must be below it
)

var flagLetters = map[rune]pyFlags{
	'i': flagIgnoreCase, 'L': flagLocale, 'm': flagMultiline, 's': flagDotAll,
	'x': flagVerbose, 'a': flagASCII, 't': flagTemplate, 'u': flagUnicode,
}

// combineFlags is _compiler._combine_flags: the flags inside (?add-del:...).
func combineFlags(f, add, del pyFlags) pyFlags {
	if add&typeFlags != 0 {
		f &^= typeFlags
	}
	return (f | add) &^ del
}

type opKind uint8

const (
	opEmpty    opKind = iota // matches the empty string
	opLiteral                // r; neg for NOT_LITERAL ([^x])
	opClass                  // items; neg for a negated set
	opAny                    // .
	opAt                     // at: a zero-width assertion
	opConcat                 // subs in sequence
	opAlt                    // subs as alternatives
	opRepeat                 // subs[0] repeated min..max times (max < 0: unbounded)
	opGroup                  // subs[0]; only during parsing
	opSet                    // after resolve: one character from set
	opNotAhead               // (?!subs[0]); after resolve, (?!look[0] look[1] ...)
	opLook                   // another lookaround of subs[0]: neg (?! (?<!), behind (?<= (?<!
)

type atKind uint8

const (
	atBeginning       atKind = iota // ^ (start of string; start of line under MULTILINE)
	atBeginningString               // \A
	atEnd                           // $ (end, or before a final newline; any line end under MULTILINE)
	atEndString                     // \Z
	atBoundary                      // \b
	atNonBoundary                   // \B
)

// node is a parsed pattern element. pos is the byte offset where it starts in the
// pattern; flags are the compile flags in effect there.
type node struct {
	op    opKind
	pos   int
	flags pyFlags
	r     rune
	neg   bool // opLiteral, opClass: negated; opNotAhead: a body that is refused
	items []classItem
	at    atKind
	subs  []*node
	min   int
	max   int
	set   runeSet   // opSet only
	look  []runeSet // opNotAhead after resolve: the characters it excludes, in order
	// opLook only: a lookbehind
	behind bool
	// opGroup only
	capture  bool
	hasFlags bool
}

// syntaxError is raised (as a panic, recovered by parse) where Python raises re.error.
type syntaxError struct {
	pos int
	msg string
}

type parser struct {
	src         string
	pos         int // byte offset of the next token
	ext         pyFlags
	flags       pyFlags // global flags: external plus inline (?x) at the start
	groups      int     // number of groups opened so far, plus one (State.groups)
	closed      map[int]bool
	names       map[string]int
	grouprefpos map[int]int
	unsupported []*Error // the constructs Python accepts but we refuse
}

// parse parses a Python pattern. It returns a *Error for a Python syntax error, or
// else for the first construct that the translator cannot support.
func parse(pattern string, ext pyFlags) (root *node, err *Error) {
	if !utf8.ValidString(pattern) {
		return nil, &Error{Offset: firstInvalidUTF8(pattern), Construct: "invalid UTF-8",
			Msg: "the pattern is not valid UTF-8"}
	}
	p := &parser{src: pattern, ext: ext, flags: ext, groups: 1,
		closed: map[int]bool{}, names: map[string]int{}, grouprefpos: map[int]int{}}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			root, err = nil, &Error{Offset: se.pos, Construct: "syntax error",
				Msg:  "python rejects this pattern: " + se.msg,
				Hint: "hookify treats a pattern that does not compile as a condition that never matches; fix the pattern"}
		}
	}()
	root = p.parseSub(ext&flagVerbose != 0, 0, ext)
	if tok, start := p.peek(); tok != "" {
		p.fail(start, "unbalanced parenthesis")
	}
	for g, pos := range p.grouprefpos {
		if g >= p.groups {
			p.fail(pos, fmt.Sprintf("invalid group reference %d", g))
		}
	}
	if p.flags&flagASCII != 0 && p.flags&flagUnicode != 0 {
		p.fail(0, "ASCII and UNICODE flags are incompatible")
	}
	if len(p.unsupported) > 0 {
		// The tree is returned too: zeroWidth says when the translator may
		// still look for the pattern's other problems in it.
		return root, joinErrors(p.unsupported)
	}
	return root, nil
}

func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

func (p *parser) fail(pos int, msg string) {
	panic(syntaxError{pos: pos, msg: msg})
}

// refuse records a construct that Python accepts but that cannot be translated.
func (p *parser) refuse(pos int, construct, msg, hint string) {
	p.unsupported = append(p.unsupported, &Error{Offset: pos, Construct: construct, Msg: msg, Hint: hint})
}

// lookaroundHints say how to write each refused lookaround instead.
var lookaroundHints = map[string]string{
	"lookahead": "(?=...) only requires what follows: at the end of the pattern, write its text without (?= ) (only whether the rule matches counts, so the text may be matched); elsewhere, " +
		"test that text with a second condition on the same field (every condition of a rule must hold)",
	"lookbehind": "(?<=...) only requires what precedes: at the start of the pattern, write its text without (?<= ) (only whether the rule matches counts, so the text may be matched); elsewhere, " +
		"test that text with a second condition on the same field (every condition of a rule must hold)",
	"negative lookbehind": "to exclude one character before, write it as a set: (?<!x)y as (?:^|[^x])y; to exclude text anywhere in the field, " +
		"add a second condition on the same field with operator not_contains (plain text) or not_regex_match (every condition of a rule must hold)",
}

// lookarounds are the refused constructs that the parser reads as an empty
// node: zero-width, they leave the rest of the tree as it would be without
// them.
var lookarounds = map[string]bool{"lookahead": true, "lookbehind": true, "negative lookbehind": true}

// zeroWidth reports whether every refusal of e is of a lookaround.
func (e *Error) zeroWidth() bool {
	for _, x := range e.All() {
		if !lookarounds[x.Construct] {
			return false
		}
	}
	return true
}

// peek returns the next token: one character, or a backslash and the character after
// it (the Tokenizer's unit), and its offset. It returns "" at the end.
func (p *parser) peek() (string, int) {
	if p.pos >= len(p.src) {
		return "", p.pos
	}
	_, n := utf8.DecodeRuneInString(p.src[p.pos:])
	if p.src[p.pos] == '\\' {
		if p.pos+1 >= len(p.src) {
			p.fail(p.pos, "bad escape (end of pattern)")
		}
		_, m := utf8.DecodeRuneInString(p.src[p.pos+1:])
		return p.src[p.pos : p.pos+1+m], p.pos
	}
	return p.src[p.pos : p.pos+n], p.pos
}

func (p *parser) get() (string, int) {
	tok, start := p.peek()
	p.pos += len(tok)
	return tok, start
}

func (p *parser) match(s string) bool {
	if tok, _ := p.peek(); tok != "" && tok == s {
		p.pos += len(tok)
		return true
	}
	return false
}

// getWhile consumes up to n single-character tokens from the set.
func (p *parser) getWhile(n int, set string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		tok, _ := p.peek()
		if len(tok) != 1 || !strings.Contains(set, tok) {
			break
		}
		b.WriteString(tok)
		p.pos++
	}
	return b.String()
}

// getUntil is Tokenizer.getuntil.
func (p *parser) getUntil(term, name string) string {
	var b strings.Builder
	for {
		tok, start := p.get()
		if tok == "" {
			if b.Len() == 0 {
				p.fail(start, "missing "+name)
			}
			p.fail(start, fmt.Sprintf("missing %s, unterminated name", term))
		}
		if tok == term {
			if b.Len() == 0 {
				p.fail(start, "missing "+name)
			}
			return b.String()
		}
		b.WriteString(tok)
	}
}

const (
	digits      = "0123456789"
	octDigits   = "01234567"
	hexDigits   = "0123456789abcdefABCDEF"
	specials    = ".\\[{()*+?^$|"
	repeatChars = "*+?{"
	whitespace  = " \t\n\r\v\f"
)

func isASCIILetter(r rune) bool { return r < 128 && unicode.IsLetter(r) }

func isIdentifier(s string) bool {
	for i, r := range s {
		ok := r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if i > 0 {
			ok = ok || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
				unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)
		}
		if !ok {
			return false
		}
	}
	return s != ""
}

func (p *parser) checkGroupName(name string, pos int) {
	if !isIdentifier(name) {
		p.fail(pos, fmt.Sprintf("bad character in group name %q", name))
	}
}

// parseSub parses alternatives (_parse_sub).
func (p *parser) parseSub(verbose bool, nested int, cur pyFlags) *node {
	_, start := p.peek()
	var items []*node
	for {
		items = append(items, p.parseSeq(verbose, nested+1, nested == 0 && len(items) == 0, &cur))
		if !p.match("|") {
			break
		}
		if nested == 0 {
			verbose = p.flags&flagVerbose != 0
		}
	}
	if len(items) == 1 {
		return items[0]
	}
	// Like Python, turn a|b|[cd] into one set: it changes which characters a
	// case-insensitive uncased literal matches, so it is not just an optimization.
	var set []classItem
	for _, it := range items {
		if len(it.subs) != 1 {
			set = nil
			break
		}
		s := it.subs[0]
		if s.op == opLiteral && !s.neg {
			set = append(set, classItem{lo: s.r, hi: s.r})
		} else if s.op == opClass && !s.neg {
			set = append(set, s.items...)
		} else {
			set = nil
			break
		}
	}
	if set != nil {
		cls := &node{op: opClass, pos: start, flags: items[0].subs[0].flags, items: uniqItems(set)}
		return &node{op: opConcat, pos: start, flags: cur, subs: []*node{cls}}
	}
	return &node{op: opAlt, pos: start, flags: cur, subs: items}
}

func uniqItems(items []classItem) []classItem {
	seen := map[classItem]bool{}
	var out []classItem
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

// parseSeq parses a sequence of items (_parse). cur holds the flags in effect; a
// global flag group at the start of the pattern updates it.
func (p *parser) parseSeq(verbose bool, nested int, first bool, cur *pyFlags) *node {
	_, seqStart := p.peek()
	var subs []*node
	add := func(n *node) { subs = append(subs, n) }
	for {
		tok, start := p.peek()
		if tok == "" || tok == "|" || tok == ")" {
			break
		}
		p.get()
		if verbose {
			if strings.Contains(whitespace, tok) {
				continue
			}
			if tok == "#" {
				for {
					t, _ := p.get()
					if t == "" || t == "\n" {
						break
					}
				}
				continue
			}
		}
		r, _ := utf8.DecodeRuneInString(tok)
		switch {
		case tok[0] == '\\':
			add(p.escape(tok, start, *cur))
		case !strings.Contains(specials, tok):
			add(&node{op: opLiteral, pos: start, flags: *cur, r: r})
		case tok == "[":
			add(p.parseClass(start, *cur))
		case strings.Contains(repeatChars, tok):
			min, max := 0, -1
			switch tok {
			case "?":
				max = 1
			case "+":
				min = 1
			case "{":
				if next, _ := p.peek(); next == "}" {
					add(&node{op: opLiteral, pos: start, flags: *cur, r: '{'})
					continue
				}
				here := p.pos
				lo := p.getWhile(len(p.src), digits)
				hi := lo
				if p.match(",") {
					hi = p.getWhile(len(p.src), digits)
				}
				if !p.match("}") {
					add(&node{op: opLiteral, pos: start, flags: *cur, r: '{'})
					p.pos = here
					continue
				}
				if lo != "" {
					min = p.count(lo, start)
				}
				if hi != "" {
					max = p.count(hi, start)
					if max < min {
						p.fail(start, "min repeat greater than max repeat")
					}
				}
			}
			if len(subs) == 0 || subs[len(subs)-1].op == opAt {
				p.fail(start, "nothing to repeat")
			}
			item := subs[len(subs)-1]
			if item.op == opRepeat {
				p.fail(start, "multiple repeat")
			}
			if item.op == opGroup && !item.capture && !item.hasFlags {
				item = item.subs[0]
			}
			if p.match("?") {
				// lazy: the same match or no match, so it is dropped
			} else if next, npos := p.peek(); next == "+" {
				p.get()
				p.refuse(npos, "possessive quantifier",
					"a possessive quantifier (*+, ++, ?+, {m,n}+) never gives back what it matched, which a POSIX ERE cannot express",
					"drop the trailing + if giving characters back cannot change whether the rule matches")
			}
			subs[len(subs)-1] = &node{op: opRepeat, pos: start, flags: *cur, subs: []*node{item}, min: min, max: max}
		case tok == ".":
			add(&node{op: opAny, pos: start, flags: *cur})
		case tok == "(":
			n := p.parseGroup(start, verbose, nested, first && len(subs) == 0, cur)
			if n != nil {
				add(n)
			} else if nested == 1 && first {
				// a global flag group: the flags in effect changed
				verbose = p.flags&flagVerbose != 0
			}
		case tok == "^":
			add(&node{op: opAt, pos: start, flags: *cur, at: atBeginning})
		case tok == "$":
			add(&node{op: opAt, pos: start, flags: *cur, at: atEnd})
		}
	}
	// unpack non-capturing groups without flags, as Python does
	var out []*node
	for _, s := range subs {
		switch {
		case s.op != opGroup || s.capture || s.hasFlags:
			out = append(out, s)
		case s.subs[0].op == opConcat:
			out = append(out, s.subs[0].subs...)
		default:
			out = append(out, s.subs[0])
		}
	}
	return &node{op: opConcat, pos: seqStart, flags: *cur, subs: out}
}

// pyInt parses s as Python's int(s): surrounding white space, one sign,
// then decimal digits (any script's) with single underscores between them.
// Values beyond 1<<30 are clamped there; no group has such a number.
func pyInt(s string) (int, bool) {
	s = strings.TrimFunc(s, unicode.IsSpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	n, digit := 0, false
	for i, r := range s {
		switch d := digitValue(r); {
		case d >= 0:
			n, digit = min(n*10+d, 1<<30), true
		case r == '_' && digit && i+1 < len(s):
			digit = false
		default:
			return 0, false
		}
	}
	if !digit {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// digitValue is the value of a Unicode decimal digit (category Nd), or -1.
// Every run of Nd characters is made of whole 0-9 sequences.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return -1
}

// count parses a repeat count as Python does (an int below MAXREPEAT).
func (p *parser) count(s string, pos int) int {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v >= maxRepeat {
		p.fail(pos, "the repetition number is too large")
	}
	return int(v)
}

// parseGroup parses what follows "(". It returns nil for a comment or for a global
// flag group, which add no item.
func (p *parser) parseGroup(start int, verbose bool, nested int, first bool, cur *pyFlags) *node {
	capture := true
	name := ""
	var addF, delF pyFlags
	if p.match("?") {
		char, cpos := p.get()
		if char == "" {
			p.fail(cpos, "unexpected end of pattern")
		}
		switch {
		case char == "P":
			if p.match("<") {
				_, npos := p.peek()
				name = p.getUntil(">", "group name")
				p.checkGroupName(name, npos)
			} else if p.match("=") {
				_, npos := p.peek()
				name = p.getUntil(")", "group name")
				p.checkGroupName(name, npos)
				gid, ok := p.names[name]
				if !ok {
					p.fail(npos, fmt.Sprintf("unknown group name %q", name))
				}
				if !p.closed[gid] {
					p.fail(npos, "cannot refer to an open group")
				}
				p.refuseBackref(start)
				return &node{op: opEmpty, pos: start, flags: *cur}
			} else {
				c, pos := p.get()
				if c == "" {
					p.fail(pos, "unexpected end of pattern")
				}
				p.fail(cpos, "unknown extension ?P"+c)
			}
		case char == ":":
			capture = false
		case char == "#":
			for {
				t, tpos := p.get()
				if t == "" {
					p.fail(tpos, "missing ), unterminated comment")
				}
				if t == ")" {
					return nil
				}
			}
		case char == "=" || char == "!" || char == "<":
			kind := "lookahead"
			if char == "<" {
				c, pos := p.get()
				if c == "" {
					p.fail(pos, "unexpected end of pattern")
				}
				if c != "=" && c != "!" {
					p.fail(cpos, "unknown extension ?<"+c)
				}
				char, kind = c, "lookbehind"
			}
			if char == "!" {
				kind = "negative " + kind
			}
			if kind == "negative lookahead" {
				// Translated where it has an exact ERE form (see translate.go).
				body := p.parseSub(verbose, nested+1, *cur)
				if !p.match(")") {
					p.fail(p.pos, "missing ), unterminated subpattern")
				}
				return &node{op: opNotAhead, pos: start, flags: *cur, subs: []*node{body}}
			}
			p.refuse(start, kind, "hookify does not translate a "+kind+" assertion into an ERE", lookaroundHints[kind])
			body := p.parseSub(verbose, nested+1, *cur)
			if !p.match(")") {
				p.fail(p.pos, "missing ), unterminated subpattern")
			}
			behind := strings.HasSuffix(kind, "lookbehind")
			if behind {
				// sre_compile: lo, hi = av[1].getwidth(); if lo != hi: raise error
				if lo, hi := width(body); lo != hi {
					p.fail(start, "look-behind requires fixed-width pattern")
				}
			}
			// The translator reads it as empty (resolve); the DFA reads it.
			return &node{op: opLook, pos: start, flags: *cur, subs: []*node{body},
				neg: strings.HasPrefix(kind, "negative"), behind: behind}
		case char == "(":
			_, npos := p.peek()
			cond := p.getUntil(")", "group name")
			if isIdentifier(cond) {
				if _, ok := p.names[cond]; !ok {
					p.fail(npos, fmt.Sprintf("unknown group name %q", cond))
				}
			} else {
				// Python 3.11 reads the number with int(), so " 1", "+1"
				// and "1_0" are group 1 and 10 (with a DeprecationWarning).
				g, ok := pyInt(cond)
				if !ok || g < 0 {
					p.fail(npos, fmt.Sprintf("bad character in group name %q", cond))
				}
				if g == 0 {
					p.fail(npos, "bad group number")
				}
				if _, ok := p.grouprefpos[g]; !ok {
					p.grouprefpos[g] = npos
				}
			}
			p.refuse(start, "conditional", "a conditional group (?(id)yes|no) depends on an earlier capture, which a POSIX ERE cannot test",
				"write the alternatives out explicitly")
			inner := *cur
			p.parseSeq(verbose, nested+1, false, &inner)
			if p.match("|") {
				p.parseSeq(verbose, nested+1, false, &inner)
				if t, tpos := p.peek(); t == "|" {
					p.fail(tpos, "conditional backref with more than two branches")
				}
			}
			if !p.match(")") {
				p.fail(p.pos, "missing ), unterminated subpattern")
			}
			return &node{op: opEmpty, pos: start, flags: *cur}
		case char == ">":
			p.refuse(start, "atomic group", "an atomic group (?>...) never gives back what it matched, which a POSIX ERE cannot express",
				"use a plain group (?:...) if giving characters back cannot change whether the rule matches")
			p.parseSub(verbose, nested+1, *cur)
			if !p.match(")") {
				p.fail(p.pos, "missing ), unterminated subpattern")
			}
			return &node{op: opEmpty, pos: start, flags: *cur}
		case char == "-" || flagLetters[[]rune(char)[0]] != 0:
			a, d, global := p.parseFlags(char, cpos)
			if global {
				if !first {
					p.fail(start, "global flags not at the start of the expression")
				}
				if p.flags&flagTemplate != 0 {
					p.refuse(start, "template flag", "the template flag (?t) is not supported", "remove it")
				}
				*cur = p.flags
				return nil
			}
			addF, delF = a, d
			capture = false
		default:
			p.fail(cpos, "unknown extension ?"+char)
		}
	}
	gid := 0
	if capture {
		gid = p.groups
		p.groups++
		if name != "" {
			if old, ok := p.names[name]; ok {
				p.fail(start, fmt.Sprintf("redefinition of group name %q as group %d; was group %d", name, gid, old))
			}
			p.names[name] = gid
		}
	}
	subVerbose := (verbose || addF&flagVerbose != 0) && delF&flagVerbose == 0
	sub := p.parseSub(subVerbose, nested+1, combineFlags(*cur, addF, delF))
	if !p.match(")") {
		p.fail(p.pos, "missing ), unterminated subpattern")
	}
	if capture {
		p.closed[gid] = true
	}
	return &node{op: opGroup, pos: start, flags: *cur, subs: []*node{sub},
		capture: capture, hasFlags: addF|delF != 0}
}

// parseFlags is _parse_flags. It returns the flags to add and remove for a scoped
// group, or global=true for (?flags) (already merged into p.flags).
func (p *parser) parseFlags(char string, pos int) (add, del pyFlags, global bool) {
	if char != "-" {
		for {
			c := []rune(char)[0]
			flag := flagLetters[c]
			if c == 'L' {
				p.fail(pos, "bad inline flags: cannot use 'L' flag with a str pattern")
			}
			add |= flag
			if flag&typeFlags != 0 && add&typeFlags != flag {
				p.fail(pos, "bad inline flags: flags 'a', 'u' and 'L' are incompatible")
			}
			char, pos = p.get()
			if char == "" {
				p.fail(pos, "missing -, : or )")
			}
			if char == ")" || char == "-" || char == ":" {
				break
			}
			if len([]rune(char)) != 1 || flagLetters[[]rune(char)[0]] == 0 {
				if isLetter(char) {
					p.fail(pos, "unknown flag")
				}
				p.fail(pos, "missing -, : or )")
			}
		}
	}
	if char == ")" {
		p.flags |= add
		return 0, 0, true
	}
	if add&globalFlags != 0 {
		p.fail(pos, "bad inline flags: cannot turn on global flag")
	}
	if char == "-" {
		char, pos = p.get()
		if char == "" {
			p.fail(pos, "missing flag")
		}
		if len([]rune(char)) != 1 || flagLetters[[]rune(char)[0]] == 0 {
			if isLetter(char) {
				p.fail(pos, "unknown flag")
			}
			p.fail(pos, "missing flag")
		}
		for {
			flag := flagLetters[[]rune(char)[0]]
			if flag&typeFlags != 0 {
				p.fail(pos, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
			}
			del |= flag
			char, pos = p.get()
			if char == "" {
				p.fail(pos, "missing :")
			}
			if char == ":" {
				break
			}
			if len([]rune(char)) != 1 || flagLetters[[]rune(char)[0]] == 0 {
				if isLetter(char) {
					p.fail(pos, "unknown flag")
				}
				p.fail(pos, "missing :")
			}
		}
	}
	if del&globalFlags != 0 {
		p.fail(pos, "bad inline flags: cannot turn off global flag")
	}
	if add&del != 0 {
		p.fail(pos, "bad inline flags: flag turned on and off")
	}
	return add, del, false
}

// isLetter is str.isalpha() for a token (an escape token is never alphabetic).
func isLetter(tok string) bool {
	rs := []rune(tok)
	return len(rs) == 1 && unicode.IsLetter(rs[0])
}

func (p *parser) refuseBackref(pos int) {
	p.refuse(pos, "backreference", "a backreference matches text captured earlier, which a POSIX ERE cannot do portably",
		"spell out the repeated text instead of referring to the group")
}

// escapeCommon handles the escapes shared by _escape and _class_escape: \x, \u, \U,
// \N. ok is false when the token is none of them.
func (p *parser) escapeCommon(tok string, start int) (r rune, ok bool) {
	switch tok[1] {
	case 'x':
		h := p.getWhile(2, hexDigits)
		if len(h) != 2 {
			p.fail(start, "incomplete escape "+tok+h)
		}
		v, _ := strconv.ParseUint(h, 16, 32)
		return rune(v), true
	case 'u':
		h := p.getWhile(4, hexDigits)
		if len(h) != 4 {
			p.fail(start, "incomplete escape "+tok+h)
		}
		v, _ := strconv.ParseUint(h, 16, 32)
		return rune(v), true
	case 'U':
		h := p.getWhile(8, hexDigits)
		if len(h) != 8 {
			p.fail(start, "incomplete escape "+tok+h)
		}
		v, _ := strconv.ParseUint(h, 16, 32)
		if v > maxRune {
			p.fail(start, "bad escape "+tok+h)
		}
		return rune(v), true
	case 'N':
		if !p.match("{") {
			p.fail(p.pos, "missing {")
		}
		p.getUntil("}", "character name")
		p.refuse(start, "named character escape", "\\N{...} needs Python's Unicode name database",
			"write the character itself, or \\uXXXX")
		return utf8.RuneError, true
	}
	return 0, false
}

var simpleEscapes = map[byte]rune{'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11, '\\': '\\'}

var categoryEscapes = map[byte]catKind{
	'd': catDigit, 'D': catNotDigit, 's': catSpace, 'S': catNotSpace, 'w': catWord, 'W': catNotWord,
}

// escape is _escape: an escape outside a character set.
func (p *parser) escape(tok string, start int, f pyFlags) *node {
	lit := func(r rune) *node { return &node{op: opLiteral, pos: start, flags: f, r: r} }
	if len(tok) == 2 {
		switch tok[1] {
		case 'A':
			return &node{op: opAt, pos: start, flags: f, at: atBeginningString}
		case 'Z':
			return &node{op: opAt, pos: start, flags: f, at: atEndString}
		case 'b':
			return &node{op: opAt, pos: start, flags: f, at: atBoundary}
		case 'B':
			return &node{op: opAt, pos: start, flags: f, at: atNonBoundary}
		}
		if c, ok := categoryEscapes[tok[1]]; ok {
			return &node{op: opClass, pos: start, flags: f, items: []classItem{{cat: c}}}
		}
		if r, ok := simpleEscapes[tok[1]]; ok {
			return lit(r)
		}
		if r, ok := p.escapeCommon(tok, start); ok {
			return lit(r)
		}
		c := tok[1]
		if c == '0' {
			o := p.getWhile(2, octDigits)
			v, _ := strconv.ParseUint("0"+o, 8, 32)
			return lit(rune(v))
		}
		if '1' <= c && c <= '9' {
			num := string(c)
			if next, _ := p.peek(); len(next) == 1 && strings.Contains(digits, next) {
				p.get()
				num += next
				if strings.Contains(octDigits, num[:1]) && strings.Contains(octDigits, num[1:2]) {
					if third, _ := p.peek(); len(third) == 1 && strings.Contains(octDigits, third) {
						p.get()
						v, _ := strconv.ParseUint(num+third, 8, 32)
						if v > 0o377 {
							p.fail(start, fmt.Sprintf("octal escape value \\%s outside of range 0-0o377", num+third))
						}
						return lit(rune(v))
					}
				}
			}
			g, _ := strconv.Atoi(num)
			if g < p.groups {
				if !p.closed[g] {
					p.fail(start, "cannot refer to an open group")
				}
				p.refuseBackref(start)
				return &node{op: opEmpty, pos: start, flags: f}
			}
			p.fail(start, fmt.Sprintf("invalid group reference %d", g))
		}
	}
	r, _ := utf8.DecodeRuneInString(tok[1:])
	if isASCIILetter(r) {
		p.fail(start, "bad escape "+tok)
	}
	return lit(r)
}

// classEscape is _class_escape: an escape inside a character set. It returns a
// literal or a category item.
func (p *parser) classEscape(tok string, start int) classItem {
	if len(tok) == 2 {
		if r, ok := simpleEscapes[tok[1]]; ok {
			return classItem{lo: r, hi: r}
		}
		if c, ok := categoryEscapes[tok[1]]; ok {
			return classItem{cat: c}
		}
		if r, ok := p.escapeCommon(tok, start); ok {
			return classItem{lo: r, hi: r}
		}
		c := tok[1]
		if strings.IndexByte(octDigits, c) >= 0 {
			o := p.getWhile(2, octDigits)
			v, _ := strconv.ParseUint(string(c)+o, 8, 32)
			if v > 0o377 {
				p.fail(start, fmt.Sprintf("octal escape value %s outside of range 0-0o377", tok+o))
			}
			return classItem{lo: rune(v), hi: rune(v)}
		}
		if c == '8' || c == '9' {
			p.fail(start, "bad escape "+tok)
		}
	}
	r, _ := utf8.DecodeRuneInString(tok[1:])
	if isASCIILetter(r) {
		p.fail(start, "bad escape "+tok)
	}
	return classItem{lo: r, hi: r}
}

// parseClass parses a character set after "[".
func (p *parser) parseClass(start int, f pyFlags) *node {
	var set []classItem
	negate := p.match("^")
	item := func(tok string, pos int) classItem {
		if tok[0] == '\\' {
			return p.classEscape(tok, pos)
		}
		r, _ := utf8.DecodeRuneInString(tok)
		return classItem{lo: r, hi: r}
	}
	for {
		tok, pos := p.get()
		if tok == "" {
			p.fail(start, "unterminated character set")
		}
		if tok == "]" && len(set) > 0 {
			break
		}
		code1 := item(tok, pos)
		if p.match("-") {
			that, tpos := p.get()
			if that == "" {
				p.fail(start, "unterminated character set")
			}
			if that == "]" {
				set = append(set, code1, classItem{lo: '-', hi: '-'})
				break
			}
			code2 := item(that, tpos)
			if code1.cat != catNone || code2.cat != catNone || code2.lo < code1.lo {
				p.fail(pos, fmt.Sprintf("bad character range %s-%s", tok, that))
			}
			set = append(set, classItem{lo: code1.lo, hi: code2.lo})
		} else {
			set = append(set, code1)
		}
	}
	set = uniqItems(set)
	if len(set) == 1 && set[0].cat == catNone && set[0].lo == set[0].hi {
		return &node{op: opLiteral, pos: start, flags: f, r: set[0].lo, neg: negate}
	}
	return &node{op: opClass, pos: start, flags: f, items: set, neg: negate}
}

// width is sre_parse's getwidth: the least and most characters n can match,
// with counts capped at maxRepeat.
func width(n *node) (lo, hi int) {
	switch n.op {
	case opLiteral, opClass, opAny:
		return 1, 1
	case opGroup:
		return width(n.subs[0])
	case opConcat:
		for _, s := range n.subs {
			l, h := width(s)
			lo, hi = min(lo+l, maxRepeat), min(hi+h, maxRepeat)
		}
		return lo, hi
	case opAlt:
		lo, hi = maxRepeat, 0
		for _, s := range n.subs {
			l, h := width(s)
			lo, hi = min(lo, l), max(hi, h)
		}
		return lo, hi
	case opRepeat:
		l, h := width(n.subs[0])
		mx := n.max
		if mx < 0 {
			mx = maxRepeat
		}
		return min(l*n.min, maxRepeat), min(h*mx, maxRepeat)
	}
	return 0, 0
}
