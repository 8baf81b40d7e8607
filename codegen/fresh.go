package codegen

import (
	"github.com/hookify/hookify/ir"

	"fmt"
	"slices"
	"strings"
)

// What a generated hook knows about the rule files of its build, so that it
// notices at each call that they changed since (docs/live-rules.md,
// docs/live-rules.md).

// RulesDir and RulesPattern are the default rule input (README, "Usage"), as a hook
// globs it: RulesDir/RulesPattern under the root.
const (
	RulesDir     = ".claude"
	RulesPattern = "hookify.*.local.md"
)

// FreshStamp is the stamp a hook writes when its exact check found the rule
// files as they were built: while it is strictly newer than the script and
// every rule file, the hook trusts it and checks nothing more.
const FreshStamp = HooksDir + "/.hookify-fresh"

// StaleEnv is the variable through which a hook's wrapper tells its
// program that the rule files changed and the hook could not rebuild: the
// note for the agent, or unset.
const StaleEnv = "HOOKIFY_STALE"

// RebuiltEnv is set when a hook runs again after it rebuilt the output:
// rules still stale then do not rebuild again.
const RebuiltEnv = "HOOKIFY_REBUILT"

// EventEnv names the event for which a per-rule hook that rebuilt runs the
// other scripts of the new build on its payload: a script that serves no
// hook of that event prints nothing and exits 0 (docs/live-rules.md, "The
// per-rule layout").
const EventEnv = "HOOKIFY_EVENT"

// ToolLine is what go.mod records for `go get -tool` of hookify: a hook
// rebuilds with `go tool hookify` where go.mod names it.
const ToolLine = "github.com/hookify/hookify/cmd/hookify"

// RuleFiles is what every hook of a build knows about its rule files:
// the names under RulesDir that match RulesPattern, in bytewise order, the
// Fingerprint of each, and the build flags of a rebuild. A nil *RuleFiles
// makes hooks without the check (a build from rule files elsewhere, tests).
type RuleFiles struct {
	Names []string
	Sums  []uint32
	// Flags are the build flags of the output (Options.BuildFlags); User,
	// a user-level build (--user).
	Flags string
	User  bool
	// Entries are, in the per-rule layout, the scripts that hooks.json
	// runs for each Cursor event, in its order; nil in the per-event
	// layout. A hook that rebuilt tells from them which scripts Cursor
	// started for this call and which are new.
	Entries map[string][]ScriptEntry
}

// A ScriptEntry is a script (a unit name) that hooks.json runs for an
// event, and the entry's matcher ("" for none): tool names joined by "|",
// and the MCP tools' MCPMatcher.
type ScriptEntry struct {
	Name, Matcher string
}

// MCPMatcher is the alternative of a matcher that selects every MCP tool
// (ir.EventMCP's matcher).
const MCPMatcher = "MCP:.*"

// A ToolCase is the scripts of an event's entries that Cursor starts for a
// call of one of Tools: every literal tool name, or MCPMatcher for any MCP
// tool, or none for any other tool.
type ToolCase struct {
	Tools []string
	Names []string
}

// ToolCases are, for the entries of an event, the scripts Cursor starts
// for each tool a matcher names, grouped by the scripts, in the order of
// first mention, then the MCP tools, then any other tool (Tools nil); nil
// when no entry has a matcher (Cursor starts them all). Where Cursor's
// matching goes beyond this (a matcher is a regex that may search: Edit
// also selects MultiEdit), a script named here was started all the same.
func ToolCases(entries []ScriptEntry) []ToolCase {
	var tools []string
	has := func(e ScriptEntry, tool string) bool {
		return e.Matcher == "" || slices.Contains(strings.Split(e.Matcher, "|"), tool)
	}
	for _, e := range entries {
		if e.Matcher == "" {
			continue
		}
		for _, t := range strings.Split(e.Matcher, "|") {
			if t != MCPMatcher && !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
		}
	}
	if len(tools) == 0 && !slices.ContainsFunc(entries, func(e ScriptEntry) bool { return e.Matcher != "" }) {
		return nil
	}
	var cases []ToolCase
	add := func(tool string, names []string) {
		for i := range cases {
			if slices.Equal(cases[i].Names, names) && tool != "" && cases[i].Tools != nil {
				cases[i].Tools = append(cases[i].Tools, tool)
				return
			}
		}
		c := ToolCase{Names: names}
		if tool != "" {
			c.Tools = []string{tool}
		}
		cases = append(cases, c)
	}
	started := func(tool string) []string {
		names := []string{}
		for _, e := range entries {
			if has(e, tool) {
				names = append(names, e.Name)
			}
		}
		return names
	}
	for _, t := range tools {
		add(t, started(t))
	}
	add(MCPMatcher, started(MCPMatcher))
	add("", started(""))
	return cases
}

// fpMod is the modulus of Fingerprint: a prime below 2^31, so that h*31 +
// 255 stays exact in an awk's doubles and a sum prints with %d everywhere.
const fpMod = 2147483647

// Fingerprint is a rule file's content as a hook's awk recomputes it: over
// the lines of data as awk's getline splits them (at each newline; a final
// newline ends the last line and adds none), each without one CR at its
// end (a checkout with CRLF line ends, which the compiler reads alike, is
// the same file), h = (h*31 + b) % fpMod for each byte b of a line, then
// for a newline after it.
func Fingerprint(data []byte) uint32 {
	s := string(data)
	if s == "" {
		return 0
	}
	s = strings.TrimSuffix(s, "\n")
	var h uint64
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSuffix(line, "\r")
		for i := 0; i < len(line); i++ {
			h = (h*31 + uint64(line[i])) % fpMod
		}
		h = (h*31 + '\n') % fpMod
	}
	return uint32(h)
}

// Baked is the list of names and sums as the exact check reads it:
// "name/sum/name/sum", a slash being the one byte no file name holds.
func (rf *RuleFiles) Baked() string {
	var parts []string
	for i, n := range rf.Names {
		parts = append(parts, n, fmt.Sprint(rf.Sums[i]))
	}
	return strings.Join(parts, "/")
}

// Listed is the names as the wrapper's glob loop joins them: each after a
// space.
func (rf *RuleFiles) Listed() string {
	var b strings.Builder
	for _, n := range rf.Names {
		b.WriteString(" " + n)
	}
	return b.String()
}

// Where says where to run Command: " in the project root", or "" for a
// user-level build (--user finds the home directory itself).
func (rf *RuleFiles) Where() string {
	if rf.User {
		return ""
	}
	return " in the project root"
}

// Command is the command line that rebuilds the output from the root, as
// the note tells the agent to run it; platform is "windows" for the
// PowerShell twin's, else "".
func (rf *RuleFiles) Command(platform string) string {
	c := "hookify build"
	if rf.User {
		c += " --user"
	}
	c += " " + rf.Flags
	if platform != "" {
		c += " --platform " + platform
	}
	return c
}

// NoteAnswer is the answer through which hook h tells the agent that the
// rule files are stale when no rule matched: its warn answer's shape, on an
// event where that answer lets the action through and reaches the model
// (postToolUse's additional_context, ir.Deliver), and not where messages
// are sent once a loop (stop: a follow-up each stop would keep the agent
// going). ok is false for the other hooks: there the note only joins the
// messages of a block or warn answer (an allow on a gate reaches no one).
func (h *HookLayout) NoteAnswer() (a ir.Answer, ok bool) {
	if h.Event.Spec().FirstOnly != nil || h.Warned.Empty {
		return ir.Answer{}, false
	}
	d := ir.Deliver(h.Event, h.Warned.Render("note", "note"), h.Warned.Exit, h.FailClosed)
	return h.Warned, !d.Blocks && d.Agent == "note"
}

// An Outcome is one branch of the end of a hook, where it answers: the
// rules that blocked, then those that warned, then (with a note) the note
// on stale rules alone, then the allow. Both backends print them in this
// order; each knows the variables that say whether a branch is taken and
// hold its messages.
type Outcome struct {
	Kind   OutcomeKind
	Answer ir.Answer
	// JoinNote: the note on stale rules, when there is one, joins the
	// messages of the rules.
	JoinNote bool
}

// OutcomeKind names a branch of the answers.
type OutcomeKind int

const (
	Blocked OutcomeKind = iota // some rule blocked
	Warned                     // some rule warned
	Noted                      // no rule matched, and the rules are stale
	Allowed                    // otherwise: the last, taken unconditionally
)

// A Branch is how a backend spells an outcome but the allow: the
// condition that takes it, the texts of its messages for the user and the
// agent, and the variables the note on stale rules joins (JoinNote).
type Branch struct {
	Taken, User, Agent string
	NoteTo             [2]string
}

// AnswerSpelling is how a backend prints the end of a hook: its branches,
// and its printers of an answer (with the messages user and agent) and of
// the note joining the messages of a branch.
type AnswerSpelling struct {
	Branches map[OutcomeKind]Branch
	Answer   func(pr *Printer, a ir.Answer, user, agent string)
	JoinNote func(pr *Printer, user, agent string)
}

// PrintAnswers prints outs, h.Outcomes, in order: each branch an if
// statement (braces are alike in awk and PowerShell), the allow last.
func PrintAnswers(pr *Printer, outs []Outcome, s AnswerSpelling) {
	for _, o := range outs {
		if o.Kind == Allowed {
			s.Answer(pr, o.Answer, "", "")
			continue
		}
		b := s.Branches[o.Kind]
		pr.Line("if (%s) {", b.Taken)
		if o.JoinNote {
			s.JoinNote(pr.In(), b.NoteTo[0], b.NoteTo[1])
		}
		s.Answer(pr.In(), o.Answer, b.User, b.Agent)
		pr.Line("}")
	}
}

// Outcomes are the branches of h's answers; note says whether the hook
// checks that its rules are fresh (docs/live-rules.md).
func (h *HookLayout) Outcomes(note bool) []Outcome {
	var out []Outcome
	if h.Blocks {
		out = append(out, Outcome{Kind: Blocked, Answer: h.Blocked, JoinNote: note})
	}
	if h.Warns {
		out = append(out, Outcome{Kind: Warned, Answer: h.Warned, JoinNote: note})
	}
	if a, ok := h.NoteAnswer(); ok && note {
		out = append(out, Outcome{Kind: Noted, Answer: a})
	}
	return append(out, Outcome{Kind: Allowed, Answer: h.Allow})
}
