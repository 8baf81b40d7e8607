package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Dump renders a program and its plan as stable text, for golden tests and
// debugging. Strings are Go-quoted.
func Dump(p *Program, plan *Cursor) string {
	var b strings.Builder
	w := func(indent int, format string, args ...any) {
		b.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	for _, r := range p.Rules {
		w(0, "rule %s at %s", strconv.Quote(r.Name), r.Pos)
		w(1, "event %s, action %s", r.Event, r.Action)
		if r.Prompt {
			w(1, "prompt hook")
		}
		if r.Tools != nil {
			w(1, "tools %s", strings.Join(r.Tools, "|"))
		}
		cond := func(indent int, c *Condition) {
			w(indent, "condition %s %s %s at %s", c.Field, c.Op, strconv.Quote(c.Pattern), c.PatternPos)
			if c.ERE != "" {
				w(indent+1, "ere %s", strconv.Quote(c.ERE))
			}
			if c.Words != "" {
				w(indent+1, "words %s", c.Words)
			}
			if c.Needle != "" {
				w(indent+1, "needle %s", strconv.Quote(c.Needle))
			}
		}
		for i := range r.MCP {
			m := &r.MCP[i]
			w(1, "mcp tool %s", m.Pattern)
			cond(2, &m.Tool)
			cond(2, &m.Server)
		}
		for i := range r.Conditions {
			cond(1, &r.Conditions[i])
		}
		w(1, "agent message %s", strconv.Quote(r.AgentMessage()))
		w(1, "user message %s", strconv.Quote(r.UserMessage()))
	}
	if plan == nil {
		return b.String()
	}
	for _, u := range plan.Units {
		w(0, "unit %s from %s", u.Name, strings.Join(u.Sources, ", "))
		for _, h := range u.Hooks {
			var attrs []string
			if h.Matcher != "" {
				attrs = append(attrs, "matcher "+strconv.Quote(h.Matcher))
			}
			if h.FailClosed {
				attrs = append(attrs, "failClosed")
			}
			if h.LoopLimit != 0 {
				attrs = append(attrs, fmt.Sprintf("loop_limit %d", h.LoopLimit))
			}
			w(1, "hook %s %s", h.Event, strings.Join(attrs, ", "))
			var keys []string
			for _, k := range h.Keys() {
				keys = append(keys, k.String())
			}
			w(2, "reads %s", strings.Join(keys, " "))
			for _, c := range h.Checks {
				w(2, "check %s (%s)", strconv.Quote(c.Rule.Name), c.Rule.Action)
				if len(c.Tools) > 0 {
					w(3, "tool in %s", strings.Join(c.Tools, "|"))
				}
				for _, cd := range c.Conds {
					w(3, "%s %s %s, %s from %s", cd.Field, cd.Op, strconv.Quote(cd.Pattern), cd.Field, cd.Src)
				}
				for _, group := range c.Any {
					w(3, "or")
					for _, cd := range group {
						w(4, "%s %s %s, %s from %s", cd.Field, cd.Op, strconv.Quote(cd.Pattern), cd.Field, cd.Src)
					}
				}
			}
		}
	}
	for _, ph := range plan.Prompts {
		attrs := ""
		if ph.Matcher != "" {
			attrs = " matcher " + strconv.Quote(ph.Matcher)
		}
		w(0, "prompt hook %s for %s%s", ph.Event, strconv.Quote(ph.Rule.Name), attrs)
	}
	return b.String()
}

func (s Source) String() string {
	var parts []string
	switch {
	case s.LastAssistant:
		parts = append(parts, "the last assistant entry of the file at "+TranscriptKey.String()+" or $"+TranscriptEnv)
	case s.Transcript:
		parts = append(parts, "the file at "+TranscriptKey.String()+" or $"+TranscriptEnv)
	}
	var keys []string
	for _, k := range s.Keys {
		keys = append(keys, k.String())
	}
	switch len(keys) {
	case 0:
	case 1:
		parts = append(parts, keys[0])
	default: // every set key is a candidate
		parts = append(parts, "each set one of "+strings.Join(keys, ", "))
	}
	out := strings.Join(parts, ", else ")
	if s.HasDefault {
		out += `, else ""`
	}
	return out
}
