package compiler

import (
	"io/fs"
	"path"

	"github.com/hookify/hookify/codegen"
)

// liveRules is what the hooks of a build from root know about its rule
// files (docs/live-rules.md): every file of the default input,
// with its fingerprint, when each rule file built is one of them; nil
// (hooks without the check) when the build read rules from elsewhere, which
// a hook's rebuild would not read.
func liveRules(root fs.FS, sources []string, opts Options) *codegen.RuleFiles {
	glob := path.Join(codegen.RulesDir, codegen.RulesPattern)
	if len(sources) == 0 || opts.NoLiveCheck {
		return nil
	}
	for _, src := range sources {
		if ok, _ := path.Match(glob, src); !ok {
			return nil
		}
	}
	names, _ := fs.Glob(root, glob)
	rf := &codegen.RuleFiles{Flags: opts.BuildFlags(), User: opts.User}
	for _, n := range names {
		data, _ := readRegular(root, n) // an unreadable file sums to 0, as in the hook
		rf.Names = append(rf.Names, path.Base(n))
		rf.Sums = append(rf.Sums, codegen.Fingerprint(data))
	}
	return rf
}
