package parser

import (
	"strings"
	"unicode"
)

// Upstream is hookify's own reading of a front matter block: a port, written
// from its documented behaviour, of the plugin's hand-written line parser
// (it is not YAML). Values are string, bool, or []any whose items are string
// or map[string]string.
type Upstream struct {
	Values map[string]any
	// Lines maps each key to the front-matter line (1-based within the
	// block) where it was last set.
	Lines map[string]int
	// ItemLines maps a list-valued key to the line of each item.
	ItemLines map[string][]int
}

// ReadUpstream reads a whole rule file the way hookify does: the text must
// start with "---"; the front matter is what lies between the first two
// occurrences of "---" anywhere in the text (not only on their own lines);
// the body is the rest, stripped. ok is false when hookify would skip the
// file for having no front matter.
func ReadUpstream(src []byte) (up *Upstream, body string, ok bool) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if !strings.HasPrefix(text, "---") {
		return nil, "", false
	}
	parts := strings.SplitN(text, "---", 3)
	if len(parts) < 3 {
		return nil, "", false
	}
	return upstreamLines(parts[1]), strings.TrimFunc(parts[2], unicode.IsSpace), true
}

// upstreamLines runs hookify's line parser over a front matter block.
func upstreamLines(fm string) *Upstream {
	up := &Upstream{Values: map[string]any{}, Lines: map[string]int{}, ItemLines: map[string][]int{}}
	var (
		key      string
		list     []any
		items    []int
		dict     map[string]string
		inList   bool
		inDict   bool
		listLine int
	)
	closeList := func() {
		if inList && key != "" {
			if inDict && dict != nil {
				list = append(list, dict)
				dict = nil
			}
			up.Values[key] = list
			up.Lines[key] = listLine
			up.ItemLines[key] = items
		}
		inList, inDict = false, false
	}
	for i, line := range strings.Split(fm, "\n") {
		stripped := pyStrip(line)
		if stripped == "" || strings.HasPrefix(stripped, "#") {
			continue
		}
		indent := len([]rune(line)) - len([]rune(strings.TrimLeftFunc(line, unicode.IsSpace)))
		switch {
		case indent == 0 && strings.Contains(line, ":") && !strings.HasPrefix(stripped, "-"):
			closeList()
			k, v, _ := strings.Cut(line, ":")
			k, v = pyStrip(k), pyStrip(v)
			if v == "" {
				key, list, items, inList, listLine = k, []any{}, nil, true, i+1
				continue
			}
			key = k
			v = stripQuotes(v)
			switch strings.ToLower(v) {
			case "true":
				up.Values[k] = true
			case "false":
				up.Values[k] = false
			default:
				up.Values[k] = v
			}
			up.Lines[k] = i + 1
		case strings.HasPrefix(stripped, "-") && inList:
			if inDict && dict != nil {
				list = append(list, dict)
				dict = nil
			}
			item := pyStrip(stripped[1:])
			items = append(items, i+1)
			switch {
			case strings.Contains(item, ":") && strings.Contains(item, ","):
				d := map[string]string{}
				for _, part := range strings.Split(item, ",") {
					if k, v, ok := strings.Cut(part, ":"); ok {
						d[pyStrip(k)] = stripQuotes(pyStrip(v))
					}
				}
				list = append(list, d)
				inDict = false
			case strings.Contains(item, ":"):
				k, v, _ := strings.Cut(item, ":")
				dict = map[string]string{pyStrip(k): stripQuotes(pyStrip(v))}
				inDict = true
			default:
				list = append(list, stripQuotes(item))
				inDict = false
			}
		case indent > 2 && inDict && strings.Contains(line, ":"):
			k, v, _ := strings.Cut(stripped, ":")
			dict[pyStrip(k)] = stripQuotes(pyStrip(v))
		}
	}
	closeList()
	return up
}

// pyStrip is Python's str.strip() with no argument.
func pyStrip(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }

// stripQuotes is Python's v.strip('"').strip("'").
func stripQuotes(s string) string { return strings.Trim(strings.Trim(s, `"`), `'`) }
