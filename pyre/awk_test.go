package pyre

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookify/hookify/internal/testenv"
)

// The expected texts below were written out by hand from the rules in
// awk.go's comments, not printed by AWK.
var awkTests = []struct {
	ere, want string
	intervals bool
}{
	// No intervals: the ERE is its own awk form.
	{ere: `a+b`, want: `a+b`},
	{ere: `[]^-]x?|\{|^$`, want: `[]^-]x?|\{|^$`},
	{ere: `\{2}`, want: `\{2}`},
	// {n} and {n,}: flat copies.
	{ere: `a{3}`, want: `aaa`},
	{ere: `a{1}`, want: `a`},
	{ere: `xa{0}b`, want: `xb`},
	{ere: `a{0}`, want: `^`},
	{ere: `a{2,}`, want: `aa+`},
	{ere: `a{1,}`, want: `a+`},
	{ere: `a{0,}`, want: `a*`},
	{ere: `a{0,1}`, want: `a?`},
	{ere: `(ab){2}`, want: `abab`},
	{ere: `(a|bc){2}x`, want: `(a|bc)(a|bc)x`},
	{ere: `[0-9A-Fa-f]{3}`, want: `[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]`},
	{ere: `\{{2}}`, want: `\{\{}`},
	{ere: "\xc4[\x80-\xbf]{2}", want: "\xc4[\x80-\xbf][\x80-\xbf]"},
	// {n,m}: n copies, then X{0,m-n} as blocks (k+1 = c(q+1)).
	{ere: `a{1,2}`, want: `aa?`},
	{ere: `a{0,2}`, want: `(aa?)?`},                                          // 3 = 3*1: c=3, q=0
	{ere: `a{0,3}`, want: `(aa)?a?`},                                         // 4 = 2*2
	{ere: `a{2,5}b`, want: `aa(aa)?a?b`},                                     // 2 + {0,3}
	{ere: `a{0,5}`, want: `(aa(aa)?)?a?`},                                    // 6 = 2*3: depth 2
	{ere: `a{0,8}`, want: `(aaa(aaa)?)?(aa?)?`},                              // 9 = 3*3
	{ere: `x(ab){0,3}`, want: `x(abab)?(ab)?`},                               // groups
	{ere: `(a{1,2}b){2}`, want: `aa?baa?b`},                                  // nested
	{ere: `(a{0,3}|b){0,1}c`, want: `((aa)?a?|b)?c`},                         // an alternative
	{ere: `(a|b{2,3})+`, want: `(a|bbb?)+`},                                  // inside +
	{ere: `^a{2}$|b{0,2}`, want: `^aa$|(bb?)?`},                              // anchors stay at the ends
	{ere: `(^|x)a{2}`, want: `(^|x)aa`},                                      // an anchor in a group
	{ere: `[[]{2}`, want: `\[\[`},                                            // a single byte prints as itself
	{ere: `[-^]{2}`, want: `[-^][-^]`},                                       // ... and a set as a bracket
	{ere: `(\\|a){2}`, want: `(\\|a)(\\|a)`},                                 // no backslash in brackets
	{ere: `a{0,24}`, want: `(aaaaa(aaaaa(aaaaa(aaaaa)?)?)?)?(a(a(aa?)?)?)?`}, // 25 = 5*5
	// Fallbacks: no exact interval-free form, or none worth having.
	{ere: `(^a){2}`, want: `(^a){2}`, intervals: true},               // ^a^a is outside the subset
	{ere: `[[:alpha:]]{2}`, want: `[[:alpha:]]{2}`, intervals: true}, // a POSIX class
	{ere: `(ab{255}){255}`, want: `(ab{255}){255}`, intervals: true}, // too large
	{ere: `a{0,61}`, want: `a{0,61}`, intervals: true},               // too many optional copies
	{ere: `a{2,63}`, want: `a{2,63}`, intervals: true},
	{ere: `(a{0,61})?`, want: `(a{0,61})?`, intervals: true},
	{ere: deepRepeat, want: deepRepeat, intervals: true}, // too deep for mawk
}

// deepRepeat nests a{0,60} 24 groups deep.
var deepRepeat = strings.Repeat("(a", 24) + "{0,60}" + strings.Repeat(")?", 24)

// nested writes (x(x(x)?)?)? by hand, n deep.
func nested(x string, n int) string {
	return strings.Repeat("("+x, n) + strings.Repeat(")?", n)
}

func TestAWK(t *testing.T) {
	for _, tt := range awkTests {
		f, err := AWK(tt.ere)
		got, intervals := f.Text, f.Intervals
		if err != nil || got != tt.want || intervals != tt.intervals {
			t.Errorf("AWK(%q) = %q, %v, %v; want %q, %v", tt.ere, got, intervals, err, tt.want, tt.intervals)
		}
		if err := CheckAWK(tt.ere); err != nil {
			t.Errorf("CheckAWK(%q): %v", tt.ere, err)
		}
	}
	for _, ere := range []string{"", "a{", "a{2,1}", "(a", "[a", "a|", `\a`, "a**"} {
		if _, err := AWK(ere); err == nil {
			t.Errorf("AWK(%q): no error", ere)
		}
		if CheckAWK(ere) == nil {
			t.Errorf("CheckAWK(%q): no error", ere)
		}
	}
	deep := nested("a", 40)
	if _, err := AWK(deep); err == nil || !strings.Contains(err.Error(), "mawk") {
		t.Errorf("AWK(%q): %v, want an error about mawk's nesting", deep, err)
	}
	if err := CheckAWK(deep); err == nil || !strings.Contains(err.Error(), "mawk") {
		t.Errorf("CheckAWK(%q): %v, want an error about mawk's nesting", deep, err)
	}
}

// TestAWKOptional checks every X{n,m} with m-n <= awkMaxOptional against Go's regexp
// (another engine) on runs of X, and counts in how many ways the awk form
// matches each run: mawk's backtracking matcher tries each of them on a
// subject that fails after the run (awk.go).
func TestAWKOptional(t *testing.T) {
	for _, n := range []int{0, 1, 3, 195} {
		for m := n; m <= n+awkMaxOptional; m++ {
			ere := "a{" + strconv.Itoa(n) + "," + strconv.Itoa(m) + "}"
			f, err := AWK(ere)
			re, intervals := f.Text, f.Intervals
			if err != nil || intervals || strings.ContainsAny(re, "{}") {
				t.Fatalf("AWK(%q) = %q, %v, %v", ere, re, intervals, err)
			}
			if n == 0 && m > 0 {
				re = "x" + re // alone, a{0,m} matches everything and prints as ^
			}
			rx := regexp.MustCompile("^" + re + "$")
			root, err := parseERE(re)
			if err != nil {
				t.Fatal(err)
			}
			prefix := ""
			if n == 0 && m > 0 {
				prefix = "x"
			}
			long := prefix + strings.Repeat("a", m+2)
			ways := parses(root, long, 0, map[parseAt]map[int]int{})
			for k := 0; k <= m+2; k++ {
				s := long[:len(prefix)+k]
				if got, want := rx.MatchString(s), k >= n && k <= m; got != want {
					t.Fatalf("AWK(%q) = %q: matches %q: %v, want %v", ere, re, s, got, want)
				}
				if w := ways[len(s)]; w > 4 {
					t.Fatalf("AWK(%q) = %q matches %q in %d ways", ere, re, s, w)
				}
			}
		}
	}
}

type parseAt struct {
	n *bnode
	i int
}

// parses counts, for each end, the ways n matches s from i (a tree of
// bytes, sequences, alternatives and bounded repeats).
func parses(n *bnode, s string, i int, memo map[parseAt]map[int]int) map[int]int {
	if m, ok := memo[parseAt{n, i}]; ok {
		return m
	}
	m := parses1(n, s, i, memo)
	memo[parseAt{n, i}] = m
	return m
}

func parses1(n *bnode, s string, i int, memo map[parseAt]map[int]int) map[int]int {
	switch n.kind {
	case bBytes:
		if i < len(s) && n.set.has(s[i]) {
			return map[int]int{i + 1: 1}
		}
		return nil
	case bBOL:
		if i == 0 {
			return map[int]int{i: 1}
		}
		return nil
	case bSeq:
		ends := map[int]int{i: 1}
		for _, x := range n.subs {
			next := map[int]int{}
			for e, w := range ends {
				for e2, w2 := range parses(x, s, e, memo) {
					next[e2] += w * w2
				}
			}
			ends = next
		}
		return ends
	case bAlt:
		ends := map[int]int{}
		for _, x := range n.subs {
			for e, w := range parses(x, s, i, memo) {
				ends[e] += w
			}
		}
		return ends
	case bRep:
		if n.max < 0 {
			panic("parses: unbounded repeat")
		}
		ends, cur := map[int]int{}, map[int]int{i: 1}
		for k := 0; k <= n.max; k++ {
			if k >= n.min {
				for e, w := range cur {
					ends[e] += w
				}
			}
			next := map[int]int{}
			for e, w := range cur {
				for e2, w2 := range parses(n.subs[0], s, e, memo) {
					next[e2] += w * w2
				}
			}
			cur = next
		}
		return ends
	}
	panic("parses: " + strconv.Itoa(int(n.kind)))
}

// mawkShapes are regexes around mawk's stack limit: nested optionals of
// several forms, as AWK writes them, inside other groups and alternatives.
func mawkShapes() []string {
	var out []string
	xs := []string{"a", "[ab]", "(a|bc)", "ab", "(x|y)z", "^a", "(^|b)", "[^\n\x80-\xff]|[\xc0-\xdf][\x80-\xbf]"}
	for _, x := range xs {
		for d := 12; d <= 36; d += 2 {
			r := nested("("+x+")", d)
			out = append(out, r, "q"+r+"$", "("+r+"|z)+", r+r, "(x("+r+")*)?y", "a|b("+r+"c)")
		}
	}
	for _, ere := range []string{"a{0,59}", "(a{0,59}b){2}", "((a|b){0,50}c){0,50}", "(((x{0,58})?)?)?", "(a(b(c(d(e{0,59})?)?)?)?)?"} {
		f, _ := AWK(ere)
		re := f.Text
		out = append(out, re, "("+re+")?", nested("("+re+")", 8))
	}
	return out
}

// TestMawkCompiles checks mawkCompiles against mawk itself: each regex
// compiles in mawk exactly when mawkCompiles says so.
func TestMawkCompiles(t *testing.T) {
	testenv.LookPath(t, "mawk")
	fits := 0
	for _, re := range mawkShapes() {
		if Validate(re) != nil {
			t.Fatalf("shape %q is outside the subset", re)
		}
		cmd := testenv.Command(t, "mawk", `BEGIN { r = ENVIRON["R"]; x = ("" ~ r); print "compiled" }`)
		cmd.Env = []string{"LC_ALL=C", "R=" + re}
		out, _ := cmd.CombinedOutput()
		compiled := string(out) == "compiled\n"
		if !compiled && !strings.Contains(string(out), "regular expression too large") {
			t.Fatalf("mawk on %q: %s", re, out)
		}
		if got := mawkCompiles(re); got != compiled {
			t.Errorf("mawkCompiles(%q) = %v, but mawk compiled it: %v", re, got, compiled)
		}
		if compiled {
			fits++
		}
	}
	if fits < 50 || fits > len(mawkShapes())-50 {
		t.Errorf("%d of %d shapes compile: too few on one side of the limit to mean much", fits, len(mawkShapes()))
	}
}

// TestAWKGroups: the groups of an awk form are where its parentheses
// stand, written out by hand: a bracket's parentheses and escaped ones
// are not groups, and a written-out interval's copies are.
func TestAWKGroups(t *testing.T) {
	for _, tt := range []struct {
		ere  string
		text string
		want [][2]int
	}{
		{"a(b)c", "a(b)c", [][2]int{{1, 4}}},
		{"(a(b))", "(a(b))", [][2]int{{0, 6}, {2, 5}}},
		{`\(a\)`, `\(a\)`, nil},
		{"[(]a[)]", "[(]a[)]", nil},
		{"[]()]", "[]()]", nil},
		{"[^]()](x)", "[^]()](x)", [][2]int{{6, 9}}},
		{"x(ab|cd){2}", "x(ab|cd)(ab|cd)", [][2]int{{1, 8}, {8, 15}}},
	} {
		f, err := AWK(tt.ere)
		if err != nil || f.Text != tt.text {
			t.Errorf("AWK(%q) = %q, %v; want %q", tt.ere, f.Text, err, tt.text)
			continue
		}
		if d := cmp.Diff(tt.want, f.Groups); d != "" {
			t.Errorf("AWK(%q).Groups (-want +got):\n%s", tt.ere, d)
		}
	}
}
