package compiler

// hookify fix (README, "Rules as people write them"): rewrite rule files
// so that upstream hookify and hookify read them the same way wherever a
// spelling exists for that, without changing what any rule compiles to for
// Cursor. The rewrites are package upstream's (upstream.Fix); this driver
// keeps one only when the file compiles to the same bytes as before.

import (
	"bytes"
	"io/fs"
	"slices"
	"testing/fstest"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/upstream"
)

// FixChange is one rule file that hookify fix rewrites.
type FixChange struct {
	Path     string
	Old, New []byte
}

// Fix returns the rewrite of every rule file (the ones Compile reads with
// opts) that it can spell so that both readers agree, in file order. A
// rewrite is kept only when the file alone compiles to the same outputs
// and the same errors as before. The diagnostics are Compile's on the
// files as they are.
func Fix(root fs.FS, opts Options) ([]FixChange, diag.List) {
	files, diags := ruleFiles(root, opts.Inputs)
	var out []FixChange
	for _, name := range files {
		src, err := readRegular(root, name)
		if err != nil {
			continue // Compile reports it
		}
		var rule *ir.Rule
		if res := Compile(oneFile(name, src), Options{Inputs: []string{name}}); len(res.Program.Rules) == 1 {
			rule = res.Program.Rules[0]
		}
		fixed := upstream.Fix(name, src, rule, DefaultTranslator.ERE)
		if fixed == nil || bytes.Equal(fixed, src) || !sameCompile(name, src, fixed, opts) {
			continue
		}
		out = append(out, FixChange{Path: name, Old: src, New: fixed})
	}
	return out, diags
}

// sameCompile reports whether a rule file compiles, on its own, to the same
// files and the same error codes with either content (the hooks' live
// check aside: its fingerprints see any edit).
func sameCompile(name string, a, b []byte, opts Options) bool {
	opts.Inputs = []string{name}
	opts.NoLiveCheck = true
	ra := Compile(oneFile(name, a), opts)
	rb := Compile(oneFile(name, b), opts)
	if len(ra.Files) != len(rb.Files) || !slices.Equal(errorCodes(ra.Diags), errorCodes(rb.Diags)) {
		return false
	}
	for i := range ra.Files {
		if ra.Files[i].Path != rb.Files[i].Path || !bytes.Equal(ra.Files[i].Data, rb.Files[i].Data) {
			return false
		}
	}
	return true
}

func errorCodes(l diag.List) []diag.Code {
	var out []diag.Code
	for _, d := range l {
		if d.Severity == diag.Error {
			out = append(out, d.Code)
		}
	}
	return out
}

// oneFile is a file system holding one file: the rule a fix is checked on.
func oneFile(name string, data []byte) fstest.MapFS {
	return fstest.MapFS{name: {Data: data, Mode: 0o644}}
}
