package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleFixtures runs hookify test on every example project: the
// rules' own tests: must pass through the committed scripts.
func TestExampleFixtures(t *testing.T) {
	dirs, _ := filepath.Glob("../../examples/*")
	if len(dirs) == 0 {
		t.Fatal("no examples")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"test", "-C", dir}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("hookify test -C %s: exit %d\n%s%s", dir, code, stdout.Bytes(), stderr.Bytes())
			}
			if !strings.Contains(stdout.String(), " passed, 0 failed") || strings.Contains(stdout.String(), ": 0 fixtures") {
				t.Errorf("hookify test -C %s ran no fixture:\n%s", dir, stdout.Bytes())
			}
		})
	}
}
