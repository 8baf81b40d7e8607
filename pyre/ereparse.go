package pyre

import (
	"fmt"
	"strings"
)

// parseERE reads an ERE of the portable subset (see Validate) back into the byte
// tree that ERE prints, so that other analyses (Needle) can work on any regex the
// generated scripts may run, not only on ERE's output. It returns an error, the one
// Validate reports, for text outside the subset.
//
// Every node matches (in bash, LC_ALL=C) exactly the strings the regex text does,
// with one over-approximation: a bracket expression that holds a POSIX class such
// as [:alpha:] becomes the set of every byte, negated or not, because what a class
// holds in the C locale beyond ASCII differs between regex engines. Quantifiers are
// kept as written (a{1} stays a bRep), so an analysis can tell them apart.
func parseERE(ere string) (*bnode, error) {
	root, _, err := parseEREText(ere)
	return root, err
}

// ereText is what parseEREText tells about the text of an ERE that its
// tree does not keep.
type ereText struct {
	// classes: a bracket expression holds a POSIX class (which the tree
	// only approximates).
	classes bool
	// intervals: a quantifier is written as an interval ({n}, {n,} or
	// {n,m}, even where the tree's node prints as ?).
	intervals bool
	// groups are where each group starts and ends in the text (its "("
	// and one past its ")"), in the order of their "(".
	groups [][2]int
}

// parseEREText is parseERE that also reports what the tree does not keep
// about the text.
func parseEREText(ere string) (root *bnode, text ereText, err error) {
	if ere == "" {
		return nil, ereText{}, fmt.Errorf("empty regex")
	}
	p := &ereParser{s: ere}
	if root, err = p.alternatives(); err != nil {
		return nil, ereText{}, err
	}
	if p.more() {
		return nil, ereText{}, p.errorf("unbalanced )")
	}
	return root, p.text, nil
}

type ereParser struct {
	s    string
	i    int
	text ereText
}

func (p *ereParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *ereParser) more() bool { return p.i < len(p.s) }

func (p *ereParser) alternatives() (*bnode, error) {
	var alts []*bnode
	for {
		alt, err := p.branch()
		if err != nil {
			return nil, err
		}
		alts = append(alts, alt)
		if !p.more() || p.s[p.i] != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &bnode{kind: bAlt, subs: alts}, nil
}

func (p *ereParser) branch() (*bnode, error) {
	var items []*bnode
	for p.more() && p.s[p.i] != '|' && p.s[p.i] != ')' {
		var atom *bnode
		switch c := p.s[p.i]; c {
		case '^':
			if len(items) > 0 {
				return nil, p.errorf("^ not at the start of an alternative")
			}
			p.i++
			if p.more() && strings.IndexByte("*+?{", p.s[p.i]) >= 0 {
				return nil, p.errorf("quantified ^")
			}
			items = append(items, &bnode{kind: bBOL})
			continue
		case '$':
			p.i++
			if p.more() && p.s[p.i] != '|' && p.s[p.i] != ')' {
				return nil, p.errorf("$ not at the end of an alternative")
			}
			items = append(items, &bnode{kind: bEOL})
			continue
		case '(':
			g := len(p.text.groups)
			p.text.groups = append(p.text.groups, [2]int{p.i, -1})
			p.i++
			var err error
			if atom, err = p.alternatives(); err != nil {
				return nil, err
			}
			if !p.more() || p.s[p.i] != ')' {
				return nil, p.errorf("unterminated group")
			}
			p.i++
			p.text.groups[g][1] = p.i
		case '[':
			set, err := p.bracket()
			if err != nil {
				return nil, err
			}
			atom = bytesNode(set)
		case '\\':
			if p.i+1 >= len(p.s) || strings.IndexByte(ereSpecial, p.s[p.i+1]) < 0 {
				return nil, p.errorf("backslash not before a special character")
			}
			atom = byteNode(p.s[p.i+1])
			p.i += 2
		case 0:
			return nil, p.errorf("NUL byte")
		case '.':
			return nil, p.errorf("'.' matches any byte, including a newline")
		case '*', '+', '?', '{':
			return nil, p.errorf("quantifier %q without an operand", c)
		default:
			atom = byteNode(c)
			p.i++
		}
		item, err := p.quantifier(atom)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		return nil, p.errorf("empty alternative")
	}
	return seqNode(items...), nil
}

// quantifier reads the quantifier after atom, if there is one, into a bRep.
func (p *ereParser) quantifier(atom *bnode) (*bnode, error) {
	if !p.more() {
		return atom, nil
	}
	min, max := 0, 0
	switch p.s[p.i] {
	case '*':
		min, max = 0, -1
		p.i++
	case '+':
		min, max = 1, -1
		p.i++
	case '?':
		min, max = 0, 1
		p.i++
	case '{':
		p.i++
		p.text.intervals = true
		var ok bool
		if min, ok = p.number(); !ok {
			return nil, p.errorf("bad repeat count")
		}
		max = min
		if p.more() && p.s[p.i] == ',' {
			p.i++
			max = -1
			if p.more() && p.s[p.i] != '}' {
				if max, ok = p.number(); !ok {
					return nil, p.errorf("bad repeat count")
				}
			}
		}
		if !p.more() || p.s[p.i] != '}' {
			return nil, p.errorf("unterminated repeat count")
		}
		p.i++
		if min > maxCount || max > maxCount || max >= 0 && max < min {
			return nil, p.errorf("repeat count {%d,%d} out of range", min, max)
		}
	default:
		return atom, nil
	}
	if p.more() && strings.IndexByte("*+?{", p.s[p.i]) >= 0 {
		return nil, p.errorf("two quantifiers in a row")
	}
	return &bnode{kind: bRep, subs: []*bnode{atom}, min: min, max: max}, nil
}

// number reads a repeat count of at most four digits.
func (p *ereParser) number() (int, bool) {
	start := p.i
	n := 0
	for p.more() && p.s[p.i] >= '0' && p.s[p.i] <= '9' && p.i-start < 4 {
		n = n*10 + int(p.s[p.i]-'0')
		p.i++
	}
	return n, p.i > start
}

var posixClasses = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true, "space": true,
	"blank": true, "punct": true, "print": true, "graph": true, "cntrl": true, "xdigit": true,
}

// bracket reads a bracket expression as the set of bytes it matches in the C locale
// (ranges are byte ranges there), or every byte if it holds a POSIX class.
func (p *ereParser) bracket() (byteSet, error) {
	p.i++ // [
	negated := false
	if p.more() && p.s[p.i] == '^' {
		negated = true
		p.i++
	}
	var set byteSet
	class := false
	for first := true; ; first = false {
		if !p.more() {
			return byteSet{}, p.errorf("unterminated bracket expression")
		}
		c := p.s[p.i]
		switch {
		case c == ']' && !first:
			p.i++
			if class {
				p.text.classes = true
				return byteRange(1, 0xFF), nil
			}
			if negated {
				return complementBytes(set), nil
			}
			return set, nil
		case c == 0:
			return byteSet{}, p.errorf("NUL byte in bracket expression")
		case c == '\\':
			return byteSet{}, p.errorf("backslash in bracket expression")
		case c == '[' && p.i+1 < len(p.s) && strings.IndexByte(".=:", p.s[p.i+1]) >= 0:
			if p.s[p.i+1] != ':' {
				return byteSet{}, p.errorf("collating element or equivalence class")
			}
			end := strings.Index(p.s[p.i+2:], ":]")
			if end < 0 || !posixClasses[p.s[p.i+2:p.i+2+end]] {
				return byteSet{}, p.errorf("unknown character class")
			}
			p.i += 2 + end + 2
			class = true
		case c == '-' && !first && !(p.i+1 < len(p.s) && p.s[p.i+1] == ']'):
			return byteSet{}, p.errorf("'-' in the middle of a bracket expression")
		case p.i+2 < len(p.s) && p.s[p.i+1] == '-' && p.s[p.i+2] != ']':
			lo, hi := c, p.s[p.i+2]
			if strings.IndexByte(bracketSpecial, lo) >= 0 || strings.IndexByte(bracketSpecial, hi) >= 0 || hi == 0 {
				return byteSet{}, p.errorf("special byte as a range endpoint")
			}
			if hi < lo {
				return byteSet{}, p.errorf("range out of order")
			}
			set = set.union(byteRange(lo, hi))
			p.i += 3
		default:
			set.add(c)
			p.i++
		}
	}
}
