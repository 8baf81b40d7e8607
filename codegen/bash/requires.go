package bash

// Requirement is a program the generated scripts run, which must be on the
// PATH that Cursor gives a hook. hookify doctor checks each one; when the
// runtime changes (docs/runtime.md §3), this table changes with it.
type Requirement struct {
	// Names: any one of these on PATH will do.
	Names []string
	// Min is the lowest version that works ("3.2"), "" for any. The
	// version is the first "N.N" in the output of Names[0] VersionArgs.
	Min         string
	VersionArgs []string
	// Why is what the scripts need it for.
	Why string
}

// Requirements are the programs every generated .sh script needs.
var Requirements = []Requirement{
	{Names: []string{"bash"}, Min: "3.2", VersionArgs: []string{"--version"}, Why: "every .sh hook runs under #!/usr/bin/env bash"},
	{Names: []string{"mawk", "awk"}, Why: "the hooks decode the payload with awk (mawk where installed)"},
}
