package ir

import (
	"fmt"
	"strings"
)

// Layout and WarnMode are flag.Values, so the CLI and the golden tests
// parse them the same way (README "Usage").

var layoutNames = [...]string{PerEvent: "per-event", PerRule: "per-rule"}

func (l Layout) String() string { return layoutNames[l] }

// Set parses "per-event" or "per-rule".
func (l *Layout) Set(s string) error { return setName(l, layoutNames[:], s) }

var warnNames = [...]string{WarnContext: "context", WarnAsk: "ask", WarnAllow: "allow"}

func (w WarnMode) String() string { return warnNames[w] }

// Set parses "context", "ask" or "allow".
func (w *WarnMode) Set(s string) error { return setName(w, warnNames[:], s) }

// setName sets *v to the index of s in names, or says which names exist.
func setName[T ~int](v *T, names []string, s string) error {
	for i, n := range names {
		if n == s {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("must be %s", strings.Join(names, " or "))
}
