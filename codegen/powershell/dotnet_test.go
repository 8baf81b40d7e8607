package powershell

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// dotnetMatcher compiles testdata/dotnet/match.cs with Mono and returns the
// command that runs it. Mono's System.Text.RegularExpressions is the .NET
// Framework/corefx engine (RegexInterpreter, RegexParser), the lineage of
// Windows PowerShell 5.1's.
func dotnetMatcher(t *testing.T) *exec.Cmd {
	t.Helper()
	return monoProgram(t, "match.cs")
}

// monoProgram compiles testdata/dotnet/<src> with mcs and returns the
// command that runs it on Mono with args.
func monoProgram(t *testing.T, src string, args ...string) *exec.Cmd {
	t.Helper()
	mono, exe := monoExe(t, src)
	return testenv.Command(t, mono, append([]string{exe}, args...)...)
}

// monoExe compiles testdata/dotnet/<src> with mcs and returns the path of
// mono and of the program. The test skips, or fails under
// HOOKIFY_REQUIRE_TOOLS=1, when mcs or mono is missing.
func monoExe(t *testing.T, src string) (mono, exe string) {
	t.Helper()
	mono = testenv.LookPath(t, "mono")
	exe = filepath.Join(t.TempDir(), strings.TrimSuffix(src, ".cs")+".exe")
	if out, err := testenv.Command(t, "mcs", "-nologo", "-out:"+exe, filepath.Join("testdata", "dotnet", src)).CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, out)
	}
	return mono, exe
}

// randomERE draws an ERE from the portable subset the bash backend emits
// (pyre.Validate), plus '.'. Anchors appear only in top-level alternatives:
// glibc gets some anchors inside repeated groups wrong ((^c*)+ does not
// match "cx"), which is no property of the conversion.
func randomERE(r *rand.Rand, depth int) string {
	lits := []string{"a", "b", "A", "-", " ", "\n", "\xc3", "\xa9", "]", "}", "_", "0", "\\.", "\\*", "\\[", "\\\\", "\\(", "\\$", "\\^", "\\{", "\\|"}
	atom := func() string {
		switch k := r.Intn(10); {
		case k < 5:
			return lits[r.Intn(len(lits))]
		case k < 8:
			return randomBracket(r)
		case k < 9 && depth < 3:
			return "(" + randomAlt(r, depth+1) + ")"
		default:
			return "."
		}
	}
	var b strings.Builder
	if depth == 0 && r.Intn(5) == 0 {
		b.WriteByte('^')
	}
	for n := 1 + r.Intn(4); n > 0; n-- {
		b.WriteString(atom())
		quants := []string{"", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}"}
		b.WriteString(quants[r.Intn(len(quants))])
	}
	if depth == 0 && r.Intn(5) == 0 {
		b.WriteByte('$')
	}
	return b.String()
}

func randomAlt(r *rand.Rand, depth int) string {
	alts := []string{randomERE(r, depth)}
	for r.Intn(3) == 0 {
		alts = append(alts, randomERE(r, depth))
	}
	return strings.Join(alts, "|")
}

func randomBracket(r *rand.Rand) string {
	items := []string{"a", "b", "A", "z", " ", "\n", "\xc3", "\xa9", "\x80-\xbf", "a-c", "[:alpha:]", "[:space:]", "[:digit:]", "[:punct:]", "\\", "[a", "^", ".", "*", "!-/"}
	var b strings.Builder
	b.WriteByte('[')
	if r.Intn(3) == 0 {
		b.WriteByte('^')
	}
	if r.Intn(6) == 0 {
		b.WriteByte(']')
	}
	for n := 1 + r.Intn(3); n > 0; n-- {
		it := items[r.Intn(len(items))]
		if it == "^" && b.Len() <= 2 {
			it = "a"
		}
		b.WriteString(it)
	}
	if r.Intn(6) == 0 {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

func randomSubject(r *rand.Rand) string {
	alphabet := []byte("abAB-_ z0\n]}.*[\\$^|(\xc3\xa9\x80\xff")
	var b strings.Builder
	for n := r.Intn(7); n > 0; n-- {
		b.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// TestDotNetRegexAgainstBash runs random EREs on random byte strings in
// bash (as the generated bash scripts do: [[ $v =~ $re ]] under LC_ALL=C)
// and, converted by DotNetRegex, in .NET on the ISO-8859-1 reading of the
// same bytes (as the generated PowerShell scripts do), and requires the
// same verdict everywhere.
func TestDotNetRegexAgainstBash(t *testing.T) {
	matcher := dotnetMatcher(t)
	r := rand.New(rand.NewSource(6))
	type tc struct{ ere, net, subj string }
	var cases []tc
	for len(cases) < 50000 {
		ere := randomAlt(r, 0)
		net, err := DotNetRegex(ere)
		if err != nil {
			t.Fatalf("DotNetRegex(%q): %v", ere, err)
		}
		for i := 0; i < 10; i++ {
			cases = append(cases, tc{ere, net, randomSubject(r)})
		}
	}
	var script, lines bytes.Buffer
	script.WriteString("export LC_ALL=C\nm() { if [[ $2 =~ $1 ]]; then echo 1; elif [ $? = 1 ]; then echo 0; else echo E; fi; }\n")
	for _, c := range cases {
		fmt.Fprintf(&script, "m %s %s\n", testenv.BashQuote(c.ere), testenv.BashQuote(c.subj))
		fmt.Fprintf(&lines, "%s %s\n", hex.EncodeToString([]byte(c.net)), hex.EncodeToString([]byte(c.subj)))
	}
	file := filepath.Join(t.TempDir(), "cases.sh")
	if err := os.WriteFile(file, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	bashOut, err := testenv.Command(t, "bash", file).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	matcher.Stdin = &lines
	netOut, err := matcher.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	bs, ns := bufio.NewScanner(bytes.NewReader(bashOut)), bufio.NewScanner(bytes.NewReader(netOut))
	bad, skipped := 0, 0
	for i, c := range cases {
		if !bs.Scan() || !ns.Scan() {
			t.Fatalf("missing answers at case %d", i)
		}
		b, n := bs.Text(), ns.Text()
		if b == "E" {
			skipped++ // regcomp refuses it; the bash backend never emits it
			continue
		}
		if b != n {
			if bad++; bad <= 20 {
				t.Errorf("ERE %q (.NET %q) on %q: bash %s, .NET %s", c.ere, c.net, c.subj, b, n)
			}
		}
	}
	t.Logf("%d cases, %d refused by regcomp, %d disagreements", len(cases), skipped, bad)
}
