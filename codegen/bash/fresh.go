package bash

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/ir"
)

// The stale-rule check of the Unix hook (docs/live-rules.md).

// shQuote is s as one single-quoted sh word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fpProgram is the exact check: with ARGV[1] the baked "name/sum/..."
// list, ARGV[2] the project's go.mod and the rest the rule files the glob
// found (the pattern itself when none), it prints nothing when every file
// is as built, else "T/" (go.mod records hookify as a tool) or "-/", then
// the files added, changed and removed. Fingerprints as
// codegen.Fingerprint computes them; everything in BEGIN, so that no awk
// reads stdin. It holds no single quote.
const fpProgram = `BEGIN {
  for (i = 1; i < 256; i++) C[sprintf("%c", i)] = i
  n = split(ARGV[1], b, "/")
  for (i = 1; i < n; i += 2) B[b[i]] = b[i + 1]
  for (i = 3; i < ARGC; i++) {
    f = ARGV[i]; k = f; sub(/.*\//, "", k); h = 0
    while ((r = (getline l < f)) > 0) {
      m = length(l)
      if (m && substr(l, m) == "\r") m--
      for (j = 1; j <= m; j++) h = (h * 31 + C[substr(l, j, 1)]) % 2147483647
      h = (h * 31 + 10) % 2147483647
    }
    close(f)
    if (r < 0 && k == "hookify.*.local.md") continue
    S[k] = 1
    if (!(k in B)) d = d ", " k " (added)"
    else if (B[k] + 0 != h) d = d ", " k " (changed)"
  }
  for (i = 1; i < n; i += 2) if (!(b[i] in S)) d = d ", " b[i] " (removed)"
  if (d == "") exit
  g = "-"
  while ((getline l < ARGV[2]) > 0) {
    split(l, w)
    if (w[1] == ")") t = 0
    if (w[1] == "tool" && w[2] == "` + codegen.ToolLine + `" || t && w[1] == "` + codegen.ToolLine + `") g = "T"
    if (w[1] == "tool" && w[2] == "(") t = 1
  }
  print g "/" substr(d, 3)
}`

// freshCheck is the wrapper's check, after the choice of $hk_awk, each
// line after a newline: "" without rule files to check.
func freshCheck(rf *codegen.RuleFiles, l *codegen.Layout) string {
	if rf == nil {
		return ""
	}
	if strings.Contains(fpProgram, "'") {
		panic("bash: a single quote in the fingerprint program")
	}
	glob := `"$hk_h"/../../` + codegen.RulesDir + "/" + codegen.RulesPattern
	cmd := rf.Command("")
	rebuild := "build " + strings.TrimPrefix(cmd, "hookify build ")
	var b strings.Builder
	w := func(lines ...string) {
		for _, s := range lines {
			b.WriteString(s + "\n")
		}
	}
	w(
		`# Live rules (docs/live-rules.md): the rule files this hook was built from.`,
		`# A stamp strictly newer than this script and every rule file says that an`,
		`# exact check found them as built; the glob and the tests are builtins, so`,
		`# no process runs unless the rules may have changed. Stale rules are rebuilt`,
		`# by hookify where it is found, and this call is answered by the new hooks;`,
		`# else the answers tell the agent (`+codegen.StaleEnv+`).`,
	)
	if rf.Entries != nil {
		var evs []string
		for _, h := range l.Hooks {
			evs = append(evs, shQuote(h.Event.String()))
		}
		w(
			`# A per-rule hook that rebuilt runs the new scripts of its event with`,
			`# `+codegen.EventEnv+` set: this one answers only for its own events.`,
			`case ${`+codegen.EventEnv+`-} in ''|`+strings.Join(evs, "|")+`) ;; *) exit 0 ;; esac`,
		)
	}
	w(
		`unset `+codegen.StaleEnv,
		`case $0 in */*) hk_h=${0%/*} ;; *) hk_h=. ;; esac`,
		`hk_s=$hk_h/`+strings.TrimPrefix(codegen.FreshStamp, codegen.HooksDir+"/"),
		`hk_ok=1`,
		`[ "$hk_s" -nt "$0" ] || hk_ok=`,
		`hk_l=`,
		`for hk_f in `+glob+`; do`,
		`  case $hk_f in */'`+codegen.RulesPattern+`') [ -e "$hk_f" ] || continue ;; esac`,
		`  [ -z "$hk_ok" ] || [ "$hk_s" -nt "$hk_f" ] || hk_ok=`,
		`  hk_l="$hk_l ${hk_f##*/}"`,
		`done`,
		`[ "$hk_l" = `+shQuote(rf.Listed())+` ] || hk_ok=`,
		`if [ -z "$hk_ok" ]; then`,
		`  hk_d=$("$hk_awk" '`+fpProgram+`' `+shQuote(rf.Baked())+` "$hk_h/../../go.mod" `+glob+` </dev/null)`,
		`  if [ -z "$hk_d" ]; then`,
		`    true 2>/dev/null >"$hk_s"`,
		`  else`,
		`    hk_c=`,
		`    if command -v hookify >/dev/null 2>&1; then hk_c=hookify`,
		`    elif [ -n "${GOBIN-}" ] && [ -x "$GOBIN/hookify" ]; then hk_c=$GOBIN/hookify`,
		`    elif [ -n "${HOME-}" ] && [ -x "$HOME/go/bin/hookify" ]; then hk_c=$HOME/go/bin/hookify`,
		`    elif [ "${hk_d%%/*}" = T ] && command -v go >/dev/null 2>&1; then hk_c=go`,
		`    fi`,
		`    hk_why=' (hookify is not on PATH, in $GOBIN or in ~/go/bin: go install github.com/hookify/hookify/cmd/hookify@latest installs it)'`,
		`    if [ -n "$hk_c" ] && [ -z "${`+codegen.RebuiltEnv+`-}" ]; then`,
		`      if (cd "$hk_h/../.." && if [ "$hk_c" = go ]; then `+codegen.LiveEnv+`=1 go tool hookify `+rebuild+`; else `+codegen.LiveEnv+`=1 "$hk_c" `+rebuild+`; fi) </dev/null >&2; then`,
		`        `+codegen.RebuiltEnv+`=1`,
		`        export `+codegen.RebuiltEnv,
	)
	if rf.Entries == nil {
		w(`        [ -f "$0" ] && exec "$0" "$@"`)
	} else {
		perRuleRerun(w, rf, l)
	}
	// The script is gone with its last rule: this call is allowed.
	allow := func(indent string, a ir.Answer) {
		if !a.Empty {
			w(indent + `printf '%s\n' ` + shQuote(strings.TrimSuffix(string(a.Render("", "")), "\n")))
		}
		w(indent + "exit " + strconv.Itoa(a.Exit))
	}
	if !l.Unit.Dispatches() {
		allow("        ", l.Hooks[0].Allow)
	} else {
		w(`        case ${1-} in`)
		for _, h := range l.Hooks {
			w(`        ` + shQuote(h.Arg) + `)`)
			allow("          ", h.Allow)
			w(`          ;;`)
		}
		w(`        esac`)
		w(`        exit 1`)
	}
	w(
		`      fi`,
		`      hk_why=' (the hook ran it, and it failed)'`,
		`    elif [ -n "$hk_c" ]; then`,
		`      hk_why=' (the hook rebuilt, and they were still stale)'`,
		`    fi`,
		`    `+codegen.StaleEnv+`="hookify: the rule files changed after the hooks were built, and the hooks still enforce the rules as they were built: ${hk_d#*/}. Run `+cmd+rf.Where()+` to rebuild them$hk_why."`,
		`    export `+codegen.StaleEnv,
		`    printf '%s\n' "$`+codegen.StaleEnv+`" >&2`,
		`  fi`,
		`fi`,
	)
	return "\n" + strings.TrimSuffix(b.String(), "\n")
}

// noteData is the program's BEGIN line that reads the note, when the hook
// has the check.
const noteData = `  hk_st = ENVIRON["` + codegen.StaleEnv + `"]; if (hk_st != "") hk_st = hk_jq(hk_st)` + "\n"

// noteFunc is hk_jq, which makes the note JSON text: a backslash and a
// quote escaped, a control character a question mark.
const noteFunc = `# hk_jq(s): s as JSON text (the note on stale rules).
function hk_jq(s,   o, i, c) {
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\" || c == "\"") o = o "\\" c
    else if (c < " ") o = o "?"
    else o = o c
  }
  return o
}
`

// joinNote adds the note to the messages user and agent of an answer.
func joinNote(pr *codegen.Printer, user, agent string) {
	pr.Line(`if (hk_st != "") { %s = %[1]s hk_sep hk_st; %s = %[2]s hk_sep hk_st }`, user, agent)
}

// bakedRE finds the exact check's list in a wrapper that freshCheck wrote.
var bakedRE = regexp.MustCompile(`(?m)^\}' '([^'\n]*)' "\$hk_h/\.\./\.\./go\.mod" `)

// BakedRules reads back the rule files a Unix hook was built from, as
// freshCheck wrote them into its wrapper script: their names and
// fingerprints (names without a quote; ok is false for a script without
// the check).
func BakedRules(script []byte) (rf *codegen.RuleFiles, ok bool) {
	m := bakedRE.FindSubmatch(script)
	if m == nil {
		return nil, false
	}
	rf = &codegen.RuleFiles{}
	if len(m[1]) == 0 {
		return rf, true
	}
	parts := strings.Split(string(m[1]), "/")
	if len(parts)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(parts); i += 2 {
		sum, err := strconv.ParseUint(parts[i+1], 10, 32)
		if err != nil {
			return nil, false
		}
		rf.Names = append(rf.Names, parts[i])
		rf.Sums = append(rf.Sums, uint32(sum))
	}
	return rf, true
}

// perRuleRerun writes what a per-rule hook does once its rebuild
// succeeded (docs/live-rules.md, "The per-rule layout"): Cursor started, for
// this call, the scripts the old hooks.json named for the event (baked in
// as rf.Entries), in parallel, and each of them rebuilt or found the
// output rebuilt. Each runs its own new script, if it is still there, and
// the first of the old scripts that is still there (or, when none is, the
// first old one) also runs every script of the new build that the old
// hooks.json did not name for the event, so that a new rule acts in this
// very call and no script runs twice. The scripts run with EventEnv set
// (a script that serves no hook of the event prints nothing) on the
// payload, saved once to a temporary file, and the answers are combined
// into one, as one hook holding their rules answers: a block, with the
// messages of every block joined by a blank line, wins over a hook that
// could not decide, which wins over warnings, joined alike; else the
// event's allow answer (after this, written by the caller); answers are
// told apart and cut into messages by codegen.AnswerPieces. Without a
// temporary file the script runs itself again, as in the per-event layout.
func perRuleRerun(w func(...string), rf *codegen.RuleFiles, l *codegen.Layout) {
	words := func(names []string) string { return shQuote(" " + strings.Join(names, " ") + " ") }
	event := func(indent string, h *codegen.HookLayout) {
		e := h.Event.String()
		var names []string
		for _, en := range rf.Entries[e] {
			names = append(names, en.Name)
		}
		b, wa := codegen.AnswerPieces(h.Blocked), codegen.AnswerPieces(h.Warned)
		w(indent+`hk_e=`+shQuote(e)+` hk_o=`+words(names),
			indent+`hk_b0=`+shQuote(b[0])+` hk_b1=`+shQuote(b[1])+` hk_b2=`+shQuote(b[2])+` hk_bx=`+strconv.Itoa(h.Blocked.Exit),
			indent+`hk_w0=`+shQuote(wa[0])+` hk_w1=`+shQuote(wa[1])+` hk_w2=`+shQuote(wa[2])+` hk_wx=`+strconv.Itoa(h.Warned.Exit))
		// hk_pick: the old scripts Cursor started for this call (hk_s),
		// which depends on the tool where entries have matchers.
		cases := codegen.ToolCases(rf.Entries[e])
		if cases == nil {
			w(indent + `hk_pick() { hk_s=$hk_o; }`)
			return
		}
		w(indent+`hk_pick() {`,
			indent+`  hk_x=$("$hk_awk" '`+toolProgram+`' "$hk_t" 2>/dev/null)`,
			indent+`  case $hk_x in`)
		for _, c := range cases {
			var pats []string
			for _, t := range c.Tools {
				if t == codegen.MCPMatcher {
					pats = append(pats, "MCP:*")
				} else {
					pats = append(pats, shQuote(t))
				}
			}
			if c.Tools == nil {
				pats = []string{"*"}
			}
			w(indent + `  ` + strings.Join(pats, "|") + `) hk_s=` + words(c.Names) + ` ;;`)
		}
		w(indent+`  esac`, indent+`}`)
	}
	if !l.Unit.Dispatches() {
		event("        ", l.Hooks[0])
	} else {
		w(`        case ${1-} in`)
		for _, h := range l.Hooks {
			w(`        ` + shQuote(h.Arg) + `)`)
			event("          ", h)
			w(`          ;;`)
		}
		w(`        *) exit 1 ;;`, `        esac`)
	}
	if strings.Contains(rerun, "'") {
		panic("bash: a single quote in the per-rule rerun")
	}
	w(`        eval '` + rerun + `'`)
}

// rerun is the part of perRuleRerun that is the same in every script, after
// the event's hk_e (its name), hk_o (the old scripts of the event, each
// between spaces), hk_pick (which sets hk_s, those of them Cursor started
// for this call's tool, once the payload is in $hk_t), hk_b0-hk_b2 and
// hk_w0-hk_w2 (the fixed text of its block and warn answers, "" for a shape
// without messages) and hk_bx and hk_wx (their exit codes). The wrapper evals it from one single-quoted word:
// the shell reads a quoted word at a fraction of the cost of parsing the
// commands in it, and the fresh path, which skips it, still reads it. It
// holds no single quote.
const rerun = `
          hk_me=${0##*/}
          hk_me=${hk_me%.sh}
          hk_t=$(mktemp "${TMPDIR:-/tmp}/hookify.XXXXXX" 2>/dev/null) || hk_t=
          [ -z "$hk_t" ] || trap "rm -f \"\$hk_t\"" EXIT
          if [ -n "$hk_t" ] && cat >"$hk_t"; then
            hk_alive() {
              hk_y=
              [ -f "$1" ] && { read -r hk_y; read -r hk_y; } 2>/dev/null <"$1"
              [ -f "$1" ] && [ "$hk_y" != "` + codegen.RetiredLine + `" ]
            }
            hk_run=
            hk_alive "$0" && hk_run=$hk_me
            hk_pick
            hk_lead=
            for hk_f in $hk_s; do
              [ -n "$hk_lead" ] || hk_lead=$hk_f
              if hk_alive "$hk_h/$hk_f.sh"; then hk_lead=$hk_f; break; fi
            done
            if [ "$hk_lead" = "$hk_me" ]; then
              for hk_f in "$hk_h"/` + ir.ScriptPrefix + `*.sh; do
                hk_f=${hk_f##*/}
                hk_f=${hk_f%.sh}
                case $hk_o in *" $hk_f "*) continue ;; esac
                hk_x=
                [ -f "$hk_h/$hk_f.sh" ] || continue
                { read -r hk_x; read -r hk_x; } 2>/dev/null <"$hk_h/$hk_f.sh"
                case $hk_x in "# ` + codegen.HeaderPrefix + ` from "*" with --layout per-rule "*) hk_run="$hk_run $hk_f" ;; esac
              done
            fi
            hk_cut() {
              [ -n "$1" ] || return 1
              case $hk_a in "$1"*) ;; *) return 1 ;; esac
              hk_r=${hk_a#"$1"}
              hk_c2=
              if [ -z "$3" ]; then
                case $hk_r in *"$2") ;; *) return 1 ;; esac
                hk_c1=${hk_r%"$2"}
                return 0
              fi
              case $hk_r in *"$3") ;; *) return 1 ;; esac
              hk_r=${hk_r%"$3"}
              case $hk_r in *"$2"*) ;; *) return 1 ;; esac
              hk_c1=${hk_r%%"$2"*}
              hk_c2=${hk_r#*"$2"}
            }
            hk_n="\\n\\n" hk_B= hk_B1= hk_B2= hk_W= hk_W1= hk_W2= hk_F=0
            for hk_f in $hk_run; do
              hk_a=$(` + codegen.EventEnv + `=$hk_e "$hk_h/$hk_f.sh" "$hk_e" <"$hk_t")
              hk_x=$?
              if [ -z "$hk_a" ]; then
                [ "$hk_x" -le "$hk_F" ] || hk_F=$hk_x
              elif hk_cut "$hk_b0" "$hk_b1" "$hk_b2"; then
                [ -z "$hk_B" ] || { hk_B1=$hk_B1$hk_n; [ -z "$hk_b2" ] || hk_B2=$hk_B2$hk_n; }
                hk_B=1 hk_B1=$hk_B1$hk_c1 hk_B2=$hk_B2$hk_c2
              elif hk_cut "$hk_w0" "$hk_w1" "$hk_w2"; then
                [ -z "$hk_W" ] || { hk_W1=$hk_W1$hk_n; [ -z "$hk_w2" ] || hk_W2=$hk_W2$hk_n; }
                hk_W=1 hk_W1=$hk_W1$hk_c1 hk_W2=$hk_W2$hk_c2
              fi
            done
            if [ -n "$hk_B" ]; then
              printf "%s%s%s%s%s\n" "$hk_b0" "$hk_B1" "$hk_b1" "$hk_B2" "$hk_b2"
              exit "$hk_bx"
            fi
            [ "$hk_F" -eq 0 ] || exit "$hk_F"
            if [ -n "$hk_W" ]; then
              printf "%s%s%s%s%s\n" "$hk_w0" "$hk_W1" "$hk_w1" "$hk_W2" "$hk_w2"
              exit "$hk_wx"
            fi
          elif [ -f "$0" ]; then
            exec "$0" "$@"
          fi
        `

// toolProgram prints the tool_name of the payload file it reads: the value
// of the first "tool_name" key of a string without escapes, as Cursor's
// compact payloads hold it; nothing for any other. The scripts of one call
// read the same payload, so that they agree on it whatever it holds. It
// holds no single quote.
const toolProgram = `{ if (match($0, /"tool_name"[ \t]*:[ \t]*"[^"\\]*"/)) { s = substr($0, RSTART, RLENGTH); sub(/^"tool_name"[ \t]*:[ \t]*"/, "", s); print substr(s, 1, length(s) - 1); exit } }`
