package pyre

import "strings"

// parseERE reads an ERE of the portable subset (see Validate) back into the byte
// tree that ERE prints, so that other analyses (Needle) can work on any regex the
// generated scripts may run, not only on ERE's output.
//
// Every node matches (in bash, LC_ALL=C) exactly the strings the regex text does,
// with one over-approximation: a bracket expression that holds a POSIX class such
// as [:alpha:] becomes the set of every byte, negated or not, because what a class
// holds in the C locale beyond ASCII differs between regex engines. Quantifiers are
// kept as written (a{1} stays a bRep), so an analysis can tell them apart.
func parseERE(ere string) (*bnode, error) {
	if err := Validate(ere); err != nil {
		return nil, err
	}
	p := &ereParser{s: ere}
	return p.alternatives(), nil
}

// ereParser follows the grammar of validator, trusting that the text is valid.
type ereParser struct {
	s string
	i int
}

func (p *ereParser) more() bool { return p.i < len(p.s) }

func (p *ereParser) alternatives() *bnode {
	var alts []*bnode
	for {
		alts = append(alts, p.branch())
		if !p.more() || p.s[p.i] != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &bnode{kind: bAlt, subs: alts}
}

func (p *ereParser) branch() *bnode {
	var items []*bnode
	for p.more() && p.s[p.i] != '|' && p.s[p.i] != ')' {
		var atom *bnode
		switch c := p.s[p.i]; c {
		case '^', '$':
			p.i++
			kind := bBOL
			if c == '$' {
				kind = bEOL
			}
			items = append(items, &bnode{kind: kind})
			continue // never quantified
		case '(':
			p.i++
			atom = p.alternatives()
			p.i++ // )
		case '[':
			atom = bytesNode(p.bracket())
		case '\\':
			atom = byteNode(p.s[p.i+1])
			p.i += 2
		default:
			atom = byteNode(c)
			p.i++
		}
		items = append(items, p.quantifier(atom))
	}
	return seqNode(items...)
}

func (p *ereParser) quantifier(atom *bnode) *bnode {
	if !p.more() {
		return atom
	}
	min, max := 0, 0
	switch p.s[p.i] {
	case '*':
		min, max = 0, -1
	case '+':
		min, max = 1, -1
	case '?':
		min, max = 0, 1
	case '{':
		p.i++
		min = p.number()
		max = min
		if p.s[p.i] == ',' {
			p.i++
			max = -1
			if p.s[p.i] != '}' {
				max = p.number()
			}
		}
	default:
		return atom
	}
	p.i++ // the quantifier, or the closing }
	return &bnode{kind: bRep, subs: []*bnode{atom}, min: min, max: max}
}

func (p *ereParser) number() int {
	n := 0
	for p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		n = n*10 + int(p.s[p.i]-'0')
		p.i++
	}
	return n
}

// bracket reads a bracket expression as the set of bytes it matches in the C locale
// (ranges are byte ranges there), or every byte if it holds a POSIX class.
func (p *ereParser) bracket() byteSet {
	p.i++ // [
	negated := false
	if p.s[p.i] == '^' {
		negated = true
		p.i++
	}
	var set byteSet
	class := false
	for first := true; ; first = false {
		c := p.s[p.i]
		switch {
		case c == ']' && !first:
			p.i++
			if class {
				return byteRange(1, 0xFF)
			}
			if negated {
				return complementBytes(set)
			}
			return set
		case c == '[' && p.i+1 < len(p.s) && p.s[p.i+1] == ':':
			p.i += 2 + strings.Index(p.s[p.i+2:], ":]") + 2
			class = true
		case p.i+2 < len(p.s) && p.s[p.i+1] == '-' && p.s[p.i+2] != ']':
			set = set.union(byteRange(c, p.s[p.i+2]))
			p.i += 3
		default:
			set.add(c)
			p.i++
		}
	}
}
