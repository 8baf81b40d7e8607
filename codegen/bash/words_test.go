package bash

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/pyre"
)

// wordPieces are what TestWordsProgram builds values from: ASCII, letters
// and digits of every UTF-8 length (Nd, Nl, No, Lo, astral), characters
// that are neither (Mn, Pc, So, spaces), the named characters of its
// patterns' words, and bytes that are not valid UTF-8 (a lone lead or
// continuation byte, an overlong form, a surrogate, a cut 4-byte one).
var wordPieces = []string{"a", "Z", "_", " ", "-", "\n", "0", "é", "É", "ß", "ſ", "K", "İ", "ı", "k",
	"٣", "０", "Ⅻ", "½", "‿", "\u0308", "中", "𝐀", "🤖", "\u00a0", "\u2028", "ä", "ö", "ü", "€",
	"\xc3", "\xa9", "\xc0\xaf", "\xed\xa0\x80", "\xf0\x9f\xa4", "\xff", "x\xf8y"}

// TestWordsProgram runs templates/words.awk's hk_uw, as the hooks hold it,
// with each awk under LC_ALL=C, against pyre.Rewrite on generated values:
// short ones, and long ones whose characters straddle the 4 KB windows,
// with the words of patterns that name no character, name few (block
// bytes) and name more than there are block bytes (marks).
func TestWordsProgram(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	var specs []string
	for _, p := range []string{`\w`, `\bk`, `\b[àé]\b|ß\w`, `\b(äa|öa|üa|éa|èa|êa|ëa|ïa|îa|ôa|ça|ña)\b`, `[^\Wé]\d`} {
		_, w, err := pyre.Translate(p, pyre.IgnoreCase)
		if err != nil || w == "" {
			t.Fatalf("%s: words %q, %v", p, w, err)
		}
		specs = append(specs, w)
	}
	if !strings.Contains(specs[3], "/0") {
		t.Fatalf("%q: no marked character", specs[3])
	}
	var values []string
	for range 60 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(wordPieces[r.IntN(len(wordPieces))])
		}
		values = append(values, b.String())
	}
	for _, n := range []int{4093, 4094, 4095, 4096, 9000} {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(wordPieces[r.IntN(len(wordPieces))])
		}
		values = append(values, b.String(), strings.Repeat("x", n%7)+strings.Repeat("中", n/3))
	}
	dir := t.TempDir()
	prog := WordsAWK + fmt.Sprintf("function hk_wtab() { return %s }\n", AwkString(pyre.WordTable()))
	for i, s := range specs {
		prog += fmt.Sprintf("function hk_u%d(v) { return hk_uw(v, hk_K%d, hk_N%d, %s) }\n", i, i, i, AwkString(s))
	}
	// Each value is a file; the program prints each rewritten value
	// through each rewrite, then a NUL, twice (the second time from the
	// rewrite's memory of its last value).
	var calls strings.Builder
	for range 2 {
		for i := range specs {
			fmt.Fprintf(&calls, "printf \"%%s%%c\", hk_u%d(v \"\"), 0; ", i)
		}
	}
	prog += `BEGIN { for (f = 1; f < ARGC; f++) { v = ""; n = 0; while ((getline l < ARGV[f]) > 0) v = (n++ ? v "\n" : "") l; ` + calls.String() + `} }`
	var files []string
	for i, v := range values {
		f := filepath.Join(dir, fmt.Sprint(i))
		// getline drops one final newline: the values end in one more.
		if err := os.WriteFile(f, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, a := range testenv.Awks {
		bin := filepath.Join(testenv.AwkDir(t, a), "awk")
		cmd, cancel := testenv.CommandTimeout(60*time.Second, bin, append([]string{prog}, files...)...)
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v: %s", a, err, errb.Bytes())
		}
		got := strings.Split(out.String(), "\x00")
		if len(got) != 2*len(values)*len(specs)+1 {
			t.Fatalf("%s: %d results for %d", a, len(got)-1, 2*len(values)*len(specs))
		}
		for i, v := range values {
			for j, s := range specs {
				want := pyre.Rewrite(s, v)
				if g := got[2*i*len(specs)+j]; g != want || got[(2*i+1)*len(specs)+j] != want {
					if len(v) > 80 {
						t.Errorf("%s, words %q, value of %d bytes (valid UTF-8: %v): got %d bytes, want %d", a, s, len(v), utf8.ValidString(v), len(g), len(want))
						continue
					}
					t.Errorf("%s, words %q, value %q:\n got %q\nwant %q", a, s, v, g, want)
				}
			}
		}
	}
}
