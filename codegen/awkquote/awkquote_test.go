package awkquote

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// FuzzString checks that String gives an awk expression that each of
// the four awks reads back as exactly the input bytes (docs/awk-engines.md
// §5, §10): printed with print and ORS="" (mawk's printf and sprintf stop at
// 8191 bytes), in a program run from a file under LC_ALL=C. The seeds hold
// every byte but NUL, and strings around mawk's 8191-byte literal limit.
func FuzzString(f *testing.F) {
	var all []byte
	for c := 1; c < 256; c++ {
		all = append(all, byte(c))
	}
	for _, s := range []string{
		"", "plain", `"`, `\`, `\\"`, "'", "it's", "a\nb\r\nc\td", "\r", "\x01\x1f\x7f", "naïve ✅ 日本",
		"\xff\xfe invalid utf-8", `\x41B \101 \n \/ \"`, "%s%d%%", "/re/", "$0 ~ /x/", string(all),
		strings.Repeat("a", 8191), strings.Repeat("b", 8192), strings.Repeat("\\\"", 5000),
		strings.Repeat("é", 4100), strings.Repeat(string(all), 40),
	} {
		f.Add(s)
	}
	awks := map[testenv.Awk]string{}
	for _, a := range testenv.Awks {
		awks[a] = testenv.LookPath(f, string(a))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // String panics: lowering rejects NUL, which BWK and busybox cannot hold
		}
		q := String(s)
		prog := filepath.Join(t.TempDir(), "print.awk")
		if err := os.WriteFile(prog, []byte(`BEGIN { ORS = ""; print `+q+" }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, a := range testenv.Awks {
			var args []string
			if a == "busybox" {
				args = []string{"awk"}
			}
			cmd := testenv.Command(t, awks[a], append(args, "-f", prog)...)
			cmd.Env = []string{"LC_ALL=C"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: String(%.100q) = %.200s: %v\n%.500s", a, s, q, err, stderr.String())
			}
			if !bytes.Equal(out, []byte(s)) {
				i := 0
				for i < len(out) && i < len(s) && out[i] == s[i] {
					i++
				}
				t.Fatalf("%s: String(%.100q) (%d bytes) = %.200s reads back as %d bytes, differing from byte %d: %.100q",
					a, s, len(s), q, len(out), i, out[i:])
			}
		}
	})
}

// TestStringSplits checks String's form for long strings by hand: no
// literal over mawk's 8191 bytes, pieces concatenated inside parentheses.
func TestStringSplits(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"", `""`},
		{`a"b\c'd`, `"a\042b\134c\047d"`},
		{"\r\n\x01\x7f\xff", `"\015\012\001\177\377"`},
		{strings.Repeat("a", 4000), `"` + strings.Repeat("a", 3999) + `" "a"`},
	} {
		got := String(tt.s)
		if strings.HasPrefix(tt.want, `"`) && strings.Contains(tt.want, `" "`) {
			tt.want = "(" + tt.want + ")"
		}
		if got != tt.want {
			t.Errorf("String(%.40q…) = %.60s…, want %.60s…", tt.s, got, tt.want)
		}
	}
	long := String(strings.Repeat("\xff", 20000))
	for _, lit := range strings.Split(strings.Trim(long, "()"), `" "`) {
		if len(lit) > 8191 {
			t.Errorf("a literal of %d bytes", len(lit))
		}
	}
}
