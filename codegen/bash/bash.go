// Package bash emits POSIX sh and one awk program: the Unix hook of one
// unit of a plan, a sh wrapper that execs the program (docs/runtime.md).
// It keeps its name from the bash scripts it once wrote; no bash runs.
//
// The program decodes the payload with templates/decode.awk, resolves the
// fields, runs the checks of its hook in file order (the check formula of
// codegen.Layout, spelled as awk tests by spelling: index for literals and
// needles, string comparison for equals, prefixes and suffixes, and the
// EREs that lowering made, in the awk form this package has pyre.AWK write,
// as dynamic strings that an awk compiles only when a test reaches them),
// and prints the answer that ir.AnswerFor describes. All rule text goes
// through AwkString; no printf format holds it.
package bash

import (
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/codegen/awkquote"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/pyre"
	"github.com/hookify/hookify/templates"
)

var (
	wrapper = template.Must(template.New("hook.sh").Option("missingkey=error").Parse(templates.UnixHook))
	program = template.Must(template.New("hook.awk").Option("missingkey=error").Parse(templates.HookAWK))
)

// Decoder, PatchReader and NoPatchReader are the awk texts of the payload
// reader as they stand in programs, without their comment lines (their
// contracts): templates/decode.awk, the JSON decoder, then patch.awk, the
// apply_patch reader, in the programs that read patches, else nopatch.awk.
// They hold no single quote.
var (
	Decoder       = awkText("decode.awk", templates.DecodeAWK)
	PatchReader   = awkText("patch.awk", templates.PatchAWK)
	NoPatchReader = awkText("nopatch.awk", templates.NoPatchAWK)
	// TableAWK is templates/table.awk, the table matcher (hk_dfa), in
	// the programs that run a table.
	TableAWK = awkText("table.awk", templates.TableAWK) + "\n"
	// WordsAWK is templates/words.awk, the rewrite for Python's Unicode
	// \w \d \b (hk_uw), in the programs whose regexes read them.
	WordsAWK = awkText("words.awk", templates.WordsAWK) + "\n"
)

func awkText(name, text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		lines = append(lines, l)
	}
	s := strings.Join(lines, "\n")
	if strings.Contains(s, "'") {
		panic("templates/" + name + " must not contain a single quote")
	}
	return s
}

// reader is the payload reader of a program: the decoder, then the patch
// reader or its stand-in.
func reader(patches bool) string {
	if patches {
		return Decoder + "\n" + PatchReader
	}
	return Decoder + "\n" + NoPatchReader
}

// maxBlock is the most statements a generated block holds (see blocks).
const maxBlock = 100

// blocks returns the statements of data, a BEGIN block's lines, as BEGIN
// blocks of at most maxBlock statements (comment lines aside): BWK awk
// parses a block of n statements in n*n/2 steps (see hook).
func blocks(data string) string {
	var b strings.Builder
	n := 0
	for _, l := range strings.SplitAfter(data, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			if n == maxBlock {
				b.WriteString("}\nBEGIN {\n")
				n = 0
			}
			n++
		}
		b.WriteString(l)
	}
	return b.String()
}

// maxInline is the size of the largest program a wrapper passes to awk as
// an argument; a larger one goes in a file beside the script. Linux refuses
// a single argument over 131071 bytes (MAX_ARG_STRLEN, docs/awk-engines.md
// §6), and well below that an inline program costs more than a file: the
// shell parses the quoted text at about 8 ns a byte (dash: 0.5-1 ms for
// 114 KB) before execve copies it, where awk reads a file in a few reads.
const maxInline = 32 << 10

// Options are the answer choices that are not part of the plan.
type Options struct {
	Warn ir.WarnMode
	// Flags are the build flags the header records (codegen.Header).
	Flags string
	// Rules, when set, are the rule files the hook checks at each call
	// (fresh.go).
	Rules *codegen.RuleFiles
}

// wrapperData fills templates/hook.sh.tmpl.
type wrapperData struct {
	Header, Events, Choose, Fresh, File, Args, Program string
}

// programData fills templates/hook.awk.tmpl.
type programData struct {
	Wanted, Data, Decoder, Body string
	Patches, Transcript         bool
	LastMessage                 bool
}

// Generate returns the files of u's Unix hook: the script at
// .cursor/hooks/<u.Name>.sh and, when its program is longer than
// maxInline, the program at .cursor/hooks/<u.Name>.awk.
func Generate(u *ir.Unit, opts Options) []codegen.File {
	// dec_input fills the tool_input members as one run of numbers: last.
	l := codegen.NewLayout(u, opts.Warn, true)
	var data, body, funcs strings.Builder
	g := &gen{l: l, reNum: map[string]int{}, funcs: &funcs, note: opts.Rules != nil}
	g.awk, g.tables, g.intervals = awkForms(u)
	fmt.Fprintf(&data, "  hk_sep = %s\n", AwkString(`\n\n`))
	if g.note {
		data.WriteString(noteData)
		funcs.WriteString(noteFunc)
	}
	if u.Dispatches() {
		data.WriteString("  hk_ev = ARGV[1]; ARGV[1] = \"\"\n")
	}
	l.RuleData(&data, codegen.RuleSpelling{
		Comment: func(text string) string { return "  # " + strings.ReplaceAll(text, "'", "?") },
		Message: func(user bool, n int, text string) string {
			return fmt.Sprintf("  hk_%s[%d] = %s", map[bool]string{true: "U", false: "A"}[user], n, AwkString(text))
		},
	})

	pr := codegen.NewPrinter(&body)
	pr.Line("function hook() {")
	if !u.Dispatches() {
		g.hook(pr.In(), l.Hooks[0])
		pr.Line("}")
	} else {
		for i, h := range l.Hooks {
			pr.Line("  if (hk_ev == %s) hk_hook%d()", AwkString(h.Arg), i+1)
		}
		pr.Line("  print \"hookify: expected the Cursor event name as the first argument\\n\" > \"/dev/stderr\"")
		pr.Line("  print \"{}\\n\"")
		pr.Line("}")
		for i, h := range l.Hooks {
			pr.Line("function hk_hook%d() {", i+1)
			g.hook(pr.In(), h)
			pr.Line("}")
		}
	}
	data.WriteString(regexData(g.res))
	if g.intervals {
		// An ERE keeps an interval that no interval-free form could stand
		// for (pyre.AWK): the program checks its awk's engine first.
		data.WriteString("  hk_noiv = \"aa\" !~ \"^a{2}$\"\n")
	}
	body.WriteString(funcs.String())

	var wanted []string
	for _, k := range l.Keys {
		wanted = append(wanted, k.String())
	}
	patches := slices.ContainsFunc(u.Hooks, (*ir.Hook).ReadsPatches)
	var prog strings.Builder
	err := program.Execute(&prog, programData{
		Wanted: AwkString(strings.Join(wanted, " ")), Patches: patches, Transcript: g.transcript, LastMessage: g.lastMessage,
		Data: blocks(data.String()), Decoder: reader(patches), Body: strings.TrimRight(body.String(), "\n"),
	})
	if err != nil {
		panic(err) // the template is static and its data are strings
	}

	header := codegen.Header(u.Sources, opts.Flags)
	w := wrapperData{Header: header, Events: l.Events(), Choose: choose(g.intervals), Fresh: freshCheck(opts.Rules, l)}
	if u.Dispatches() {
		w.Args = ` "${1-}"`
	}
	var files []codegen.File
	if p := prog.String(); len(p) <= maxInline {
		if strings.Contains(p, "'") {
			panic("bash: a single quote in an inline awk program") // AwkString and comment never write one
		}
		w.Program = p
	} else {
		// In a file of its own, the program starts with the header.
		w.File = u.Name + ".awk"
		files = append(files, codegen.File{Path: l.Path("awk"), Data: []byte("# " + header + "\n" + p), Mode: 0o644})
	}
	var out strings.Builder
	if err := wrapper.Execute(&out, w); err != nil {
		panic(err)
	}
	return append([]codegen.File{{Path: l.Path("sh"), Data: []byte(out.String()), Mode: 0o755}}, files...)
}

// choose is the wrapper's choice of an awk: mawk where it is installed (it
// starts in half the time gawk takes), else awk; with intervals, gawk where
// it is installed (Debian 12's mawk lacks intervals), else awk.
func choose(intervals bool) string {
	if intervals {
		return "hk_awk=awk\ncommand -v gawk >/dev/null 2>&1 && hk_awk=gawk"
	}
	return "hk_awk=awk\ncommand -v mawk >/dev/null 2>&1 && hk_awk=mawk"
}

// AwkString is s as an awk string literal (awkquote.String): the one way
// rule text enters a program.
func AwkString(s string) string { return awkquote.String(s) }

// comment makes s safe for an awk comment inside the wrapper's single
// quotes.
func comment(s string) string { return strings.ReplaceAll(codegen.Comment(s), "'", "?") }

type gen struct {
	l          *codegen.Layout
	res        []pyre.AWKForm   // the regexes, in the order of hk_r
	reNum      map[string]int   // the number of each regex in hk_r
	funcs      *strings.Builder // functions after hook()
	nfunc      int
	awk        map[string]pyre.AWKForm // the awk form of each ERE (awkForms)
	tables     map[string]*pyre.Table  // the table of each ERE that runs as one (awkForms)
	tableNum   map[string]int          // the number of each table (hk_d<n>)
	wordsNum   map[string]int          // the number of each rewrite (hk_u<n>)
	intervals  bool                    // some ERE of the unit needs an awk with intervals
	transcript bool                    // a hook reads the transcript (hk_tread)
	// lastMessage: a hook reads last_assistant_message (hk_lastmsg).
	lastMessage bool
	// note: the answers carry the note on stale rules (fresh.go).
	note bool
}

// awkForms returns the awk form of the ERE of each regex condition of u
// (pyre.AWK: intervals written out where they can be), or its table where
// mawk and busybox awk could take more than linear time on the ERE
// (pyre.TableFor; docs/awk-engines.md §14), and whether an
// awk form keeps an interval: u's program then needs an awk that has
// intervals, which Debian 12's mawk lacks.
func awkForms(u *ir.Unit) (forms map[string]pyre.AWKForm, tables map[string]*pyre.Table, intervals bool) {
	forms, tables = map[string]pyre.AWKForm{}, map[string]*pyre.Table{}
	for _, h := range u.Hooks {
		for _, c := range h.Checks {
			for _, cd := range c.AllConds() {
				if cd.Op.Spec().Test != ir.TestRegex {
					continue
				}
				if _, ok := forms[cd.ERE]; ok {
					continue
				}
				if _, ok := tables[cd.ERE]; ok {
					continue
				}
				if t, ok := pyre.TableFor(cd.ERE); ok {
					tables[cd.ERE] = t
					continue
				}
				f, err := pyre.AWK(cd.ERE)
				if err != nil {
					panic("bash: " + err.Error()) // lowering refuses it (pyre.CheckAWK)
				}
				forms[cd.ERE], intervals = f, intervals || f.Intervals
			}
		}
	}
	return forms, tables, intervals
}

// KeepsIntervals reports whether a regex of u keeps an interval in its awk
// form (awkForms): u's hook then runs gawk where it is installed, and
// answers as on an unreadable payload under an awk without intervals.
func KeepsIntervals(u *ir.Unit) bool {
	_, _, iv := awkForms(u)
	return iv
}

// table returns the name of the function that runs t, the table of ere:
// templates/table.awk's hk_dfa with t's own arrays and strings. It adds
// the function, and table.awk's with the first table, after hook().
func (g *gen) table(ere string, t *pyre.Table) string {
	if g.tableNum == nil {
		g.tableNum = map[string]int{}
		g.funcs.WriteString(TableAWK)
	}
	n, ok := g.tableNum[ere]
	if !ok {
		n = len(g.tableNum) + 1
		g.tableNum[ere] = n
		cs, next, ends := t.AWKData()
		fmt.Fprintf(g.funcs, "function hk_d%d(v) { return hk_dfa(v, hk_T%d, hk_C%d, hk_E%d, %s, %s, %s) }\n",
			n, n, n, n, AwkString(cs), AwkString(next), AwkString(ends))
	}
	return fmt.Sprintf("hk_d%d", n)
}

// words returns the call that rewrites val for a regex whose words are w
// (pyre.Rewrite; templates/words.awk's hk_uw with the rewrite's own arrays
// and words): hk_u<n>. It adds the function, and words.awk's with the
// table of the kinds of characters (pyre.WordTable) with the first.
func (g *gen) words(w, val string) string {
	if g.wordsNum == nil {
		g.wordsNum = map[string]int{}
		g.funcs.WriteString(WordsAWK)
		fmt.Fprintf(g.funcs, "function hk_wtab() { return %s }\n", AwkString(pyre.WordTable()))
	}
	n, ok := g.wordsNum[w]
	if !ok {
		n = len(g.wordsNum) + 1
		g.wordsNum[w] = n
		fmt.Fprintf(g.funcs, "function hk_u%d(v) { return hk_uw(v, hk_K%d, hk_N%d, %s) }\n", n, n, n, AwkString(w))
	}
	return fmt.Sprintf(`hk_u%d(%s "")`, n, val)
}

// re returns the element of hk_r that holds the awk form of cd's regex.
func (g *gen) re(cd ir.ResolvedCondition) string {
	f := g.awk[cd.ERE]
	n, ok := g.reNum[f.Text]
	if !ok {
		g.res = append(g.res, f)
		n = len(g.res)
		g.reNum[f.Text] = n
	}
	return fmt.Sprintf("hk_r[%d]", n)
}

// hook prints h's hook: the refusal of a payload that decode.awk could not
// read (OK is 0), the checks of h.Formula in order, then the answer.
func (g *gen) hook(pr *codegen.Printer, h *codegen.HookLayout) {
	p := pr.Line
	if slot := g.l.Key(ir.ToolInputKey); slot != 0 && h.ReadsToolString() {
		// On beforeMCPExecution a string tool_input holds the tool's
		// arguments as JSON text (docs/mcp.md): the tool_input members,
		// the last keys, are read from it; text that is not one JSON
		// object sets OK to 0.
		var names []string
		for _, k := range g.l.Keys {
			if k.ToolInput {
				names = append(names, k.Name)
			}
		}
		if len(names) > 0 {
			p(`if (OK && (%d in V)) dec_input(V[%d], %s, %d)`, slot, slot, AwkString(strings.Join(names, " ")), len(g.l.Keys)-len(names))
		}
	}
	if g.intervals {
		p(`if (hk_noiv) {`)
		pr.In().Line(`print "hookify: the regexes of this hook need an awk with intervals ({n,m}): install gawk, or mawk 1.3.4-20200724 or later\n" > "/dev/stderr"`)
		answer(pr.In(), h.Fail, "", "")
		p(`}`)
	}
	// A payload that could not be read.
	p(`if (!OK) {`)
	pr.In().Line(`print "hookify: cannot parse the hook payload as one JSON object\n" > "/dev/stderr"`)
	answer(pr.In(), h.Fail, "", "")
	p(`}`)
	p(`for (hk_k in V) SET[hk_k] = 1`)
	if h.ReadsPatches() {
		p(`for (hk_k in X) XS[hk_k] = 1`)
	}

	g.transcripts(pr, h.Transcripts)

	p(`hk_b = hk_w = 0; hk_bu = hk_ba = hk_wu = hk_wa = ""`)
	var checks []string // each a comment line and an if statement
	for _, c := range h.Formula {
		checks = append(checks, g.check(c))
	}
	// BWK awk links each statement of a block to the list before it by
	// walking that list, so a block of n statements costs n*n/2 steps to
	// parse (30 ms for 4,000): long runs of checks go in functions of at
	// most maxBlock checks, called in order.
	emit := func(pr *codegen.Printer, checks []string) {
		for _, c := range checks {
			for _, l := range strings.Split(c, "\n") {
				pr.Line("%s", l)
			}
		}
	}
	if len(checks) <= maxBlock {
		emit(pr, checks)
	}
	for i := 0; len(checks) > maxBlock && i < len(checks); i += maxBlock {
		g.nfunc++
		p(`hk_checks%d()`, g.nfunc)
		fp := codegen.NewPrinter(g.funcs)
		fp.Line("function hk_checks%d() {", g.nfunc)
		emit(fp.In(), checks[i:min(i+maxBlock, len(checks))])
		fp.Line("}")
	}
	codegen.PrintAnswers(pr, h.Outcomes(g.note), answers)
}

// answers is how the awk program spells the end of a hook: hk_b and hk_w
// say that a rule blocked or warned, hk_bu, hk_ba, hk_wu and hk_wa hold
// their messages, hk_st the note on stale rules.
var answers = codegen.AnswerSpelling{
	Branches: map[codegen.OutcomeKind]codegen.Branch{
		codegen.Blocked: {Taken: "hk_b", User: "hk_bu", Agent: "hk_ba", NoteTo: [2]string{"hk_bu", "hk_ba"}},
		codegen.Warned:  {Taken: "hk_w", User: "hk_wu", Agent: "hk_wa", NoteTo: [2]string{"hk_wu", "hk_wa"}},
		codegen.Noted:   {Taken: `hk_st != ""`, User: "hk_st", Agent: "hk_st"},
	},
	Answer:   answer,
	JoinNote: joinNote,
}

// viewFunc adds a function that tells whether test holds in the view of
// some file of a patch, and returns its name.
func (g *gen) viewFunc(test string) string {
	g.nfunc++
	name := fmt.Sprintf("hk_view%d", g.nfunc)
	fmt.Fprintf(g.funcs, "function %s(   hk_j) {\n  for (hk_j = 1; hk_j <= NV; hk_j++) if (%s) return 1\n  return 0\n}\n", name, test)
	return name
}

// answer prints a (nothing for an Empty one) and exits with its code, in
// one awk line. Only fixed JSON pieces are literals; message texts come
// from variables.
func answer(pr *codegen.Printer, a ir.Answer, user, agent string) {
	print := ""
	if !a.Empty {
		print = "print " + strings.Join(codegen.SplitAnswer(a).Parts(AwkString, user, agent), " ") + "; "
	}
	pr.Line("%sexit %d", print, a.Exit)
}

// check is c as a comment line naming its rule and an if statement that
// records the rule when it holds.
func (g *gen) check(c codegen.Check) string {
	when := join(codegen.Spell(c.When, g.spelling()))
	if when == "" {
		when = "1"
	}
	verb := "hk_warn"
	if c.Rule.Action == ir.Block {
		verb = "hk_block"
	}
	return fmt.Sprintf("# %s\nif (%s) %s(%d)", comment(c.Rule.Name), when, verb, c.Num)
}

// transcripts reads the texts of ts from the transcript file, read once
// (hk_tread), into V["t1"], V["t2"], ...
func (g *gen) transcripts(pr *codegen.Printer, ts []codegen.Transcript) {
	for i, t := range ts {
		if i == 0 {
			pr.Line(`hk_tp = V[%d]; if (hk_tp == "") hk_tp = ENVIRON[%s]`, g.l.Key(ir.TranscriptKey), AwkString(ir.TranscriptEnv))
			pr.Line(`hk_tread(hk_tp)`)
			g.transcript = true
		}
		if t.LastAssistant {
			pr.Line(`V[%s] = hk_lastmsg()`, transcriptSlot(i+1))
			g.lastMessage = true
		} else {
			pr.Line(`V[%s] = hk_tj(HT, 1, HN)`, transcriptSlot(i+1))
		}
	}
}

// The awk state that the tests read, from templates/decode.awk: V[i] (the
// value of key i), X[j, i] (key i in view j of a patch), NV (the number of
// views). SET and XS hold which elements were set when the checks began:
// reading V[i] or X[j, i] creates an element. A transcript text is
// V["tN"]. In a view's function (viewFunc), the view is hk_j.

// transcriptSlot is the element of V that holds transcript text n.
func transcriptSlot(n int) string { return fmt.Sprintf(`"t%d"`, n) }

// slot is v's element in decode.awk's arrays: V[i], or X[i] in a view of
// a patch.
func slot(v codegen.Value) (view bool, i string) {
	switch {
	case v.Transcript != 0:
		return false, transcriptSlot(v.Transcript)
	case v.View != 0:
		return true, fmt.Sprintf("hk_j, %d", v.Key)
	}
	return false, fmt.Sprint(v.Key)
}

// value is the awk expression of v.
func value(v codegen.Value) string {
	view, i := slot(v)
	if view {
		return "X[" + i + "]"
	}
	return "V[" + i + "]"
}

// set is the test that v's key was set.
func set(v codegen.Value) string {
	view, i := slot(v)
	if view {
		return "XS[" + i + "]"
	}
	return "SET[" + i + "]"
}

// lower is the expression of v in lower case, computed once per value
// (hk_lc, hk_lcx).
func lower(v codegen.Value) string {
	view, i := slot(v)
	if view {
		return "hk_lcx(" + i + ")"
	}
	return "hk_lc(" + i + ")"
}

// spelling spells the check formula as awk tests (codegen.Spell). A
// node's spelling is its tests, all of which must hold: none when it
// always holds.
func (g *gen) spelling() codegen.Spelling[[]test] {
	return codegen.Spelling[[]test]{All: all, OneOf: oneOf, InSomeView: g.inSomeView, Present: present, ToolIs: toolIs, Test: g.test}
}

// join is the one awk expression of tests, "" when there are none.
func join(tests []test) string {
	var ts []string
	for _, t := range tests {
		ts = append(ts, t.text)
	}
	return strings.Join(ts, " && ")
}

// node is a test that is not a leaf's, "" (none) when it always holds.
func node(text string) []test {
	if text == "" {
		return nil
	}
	return []test{{costNode, text}}
}

// all joins the tests of nodes with &&. The tests are pure, so those of
// the leaves run in the order that stops soonest at least cost (see the
// costs below), each once; other nodes follow in order.
func all(nodes [][]test) []test {
	var tests [costNode + 1][]string
	for _, t := range slices.Concat(nodes...) {
		if t.cost == costNode || !slices.ContainsFunc(tests[:costNode], func(ts []string) bool { return slices.Contains(ts, t.text) }) {
			tests[t.cost] = append(tests[t.cost], t.text)
		}
	}
	return node(strings.Join(slices.Concat(tests[:]...), " && "))
}

// oneOf joins the tests of nodes with || (codegen.AnyOf).
func oneOf(nodes [][]test) []test {
	var alts []string
	for _, n := range nodes {
		alts = append(alts, join(n))
	}
	return node(codegen.AnyOf(alts, "(", " || ", ")"))
}

// inSomeView calls a function that tries tests in each view of a patch.
func (g *gen) inSomeView(tests []test) []test {
	t := join(tests)
	if t == "" {
		t = "1"
	}
	return node(g.viewFunc(t) + "()")
}

// present tests that p's candidate applies.
func present(p codegen.Present) []test {
	t := set(p.Val)
	if len(p.OrNoneOf) > 0 {
		var others []string
		for _, v := range p.OrNoneOf {
			others = append(others, set(v))
		}
		t = fmt.Sprintf("(%s || !(%s))", t, strings.Join(others, " || "))
	}
	return []test{{costPresence, t}}
}

// toolIs re-checks the tool when the payload names one.
func toolIs(t codegen.ToolIs) []test {
	alts := []string{fmt.Sprintf("V[%d] == \"\"", t.Key)}
	for _, tool := range t.Tools {
		alts = append(alts, fmt.Sprintf("V[%d] == %s", t.Key, AwkString(tool)))
	}
	return []test{{costPresence, "(" + strings.Join(alts, " || ") + ")"}}
}

// A test is one awk test of a condition, and its place in the order.
type test struct {
	cost int
	text string
}

// The places of tests in a check, first to last.
const (
	costPresence = iota // the tool name, whether a field is there
	costCompare         // equals, starts_with, ends_with: one comparison
	costLiteral         // contains, and the needle of a regex
	costRegex           // a regex: compiled the first time a test reaches it
	costNegated         // not_*: they exclude exceptions, so they seldom fail
	costNode            // a node that is not a leaf: after the leaves, in order
)

// test returns the awk tests that decide t's condition on its value; all
// of them must hold. Each test kind of ir.OpSpec is one case.
func (g *gen) test(t codegen.Test) []test {
	cd := t.Cond
	neg := cd.Op.Spec().Negated
	val := value(t.Val)
	switch cd.Op.Spec().Test {
	case ir.TestRegex:
		// A regex with a needle (a literal every match contains) first looks
		// for the needle, which index finds much faster than a regex with
		// classes and alternatives runs, and runs the regex only where it
		// is. A needle's letters stand for either case.
		var full string
		rv := val // the value the ERE reads
		if cd.Words != "" {
			rv = g.words(cd.Words, val)
		}
		if t := g.tables[cd.ERE]; t != nil {
			// mawk and busybox awk could backtrack on the ERE for more
			// than linear time: the table of its automaton runs instead.
			// The value is passed as a string: gawk 5.2 leaves an array
			// element that a call created (the key was not set) in a
			// state that the next call taking it fails on ("unexpected
			// parameter type Node_illegal").
			full = fmt.Sprintf(`%s(%s "")`, g.table(cd.ERE, t), rv)
		} else {
			full = fmt.Sprintf(`%s ~ %s`, rv, g.re(cd))
		}
		needle := ""
		if cd.Needle != "" {
			v := val
			if strings.ToUpper(cd.Needle) != cd.Needle {
				v = lower(t.Val)
			}
			needle = fmt.Sprintf(`index(%s, %s)`, v, AwkString(cd.Needle))
		}
		switch {
		case neg && needle != "":
			return []test{{costNegated, "!(" + needle + " && " + full + ")"}}
		case neg:
			return []test{{costNegated, "!(" + full + ")"}}
		case needle != "":
			return []test{{costLiteral, needle}, {costRegex, full}}
		}
		return []test{{costRegex, "(" + full + ")"}}
	case ir.TestContains:
		// "" is in every value.
		if cd.Pattern == "" {
			if neg {
				return []test{{costNegated, "0"}}
			}
			return nil
		}
		t := fmt.Sprintf(`index(%s, %s)`, val, AwkString(cd.Pattern))
		if neg {
			return []test{{costNegated, "!" + t}}
		}
		return []test{{costLiteral, t}}
	}
	if neg {
		return []test{{costNegated, "!" + compare(cd, val)}}
	}
	return []test{{costCompare, compare(cd, val)}}
}

// compare is the string comparison of an equals, prefix or suffix test,
// before negation.
func compare(cd ir.ResolvedCondition, val string) string {
	lit, n := AwkString(cd.Pattern), len(cd.Pattern)
	switch cd.Op.Spec().Test {
	case ir.TestEquals:
		return fmt.Sprintf(`(%s == %s)`, val, lit)
	case ir.TestPrefix:
		return fmt.Sprintf(`(substr(%s, 1, %d) == %s)`, val, n, lit)
	case ir.TestSuffix:
		return fmt.Sprintf(`(length(%s) >= %d && substr(%[1]s, length(%[1]s) - %[2]d + 1) == %s)`, val, n, lit)
	}
	panic("bash: unknown operator " + cd.Op.String())
}
