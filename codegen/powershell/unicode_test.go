package powershell

import (
	"encoding/hex"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/pyre"
)

// TestUnicodeRegexesAgainstPython runs patterns that read Python's Unicode
// \w \d \b as the PowerShell twin does (the value rewritten, pyre.Rewrite,
// whose C# transliteration of the twin's hk_uw TestWordsOnDotNet holds to
// it; then the .NET form of the ERE, DotNetRegex, on Mono, or, where the
// twin runs a table, the table in Go, whose C# transliteration of hk_dfa
// TestTablesOnDotNet holds to bash) on values in several scripts, against
// python3's re.search(p, v, re.IGNORECASE).
func TestUnicodeRegexesAgainstPython(t *testing.T) {
	python := testenv.LookPath(t, "python3")
	r := rand.New(rand.NewSource(24))
	patterns := []string{`\bfoo\w+`, `\w+@\w+\.\w+`, `\d{3}-\d{4}`, `rm\s+-rf\b`, `\bcafé\b`, `(?<!\w)x\b`,
		`git reset(?!.*--hard)\b`, `\b(äa|öa|üa|éa|èa|êa|ëa|ïa|îa|ôa|ça|ña)\b`, `[^\W\d]+\d`, `\Bk\B`, `\W\w`,
		`(?a)\bk\w`, `\bſ`, `^\w+$`, `x\w*y`, `\b\d+\b`, `[\w-]+\.md\b`, `\bi\w*`}
	pieces := []string{"a", "k", "K", "x", "y", "foo", "café", "cafe", "rm", " ", "-rf", "-", "@", ".", "md", "_", "1", "٣", "０",
		"é", "É", "ß", "ſ", "K", "İ", "ı", "Ⅻ", "½", "‿", "\u0308", "中", "𝐀", "🤖", "\u00a0", "ä", "öa", "ña", "git reset ", "--hard", "\n"}
	type tc struct {
		P   string `json:"p"`
		V   string `json:"v"`
		net string
		tab *pyre.Table
	}
	var cases []tc
	for _, p := range patterns {
		ere, words, err := pyre.Translate(p, pyre.IgnoreCase)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if words == "" && p != `(?a)\bk\w` {
			t.Fatalf("%s: no words", p)
		}
		var net string
		tab, table := pyre.TableFor(ere)
		if !table {
			if net, err = DotNetRegex(ere); err != nil {
				t.Fatalf("%s: DotNetRegex(%q): %v", p, ere, err)
			}
		}
		for range 40 {
			var b strings.Builder
			for n := r.Intn(7); n >= 0; n-- {
				b.WriteString(pieces[r.Intn(len(pieces))])
			}
			cases = append(cases, tc{P: p, V: b.String(), net: net, tab: tab})
		}
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := testenv.Command(t, python, "-c", `import json, re, sys
for c in json.load(sys.stdin):
    print(1 if re.search(c["p"], c["v"], re.IGNORECASE) else 0)`)
	cmd.Stdin = strings.NewReader(string(in))
	pyOut, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	want := strings.Fields(string(pyOut))
	var lines strings.Builder
	var regexCases []int
	got := make([]string, len(cases))
	for i, c := range cases {
		_, words, _ := pyre.Translate(c.P, pyre.IgnoreCase)
		v := pyre.Rewrite(words, c.V)
		if c.tab != nil {
			got[i] = map[bool]string{true: "1", false: "0"}[c.tab.Run(v)]
			continue
		}
		regexCases = append(regexCases, i)
		lines.WriteString(hex.EncodeToString([]byte(c.net)) + " " + hex.EncodeToString([]byte(v)) + "\n")
	}
	matcher := dotnetMatcher(t)
	matcher.Stdin = strings.NewReader(lines.String())
	out, err := matcher.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	netOut := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(netOut) != len(regexCases) || len(want) != len(cases) {
		t.Fatalf("%d .NET answers for %d, %d python3 answers for %d", len(netOut), len(regexCases), len(want), len(cases))
	}
	for j, i := range regexCases {
		got[i] = netOut[j]
	}
	bad := 0
	for i, c := range cases {
		if got[i] != want[i] {
			if bad++; bad <= 20 {
				t.Errorf("%q on %q: python3 %s, the twin's regex %s", c.P, c.V, want[i], got[i])
			}
		}
	}
	t.Logf("%d cases, %d on .NET's regex, %d on a table", len(cases), len(regexCases), len(cases)-len(regexCases))
}
