package compiler

import "fmt"

// Platform is a flag.Value (README "Windows").

func (p Platform) String() string {
	if p == Windows {
		return "windows"
	}
	return "unix"
}

// Set parses "unix" or "windows".
func (p *Platform) Set(s string) error {
	switch s {
	case "unix":
		*p = Unix
	case "windows":
		*p = Windows
	default:
		return fmt.Errorf("must be unix or windows")
	}
	return nil
}
