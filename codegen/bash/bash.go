// Package bash generates the Unix hook of one unit of a plan: a POSIX sh
// wrapper that execs one awk program (docs/runtime.md).
//
// The program decodes the payload with templates/decode.awk, resolves the
// fields, runs the checks of its hook in file order with awk tests only
// (index for literals and needles, string comparison for equals, prefixes
// and suffixes, and the EREs that lowering made, in pyre.AWK's form, as
// dynamic strings that an awk compiles only when a test reaches them), and
// prints the answer that ir.AnswerFor describes. All rule text goes through
// AwkString; no printf format holds it. (The package keeps its name from
// the bash scripts it once wrote.)
package bash

import (
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/templates"
)

var (
	wrapper = template.Must(template.New("hook.sh").Option("missingkey=error").Parse(templates.BashHook))
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
}

// wrapperData fills templates/hook.sh.tmpl.
type wrapperData struct {
	Header, Events, Choose, File, Args, Program string
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
	g := &gen{l: l, reNum: map[string]int{}, funcs: &funcs, intervals: u.Intervals()}
	fmt.Fprintf(&data, "  hk_sep = %s\n", AwkString(`\n\n`))
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
	w := wrapperData{Header: header, Events: l.Events(), Choose: choose(g.intervals)}
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

// comment makes s safe for an awk comment inside the wrapper's single
// quotes.
func comment(s string) string { return strings.ReplaceAll(codegen.Comment(s), "'", "?") }

type gen struct {
	l          *codegen.Layout
	res        []string         // the regexes, in the order of hk_r
	reNum      map[string]int   // the number of each regex in hk_r
	funcs      *strings.Builder // functions after hook()
	nfunc      int
	intervals  bool // some ERE of the unit needs an awk with intervals
	transcript bool // a hook reads the transcript (hk_tread)
	// lastMessage: a hook reads last_assistant_message (hk_lastmsg).
	lastMessage bool
}

// re returns the element of hk_r that holds the awk form of cd's regex.
func (g *gen) re(cd ir.ResolvedCondition) string {
	if cd.AWK == "" {
		panic("bash: a regex condition without its awk form") // lowering sets it
	}
	n, ok := g.reNum[cd.AWK]
	if !ok {
		g.res = append(g.res, cd.AWK)
		n = len(g.res)
		g.reNum[cd.AWK] = n
	}
	return fmt.Sprintf("hk_r[%d]", n)
}

// A cand is one candidate value of a field: the expression of its value,
// the test that it applies ("" when it always does), and the key of its
// lower-case form in LC.
type cand struct{ val, set, slot string }

// The awk state that hook code reads, from templates/decode.awk: OK, V[i]
// (the value of key i), X[j, i] (key i in view j of a patch), NV (the
// number of views). SET and XS hold which elements were set when the
// checks began: reading V[i] or X[j, i] creates an element.
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
	patches := h.ReadsPatches()
	if patches {
		p(`for (hk_k in X) XS[hk_k] = 1`)
	}

	// The candidate values of each field (README, "Payload fields"): the
	// transcript, read once; else each key of the field's source, when
	// set; else, when none is, the source's default "". The last key's
	// candidate also stands for the default: V[i] is "" when key i is not
	// set. In the view hk_j of a patch, the patch keys are X[hk_j, i].
	transcripts := map[ir.SourceID]string{}
	cands := func(src ir.Source, patch bool) []cand {
		if src.Transcript {
			id := src.ID()
			if _, ok := transcripts[id]; !ok {
				if len(transcripts) == 0 {
					p(`hk_tp = V[%d]; if (hk_tp == "") hk_tp = ENVIRON[%s]`, g.l.Key(ir.TranscriptKey), AwkString(ir.TranscriptEnv))
					p(`hk_tread(hk_tp)`)
				}
				slot := fmt.Sprintf(`"t%d"`, len(transcripts)+1)
				if src.LastAssistant {
					p(`V[%s] = hk_lastmsg()`, slot)
					g.lastMessage = true
				} else {
					p(`V[%s] = hk_tj(HT, 1, HN)`, slot)
				}
				g.transcript = true
				transcripts[id] = slot
			}
			return []cand{{val: "V[" + transcripts[id] + "]", slot: transcripts[id]}}
		}
		var cs []cand
		var others []string // SET[i] of every key but the last
		for i, k := range src.Keys {
			n := g.l.Key(k)
			c := cand{val: fmt.Sprintf("V[%d]", n), set: fmt.Sprintf("SET[%d]", n), slot: fmt.Sprint(n)}
			if _, ok := ir.PatchKeys[k.Name]; ok && patch && k.ToolInput {
				c = cand{val: fmt.Sprintf("X[hk_j, %d]", n), set: fmt.Sprintf("XS[hk_j, %d]", n), slot: fmt.Sprintf("hk_j, %d", n)}
			}
			set := c.set
			if i == len(src.Keys)-1 && src.HasDefault {
				c.set = ""
				if len(others) > 0 {
					c.set = fmt.Sprintf("(%s || !(%s))", set, strings.Join(others, " || "))
				}
			}
			others = append(others, set)
			cs = append(cs, c)
		}
		return cs
	}
	for _, c := range h.Checks {
		for _, cd := range c.AllConds() {
			cands(cd.Src, false) // the transcript is read before the checks
		}
	}

	p(`hk_b = hk_w = 0; hk_bu = hk_ba = hk_wu = hk_wa = ""`)
	var checks []string // each a comment line and an if statement
	for _, c := range h.Checks {
		n := g.l.Rule(c.Rule)
		// The tests of a check are pure and joined with &&, so they run in
		// the order that stops soonest at least cost (see the costs below).
		var tests [nCosts][]string
		add := func(cost int, t string) {
			for _, ts := range tests {
				if slices.Contains(ts, t) {
					return
				}
			}
			tests[cost] = append(tests[cost], t)
		}
		// Conditions hold for some choice of a candidate per field: one
		// group of tests per choice, joined with ||; with patch, in the
		// view hk_j of a patch.
		choiceTest := func(conds []ir.ResolvedCondition, patch bool) string {
			srcs, of := ir.Fields(conds)
			var lists [][]cand
			for _, src := range srcs {
				lists = append(lists, cands(src, patch))
			}
			var groups []string
			ir.Choices(lists, func(choice []cand) bool {
				tests = [nCosts][]string{}
				for _, c := range choice {
					if c.set != "" {
						add(costPresence, c.set)
					}
				}
				for i, cd := range conds {
					for _, t := range g.tests(cd, choice[of[i]]) {
						add(t.cost, t.text)
					}
				}
				groups = append(groups, strings.Join(slices.Concat(tests[:]...), " && "))
				return true
			})
			return codegen.AnyOf(groups, "(", " || ", ")")
		}
		var all []string
		if len(c.Tools) > 0 {
			// The matcher already filtered; re-check the tool when named.
			t := g.l.Key(ir.ToolNameKey)
			alts := []string{fmt.Sprintf("V[%d] == \"\"", t)}
			for _, tool := range c.Tools {
				alts = append(alts, fmt.Sprintf("V[%d] == %s", t, AwkString(tool)))
			}
			all = append(all, "("+strings.Join(alts, " || ")+")")
		}
		views := []string{choiceTest(c.Conds, false)}
		if pv := choiceTest(c.Conds, true); patches && pv != views[0] {
			// ... or in the view of one file of a patch.
			if pv == "" {
				pv = "1"
			}
			views = append(views, g.viewFunc(pv)+"()")
		}
		if t := codegen.AnyOf(views, "(", " || ", ")"); t != "" {
			all = append(all, t)
		}
		// With groups in Any, one of them must hold as well.
		var alts []string
		for _, group := range c.Any {
			alts = append(alts, choiceTest(group, false))
		}
		if t := codegen.AnyOf(alts, "(", " || ", ")"); len(alts) > 0 && t != "" {
			all = append(all, t)
		}
		if len(all) == 0 {
			all = []string{"1"}
		}
		verb := "hk_warn"
		if c.Rule.Action == ir.Block {
			verb = "hk_block"
		}
		checks = append(checks, fmt.Sprintf("# %s\n%s", comment(c.Rule.Name), fmt.Sprintf(`if (%s) %s(%d)`, strings.Join(all, " && "), verb, n)))
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
	if h.Blocks {
		p(`if (hk_b) {`)
		answer(pr.In(), h.Blocked, "hk_bu", "hk_ba")
		p(`}`)
	}
	if h.Warns {
		p(`if (hk_w) {`)
		answer(pr.In(), h.Warned, "hk_wu", "hk_wa")
		p(`}`)
	}
	answer(pr, h.Allow, "", "")
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
	nCosts
)

// lower is the expression of c's value in lower case, computed once per
// value (hk_lc, hk_lcx).
func lower(c cand) string {
	if strings.HasPrefix(c.val, "X[") {
		return "hk_lcx(" + c.slot + ")"
	}
	return "hk_lc(" + c.slot + ")"
}

// tests returns the awk tests that decide cd on the candidate c; all of
// them must hold.
func (g *gen) tests(cd ir.ResolvedCondition, c cand) []test {
	neg := cd.Op.Spec().Negated
	val := c.val
	switch cd.Op.Spec().Test {
	case ir.TestRegex:
		// A regex with a needle (a literal every match contains) first looks
		// for the needle, which index finds much faster than a regex with
		// classes and alternatives runs, and runs the regex only where it
		// is. A needle's letters stand for either case.
		full := fmt.Sprintf(`%s ~ %s`, val, g.re(cd))
		needle := ""
		if cd.Needle != "" {
			v := val
			if strings.ToUpper(cd.Needle) != cd.Needle {
				v = lower(c)
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
