package powershell

import (
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/pyre"
	"github.com/hookify/hookify/pyre/pyretest"
)

// tableSubject draws a short value from the bytes the shapes are made of,
// a newline (Python's $ matches before a final one), non-ASCII letters
// and bytes that are not UTF-8.
func tableSubject(r *rand.Rand) string {
	alphabet := []string{"git", "push", " ", " ", "\t", "\n", "x", "y", "a", "A", "-", "-f", "--force", "é", "É", "ſ", "\xc3", "\xff", "z"}
	var b strings.Builder
	for n := r.Intn(9); n > 0; n-- {
		b.WriteString(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// TestTablesOnDotNet runs the C# transliteration of the skeleton's hk_dfa
// (testdata/dotnet/table.cs) on the table literal (TableLiteral) of each
// pattern that runs as a table, and requires bash's verdict on the
// pattern's ERE (what the Unix hook holds its awks to; [[ =~ ]] under
// LC_ALL=C) on short values, and the verdicts that
// long values of the shapes .NET backtracks on have by construction
// (x[^y]*y and the README's force-push pattern on 10 KB took 6-13 s in
// Mono's regex; .NET's regex times out on some short values of the
// generated shapes too, so it is no oracle here).
func TestTablesOnDotNet(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	patterns := []string{`x[^y]*y`, `git\s+push\s+.*(--force|-f)(\s|$)`, `(a+)+$`, `rm\s+-rf\s+.*/`, `^(MCP:)?.*$`}
	n := 150
	if testing.Short() {
		n = 40
	}
	for range n {
		patterns = append(patterns, pyretest.Shape(r))
	}
	bash := testenv.LookPath(t, "bash")
	type pair struct{ lit, ere string }
	var tables []pair
	for _, p := range patterns {
		ere, err := pyre.ERE(p, pyre.IgnoreCase)
		if err != nil {
			continue
		}
		tab, ok := pyre.TableFor(ere)
		if !ok {
			continue
		}
		tables = append(tables, pair{TableLiteral(tab), ere})
	}
	if len(tables) < n/4 {
		t.Fatalf("only %d of %d patterns run as a table", len(tables), len(patterns))
	}
	var tin, bashIn strings.Builder
	bashIn.WriteString("export LC_ALL=C\nm() { if [[ $2 =~ $1 ]]; then echo 1; elif [ $? = 1 ]; then echo 0; else echo E; fi; }\n")
	var cases []string
	line := func(w *strings.Builder, a, b string) {
		w.WriteString(hex.EncodeToString([]byte(a)) + " " + hex.EncodeToString([]byte(b)) + "\n")
	}
	for _, tab := range tables {
		for range 30 {
			v := tableSubject(r)
			line(&tin, tab.lit, v)
			fmt.Fprintf(&bashIn, "m %s %s\n", testenv.BashQuote(tab.ere), testenv.BashQuote(v))
			cases = append(cases, tab.ere+" on "+v)
		}
	}
	short := len(cases)
	// Long values: no y after 100 KB of x; spaces after git push, with
	// and without the flag at the end.
	long := 100_000
	if testing.Short() {
		long = 16_000
	}
	want := []string{}
	for _, c := range []struct {
		pattern, value string
		match          bool
	}{
		{`x[^y]*y`, strings.Repeat("x", long), false},
		{`x[^y]*y`, strings.Repeat("x", long) + "y", true},
		{`git\s+push\s+.*(--force|-f)(\s|$)`, "git push" + strings.Repeat(" ", long), false},
		{`git\s+push\s+.*(--force|-f)(\s|$)`, "git push" + strings.Repeat(" ", long) + "-f", true},
		{`git\s+push\s+.*(--force|-f)(\s|$)`, "GIT PUSH" + strings.Repeat(" ", long) + "--FORCE\n", true},
		{`git\s+push\s+.*(--force|-f)(\s|$)`, "git push" + strings.Repeat(" -", long/2) + "fx", false},
	} {
		ere, err := pyre.ERE(c.pattern, pyre.IgnoreCase)
		if err != nil {
			t.Fatal(err)
		}
		tab, ok := pyre.TableFor(ere)
		if !ok {
			t.Fatalf("%q does not run as a table", c.pattern)
		}
		line(&tin, TableLiteral(tab), c.value)
		cases = append(cases, c.pattern+" on a long value")
		want = append(want, map[bool]string{true: "1", false: "0"}[c.match])
	}

	run := func(cmd *exec.Cmd, in string) []string {
		cmd.Stdin = strings.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", cmd.Path, err)
		}
		return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	}
	got := run(monoProgram(t, "table.cs"), tin.String())
	script := filepath.Join(t.TempDir(), "cases.sh")
	if err := os.WriteFile(script, []byte(bashIn.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	regex := run(testenv.Command(t, bash, script), "")
	if len(got) != len(cases) || len(regex) != short {
		t.Fatalf("%d and %d answers for %d and %d cases", len(got), len(regex), len(cases), short)
	}
	want = append(regex, want...)
	bad := 0
	for i := range cases {
		if got[i] != want[i] || strings.HasPrefix(got[i], "E") {
			if bad++; bad <= 10 {
				t.Errorf("%q: hk_dfa %s, want %s", cases[i], got[i], want[i])
			}
		}
	}
	t.Logf("%d tables, %d values", len(tables), len(cases))
}
