package powershell

import (
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/hookify/hookify/pyre"
)

// TestWordsOnDotNet runs the C# transliteration of the skeleton's hk_uw
// (testdata/dotnet/words.cs) on generated values, short and long (windows
// do not matter to it, but runs of thousands of characters do to the
// dictionary), with the words of patterns that name no word character, a
// few (block bytes) and more than there are block bytes (marks), against
// pyre.Rewrite.
func TestWordsOnDotNet(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	pieces := []string{"a", "Z", "_", " ", "\n", "0", "é", "É", "ß", "ſ", "K", "İ", "ı", "k", "٣", "０", "Ⅻ", "½",
		"‿", "\u0308", "中", "𝐀", "🤖", "\u00a0", "ä", "ö", "ü", "\xc3", "\xa9", "\xc0\xaf", "\xed\xa0\x80", "\xf0\x9f\xa4", "\xff"}
	var specs []string
	for _, p := range []string{`\w`, `\bk`, `\b[àé]\b|ß\w`, `\b(äa|öa|üa|éa|èa|êa|ëa|ïa|îa|ôa|ça|ña)\b`} {
		_, w, err := pyre.Translate(p, pyre.IgnoreCase)
		if err != nil || w == "" {
			t.Fatalf("%s: words %q, %v", p, w, err)
		}
		specs = append(specs, w)
	}
	var in strings.Builder
	in.WriteString(pyre.WordTable() + "\n")
	type tc struct{ words, v string }
	var cases []tc
	for i := range 200 {
		var b strings.Builder
		n := r.Intn(10)
		if i%50 == 0 {
			n = 3000
		}
		for range n {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		c := tc{specs[r.Intn(len(specs))], b.String()}
		if i%3 == 2 {
			c = cases[i-1] // the same value again: hk_uw's memory of its last
		}
		cases = append(cases, c)
		in.WriteString(hex.EncodeToString([]byte(c.words)) + " " + hex.EncodeToString([]byte(c.v)) + "\n")
	}
	cmd := monoProgram(t, "words.cs")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(cases) {
		t.Fatalf("%d answers for %d cases", len(got), len(cases))
	}
	for i, c := range cases {
		b, err := hex.DecodeString(got[i])
		if err != nil {
			t.Fatal(err)
		}
		if want := pyre.Rewrite(c.words, c.v); string(b) != want {
			if len(c.v) > 100 {
				t.Errorf("words %q, a value of %d bytes: got %d bytes, want %d", c.words, len(c.v), len(b), len(want))
				continue
			}
			t.Errorf("words %q, value %q:\n got %q\nwant %q", c.words, c.v, b, want)
		}
	}
}
