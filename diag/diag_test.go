package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestListSortAndErr(t *testing.T) {
	var l List
	l.Warnf(Pos{File: "b.md", Line: 1, Col: 1}, "w", "later file")
	l.Errorf(Pos{File: "a.md", Line: 3, Col: 2}, "e", "second")
	l.Errorf(Pos{File: "a.md", Line: 3, Col: 2}, "e", "second")
	l.Errorf(Pos{File: "a.md", Line: 2, Col: 9}, "e", "first")
	l.Warnf(Pos{File: "a.md"}, "w", "file only")
	got := l.Sort().String()
	want := "a.md: warning: file only\na.md:2:9: error: first\na.md:3:2: error: second\nb.md:1:1: warning: later file\n"
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	var warnings List
	warnings.Warnf(Pos{File: "x"}, "w", "only a warning")
	if warnings.HasErrors() || warnings.Err() != nil {
		t.Error("a list of warnings has no error")
	}
	if !l.HasErrors() || l.Err() == nil {
		t.Error("the list has errors")
	}
}
