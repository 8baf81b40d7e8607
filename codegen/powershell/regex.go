package powershell

import (
	"fmt"
	"strconv"
	"strings"
)

// DotNetRegex converts a POSIX ERE, as pyre writes it for bash's
// [[ =~ ]] and every awk (regcomp with REG_EXTENDED, LC_ALL=C: one character per byte, no
// REG_NEWLINE, case-sensitive), into a .NET pattern that matches exactly the
// same strings when the subject holds one char per byte (U+0000-U+00FF, the
// ISO-8859-1 reading of the UTF-8 bytes), as the generated scripts do.
//
// Every regex condition is translated from Python once, into the ERE that
// the Unix hook runs (Condition.ERE, in its awk form); the PowerShell
// script runs that same ERE. So both scripts agree by construction, including on case folding
// (done at compile time, so no IgnoreCase) and on Python's newline rules
// (written into the ERE explicitly).
//
// The output is ASCII and unambiguous: letters, digits and _ stand for
// themselves, other printable ASCII is escaped with a backslash, all other
// bytes are written as \xHH, every bracket expression becomes an explicit
// class of byte ranges (negation and POSIX classes resolved at compile time),
// '.' is any byte, '^' is \A and '$' is \z (regcomp's anchors are the string
// edges), and groups do not capture.
//
// Only the portable ERE subset is accepted; anything else is refused with
// its byte offset in the ERE: backreferences, \ before a letter or digit
// (GNU extensions), [= =] and [. .], intervals over 255, a quantifier with
// nothing to repeat, and stacked quantifiers (a+? is (a+)? in an ERE but
// lazy in .NET, and regcomp engines disagree about them).
//
// Why this parser and not pyre's (pyre/ereparse.go, which Needle and
// Validate use): pyre's reads an ERE into its byte tree for analyses that
// only need to be sound, so it widens a bracket with a POSIX class to every
// byte (what [:alpha:] holds beyond ASCII differs between regex engines),
// drops NUL from sets, and merges nodes. A translation must be exact and
// print each construct where it stands, so this one resolves the C-locale
// classes to their ASCII bytes, as bash under LC_ALL=C on glibc does, and
// writes .NET text as it parses. Both accept the portable subset that pyre
// emits; TestDotNetRegexAgainstBash holds this one to bash's verdicts.
func DotNetRegex(ere string) (string, error) {
	p := &ereParser{s: ere}
	out, err := p.alt(0)
	if err != nil {
		return "", err
	}
	if p.i < len(p.s) {
		return "", p.errf(p.i, "unmatched )")
	}
	return out, nil
}

// EREError is an ERE that DotNetRegex does not accept.
type EREError struct {
	Offset int // byte offset in the ERE
	Msg    string
}

func (e *EREError) Error() string { return fmt.Sprintf("%s at offset %d of the ERE", e.Msg, e.Offset) }

type ereParser struct {
	s string
	i int
}

func (p *ereParser) errf(at int, format string, args ...any) error {
	return &EREError{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// maxDepth bounds group nesting (the parser recurses per group).
const maxDepth = 200

// alt parses branches separated by '|' up to the end or a ')'.
func (p *ereParser) alt(depth int) (string, error) {
	if depth > maxDepth {
		return "", p.errf(p.i, "groups nested too deeply")
	}
	var branches []string
	for {
		b, err := p.branch(depth)
		if err != nil {
			return "", err
		}
		branches = append(branches, b)
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return strings.Join(branches, "|"), nil
	}
}

// branch parses pieces up to '|', ')' or the end.
func (p *ereParser) branch(depth int) (string, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '|' || c == ')' {
			break
		}
		start := p.i
		atom, quantifiable, err := p.atom(depth)
		if err != nil {
			return "", err
		}
		quantified := false
		for p.i < len(p.s) {
			q, ok, err := p.quant()
			if err != nil {
				return "", err
			}
			if !ok {
				break
			}
			if !quantifiable {
				return "", p.errf(start, "a quantifier follows %q, which cannot be repeated", p.s[start:start+1])
			}
			if quantified {
				// a+? is (a+)? in an ERE but lazy in .NET, and regcomp
				// engines disagree on stacked quantifiers: refuse.
				return "", p.errf(start, "a second quantifier on one atom")
			}
			atom += q
			quantified = true
		}
		b.WriteString(atom)
	}
	return b.String(), nil
}

// atom parses one atom. quantifiable is false for anchors.
func (p *ereParser) atom(depth int) (string, bool, error) {
	c := p.s[p.i]
	switch c {
	case '(':
		open := p.i
		p.i++
		inner, err := p.alt(depth + 1)
		if err != nil {
			return "", false, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return "", false, p.errf(open, "unmatched (")
		}
		p.i++
		return "(?:" + inner + ")", true, nil
	case '[':
		set, err := p.bracket()
		if err != nil {
			return "", false, err
		}
		return set.class(), true, nil
	case '.':
		p.i++
		return `[\x00-\xFF]`, true, nil
	case '^':
		p.i++
		return `\A`, false, nil
	case '$':
		p.i++
		return `\z`, false, nil
	case '*', '+', '?':
		return "", false, p.errf(p.i, "%q has nothing to repeat", c)
	case '{':
		start := p.i
		if _, ok, _ := p.quant(); ok {
			return "", false, p.errf(start, "an interval has nothing to repeat")
		}
		return "", false, p.errf(start, "a { that does not start an interval")
	case '\\':
		if p.i+1 >= len(p.s) {
			return "", false, p.errf(p.i, "trailing backslash")
		}
		e := p.s[p.i+1]
		if e >= 0x80 || isAlnum(e) {
			return "", false, p.errf(p.i, "\\%c is not a portable ERE escape", e)
		}
		p.i += 2
		return literal(e), true, nil
	}
	p.i++
	return literal(c), true, nil
}

// quant parses a quantifier at p.i, if there is one.
func (p *ereParser) quant() (string, bool, error) {
	switch p.s[p.i] {
	case '*', '+', '?':
		p.i++
		return p.s[p.i-1 : p.i], true, nil
	case '{':
	default:
		return "", false, nil
	}
	start := p.i
	j := p.i + 1
	num := func() (int, bool) {
		k := j
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == k || j-k > 3 {
			return 0, false
		}
		n, _ := strconv.Atoi(p.s[k:j])
		return n, true
	}
	lo, ok := num()
	if !ok {
		return "", false, p.errf(start, "a { that does not start an interval")
	}
	hi, hasHi, comma := lo, true, false
	if j < len(p.s) && p.s[j] == ',' {
		comma = true
		j++
		hi, hasHi = num()
	}
	if j >= len(p.s) || p.s[j] != '}' {
		return "", false, p.errf(start, "a { that does not start an interval")
	}
	j++
	if lo > 255 || hasHi && hi > 255 {
		return "", false, p.errf(start, "an interval count over 255")
	}
	if hasHi && hi < lo {
		return "", false, p.errf(start, "an interval whose maximum is below its minimum")
	}
	p.i = j
	switch {
	case !comma:
		return fmt.Sprintf("{%d}", lo), true, nil
	case !hasHi:
		return fmt.Sprintf("{%d,}", lo), true, nil
	}
	return fmt.Sprintf("{%d,%d}", lo, hi), true, nil
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s[c/64] |= 1 << (c % 64)
	}
}

func (s *byteSet) has(c int) bool { return s[c/64]&(1<<(c%64)) != 0 }

// class writes the set as a .NET character class of \xHH ranges.
func (s *byteSet) class() string {
	var b strings.Builder
	n := 0
	for c := 0; c < 256; {
		if !s.has(c) {
			c++
			continue
		}
		d := c
		for d+1 < 256 && s.has(d+1) {
			d++
		}
		b.WriteString(classByte(byte(c)))
		if d > c {
			b.WriteString("-" + classByte(byte(d)))
		}
		n += d - c + 1
		c = d + 1
	}
	if n == 0 {
		// Nothing: subjects hold only U+0000-U+00FF.
		return `[^\x00-\xFF]`
	}
	return "[" + b.String() + "]"
}

// posixClasses are the character classes of the C locale.
var posixClasses = map[string]func(s *byteSet){
	"alpha":  func(s *byteSet) { s.add('A', 'Z'); s.add('a', 'z') },
	"digit":  func(s *byteSet) { s.add('0', '9') },
	"alnum":  func(s *byteSet) { s.add('0', '9'); s.add('A', 'Z'); s.add('a', 'z') },
	"upper":  func(s *byteSet) { s.add('A', 'Z') },
	"lower":  func(s *byteSet) { s.add('a', 'z') },
	"space":  func(s *byteSet) { s.add('\t', '\r'); s.add(' ', ' ') },
	"blank":  func(s *byteSet) { s.add('\t', '\t'); s.add(' ', ' ') },
	"punct":  func(s *byteSet) { s.add('!', '/'); s.add(':', '@'); s.add('[', '`'); s.add('{', '~') },
	"print":  func(s *byteSet) { s.add(' ', '~') },
	"graph":  func(s *byteSet) { s.add('!', '~') },
	"cntrl":  func(s *byteSet) { s.add(0, 0x1f); s.add(0x7f, 0x7f) },
	"xdigit": func(s *byteSet) { s.add('0', '9'); s.add('A', 'F'); s.add('a', 'f') },
}

// bracket parses a POSIX bracket expression at p.i (which holds '[').
func (p *ereParser) bracket() (*byteSet, error) {
	open := p.i
	p.i++
	neg := false
	if p.i < len(p.s) && p.s[p.i] == '^' {
		neg = true
		p.i++
	}
	var set byteSet
	first := true
	for {
		if p.i >= len(p.s) {
			return nil, p.errf(open, "unmatched [")
		}
		c := p.s[p.i]
		if c == ']' && !first {
			p.i++
			break
		}
		first = false
		if c == '[' && p.i+1 < len(p.s) && strings.IndexByte(":=.", p.s[p.i+1]) >= 0 {
			kind := p.s[p.i+1]
			end := strings.Index(p.s[p.i+2:], string(kind)+"]")
			if kind != ':' {
				return nil, p.errf(p.i, "[%c %c] is not supported", kind, kind)
			}
			if end < 0 {
				return nil, p.errf(p.i, "unterminated [:")
			}
			name := p.s[p.i+2 : p.i+2+end]
			fill, ok := posixClasses[name]
			if !ok {
				return nil, p.errf(p.i, "unknown character class [:%s:]", name)
			}
			fill(&set)
			p.i += 2 + end + 2
			if p.i < len(p.s) && p.s[p.i] == '-' && p.i+1 < len(p.s) && p.s[p.i+1] != ']' {
				return nil, p.errf(p.i, "a range that starts at a character class")
			}
			continue
		}
		lo := c
		p.i++
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			hi := p.s[p.i+1]
			if hi == '[' && p.i+2 < len(p.s) && strings.IndexByte(":=.", p.s[p.i+2]) >= 0 {
				return nil, p.errf(p.i+1, "a range that ends at a character class")
			}
			if hi < lo {
				return nil, p.errf(p.i-1, "a range whose end is below its start")
			}
			p.i += 2
			set.add(lo, hi)
			continue
		}
		set.add(lo, lo)
	}
	if neg {
		for i := range set {
			set[i] = ^set[i]
		}
	}
	return &set, nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// literal writes byte c as a .NET atom that matches exactly c: a letter,
// digit or _ as itself, other printable ASCII after a backslash (always a
// literal in .NET), and the rest, space included, as \xHH.
func literal(c byte) string {
	switch {
	case isAlnum(c) || c == '_':
		return string(rune(c))
	case c > ' ' && c < 0x7f:
		return `\` + string(rune(c))
	}
	return fmt.Sprintf(`\x%02X`, c)
}

// classByte writes byte c inside a .NET character class: a letter or digit
// as itself, anything else as \xHH (so no '-', '[', ']', '^' or '\' is ever
// read as class syntax).
func classByte(c byte) string {
	if isAlnum(c) {
		return string(rune(c))
	}
	return fmt.Sprintf(`\x%02X`, c)
}
