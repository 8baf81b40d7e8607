package writer

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// numbered returns lines "1\n" to "n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name    string
		changes []Change
		want    string
	}{{
		name: "nothing",
		want: "",
	}, {
		name:    "create",
		changes: []Change{{Path: ".cursor/hooks/hookify-a.sh", Kind: Create, New: []byte("#!/usr/bin/env bash\necho a\n"), NewMode: 0o755}},
		want: lines(
			"diff --git a/.cursor/hooks/hookify-a.sh b/.cursor/hooks/hookify-a.sh",
			"new file mode 100755",
			"--- /dev/null",
			"+++ b/.cursor/hooks/hookify-a.sh",
			"@@ -0,0 +1,2 @@",
			"+#!/usr/bin/env bash",
			"+echo a"),
	}, {
		name:    "create an empty file",
		changes: []Change{{Path: ".cursor/empty", Kind: Create, NewMode: 0o644}},
		want: lines(
			"diff --git a/.cursor/empty b/.cursor/empty",
			"new file mode 100644"),
	}, {
		name:    "delete",
		changes: []Change{{Path: ".cursor/hooks/hookify-a.sh", Kind: Delete, Old: []byte("one\n"), OldMode: 0o755}},
		want: lines(
			"diff --git a/.cursor/hooks/hookify-a.sh b/.cursor/hooks/hookify-a.sh",
			"deleted file mode 100755",
			"--- a/.cursor/hooks/hookify-a.sh",
			"+++ /dev/null",
			"@@ -1,1 +0,0 @@",
			"-one"),
	}, {
		name:    "chmod",
		changes: []Change{{Path: ".cursor/a.sh", Kind: Chmod, Old: []byte("x\n"), New: []byte("x\n"), OldMode: 0o644, NewMode: 0o755}},
		want: lines(
			"diff --git a/.cursor/a.sh b/.cursor/a.sh",
			"old mode 100644",
			"new mode 100755"),
	}, {
		name: "update with a mode change, two hunks",
		changes: []Change{{Path: ".cursor/a.sh", Kind: Update, OldMode: 0o644, NewMode: 0o755,
			Old: []byte(numbered(20)),
			New: []byte(strings.Replace(strings.Replace(numbered(20), "3\n", "three\n", 1), "17\n", "", 1))}},
		want: lines(
			"diff --git a/.cursor/a.sh b/.cursor/a.sh",
			"old mode 100644",
			"new mode 100755",
			"--- a/.cursor/a.sh",
			"+++ b/.cursor/a.sh",
			"@@ -1,6 +1,6 @@",
			" 1",
			" 2",
			"-3",
			"+three",
			" 4",
			" 5",
			" 6",
			"@@ -14,7 +14,6 @@",
			" 14",
			" 15",
			" 16",
			"-17",
			" 18",
			" 19",
			" 20"),
	}, {
		name: "changes six lines apart: go-internal's diff gives two adjacent hunks, each with its context",
		changes: []Change{{Path: ".cursor/a", Kind: Update, OldMode: 0o644, NewMode: 0o644,
			Old: []byte(numbered(10)),
			New: []byte(strings.Replace(strings.Replace(numbered(10), "2\n", "b\n", 1), "9\n", "i\n", 1))}},
		want: lines(
			"diff --git a/.cursor/a b/.cursor/a",
			"--- a/.cursor/a",
			"+++ b/.cursor/a",
			"@@ -1,5 +1,5 @@",
			" 1",
			"-2",
			"+b",
			" 3",
			" 4",
			" 5",
			"@@ -6,5 +6,5 @@",
			" 6",
			" 7",
			" 8",
			"-9",
			"+i",
			" 10"),
	}, {
		name: "missing final newline",
		changes: []Change{{Path: ".cursor/hooks.json", Kind: Update, OldMode: 0o644, NewMode: 0o644,
			Old: []byte("{\n}"), New: []byte("{\n}\n")}},
		want: lines(
			"diff --git a/.cursor/hooks.json b/.cursor/hooks.json",
			"--- a/.cursor/hooks.json",
			"+++ b/.cursor/hooks.json",
			"@@ -1,2 +1,2 @@",
			" {",
			"-}",
			`\ No newline at end of file`,
			"+}"),
	}, {
		name: "sorted by path",
		changes: []Change{
			{Path: ".cursor/b", Kind: Delete, Old: []byte("b\n"), OldMode: 0o644},
			{Path: ".cursor/a", Kind: Create, New: []byte("a\n"), NewMode: 0o644},
		},
		want: lines(
			"diff --git a/.cursor/a b/.cursor/a",
			"new file mode 100644",
			"--- /dev/null",
			"+++ b/.cursor/a",
			"@@ -0,0 +1,1 @@",
			"+a",
			"diff --git a/.cursor/b b/.cursor/b",
			"deleted file mode 100644",
			"--- a/.cursor/b",
			"+++ /dev/null",
			"@@ -1,1 +0,0 @@",
			"-b"),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Diff(tt.changes)); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

// patch applies the hunks of a one-file unified diff to old, checking every
// context and removed line, so that tests can check that a diff is correct.
func patch(t *testing.T, old []string, hunks string) []string {
	t.Helper()
	var out []string
	next := 0 // index of the first line of old not yet copied
	rest := hunks
	var line string
	readLine := func() string {
		line, rest, _ = strings.Cut(rest, "\n")
		return line
	}
	for rest != "" {
		h := readLine()
		var a, b string
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", &a, &b); err != nil {
			t.Fatalf("bad hunk header %q", h)
		}
		start, _, _ := strings.Cut(a, ",")
		aStart, _ := strconv.Atoi(start)
		aCount := 1
		if _, c, ok := strings.Cut(a, ","); ok {
			aCount, _ = strconv.Atoi(c)
		}
		if aCount > 0 {
			aStart--
		}
		if aStart < next {
			t.Fatalf("hunk %q overlaps the previous one", h)
		}
		out = append(out, old[next:aStart]...)
		next = aStart
		for rest != "" && !strings.HasPrefix(rest, "@@") {
			l := readLine() + "\n"
			if strings.HasPrefix(rest, `\ No newline`) {
				readLine()
				l = strings.TrimSuffix(l, "\n")
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(old) || old[next] != l[1:] {
					t.Fatalf("hunk %q: line %q does not match old line %d", h, l, next+1)
				}
				next++
				if l[0] == ' ' {
					out = append(out, l[1:])
				}
			case '+':
				out = append(out, l[1:])
			default:
				t.Fatalf("bad diff line %q", l)
			}
		}
	}
	return append(out, old[next:]...)
}

// hunks returns the hunks of the one-file diff that Diff gives for the
// update of old to new.
func hunks(old, new []string) string {
	d := Diff([]Change{{Path: ".cursor/f", Kind: Update, Old: []byte(strings.Join(old, "")), New: []byte(strings.Join(new, "")), OldMode: 0o644, NewMode: 0o644}})
	if d == "" {
		return ""
	}
	_, h, _ := strings.Cut(d, "+++ b/.cursor/f\n")
	return h
}

// splitLines cuts s after each newline; the last line may lack one.
func splitLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// TestDiffRoundTrip checks on random inputs that the hunks turn the old
// lines into the new ones.
func TestDiffRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomLines := func(n int) []string {
		var l []string
		for range n {
			l = append(l, fmt.Sprintf("%c\n", 'a'+rng.IntN(4)))
		}
		if n > 0 && rng.IntN(3) == 0 {
			l[n-1] = strings.TrimSuffix(l[n-1], "\n")
		}
		return l
	}
	for i := range 2000 {
		a, b := randomLines(rng.IntN(30)), randomLines(rng.IntN(30))
		if i%2 == 0 && len(a) > 0 {
			// Small edits of a, which give several hunks.
			b = append([]string(nil), a...)
			for range 1 + rng.IntN(3) {
				k := rng.IntN(len(b) + 1)
				b = append(b[:k], append(randomLines(rng.IntN(3)), b[min(k+rng.IntN(2), len(b)):]...)...)
			}
		}
		// As files: a line without a newline can only be the last one.
		a, b = splitLines(strings.Join(a, "")), splitLines(strings.Join(b, ""))
		got := patch(t, a, hunks(a, b))
		if diff := cmp.Diff(b, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("case %d: patched old differs from new (-want +got):\n%s\nold %q\nhunks:\n%s", i, diff, a, hunks(a, b))
		}
	}
	big := strings.Split(numbered(3000), "\n")
	bigA, bigB := big[:2999], append([]string{"x"}, big[1:2998]...)
	for i := range bigA {
		bigA[i] += "\n"
	}
	for i := range bigB {
		bigB[i] += "\n"
	}
	bigB[1500] = "changed\n"
	if got := patch(t, bigA, hunks(bigA, bigB)); !cmp.Equal(bigB, got) {
		t.Fatalf("large input: patched old differs from new")
	}
}
