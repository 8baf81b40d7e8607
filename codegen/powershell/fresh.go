package powershell

import (
	"fmt"
	"strings"

	"github.com/hookify/hookify/codegen"
)

// The stale-rule check of the PowerShell hook
// (docs/live-rules.md): the skeleton's hk_live, called with what this build
// knows.

// liveCheck is the script's call of hk_live, before the payload is read:
// "" without rule files to check.
func liveCheck(rf *codegen.RuleFiles, l *codegen.Layout) string {
	if rf == nil {
		return ""
	}
	var names, sums []string
	for i, n := range rf.Names {
		names = append(names, Quote(n))
		sums = append(sums, fmt.Sprint(rf.Sums[i]))
	}
	cmd := rf.Command("windows")
	var build []string
	for _, w := range strings.Fields(strings.TrimPrefix(cmd, "hookify ")) {
		build = append(build, Quote(w))
	}
	var b strings.Builder
	pr := codegen.NewPrinter(&b)
	rr := ""
	if rf.Entries != nil {
		var evs []string
		for _, h := range l.Hooks {
			evs = append(evs, Quote(h.Event.String()))
		}
		pr.Line("# A per-rule hook that rebuilt runs the new scripts of its event with")
		pr.Line("# %s set: this one answers only for its own events.", codegen.EventEnv)
		pr.Line("if (-not [string]::IsNullOrEmpty($env:%s) -and @(%s) -cnotcontains $env:%[1]s) { exit 0 }", codegen.EventEnv, strings.Join(evs, ", "))
		pr.Line("# What hk_rules needs for this event: the scripts the old hooks.json")
		pr.Line("# named for it, and the fixed text of its block and warn answers.")
		pr.Line("$hk_rr = $null")
		for _, h := range l.Hooks {
			in := pr
			if l.Unit.Dispatches() {
				pr.Line("if ([string]::Equals($hk_event, %s, [StringComparison]::Ordinal)) {", Quote(h.Arg))
				in = pr.In()
			}
			e := h.Event.String()
			list := func(names []string) string {
				var q []string
				for _, n := range names {
					q = append(q, Quote(n))
				}
				return "@(" + strings.Join(q, ", ") + ")"
			}
			var old []string
			for _, en := range rf.Entries[e] {
				old = append(old, en.Name)
			}
			// S: tool and the old scripts Cursor starts for it (between
			// spaces), in pairs ('MCP:*' for the MCP tools, '*' for any
			// other); $null without matchers.
			started := "$null"
			if cases := codegen.ToolCases(rf.Entries[e]); cases != nil {
				var kv []string
				for _, c := range cases {
					names := Quote(" " + strings.Join(c.Names, " ") + " ")
					if c.Tools == nil {
						kv = append(kv, "'*'", names)
					}
					for _, t := range c.Tools {
						if t == codegen.MCPMatcher {
							t = "MCP:*"
						}
						kv = append(kv, Quote(t), names)
					}
				}
				started = "@(" + strings.Join(kv, ", ") + ")"
			}
			b, w := codegen.AnswerPieces(h.Blocked), codegen.AnswerPieces(h.Warned)
			in.Line("$hk_rr = @{ E = %s; O = %s; S = %s; B = @(%s, %s, %s); BX = %d; W = @(%s, %s, %s); WX = %d }", Quote(e), list(old), started,
				Quote(b[0]), Quote(b[1]), Quote(b[2]), h.Blocked.Exit, Quote(w[0]), Quote(w[1]), Quote(w[2]), h.Warned.Exit)
			if l.Unit.Dispatches() {
				pr.Line("}")
			}
		}
		rr = " $hk_rr"
	}
	pr.Line("# The rule files this hook was built from, and their fingerprints (hk_live).")
	pr.Line("$hk_note = ''")
	pr.Line("try {")
	pr.Line("  $hk_note = hk_live @(%s) @(%s) @(%s) %s%s", strings.Join(names, ", "), strings.Join(sums, ", "), strings.Join(build, ", "), Quote(cmd+rf.Where()), rr)
	pr.Line("} catch {")
	pr.Line("  hk_warn ('cannot check the rule files: ' + $_.Exception.Message)")
	pr.Line("  $hk_note = ''")
	pr.Line("}")
	// The script is gone with its last rule: this call is allowed.
	pr.Line("if ($null -eq $hk_note) {")
	if !l.Unit.Dispatches() {
		answer(pr.In(), l.Hooks[0].Allow, "", "")
	} else {
		for _, h := range l.Hooks {
			pr.Line("  if ([string]::Equals($hk_event, %s, [StringComparison]::Ordinal)) {", Quote(h.Arg))
			answer(pr.In().In(), h.Allow, "", "")
			pr.Line("  }")
		}
		pr.Line("  exit 1")
	}
	pr.Line("}")
	pr.Line("$hk_nj = hk_jq $hk_note")
	return b.String()
}

// joinNote adds the note to the message lists user and agent, when the
// rules are stale.
func joinNote(pr *codegen.Printer, user, agent string) {
	pr.Line(`if ($hk_note -ne '') { $%s.Add($hk_nj); $%s.Add($hk_nj) }`, user, agent)
}
