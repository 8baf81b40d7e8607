package compiler

import (
	"strings"
	"testing"
)

// TestRegexTooDeepForMawk: a pattern whose translation nests more groups
// than mawk's regex compiler can hold is refused at the pattern, with the
// fix, rather than compiled into a hook that mawk would stop at.
func TestRegexTooDeepForMawk(t *testing.T) {
	deep := "a"
	for range 40 {
		deep = "(xy" + deep + "zw|qq)"
	}
	res := compileOne(t, "---\nname: deep\nevent: bash\naction: block\npattern: '"+deep+"'\n---\nDeep.\n", Options{Translator: DefaultTranslator})
	if got := res.Diags.String(); !strings.Contains(got, ".claude/hookify.t.local.md:5:11: error: ") || !strings.Contains(got, "mawk") || !strings.Contains(got, "write the pattern with fewer nested groups") {
		t.Errorf("diagnostics:\n%s\nwant an error at 5:11 that names mawk and the fix", got)
	}
	// Ten levels are fine.
	shallow := "a"
	for range 10 {
		shallow = "(xy" + shallow + "zw|qq)"
	}
	res = compileOne(t, "---\nname: ok\nevent: bash\naction: block\npattern: '"+shallow+"'\n---\nOk.\n", Options{Translator: DefaultTranslator})
	if res.Diags.HasErrors() {
		t.Errorf("ten levels: %s", res.Diags)
	}
}
