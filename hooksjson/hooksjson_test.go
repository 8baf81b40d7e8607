package hooksjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		name: "foreign entries keep keys, key order and escapes; owned ones are replaced in place",
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
			`        "command": "python3 guard.py",`,
			`        "failClosed": true`,
			`      }`,
			`    ]`,
			`  },`,
			`  "version": 1,`,
			`  "zz": 1.50`,
			`}`),
	}, {
		name: "owned entries go after foreign ones when there were none",
		existing: lines(
			`{"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}`),
		owned: map[string][]Entry{"stop": {stopEntry}},
		want: lines(
			`{`,
			`  "version": 1,`,
			`  "hooks": {`,
			`    "stop": [`,
			`      {`,
			`        "command": "./notify.sh"`,
			`      },`,
			`      {`,
			`        "command": ".cursor/hooks/hookify-stop.sh",`,
			`        "loop_limit": 5`,
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
			`  "sessionStart": [{"command": "hooks/hookify-sessionStart.sh"}]`,
			`}}`),
		owned: map[string][]Entry{
			"stop":                 nil,
			"zEvent":               {{Command: "hooks/hookify-z.sh"}},
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
			`        "command": "hooks/hookify-z.sh"`,
			`      }`,
			`    ]`,
			`  }`,
			`}`),
	}, {
		name:     "keys are kept exactly as written",
		existing: `{"vers\u0069on": 0, "x\u00e9": "\u00e9", "hooks": {"st\u006fp": [{"command": "hooks/hookify-a.sh"}]}}`,
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
			got, err := Merge([]byte(tt.existing), tt.owned)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Merge (-want +got):\n%s", diff)
			}
			if !json.Valid(got) {
				t.Errorf("Merge produced invalid JSON")
			}
			again, err := Merge(got, tt.owned)
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
			got, err := Merge([]byte(tt.existing), map[string][]Entry{"stop": {stopEntry}})
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
		{"command with prompt", map[string][]Entry{"stop": {{Command: "hooks/hookify-a.sh", Prompt: "[hookify:a]"}}}, "hooksjson: stop entry 0: command hook with a prompt"},
		{"no prompt", map[string][]Entry{"stop": {stopEntry, {Type: "prompt"}}}, "hooksjson: stop entry 1: prompt hook without a prompt"},
		{"unknown type", map[string][]Entry{"stop": {{Type: "command", Command: "hooks/hookify-a.sh"}}}, `hooksjson: stop entry 0: unknown type "command"`},
		{"negative", map[string][]Entry{"stop": {{Command: "hooks/hookify-a.sh", Timeout: -1}}}, "hooksjson: stop entry 0: negative timeout or loop_limit"},
		{"foreign command", map[string][]Entry{"stop": {{Command: "./stop.sh"}}}, `hooksjson: stop entry 0: entry would not be recognised as hookify's (command must contain "hooks/hookify-", prompt must start with "[hookify:")`},
		{"foreign prompt", map[string][]Entry{"stop": {{Type: "prompt", Prompt: "check"}}}, `hooksjson: stop entry 0: entry would not be recognised as hookify's (command must contain "hooks/hookify-", prompt must start with "[hookify:")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(nil, tt.owned)
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
		want  bool
	}{
		{`{"command": ".cursor/hooks/hookify-stop.sh"}`, true},
		{`{"command": "hooks/hookify-stop.sh"}`, true},
		{`{"command": "powershell -NoProfile -ExecutionPolicy Bypass -File .cursor/hooks/hookify-stop.ps1"}`, true},
		{`{"type": "command", "command": ".cursor/hooks/hookify-a.sh", "timeout": 3}`, true},
		{`{"type": "prompt", "prompt": "[hookify:no-todo] Check $ARGUMENTS"}`, true},
		{`{"type": "prompt", "prompt": "Check [hookify:x]"}`, false},
		{`{"prompt": "[hookify:x] a command entry with a stray prompt", "command": "./x.sh"}`, false},
		{`{"command": ".cursor/hooks/audit.sh"}`, false},
		{`{"command": ".cursor/hookify-stop.sh"}`, false},
		{`{"command": 3}`, false},
		{`{}`, false},
	}
	for _, tt := range tests {
		var m map[string]any
		if err := json.Unmarshal([]byte(tt.entry), &m); err != nil {
			t.Fatal(err)
		}
		if got := Owned(m); got != tt.want {
			t.Errorf("Owned(%s) = %v, want %v", tt.entry, got, tt.want)
		}
	}
}

// FuzzMerge checks that Merge never panics, that its output is valid JSON
// that keeps foreign entries, and that it is idempotent.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"version": 1, "hooks": {"stop": [{"command": "./a.sh"}, {"command": "hooks/hookify-x.sh"}]}}`))
	f.Add([]byte(`{"hooks": {"beforeShellExecution": [], "x": [1, "2", null]}, "k": {"a": [{}]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"hooks": {"stop": {}}}`))
	owned := map[string][]Entry{"stop": {stopEntry}, "beforeSubmitPrompt": {promptEnt}}
	f.Fuzz(func(t *testing.T, existing []byte) {
		got, err := Merge(existing, owned)
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
					if !ownedRaw(e) {
						want = append(want, compact(t, e))
					}
				}
				for _, e := range out.Hooks[ev] {
					if !ownedRaw(e) {
						have = append(have, compact(t, e))
					}
				}
				if !slices.Equal(want, have) {
					t.Fatalf("event %s: foreign entries %q became %q", ev, want, have)
				}
			}
		}
		again, err := Merge(got, owned)
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
