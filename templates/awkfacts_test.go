package templates_test

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// This file pins what the four awks installed here do with the things a
// generated awk program relies on, or must work around (docs/awk-engines.md,
// where each fact is explained and sourced). It is not a test of hookify's
// code: it fails when an awk changes (a new mawk with intervals, a BWK awk
// that counts UTF-8 characters), so that docs/awk-engines.md and the
// runtime's workarounds are revisited then.

// awkFact is one probe: a program given as awk's first argument (as the
// generated hook gives it), its standard input, and what each awk prints.
type awkFact struct {
	name  string
	prog  string
	stdin string
	env   []string          // besides LC_ALL=C (a later LC_ALL wins)
	args  []string          // before the program
	want  map[string]string // awk (testenv.Awks) -> stdout; "" for the others
}

// fails marks a want: the awk must exit non-zero with this on stderr.
const fails = "FAILS: "

// The awks, named as in testenv.Awks.
const (
	mawk = "mawk"
	gawk = "gawk"
	bwk  = "original-awk"
	bbox = "busybox"
)

var awkFacts = []awkFact{{
	// docs/awk-engines.md §2: mawk before 1.3.4-20200717 reads {n,m} as
	// literal text, in constants and dynamic strings alike.
	name: "intervals",
	prog: `BEGIN { printf "%d%d%d%d%d %d%d\n", ("aa" ~ /^a{2}$/), ("aaa" ~ /^a{2,3}$/), ("x" ~ /^xa{0}$/), ("aaaa" ~ /^a{2,}$/), ("a{2}" ~ /^a{2}$/), ("aa" ~ "^a{2}$"), ("a{2}" ~ "^a{2}$") }`,
	want: map[string]string{"": "11110 10\n", mawk: "00001 01\n"},
}, {
	// §2: mawk's regex compiler has a fixed stack (STACKSZ 64): an expanded
	// interval nested 40 deep does not compile; 30 deep does.
	name: "nesting depth",
	prog: `BEGIN { for (n = 30; n <= 40; n += 10) { r = ""; for (i = 0; i < n; i++) r = "(a" r ")?"; printf "%d", ("xaaa" ~ ("^x" r "$")) } print "" }`,
	want: map[string]string{"": "11\n", mawk: fails + "regular expression too large"},
}, {
	// §2: mawk's scanner holds a string literal in an 8 KiB buffer.
	name: "long string literal",
	prog: `BEGIN { print length("` + strings.Repeat("a", 8191) + `") length("` + strings.Repeat("b", 8192) + `") }`,
	want: map[string]string{"": "81918192\n", mawk: fails + "string too long"},
}, {
	// §2: mawk's sprintf has a fixed 8 KiB buffer; print has none.
	name: "long sprintf",
	prog: `BEGIN { s = sprintf("%9000s", ""); print length(s) }`,
	want: map[string]string{"": "9000\n", mawk: fails + "sprintf buffer"},
}, {
	// §5: NUL bytes in input. BWK ends the record at the NUL, busybox
	// treats it as a line end.
	name:  "NUL in input",
	prog:  `{ print length($0) }`,
	stdin: "a\x00b\n",
	want:  map[string]string{"": "3\n", bwk: "1\n", bbox: "1\n1\n"},
}, {
	// §5: NUL bytes in strings: only mawk and gawk keep them.
	name: "NUL in strings",
	prog: `BEGIN { z = sprintf("%c", 0); print length(z), length("a" z "b"), length("a\000b") }`,
	want: map[string]string{"": "1 3 3\n", bwk: "0 2 1\n", bbox: "0 2 1\n"},
}, {
	// §5: BWK ends a string literal at a raw CR (lex.c, string()); the
	// octal escape works everywhere.
	name: "raw CR in a literal",
	prog: "BEGIN { print length(\"a\rb\"), length(\"a\\015b\") }",
	want: map[string]string{"": "3 3\n", bwk: fails + "non-terminated string"},
}, {
	// §5: other raw control bytes and bytes 80-FF are kept as they are.
	name: "raw bytes in a literal",
	prog: "BEGIN { print length(\"\x01\x02\x1b\x7f\x80\xc3\xa9\xff\") }",
	want: map[string]string{"": "8\n"},
}, {
	// §5: octal escapes give any byte but NUL; \x is greedy in BWK, so the
	// runtime writes three-digit octal only.
	name: "octal escapes",
	prog: `BEGIN { print ("A" == "\101"), ("\001" == sprintf("%c", 1)), ("\377" == sprintf("%c", 255)), length("\1012") }`,
	want: map[string]string{"": "1 1 1 2\n"},
}, {
	// §4: under LC_ALL=C, length, index and substr count bytes, and
	// tolower/toupper leave bytes 80-FF alone.
	name: "bytes under LC_ALL=C",
	prog: `BEGIN { s = "\303\211a\303\251B"; all = ""; for (i = 128; i < 256; i++) all = all sprintf("%c", i)
	print length(s), index(s, "a"), index(s, "B"), (substr(s, 3, 2) == "a\303"), (tolower(s) == "\303\211a\303\251b"), (toupper(all) == all), (tolower(all) == all) }`,
	want: map[string]string{"": "6 3 6 1 1 1 1\n"},
}, {
	// §4: why LC_ALL=C: in a UTF-8 locale gawk counts characters, folds É
	// and alters an invalid byte; BWK (first edition) folds É and stops at
	// invalid UTF-8.
	name: "UTF-8 locale",
	env:  []string{"LC_ALL=C.UTF-8"},
	prog: `BEGIN { s = "\303\211a"; printf "%d %d ", length(s), (tolower(s) == "\303\251a"); print (toupper("\377") == "\377") }`,
	want: map[string]string{"": "3 0 1\n", gawk: "2 1 0\n", bwk: fails + "illegal byte sequence"},
}, {
	// §3: the escapes of a dynamic regex string are processed twice; "\."
	// keeps its backslash only in mawk, so the runtime doubles every one.
	name: "dynamic regex escapes",
	prog: `BEGIN { printf "%d%d ", ("a.b" ~ "a\\.b"), ("axb" ~ "a\\.b"); print ("axb" ~ "a\.b") }`,
	want: map[string]string{"": "10 1\n", mawk: "10 0\n"},
}, {
	// §3: raw bytes in a regex work everywhere; regex-level octal escapes
	// do not in busybox (a backslash is literal in brackets, and \3 is a
	// back-reference outside).
	name: "bytes in regexes",
	prog: `BEGIN { e = "\303\251"; printf "%d%d ", (e ~ "^[\302-\364][\200-\277]$"), ("\303" ~ "^[\302-\364][\200-\277]$"); print (e ~ "^[\\302-\\364][\\200-\\277]$") }`,
	want: map[string]string{"": "10 1\n", bbox: "10 0\n"},
}, {
	// §3: newlines: . matches one, [^\n] does not, ^ and $ are the ends of
	// the string only.
	name: "newlines in regexes",
	prog: `BEGIN { print ("a\nb" ~ "a[^\n]b") ("axb" ~ "a[^\n]b") ("a\nb" ~ "a.b") ("a\nb" ~ "^b") ("a\n" ~ "a$") }`,
	want: map[string]string{"": "01100\n"},
}, {
	// §3: POSIX classes.
	name: "POSIX classes",
	prog: `BEGIN { print ("a b" ~ /[[:space:]]/) ("x" ~ /^[[:alpha:]]$/) ("1" ~ "^[[:alpha:]]$") }`,
	want: map[string]string{"": "110\n"},
}, {
	// §3: a backslash in brackets is an escape except in busybox.
	name: "backslash in brackets",
	prog: `BEGIN { r = "[\\.]"; print ("\\" ~ r) }`,
	want: map[string]string{"": "0\n", bbox: "1\n"},
}, {
	// §3: an empty alternative is an error in mawk and BWK.
	name: "empty alternative",
	prog: `BEGIN { r = "(a|)x"; print ("x" ~ r) }`,
	want: map[string]string{"": "1\n", mawk: fails + "missing operand", bwk: fails + "illegal primary"},
}, {
	// §5: -v processes escapes (ENVIRON does not), so payload-derived or
	// regex text never goes through -v.
	name: "-v and ENVIRON",
	args: []string{"-v", `v=a\tb`},
	env:  []string{`X=a\tb`},
	prog: `BEGIN { print (v == "a\tb"), (ENVIRON["X"] == "a\\tb") }`,
	want: map[string]string{"": "1 1\n"},
}, {
	// §5: BWK's split with a one-character string separator also splits at
	// newlines; a regex separator does not.
	name: "split on a character",
	prog: `BEGIN { print split("a\nb", x, "q"), split("a\nbqc", y, /q/) }`,
	want: map[string]string{"": "1 2\n", bwk: "2 2\n"},
}}

// awkCommand returns the command line that runs a as awk.
func awkCommand(a testenv.Awk, args ...string) (string, []string) {
	if a == bbox {
		return string(a), append([]string{"awk"}, args...)
	}
	return string(a), args
}

// awkVersion returns the first line a prints about its version, for
// failure messages.
func awkVersion(t *testing.T, a testenv.Awk) string {
	var args []string
	switch a {
	case mawk:
		args = []string{"-W", "version"}
	case gawk, bwk:
		args = []string{"--version"}
	}
	out, _ := testenv.Command(t, string(a), args...).CombinedOutput()
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}

func TestAwkFacts(t *testing.T) {
	for _, a := range testenv.Awks {
		t.Run(string(a), func(t *testing.T) {
			t.Parallel()
			testenv.LookPath(t, string(a))
			failed := false
			for _, f := range awkFacts {
				want, ok := f.want[string(a)]
				if !ok {
					want = f.want[""]
				}
				name, args := awkCommand(a, append(f.args, f.prog)...)
				cmd := testenv.Command(t, name, args...)
				cmd.Env = append([]string{"LC_ALL=C"}, f.env...)
				cmd.Stdin = strings.NewReader(f.stdin)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatalf("%s: %v", f.name, err)
				}
				if msg, ok := strings.CutPrefix(want, fails); ok {
					if err == nil || !strings.Contains(stderr.String(), msg) {
						t.Errorf("%s: want a failure saying %q, got err=%v stdout=%q stderr=%q", f.name, msg, err, stdout.String(), stderr.String())
						failed = true
					}
					continue
				}
				if err != nil || stdout.String() != want {
					t.Errorf("%s: got %q (err=%v, stderr=%q), want %q", f.name, stdout.String(), err, stderr.String(), want)
					failed = true
				}
			}
			if failed {
				t.Logf("%s is %q; docs/awk-engines.md describes what the runtime relies on", a, awkVersion(t, a))
			}
		})
	}
}

// TestAwkArgumentLimit pins Linux's limit on one argument (MAX_ARG_STRLEN,
// 32 pages: 131072 bytes with the final NUL), which decides when the
// program goes in a file beside the script (docs/awk-engines.md §6).
func TestAwkArgumentLimit(t *testing.T) {
	const limit = 128 << 10
	prog := func(n int) string {
		p := `BEGIN { print "ok" }`
		return p + strings.Repeat(" ", n-len(p))
	}
	for _, a := range testenv.Awks {
		t.Run(string(a), func(t *testing.T) {
			name, args := awkCommand(a, prog(limit-1))
			out, err := testenv.Command(t, name, args...).Output()
			if err != nil || string(out) != "ok\n" {
				t.Errorf("a program of %d bytes: got %q, %v; want it to run", limit-1, out, err)
			}
			name, args = awkCommand(a, prog(limit))
			err = testenv.Command(t, name, args...).Run()
			if !errors.Is(err, syscall.E2BIG) {
				t.Errorf("a program of %d bytes: got %v, want %v from exec", limit, err, syscall.E2BIG)
			}
		})
	}
}
