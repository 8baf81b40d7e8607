package compiler

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

var md = goldmark.New()

// plainText renders a markdown message as plain text for user-facing
// messages: emphasis, code spans, links and headings lose their markup,
// list items keep a "- " or "1. " marker, code blocks keep their lines,
// and blocks are separated by one blank line.
func plainText(src string) string {
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	var blocks []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if s := renderBlock(n, source, ""); s != "" {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n\n")
}

func renderBlock(n ast.Node, src []byte, indent string) string {
	switch n := n.(type) {
	case *ast.Heading, *ast.Paragraph, *ast.TextBlock:
		return indentLines(inline(n, src), indent)
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		return indentLines(strings.TrimRight(string(n.Lines().Value(src)), "\n"), indent)
	case *ast.List:
		var items []string
		num := n.Start
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			marker := "- "
			if n.IsOrdered() {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			var parts []string
			for c := it.FirstChild(); c != nil; c = c.NextSibling() {
				if s := renderBlock(c, src, ""); s != "" {
					parts = append(parts, s)
				}
			}
			body := strings.Join(parts, "\n")
			pad := strings.Repeat(" ", len(marker))
			body = strings.ReplaceAll(body, "\n", "\n"+pad)
			items = append(items, indent+marker+body)
		}
		return strings.Join(items, "\n")
	case *ast.Blockquote:
		var parts []string
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if s := renderBlock(c, src, ""); s != "" {
				parts = append(parts, s)
			}
		}
		return indentLines(strings.Join(parts, "\n\n"), indent+"> ")
	case *ast.ThematicBreak:
		return indent + "---"
	}
	// Tables and other extensions are not enabled; anything else renders
	// its inline text.
	return indentLines(inline(n, src), indent)
}

func inline(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.WriteString(resolveText(c.Segment.Value(src)))
				if c.HardLineBreak() || c.SoftLineBreak() {
					b.WriteByte('\n')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.CodeSpan:
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if s, ok := t.(*ast.Text); ok {
						b.Write(s.Segment.Value(src))
					} else if s, ok := t.(*ast.String); ok {
						b.Write(s.Value)
					}
				}
			case *ast.AutoLink:
				b.Write(c.URL(src))
			case *ast.RawHTML:
				b.Write(c.Segments.Value(src))
			case *ast.Link:
				walk(c)
				if dest := string(c.Destination); dest != "" && dest != linkText(c, src) {
					b.WriteString(" (" + dest + ")")
				}
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimRight(b.String(), "\n")
}

// resolveText resolves what the source of a text node still holds, as
// goldmark's HTML writer does when it writes one: backslash escapes of ASCII
// punctuation (\* is *) and entity and numeric character references (&amp;
// is &). An escaped character is never part of a reference (\&amp; stays).
func resolveText(v []byte) string {
	var b strings.Builder
	start := 0
	flush := func(end int) {
		b.Write(util.ResolveEntityNames(util.ResolveNumericReferences(v[start:end])))
	}
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '\\' && util.IsPunct(v[i+1]) {
			flush(i)
			b.WriteByte(v[i+1])
			i++
			start = i + 1
		}
	}
	flush(len(v))
	return b.String()
}

func linkText(l *ast.Link, src []byte) string {
	var b strings.Builder
	for c := l.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		}
	}
	return b.String()
}

func indentLines(s, indent string) string {
	if indent == "" || s == "" {
		return s
	}
	return indent + strings.ReplaceAll(s, "\n", "\n"+indent)
}
