package upstream

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests below follow docs/semantics.md §4 bullet by bullet.

// §4 splitting, bullet 1: the text must start with the three characters
// "---"; a BOM or anything before them makes hookify skip the file.
func TestHookifySkips(t *testing.T) {
	for _, tc := range []struct{ name, src, why string }{
		{"bom", "\uFEFF---\nname: x\n---\nbody", "byte order mark"},
		{"leading blank line", "\n---\nname: x\n---\nbody", "does not start with ---"},
		{"leading text", "hello\n---\nname: x\n---\n", "does not start with ---"},
		{"one fence only", "---\nname: x\n", "no second ---"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := ReadFile([]byte(tc.src))
			if h.Skipped == "" || !contains(h.Skipped, tc.why) {
				t.Errorf("Skipped = %q, want it to mention %q", h.Skipped, tc.why)
			}
			if h.FrontMatter != nil {
				t.Error("a skipped file has a front matter")
			}
		})
	}
}

// §4 splitting, bullet 2: the front matter ends at the second "---"
// anywhere, not only on a line of its own; the body is the rest, stripped,
// and a later "---" in the body is kept.
func TestHookifySplitAnywhere(t *testing.T) {
	src := "---\nevent: bash\npattern: ^---$\naction: block\n---\nBody\n\n---\nmore\n"
	h := ReadFile([]byte(src))
	if h.Skipped != "" {
		t.Fatal(h.Skipped)
	}
	want := map[string]any{"event": "bash", "pattern": "^"}
	if d := cmp.Diff(want, plain(h.FrontMatter)); d != "" {
		t.Errorf("values (-want +got):\n%s", d)
	}
	if h.Body != "$\naction: block\n---\nBody\n\n---\nmore" {
		t.Errorf("body = %q", h.Body)
	}
	if h.CutLine != 3 || h.CutCol != 11 {
		t.Errorf("cut at %d:%d, want 3:11", h.CutLine, h.CutCol)
	}
	if h.FrontMatter.Fields["pattern"].Line != 3 {
		t.Errorf("pattern line = %d, want the file line 3", h.FrontMatter.Fields["pattern"].Line)
	}

	// A front matter closed by a line of its own has no cut; a horizontal
	// rule in the body stays in the body.
	h = ReadFile([]byte("---\nname: a\n---  \n\n  Text\n---\nx\n\n"))
	if h.CutLine != 0 || h.Body != "Text\n---\nx" || plain(h.FrontMatter)["name"] != "a" {
		t.Errorf("got cut %d, body %q, values %v", h.CutLine, h.Body, plain(h.FrontMatter))
	}
}

// §4 splitting, bullet 3: universal newlines: CRLF (and a lone CR) read as LF.
func TestHookifyNewlines(t *testing.T) {
	h := ReadFile([]byte("---\r\nname: a\r\nevent: bash\r\n---\r\nline 1\r\nline 2\r\n"))
	if plain(h.FrontMatter)["event"] != "bash" || h.Body != "line 1\nline 2" {
		t.Errorf("values %v, body %q", plain(h.FrontMatter), h.Body)
	}
}

func read(t *testing.T, fm string) *FrontMatter {
	t.Helper()
	return readFrontMatter(fm)
}

// §4 line loop, bullet 1: blank lines and full-line comments are skipped;
// a comment after a value stays in the value.
func TestUpstreamComments(t *testing.T) {
	up := read(t, "\n# a comment\n   # indented comment\nevent: bash # shell\nname: x\n")
	want := map[string]any{"event": "bash # shell", "name": "x"}
	if d := cmp.Diff(want, plain(up)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	roles := []Role{RoleSkipped, RoleSkipped, RoleSkipped, RoleKey, RoleKey, RoleSkipped}
	if d := cmp.Diff(roles, up.Roles); d != "" {
		t.Errorf("roles (-want +got):\n%s", d)
	}
}

// §4 line loop, bullet 2: the indent counts leading white-space characters,
// a tab as one, so a tab-indented continuation (indent 1) is dropped and a
// line indented by three tabs is a continuation.
func TestUpstreamIndent(t *testing.T) {
	if indentOf("\t\tx") != 2 || indentOf("   x") != 3 || indentOf("\u00a0x") != 1 || indentOf("x") != 0 {
		t.Error("indentOf")
	}
	up := read(t, "conditions:\n- field: command\n\toperator: contains\n\t\t\tpattern: rm\n")
	want := []any{map[string]string{"field": "command", "pattern": "rm"}}
	if d := cmp.Diff(want, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// §4 line loop, bullet 3: a top-level key with an empty value starts a
// list; with no items it becomes an empty list.
func TestUpstreamEmptyValue(t *testing.T) {
	up := read(t, "name:\nenabled:\nevent: bash\n")
	want := map[string]any{"name": []any{}, "enabled": []any{}, "event": "bash"}
	if d := cmp.Diff(want, plain(up)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if up.Fields["name"].Line != 1 || up.Fields["enabled"].Line != 2 {
		t.Errorf("lines %d, %d", up.Fields["name"].Line, up.Fields["enabled"].Line)
	}
}

// §4 line loop, bullet 4: a scalar loses all leading and trailing double quotes,
// then all leading and trailing single quotes; there is no escape processing.
func TestUpstreamQuotes(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`pattern: "rm\\s+-rf"`, `rm\\s+-rf`},
		{`pattern: "status":\s*"(pending)"`, `status":\s*"(pending)`},
		{`pattern: "x" # c`, `x" # c`},
		{`pattern: 'it''s'`, `it''s`},
		{`pattern: "'both'"`, `both`},
		{`pattern: '"inner"'`, `"inner"`},
		{`pattern: ""`, ``},
	} {
		if got := plain(read(t, tc.line))["pattern"]; got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.line, got, tc.want)
		}
	}
}

// §4 line loop, bullet 5: exactly true/false (any case, quotes stripped
// first) become booleans; nothing else is converted.
func TestUpstreamBooleans(t *testing.T) {
	for _, tc := range []struct {
		line string
		want any
	}{
		{"enabled: true", true},
		{"enabled: FALSE", false},
		{`pattern: "false"`, false},
		{"pattern: 'True'", true},
		{"enabled: no", "no"},
		{"enabled: yes", "yes"},
		{"enabled: off", "off"},
		{"enabled: 0", "0"},
		{"enabled: null", "null"},
		{"enabled: ~", "~"},
		{"enabled: false  # deprecated", "false  # deprecated"},
	} {
		up := read(t, tc.line)
		for _, v := range plain(up) {
			if v != tc.want {
				t.Errorf("%s: got %#v, want %#v", tc.line, v, tc.want)
			}
		}
	}
}

// §4 line loop, bullet 6: indented lines that are not list items or
// continuations are dropped; keys are case-sensitive; the last duplicate
// wins.
func TestUpstreamIgnoredAndDuplicates(t *testing.T) {
	up := read(t, "  event: file\nEvent: bash\nname: a\nname: b\nconditions:\n  combinator: and\n")
	want := map[string]any{"Event": "bash", "name": "b", "conditions": []any{}}
	if d := cmp.Diff(want, plain(up)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if up.Roles[0] != RoleIgnored || up.Roles[5] != RoleIgnored {
		t.Errorf("roles %v", up.Roles)
	}
	if up.Fields["name"].Line != 4 {
		t.Errorf("name set on line %d, want 4", up.Fields["name"].Line)
	}
}

// §4 list items, bullet 1: a dash line with ':' and ',' is an inline map
// split at every comma; parts without ':' are dropped.
func TestUpstreamCommaItems(t *testing.T) {
	up := read(t, "conditions:\n  - field: command, operator: regex_match, pattern: a|b\n  - pattern: \\d{1,3}\n    field: x\n")
	want := []any{
		map[string]string{"field": "command", "operator": "regex_match", "pattern": "a|b"},
		map[string]string{"pattern": `\d{1`},
	}
	if d := cmp.Diff(want, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	items := up.Items("conditions")
	if len(items) != 2 || !items[0].Comma || !items[1].Comma || items[1].Line != 3 {
		t.Errorf("items %+v", items)
	}
	// Continuation lines after a comma item are dropped.
	if up.Roles[3] != RoleIgnored {
		t.Errorf("line 4 role %v, want ignored", up.Roles[3])
	}
}

// §4 list items, bullets 2 and 3: a dash line with ':' starts a map item;
// one without is a plain string item.
func TestUpstreamMapAndStringItems(t *testing.T) {
	up := read(t, "conditions:\n  - field: command\n    operator: contains\n    pattern: 'rm -rf'\n  - just text\ntool_matcher: Bash\n")
	want := []any{
		map[string]string{"field": "command", "operator": "contains", "pattern": "rm -rf"},
		"just text",
	}
	if d := cmp.Diff(want, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	it := up.Items("conditions")[0]
	if d := cmp.Diff(map[string]int{"field": 2, "operator": 3, "pattern": 4}, it.KeyLines); d != "" {
		t.Errorf("key lines (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{2, 5}, itemLines(up.Items("conditions"))); d != "" {
		t.Errorf("item lines (-want +got):\n%s", d)
	}
}

// §4 continuation bullet: only lines indented by more than 2 characters
// continue a map item; with un-indented items they are dropped (q04), and
// continuation values are never converted to booleans.
func TestUpstreamContinuationIndent(t *testing.T) {
	up := read(t, "conditions:\n- field: command\n  operator: contains\n  pattern: rm\n")
	if d := cmp.Diff([]any{map[string]string{"field": "command"}}, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if up.Roles[2] != RoleIgnored || up.Roles[3] != RoleIgnored {
		t.Errorf("roles %v", up.Roles)
	}
	up = read(t, "conditions:\n  - field: command\n    pattern: true\n")
	if d := cmp.Diff([]any{map[string]string{"field": "command", "pattern": "true"}}, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// §4 block scalars: `pattern: |` is the one-character pattern "|" and the
// indented lines are dropped (q05).
func TestUpstreamBlockScalar(t *testing.T) {
	up := read(t, "pattern: |\n  rm -rf\n  sudo\nevent: bash\n")
	if plain(up)["pattern"] != "|" || plain(up)["event"] != "bash" || up.Roles[1] != RoleIgnored {
		t.Errorf("values %v roles %v", plain(up), up.Roles)
	}
}

// §4 flow collections are strings.
func TestUpstreamFlow(t *testing.T) {
	up := read(t, "conditions: [{field: command, operator: contains, pattern: x}]\npattern: [àâç]\n")
	if plain(up)["conditions"] != "[{field: command, operator: contains, pattern: x}]" || plain(up)["pattern"] != "[àâç]" {
		t.Errorf("values %v", plain(up))
	}
}

// §4 nested conditions flatten into the outer list.
func TestUpstreamNestedConditions(t *testing.T) {
	up := read(t, "conditions:\n  combinator: and\n  conditions:\n    - field: command\n      operator: contains\n      pattern: rm\n")
	want := []any{map[string]string{"field": "command", "operator": "contains", "pattern": "rm"}}
	if d := cmp.Diff(want, plain(up)["conditions"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// Python's strip() removes Unicode white space and \x1c-\x1f.
func TestPyStrip(t *testing.T) {
	if got := pyStrip("\u3000\x1f a \u00a0\t"); got != "a" {
		t.Errorf("pyStrip = %q", got)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// plain is the reading in plain Go values, as the tests write them: text
// as string, booleans as bool, lists as []any of string and
// map[string]string.
func plain(up *FrontMatter) map[string]any {
	out := map[string]any{}
	for k, v := range up.Fields {
		switch v.Kind {
		case Text:
			out[k] = v.Text
		case Bool:
			out[k] = v.Bool
		case List:
			l := []any{}
			for _, it := range v.Items {
				if it.Map != nil {
					l = append(l, it.Map)
				} else {
					l = append(l, it.Text)
				}
			}
			out[k] = l
		}
	}
	return out
}

func itemLines(items []Item) []int {
	var out []int
	for _, it := range items {
		out = append(out, it.Line)
	}
	return out
}
