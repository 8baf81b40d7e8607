package pyre

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookify/hookify/codegen/awkquote"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/templates"
)

// This file holds the oracle side of the tests: Python's re.search and bash's
// [[ =~ ]], run in batches, and a sampler that builds subjects from a pattern.

// requireTools skips the test, or fails it under HOOKIFY_REQUIRE_TOOLS=1
// (.ci/run sets it), when python3 or bash is missing: the differential tests
// are the evidence that translations are exact.
func requireTools(t testing.TB) (python3, bash string) {
	t.Helper()
	return testenv.LookPath(t, "python3"), testenv.LookPath(t, "bash")
}

// pyScript evaluates re.search(p, s, re.IGNORECASE) for each case. For each
// subject it also reports whether it holds a non-ASCII letter or digit, and the
// characters its Unicode version has not assigned (see newer).
const pyScript = `
import sys, json, re, signal, unicodedata, warnings
warnings.simplefilter("ignore")
class Timeout(Exception):
    pass
def alarm(*_):
    raise Timeout()
signal.signal(signal.SIGALRM, alarm)
def search(rx, s):
    # 1 match, 0 no match, -1 gave up (catastrophic backtracking)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        return 1 if rx.search(s) else 0
    except Timeout:
        return -1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
def run(case):
    try:
        rx = re.compile(case["p"], re.IGNORECASE)
    except Exception as e:
        return {"err": type(e).__name__ + ": " + str(e)}
    return {"m": [search(rx, s) for s in case["s"]],
            "x": [any(ord(c) > 127 and c.isalnum() for c in s) for s in case["s"]],
            "n": [sorted({ord(c) for c in s if unicodedata.category(c) == "Cn"}) for s in case["s"]]}
if sys.argv[1:] == ["serve"]:
    for line in sys.stdin.buffer:
        sys.stdout.write(json.dumps(run(json.loads(line.decode("utf-8")))) + "\n")
        sys.stdout.flush()
else:
    cases = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.stdout.write(json.dumps([run(c) for c in cases]))
`

type pyCase struct {
	P string   `json:"p"`
	S []string `json:"s"`
}

type pyResult struct {
	Err      string `json:"err"`
	Match    []int  `json:"m"` // 1 match, 0 no match, -1 Python gave up
	NonASCII []bool `json:"x"` // the subject holds a non-ASCII letter or digit
	// Unassigned are the code points of each subject that Python's Unicode
	// version has not assigned.
	Unassigned [][]rune `json:"n"`
}

// newer reports whether subject si holds a letter or digit of a Unicode
// version after Python's (Go's tables are Unicode 15.0, python3.11's 14.0):
// Python reads it as a non-word character, pyre as a word character, the
// one difference words.go documents.
func (r pyResult) newer(si int) bool {
	pyClasses()
	for _, c := range r.Unassigned[si] {
		if pyWord.has(c) {
			return true
		}
	}
	return false
}

func runPython(t testing.TB, cases []pyCase) []pyResult {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := testenv.Command(t, "python3", "-c", pyScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	var res []pyResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("python3 output: %v", err)
	}
	return res
}

// bashScript writes a script that matches records "index NUL subject NUL" from
// stdin against re[index], printing [[ =~ ]]'s status (0, 1, or 2 for a regex bash
// rejects) for each. The EREs are embedded with testenv.BashQuote and matched
// through an unquoted $r, as the bash hooks did before the awk runtime.
func bashScript(eres []string) string {
	var b strings.Builder
	b.WriteString("re=()\n")
	for i, e := range eres {
		fmt.Fprintf(&b, "re[%d]=%s\n", i, testenv.BashQuote(e))
	}
	b.WriteString(`while IFS= read -r -d '' i && IFS= read -r -d '' v; do
  r=${re[$i]}
  [[ $v =~ $r ]]
  printf '%s' "$?"
done
`)
	return b.String()
}

type bashCase struct {
	ere     int
	subject string
}

// tempScript writes text to a file named name in a new directory.
func tempScript(t testing.TB, name, text string) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runBash(t testing.TB, eres []string, cases []bashCase) []byte {
	t.Helper()
	script := tempScript(t, "match.bash", bashScript(eres))
	var in bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&in, "%d\x00%s\x00", c.ere, c.subject)
	}
	cmd := testenv.Command(t, "bash", script)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || len(out) != len(cases) {
		t.Fatalf("bash: %v (%d results for %d cases)\n%s", err, len(out), len(cases), stderr.String())
	}
	return out
}

// diffStats counts what compare did with its patterns and subjects.
type diffStats struct {
	patterns, translated, refused, pyErrors int
	comparisons, nonASCII, timeouts, newer  int
	refusals                                map[string]int
	// The awks: EREs with intervals, those AWK keeps (not run by mawk),
	// and verdicts compared with Python's.
	counted, kept, awkComparisons int
	// The tables (Compile) and their verdicts compared in the awks.
	tables, tableComparisons int
}

// compare runs Python and bash on patterns × subjects and reports every
// disagreement. Subjects must not contain NUL.
func compare(t *testing.T, cases []pyCase) diffStats {
	t.Helper()
	st := diffStats{refusals: map[string]int{}}
	pyres := runPython(t, cases)
	var eres []string
	var bcases []bashCase
	type ref struct{ c, s int }
	var refs []ref
	var tables []*Table // and the cases of each
	var tcases []bashCase
	var trefs []ref
	for ci, c := range cases {
		st.patterns++
		var ere, words string
		var table *Table
		rx, err := Compile(c.P, IgnoreCase)
		if err == nil {
			ere, words, table = rx.ERE, rx.Words, rx.Table
		}
		py := pyres[ci]
		if err != nil {
			e := err.(*Error)
			if py.Err != "" {
				st.pyErrors++
				continue
			}
			if e.Construct == "syntax error" || e.Construct == "internal error" {
				t.Errorf("pattern %q: Python compiles it, but ERE says: %v", c.P, err)
			}
			st.refused++
			st.refusals[e.Construct]++
			continue
		}
		if py.Err != "" {
			t.Errorf("pattern %q: Python rejects it (%s), but ERE gave %q", c.P, py.Err, ere)
			continue
		}
		st.translated++
		checkRoundTrip(t, c.P, ere)
		for si, s := range c.S {
			bcases = append(bcases, bashCase{len(eres), Rewrite(words, s)})
			refs = append(refs, ref{ci, si})
		}
		eres = append(eres, ere)
		if table != nil {
			st.tables++
			for si, s := range c.S {
				tcases = append(tcases, bashCase{len(tables), Rewrite(words, s)})
				trefs = append(trefs, ref{ci, si})
			}
			tables = append(tables, table)
		}
	}
	out := runBash(t, eres, bcases)
	forms := awkForms(t, eres)
	for i, f := range forms {
		if _, text, _ := parseEREText(eres[i]); text.intervals {
			st.counted++
		}
		if f.intervals {
			st.kept++
		}
	}
	res := make([]string, len(forms), len(forms)+len(tables))
	for i, f := range forms {
		res[i] = f.re
	}
	// The tables run after the regexes, as regexes len(forms)+i.
	for _, tb := range tables {
		res = append(res, tableForm(tb))
	}
	for _, c := range tcases {
		bcases = append(bcases, bashCase{len(forms) + c.ere, c.subject})
	}
	awkOut := runAwks(t, res, len(forms), bcases)
	for i, tc := range tcases {
		r := trefs[i]
		c, py := cases[r.c], pyres[r.c]
		if py.Match[r.s] < 0 {
			continue
		}
		want := py.Match[r.s] == 1
		if py.newer(r.s) {
			continue
		}
		if got := tables[tc.ere].Run(tc.subject); got != want {
			t.Errorf("pattern %q subject %q: Python %v, its table in Go %v", c.P, tc.subject, want, got)
		}
		for _, a := range testenv.Awks {
			st.tableComparisons++
			if got := awkOut[a][len(refs)+i] == '1'; got != want {
				t.Errorf("pattern %q subject %q: Python %v, its table in %s %v", c.P, tc.subject, want, a, got)
			}
		}
	}
	for i, b := range bcases[:len(refs)] {
		r := refs[i]
		c, py := cases[r.c], pyres[r.c]
		if out[i] == '2' {
			t.Errorf("pattern %q: bash rejects the ERE %q", c.P, eres[b.ere])
			continue
		}
		if py.Match[r.s] < 0 {
			st.timeouts++
			continue
		}
		want := py.Match[r.s] == 1
		if py.newer(r.s) {
			st.newer++
			continue
		}
		st.comparisons++
		if py.NonASCII[r.s] {
			st.nonASCII++
		}
		if got := out[i] == '0'; got != want {
			t.Errorf("pattern %q subject %q: Python %v, bash %v\nERE %q", c.P, c.S[r.s], want, got, eres[b.ere])
		}
		for _, a := range testenv.Awks {
			if a == "mawk" && forms[b.ere].intervals {
				continue // Debian 12's mawk reads intervals as text
			}
			st.awkComparisons++
			if got := awkOut[a][i] == '1'; got != want {
				t.Errorf("pattern %q subject %q: Python %v, %s %v\nERE %q\nawk form %q", c.P, c.S[r.s], want, a, got, eres[b.ere], forms[b.ere].re)
			}
		}
	}
	return st
}

// poolRunes are the characters patterns and subjects are built from: ASCII
// letters, digits, punctuation and controls, and the non-ASCII characters that
// exercise case folding (the orbits of s, k, i, σ, µ, ǅ, Ω, ß, ﬅ, Deseret),
// Unicode whitespace, and multi-byte and 4-byte characters.
var poolRunes = []rune("abkszAKSZ019_ -/.,:;'\"`#@!%&=<>~\n\t\r\v\f\x1c\x01\x7f" +
	"$^*+?|()[]{}\\" +
	"éÉſKİıßẞﬅﬆσςΣµΜμǅǆǄΩωΩ✅😀𐐀𐐨٣\u0085\u00a0\u2028\u3000\u1680" +
	"０Ⅻ½‿\u0308中𝐀")

func randRune(r *rand.Rand) rune { return poolRunes[r.Intn(len(poolRunes))] }

// pick returns a random member of s, preferring the pool's characters.
func pick(r *rand.Rand, s runeSet) (rune, bool) {
	if s.empty() {
		return 0, false
	}
	if r.Intn(10) < 7 {
		var in []rune
		for _, c := range poolRunes {
			if s.has(c) {
				in = append(in, c)
			}
		}
		if len(in) > 0 {
			return in[r.Intn(len(in))], true
		}
	}
	rg := s[r.Intn(len(s))]
	c := rg.lo + rune(r.Int63n(int64(rg.hi-rg.lo+1)))
	if c == 0 || !utf8.ValidRune(c) {
		return 'a', true
	}
	return c, true
}

// sample writes a string the resolved node tends to match.
func sample(r *rand.Rand, n *node, b *strings.Builder) {
	switch n.op {
	case opSet:
		if c, ok := pick(r, n.set); ok {
			b.WriteRune(c)
		}
	case opConcat:
		for _, s := range n.subs {
			sample(r, s, b)
		}
	case opAlt:
		sample(r, n.subs[r.Intn(len(n.subs))], b)
	case opRepeat:
		hi := n.max
		if hi < 0 || hi > n.min+3 {
			hi = n.min + 3
		}
		k := n.min + r.Intn(hi-n.min+1)
		if k > 40 {
			k = 40
		}
		for i := 0; i < k; i++ {
			sample(r, n.subs[0], b)
		}
	case opNotAhead:
		// Often what the lookahead excludes, or a prefix of it.
		if r.Intn(2) == 0 {
			for _, set := range n.look[:r.Intn(len(n.look)+1)] {
				if c, ok := pick(r, set); ok {
					b.WriteRune(c)
				}
			}
		}
	case opAt:
		switch {
		case n.at == atEnd && r.Intn(3) == 0:
			b.WriteByte('\n')
		case n.at == atBoundary && r.Intn(3) == 0:
			b.WriteByte(' ')
		}
	}
}

// sampleRaw writes a string the parsed node tends to match, lookaround
// bodies included: a lookbehind's where it stands, a lookahead's often
// (what it requires or excludes), what follows it after.
func sampleRaw(r *rand.Rand, n *node, b *strings.Builder) {
	switch n.op {
	case opLiteral, opClass, opAny:
		if c, ok := pick(r, itemSet(n).minus(unmatchable)); ok {
			b.WriteRune(c)
		}
	case opGroup:
		sampleRaw(r, n.subs[0], b)
	case opConcat:
		for _, s := range n.subs {
			sampleRaw(r, s, b)
		}
	case opAlt:
		sampleRaw(r, n.subs[r.Intn(len(n.subs))], b)
	case opRepeat:
		hi := n.max
		if hi < 0 || hi > n.min+3 {
			hi = n.min + 3
		}
		k := min(n.min+r.Intn(hi-n.min+1), 40)
		for i := 0; i < k; i++ {
			sampleRaw(r, n.subs[0], b)
		}
	case opLook, opNotAhead:
		if n.behind || r.Intn(2) == 0 {
			sampleRaw(r, n.subs[0], b)
		}
	case opAt:
		switch {
		case (n.at == atEnd || n.at == atBeginning) && r.Intn(3) == 0:
			b.WriteByte('\n')
		case (n.at == atBoundary || n.at == atNonBoundary) && r.Intn(3) == 0:
			b.WriteString([]string{" ", "x", "é", "-"}[r.Intn(4)])
		}
	}
}

// subjects builds subjects for a pattern: samples from its parse tree, mutations
// of them (case flips, inserted and deleted characters, newlines around), and a few
// fixed and random strings.
func subjects(r *rand.Rand, pattern string, nsamples int) []string {
	var samples []string
	if root, err := parse(pattern, flagIgnoreCase); err == nil {
		tr := &translator{}
		res := tr.resolve(root)
		for i := 0; i < nsamples; i++ {
			var b strings.Builder
			if i%2 == 1 {
				sampleRaw(r, root, &b)
			} else {
				sample(r, res, &b)
			}
			samples = append(samples, b.String())
		}
	}
	out := []string{"", "\n", "a", " x\n"}
	for _, s := range samples {
		out = append(out, s, mutate(r, s), mutate(r, mutate(r, s)))
	}
	for i := 0; i < 2; i++ {
		var b strings.Builder
		for j := r.Intn(8); j > 0; j-- {
			b.WriteRune(randRune(r))
		}
		out = append(out, b.String())
	}
	seen := map[string]bool{}
	var uniq []string
	for _, s := range out {
		if !seen[s] && !strings.ContainsRune(s, 0) {
			seen[s] = true
			uniq = append(uniq, s)
		}
	}
	return uniq
}

var caseSwaps = map[rune][]rune{
	's': {'S', 'ſ'}, 'k': {'K', 'K'}, 'i': {'I', 'İ', 'ı'}, 'ß': {'ẞ'}, 'σ': {'Σ', 'ς'},
	'µ': {'Μ', 'μ'}, 'é': {'É'}, 'ω': {'Ω', 'Ω'},
}

func mutate(r *rand.Rand, s string) string {
	rs := []rune(s)
	switch r.Intn(7) {
	case 0: // flip case of one character
		if len(rs) > 0 {
			i := r.Intn(len(rs))
			c := rs[i]
			if alts, ok := caseSwaps[c]; ok {
				rs[i] = alts[r.Intn(len(alts))]
			} else if c >= 'a' && c <= 'z' {
				rs[i] = c - 32
			} else if c >= 'A' && c <= 'Z' {
				rs[i] = c + 32
			}
		}
	case 1: // insert
		i := r.Intn(len(rs) + 1)
		rs = append(rs[:i], append([]rune{randRune(r)}, rs[i:]...)...)
	case 2: // delete
		if len(rs) > 0 {
			i := r.Intn(len(rs))
			rs = append(rs[:i], rs[i+1:]...)
		}
	case 3:
		return "\n" + s
	case 4:
		return s + "\n"
	case 5:
		return string(randRune(r)) + s + string(randRune(r))
	case 6:
		return s + s
	}
	return string(rs)
}

// A persistent python3 and bash pair, for the fuzz target.
type oracle struct {
	py      *exec.Cmd
	pyIn    *bufio.Writer
	pyOut   *bufio.Reader
	bash    *exec.Cmd
	bashIn  *bufio.Writer
	bashOut *bufio.Reader
}

var (
	oracleOnce sync.Once
	theOracle  *oracle
	oracleErr  error
)

func getOracle(t testing.TB) *oracle {
	python3, bash := requireTools(t)
	oracleOnce.Do(func() {
		// The oracle serves every test of the run, and outlives each.
		o := &oracle{}
		o.py, _ = testenv.CommandTimeout(time.Hour, python3, "-c", pyScript, "serve")
		pin, err := o.py.StdinPipe()
		if err != nil {
			oracleErr = err
			return
		}
		pout, err := o.py.StdoutPipe()
		if err != nil {
			oracleErr = err
			return
		}
		o.bash, _ = testenv.CommandTimeout(time.Hour, bash, "-c", `while IFS= read -r -d '' r && IFS= read -r -d '' v; do [[ $v =~ $r ]]; printf '%s' "$?"; done`)
		o.bash.Env = append(os.Environ(), "LC_ALL=C")
		bin, err := o.bash.StdinPipe()
		if err != nil {
			oracleErr = err
			return
		}
		bout, err := o.bash.StdoutPipe()
		if err != nil {
			oracleErr = err
			return
		}
		if err := o.py.Start(); err != nil {
			oracleErr = err
			return
		}
		if err := o.bash.Start(); err != nil {
			oracleErr = err
			return
		}
		o.pyIn, o.pyOut = bufio.NewWriter(pin), bufio.NewReader(pout)
		o.bashIn, o.bashOut = bufio.NewWriter(bin), bufio.NewReader(bout)
		theOracle = o
	})
	if oracleErr != nil {
		t.Fatal(oracleErr)
	}
	return theOracle
}

func (o *oracle) python(t testing.TB, c pyCase) pyResult {
	line, _ := json.Marshal(c)
	o.pyIn.Write(line)
	o.pyIn.WriteByte('\n')
	if err := o.pyIn.Flush(); err != nil {
		t.Fatal(err)
	}
	out, err := o.pyOut.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var res pyResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// bashMatch returns bash's [[ =~ ]] status for each subject.
func (o *oracle) bashMatch(t testing.TB, ere string, subjects []string) []byte {
	for _, s := range subjects {
		fmt.Fprintf(o.bashIn, "%s\x00%s\x00", ere, s)
	}
	if err := o.bashIn.Flush(); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(subjects))
	for i := range out {
		c, err := o.bashOut.ReadByte()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = c
	}
	return out
}

// The awk side of the oracle: each regex's awk form (AWK) is matched by each
// of the four awks as a dynamic regex, v ~ re, under LC_ALL=C, as the
// generated hooks match it (docs/awk-engines.md §3, §10).
//
// Input protocol, for values of any bytes but NUL: a header line of decimal
// lengths, then each value followed by a newline. awk reads a value back as
// lines joined with newlines until it has the length (awkField). Each case
// prints 1 (match) or 0.

// awkField is the awk function that reads one value of n bytes. It returns
// a string, never a strnum: gawk 5.2 caches a dynamic regex and compares a
// strnum with the cached text as a number, so after "00" the regex "0"
// would still be "00".
const awkField = `function field(n,   s, l) {
	if ((getline s) <= 0) exit 3
	while (length(s) < n) {
		if ((getline l) <= 0) exit 3
		s = s "\n" l
	}
	return s ""
}
`

// awkScript matches records "index length", subject, from stdin against
// re[index], the regexes embedded with awkquote.String as the code generator
// embeds them.
// The regexes from index tab on are tables (tableForm), run by hk_dfa; a
// table is loaded again when the index changes.
func awkScript(res []string, tab int) string {
	var b strings.Builder
	b.WriteString(awkField)
	b.WriteString(templates.TableAWK)
	b.WriteString(awkTable)
	b.WriteString("BEGIN {\n")
	for i, re := range res {
		fmt.Fprintf(&b, "\tre[%d] = %s\n", i, awkquote.String(re))
	}
	b.WriteString(`	while ((getline h) > 0) {
		split(h, f, " ")
		v = field(f[2] + 0)
		printf "%d", match1(f[1], re[f[1]], v, f[1] >= ` + strconv.Itoa(tab) + `)
	}
}
`)
	return b.String()
}

// awkTable matches v against re, a regex or a table, and remembers the
// loaded table by its id.
const awkTable = `function match1(id, re, v, tab,   d) {
	if (!tab) return v ~ re
	if (id != hk_cur) {
		hk_cur = id; split("", T); split("", C); split("", E)
	}
	split(re, d, "\002")
	return hk_dfa(v, T, C, E, d[1], d[2], d[3])
}
`

// tableForm is t as the awk scripts of the tests take it: its three
// AWKData strings joined by \002.
func tableForm(t *Table) string {
	c, n, e := t.AWKData()
	return c + "\002" + n + "\002" + e
}

// awkServe matches records "id re-length subject-length kind", regex (or,
// of kind t, a tableForm), subject,
// and answers "id 1" or "id 0" on a line: the fuzz targets' regexes arrive
// one by one (awkquote.String has its own fuzzer).
var awkServe = awkField + templates.TableAWK + awkTable + `BEGIN {
	while ((getline h) > 0) {
		split(h, f, " ")
		r = field(f[2] + 0)
		v = field(f[3] + 0)
		printf "%s %d\n", f[1], match1(f[1], r, v, f[4] == "t")
		fflush()
	}
}
`

// awkCommand returns the path and leading arguments that run a as awk.
func awkCommand(t testing.TB, a testenv.Awk) (string, []string) {
	path := testenv.LookPath(t, string(a))
	if a == "busybox" {
		return path, []string{"awk"}
	}
	return path, nil
}

// awkForm is the awk form of one ERE.
type awkForm struct {
	re        string
	intervals bool // only an awk with intervals reads re (not Debian 12's mawk)
}

// awkForms returns AWK's form of each ERE, reporting those AWK refuses.
func awkForms(t testing.TB, eres []string) []awkForm {
	forms := make([]awkForm, len(eres))
	for i, ere := range eres {
		f, err := AWK(ere)
		re, intervals := f.Text, f.Intervals
		if err != nil {
			t.Errorf("AWK(%q): %v", ere, err)
			re = "^" // placeholder: the case is reported
		}
		forms[i] = awkForm{re, intervals}
	}
	return forms
}

// runAwks runs awkScript in each awk and returns, for each awk, one byte
// per case ('1' match, '0' no match).
func runAwks(t *testing.T, res []string, tab int, cases []bashCase) map[testenv.Awk][]byte {
	t.Helper()
	return runAwksWithin(t, testenv.Timeout, res, tab, cases)
}

// runAwksWithin is runAwks with each awk killed after d.
func runAwksWithin(t *testing.T, d time.Duration, res []string, tab int, cases []bashCase) map[testenv.Awk][]byte {
	t.Helper()
	script := tempScript(t, "match.awk", awkScript(res, tab))
	var in bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&in, "%d %d\n%s\n", c.ere, len(c.subject), c.subject)
	}
	out := map[testenv.Awk][]byte{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var failures []string
	for _, a := range testenv.Awks {
		path, args := awkCommand(t, a)
		cmd, stop := testenv.CommandTimeout(d, path, append(args, "-f", script)...)
		t.Cleanup(stop)
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		cmd.Stdin = bytes.NewReader(in.Bytes())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := cmd.Output()
			mu.Lock()
			defer mu.Unlock()
			if err != nil || len(got) != len(cases) {
				msg := fmt.Sprintf("%s: %v (%d results for %d cases)\n%s", a, err, len(got), len(cases), stderr.String())
				if len(got) < len(cases) {
					c := cases[len(got)]
					msg += fmt.Sprintf("\nat the case: regex %q, subject %q", res[c.ere], c.subject)
				}
				failures = append(failures, msg)
				return
			}
			out[a] = got
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatal(strings.Join(failures, "\n"))
	}
	return out
}

// awkOracle is a persistent awkServe process.
type awkOracle struct {
	in  *bufio.Writer
	out *bufio.Reader
	id  int // of the last case sent
}

var (
	awkOraclesOnce sync.Once
	awkOracles     map[testenv.Awk]*awkOracle
	awkOraclesErr  error
)

func getAwkOracles(t testing.TB) map[testenv.Awk]*awkOracle {
	for _, a := range testenv.Awks {
		testenv.LookPath(t, string(a))
	}
	awkOraclesOnce.Do(func() {
		// Like the python3 and bash oracle, they serve every test of the run.
		awkOracles = map[testenv.Awk]*awkOracle{}
		for _, a := range testenv.Awks {
			path, args := awkCommand(t, a)
			if a == "mawk" {
				// mawk fills its input buffer before it answers a
				// getline from a pipe, unless it is interactive.
				args = append(args, "-W", "interactive")
			}
			cmd, _ := testenv.CommandTimeout(time.Hour, path, append(args, awkServe)...)
			cmd.Env = append(os.Environ(), "LC_ALL=C")
			in, err := cmd.StdinPipe()
			if err != nil {
				awkOraclesErr = err
				return
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				awkOraclesErr = err
				return
			}
			if err := cmd.Start(); err != nil {
				awkOraclesErr = err
				return
			}
			awkOracles[a] = &awkOracle{in: bufio.NewWriter(in), out: bufio.NewReader(out)}
		}
	})
	if awkOraclesErr != nil {
		t.Fatal(awkOraclesErr)
	}
	return awkOracles
}

// match returns, for each subject, whether re matches it ('1' or '0').
// An awk that cannot compile re exits, and the oracle is lost for the run.
func (o *awkOracle) match(t testing.TB, re string, subjects []string) []byte {
	return o.run(t, re, "r", subjects)
}

// matchTable is match for a table, run by hk_dfa.
func (o *awkOracle) matchTable(t testing.TB, tb *Table, subjects []string) []byte {
	return o.run(t, tableForm(tb), "t", subjects)
}

func (o *awkOracle) run(t testing.TB, re, kind string, subjects []string) []byte {
	first := o.id + 1
	for _, s := range subjects {
		o.id++
		fmt.Fprintf(o.in, "%d %d %d %s\n%s\n%s\n", o.id, len(re), len(s), kind, re, s)
	}
	if err := o.in.Flush(); err != nil {
		t.Fatalf("regex %q: %v", re, err)
	}
	out := make([]byte, len(subjects))
	for i := range out {
		line, err := o.out.ReadString('\n')
		if err != nil {
			t.Fatalf("regex %q: %v (did the awk fail to compile it?)", re, err)
		}
		want := strconv.Itoa(first+i) + " "
		if len(line) != len(want)+2 || !strings.HasPrefix(line, want) {
			t.Fatalf("regex %q, subject %q: the awk answered %q to case %d", re, subjects[i], line, first+i)
		}
		out[i] = line[len(want)]
	}
	return out
}
