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
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/templates"
)

var skeleton = template.Must(template.New("hook.sh").Parse(templates.BashHook))

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

// Generate returns the script for u, at .cursor/hooks/<u.Name>.sh.
func Generate(u *ir.Unit, opts Options) codegen.File {
	g := &gen{keys: map[ir.Key]int{}, opts: opts, lits: map[string]string{}}
	var keys []ir.Key
	mcp := false
	for _, h := range u.Hooks {
		keys = append(keys, h.Keys()...)
		mcp = mcp || h.Event.Spec().MCP
	}
	if mcp {
		// The tool_input members last, one after another: readtool writes
		// them from the second run of the decoder.
		slices.SortStableFunc(keys, func(a, b ir.Key) int { return cmp.Compare(boolInt(a.ToolInput), boolInt(b.ToolInput)) })
	}
	for _, k := range keys {
		g.key(k)
	}
	var data, body strings.Builder
	g.data = &data
	// Rule data, once per rule.
	seenRule := map[*ir.Rule]int{}
	for _, h := range u.Hooks {
		for _, c := range h.Checks {
			if _, ok := seenRule[c.Rule]; ok {
				continue
			}
			n := len(seenRule) + 1
			seenRule[c.Rule] = n
			fmt.Fprintf(&data, "# %s (%s)\n", codegen.Comment(c.Rule.Name), codegen.Comment(c.Rule.Source))
			fmt.Fprintf(&data, "hk_u%d=%s\n", n, Quote(jsonText(c.Rule.UserMessage())))
			fmt.Fprintf(&data, "hk_a%d=%s\n", n, Quote(jsonText(c.Rule.AgentMessage())))
		}
	}
	g.rules = seenRule

	var events []string
	for _, h := range u.Hooks {
		events = append(events, h.Event.String())
	}
	if len(u.Hooks) == 1 {
		g.hook(&body, u.Hooks[0], "")
	} else {
		body.WriteString("case ${1-} in\n")
		for _, h := range u.Hooks {
			fmt.Fprintf(&body, "%s)\n", h.Event)
			g.hook(&body, h, "  ")
			body.WriteString("  ;;\n")
		}
		body.WriteString("*)\n  printf '%s\\n' \"hookify: expected the Cursor event name as the first argument\" >&2\n  printf '{}\\n'\n  ;;\nesac\n")
	}

	var wanted []string
	for _, k := range g.order {
		wanted = append(wanted, k.String())
	}
	awkOpts := ""
	for _, h := range u.Hooks {
		if h.ReadsPatches() {
			awkOpts = " -v A=1" // read patches too
		}
	}
	var out strings.Builder
	err := skeleton.Execute(&out, map[string]string{
		"Header":  codegen.Header(u.Sources),
		"Events":  strings.Join(events, ", "),
		"Fail":    Quote(jsonText(ir.ParseFailureMessage)),
		"Data":    strings.TrimRight(data.String(), "\n") + "\n",
		"Wanted":  Quote(strings.Join(wanted, " ")),
		"Opts":    awkOpts,
		"Decoder": Decoder,
		"Body":    strings.TrimRight(body.String(), "\n"),
	})
	if err != nil {
		panic(err) // the template is static and its data are strings
	}
	return codegen.File{Path: ".cursor/hooks/" + u.Name + ".sh", Data: []byte(out.String()), Mode: 0o755}
}

// jsonText is s as the inside of a JSON string literal.
func jsonText(s string) string {
	q := ir.JSONString(s)
	return q[1 : len(q)-1]
}

type gen struct {
	opts  Options
	keys  map[ir.Key]int
	order []ir.Key
	rules map[*ir.Rule]int
	data  *strings.Builder
	nlit  int
	lits  map[string]string // prefix NUL text -> variable
}

func (g *gen) key(k ir.Key) int {
	if n, ok := g.keys[k]; ok {
		return n
	}
	g.order = append(g.order, k)
	g.keys[k] = len(g.order)
	return len(g.order)
}

// lit adds a rule-derived string to the data section and returns its
// variable; the same string with the same prefix is added once.
func (g *gen) lit(prefix, s string) string {
	if v, ok := g.lits[prefix+"\x00"+s]; ok {
		return v
	}
	g.nlit++
	v := fmt.Sprintf("hk_%s%d", prefix, g.nlit)
	g.lits[prefix+"\x00"+s] = v
	fmt.Fprintf(g.data, "%s=%s\n", v, Quote(s))
	return v
}

func (g *gen) hook(b *strings.Builder, h *ir.Hook, in string) {
	p := func(format string, args ...any) {
		b.WriteString(in)
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	if slot, ok := g.keys[ir.ToolInputKey]; ok && h.Event.Spec().MCP {
		g.readTool(b, slot)
	}
	// A payload that could not be read.
	p(`if [ "$hk_ok" != 1 ]; then`)
	p(`  printf '%%s\n' 'hookify: cannot parse the hook payload as one JSON object' >&2`)
	a := ir.AnswerFor(h.Event, ir.Failed, g.opts.Warn, h.FailClosed)
	g.answer(b, in+"  ", a, "$hk_fail", "$hk_fail")
	p(`fi`)

	// The candidate values of each field (README, "Payload fields"): the
	// transcript, read once; else each key of the field's source, when
	// set; else, when none is, the source's default "". val is how tests
	// expand a candidate, and set the test that it applies ("" when it
	// always does). The last key's candidate also stands for the default:
	// ${hk_N-} is "" when no key is set. In the view of file hk_j of a
	// patch, the patch keys are read from hk_N[hk_j] (decode.awk, A=1).
	type cand struct{ val, set string }
	transcripts := map[string]string{}
	cands := func(src ir.Source, patch bool) []cand {
		if src.Transcript {
			id := fmt.Sprint(src)
			if _, ok := transcripts[id]; !ok {
				name := fmt.Sprintf("hk_v%d", len(transcripts)+1)
				t := g.keys[ir.TranscriptKey]
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
			ref := fmt.Sprintf("hk_%d", g.keys[k])
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
		n := g.rules[c.Rule]
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
			all = append(all, fmt.Sprintf(`hk_tool_in "${hk_%d-}" %s`, g.keys[ir.ToolNameKey], strings.Join(c.Tools, " ")))
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
	var blocks, warns bool
	for _, c := range h.Checks {
		blocks = blocks || c.Rule.Action == ir.Block
		warns = warns || c.Rule.Action != ir.Block
	}
	if blocks {
		p(`if [ -n "$hk_blocked" ]; then`)
		g.answer(b, in+"  ", ir.AnswerFor(h.Event, ir.Blocked, g.opts.Warn, h.FailClosed), "$hk_bu", "$hk_ba")
		p(`fi`)
	}
	if warns {
		p(`if [ -n "$hk_warned" ]; then`)
		g.answer(b, in+"  ", ir.AnswerFor(h.Event, ir.Warned, g.opts.Warn, h.FailClosed), "$hk_wu", "$hk_wa")
		p(`fi`)
	}
	g.answer(b, in, ir.AnswerFor(h.Event, ir.None, g.opts.Warn, h.FailClosed), "", "")
}

// readTool writes the second run of the decoder on a string tool_input
// (templates/hook.sh.tmpl, "readtool"), for the tool_input members, which
// are the last keys.
func (g *gen) readTool(b *strings.Builder, slot int) {
	var names, vars []string
	for i, k := range g.order {
		if k.ToolInput {
			names = append(names, k.Name)
			vars = append(vars, fmt.Sprintf("hk_%d", i+1))
		}
	}
	err := skeleton.ExecuteTemplate(b, "readtool", map[string]any{
		"Slot": slot, "Offset": len(g.order) - len(names), "Wanted": Quote(strings.Join(names, " ")),
		"Vars": strings.Join(vars, " "), "Decoder": Decoder,
	})
	if err != nil {
		panic(err) // the template is static
	}
	b.WriteByte('\n')
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// answer prints a and exits with its code. Only fixed JSON pieces appear
// as printf arguments; message texts come from variables.
func (g *gen) answer(b *strings.Builder, in string, a ir.Answer, user, agent string) {
	var args []string
	lit := "{"
	for i, f := range a.Fields {
		if i > 0 {
			lit += ","
		}
		lit += ir.JSONString(f.Key) + ":"
		switch f.Kind {
		case ir.Lit:
			lit += ir.JSONString(f.Lit)
		case ir.Bool:
			lit += fmt.Sprint(f.Bool)
		case ir.UserText, ir.AgentText:
			v := user
			if f.Kind == ir.AgentText {
				v = agent
			}
			args = append(args, Quote(lit+`"`), `"`+v+`"`)
			lit = `"`
		}
	}
	lit += "}\n"
	args = append(args, Quote(lit))
	fmt.Fprintf(b, "%sprintf '%%s' %s; exit %d\n", in, strings.Join(args, " "), a.Exit)
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
