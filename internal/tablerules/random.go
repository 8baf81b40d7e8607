package tablerules

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/hookify/hookify/codegen"
)

// RandomFile is generated rule-file content: empty, a lone newline, text
// with CR LF, UTF-8 and bytes up to 255 (NUL aside: BWK and busybox awk
// cannot hold it), with or without a final newline, up to a few KB.
func RandomFile(r *rand.Rand) []byte {
	switch r.IntN(8) {
	case 0:
		return nil
	case 1:
		return []byte("\n")
	}
	n := r.IntN(3000)
	b := make([]byte, n)
	for i := range b {
		switch r.IntN(6) {
		case 0:
			b[i] = '\n'
		case 1:
			b[i] = byte(1 + r.IntN(255))
		default:
			b[i] = byte(' ' + r.IntN(95))
		}
	}
	if r.IntN(2) == 0 {
		b = append(b, '\n')
	}
	if r.IntN(4) == 0 {
		b = append(b, "\r\n\r\n\n\n"...)
	}
	return b
}

// StaleRules writes 2 to 13 generated rule files (RandomFile) into dir,
// named hookify.<letter><n>.local.md, and returns the list that a build
// which saw them as they are bakes into its hooks (asBuilt), the list of a
// build that saw another state (then: the first file in glob order not
// yet, the last with other content, and hookify.~gone.local.md, removed
// since), and what the live check reports for then, in its order
// (docs/live-rules.md).
func StaleRules(r *rand.Rand, dir string) (asBuilt, then *codegen.RuleFiles, report []string, err error) {
	data := map[string][]byte{}
	var names []string
	for i := range 2 + r.IntN(12) {
		name := fmt.Sprintf("hookify.%c%d.local.md", 'a'+r.IntN(26), i)
		data[name] = RandomFile(r)
		if err := os.WriteFile(filepath.Join(dir, name), data[name], 0o644); err != nil {
			return nil, nil, nil, err
		}
		names = append(names, name)
	}
	slices.Sort(names) // glob order is bytewise
	asBuilt, then = &codegen.RuleFiles{}, &codegen.RuleFiles{}
	for i, n := range names {
		asBuilt.Names = append(asBuilt.Names, n)
		asBuilt.Sums = append(asBuilt.Sums, codegen.Fingerprint(data[n]))
		switch i {
		case 0:
			report = append(report, n+" (added)")
		case len(names) - 1:
			report = append(report, n+" (changed)")
			then.Names = append(then.Names, n)
			then.Sums = append(then.Sums, codegen.Fingerprint(append(slices.Clone(data[n]), 'x')))
		default:
			then.Names = append(then.Names, n)
			then.Sums = append(then.Sums, codegen.Fingerprint(data[n]))
		}
	}
	then.Names = append(then.Names, "hookify.~gone.local.md")
	then.Sums = append(then.Sums, 1)
	report = append(report, "hookify.~gone.local.md (removed)")
	return asBuilt, then, report, nil
}
