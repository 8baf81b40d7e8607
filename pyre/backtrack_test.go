package pyre

import (
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookify/hookify/pyre/pyretest"
)

// longValues returns values of about n bytes that make a backtracking
// search of pattern slow: a near match of it repeated, and a near match
// whose one character is repeated, without a y (most shapes end
// with one: pyretest.Shape).
func longValues(r *rand.Rand, pattern string, n int) []string {
	root, err := parse(pattern, flagIgnoreCase)
	if err != nil {
		return nil
	}
	var b strings.Builder
	sampleRaw(r, root, &b)
	// No newlines: the awks read a value back line by line (awkField),
	// which is quadratic in busybox awk.
	s := strings.NewReplacer("\n", " ", "y", "", "Y", "").Replace(b.String())
	if s == "" {
		s = "x"
	}
	_, size := utf8.DecodeLastRuneInString(s)
	near := s[:len(s)-size]
	if near == "" {
		near = s
	}
	rep := strings.Repeat(near, n/len(near)+1)[:n]
	rep = strings.ToValidUTF8(rep, "")
	k := r.Intn(len(s))
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	c, _ := utf8.DecodeRuneInString(s[k:])
	one := s[:k] + strings.Repeat(string(c), n/utf8.RuneLen(c)) + "!"
	return []string{rep, one}
}

// TestBacktrackShapes runs generated backtracking shapes on long values in
// mawk, gawk, original-awk and busybox awk the way the hooks run them: the
// table where Compile gives one, else the ERE's awk form, each awk within
// a minute. Every verdict must be the ERE's, as the ERE's
// own table decides it in Go (the tables are held to Python by
// TestDifferential).
func TestBacktrackShapes(t *testing.T) {
	requireTools(t)
	shapes, size := 24, 1<<17
	if testing.Short() {
		shapes, size = 12, 1<<14
	}
	r := rand.New(rand.NewSource(*diffSeed))
	var res []string
	var tabs []bool
	var cases []bashCase
	var want []bool
	var pats []string
	tables := 0
	for len(pats) < shapes {
		p := pyretest.Shape(r)
		rx, err := Compile(p, IgnoreCase)
		if err != nil {
			continue
		}
		ref, ok := NewTable(rx.ERE)
		if !ok {
			continue // every value matches, or too large to check
		}
		form := ""
		if rx.Table != nil {
			tables++
			form = tableForm(rx.Table)
		} else {
			f, err := AWK(rx.ERE)
			if err != nil || f.Intervals {
				continue
			}
			form = f.Text
		}
		for _, v := range longValues(r, p, size) {
			cases = append(cases, bashCase{len(res), v})
			want = append(want, ref.Run(v))
		}
		pats = append(pats, p)
		res = append(res, form)
		tabs = append(tabs, rx.Table != nil)
	}
	// runAwks takes the tables after the regexes: put them there.
	order := make([]int, 0, len(res))
	for i := range res {
		if !tabs[i] {
			order = append(order, i)
		}
	}
	tab := len(order)
	for i := range res {
		if tabs[i] {
			order = append(order, i)
		}
	}
	pos := make([]int, len(res))
	sorted := make([]string, len(res))
	for j, i := range order {
		pos[i] = j
		sorted[j] = res[i]
	}
	for i := range cases {
		cases[i].ere = pos[cases[i].ere]
	}
	// A shape that Linear lets through but backtracks takes minutes on
	// these values in mawk or busybox awk (quadratic: 0.55-1.6 s at 10 KB),
	// where each awk needs a few seconds for all of them.
	out := runAwksWithin(t, time.Minute, sorted, tab, cases)
	for i, c := range cases {
		for a, got := range out {
			if (got[i] == '1') != want[i] {
				t.Errorf("pattern %q on a value of %d bytes (%q…): %s %v, the ERE %v", pats[order[c.ere]], len(c.subject), c.subject[:min(40, len(c.subject))], a, got[i] == '1', want[i])
			}
		}
	}
	t.Logf("%d shapes (%d run as tables), %d values of %d bytes, in %d awks", len(pats), tables, len(cases), size, len(out))
	if tables < len(pats)/3 {
		t.Errorf("only %d of %d shapes run as tables: the generator lost its shapes", tables, len(pats))
	}
}
