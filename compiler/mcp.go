package compiler

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/upstream"
)

// mcpTool reads one tool_matcher name that starts with mcp__ (docs/mcp.md):
// the server part runs to the first __ after the prefix and the tool part
// is the rest, or every tool when there is no __. In both, `*` matches any
// run of characters and `.*` is read as `*`. It returns a problem instead
// when the name holds characters that are neither part of a name nor `*`.
func mcpTool(name string, pos diag.Pos, tr Translator) (ir.MCPTool, string) {
	rest := strings.TrimPrefix(name, upstream.MCPPrefix)
	server, tool, found := strings.Cut(rest, "__")
	if !found {
		tool = "*"
	}
	m := ir.MCPTool{Pattern: name}
	for _, part := range []struct {
		what, glob string
		cond       *ir.Condition
		field, re  string
	}{
		{"server", server, &m.Server, ir.MCPServerKey.Name, `(?-i:\A(?:%s)?\Z)`},
		{"tool", tool, &m.Tool, ir.ToolNameKey.Name, `(?-i:\A(?:MCP:)?%s\Z)`},
	} {
		re, bad := globRegex(part.glob)
		switch {
		case part.glob == "" && part.what == "server":
			return m, fmt.Sprintf("%s names no server: write mcp__<server>__<tool>, or mcp__* for every MCP tool", name)
		case part.glob == "":
			return m, fmt.Sprintf("%s names no tool: write %s* for every tool of the server", name, name)
		case bad != "":
			return m, fmt.Sprintf("%s holds %q, which is not part of an MCP tool name: an MCP pattern is mcp__<server>__<tool> with letters, digits, _, -, . and * (any run of characters); write one whole name per | piece", name, bad)
		}
		pattern := fmt.Sprintf(part.re, re)
		ere, words, err := tr(pattern)
		if err != nil {
			return m, fmt.Sprintf("%s: %v", name, err) // cannot happen: the regex is made of literals and .*
		}
		*part.cond = ir.Condition{Field: part.field, Op: ir.RegexMatch, Pattern: pattern, Pos: pos, PatternPos: pos}
		if err := setRegex(part.cond, ere, words); err != nil {
			return m, fmt.Sprintf("%s: %v", name, err) // cannot happen, as above
		}
	}
	return m, ""
}

// globRegex is the Python regex of a server or tool part: letters, digits,
// _ - and . as themselves, `*` (and `.*`) as any run of characters. bad is
// the first character that has no place in a name.
func globRegex(glob string) (re, bad string) {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case c == '.' && i+1 < len(glob) && glob[i+1] == '*':
		case c == '*':
			b.WriteString(`(?s:.*)`)
		case c == '.' || c == '-':
			b.WriteString(`\` + string(c))
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			r, _ := utf8.DecodeRuneInString(glob[i:])
			return "", string(r)
		}
	}
	return b.String(), ""
}
