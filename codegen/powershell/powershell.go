// Package powershell generates the PowerShell dispatcher script of one unit
// of a plan: the Windows twin of the Unix hook (sh and awk) of package
// codegen/bash.
//
// A script reads stdin as bytes, decodes the payload with the same rules as
// decode.awk (a tokenizing .NET regex and a small state machine; see the
// skeleton in package templates), runs the checks of its hook in file order
// (the check formula of codegen.Layout, spelled by spelling), and
// prints the answer that ir.AnswerFor describes, byte for byte what the
// Unix hook prints, before an explicit exit with the same code. It runs on
// Windows PowerShell 5.1 and PowerShell 7.
//
// Values are compared as bytes, as awk does under LC_ALL=C: payload strings
// are held with one char per UTF-8 byte, and each regex condition runs the
// Unix hook's ERE (Condition.ERE) converted by DotNetRegex, or, where the
// Unix hook runs the ERE's table (pyre.TableFor), the same table (hk_dfa).
// So the two scripts agree by construction, on case folding and newline
// rules included.
// All rule text goes through Quote.
package powershell

import (
	"fmt"
	"slices"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/pyre"
	"github.com/hookify/hookify/templates"
)

var skeleton = template.Must(template.New("hook.ps1").Option("missingkey=error").Parse(templates.PowerShellHook))

// BOM starts every generated script: Windows PowerShell 5.1 reads a script
// without one in the ANSI code page, which breaks non-ASCII rule text.
const BOM = "\uFEFF"

// Options are the answer choices that are not part of the plan.
type Options struct {
	Warn ir.WarnMode
	// Flags are the build flags the header records (codegen.Header).
	Flags string
	// Rules, when set, are the rule files the hook checks at each call
	// (fresh.go).
	Rules *codegen.RuleFiles
}

// hookData fills templates/hook.ps1.tmpl.
type hookData struct {
	Header, Events, Twin, Data, Keys, ToolSlots, Patches, Slots, Body string
	LastMessage                                                       bool
	// Table: a regex runs as a table (hk_dfa).
	Table bool
	// WordTable, when a regex reads a rewritten value (hk_uw), is
	// pyre.WordTable as a PowerShell string.
	WordTable string
	// Live is the call of the stale-rule check (fresh.go), or "".
	Live string
	// PerRule: the check runs hk_rules after a rebuild (the per-rule
	// layout).
	PerRule bool
}

// Generate returns the script for u, at .cursor/hooks/<u.Name>.ps1.
func Generate(u *ir.Unit, opts Options) (codegen.File, error) {
	l := codegen.NewLayout(u, opts.Warn, false)
	var patchSlots []string // where the texts that may hold patches are read
	for _, h := range u.Hooks {
		if h.ReadsPatches() && patchSlots == nil {
			for _, k := range []ir.Key{{Name: "tool_input"}, {ToolInput: true, Name: "patch"}, {ToolInput: true, Name: "diff"}} {
				patchSlots = append(patchSlots, fmt.Sprint(l.AddKey(k)))
			}
		}
	}
	var data, body strings.Builder
	g := &gen{l: l, data: codegen.NewData(&data), note: opts.Rules != nil}
	l.RuleData(&data, codegen.RuleSpelling{
		Comment: func(text string) string { return "# " + text },
		Message: func(user bool, n int, text string) string {
			return fmt.Sprintf("$hk_%s%d = %s", map[bool]string{true: "u", false: "a"}[user], n, Quote(text))
		},
	})

	pr := codegen.NewPrinter(&body)
	if !u.Dispatches() {
		if err := g.hook(pr, l.Hooks[0]); err != nil {
			return codegen.File{}, err
		}
	} else {
		for i, h := range l.Hooks {
			kw := "} elseif"
			if i == 0 {
				kw = "if"
			}
			pr.Line("%s ([string]::Equals($hk_event, %s, [StringComparison]::Ordinal)) {", kw, Quote(h.Arg))
			if err := g.hook(pr.In(), h); err != nil {
				return codegen.File{}, err
			}
		}
		pr.Line("} else {")
		pr.Line("  hk_warn 'expected the Cursor event name as the first argument'")
		pr.Line("  hk_say %s\n  exit 0\n}", Quote("{}\n"))
	}

	var keys strings.Builder
	var toolSlots []string
	for i, k := range l.Keys {
		table := "$hk_top"
		if k.ToolInput {
			table = "$hk_tool"
			toolSlots = append(toolSlots, fmt.Sprint(i+1))
		}
		fmt.Fprintf(&keys, "%s.Add(%s, %d)\n", table, Quote(k.Name), i+1)
	}
	var out strings.Builder
	out.WriteString(BOM)
	err := skeleton.Execute(&out, hookData{
		Header:    codegen.Header(u.Sources, opts.Flags),
		Events:    l.Events(),
		Twin:      u.Name + ".sh",
		Data:      data.String(),
		Keys:      keys.String(),
		ToolSlots: strings.Join(toolSlots, ", "),
		Patches:   strings.Join(patchSlots, ", "),
		Slots:     fmt.Sprint(len(l.Keys) + 1),
		Body:      strings.TrimRight(body.String(), "\n"),

		LastMessage: g.lastMessage,
		Table:       g.tables,
		WordTable:   wordTable(g.words),
		Live:        liveCheck(opts.Rules, l),
		PerRule:     opts.Rules != nil && opts.Rules.Entries != nil,
	})
	if err != nil {
		panic(err) // the template is static and its data are strings
	}
	return codegen.File{Path: l.Path("ps1"), Data: []byte(out.String()), Mode: 0o644}, nil
}

type gen struct {
	l    *codegen.Layout
	data *codegen.Data
	// lastMessage: a hook reads last_assistant_message (hk_lastmsg).
	lastMessage bool
	// tables: a regex runs as a table (hk_dfa).
	tables bool
	// words: a regex reads a rewritten value (hk_uw).
	words bool
	// note: the answers carry the note on stale rules (fresh.go).
	note bool
	// err is the first rule a test could not spell (test).
	err error
}

// psVar names the data section's variables.
func psVar(prefix string, n int) string { return fmt.Sprintf("$hk_%s%d", prefix, n) }

// lit adds a rule-derived string to the data section, in byte form, and
// returns its variable; the same string with the same prefix is added once.
func (g *gen) lit(prefix, s string) string {
	return g.data.Var(prefix, s, psVar, func(v, s string) string { return v + " = hk_b " + Quote(s) })
}

// regex adds the .NET form of an ERE to the data section.
func (g *gen) regex(cd ir.ResolvedCondition) (string, error) {
	net, err := DotNetRegex(cd.ERE)
	if err != nil {
		return "", &diag.Diagnostic{Pos: cd.PatternPos, Code: diag.PowerShell, Msg: fmt.Sprintf("the regex cannot be run by PowerShell: its translation %q: %v", cd.ERE, err)}
	}
	return g.data.Var("re", net, psVar, func(v, net string) string {
		return v + " = [System.Text.RegularExpressions.Regex]::new(" + Quote(net) + ", [System.Text.RegularExpressions.RegexOptions]::CultureInvariant, [TimeSpan]::new(0, 0, 10))"
	}), nil
}

// table adds the table of cd's ERE to the data section and returns its
// variable, or "" when the ERE runs as a .NET regex. The decision is
// pyre.TableFor's, as in the Unix hook: the same table runs, by hk_dfa, in
// both twins, as .NET's engine backtracks on the same shapes as mawk's and
// busybox's.
func (g *gen) table(cd ir.ResolvedCondition) string {
	t, ok := pyre.TableFor(cd.ERE)
	if !ok {
		return ""
	}
	g.tables = true
	return g.data.Var("d", cd.ERE, psVar, func(v, _ string) string {
		return v + " = " + TableLiteral(t)
	})
}

// rewrite adds the rewrite of words (pyre.Rewrite) to the data section and
// returns its variable.
func (g *gen) rewrite(words string) string {
	g.words = true
	return g.data.Var("u", words, psVar, func(v, w string) string {
		return v + " = @{ s = " + Quote(w) + "; K = $null; N = $null }"
	})
}

// wordTable is the skeleton's $hk_wtab (pyre.WordTable) where a regex reads
// a rewritten value, else "".
func wordTable(words bool) string {
	if !words {
		return ""
	}
	return Quote(pyre.WordTable())
}

// TableLiteral is the PowerShell hashtable that hk_dfa runs t from: the
// three strings of t.AWKData, and C, T and E, which hk_dfa decodes them
// into at its first call.
func TableLiteral(t *pyre.Table) string {
	cs, next, ends := t.AWKData()
	return fmt.Sprintf("@{ cs = %s; ts = %s; es = %s; C = $null; T = $null; E = $null }", Quote(cs), Quote(next), Quote(ends))
}

func (g *gen) hook(pr *codegen.Printer, h *codegen.HookLayout) error {
	p := pr.Line
	if slot := g.l.Key(ir.ToolInputKey); slot != 0 && h.ReadsToolString() {
		// The tool's arguments from a string tool_input (docs/mcp.md):
		// text that is not one JSON object leaves the hook unable to
		// decide.
		p(`if ($hk_ok) { try { $hk_ok = hk_read_tool %d } catch { $hk_ok = $false } }`, slot)
	}
	p(`if (-not $hk_ok) {`)
	p(`  hk_warn 'cannot parse the hook payload as one JSON object'`)
	answer(pr.In(), h.Fail, "", "")
	p(`}`)
	// Everything else runs in a try block: an unexpected error (a regex
	// that times out, say) gives the answer of an unreadable payload.
	p(`try {`)
	inner := pr.In()
	q := inner.Line

	g.transcripts(inner, h.Transcripts)

	// Only the answers a hook can reach are written (as in the Unix
	// hook): block messages if it holds a block rule, warn messages if
	// it holds a warn rule.
	for _, l := range []struct {
		on    bool
		names string
	}{{h.Blocks, "bu ba"}, {h.Warns, "wu wa"}} {
		if l.on {
			for _, n := range strings.Fields(l.names) {
				q(`$hk_%s = [System.Collections.Generic.List[string]]::new()`, n)
			}
		}
	}
	for _, c := range h.Formula {
		if err := g.check(inner, c); err != nil {
			return err
		}
	}
	codegen.PrintAnswers(inner, h.Outcomes(g.note), answers)
	p(`} catch {`)
	p(`  hk_warn ('cannot evaluate the rules: ' + $_.Exception.Message)`)
	answer(pr.In(), h.Fail, "", "")
	p(`}`)
	return nil
}

// answers is how the PowerShell script spells the end of a hook: the
// lists hk_bu and hk_ba (hk_wu and hk_wa) hold the messages of the rules
// that blocked (warned), hk_note the note on stale rules and hk_nj its
// text.
var answers = codegen.AnswerSpelling{
	Branches: map[codegen.OutcomeKind]codegen.Branch{
		codegen.Blocked: {Taken: "$hk_bu.Count -gt 0", User: "[string]::Join($hk_sep, $hk_bu.ToArray())", Agent: "[string]::Join($hk_sep, $hk_ba.ToArray())", NoteTo: [2]string{"hk_bu", "hk_ba"}},
		codegen.Warned:  {Taken: "$hk_wu.Count -gt 0", User: "[string]::Join($hk_sep, $hk_wu.ToArray())", Agent: "[string]::Join($hk_sep, $hk_wa.ToArray())", NoteTo: [2]string{"hk_wu", "hk_wa"}},
		codegen.Noted:   {Taken: "$hk_note -ne ''", User: "$hk_nj", Agent: "$hk_nj"},
	},
	Answer:   answer,
	JoinNote: joinNote,
}

// answer prints a and exits with its code. The fixed JSON pieces are
// literals; message texts come from variables.
func answer(pr *codegen.Printer, a ir.Answer, user, agent string) {
	if a.Empty {
		pr.Line("exit %d", a.Exit)
		return
	}
	parts := codegen.SplitAnswer(a).Parts(Quote, user, agent)
	arg := strings.Join(parts, " + ")
	if len(parts) > 1 || !strings.HasPrefix(arg, "(") {
		arg = "(" + arg + ")"
	}
	pr.Line("hk_say %s", arg)
	pr.Line("exit %d", a.Exit)
}

// check prints c: a comment line naming its rule and an if statement that
// records the rule's messages when it holds.
func (g *gen) check(pr *codegen.Printer, c codegen.Check) error {
	when := codegen.Spell(c.When, g.spelling())
	if g.err != nil {
		return g.err
	}
	if when == "" {
		when = "$true"
	}
	pr.Line(`# %s`, codegen.Comment(c.Rule.Name))
	pr.Line(`if (%s) {`, when)
	list := "w"
	if c.Rule.Action == ir.Block {
		list = "b"
	}
	pr.Line(`  $hk_%su.Add($hk_u%d); $hk_%sa.Add($hk_a%d)`, list, c.Num, list, c.Num)
	pr.Line(`}`)
	return nil
}

// transcripts reads the texts of ts from the transcript file, read once
// (hk_transcript), into $hk_t1, $hk_t2, ...
func (g *gen) transcripts(pr *codegen.Printer, ts []codegen.Transcript) {
	for i, t := range ts {
		if i == 0 {
			pr.Line(`$hk_tx = hk_transcript (hk_text $hk_v[%d])`, g.l.Key(ir.TranscriptKey))
		}
		if t.LastAssistant {
			pr.Line(`$hk_t%d = hk_lastmsg $hk_tx`, i+1)
			g.lastMessage = true
		} else {
			pr.Line(`$hk_t%d = $hk_tx`, i+1)
		}
	}
}

// ref is where v is read: a transcript text, the key's value, or in the
// view of one file of a patch ($w, see hk_patch) the file's part; $null
// when the key is not set.
func ref(v codegen.Value) string {
	switch {
	case v.Transcript != 0:
		return fmt.Sprintf("$hk_t%d", v.Transcript)
	case v.View != 0:
		return fmt.Sprintf("$w['%c']", v.View)
	}
	return fmt.Sprintf("$hk_v[%d]", v.Key)
}

// value is how tests read v: a default's $null reads as ”.
func value(v codegen.Value) string {
	if v.Default {
		return "(hk_s " + ref(v) + ")"
	}
	return ref(v)
}

// spelling spells the check formula as PowerShell tests (codegen.Spell):
// "" for a node that always holds.
func (g *gen) spelling() codegen.Spelling[string] {
	return codegen.Spelling[string]{All: all, OneOf: oneOf, InSomeView: inSomeView, Present: present, ToolIs: toolIs, Test: g.test}
}

// all joins tests with -and, in order.
func all(tests []string) string {
	return strings.Join(slices.DeleteFunc(tests, func(t string) bool { return t == "" }), " -and ")
}

// oneOf joins tests with -or (codegen.AnyOf).
func oneOf(tests []string) string { return codegen.AnyOf(tests, "(", " -or ", ")") }

// inSomeView tries test in each view of a patch (hk_any).
func inSomeView(test string) string {
	if test == "" {
		test = "$true"
	}
	return "(hk_any { param($w) " + test + " })"
}

// present tests that p's candidate applies.
func present(p codegen.Present) string {
	if len(p.OrNoneOf) == 0 {
		return fmt.Sprintf(`($null -ne %s)`, ref(p.Val))
	}
	var others []string
	for _, v := range p.OrNoneOf {
		others = append(others, fmt.Sprintf(`($null -eq %s)`, ref(v)))
	}
	return fmt.Sprintf(`(($null -ne %s) -or (%s))`, ref(p.Val), strings.Join(others, " -and "))
}

// toolIs re-checks the tool when the payload names one.
func toolIs(t codegen.ToolIs) string {
	var tools []string
	for _, tool := range t.Tools {
		tools = append(tools, Quote(tool))
	}
	return fmt.Sprintf(`(hk_tool_in $hk_v[%d] @(%s))`, t.Key, strings.Join(tools, ", "))
}

// test is the test of leaf's condition on its value; a condition that
// PowerShell cannot run sets g.err. Each test kind of ir.OpSpec is one
// case.
func (g *gen) test(leaf codegen.Test) string {
	cd, val := leaf.Cond, value(leaf.Val)
	if !cd.Op.IsRegex() && !utf8.ValidString(cd.Pattern) {
		return g.fail(&diag.Diagnostic{Pos: cd.PatternPos, Code: diag.PowerShell, Msg: "the pattern is not valid UTF-8"})
	}
	neg := cd.Op.Spec().Negated
	var t string
	switch cd.Op.Spec().Test {
	case ir.TestRegex:
		if cd.Words != "" {
			// The ERE reads the value rewritten (pyre.Rewrite).
			val = fmt.Sprintf(`(hk_uw %s %s)`, g.rewrite(cd.Words), val)
		}
		if d := g.table(cd); d != "" {
			t = fmt.Sprintf(`(hk_dfa %s %s)`, d, val)
			break
		}
		re, err := g.regex(cd)
		if err != nil {
			return g.fail(err)
		}
		t = fmt.Sprintf(`%s.IsMatch(%s)`, re, val)
	case ir.TestContains:
		// IndexOf's sign is the test, so a negation flips the comparison.
		cmp := "-ge"
		if neg {
			cmp, neg = "-lt", false
		}
		return fmt.Sprintf(`(%s.IndexOf(%s, [StringComparison]::Ordinal) %s 0)`, val, g.lit("p", cd.Pattern), cmp)
	case ir.TestEquals:
		t = fmt.Sprintf(`[string]::Equals(%s, %s, [StringComparison]::Ordinal)`, val, g.lit("p", cd.Pattern))
	case ir.TestPrefix:
		t = fmt.Sprintf(`%s.StartsWith(%s, [StringComparison]::Ordinal)`, val, g.lit("p", cd.Pattern))
	case ir.TestSuffix:
		t = fmt.Sprintf(`%s.EndsWith(%s, [StringComparison]::Ordinal)`, val, g.lit("p", cd.Pattern))
	default:
		panic("powershell: unknown operator " + cd.Op.String())
	}
	if neg {
		return "(-not " + t + ")"
	}
	return t
}

// fail keeps err if it is the first, and returns "".
func (g *gen) fail(err error) string {
	if g.err == nil {
		g.err = err
	}
	return ""
}
