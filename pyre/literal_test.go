package pyre

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// TestLiteralERE checks LiteralERE against bash: for literals over every byte
// value (1-255, so every ERE special, bash's quoting markers 01 and 7F, and raw
// UTF-8 pieces), bash's [[ $v =~ $re ]] must say exactly whether v contains the
// literal, byte for byte, or with ASCII letters folded.
func TestLiteralERE(t *testing.T) {
	requireTools(t)
	r := rand.New(rand.NewSource(7))
	var eres []string
	var cases []bashCase
	var want []byte
	add := func(lit string, fold bool, subjects ...string) {
		re := LiteralERE(lit, fold)
		if err := Validate(re); err != nil {
			t.Fatalf("LiteralERE(%q, %v) = %q: %v", lit, fold, re, err)
		}
		eres = append(eres, re)
		for _, s := range subjects {
			cases = append(cases, bashCase{len(eres) - 1, s})
			in := strings.Contains(s, lit)
			if fold {
				in = strings.Contains(asciiLower(s), asciiLower(lit))
			}
			if in {
				want = append(want, '0')
			} else {
				want = append(want, '1')
			}
		}
	}
	randBytes := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(1 + r.Intn(255))
		}
		return string(b)
	}
	// Every byte alone, and between others.
	for c := 1; c < 256; c++ {
		lit := string([]byte{byte(c)})
		add(lit, false, lit, "a"+lit+"b", "ab", strings.Repeat("x", 3), "\x01\x7f\\"+lit)
		add("["+lit+"]", false, "["+lit+"]", "x["+lit+"]\n", "[]", lit)
	}
	// Random literals in random text, cut, case-flipped and pure noise.
	for i := 0; i < 300; i++ {
		lit := randBytes(1 + r.Intn(6))
		if i%3 == 0 {
			lit = "Ab" + lit + "cD-" + lit
		}
		fold := i%2 == 0
		pre, post := randBytes(r.Intn(20)), randBytes(r.Intn(20))
		add(lit, fold,
			pre+lit+post,
			pre+randomCase(r, lit)+post,
			pre+lit[:len(lit)-1]+post,
			lit[1:]+"\n"+lit[:len(lit)-1],
			randBytes(40),
		)
	}
	got := runBash(t, eres, cases)
	if !bytes.Equal(got, want) {
		for i := range want {
			if got[i] != want[i] {
				c := cases[i]
				t.Errorf("[[ %q =~ %q ]]: bash says %c, want %c", c.subject, eres[c.ere], got[i], want[i])
			}
		}
	}
	if LiteralERE("", false) != "" || LiteralERE("a\x00b", true) != "" {
		t.Error(`LiteralERE of "" or of a NUL byte is not ""`)
	}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c | 0x20
		}
	}
	return string(b)
}
