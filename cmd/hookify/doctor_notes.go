package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/hooksjson"
)

// noteFacts are what doctor's notes depend on, read from hooks.json and
// the Claude Code settings files: a note is given only where it applies.
type noteFacts struct {
	user bool // the user level (~/.cursor)
	// events are the events with a hookify entry; gates: some hookify entry
	// sets failClosed or loop_limit.
	events map[string]bool
	gates  bool
	// foreignFirst are the events whose array has another entry ahead of
	// hookify's first one.
	foreignFirst []string
	// settings: a Claude Code settings file exists (.claude/settings*.json
	// here or ~/.claude/settings.json).
	settings bool
}

// read takes the facts of hooks.json's text.
func (f *noteFacts) read(data []byte, level hooksjson.Level) {
	file, err := hooksjson.Read(data)
	if err != nil {
		return
	}
	f.events = map[string]bool{}
	for _, ev := range file.Events {
		event := ev.Name
		foreign := false
		for _, raw := range ev.Entries {
			var e map[string]any
			if json.Unmarshal(raw, &e) != nil || !hooksjson.Owned(e, level) {
				foreign = true
				continue
			}
			if !f.events[event] && foreign {
				f.foreignFirst = append(f.foreignFirst, event)
			}
			f.events[event] = true
			if _, ok := e["failClosed"]; ok {
				f.gates = true
			}
			if _, ok := e["loop_limit"]; ok {
				f.gates = true
			}
		}
	}
}

func (f *noteFacts) any() bool { return len(f.events) > 0 }

// cursorNote is a note about what no file shows: applies returns its
// message where it applies here, else "".
type cursorNote struct {
	code    diag.Code
	applies func(*noteFacts) string
	fix     string
}

// cursorNotes are doctor's notes, in the order it prints them.
var cursorNotes = []cursorNote{{
	code: "workspace-trust",
	applies: func(f *noteFacts) string {
		return when(!f.user && f.any(), "Cursor runs a project's hooks only in a trusted workspace")
	},
	fix: "trust the folder when Cursor asks (Command Palette → Workspaces: Manage Workspace Trust)",
}, {
	code: "third-party-hooks",
	applies: func(f *noteFacts) string {
		return when(f.settings, "with Cursor's third-party hooks on, Claude Code hooks from .claude/settings*.json run as well")
	},
	fix: "see Cursor Settings → Rules, Skills, Subagents → Include third-party Plugins, Skills, and other configs",
}, {
	code: "cursor-version",
	applies: func(f *noteFacts) string {
		var needs []string
		if f.events["preToolUse"] || f.events["postToolUse"] {
			needs = append(needs, "preToolUse/postToolUse matchers need Cursor 2.4 or later")
		}
		if f.gates {
			needs = append(needs, "failClosed and loop_limit need later 3.x builds")
		}
		return strings.Join(needs, ", and ")
	},
	fix: "see Cursor → About for the version, and the Hooks output channel for each run",
}, {
	code: "entry-order",
	applies: func(f *noteFacts) string {
		return when(len(f.foreignFirst) > 0, fmt.Sprintf("another entry comes before hookify's in hooks.json's %s: older Cursor builds were reported to run only the first entry of an event, so hookify's would not run there", strings.Join(f.foreignFirst, ", ")))
	},
	fix: "run hookify build, which puts hookify's entries first",
}, {
	code: "cloud-stop",
	applies: func(f *noteFacts) string {
		return when(f.events["stop"], "Cursor's cloud agents run no stop hooks (FailproofAI/failproofai PR #318): the stop rules act only in local agents")
	},
	fix: "keep what a stop rule checks in CI too when cloud agents work on this project",
}, {
	code: "headless",
	applies: func(f *noteFacts) string {
		return when(!f.user && f.any(), "headless cursor-agent (the CLI) was reported not to run a project's hooks (cursor-agent 2026.10.01)")
	},
	fix: "before relying on the rules in a cursor-agent run, try one that a rule blocks",
}}

// when is msg if ok, else "".
func when(ok bool, msg string) string {
	if ok {
		return msg
	}
	return ""
}

// upstreamHook matches the command of upstream hookify's own Claude Code
// hooks, which run the plugin's Python scripts through its root:
// python3 ${CLAUDE_PLUGIN_ROOT}/hooks/pretooluse.py (and posttooluse.py,
// stop.py, userpromptsubmit.py).
var upstreamHook = regexp.MustCompile(`(?i)\$\{?CLAUDE_PLUGIN_ROOT\}?/hooks/(pretooluse|posttooluse|stop|userpromptsubmit)\.py`)

// runsHookify says how a Claude Code hook command runs hookify ("runs
// hookify too", or that it is upstream hookify's own hook), or "".
func runsHookify(command string) string {
	switch {
	case strings.Contains(strings.ToLower(command), "hookify"):
		return "runs hookify too"
	case upstreamHook.MatchString(command):
		return "is upstream hookify's own hook (it runs " + upstreamHook.FindString(command) + ", as the hookify plugin does)"
	}
	return ""
}
