package bash

import (
	"fmt"
	"strings"
)

// minFragment is the shortest parenthesized group that regexData defines
// once when several regexes of a program hold it.
const minFragment = 32

// groups returns where each parenthesized group of the ERE re starts and
// ends (its "(" and one past its ")"), in the order of their "(": a
// bracket expression's parentheses and escaped ones are not groups. re is
// an ERE of pyre's subset, in its awk form.
func groups(re string) [][2]int {
	var out [][2]int
	var open []int
	for i := 0; i < len(re); i++ {
		switch re[i] {
		case '\\':
			i++
		case '[':
			// A "]" right after "[" or "[^" is a member; the set ends at
			// the next "]".
			j := i + 1
			if j < len(re) && re[j] == '^' {
				j++
			}
			if j < len(re) && re[j] == ']' {
				j++
			}
			for j < len(re) && re[j] != ']' {
				j++
			}
			i = j
		case '(':
			open = append(open, len(out))
			out = append(out, [2]int{i, -1})
		case ')':
			if len(open) > 0 {
				out[open[len(open)-1]][1] = i + 1
				open = open[:len(open)-1]
			}
		}
	}
	return out
}

// regexData returns the statements that set hk_r[1] to hk_r[len(res)] to
// the regexes res. A group of at least minFragment bytes that the regexes
// hold more than once (pyre writes \s, \w and \b as long groups) is set
// once, as hk_f[k], and concatenated where it stands: a program's parse
// time grows with its length in every awk.
func regexData(res []string) string {
	count := map[string]int{}
	for _, re := range res {
		for _, g := range groups(re) {
			if g[1]-g[0] >= minFragment {
				count[re[g[0]:g[1]]]++
			}
		}
	}
	var b strings.Builder
	frag := map[string]string{}
	for i, re := range res {
		var parts []string
		lit := 0 // start of the text not yet in parts
		next := 0
		for _, g := range groups(re) {
			if g[0] < next || count[re[g[0]:g[1]]] < 2 {
				continue // inside a group already taken, or not shared
			}
			f := re[g[0]:g[1]]
			v, ok := frag[f]
			if !ok {
				v = fmt.Sprintf("hk_f[%d]", len(frag)+1)
				frag[f] = v
				fmt.Fprintf(&b, "  %s = %s\n", v, AwkString(f))
			}
			if g[0] > lit {
				parts = append(parts, AwkString(re[lit:g[0]]))
			}
			parts = append(parts, v)
			lit, next = g[1], g[1]
		}
		if lit < len(re) || len(parts) == 0 {
			parts = append(parts, AwkString(re[lit:]))
		}
		fmt.Fprintf(&b, "  hk_r[%d] = %s\n", i+1, strings.Join(parts, " "))
	}
	return b.String()
}
