package ir

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChoices(t *testing.T) {
	for _, c := range []struct {
		lists [][]string
		want  []string
	}{
		{nil, []string{"[]"}},
		{[][]string{{"a", "b"}}, []string{"[a]", "[b]"}},
		{[][]string{{"a", "b"}, {"x", "y", "z"}}, []string{"[a x]", "[a y]", "[a z]", "[b x]", "[b y]", "[b z]"}},
		{[][]string{{"a"}, {}}, nil},
	} {
		var got []string
		if !Choices(c.lists, func(ch []string) bool { got = append(got, fmt.Sprint(ch)); return true }) {
			t.Errorf("%v: Choices stopped though f never returned false", c.lists)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%v (-want +got):\n%s", c.lists, d)
		}
	}
	n := 0
	if Choices([][]string{{"a", "b", "c"}}, func([]string) bool { n++; return n < 2 }) || n != 2 {
		t.Errorf("Choices went on after f returned false: %d calls", n)
	}
}
