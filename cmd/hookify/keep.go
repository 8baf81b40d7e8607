package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/writer"
)

// acceptHint says how to accept a rule that is left out for good.
const acceptHint = "to leave a rule out for good, set enabled: false in its file (its problems are then warnings)"

// usable reports whether the command can go on with c.res: it has no
// errors, or --keep-going is on and every error is in a rule the compiler
// left out while it built the others. When it cannot, usable prints what
// --keep-going would do where that would help.
func (c *cli) usable() bool {
	res := c.res
	if !res.Diags.HasErrors() {
		return true
	}
	partial := len(res.Files) > 0
	if c.keepGoing && partial {
		return true
	}
	if partial {
		c.wouldKeepGoing()
	}
	return false
}

// wouldKeepGoing says, when some rules have errors and the others could
// be built, what the command would do with --keep-going, and how to leave
// a rule out for good.
func (c *cli) wouldKeepGoing() {
	res := c.res
	var done string
	switch c.cmd.name {
	case "build":
		done = "nothing written: "
	}
	verb := map[string]string{
		"build":  "build",
		"check":  "check",
		"test":   "test",
		"eval":   "evaluate",
		"doctor": "check",
	}[c.cmd.name]
	fmt.Fprintf(c.stderr, "hookify %s: %s%s with errors; hookify %s --keep-going would leave %s out and %s the other %s now; %s\n",
		c.cmd.name, done, plural(len(res.LeftOut), "rule file"), c.cmd.name, them(len(res.LeftOut)), verb,
		plural(len(res.Program.Rules), "rule"), acceptHint)
}

// leftOut names the rule files left out because of their errors.
func (c *cli) leftOut() {
	if len(c.res.LeftOut) > 0 {
		fmt.Fprintf(c.stderr, "hookify %s: left out because of errors (--keep-going): %s; %s\n",
			c.cmd.name, strings.Join(c.res.LeftOut, ", "), acceptHint)
	}
}

// alsoBuilt names the rule files that build, given RULES, also built
// because the output on disk holds their hooks.
func (c *cli) alsoBuilt() {
	if len(c.built) > 0 {
		fmt.Fprintf(c.stderr, "hookify %s: also built, as their hooks are in the output: %s (delete a rule file, or set enabled: false in it, to remove its hooks)\n",
			c.cmd.name, strings.Join(c.built, ", "))
	}
}

// builtHeaders calls fn with the rule files and the build flags that the
// header of each generated script under root records, in name order.
func builtHeaders(root string, fn func(sources []string, flags string)) {
	fsys := os.DirFS(root)
	entries, _ := fs.ReadDir(fsys, compiler.HooksDir)
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), ir.ScriptPrefix) {
			continue
		}
		p := path.Join(compiler.HooksDir, e.Name())
		if data, err := fs.ReadFile(fsys, p); err == nil {
			if sources, flags, ok := writer.Header(p, data); ok {
				fn(sources, flags)
			}
		}
	}
}

// builtFlags are the build flags that the headers of the generated scripts
// under root record (README, "Usage"), those of the first in name order that
// records any; ok is false when none does.
func builtFlags(root string) (o compiler.Options, ok bool) {
	builtHeaders(root, func(_ []string, flags string) {
		if !ok && flags != "" {
			if parsed, err := compiler.ParseBuildFlags(flags); err == nil {
				o, ok = parsed, true
			}
		}
	})
	return o, ok
}

// builtSources are the rule files that the generated scripts under root
// name in their headers and that still exist: the rules whose hooks the
// output holds. Given RULES, build, check and test also compile these, so
// that naming one rule never removes the hooks of the others (README, "A rule that does not compile").
func builtSources(root string) []string {
	fsys := os.DirFS(root)
	var out []string
	builtHeaders(root, func(sources []string, _ string) {
		for _, src := range sources {
			if !fs.ValidPath(src) || slices.Contains(out, src) {
				continue
			}
			if st, err := fs.Stat(fsys, src); err == nil && st.Mode().IsRegular() {
				out = append(out, src)
			}
		}
	})
	slices.Sort(out)
	return out
}
