package bash

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/pyre"
)

// TestRegexData: every awk reads back each regex as it was, with shared
// groups defined once.
func TestRegexData(t *testing.T) {
	s := "([\t-\r\034 ]|\302[\205\240]|\341\232\200|\342\200[\200-\212\250\251\257]|\342\201\237|\343\200\200)" // \s
	long := "(" + strings.Repeat("x", minFragment) + ")"
	res := []string{
		"(^|" + s + ")a" + s + "+b" + long,
		"c" + s,
		"[(]" + long + "(" + s + ")",
		"no group",
		s,
	}
	var forms []pyre.AWKForm
	for _, re := range res {
		f, err := pyre.AWK(re)
		if err != nil || f.Text != re {
			t.Fatalf("pyre.AWK(%q) = %q, %v", re, f.Text, err)
		}
		forms = append(forms, f)
	}
	data := regexData(forms)
	if strings.Count(data, "hk_f[") < 4 || strings.Count(data, `\342\201\237`) != 1 {
		t.Errorf("the shared groups are not defined once:\n%s", data)
	}
	var prog strings.Builder
	prog.WriteString("BEGIN {\n" + data + "  ORS = \"\"\n")
	for i := range res {
		fmt.Fprintf(&prog, "  print length(hk_r[%d]) \":\" hk_r[%d] \"\\n\"\n", i+1, i+1)
	}
	prog.WriteString("}\n")
	var want strings.Builder
	for _, re := range res {
		fmt.Fprintf(&want, "%d:%s\n", len(re), re)
	}
	for _, a := range testenv.Awks {
		dir := testenv.AwkDir(t, a)
		cmd := testenv.Command(t, filepath.Join(dir, "awk"), prog.String())
		cmd.Env = []string{"LC_ALL=C"}
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil || out.String() != want.String() {
			t.Errorf("%s: %v\n%s", a, err, cmp.Diff(want.String(), out.String()))
		}
	}
}
