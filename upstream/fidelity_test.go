package upstream_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/pyre"
	"github.com/hookify/hookify/upstream"
)

// compile compiles the one rule file src, named name (a default name when
// ""), with the translator tr; nil accepts every pattern as the ERE of its
// literal text, so that the checks do not depend on the translator.
func compile(name, src string, tr compiler.Translator) *compiler.Result {
	if name == "" {
		name = ".claude/hookify.t.local.md"
	}
	if tr == nil {
		tr = func(p string) (string, string, error) { return pyre.LiteralERE(p, false), "", nil }
	}
	return compiler.Compile(fstest.MapFS{name: {Data: []byte(src)}}, compiler.Options{Inputs: []string{name}, Translator: tr})
}

// withCode keeps the diagnostics of code.
func withCode(ds diag.List, code diag.Code) diag.List {
	return slices.DeleteFunc(slices.Clone(ds), func(d diag.Diagnostic) bool { return d.Code != code })
}

// fidelityCases show every check of the fidelity table: a rule file, the
// warnings of the check's code as "line:col: message part", one per
// expected warning.
var fidelityCases = []struct {
	code      diag.Code
	name, src string
	want      []string
}{
	{"upstream-skipped", "bom", "\uFEFF---\nname: a\nevent: bash\npattern: rm\n---\nx", []string{"1:1: upstream skips this file (the file starts with a UTF-8 byte order mark"}},
	{"upstream-skipped", "file name", "---\nname: a\nevent: bash\npattern: rm\n---\nx", []string{"1:1: upstream never loads this file: it reads only .claude/hookify.*.local.md"}},
	{"upstream-split", "dashes in a value", "---\nname: a\nevent: bash\npattern: ^---$\naction: block\n---\nx", []string{"4:11: upstream ends the front matter at this ---", "it reads pattern as `^`", "(so it loses action)"}},
	{"upstream-quotes", "doubled backslashes (q06)", "---\nname: a\nevent: bash\npattern: \"rm\\\\s+-rf\"\n---\nx", []string{"4:11: upstream reads pattern as `rm\\\\s+-rf` (it strips the quotes but keeps every backslash", "we read `rm\\s+-rf`. Write it as pattern: 'rm\\s+-rf' so both read"}},
	{"upstream-quotes", "escaped quote in a condition", "---\nname: a\nevent: bash\nconditions:\n  - field: command\n    operator: contains\n    pattern: \"say \\\"hi\\\"\"\n---\nx", []string{"7:15: upstream reads pattern as `say \\\"hi\\` (it strips the quotes but does not process escapes); we read `say \"hi\"`. Write it as pattern: 'say \"hi\"'"}},
	{"upstream-comment", "comment after event (q08)", "---\nname: a\nevent: bash # shell\npattern: rm\n---\nx", []string{"3:8: upstream reads event as `bash # shell` (it keeps the # comment as part of the value), an event it does not know", "Write it as event: bash so both read"}},
	{"upstream-comment", "comment after enabled", "---\nname: a\nenabled: false  # old\nevent: bash\npattern: rm\n---\nx", []string{"3:10: upstream reads enabled as `false  # old`, so the rule is enabled: any non-empty text counts as true there; we read false. Move the comment"}},
	{"upstream-block-scalar", "block scalar (q05)", "---\nname: a\nevent: bash\npattern: |\n  rm -rf\n---\nx", []string{"4:10: upstream reads pattern as `|` (it has no block scalars", "Write the value on one line"}},
	{"upstream-indent", "un-indented condition (q04)", "---\nname: a\nevent: bash\nconditions:\n- field: command\n  operator: contains\n  pattern: rm\n---\nx", []string{
		"6:3: upstream drops this line: hookify continues a condition only with lines indented by more than 2 characters, and this one is indented by 2, so the condition uses regex_match there",
		"7:3: upstream drops this line", "so the condition's pattern is empty there, which always holds",
	}},
	{"upstream-indent", "indented keys", "---\n  name: a\n  event: bash\n  pattern: rm\n---\nx", []string{"2:3: upstream ignores name", "3:3: upstream ignores event", "4:3: upstream ignores pattern"}},
	{"upstream-comma", "comma on the dash line (q03)", "---\nname: a\nevent: bash\nconditions:\n  - pattern: \\d{1,3}\n    field: command\n---\nx", []string{
		"5:14: upstream reads pattern as `\\d{1` (it splits a condition's first line at every comma)",
		"6:5: upstream drops this line: the condition's first line holds a comma", "the condition has no field there: it is always false",
	}},
	{"upstream-bool", "quoted false (q02)", "---\nname: a\nevent: bash\npattern: \"false\"\n---\nx", []string{"4:11: upstream reads the pattern as the boolean False", "never fires", "write it as `[f]alse`"}},
	{"upstream-bool", "true crashes (q01)", "---\nname: a\nevent: bash\npattern: true\n---\nx", []string{"4:10: upstream reads the pattern as the boolean True", "crashes on every event"}},
	{"upstream-flow", "flow conditions", "---\nname: a\nevent: bash\nconditions: [{field: command, operator: contains, pattern: rm}]\n---\nx", []string{"4:13: upstream reads conditions as the text", "not as a list, so the rule has no conditions there and never fires"}},
	{"upstream-empty", "empty pattern", "---\nname: a\nevent: bash\npattern:\n---\nx", []string{"4:1: upstream reads the empty pattern as an empty list"}},
	{"upstream-empty", "empty name (q10)", "---\nname:\nevent: bash\npattern: rm\n---\nx", []string{"upstream reads the empty name as an empty list and prefixes its messages with **[[]]**"}},
	{"upstream-reading", "nested conditions", "---\nname: a\nevent: bash\nconditions:\n  combinator: or\n  conditions:\n    - field: command\n      operator: contains\n      pattern: rm\n---\nx", []string{"5:3: upstream ignores the keys of this map"}},
	{"upstream-reading", "null", "---\nname: a\nevent: bash\npattern: ~\n---\nx", []string{"4:10: upstream reads pattern as the text `~`"}},
	{"upstream-event", "fork event read", "---\nname: a\nevent: read\naction: block\npattern: \\.env\n---\nx", []string{"3:8: event read comes from the hookify-plus fork"}},
	{"upstream-event", "unknown event", "---\nname: a\nevent: PreToolUse\npattern: rm\n---\nx", []string{"3:8: upstream does not know event `PreToolUse` either"}},
	{"upstream-action", "unknown action", "---\nname: a\nevent: bash\npattern: rm\naction: deny\n---\nx", []string{"5:9: upstream treats action `deny` as warn"}},
	{"upstream-operator", "fork operator", "---\nname: a\nevent: bash\nconditions:\n  - field: command\n    operator: not_regex_match\n    pattern: ^git\n---\nx", []string{"6:15: operator not_regex_match comes from the hookify-plus fork"}},
	{"upstream-operator", "unknown operator", "---\nname: a\nevent: bash\nconditions:\n  - field: command\n    operator: not_exists\n    pattern: x\n---\nx", []string{"6:15: upstream does not know operator `not_exists` either"}},
	{"upstream-value-key", "value alias", "---\nname: a\nevent: bash\nconditions:\n  - field: command\n    operator: contains\n    value: rm\n---\nx", []string{"7:5: upstream ignores value", "tests an empty pattern, which always holds"}},
	{"upstream-no-conditions", "prose only", "---\nname: a\nevent: bash\n---\nNever deploy on Fridays.", []string{"2:7: upstream never fires a rule without pattern or conditions", "prompt hook"}},
	{"upstream-no-conditions", "cursor_hook prompt", "---\nname: a\nevent: bash\ncursor_hook: prompt\npattern: deploy\n---\nNot on Fridays.", []string{"4:14: upstream ignores cursor_hook and tests the conditions itself"}},
	{"upstream-prompt-field", "user_prompt (quirk 2)", "---\nname: a\nevent: prompt\nconditions:\n  - field: user_prompt\n    operator: contains\n    pattern: deploy\n---\nx", []string{"5:12: upstream never fires this prompt rule: it reads user_prompt, which Claude Code never sends"}},
	{"upstream-prompt-field", "user_prompt not_contains", "---\nname: a\nevent: prompt\nconditions:\n  - field: user_prompt\n    operator: not_contains\n    pattern: ticket\n---\nx", []string{"5:12: upstream reads user_prompt", "this condition always holds there"}},
	{"upstream-prompt-field", "lone pattern on prompt", "---\nname: a\nevent: prompt\npattern: deploy\n---\nx", []string{"4:1: upstream never fires this prompt rule: it tests a lone pattern against content"}},
	{"upstream-prompt-field", "field prompt", "---\nname: a\nevent: prompt\nconditions:\n  - field: prompt\n    operator: contains\n    pattern: deploy\n---\nx", []string{"5:12: upstream never fires this condition on a prompt: it has no field prompt there"}},
	{"upstream-pattern-field", "lone pattern on stop", "---\nname: a\nevent: stop\npattern: .*\naction: block\n---\nRun the tests.", []string{"4:1: upstream tests a lone pattern against content, which Claude Code's Stop event never has"}},
	{"upstream-pattern-field", "lone pattern on all", "---\nname: a\npattern: TODO\n---\nx", []string{"3:1: upstream tests a lone pattern against content, which only file writes have"}},
	{"upstream-write-content", "lone file pattern (quirk 1)", "---\nname: a\nevent: file\npattern: console\\.log\n---\nx", []string{"4:1: upstream tests a lone file pattern against new_text, which it reads as empty for Write"}},
	{"upstream-write-content", "new_text condition", "---\nname: a\nevent: file\nconditions:\n  - field: new_text\n    operator: contains\n    pattern: TODO\n---\nx", []string{"5:12: upstream reads new_text as empty for Write", "Use field content"}},
	{"upstream-field", "dotted field", "---\nname: a\nevent: file\nconditions:\n  - field: tool_input.file_path\n    operator: ends_with\n    pattern: .env\n---\nx", []string{"5:12: upstream has no dotted fields", "Write field: file_path"}},
	{"upstream-field", "tool_name", "---\nname: a\nevent: file\nconditions:\n  - field: tool_name\n    operator: equals\n    pattern: Write\n---\nx", []string{"5:12: upstream never sets field tool_name on file events"}},
	{"upstream-other-tools", "stop leaks (quirk 4)", "---\nname: a\nevent: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_contains\n    pattern: npm test\n---\nRun the tests.", []string{"3:8: upstream also runs this stop rule before and after every tool call other than Bash", "so it can deny those calls"}},
	{"upstream-other-tools", "file rule on Read", "---\nname: a\nevent: file\nconditions:\n  - field: file_path\n    operator: ends_with\n    pattern: .env\n---\nx", []string{"3:8: upstream also runs this file rule before and after Read", "add a copy of the rule with event: read"}},
	{"upstream-other-tools", "prompt rule on tools", "---\nname: a\nevent: prompt\nconditions:\n  - field: user_prompt\n    operator: not_contains\n    pattern: ticket\n---\nx", []string{"3:8: upstream also runs this prompt rule before and after every tool call"}},
	{"upstream-prompt-block", "block on prompt (quirk 3)", "---\nname: a\nevent: prompt\naction: block\nconditions:\n  - field: prompt\n    operator: contains\n    pattern: password\n---\nx", []string{"4:9: upstream does not block prompts"}},
	{"upstream-tool-matcher", "MCP glob", "---\nname: a\ntool_matcher: mcp__github__*\nconditions:\n  - field: title\n    operator: contains\n    pattern: wip\n---\nx", []string{"3:15: upstream compares tool names exactly, so mcp__github__* names no tool there"}},
	{"upstream-tool-matcher", "MCP server alone", "---\nname: a\ntool_matcher: mcp__github\nconditions:\n  - field: title\n    operator: contains\n    pattern: wip\n---\nx", []string{"3:15: upstream compares tool names exactly, so mcp__github names no tool there"}},
	{"upstream-field", "MCP server name", "---\nname: a\ntool_matcher: mcp__github__create_issue\nconditions:\n  - field: mcp_server_name\n    operator: equals\n    pattern: github\n---\nx", []string{"5:12: upstream never sets field mcp_server_name"}},
	{"upstream-field", "MCP dotted field", "---\nname: a\ntool_matcher: mcp__github__create_issue\nconditions:\n  - field: tool_input.title\n    operator: contains\n    pattern: wip\n---\nx", []string{"5:12: upstream has no dotted fields", "Write field: title"}},
	{"upstream-tool-matcher", "spaces", "---\nname: a\nevent: bash\ntool_matcher: Bash | Edit\npattern: rm\n---\nx", []string{"4:15: upstream compares tool names exactly, without trimming spaces, so `Bash ` names no tool there"}},
	{"upstream-transcript", "JSON in transcript", "---\nname: a\nevent: stop\naction: block\nconditions:\n  - field: transcript\n    operator: regex_match\n    pattern: '\"name\":\\s*\"Edit\"'\n---\nx", []string{"8:15: upstream matches this against Claude Code's raw transcript"}},
	{"upstream-last-message", "last message", "---\nname: a\nevent: stop\naction: block\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: tests pass\n---\nx", []string{"6:12: upstream hookify never reads last_assistant_message", "last assistant entry of Cursor's transcript"}},
	{"upstream-name", "no name (q10)", "---\nevent: bash\npattern: rm\n---\nx", []string{"1:1: upstream calls a rule without name \"unnamed\"", "Add name: t so both agree"}},
	{"upstream-inline-flag", "(?i) inside", "---\nname: a\nevent: bash\npattern: rm|(?i)sudo\n---\nx", []string{"4:10: upstream's Python (3.11 and later) rejects (?i)"}},
}

func TestFidelityChecks(t *testing.T) {
	covered := map[diag.Code]bool{}
	for _, tc := range fidelityCases {
		covered[tc.code] = true
		t.Run(string(tc.code)+"/"+tc.name, func(t *testing.T) {
			file := ".claude/hookify.t.local.md"
			if tc.name == "file name" {
				file = ".claude/t.md"
			}
			var tr compiler.Translator
			if tc.code == diag.UpstreamInlineFlag {
				tr = compiler.DefaultTranslator // the check follows the translator's refusal
			}
			res := compile(file, tc.src, tr)
			got := withCode(res.Diags, tc.code)
			if len(got) == 0 {
				t.Fatalf("no %s warning; diagnostics:\n%s", tc.code, res.Diags)
			}
			var text []string
			for _, d := range got {
				if d.Severity != diag.Warning {
					t.Errorf("%v: want a warning", d)
				}
				line := fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Col, d.Msg)
				if d.Hint != "" {
					line += ". " + strings.ToUpper(d.Hint[:1]) + d.Hint[1:]
				}
				text = append(text, line)
			}
			all := strings.Join(text, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("missing %q in:\n%s", w, all)
				}
			}
		})
	}
	for _, code := range upstream.Codes() {
		if !covered[code] {
			t.Errorf("check %s has no test case", code)
		}
	}
}

// TestFidelityOncePerCause: each cause is reported once, by one code.
func TestFidelityOncePerCause(t *testing.T) {
	for _, tc := range fidelityCases {
		res := compile("", tc.src, nil)
		seen := map[diag.Pos][]diag.Code{}
		for _, d := range res.Diags {
			if upstream.IsFidelity(d.Code) {
				seen[d.Pos] = append(seen[d.Pos], d.Code)
			}
		}
		for pos, codes := range seen {
			slices.Sort(codes)
			if len(slices.Compact(codes)) != len(codes) {
				t.Errorf("%s: %v: one code twice: %v", tc.name, pos, codes)
			}
		}
	}
}

// TestFidelityAgreement: rules that both read and run the same way get no
// fidelity warning, and the existing warnings are not repeated.
func TestFidelityAgreement(t *testing.T) {
	for _, src := range []string{
		"---\nname: a\nevent: bash\naction: block\npattern: rm -rf\n---\nNo.",
		"---\nname: a\nevent: bash\npattern: 'rm\\s+-rf'\n---\nNo.",
		"---\nname: a\nevent: file\nconditions:\n  - field: content\n    operator: contains\n    pattern: TODO\n---\nNo.",
		"---\nname: a\nevent: file\naction: block\nconditions:\n  - field: file_path\n    operator: ends_with\n    pattern: .env\n  - field: content\n    operator: contains\n    pattern: SECRET\n---\nNo.",
		"---\nname: a\nevent: bash\nconditions:\n  - field: command\n    operator: regex_match\n    pattern: a, b\n---\nA comma on a continuation line is harmless.",
		"---\nname: a\nenabled: false\nevent: bash\npattern: rm\n---\nx",
		"---\r\nname: a\r\nevent: bash\r\npattern: rm\r\n---\r\nCRLF\r\n",
		"---\nname: a\nevent: stop\naction: block\nconditions:\n  - field: status\n    operator: equals\n    pattern: completed\n  - field: transcript\n    operator: not_contains\n    pattern: npm test\n---\nx",
		"---\nname: a\nevent: bash\ntool_matcher: Bash\npattern: rm\n---\nx",
		"---\nname: a\naction: block\ntool_matcher: mcp__github__create_issue|mcp__github__delete_repo\nconditions:\n  - field: title\n    operator: contains\n    pattern: wip\n---\nx",
	} {
		res := compile("", src, nil)
		for _, d := range res.Diags {
			if upstream.IsFidelity(d.Code) && !(strings.Contains(src, "status") && d.Code == "upstream-field") {
				t.Errorf("%q: unexpected %v (%s)", src, d, d.Code)
			}
		}
	}
	// enabled: no (q07) is enabled-word's, not a reading difference; that
	// warning says that hookify runs the rule.
	res := compile("", "---\nname: a\nenabled: no\nevent: bash\npattern: rm\n---\nx", nil)
	if w := withCode(res.Diags, diag.EnabledWord); len(w) != 1 || w[0].Pos.Line != 3 || !strings.Contains(w[0].Msg, "hookify reads any text as enabled") {
		t.Errorf("enabled: no: %s", res.Diags)
	}
	for _, d := range res.Diags {
		if d.Code != "enabled-word" && d.Code != "disabled" {
			t.Errorf("enabled: no: unexpected %v (%s)", d, d.Code)
		}
	}
}

// TestFidelityFallbackAgrees: a value YAML cannot read takes hookify's
// reading (yaml-fallback), so the readings agree and nothing more is said.
func TestFidelityFallbackAgrees(t *testing.T) {
	res := compile("", "---\nname: a\nevent: bash\npattern: \"rm\\s+-rf\"\n---\nx", nil)
	if len(withCode(res.Diags, diag.YAMLFallback)) != 1 {
		t.Fatalf("want one yaml-fallback: %s", res.Diags)
	}
	for _, d := range res.Diags {
		if upstream.IsFidelity(d.Code) {
			t.Errorf("unexpected %v (%s)", d, d.Code)
		}
	}
}

// TestFidelityReadingFirst: when hookify reads a condition differently,
// behaviour checks based on our reading stay silent; the reading
// difference says what upstream does.
func TestFidelityReadingFirst(t *testing.T) {
	src := "---\nname: a\nevent: prompt\nconditions:\n- field: user_prompt\n  operator: contains\n  pattern: password\n---\nx"
	res := compile("", src, nil)
	if len(withCode(res.Diags, diag.UpstreamIndent)) != 2 {
		t.Errorf("want two upstream-indent warnings:\n%s", res.Diags)
	}
	for _, code := range []diag.Code{diag.UpstreamPromptField, diag.UpstreamOtherTools} {
		if d := withCode(res.Diags, code); len(d) != 0 {
			t.Errorf("unexpected %s", d)
		}
	}
}

// TestCompatScalars: a list where hookify reads text takes hookify's
// reading, with a warning, and nothing more is said (docs/semantics.md §10).
func TestCompatScalars(t *testing.T) {
	res := compile("", "---\nname: fr\nevent: bash\npattern: [àé]\n---\nx", nil)
	if res.Diags.HasErrors() || len(res.Program.Rules) != 1 {
		t.Fatalf("%s", res.Diags)
	}
	if p := res.Program.Rules[0].Conditions[0].Pattern; p != "[àé]" {
		t.Errorf("pattern %q", p)
	}
	if w := withCode(res.Diags, diag.YAMLFallback); len(w) != 1 || w[0].Pos.Line != 4 || len(res.Diags) != 1 {
		t.Errorf("%s", res.Diags)
	}
	// tool_matcher: [Bash] is the text "[Bash]" for both, which names no tool.
	res = compile("", "---\nname: tm\nevent: bash\ntool_matcher: [Bash]\npattern: rm\n---\nx", nil)
	if res.Diags.HasErrors() || len(withCode(res.Diags, diag.YAMLFallback)) != 1 || len(withCode(res.Diags, diag.NoTarget)) != 1 {
		t.Errorf("%s", res.Diags)
	}
}
