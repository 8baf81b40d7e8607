package pyre

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus-report.txt from the corpus")

const corpusReport = "testdata/corpus-report.txt"

type corpusPattern struct {
	file    string
	line    int
	pattern string
}

var (
	topPattern = regexp.MustCompile(`^pattern:\s*(.*)$`)
	itemStart  = regexp.MustCompile(`^\s+-\s+(\w+):\s*(.*)$`)
	itemKey    = regexp.MustCompile(`^\s+(\w+):\s*(.*)$`)
)

// unquote strips one pair of matching surrounding quotes; inside double quotes
// it applies the YAML escapes \\ and \".
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) < 2 || v[0] != v[len(v)-1] || (v[0] != '"' && v[0] != '\'') {
		return v
	}
	q, v := v[0], v[1:len(v)-1]
	if q == '\'' {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '\\' || v[i+1] == '"') {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// extractPatterns finds the regex patterns in a rule file's front matter, line by
// line: top-level "pattern:" lines, and the "pattern:" and "value:" keys of
// "conditions:" items whose operator is regex_match or not_regex_match (or absent,
// which hookify reads as regex_match).
func extractPatterns(file, text string) []corpusPattern {
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimRight(l, "\r") == "---" {
			start = i
			break
		}
	}
	if start < 0 {
		return nil
	}
	var out []corpusPattern
	type item struct {
		op   string
		pats []corpusPattern
	}
	var items []*item
	var cur *item
	inConditions := false
	for i := start + 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		if l == "---" {
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '-' {
			inConditions = strings.HasPrefix(l, "conditions:")
			cur = nil
			if m := topPattern.FindStringSubmatch(l); m != nil {
				out = append(out, corpusPattern{file, i + 1, unquote(m[1])})
			}
			continue
		}
		if !inConditions {
			continue
		}
		key, val := "", ""
		if m := itemStart.FindStringSubmatch(l); m != nil {
			cur = &item{}
			items = append(items, cur)
			key, val = m[1], m[2]
		} else if m := itemKey.FindStringSubmatch(l); m != nil && cur != nil {
			key, val = m[1], m[2]
		}
		switch key {
		case "operator":
			cur.op = unquote(val)
		case "pattern", "value":
			cur.pats = append(cur.pats, corpusPattern{file, i + 1, unquote(val)})
		}
	}
	for _, it := range items {
		if it.op == "" || it.op == "regex_match" || it.op == "not_regex_match" {
			out = append(out, it.pats...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// loadCorpus reads the regex patterns of every rule file in the corpus, in file
// order, and counts the files.
func loadCorpus(t *testing.T) (pats []corpusPattern, files int) {
	for _, f := range testenv.CorpusRules(t) {
		files++
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pats = append(pats, extractPatterns(filepath.Base(f), string(data))...)
	}
	sort.SliceStable(pats, func(i, j int) bool { return pats[i].file < pats[j].file })
	return pats, files
}

// buildCorpusReport translates every pattern of the corpus and summarizes.
func buildCorpusReport(t *testing.T) string {
	pats, files := loadCorpus(t)
	reasons := map[string]int{}
	var translated, refused []string
	for _, p := range pats {
		where := fmt.Sprintf("%s:%d", p.file, p.line)
		_, err := ERE(p.pattern, IgnoreCase)
		if err == nil {
			translated = append(translated, fmt.Sprintf("  %s: %s", where, p.pattern))
			continue
		}
		e := err.(*Error)
		reasons[e.Construct]++
		line := fmt.Sprintf("  %s: %s", where, p.pattern)
		for _, x := range e.All() { // every problem of the pattern
			line += fmt.Sprintf("\n      %s at column %d: %s", x.Construct, x.Offset+1, x.Msg)
		}
		refused = append(refused, line)
	}
	var b strings.Builder
	b.WriteString(`# pyre corpus report: every regex pattern in ../../shared/corpus/hookify-rules
# (top-level "pattern:" lines, and "pattern:"/"value:" keys of "conditions:" items whose
# operator is regex_match, not_regex_match or absent; one pair of surrounding quotes
# stripped, \\ and \" unescaped inside double quotes), translated with IgnoreCase.
# Regenerate with: go test ./pyre -run TestCorpusReport -update

`)
	fmt.Fprintf(&b, "files: %d\npatterns: %d\ntranslated: %d\nrefused: %d\n", files, len(pats), len(translated), len(refused))
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if reasons[keys[i]] != reasons[keys[j]] {
			return reasons[keys[i]] > reasons[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %d\n", k, reasons[k])
	}
	b.WriteString("\nrefused:\n")
	for _, r := range refused {
		b.WriteString(r + "\n")
	}
	b.WriteString("\ntranslated:\n")
	for _, r := range translated {
		b.WriteString(r + "\n")
	}
	return b.String()
}

// TestCorpusReport runs every pattern of the public rule corpus through ERE and
// compares the summary with the committed report.
func TestCorpusReport(t *testing.T) {
	got := buildCorpusReport(t)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(corpusReport, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(corpusReport)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("corpus report changed (-want +got):\n%s\nrun with -update if the change is intended", diff)
	}
}

func TestExtractPatterns(t *testing.T) {
	text := "---\r\nname: x\r\npattern: \"a\\\\.b\\\"c\"\r\nconditions:\r\n" +
		"  - field: command\r\n    operator: regex_match\r\n    pattern: 'x|y'\r\n" +
		"  - field: file_path\r\n    operator: contains\r\n    pattern: not-a-regex\r\n" +
		"  - field: content\r\n    value: v+\r\n" +
		"  - operator: not_regex_match\r\n    pattern: nr\r\n" +
		"action: warn\r\n---\r\npattern: body\r\n"
	got := extractPatterns("f", text)
	want := []corpusPattern{{"f", 3, `a\.b"c`}, {"f", 7, "x|y"}, {"f", 12, "v+"}, {"f", 14, "nr"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(corpusPattern{})); diff != "" {
		t.Errorf("extractPatterns (-want +got):\n%s", diff)
	}
}
