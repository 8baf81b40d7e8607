package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version is "hookify version" (and "hookify --version"): the module
// version and the VCS revision the binary was built from, as the Go
// toolchain recorded them.
func version(c *cli) int {
	fmt.Fprintln(c.stdout, versionLine(debug.ReadBuildInfo()))
	return 0
}

// versionLine is "hookify VERSION (REVISION, TIME[, modified]) GOVERSION".
func versionLine(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "hookify (no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var vcs []string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			vcs = append([]string{s.Value}, vcs...)
		case s.Key == "vcs.time":
			vcs = append(vcs, s.Value)
		case s.Key == "vcs.modified" && s.Value == "true":
			vcs = append(vcs, "modified")
		}
	}
	line := "hookify " + v
	if len(vcs) > 0 {
		line += " (" + strings.Join(vcs, ", ") + ")"
	}
	return line + " " + info.GoVersion
}
