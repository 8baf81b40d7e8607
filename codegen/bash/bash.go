// Package bash generates the bash dispatcher script of one unit of a plan.
//
// A script decodes the payload once with the awk program of package
// templates, then runs the checks of its hook in file order with bash
// tests only ([[ =~ ]] on the EREs lowering made: translated regexes, their
// needles and contains literals; glob tests with quoted literals for the
// other comparisons), and prints the answer that ir.AnswerFor describes. All
// rule text goes through Quote; no printf format and no heredoc holds it.
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

var skeleton = template.Must(template.New("hook.sh").Option("missingkey=error").Parse(templates.BashHook))

// Decoder is the awk decoder as inlined in scripts: templates/decode.awk
// without its comment lines (its contract). It holds no single quote.
var Decoder = func() string {
	var lines []string
	for _, l := range strings.Split(templates.DecodeAWK, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		lines = append(lines, l)
	}
	s := strings.Join(lines, "\n")
	if strings.Contains(s, "'") {
		panic("templates/decode.awk must not contain a single quote")
	}
	return s
}()

// Options are the answer choices that are not part of the plan.
type Options struct {
	Warn ir.WarnMode
}

// hookData fills templates/hook.sh.tmpl.
type hookData struct {
	Header, Events, Fail, Data, Wanted, Opts, Decoder, Body string
}

// readToolData fills the template "readtool" of templates/hook.sh.tmpl.
type readToolData struct {
	Slot, Offset          int
	Wanted, Vars, Decoder string
}

// Generate returns the script for u, at .cursor/hooks/<u.Name>.sh.
func Generate(u *ir.Unit, opts Options) codegen.File {
	// readTool needs the tool_input members last.
	l := codegen.NewLayout(u, opts.Warn, true)
	var data, body strings.Builder
	g := &gen{l: l, data: codegen.NewData(&data)}
	l.RuleData(&data, func(name, text string) string { return name + "=" + Quote(text) })

	pr := codegen.NewPrinter(&body)
	if !u.Dispatches() {
		g.hook(pr, l.Hooks[0])
	} else {
		pr.Line("case ${1-} in")
		for _, h := range l.Hooks {
			pr.Line("%s)", h.Arg)
			g.hook(pr.In(), h)
			pr.Line("  ;;")
		}
		pr.Raw("*)\n  printf '%s\\n' \"hookify: expected the Cursor event name as the first argument\" >&2\n  printf '{}\\n'\n  ;;\nesac\n")
	}

	var wanted []string
	for _, k := range l.Keys {
		wanted = append(wanted, k.String())
	}
	awkOpts := ""
	for _, h := range u.Hooks {
		if h.ReadsPatches() {
			awkOpts = " -v A=1" // read patches too
		}
	}
	var out strings.Builder
	err := skeleton.Execute(&out, hookData{
		Header:  codegen.Header(u.Sources),
		Events:  l.Events(),
		Fail:    Quote(codegen.JSONText(ir.ParseFailureMessage)),
		Data:    strings.TrimRight(data.String(), "\n") + "\n",
		Wanted:  Quote(strings.Join(wanted, " ")),
		Opts:    awkOpts,
		Decoder: Decoder,
		Body:    strings.TrimRight(body.String(), "\n"),
	})
	if err != nil {
		panic(err) // the template is static and its data are strings
	}
	return codegen.File{Path: l.Path("sh"), Data: []byte(out.String()), Mode: 0o755}
}

type gen struct {
	l    *codegen.Layout
	data *codegen.Data
}

// lit adds a rule-derived string to the data section and returns its
// variable; the same string with the same prefix is added once.
func (g *gen) lit(prefix, s string) string {
	return g.data.Var(prefix, s,
		func(prefix string, n int) string { return fmt.Sprintf("hk_%s%d", prefix, n) },
		func(v, s string) string { return v + "=" + Quote(s) })
}

func (g *gen) hook(pr *codegen.Printer, h *codegen.HookLayout) {
	p := pr.Line
	if slot := g.l.Key(ir.ToolInputKey); slot != 0 && h.Event.Spec().MCP {
		g.readTool(pr, slot)
	}
	// A payload that could not be read.
	p(`if [ "$hk_ok" != 1 ]; then`)
	p(`  printf '%%s\n' 'hookify: cannot parse the hook payload as one JSON object' >&2`)
	answer(pr.In(), h.Fail, "$hk_fail", "$hk_fail")
	p(`fi`)

	// The candidate values of each field (README, "Payload fields"): the
	// transcript, read once; else each key of the field's source, when
	// set; else, when none is, the source's default "". val is how tests
	// expand a candidate, and set the test that it applies ("" when it
	// always does). The last key's candidate also stands for the default:
	// ${hk_N-} is "" when no key is set. In the view of file hk_j of a
	// patch, the patch keys are read from hk_N[hk_j] (decode.awk, A=1).
	type cand struct{ val, set string }
	transcripts := map[ir.SourceID]string{}
	cands := func(src ir.Source, patch bool) []cand {
		if src.Transcript {
			id := src.ID()
			if _, ok := transcripts[id]; !ok {
				name := fmt.Sprintf("hk_v%d", len(transcripts)+1)
				t := g.l.Key(ir.TranscriptKey)
				p(`hk_t=${hk_%d-}; [ -n "$hk_t" ] || hk_t=${%s-}`, t, ir.TranscriptEnv)
				// read -d '' stops at each NUL, which a bash string cannot
				// hold: the pieces are joined with the byte 01 in its place
				// (README, "Payload fields"), so nothing after a NUL is lost.
				p(`%s=; if [ -n "$hk_t" ] && [ -f "$hk_t" ] && [ -r "$hk_t" ]; then while IFS= read -r -d '' hk_c; do %s+=$hk_c$'\001'; done < "$hk_t"; %s+=$hk_c; fi`, name, name, name)
				transcripts[id] = "$" + name
			}
			return []cand{{val: transcripts[id]}}
		}
		var cs []cand
		var others string // ${hk_N+x} of every key but the last
		for i, k := range src.Keys {
			ref := fmt.Sprintf("hk_%d", g.l.Key(k))
			if _, ok := ir.PatchKeys[k.Name]; ok && patch && k.ToolInput {
				ref += "[hk_j]"
			}
			c := cand{val: "$" + ref, set: `[ -n "${` + ref + `+x}" ]`}
			if patch {
				c.val = "${" + ref + "}"
			}
			if i == len(src.Keys)-1 && src.HasDefault {
				c.val, c.set = "${"+ref+"-}", ""
				if others != "" {
					c.set = fmt.Sprintf(`[[ -n ${%s+x} || -z %s ]]`, ref, others)
				}
			}
			others += "${" + ref + "+x}"
			cs = append(cs, c)
		}
		return cs
	}
	for _, c := range h.Checks {
		for _, cd := range c.AllConds() {
			cands(cd.Src, false) // the transcript is read before the checks
		}
	}
	patches := h.ReadsPatches()

	p(`hk_blocked= hk_bu= hk_ba= hk_warned= hk_wu= hk_wa=`)
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
		// view of file hk_j of a patch.
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
					for _, t := range g.tests(cd, choice[of[i]].val) {
						add(t.cost, t.text)
					}
				}
				groups = append(groups, strings.Join(slices.Concat(tests[:]...), " && "))
				return true
			})
			return codegen.AnyOf(groups, "{ ", " || ", "; }")
		}
		var all []string
		if len(c.Tools) > 0 {
			// The matcher already filtered; re-check the tool when named.
			all = append(all, fmt.Sprintf(`hk_tool_in "${hk_%d-}" %s`, g.l.Key(ir.ToolNameKey), strings.Join(c.Tools, " ")))
		}
		views := []string{choiceTest(c.Conds, false)}
		if pv := choiceTest(c.Conds, true); patches && pv != views[0] {
			// ... or in the view of one file of a patch.
			if pv == "" {
				pv = "true"
			}
			views = append(views, `{ hk_hit=; for ((hk_j = 1; hk_j <= hk_np; hk_j++)); do if `+pv+`; then hk_hit=1; break; fi; done; [ -n "$hk_hit" ]; }`)
		}
		if t := codegen.AnyOf(views, "{ ", " || ", "; }"); t != "" {
			all = append(all, t)
		}
		// With groups in Any, one of them must hold as well.
		var alts []string
		for _, group := range c.Any {
			alts = append(alts, choiceTest(group, false))
		}
		if t := codegen.AnyOf(alts, "{ ", " || ", "; }"); len(alts) > 0 && t != "" {
			all = append(all, t)
		}
		if len(all) == 0 {
			all = []string{"true"}
		}
		p(`# %s`, codegen.Comment(c.Rule.Name))
		p(`if %s; then`, strings.Join(all, " && "))
		if c.Rule.Action == ir.Block {
			p(`  hk_blocked=1 hk_bu=${hk_bu:+$hk_bu$hk_sep}$hk_u%d hk_ba=${hk_ba:+$hk_ba$hk_sep}$hk_a%d`, n, n)
		} else {
			p(`  hk_warned=1 hk_wu=${hk_wu:+$hk_wu$hk_sep}$hk_u%d hk_wa=${hk_wa:+$hk_wa$hk_sep}$hk_a%d`, n, n)
		}
		p(`fi`)
	}
	if h.Blocks {
		p(`if [ -n "$hk_blocked" ]; then`)
		answer(pr.In(), h.Blocked, "$hk_bu", "$hk_ba")
		p(`fi`)
	}
	if h.Warns {
		p(`if [ -n "$hk_warned" ]; then`)
		answer(pr.In(), h.Warned, "$hk_wu", "$hk_wa")
		p(`fi`)
	}
	answer(pr, h.Allow, "", "")
}

// readTool writes the second run of the decoder on a string tool_input
// (templates/hook.sh.tmpl, "readtool"), for the tool_input members, which
// are the last keys.
func (g *gen) readTool(pr *codegen.Printer, slot int) {
	var names, vars []string
	for i, k := range g.l.Keys {
		if k.ToolInput {
			names = append(names, k.Name)
			vars = append(vars, fmt.Sprintf("hk_%d", i+1))
		}
	}
	var b strings.Builder
	err := skeleton.ExecuteTemplate(&b, "readtool", readToolData{
		Slot: slot, Offset: len(g.l.Keys) - len(names), Wanted: Quote(strings.Join(names, " ")),
		Vars: strings.Join(vars, " "), Decoder: Decoder,
	})
	if err != nil {
		panic(err) // the template is static
	}
	pr.Raw(b.String() + "\n")
}

// answer prints a and exits with its code. Only fixed JSON pieces appear
// as printf arguments; message texts come from variables.
func answer(pr *codegen.Printer, a ir.Answer, user, agent string) {
	t := codegen.SplitAnswer(a)
	var args []string
	for i, m := range t.Msgs {
		v := user
		if m == ir.AgentText {
			v = agent
		}
		args = append(args, Quote(t.Fixed[i]), `"`+v+`"`)
	}
	args = append(args, Quote(t.Fixed[len(t.Msgs)]))
	pr.Line("printf '%%s' %s; exit %d", strings.Join(args, " "), a.Exit)
}

// A test is one bash test of a condition, and its place in the order.
type test struct {
	cost int
	text string
}

// The places of tests in a check, first to last.
const (
	costPresence = iota // the tool name, whether a field is there
	costCompare         // equals, starts_with, ends_with: one glob
	costLiteral         // contains, and the needle of a regex
	costRegex           // a regex: bash compiles it on every call
	costNegated         // not_*: they exclude exceptions, so they seldom fail
	nCosts
)

// tests returns the bash tests that decide cd on the value val expands to;
// all of them must succeed.
func (g *gen) tests(cd ir.ResolvedCondition, val string) []test {
	neg := cd.Op.Spec().Negated
	switch cd.Op.Spec().Test {
	case ir.TestRegex:
		// A regex with a needle (a literal every match contains) first looks
		// for the needle, which glibc finds much faster than it runs a regex
		// with classes and alternatives, and runs the regex only where it is.
		full := fmt.Sprintf(`[[ %s =~ $%s ]]`, val, g.lit("re", cd.ERE))
		needle := ""
		if cd.Needle != "" {
			needle = fmt.Sprintf(`[[ %s =~ $%s ]]`, val, g.lit("n", cd.Needle))
		}
		switch {
		case neg && needle != "":
			return []test{{costNegated, "! { " + needle + " && " + full + "; }"}}
		case neg:
			return []test{{costNegated, "! " + full}}
		case needle != "":
			return []test{{costLiteral, needle}, {costRegex, full}}
		}
		return []test{{costRegex, full}}
	case ir.TestContains:
		// The literal as an ERE: glibc finds it faster than bash's glob
		// matcher does (2x in 1 KB, 7x in 1 MB). "" is in every value.
		if cd.ERE == "" {
			if neg {
				return []test{{costNegated, "false"}}
			}
			return nil
		}
		t := fmt.Sprintf(`[[ %s =~ $%s ]]`, val, g.lit("p", cd.ERE))
		if neg {
			return []test{{costNegated, "! " + t}}
		}
		return []test{{costLiteral, t}}
	}
	if neg {
		return []test{{costNegated, "! " + g.compare(cd, val)}}
	}
	return []test{{costCompare, g.compare(cd, val)}}
}

// compare is the glob test of an equals, prefix or suffix test, before
// negation.
func (g *gen) compare(cd ir.ResolvedCondition, val string) string {
	switch cd.Op.Spec().Test {
	case ir.TestEquals:
		return fmt.Sprintf(`[[ %s == "$%s" ]]`, val, g.lit("p", cd.Pattern))
	case ir.TestPrefix:
		return fmt.Sprintf(`[[ %s == "$%s"* ]]`, val, g.lit("p", cd.Pattern))
	case ir.TestSuffix:
		return fmt.Sprintf(`[[ %s == *"$%s" ]]`, val, g.lit("p", cd.Pattern))
	}
	panic("bash: unknown operator " + cd.Op.String())
}
