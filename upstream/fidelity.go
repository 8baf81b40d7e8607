package upstream

// Fidelity: every place where upstream hookify would read or run a rule
// differently from what we compile gets a warning (docs/semantics.md §1). The checks
// live in one table, fidelityChecks; lowering runs them on every rule file.
//
// Two kinds of difference are reported:
//
//   - reading: hookify's own line parser (ReadFile, a port of
//     docs/semantics.md §4) reads a value differently from our YAML
//     reading. The two readings are compared field by field; each
//     difference is reported once, by the check of its cause.
//   - behaviour: the same reading runs differently (docs/semantics.md
//     §3, §5–§7, §9): prompt rules that never see the prompt, Write content
//     invisible to new_text, rules leaking onto other tools, and so on.
//
// Each warning is at the field that causes it, its code is the check's
// code, and it says what upstream does, what we do, and how to make both
// agree where that is possible.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
)

// fidelityCheck is one way upstream hookify reads or runs a rule
// differently.
type fidelityCheck struct {
	code  diag.Code
	doc   string // the quirk, in a few words: a row of the README's fidelity table
	check func(c *fctx)
}

// fidelityChecks is the table of every fidelity check, in report order. It
// is also the source of the README's table of them (TestREADMEFidelity).
var fidelityChecks = []fidelityCheck{
	// Reading: the front matter as hookify's line parser reads it.
	{diag.UpstreamSkipped, "a file with a BOM, or named outside `hookify.*.local.md`, is never loaded", checkSkipped},
	{diag.UpstreamSplit, "the front matter ends at the first `---` anywhere (`pattern: ^---$`)", checkSplit},
	{diag.UpstreamQuotes, "quotes are stripped without escape processing: `\"rm\\\\s\"` keeps two backslashes", readingCheck(causeQuotes)},
	{diag.UpstreamComment, "`event: bash # c` keeps the comment; `enabled: false # c` is enabled", readingCheck(causeComment)},
	{diag.UpstreamBlockScalar, "`pattern: |` is the pattern `|`", readingCheck(causeBlock)},
	{diag.UpstreamIndent, "indented keys, and condition lines indented by 2 or less, are dropped", readingCheck(causeIndent)},
	{diag.UpstreamComma, "a condition's dash line is split at every comma", readingCheck(causeComma)},
	{diag.UpstreamBool, "`true`/`false` become booleans even in quotes (`pattern: true` crashes)", readingCheck(causeBool)},
	{diag.UpstreamFlow, "`conditions: [...]` is text", readingCheck(causeFlow)},
	{diag.UpstreamEmpty, "an empty value is an empty list (`name:` → `[]`, `pattern:` → none)", readingCheck(causeEmpty)},
	{diag.UpstreamReading, "other reading differences (nested conditions flattened, `~`, white space)", readingCheck(causeOther)},
	// Behaviour: the same reading runs differently.
	{diag.UpstreamEvent, "unknown events (and the fork's `read`) run only on tools other than Bash/Edit/Write/MultiEdit", checkEvent},
	{diag.UpstreamAction, "every action but exactly `block` warns", checkAction},
	{diag.UpstreamOperator, "unknown operators (the fork's `not_regex_match`) are always false", checkOperator},
	{diag.UpstreamValueKey, "a condition's `value:` is ignored: the pattern is empty", checkValueKey},
	{diag.UpstreamNoConditions, "a rule without conditions never fires (here: a prompt hook)", checkNoConditions},
	{diag.UpstreamPromptField, "prompt rules read `user_prompt`, which Claude Code never sends", checkPromptField},
	{diag.UpstreamPatternField, "a lone `pattern` on `stop`/`all` tests `content`, absent on Stop", checkPatternField},
	{diag.UpstreamWriteContent, "`new_text` is empty for Write", checkWriteContent},
	{diag.UpstreamField, "fields upstream never sets (`tool_input.x`, `tool_name`, `cwd`, `status`)", checkField},
	{diag.UpstreamOtherTools, "stop, file and prompt rules also run on Read, Glob, Task, MCP… calls", checkOtherTools},
	{diag.UpstreamPromptBlock, "`block` on a prompt only shows the message", checkPromptBlock},
	{diag.UpstreamToolMatcher, "tool names are compared exactly, spaces included (`mcp__github__*` matches nothing)", checkToolMatcher},
	{diag.UpstreamTranscript, "`transcript` is Claude Code's JSONL; Cursor's transcript differs", checkTranscript},
	{diag.UpstreamLastMessage, "`last_assistant_message` is never read upstream (the condition is false); Cursor reads the transcript's last assistant entry", checkLastMessage},
	{diag.UpstreamName, "a rule without `name` is called `unnamed`", checkName},
	{diag.UpstreamInlineFlag, "`(?i)` inside a pattern is an error on Python 3.11 (the rule never fires); hookify drops it", checkInlineFlag},
}

// IsFidelity reports whether code is the code of a fidelity check.
func IsFidelity(code diag.Code) bool {
	return slices.ContainsFunc(fidelityChecks, func(c fidelityCheck) bool { return c.code == code })
}

// Codes are the codes of the fidelity checks, in report order.
func Codes() []diag.Code {
	out := make([]diag.Code, len(fidelityChecks))
	for i, c := range fidelityChecks {
		out[i] = c.code
	}
	return out
}

// fctx is what a check sees.
type fctx struct {
	f        *parser.File
	r        *ir.Rule     // as lowered; partial when refused
	enabled  bool         // our reading of enabled
	refused  bool         // lowering found errors
	hookify  *File        // how hookify loads the whole file
	upstream *FrontMatter // its reading of the front matter; nil when it skips the file
	diffs    []readingDiff
	on       []ir.CursorEvent // the Cursor events we generate the rule on
	code     diag.Code
	diags    *diag.List
}

// warn reports a fidelity warning. Its last sentence, when it says how to
// make both readers agree (or that nothing can), becomes the hint.
func (c *fctx) warn(pos diag.Pos, format string, args ...any) {
	msg, hint := splitHint(fmt.Sprintf(format, args...))
	c.diags.Advise(pos, c.code, msg, hint)
}

// fixOpenings start the sentence of a fidelity message that says what to
// do about it.
var fixOpenings = []string{". Write ", ". Rename ", ". Add ", ". Remove ", ". Move ", ". Save ", ". Avoid ",
	". Start ", ". Indent ", ". Use ", ". Match ", ". To guard ", ". No spelling ", ". Nothing in the rule ", "; write "}

// splitHint splits msg before its last sentence that says what to do.
func splitHint(msg string) (string, string) {
	at := -1
	for _, o := range fixOpenings {
		if i := strings.LastIndex(msg, o); i > at {
			at = i
		}
	}
	if at < 0 {
		return msg, ""
	}
	hint := strings.TrimLeft(msg[at+1:], " ")
	return msg[:at], strings.ToLower(hint[:1]) + hint[1:]
}

// loaded reports whether both sides load the rule: it compiles and is
// enabled, and hookify loads the file.
func (c *fctx) loaded() bool { return !c.refused && c.enabled && c.upstream != nil }

// runs reports whether behaviour checks apply: both load the rule, and we
// generate it on at least one Cursor event.
func (c *fctx) runs() bool { return c.loaded() && len(c.on) > 0 }

// runsOn reports whether we generate the rule on one of events.
func (c *fctx) runsOn(events ...ir.CursorEvent) bool {
	return slices.ContainsFunc(c.on, func(e ir.CursorEvent) bool { return slices.Contains(events, e) })
}

// Check runs every fidelity check on one rule file, f as we read it and
// rd as hookify does. r is the rule as lowered so far; enabled is our
// reading of its enabled key.
func Check(f *parser.File, rd *Reading, r *ir.Rule, enabled bool, warn ir.WarnMode, diags *diag.List) {
	if rd == nil || rd.File == nil {
		return
	}
	c := &fctx{f: f, r: r, enabled: enabled, refused: diags.HasErrors(), hookify: rd.File, upstream: rd.File.FrontMatter, diags: diags}
	if c.upstream != nil {
		c.diffs = compareReadings(c)
	}
	if !c.refused {
		c.on, _ = ir.Targets(r, warn)
	}
	for _, fc := range fidelityChecks {
		c.code = fc.code
		fc.check(c)
	}
}

// CompatScalars gives hookify's reading, with a warning, to a top-level
// value that YAML reads as a list or map where hookify reads text
// (pattern: [abc], name: [x], tool_matcher: [Bash]; docs/semantics.md §10). The readings
// then agree. event and action keep their type error: no list is one.
func CompatScalars(f *parser.File, rd *Reading, diags *diag.List) {
	if rd == nil || rd.Front == nil {
		return
	}
	for _, key := range []string{"name", "pattern", "tool_matcher"} {
		p, ok := f.Field(key)
		if !ok || p.Value.Kind == parser.Scalar {
			continue
		}
		s, ok := rd.Front.Text(key)
		if !ok || rd.Front.Fields[key].Line+1 != p.KeyPos.Line {
			continue
		}
		diags.Warnf(p.Value.Pos, diag.YAMLFallback, "%s is not text in YAML; it is read as hookify reads it, %q: quote the value", key, s)
		p.Value = &parser.Value{Kind: parser.Scalar, Str: s, Pos: p.Value.Pos, Fallback: true}
	}
}

// ourText is our reading of a scalar as text ("" for null).
func ourText(v *parser.Value) string {
	if v.Tag == "!!null" {
		return ""
	}
	return v.Str
}

// HoldsOnEmpty reports whether operator op with pattern holds on an empty
// value; known is false for a regex that Go cannot compile. Lowering asks
// it too: a lone stop pattern that matches anything is no condition.
func HoldsOnEmpty(op, pattern string) (holds, known bool) {
	o, ok := ir.ParseOp(op)
	switch {
	case !ok:
		return false, true
	case o.IsRegex():
		re, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			return false, false
		}
		return re.MatchString("") != o.Spec().Negated, true
	}
	return o.HoldsPlain("", pattern), true
}
