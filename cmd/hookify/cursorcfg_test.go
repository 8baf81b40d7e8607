package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hookify/hookify/ir"
)

// randomHooksJSON writes a hooks.json with random spacing, key escapes,
// event names (documented, other cases, unknown) and version values, and
// no duplicate keys.
func randomHooksJSON(r *rand.Rand) string {
	space := func() string { return []string{"", " ", "\n  ", "\t"}[r.Intn(4)] }
	key := func(s string) string {
		if s != "" && r.Intn(4) == 0 { // escape the first letter
			return fmt.Sprintf(`"\u%04x%s"`, s[0], s[1:])
		}
		b, _ := json.Marshal(s)
		return string(b)
	}
	var members []string
	switch r.Intn(7) {
	case 0: // no version
	case 1:
		members = append(members, key("version")+":"+space()+`"1"`)
	case 2:
		members = append(members, key("version")+":"+space()+"null")
	case 3:
		members = append(members, key("version")+":"+space()+"1.0")
	case 4:
		members = append(members, key("version")+":"+space()+"true")
	default:
		members = append(members, key("version")+":"+space()+"1")
	}
	seen := map[string]bool{}
	var events []string
	for range r.Intn(6) {
		name := ir.DocumentedCursorEvents[r.Intn(len(ir.DocumentedCursorEvents))]
		switch r.Intn(4) {
		case 0:
			name = strings.ToUpper(name[:1]) + name[1:]
		case 1:
			name = []string{"beforeShell", "onStop", "", "stop ", "préToolUse"}[r.Intn(5)]
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		events = append(events, space()+key(name)+":"+space()+`[{"command": "x"}]`)
	}
	members = append(members, key("hooks")+":"+space()+"{"+strings.Join(events, ",")+"}")
	if r.Intn(2) == 0 {
		members = append(members, key("other")+`: {"hooks": {"nope": 1}, "version": "x"}`)
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	return "{" + space() + strings.Join(members, ","+space()) + space() + "}\n"
}

// FuzzConfigProblems compares configProblems with encoding/json's reading
// of random hooks.json files: one finding per event name that Cursor does
// not document, one for a version that is not a number, one for none.
func FuzzConfigProblems(f *testing.F) {
	for seed := range int64(20) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		data := randomHooksJSON(rand.New(rand.NewSource(seed)))
		var doc struct {
			Version json.RawMessage            `json:"version"`
			Hooks   map[string]json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal([]byte(data), &doc); err != nil {
			t.Fatalf("the generator wrote invalid JSON %q: %v", data, err)
		}
		want := map[string]int{}
		for name := range doc.Hooks {
			if !ir.IsDocumentedCursorEvent(name) {
				want[fmt.Sprintf("Cursor does not know the event %q", name)]++
			}
		}
		var v any
		switch {
		case doc.Version == nil:
			want["there is no \"version\""]++
		case json.Unmarshal(doc.Version, &v) == nil:
			if _, ok := v.(float64); !ok {
				want["\"version\" is "+string(doc.Version)+", not a number"]++
			}
		}
		got := map[string]int{}
		for _, p := range configProblems([]byte(data)) {
			msg, _, _ := strings.Cut(p.Msg, ":")
			got[msg]++
			if p.Pos.Line < 1 || p.Pos.Col < 1 {
				t.Errorf("%s: no position", p)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("hooks.json %q:\ngot  %v\nwant %v", data, got, want)
		}
	})
}
