package bash

import (
	"fmt"
	"strings"

	"github.com/hookify/hookify/pyre"
)

// minFragment is the shortest parenthesized group that regexData defines
// once when several regexes of a program hold it.
const minFragment = 32

// regexData returns the statements that set hk_r[1] to hk_r[len(forms)]
// to the regexes forms. A group of at least minFragment bytes that the
// regexes hold more than once (pyre writes \s, \w and \b as long groups;
// pyre.AWKForm.Groups says where each group stands) is set once, as
// hk_f[k], and concatenated where it stands: a program's parse time grows
// with its length in every awk.
func regexData(forms []pyre.AWKForm) string {
	count := map[string]int{}
	for _, f := range forms {
		re := f.Text
		for _, g := range f.Groups {
			if g[1]-g[0] >= minFragment {
				count[re[g[0]:g[1]]]++
			}
		}
	}
	var b strings.Builder
	frag := map[string]string{}
	for i, form := range forms {
		re := form.Text
		var parts []string
		lit := 0 // start of the text not yet in parts
		next := 0
		for _, g := range form.Groups {
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
