package hooksjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookify/hookify/ir"
)

// lines joins its arguments with newlines and adds a final one, so expected
// files read like files.
func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

var (
	shellEntry = Entry{Command: ".cursor/hooks/hookify-beforeShellExecution.sh", Timeout: 10, FailClosed: true}
	stopEntry  = Entry{Command: ".cursor/hooks/hookify-stop.sh", LoopLimit: 5}
	fileEntry  = Entry{Command: ".cursor/hooks/hookify-preToolUse.sh", Matcher: "Write|StrReplace|Edit|MultiEdit|ApplyPatch", Timeout: 10}
	promptEnt  = Entry{Type: "prompt", Prompt: "[hookify:check-tests] Did the agent run the tests? $ARGUMENTS", Timeout: 30}
)

func TestMerge(t *testing.T) {
	tests := []struct {
		name     string
		existing string
		owned    map[string][]Entry
		want     string
	}{{
		name:  "no file",
		owned: map[string][]Entry{"stop": {stopEntry}, "beforeShellExecution": {shellEntry}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "hooks": {`,
			`    "beforeShellExecution": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-beforeShellExecution.sh",`,
			`        "timeout": 10,`,
			`        "failClosed": true`,
			`      }`,
			`    ],`,
			`    "stop": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-stop.sh",`,
			`        "loop_limit": 5`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name:     "whitespace only is no file",
		existing: " \n\t\r\n",
		owned:    nil,
		want:     lines(`{`, `  "version": 1,`, `  "hooks": {}`, `}`),
	}, {
		name:     "empty object gets version first and hooks last",
		existing: `{"$comment": "team hooks"}`,
		owned:    map[string][]Entry{"stop": {stopEntry}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "$comment": "team hooks",`,
			`  "hooks": {`,
			`    "stop": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-stop.sh",`,
			`        "loop_limit": 5`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name: "all key kinds and every field",
		owned: map[string][]Entry{"preToolUse": {{
			Type: "prompt", Prompt: "[hookify:x] <check> && done", Matcher: "Write", Timeout: 3, LoopLimit: 2, FailClosed: true,
		}}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "hooks": {`,
			`    "preToolUse": [`,
			`      {`,
			`        "type": "prompt",`,
			`        "prompt": "[hookify:x] <check> && done",`,
			`        "matcher": "Write",`,
			`        "timeout": 3,`,
			`        "loop_limit": 2,`,
			`        "failClosed": true`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name: "foreign entries keep keys, key order and escapes, behind the owned ones, which come first",
		existing: lines(
			`{`,
			`  "hooks": {`,
			`    "beforeShellExecution": [`,
			`      {"timeout": 5, "command": "./audit.sh && echo \u003cok\u003e", "x-note": {"b": 1, "a": [true, null]}},`,
			`      {"command": ".cursor/hooks/hookify-old-rule.sh"},`,
			`      {"command": "python3 guard.py", "failClosed": true},`,
			`      {"command": ".cursor/hooks/hookify-other-rule.sh"}`,
			`    ]`,
			`  },`,
			`  "version": 2,`,
			`  "zz": 1.50`,
			`}`),
		owned: map[string][]Entry{"beforeShellExecution": {shellEntry, fileEntry}},
		want: lines(
			`{`,
			`  "hooks": {`,
			`    "beforeShellExecution": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-beforeShellExecution.sh",`,
			`        "timeout": 10,`,
			`        "failClosed": true`,
			`      },`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-preToolUse.sh",`,
			`        "matcher": "Write|StrReplace|Edit|MultiEdit|ApplyPatch",`,
			`        "timeout": 10`,
			`      },`,
			`      {`,
			`        "timeout": 5,`,
			`        "command": "./audit.sh && echo \u003cok\u003e",`,
			`        "x-note": {`,
			`          "b": 1,`,
			`          "a": [`,
			`            true,`,
			`            null`,
			`          ]`,
			`        }`,
			`      },`,
			`      {`,
			`        "command": "python3 guard.py",`,
			`        "failClosed": true`,
			`      }`,
			`    ]`,
			`  },`,
			`  "version": 1,`,
			`  "zz": 1.50`,
			`}`),
	}, {
		name: "owned entries go before foreign ones when there were none",
		existing: lines(
			`{"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}`),
		owned: map[string][]Entry{"stop": {stopEntry}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "hooks": {`,
			`    "stop": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-stop.sh",`,
			`        "loop_limit": 5`,
			`      },`,
			`      {`,
			`        "command": "./notify.sh"`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name: "events that held only owned entries are dropped, others kept in order, new ones sorted at the end",
		existing: lines(`{"version": 1, "hooks": {`,
			`  "stop": [{"command": ".cursor/hooks/hookify-stop.sh"}],`,
			`  "afterFileEdit": [],`,
			`  "beforeReadFile": [{"command": ".cursor/hooks/hookify-beforeReadFile.sh"}, "not an object", 3],`,
			`  "beforeSubmitPrompt": [{"type": "prompt", "prompt": "[hookify:p] x"}, {"type": "prompt", "prompt": "mine"}],`,
			`  "sessionStart": [{"command": ".cursor/hooks/hookify-sessionStart.sh"}]`,
			`}}`),
		owned: map[string][]Entry{
			"stop":                 nil,
			"zEvent":               {{Command: ".cursor/hooks/hookify-z.sh"}},
			"postToolUse":          {{Command: "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-postToolUse.ps1"}},
			"beforeShellExecution": {},
		},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "hooks": {`,
			`    "afterFileEdit": [],`,
			`    "beforeReadFile": [`,
			`      "not an object",`,
			`      3`,
			`    ],`,
			`    "beforeSubmitPrompt": [`,
			`      {`,
			`        "type": "prompt",`,
			`        "prompt": "mine"`,
			`      }`,
			`    ],`,
			`    "postToolUse": [`,
			`      {`,
			`        "command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-postToolUse.ps1"`,
			`      }`,
			`    ],`,
			`    "zEvent": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-z.sh"`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name:     "keys are kept exactly as written",
		existing: `{"vers\u0069on": 0, "x\u00e9": "\u00e9", "hooks": {"st\u006fp": [{"command": ".cursor/hooks/hookify-a.sh"}]}}`,
		owned:    map[string][]Entry{"stop": {stopEntry}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "x\u00e9": "\u00e9",`,
			`  "hooks": {`,
			`    "st\u006fp": [`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-stop.sh",`,
			`        "loop_limit": 5`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge([]byte(tt.existing), tt.owned, Project)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Merge (-want +got):\n%s", diff)
			}
			if !json.Valid(got) {
				t.Errorf("Merge produced invalid JSON")
			}
			again, err := Merge(got, tt.owned, Project)
			if err != nil {
				t.Fatalf("second Merge: %v", err)
			}
			if diff := cmp.Diff(string(got), string(again)); diff != "" {
				t.Errorf("Merge is not idempotent (-first +second):\n%s", diff)
			}
		})
	}
}

func TestMergeErrors(t *testing.T) {
	tests := []struct {
		name     string
		existing string
		want     *Error
	}{
		{"syntax", "{\n  \"hooks\": {\n    \"stop\" []\n  }\n}", &Error{3, 12, "invalid JSON: invalid character '[' after object key"}},
		{"trailing comma", "{\"hooks\": {},\n}", &Error{2, 1, "invalid JSON: invalid character '}' looking for beginning of object key string"}},
		{"truncated", "{\"hooks\": {", &Error{1, 12, "invalid JSON: unexpected end of JSON input"}},
		{"trailing data", "{}\n{}", &Error{2, 1, "invalid JSON: invalid character '{' after top-level value"}},
		{"byte order mark", "\xef\xbb\xbf{}", &Error{1, 1, "file starts with a UTF-8 byte order mark; save it without one"}},
		{"top level array", "\n  [1]", &Error{2, 3, "the top level is an array, want an object"}},
		{"top level string", `"x"`, &Error{1, 1, "the top level is a string, want an object"}},
		{"hooks not an object", `{"version": 1, "hooks": [1]}`, &Error{1, 25, `"hooks" is an array, want an object`}},
		{"hooks null", "{\"hooks\":\n\tnull}", &Error{2, 2, `"hooks" is null, want an object`}},
		{"event not an array", "{\"hooks\": {\"stop\": [],\n  \"beforeShellExecution\": {\"command\": \"x\"}}}", &Error{2, 27, `event "beforeShellExecution" is an object, want an array`}},
		{"event is a number", `{"hooks": {"stop": 5}}`, &Error{1, 20, `event "stop" is a number, want an array`}},
		{"duplicate event", `{"hooks": {"stop": [], "stop": []}}`, &Error{1, 24, `duplicate event "stop"`}},
		{"duplicate hooks", `{"hooks": {}, "hooks": {}}`, &Error{1, 15, `duplicate key "hooks"`}},
		{"duplicate version", `{"version": 1, "version": 1}`, &Error{1, 16, `duplicate key "version"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge([]byte(tt.existing), map[string][]Entry{"stop": {stopEntry}}, Project)
			if got != nil {
				t.Errorf("Merge returned output %q with an error", got)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Merge error = %v (%T), want *Error", err, err)
			}
			if diff := cmp.Diff(tt.want, e); diff != "" {
				t.Errorf("Merge error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	got := (&Error{Line: 3, Col: 5, Msg: "bad"}).Error()
	if want := "3:5: bad"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestMergeRejectsBadEntries(t *testing.T) {
	tests := []struct {
		name  string
		owned map[string][]Entry
		want  string
	}{
		{"empty event", map[string][]Entry{"": {stopEntry}}, "hooksjson: empty event name"},
		{"no command", map[string][]Entry{"stop": {{Timeout: 1}}}, "hooksjson: stop entry 0: command hook without a command"},
		{"command with prompt", map[string][]Entry{"stop": {{Command: ".cursor/hooks/hookify-a.sh", Prompt: "[hookify:a]"}}}, "hooksjson: stop entry 0: command hook with a prompt"},
		{"no prompt", map[string][]Entry{"stop": {stopEntry, {Type: "prompt"}}}, "hooksjson: stop entry 1: prompt hook without a prompt"},
		{"unknown type", map[string][]Entry{"stop": {{Type: "command", Command: ".cursor/hooks/hookify-a.sh"}}}, `hooksjson: stop entry 0: unknown type "command"`},
		{"negative", map[string][]Entry{"stop": {{Command: ".cursor/hooks/hookify-a.sh", Timeout: -1}}}, "hooksjson: stop entry 0: negative timeout or loop_limit"},
		{"foreign command", map[string][]Entry{"stop": {{Command: "./stop.sh"}}}, `hooksjson: stop entry 0: entry would not be recognised as hookify's (command must run .cursor/hooks/hookify-<name>.sh or .ps1 as hookify writes it, prompt must start with "[hookify:")`},
		{"user-level command at project level", map[string][]Entry{"stop": {{Command: "hooks/hookify-a.sh"}}}, `hooksjson: stop entry 0: entry would not be recognised as hookify's (command must run .cursor/hooks/hookify-<name>.sh or .ps1 as hookify writes it, prompt must start with "[hookify:")`},
		{"foreign prompt", map[string][]Entry{"stop": {{Type: "prompt", Prompt: "check"}}}, `hooksjson: stop entry 0: entry would not be recognised as hookify's (command must run .cursor/hooks/hookify-<name>.sh or .ps1 as hookify writes it, prompt must start with "[hookify:")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(nil, tt.owned, Project)
			if err == nil {
				t.Fatalf("Merge succeeded, want error %q", tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("Merge error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOwned(t *testing.T) {
	tests := []struct {
		entry string
		level Level
		want  bool
	}{
		{`{"command": ".cursor/hooks/hookify-stop.sh"}`, Project, true},
		{`{"command": "hooks/hookify-stop.sh"}`, User, true},
		{`{"command": ".cursor/hooks/hookify-block_rm.v2.sh beforeShellExecution"}`, Project, true},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1"}`, Project, true},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1; exit $LASTEXITCODE"}`, Project, true},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File hooks/hookify-a.ps1 preToolUse; exit $LASTEXITCODE"}`, User, true},
		{`{"type": "command", "command": ".cursor/hooks/hookify-a.sh", "timeout": 3}`, Project, true},
		{`{"type": "prompt", "prompt": "[hookify:no-todo] Check $ARGUMENTS"}`, Project, true},
		{`{"type": "prompt", "prompt": "[hookify:no-todo] Check $ARGUMENTS"}`, User, true},

		// Someone else's, however close.
		{`{"type": "prompt", "prompt": "Check [hookify:x]"}`, Project, false},
		{`{"prompt": "[hookify:x] a command entry with a stray prompt", "command": "./x.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/audit.sh"}`, Project, false},
		{`{"command": ".cursor/hookify-stop.sh"}`, Project, false},
		{`{"command": "/opt/x/hooks/hookify-audit.sh"}`, Project, false},
		{`{"command": "/opt/x/hooks/hookify-audit.sh"}`, User, false},
		{`{"command": "python3 tools/hooks/hookify-lint.py"}`, Project, false},
		{`{"command": "node .cursor/hooks/hookify-notify.js"}`, Project, false},
		{`{"command": "./git-hooks/hookify-x.sh"}`, Project, false},
		{`{"command": "git-hooks/hookify-x.sh"}`, User, false},
		{`{"command": "./.cursor/hooks/hookify-x.sh"}`, Project, false},
		{`{"command": "bash .cursor/hooks/hookify-x.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh --verbose"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh stop 2>/dev/null"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh "}`, Project, false},
		{`{"command": " .cursor/hooks/hookify-x.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh; exit $LASTEXITCODE"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh && ./notify.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.ps1"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify--x.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x-.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-a b.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-x.sh.bak"}`, Project, false},
		{`{"command": ".cursor/hooks/sub/hookify-x.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/Hookify-x.sh"}`, Project, false},
		{`{"command": "hooks/hookify-stop.sh"}`, Project, false},
		{`{"command": ".cursor/hooks/hookify-stop.sh"}`, User, false},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.sh"}`, Project, false},
		{`{"command": "powershell -File .cursor/hooks/hookify-stop.ps1"}`, Project, false},
		{`{"command": "pwsh -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1"}`, Project, false},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1; exit $LASTEXITCODE; exit $LASTEXITCODE"}`, Project, false},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1 -Verbose"}`, Project, false},
		{`{"command": 3}`, Project, false},
		{`{}`, Project, false},
	}
	for _, tt := range tests {
		var m map[string]any
		if err := json.Unmarshal([]byte(tt.entry), &m); err != nil {
			t.Fatal(err)
		}
		if got := Owned(m, tt.level); got != tt.want {
			t.Errorf("Owned(%s, %v) = %v, want %v", tt.entry, tt.level, got, tt.want)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		command string
		level   Level
		want    Script
	}{
		{".cursor/hooks/hookify-stop.sh", Project, Script{Path: ".cursor/hooks/hookify-stop.sh", Name: "stop"}},
		{"hooks/hookify-a.sh beforeShellExecution", User, Script{Path: "hooks/hookify-a.sh", Name: "a", Event: "beforeShellExecution"}},
		{"powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-a.ps1 preToolUse; exit $LASTEXITCODE", Project,
			Script{Path: ".cursor/hooks/hookify-a.ps1", Name: "a", PowerShell: true, Event: "preToolUse"}},
	}
	for _, tt := range tests {
		got, ok := ParseCommand(tt.command, tt.level)
		if !ok {
			t.Errorf("ParseCommand(%q) is not hookify's", tt.command)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseCommand(%q) (-want +got):\n%s", tt.command, diff)
		}
	}
}

// FuzzMerge checks that Merge never panics, that its output is valid JSON
// that keeps foreign entries, and that it is idempotent.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"version": 1, "hooks": {"stop": [{"command": "./a.sh"}, {"command": ".cursor/hooks/hookify-x.sh"}]}}`))
	f.Add([]byte(`{"hooks": {"beforeShellExecution": [], "x": [1, "2", null]}, "k": {"a": [{}]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"hooks": {"stop": {}}}`))
	f.Add([]byte(`{"hooks": {"stop": [{"command": "/opt/x/hooks/hookify-audit.sh"}, {"command": "python3 tools/hooks/hookify-lint.py"}, {"command": ".cursor/hooks/hookify-x.sh"}, {"command": "node .cursor/hooks/hookify-notify.js"}, {"command": "./git-hooks/hookify-x.sh"}]}}`))
	owned := map[string][]Entry{"stop": {stopEntry}, "beforeSubmitPrompt": {promptEnt}}
	f.Fuzz(func(t *testing.T, existing []byte) {
		got, err := Merge(existing, owned, Project)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Col < 1 {
				t.Fatalf("Merge error %v (%T) is not a positioned *Error", err, err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("invalid output %q", got)
		}
		// Every foreign entry of every event is still there, in order.
		var in, out struct{ Hooks map[string][]json.RawMessage }
		if json.Unmarshal(existing, &in) == nil {
			if err := json.Unmarshal(got, &out); err != nil {
				t.Fatalf("output hooks: %v\n%s", err, got)
			}
			for ev, entries := range in.Hooks {
				var want, have []string
				for _, e := range entries {
					if !ownedRaw(e, Project) {
						want = append(want, compact(t, e))
					}
				}
				for _, e := range out.Hooks[ev] {
					if !ownedRaw(e, Project) {
						have = append(have, compact(t, e))
					}
				}
				if !slices.Equal(want, have) {
					t.Fatalf("event %s: foreign entries %q became %q", ev, want, have)
				}
			}
		}
		again, err := Merge(got, owned, Project)
		if err != nil {
			t.Fatalf("second Merge: %v", err)
		}
		if string(again) != string(got) {
			t.Fatalf("not idempotent:\n%s\n%s", got, again)
		}
	})
}

func compact(t *testing.T, raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// choices turns fuzz bytes into choices; past the end every choice is 0.
type choices []byte

func (c *choices) pick(n int) int {
	if len(*c) == 0 {
		return 0
	}
	b := (*c)[0]
	*c = (*c)[1:]
	return int(b) % n
}

func (c *choices) of(options ...string) string { return options[c.pick(len(options))] }

// command is a hooks.json command built from the parts of the forms that
// hookify writes (README, "Ownership").
type command struct{ prefix, dir, stem, name, ext, event, suffix string }

func (c command) String() string {
	s := c.prefix + c.dir + c.stem + c.name + c.ext
	if c.event != "" {
		s += " " + c.event
	}
	return s + c.suffix
}

// ownedCommand builds a command in a form that hookify writes at level.
func ownedCommand(c *choices, level Level) command {
	var raw []byte
	for range c.pick(12) {
		raw = append(raw, byte(c.pick(256)))
	}
	cmd := command{dir: level.Dir(), stem: "hookify-", name: ir.FileName(string(raw)), ext: ".sh"}
	if c.pick(2) == 1 {
		cmd.prefix, cmd.ext, cmd.suffix = WindowsPrefix, ".ps1", c.of("", WindowsSuffix)
	}
	cmd.event = c.of("", "", "stop", "beforeShellExecution", "preToolUse")
	return cmd
}

// nearMiss changes one part of an owned command so that it becomes someone
// else's: a script elsewhere, run by an interpreter, with other arguments,
// another extension, or a name that hookify never writes.
func nearMiss(c *choices, cmd command, level Level) command {
	other := User
	if level == User {
		other = Project
	}
	switch c.pick(7) {
	case 0:
		cmd.prefix = c.of("/opt/x/", "./", "python3 ", "node ", "bash ", "sh ", " ", "git-", "pwsh ") + cmd.prefix
	case 1:
		cmd.dir = c.of(other.Dir(), "/opt/x/hooks/", "tools/hooks/", "git-hooks/", "./git-hooks/", cmd.dir+"sub/", "", "./"+cmd.dir, "/"+cmd.dir)
	case 2:
		cmd.stem = c.of("hookify_", "Hookify-", "hookify", "my-hookify-", "")
	case 3:
		cmd.name = c.of("", "-x", "x-", ".x", "x.", "a b", "a;b", "x/y", strings.Repeat("a", 101))
	case 4:
		swapped := ".ps1"
		if cmd.ext == ".ps1" {
			swapped = ".sh"
		}
		cmd.ext = c.of(".py", ".js", ".bash", cmd.ext+".bak", swapped, "")
	case 5:
		cmd.event = c.of("--verbose", "stop 2>/dev/null", "stop stop", "be4", " ", "-stop")
	default:
		switch {
		case cmd.prefix == "":
			cmd.suffix = c.of("; exit 0", " && ./notify.sh", WindowsSuffix, " ", "\n")
		case cmd.suffix == "":
			cmd.suffix = c.of("; exit 0", "; exit $LastExitCode", WindowsSuffix+WindowsSuffix, " ")
		default:
			cmd.suffix += c.of("; exit 0", WindowsSuffix, " ")
		}
	}
	return cmd
}

// FuzzOwnership merges hooks.json files whose entries' owners are known by
// construction: commands and prompts in the forms hookify writes, and near
// misses one change away from them. Every near miss must survive in place
// and in order, every owned entry must give way to hookify's new ones.
func FuzzOwnership(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3, 0, 0, 1, 0, 1, 0, 2, 1, 4, 5, 6, 7})
	f.Add([]byte{1, 9, 'a', 'b', 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9})
	f.Add([]byte("project and user level, every mutation: \x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d"))
	events := []string{"stop", "beforeShellExecution", "preToolUse"}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := choices(data)
		level := Level(c.pick(2))
		mine := map[string][]Entry{}
		mineJSON := map[string]string{}
		for _, ev := range events {
			if c.pick(2) == 1 {
				mine[ev] = []Entry{{Command: level.Dir() + "hookify-" + ev + ".sh", Timeout: 10}}
				mineJSON[ev] = `{"command":` + string(encodeString(level.Dir()+"hookify-"+ev+".sh")) + `,"timeout":10}`
			}
		}
		var in, want strings.Builder
		in.WriteString(`{"version":1,"hooks":{`)
		want.WriteString(`{"version":1,"hooks":{`)
		var wantEvents []string
		for i, ev := range events[:c.pick(len(events)+1)] {
			if i > 0 {
				in.WriteByte(',')
			}
			var entries, kept []string
			if mineJSON[ev] != "" {
				kept = append(kept, mineJSON[ev]) // hookify's entries come first
			}
			for range c.pick(6) {
				var entry string
				owned := c.pick(3) == 0
				switch cmd := ownedCommand(&c, level); {
				case c.pick(5) == 0 && owned:
					entry = `{"type":"prompt","prompt":"[hookify:x] check $ARGUMENTS"}`
				case c.pick(5) == 0:
					entry = `{"type":"prompt","prompt":` + string(encodeString(c.of(" [hookify:x]", "[Hookify:x]", "check [hookify:x]", "hookify:x]"))) + `}`
					owned = false
				case owned:
					entry = `{"command":` + string(encodeString(cmd.String())) + `}`
				default:
					entry = `{"command":` + string(encodeString(nearMiss(&c, cmd, level).String())) + `,"x":1}`
				}
				entries = append(entries, entry)
				if !owned {
					kept = append(kept, entry)
				}
			}
			in.WriteString(string(encodeString(ev)) + ":[" + strings.Join(entries, ",") + "]")
			if len(kept) > 0 || len(entries) == 0 {
				wantEvents = append(wantEvents, string(encodeString(ev))+":["+strings.Join(kept, ",")+"]")
			}
			delete(mineJSON, ev)
		}
		for _, ev := range slices.Sorted(maps.Keys(mineJSON)) {
			wantEvents = append(wantEvents, string(encodeString(ev))+":["+mineJSON[ev]+"]")
		}
		in.WriteString("}}")
		want.WriteString(strings.Join(wantEvents, ",") + "}}")

		got, err := Merge([]byte(in.String()), mine, level)
		if err != nil {
			t.Fatalf("Merge(%s): %v", in.String(), err)
		}
		var wantOut bytes.Buffer
		if err := json.Indent(&wantOut, []byte(want.String()), "", "  "); err != nil {
			t.Fatalf("the test built invalid JSON: %v\n%s", err, want.String())
		}
		wantOut.WriteByte('\n')
		if diff := cmp.Diff(wantOut.String(), string(got)); diff != "" {
			t.Errorf("Merge at level %v of\n%s\n(-want +got):\n%s", level, in.String(), diff)
		}
	})
}

// TestNearMisses tries every change that nearMiss makes on each form that
// hookify writes: the form is hookify's, the changed command never is.
func TestNearMisses(t *testing.T) {
	for _, level := range []Level{Project, User} {
		for _, form := range [][]byte{{0, 1, 'a', 0, 0}, {0, 1, 'a', 1, 0, 2}, {0, 1, 'a', 1, 1, 3}, {0, 0, 0, 4}} {
			c := choices(form)
			cmd := ownedCommand(&c, level)
			if !Owned(map[string]any{"command": cmd.String()}, level) {
				t.Errorf("Owned(%q, %v) = false, want true", cmd, level)
			}
			for kind := range 7 {
				for option := range 10 {
					c := choices{byte(kind), byte(option)}
					miss := nearMiss(&c, cmd, level).String()
					if Owned(map[string]any{"command": miss}, level) {
						t.Errorf("Owned(%q, %v) = true, want false (a near miss of %q)", miss, level, cmd)
					}
				}
			}
		}
	}
}
