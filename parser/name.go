package parser

import (
	"path"
	"strings"
)

// DefaultName is the rule name taken from a file name
// ".claude/hookify.<name>.local.md".
func DefaultName(file string) string {
	base := path.Base(file)
	base = strings.TrimPrefix(base, "hookify.")
	base = strings.TrimSuffix(base, ".local.md")
	return strings.TrimSuffix(base, ".md")
}
