package pyre

import "strings"

// AWK returns ere (which must pass Validate) in the form that the regex
// engines of every supported awk read as bash reads ere under LC_ALL=C
// (docs/awk-engines.md §3, §10): intervals expanded where the result stays
// within mawk's limits, since Debian 12's mawk reads {n,m} as literal text.
// intervals reports that the result still holds an interval, so the hook
// needs an awk that has them. The text is the regex itself; the caller
// quotes it as an awk string (codegen/bash.AwkString).
//
// For now AWK returns ere unchanged.
func AWK(ere string) (re string, intervals bool, err error) {
	if err := Validate(ere); err != nil {
		return "", false, err
	}
	return ere, strings.Contains(ere, "{"), nil
}
