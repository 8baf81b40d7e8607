package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/ir"
)

// evalCmd compiles the rules in memory and prints the answer that the hooks
// of one event give for the payload on stdin: the evaluator's answer, which
// the generated scripts print byte for byte (a hookify event: the answers of
// each of its Cursor events). A summary goes to stderr: per hook, its
// decision and what Cursor delivers (ir.Deliver: whether the action is
// stopped, what the agent reads, what the user sees). It writes nothing,
// and exits 2 when Cursor would stop the action, else 0.
func evalCmd(c *cli, event string) int {
	res, root, stderr := c.res, c.root, c.stderr
	events, ok := eval.ParseEvents(event)
	if !ok {
		if event == "" {
			c.errorf("--event is required: %s", eventNames())
		} else {
			c.errorf("unknown event %q: use %s", event, eventNames())
		}
		return 2
	}
	raw, err := io.ReadAll(c.stdin)
	if err != nil {
		c.errorf("reading the payload: %v", err)
		return 1
	}
	if res.Diags.HasErrors() {
		printDiags(stderr, res.Diags)
		if !c.usable() {
			return 1
		}
		c.leftOut()
	}
	env := hookEnv(hookDir(root, c.user), os.Environ(), c.opts.Warn == ir.WarnAllow)
	failed, exit := false, 0
	for _, e := range events {
		if exit == 2 {
			// Cursor fires nothing more for an action it stopped.
			c.errorf("%s: not reached: the action was stopped", e)
			continue
		}
		hooks := eval.Hooks(res.Cursor, e)
		if len(hooks) == 0 {
			c.errorf("no hookify script runs on %s; Cursor gets no answer from hookify", e)
		}
		for _, h := range hooks {
			r := eval.Hook(h, raw, env)
			c.stdout.Write(r.Answer)
			c.errorf("%s: %s", e, describe(r, h))
			d := ir.Deliver(e, r.Answer, r.Exit, h.FailClosed)
			for _, line := range delivered(d) {
				c.errorf("%s: %s", e, line)
			}
			for _, p := range r.Problems {
				c.errorf("the evaluator cannot run %s; the condition is taken as false", p)
				failed = true
			}
			if d.Blocks {
				exit = 2
			}
		}
	}
	if failed {
		return 1
	}
	return exit
}

// describe is a one-line account of a result.
func describe(r eval.Result, h *ir.Hook) string {
	var b strings.Builder
	b.WriteString(r.Expect(h.FailClosed).String())
	if r.Outcome == ir.Failed {
		fmt.Fprintf(&b, " (the payload cannot be read: %v", r.Err)
		if h.FailClosed {
			b.WriteString("; the hook holds block rules, so it fails closed)")
		} else {
			b.WriteString("; the hook fails open)")
		}
	}
	if len(r.Matched) > 0 {
		b.WriteString(", matched " + ruleNames(r.Matched))
	}
	fmt.Fprintf(&b, ", exit %d", r.Exit)
	return b.String()
}

// delivered says what Cursor does with an answer (ir.Deliver), as lines:
// whether the call goes ahead, what the agent reads, what the user sees.
func delivered(d ir.Delivery) []string {
	var out []string
	if d.Blocks {
		out = append(out, "Cursor stops the action")
	} else {
		out = append(out, "Cursor lets the action go ahead")
	}
	say := func(who, how, text string) {
		if text == "" {
			out = append(out, who+" nothing")
		} else {
			out = append(out, fmt.Sprintf("%s (%s): %s", who, how, ir.JSONString(text)))
		}
	}
	say("the agent reads", d.AgentHow, d.Agent)
	say("the user sees", d.UserHow, d.User)
	return out
}

func ruleNames(rs []*ir.Rule) string {
	var names []string
	for _, r := range rs {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// eventNames are the values of eval --event.
func eventNames() string {
	var names []string
	for _, e := range ir.CursorEvents {
		names = append(names, e.String())
	}
	for _, name := range ir.EventNames(ir.Rows) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// hookDir is the working directory Cursor runs hookify's hooks in: the
// project root, or ~/.cursor for user-level hooks.
func hookDir(root string, user bool) string {
	if user {
		return filepath.Join(root, ".cursor")
	}
	return root
}

// hookEnv is the evaluator's view of a hook's surroundings: files relative
// to dir, regular and readable only (test -f and -r), and environ.
func hookEnv(dir string, environ []string, warnAllow bool) eval.Env {
	env := eval.Env{
		ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return readRegular(name)
		},
		Getenv: func(key string) string {
			v := ""
			for _, kv := range environ {
				if k, val, ok := strings.Cut(kv, "="); ok && k == key {
					v = val
				}
			}
			return v
		},
	}
	if warnAllow {
		env.Warn = ir.WarnAllow
	}
	return env
}
