// Package templates holds the static text that generated hooks are built
// from: the awk JSON decoder and the script skeletons. Templates carry no
// logic; every value they receive is computed and quoted in Go.
package templates

import _ "embed"

// DecodeAWK is the awk program that every generated bash script runs to read
// the hook payload. See decode.awk for its contract.
//
//go:embed decode.awk
var DecodeAWK string

// BashHook is the text/template skeleton of a generated bash script.
//
//go:embed hook.sh.tmpl
var BashHook string

// PowerShellHook is the text/template skeleton of a generated PowerShell
// script (package codegen/powershell).
//
//go:embed hook.ps1.tmpl
var PowerShellHook string
