// Package templates holds the static text that generated hooks are built
// from: the awk JSON decoder and the script skeletons. Templates carry no
// logic; every value they receive is computed and quoted in Go.
package templates

import _ "embed"

// DecodeAWK is the awk program that every generated Unix hook's program holds
// to read the hook payload. See decode.awk for its contract.
//
//go:embed decode.awk
var DecodeAWK string

// TableAWK holds the awk functions that run a regex's automaton as a
// table (pyre.Table). See table.awk for its contract.
//
//go:embed table.awk
var TableAWK string

// WordsAWK holds the awk functions that rewrite a value for the regexes
// that read Python's Unicode \w \d \b (pyre.Rewrite). See words.awk for
// its contract.
//
//go:embed words.awk
var WordsAWK string

// PatchAWK is the apply_patch reader of decode.awk, in the programs of the
// hooks that read patches; NoPatchAWK stands for it in the others.
//
//go:embed patch.awk
var PatchAWK string

//go:embed nopatch.awk
var NoPatchAWK string

// UnixHook is the text/template skeleton of a generated Unix hook: the
// POSIX sh wrapper that runs its awk program.
//
//go:embed hook.sh.tmpl
var UnixHook string

// HookAWK is the text/template skeleton of the awk program of a generated
// Unix hook (package codegen/bash).
//
//go:embed hook.awk.tmpl
var HookAWK string

// PowerShellHook is the text/template skeleton of a generated PowerShell
// script (package codegen/powershell).
//
//go:embed hook.ps1.tmpl
var PowerShellHook string
