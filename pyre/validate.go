package pyre

import (
	"fmt"
	"strings"
)

// Validate reports whether ere uses only the portable subset of POSIX ERE that this
// package emits, which behaves the same under bash's [[ =~ ]] with glibc, macOS and
// musl regex engines in the C locale:
//
//   - ordinary bytes (any byte except NUL and the specials .[\()*+?{|^$), and a
//     backslash before one of those specials;
//   - bracket expressions, optionally negated, with single bytes, ranges whose
//     endpoints are not one of ] ^ - [ \ and are in order, and POSIX classes such as
//     [:alpha:]; ']' only first, '-' only first or last, no backslash, no NUL, no
//     collating elements or equivalence classes, never empty;
//   - groups ( ) with non-empty alternatives separated by |;
//   - at most one quantifier per atom: * + ? {n} {n,} {n,m} with n <= m <= 255;
//   - ^ only at the start and $ only at the end of an alternative, never quantified.
//
// '.' is not part of the subset: in the C locale it matches any byte, including a
// newline, which is never what a Python pattern means.
func Validate(ere string) error {
	v := &validator{s: ere}
	if ere == "" {
		return fmt.Errorf("empty regex")
	}
	if err := v.alternatives(); err != nil {
		return err
	}
	if v.i < len(v.s) {
		return v.errorf("unbalanced )")
	}
	return nil
}

type validator struct {
	s string
	i int
}

func (v *validator) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", v.i, fmt.Sprintf(format, args...))
}

func (v *validator) more() bool { return v.i < len(v.s) }

func (v *validator) alternatives() error {
	for {
		if err := v.branch(); err != nil {
			return err
		}
		if !v.more() || v.s[v.i] != '|' {
			return nil
		}
		v.i++
	}
}

func (v *validator) branch() error {
	n := 0
	for v.more() && v.s[v.i] != '|' && v.s[v.i] != ')' {
		c := v.s[v.i]
		switch c {
		case '^':
			if n > 0 {
				return v.errorf("^ not at the start of an alternative")
			}
			v.i++
			if v.more() && strings.IndexByte("*+?{", v.s[v.i]) >= 0 {
				return v.errorf("quantified ^")
			}
			n++
			continue
		case '$':
			v.i++
			if v.more() && v.s[v.i] != '|' && v.s[v.i] != ')' {
				return v.errorf("$ not at the end of an alternative")
			}
			n++
			continue
		case '(':
			v.i++
			if err := v.alternatives(); err != nil {
				return err
			}
			if !v.more() || v.s[v.i] != ')' {
				return v.errorf("unterminated group")
			}
			v.i++
		case '[':
			if err := v.bracket(); err != nil {
				return err
			}
		case '\\':
			if v.i+1 >= len(v.s) || strings.IndexByte(ereSpecial, v.s[v.i+1]) < 0 {
				return v.errorf("backslash not before a special character")
			}
			v.i += 2
		case 0:
			return v.errorf("NUL byte")
		case '.':
			return v.errorf("'.' matches any byte, including a newline")
		case '*', '+', '?', '{':
			return v.errorf("quantifier %q without an operand", c)
		default:
			v.i++
		}
		n++
		if err := v.quantifier(); err != nil {
			return err
		}
	}
	if n == 0 {
		return v.errorf("empty alternative")
	}
	return nil
}

func (v *validator) quantifier() error {
	if !v.more() {
		return nil
	}
	switch v.s[v.i] {
	case '*', '+', '?':
		v.i++
	case '{':
		v.i++
		lo, ok := v.number()
		if !ok {
			return v.errorf("bad repeat count")
		}
		hi := lo
		if v.more() && v.s[v.i] == ',' {
			v.i++
			hi = -1
			if v.more() && v.s[v.i] != '}' {
				if hi, ok = v.number(); !ok {
					return v.errorf("bad repeat count")
				}
			}
		}
		if !v.more() || v.s[v.i] != '}' {
			return v.errorf("unterminated repeat count")
		}
		v.i++
		if lo > maxCount || hi > maxCount || hi >= 0 && hi < lo {
			return v.errorf("repeat count {%d,%d} out of range", lo, hi)
		}
	default:
		return nil
	}
	if v.more() && strings.IndexByte("*+?{", v.s[v.i]) >= 0 {
		return v.errorf("two quantifiers in a row")
	}
	return nil
}

func (v *validator) number() (int, bool) {
	start := v.i
	n := 0
	for v.more() && v.s[v.i] >= '0' && v.s[v.i] <= '9' && v.i-start < 4 {
		n = n*10 + int(v.s[v.i]-'0')
		v.i++
	}
	return n, v.i > start
}

var posixClasses = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true, "space": true,
	"blank": true, "punct": true, "print": true, "graph": true, "cntrl": true, "xdigit": true,
}

func (v *validator) bracket() error {
	v.i++ // [
	if v.more() && v.s[v.i] == '^' {
		v.i++
	}
	first := true
	for {
		if !v.more() {
			return v.errorf("unterminated bracket expression")
		}
		c := v.s[v.i]
		switch {
		case c == ']' && !first:
			v.i++
			return nil
		case c == 0:
			return v.errorf("NUL byte in bracket expression")
		case c == '\\':
			return v.errorf("backslash in bracket expression")
		case c == '[' && v.i+1 < len(v.s) && strings.IndexByte(".=:", v.s[v.i+1]) >= 0:
			if v.s[v.i+1] != ':' {
				return v.errorf("collating element or equivalence class")
			}
			end := strings.Index(v.s[v.i+2:], ":]")
			if end < 0 || !posixClasses[v.s[v.i+2:v.i+2+end]] {
				return v.errorf("unknown character class")
			}
			v.i += 2 + end + 2
		case c == '-' && !first && !(v.i+1 < len(v.s) && v.s[v.i+1] == ']'):
			return v.errorf("'-' in the middle of a bracket expression")
		case v.i+2 < len(v.s) && v.s[v.i+1] == '-' && v.s[v.i+2] != ']':
			lo, hi := c, v.s[v.i+2]
			if strings.IndexByte(bracketSpecial, lo) >= 0 || strings.IndexByte(bracketSpecial, hi) >= 0 || hi == 0 {
				return v.errorf("special byte as a range endpoint")
			}
			if hi < lo {
				return v.errorf("range out of order")
			}
			v.i += 3
		default:
			v.i++
		}
		first = false
	}
}
