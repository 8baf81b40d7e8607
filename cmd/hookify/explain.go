package main

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hookify/hookify/codegen/prompt"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/parser"
	"github.com/hookify/hookify/upstream"
)

// explain prints, for each rule file (or the ones named), what it becomes
// in Cursor: its events and hooks.json entries, the fields it reads and
// where they come from, the answer Cursor sees, how faithful it is to
// upstream hookify, and caveats. It writes nothing.
func explain(c *cli) int {
	res, opts, selectors, stdout, stderr := c.res, c.opts, c.args, c.stdout, c.stderr
	plan := res.Cursor
	if plan == nil {
		plan = ir.ToCursor(res.Program, opts.Layout, opts.Warn)
	}
	ex := &explainer{opts: opts, plan: plan}
	var files []string
	for _, f := range res.Sources {
		if len(selectors) == 0 || slices.ContainsFunc(selectors, func(s string) bool { return selects(s, f, res.Names[f]) }) {
			files = append(files, f)
		}
	}
	for _, s := range selectors {
		if !slices.ContainsFunc(res.Sources, func(f string) bool { return selects(s, f, res.Names[f]) }) {
			fmt.Fprintf(stderr, "hookify explain: no rule %q (name it by rule name or file)\n", s)
			return 1
		}
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "hookify explain: no rule files in %s\n", c.root)
		return 1
	}
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		var ds diag.List
		for _, d := range res.Diags {
			if d.Pos.File == f {
				ds = append(ds, d)
			}
		}
		ex.file(stdout, f, res.Names[f], ruleOf(res.Program, f), ds)
	}
	return 0
}

func ruleOf(p *ir.Program, file string) *ir.Rule {
	for _, r := range p.Rules {
		if r.Source == file {
			return r
		}
	}
	return nil
}

// selects reports whether selector s names the rule file f, whose rule is
// called name: by rule name, by path, by file name, or by the name in the
// file name.
func selects(s, f, name string) bool {
	s = strings.TrimPrefix(strings.ReplaceAll(s, "\\", "/"), "./")
	return s == f || s == path.Base(f) || s == parser.DefaultName(f) || s == name
}

type explainer struct {
	opts compiler.Options
	plan *ir.Cursor
}

// width is where explain wraps its lines.
const width = 100

// section writes "  label     text", wrapping text under itself.
func section(w io.Writer, label, text string) {
	fmt.Fprint(w, wrap(fmt.Sprintf("  %-9s ", label), text))
}

// item writes a "- " item under a section. Lines after the first are
// code (a hint's YAML example): written as they are, under the item's
// text, so that they can be copied.
func item(w io.Writer, text string) { itemAt(w, "            - ", text) }

func itemAt(w io.Writer, prefix, text string) {
	first, code, _ := strings.Cut(text, "\n")
	fmt.Fprint(w, wrap(prefix, first))
	if code != "" {
		for _, line := range strings.Split(code, "\n") {
			fmt.Fprintln(w, strings.TrimRight("                "+line, " "))
		}
	}
}

// items writes a section of "- " items, the first on the label's line.
func items(w io.Writer, label string, list []string) {
	for i, text := range list {
		prefix := "            - "
		if i == 0 {
			prefix = fmt.Sprintf("  %-9s - ", label)
		}
		itemAt(w, prefix, text)
	}
}

// wrap fills text after prefix, continuing lines under the text.
func wrap(prefix, text string) string {
	var b strings.Builder
	indent := strings.Repeat(" ", len(prefix))
	line := prefix
	for _, para := range strings.Split(text, "\n") {
		for _, word := range words(para) {
			if len(line) > len(indent) && len(line)+1+len(word) > width {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line = indent
			}
			if len(line) > len(indent) && !strings.HasSuffix(line, " ") {
				line += " "
			}
			line += word
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		line = indent
	}
	return b.String()
}

// words splits a paragraph at spaces, but never inside backquotes: a
// pattern shown as `...` stays on one line, whole, to be copied.
func words(para string) []string {
	var out []string
	for len(para) > 0 {
		para = strings.TrimLeft(para, " \t")
		if para == "" {
			break
		}
		end := strings.IndexAny(para, " \t")
		if end < 0 {
			end = len(para)
		}
		// A word that opens a backquote runs to the closing one.
		if n := strings.Count(para[:end], "`"); n%2 == 1 {
			if close := strings.IndexByte(para[end:], '`'); close >= 0 {
				end += close + 1
				if more := strings.IndexAny(para[end:], " \t"); more >= 0 {
					end += more
				} else {
					end = len(para)
				}
			}
		}
		out = append(out, para[:end])
		para = para[end:]
	}
	return out
}

func (ex *explainer) file(w io.Writer, f, name string, r *ir.Rule, ds diag.List) {
	if r != nil {
		name = r.Name
	}
	fmt.Fprintf(w, "%s  (%s)\n", name, f)
	var errs, fidelity, notes diag.List
	for _, d := range ds {
		switch {
		case d.Severity == diag.Error:
			errs = append(errs, d)
		case upstream.IsFidelity(d.Code):
			fidelity = append(fidelity, d)
		default:
			notes = append(notes, d)
		}
	}
	if r != nil {
		ex.rule(w, r)
	}
	switch {
	case len(errs) > 0:
		section(w, "refused", "the rule does not compile:")
		for _, d := range errs {
			item(w, at(d)+withHint(d))
		}
	case r == nil:
		why := "nothing is generated for it"
		for i, d := range notes {
			if d.Code.LeavesOut() || d.Code == diag.NoChannel {
				why = d.Msg
				notes = slices.Delete(notes, i, i+1)
				break
			}
		}
		section(w, "Cursor", why)
	}
	switch {
	case len(fidelity) == 0 && (len(errs) > 0 || r == nil):
		// Not "exact": nothing in Cursor enforces the rule.
		section(w, "fidelity", "upstream hookify reads this file as hookify does, but no Cursor hook enforces the rule (above)")
	case len(fidelity) == 0:
		section(w, "fidelity", "exact: upstream hookify reads this file and matches this rule the same way")
	default:
		section(w, "fidelity", "differs from upstream hookify:")
		for _, d := range fidelity {
			item(w, at(d)+withHint(d))
		}
	}
	var caveats []string
	if r != nil {
		caveats = ex.caveats(r)
	}
	for _, d := range notes {
		caveats = append(caveats, at(d)+withHint(d))
	}
	items(w, "caveats", caveats)
}

func at(d diag.Diagnostic) string {
	if d.Pos.Line == 0 {
		return ""
	}
	return fmt.Sprintf("line %d: ", d.Pos.Line)
}

// rule writes the rule as read, then its Cursor side.
func (ex *explainer) rule(w io.Writer, r *ir.Rule) {
	head := fmt.Sprintf("event %s, action %s", r.Event, r.Action)
	if r.Tools != nil {
		tools := slices.Clone(r.Tools)
		for _, m := range r.MCP {
			tools = append(tools, m.Pattern)
		}
		head += ", tools " + strings.Join(tools, "|")
	}
	section(w, "hookify", head)
	for _, c := range r.Conditions {
		fmt.Fprint(w, wrap("            ", fmt.Sprintf("%s %s %s", c.Field, c.Op, show(c.Pattern))))
	}
	switch {
	case len(r.Conditions) > 0:
	case r.Prompt:
		fmt.Fprint(w, wrap("            ", "no conditions: the intent is only in the message"))
	default:
		fmt.Fprint(w, wrap("            ", "no conditions (the pattern matches anything): the message is sent once, when the agent first stops"))
	}
	first := true
	label := func() string {
		if first {
			first = false
			return "Cursor"
		}
		return ""
	}
	for _, u := range ex.plan.Units {
		for _, h := range u.Hooks {
			for _, ck := range h.Checks {
				if ck.Rule != r {
					continue
				}
				entry := compiler.Command(u, h, ex.opts)
				attrs := ""
				if h.Matcher != "" {
					attrs += " matcher " + h.Matcher + ","
				}
				if h.FailClosed {
					attrs += " failClosed,"
				}
				if h.LoopLimit > 0 {
					attrs += fmt.Sprintf(" loop_limit %d,", h.LoopLimit)
				}
				section(w, label(), fmt.Sprintf("%s:%s runs %s", h.Event, attrs, entry))
				fmt.Fprint(w, wrap("              reads    ", reads(ck)))
				fmt.Fprint(w, wrap("              answers  ", answer(h.Event, r.Action, ex.opts.Warn)))
			}
		}
	}
	for _, ph := range ex.plan.Prompts {
		if ph.Rule != r {
			continue
		}
		attrs := ""
		if ph.Matcher != "" {
			attrs = " matcher " + ph.Matcher + ","
		}
		section(w, label(), fmt.Sprintf("%s:%s prompt hook (timeout %d s)", ph.Event, attrs, prompt.Timeout))
		fmt.Fprint(w, wrap("              reads    ", "the whole payload ($ARGUMENTS): a model judges it against the message and answers {ok, reason}"))
	}
	if first {
		section(w, "Cursor", "no hook")
	}
}

// show writes a pattern as written, in backquotes, or Go-quoted when it
// holds a backquote or a control character.
func show(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r == '`' || r < 0x20 || r == 0x7f }) {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}

// reads lists the fields a check reads and where they come from.
func reads(ck ir.RuleCheck) string {
	var parts []string
	if len(ck.Tools) > 0 {
		parts = append(parts, "tool_name (one of "+strings.Join(ck.Tools, ", ")+")")
	}
	if len(ck.Any) > 0 {
		var patterns []string
		for _, m := range ck.Rule.MCP {
			patterns = append(patterns, m.Pattern)
		}
		parts = append(parts, "tool_name and mcp_server_name (the tool of "+ir.OrList(patterns)+"; an MCP: prefix and a missing server name are accepted), and tool_input as the tool's arguments, also when it is a string of JSON")
	}
	seen := map[string]bool{}
	for _, cd := range ck.Conds {
		if seen[cd.Field] {
			continue
		}
		seen[cd.Field] = true
		src := cd.Src.String()
		if src == cd.Field {
			parts = append(parts, cd.Field)
		} else {
			parts = append(parts, cd.Field+" from "+src)
		}
	}
	return strings.Join(parts, "; ")
}

// answer shows what Cursor sees when the rule matches.
func answer(e ir.CursorEvent, a ir.Action, warn ir.WarnMode) string {
	o := ir.Warned
	if a == ir.Block {
		o = ir.Blocked
	}
	ans := ir.AnswerFor(e, o, warn, false)
	s := strings.TrimSpace(string(ans.Render("\x01", "\x02")))
	s = strings.ReplaceAll(s, ir.JSONString("\x01"), "<user-message>")
	s = strings.ReplaceAll(s, ir.JSONString("\x02"), "<agent-message>")
	if ans.Exit != 0 {
		s += fmt.Sprintf(", exit %d", ans.Exit)
	}
	return s
}

// caveats are what Cursor itself may do differently from what the rule
// says (docs/runtime.md §2), for the events the rule runs on.
func (ex *explainer) caveats(r *ir.Rule) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	events := map[ir.CursorEvent]bool{}
	for _, u := range ex.plan.Units {
		for _, h := range u.Hooks {
			if slices.ContainsFunc(h.Checks, func(c ir.RuleCheck) bool { return c.Rule == r }) {
				events[h.Event] = true
			}
		}
	}
	prompts := false
	for _, ph := range ex.plan.Prompts {
		if ph.Rule == r {
			events[ph.Event] = true
			prompts = true
		}
	}
	for _, e := range ir.CursorEvents {
		if !events[e] {
			continue
		}
		for _, c := range e.Spec().Caveats {
			if (c.Action == 0 || c.Action == r.Action) && (c.Warn == nil || slices.Contains(c.Warn, ex.opts.Warn)) && !(c.ScriptOnly && prompts) {
				add(c.Text)
				break
			}
		}
	}
	if prompts {
		add("a prompt hook asks a model, so its verdict can vary and every matching event costs a model call; prompt hooks do not run in cloud agents")
		if r.Action == ir.Warn {
			add("a prompt hook can only answer ok or not: where Cursor enforces ok: false, this warn rule stops the action like a block rule")
		}
	}
	for _, c := range r.Conditions {
		switch c.Field {
		case "transcript":
			add("transcript is the whole conversation so far, the text of Cursor's transcript file (formatted differently from Claude Code's): the user's words and every earlier turn too, so a condition on it may hold at every later stop; for the agent's last message alone, test last_assistant_message")
		case "last_assistant_message":
			add("last_assistant_message is read from Cursor's transcript file, as the text of its last assistant entry since the user last spoke, not from the stop input; it is \"\" when there is none or Cursor writes no transcript")
		}
	}
	if (r.Event == ir.EventBash || r.Event == ir.EventFile || r.Event == ir.EventAll) && r.Action == ir.Warn && !prompts {
		add("upstream showed a warning to the user only, before and again after the tool ran; Cursor runs the rule once and gives the message to the agent too")
	}
	return out
}

// withHint is a diagnostic's message and its hint, for one wrapped item.
func withHint(d diag.Diagnostic) string {
	if d.Hint == "" {
		return d.Msg
	}
	return d.Msg + "; " + d.Hint
}
