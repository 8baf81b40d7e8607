package bash

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Requirement is a program the generated scripts run, which must be on the
// PATH that Cursor gives a hook. hookify doctor checks each one; when the
// runtime changes (docs/runtime.md §3), this table changes with it.
type Requirement struct {
	// Names: any one of these will do, and the hooks run the first one
	// found (a name with a slash is that file, not a PATH lookup).
	Names []string
	// Awk: the program is an awk, whose version IdentifyAwk checks;
	// Intervals: one that must read intervals ({n,m}) as well.
	Awk, Intervals bool
	// Needed reports whether a hook needs the program, from the text of
	// its script and program file; nil: every hook does.
	Needed func(hook []byte) bool
	// Who are the hooks that run it, Why what they need it for, and
	// Install what to install when it is missing.
	Who, Why, Install string
}

// Requirements are the programs the generated .sh scripts need.
var Requirements = []Requirement{
	{Names: []string{"/bin/sh"}, Who: "the hooks", Why: "every .sh hook is a #!/bin/sh wrapper (any POSIX shell will do)", Install: "install a POSIX shell as /bin/sh"},
	{Names: []string{"mawk", "awk"}, Awk: true, Who: "the hooks", Why: "every .sh hook is one awk program, run by mawk where it is on PATH, else by awk", Install: AwkFix},
	{Names: []string{"gawk", "awk"}, Awk: true, Intervals: true, Needed: NeedsIntervals, Who: "the hooks whose regexes keep an interval ({n,m})",
		Why: "a hook whose regexes keep an interval runs gawk where it is on PATH, else awk, which must read intervals", Install: "install gawk (such hooks run gawk wherever it is on PATH)"},
	{Names: []string{"tr"}, Needed: ReadsTranscript, Who: "the hooks that read the transcript",
		Why: "a hook that reads the transcript turns its NUL bytes into 01 with tr (BWK and busybox awk cannot hold a NUL)", Install: "install tr (coreutils or busybox)"},
}

// NeedsIntervals reports whether a generated hook (its script and program
// file) runs an awk with intervals: gawk where it is installed, else awk.
func NeedsIntervals(hook []byte) bool { return bytes.Contains(hook, []byte(choose(true))) }

// ReadsTranscript reports whether a generated hook reads the transcript,
// which it does through tr (templates/hook.awk.tmpl, hk_tread).
func ReadsTranscript(hook []byte) bool { return bytes.Contains(hook, []byte("\nfunction hk_tread(")) }

// AwkFix is what to do when the awk the hooks would run is missing or not
// supported.
const AwkFix = "install mawk 1.3.4-20200120 or later, or gawk 4.0 or later (docs/awk-engines.md §9); the hooks run mawk wherever it is on PATH"

// AwkVersionArgs are the arguments that make each awk print its version,
// tried in order until IdentifyAwk knows the output: gawk, BWK awk and
// busybox awk (in its usage banner) answer the first, mawk before 2020's
// snapshots only the second.
var AwkVersionArgs = [][]string{{"--version"}, {"-W", "version"}}

// An awkKind is one family of awk: how its version output reads, and the
// oldest version the hooks support (docs/awk-engines.md §9).
type awkKind struct {
	name string
	// version matches the output of AwkVersionArgs; its submatches are
	// the version's numbers, most significant first (an absent one is 0).
	version *regexp.Regexp
	// min is the oldest supported version, minDarwin the one on macOS
	// (nil for the same), each as docs/awk-engines.md §9 writes it too;
	// why says what older ones lack.
	min, minDarwin         []int
	minText, minDarwinText string
	why                    string
	// bad are ranges [lo, hi) of unsupported versions at or above min.
	bad []badRange
	// intervals is the oldest version that reads intervals ({n,m}), nil
	// when every supported one does.
	intervals []int
}

type badRange struct {
	lo, hi []int
	why    string
}

var awkKinds = []awkKind{
	{name: "mawk", version: regexp.MustCompile(`\bmawk (\d+)\.(\d+)\.(\d+)(?:[ .-](\d{8}))?`), min: []int{1, 3, 4, 20200120}, minText: "1.3.4-20200120", intervals: []int{1, 3, 4, 20200724},
		why: "older versions are not supported (Debian 10's 1.3.3 was never tested)"},
	{name: "gawk", version: regexp.MustCompile(`\bGNU Awk (\d+)\.(\d+)(?:\.(\d+))?`), min: []int{4, 0}, minText: "4.0",
		why: "intervals ({n,m}) are on by default only from 4.0"},
	{name: "BWK awk", version: regexp.MustCompile(`\bawk version (\d{8})\b`), min: []int{20190305}, minText: "20190305", minDarwin: []int{20070501}, minDarwinText: "20070501",
		why: "upstream BWK awk reads intervals ({n,m}) only from 20190305 (macOS's has Apple's own since 10.7)",
		bad: []badRange{{[]int{20230901}, []int{20231030}, "second-edition builds before 30 Oct 2023 read bytes as UTF-8 even under LC_ALL=C"}}},
	{name: "busybox awk", version: regexp.MustCompile(`\bBusyBox v(\d+)\.(\d+)(?:\.(\d+))?`), min: []int{1, 35}, minText: "1.35",
		why: "older versions were not measured"},
}

// AwkVersion is what IdentifyAwk makes of an awk's version output.
type AwkVersion struct {
	// Kind is "mawk", "gawk", "BWK awk" or "busybox awk"; "" when the
	// output names none of them.
	Kind string
	// Version is the version as the awk prints it ("1.3.4 20200120").
	Version string
	// Min is the oldest version of Kind the hooks support
	// ("1.3.4-20200120").
	Min string
	// Problem says why this version is not supported; "" when it is.
	Problem string
	// Intervals: it reads intervals ({n,m}) in regexes (docs/awk-engines.md
	// §2: mawk only from 1.3.4-20200724).
	Intervals bool
}

// IdentifyAwk reads the output of an awk run with AwkVersionArgs: which
// awk it is, its version, and whether the hooks support it on goos.
func IdentifyAwk(out, goos string) AwkVersion {
	for _, k := range awkKinds {
		m := k.version.FindStringSubmatch(out)
		if m == nil {
			continue
		}
		v := make([]int, len(m)-1)
		for i, s := range m[1:] {
			v[i], _ = strconv.Atoi(s) // "" for an absent part reads as 0
		}
		min, minText := k.min, k.minText
		if goos == "darwin" && k.minDarwin != nil {
			min, minText = k.minDarwin, k.minDarwinText
		}
		a := AwkVersion{Kind: k.name, Version: m[0][strings.IndexAny(m[0], "0123456789"):], Min: minText}
		a.Intervals = k.intervals == nil || !less(v, k.intervals)
		if less(v, min) {
			a.Problem = fmt.Sprintf("older than %s, the oldest the hooks support: %s", minText, k.why)
		}
		for _, r := range k.bad {
			if !less(v, r.lo) && less(v, r.hi) {
				a.Problem = r.why
			}
		}
		a.Intervals = a.Intervals && a.Problem == ""
		return a
	}
	return AwkVersion{}
}

// less compares versions number by number; a missing number is 0.
func less(a, b []int) bool {
	for i := range max(len(a), len(b)) {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x < y
		}
	}
	return false
}
