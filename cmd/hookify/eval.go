package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookify/hookify/eval"
	"github.com/hookify/hookify/ir"
)

// evalCmd compiles the rules in memory and prints the answer that the hooks
// of one Cursor event give for the payload on stdin: the evaluator's
// answer, which the generated scripts print byte for byte. A summary goes
// to stderr. It writes nothing.
func evalCmd(c *cli, event string) int {
	res, root, stderr := c.res, c.root, c.stderr
	e, ok := ir.ParseCursorEvent(event)
	if !ok {
		if event == "" {
			c.errorf("--event is required: %s", cursorEventNames())
		} else {
			c.errorf("unknown Cursor event %q: use %s", event, cursorEventNames())
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
		return 1
	}
	hooks := eval.Hooks(res.Plan, e)
	if len(hooks) == 0 {
		fmt.Fprintf(stderr, "hookify eval: no hookify script runs on %s; Cursor gets no answer from hookify\n", e)
		return 0
	}
	env := hookEnv(hookDir(root, c.user), os.Environ(), c.opts.Warn == ir.WarnAllow)
	failed := false
	for _, h := range hooks {
		r := eval.Hook(h, raw, env)
		c.stdout.Write(r.Answer)
		fmt.Fprintf(stderr, "hookify eval: %s: %s\n", e, describe(r, h))
		for _, p := range r.Problems {
			fmt.Fprintf(stderr, "hookify eval: the evaluator cannot run %s; the condition is taken as false\n", p)
			failed = true
		}
	}
	if failed {
		return 1
	}
	return 0
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

func ruleNames(rs []*ir.Rule) string {
	var names []string
	for _, r := range rs {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

func cursorEventNames() string {
	var names []string
	for _, e := range ir.CursorEvents {
		names = append(names, e.String())
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
// to dir, regular and readable only (bash's -f and -r), and environ.
func hookEnv(dir string, environ []string, warnAllow bool) eval.Env {
	env := eval.Env{
		ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			st, err := os.Stat(name)
			if err != nil {
				return nil, err
			}
			if !st.Mode().IsRegular() {
				return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file")}
			}
			return os.ReadFile(name)
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
