package codegen

import (
	"strings"

	"github.com/hookify/hookify/codegen/awkquote"
	"github.com/hookify/hookify/ir"
)

// Retired scripts (docs/live-rules.md, "What remains"): Cursor starts every
// hook of a call from the hooks.json it read before, so a rebuild that one
// hook of the call ran must not delete a script that another hook of the
// same call has yet to open. A rebuild run by a hook (LiveEnv set) writes
// a retired stub in place of each script it would delete; a build without
// LiveEnv deletes the stubs as any stale output.

// LiveEnv is set by a hook's wrapper on the rebuild it runs.
const LiveEnv = "HOOKIFY_LIVE"

// RetiredSources is what the header of a retired stub names as its
// sources: a header that codegen.ParseHeader reads, without build flags,
// so that a hook's rerun never takes the stub for a per-rule script of the
// new build.
const RetiredSources = "no rule (retired by a rebuild that a hook ran; the next hookify build deletes it)"

// RetiredLine is line 2 of a retired .sh stub (line 1 of a .ps1 stub,
// after its byte order mark, and of an .awk one), "# " and the header.
const RetiredLine = "# " + HeaderPrefix + " from " + RetiredSources + ". " + HeaderSuffix

// IsRetired reports whether data, the content of a file named p, is a
// retired stub: its header line is RetiredLine.
func IsRetired(p string, data []byte) bool {
	s := string(data)
	switch {
	case strings.HasSuffix(p, ".sh"):
		_, s, _ = strings.Cut(s, "\n")
	case strings.HasSuffix(p, ".ps1"):
		s = strings.TrimPrefix(s, "\uFEFF")
	case strings.HasSuffix(p, ".awk"):
	default:
		return false
	}
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r") == RetiredLine
}

// Retired returns the retired stub of the script p (a .sh or .ps1 file),
// which served the Cursor events events: run, it prints the allow answer
// of the event (the argument of a script that served several, which
// Cursor passes then) and exits 0. Its text depends only on p's name and
// the events (in the order given; callers sort them). For p an .awk file,
// the program of a script too large for one argument, the stub is a
// program that does the same (the wrapper passes the event as ARGV[1]): a
// wrapper that was started before the rebuild and runs its program after
// it reads the stub instead of finding no file.
func Retired(p string, events []ir.CursorEvent) []byte {
	name := p[strings.LastIndex(p, "/")+1:]
	allow := func(e ir.CursorEvent) string {
		return strings.TrimSuffix(string(ir.AnswerFor(e, ir.None, ir.WarnContext, false).Render("", "")), "\n")
	}
	var b strings.Builder
	if strings.HasSuffix(p, ".awk") {
		b.WriteString(RetiredLine + "\n")
		b.WriteString("#\n# " + name + " is retired: its rules are gone, and the script that a hook\n")
		b.WriteString("# call started before the rebuild runs it. It allows.\n")
		b.WriteString("BEGIN {\n  e = ARGC > 1 ? ARGV[1] : \"\"\n")
		for i, e := range events {
			if len(events) == 1 {
				b.WriteString("  a = " + awkquote.String(allow(e)) + "\n")
				break
			}
			cond := "  if"
			if i > 0 {
				cond = "  else if"
			}
			b.WriteString(cond + " (e == " + awkquote.String(e.String()) + ") a = " + awkquote.String(allow(e)) + "\n")
		}
		b.WriteString("  print a\n  exit 0\n}\n")
		return []byte(b.String())
	}
	if strings.HasSuffix(p, ".ps1") {
		b.WriteString("\uFEFF" + RetiredLine + "\n")
		b.WriteString("#\n# " + name + " is retired: its rules are gone, and the hooks.json that a\n")
		b.WriteString("# hook call started it from was older than the rebuild. It allows.\n")
		b.WriteString("$hk_e = ''\nif ($args.Count -gt 0) { $hk_e = [string]$args[0] }\n$hk_a = ''\n")
		for i, e := range events {
			cond := "if"
			if i > 0 {
				cond = "elseif"
			}
			if len(events) == 1 {
				b.WriteString("$hk_a = '" + allow(e) + "'\n")
				break
			}
			b.WriteString(cond + " ($hk_e -ceq '" + e.String() + "') { $hk_a = '" + allow(e) + "' }\n")
		}
		b.WriteString("$hk_b = [System.Text.Encoding]::UTF8.GetBytes($hk_a + [char]10)\n")
		b.WriteString("$hk_o = [Console]::OpenStandardOutput()\n$hk_o.Write($hk_b, 0, $hk_b.Length)\n$hk_o.Flush()\nexit 0\n")
		return []byte(b.String())
	}
	b.WriteString("#!/bin/sh\n" + RetiredLine + "\n")
	b.WriteString("#\n# " + name + " is retired: its rules are gone, and the hooks.json that a\n")
	b.WriteString("# hook call started it from was older than the rebuild. It allows.\n")
	if len(events) == 1 {
		b.WriteString("printf '%s\\n' '" + allow(events[0]) + "'\n")
	} else {
		b.WriteString("case ${1-} in\n")
		for _, e := range events {
			b.WriteString(e.String() + ") printf '%s\\n' '" + allow(e) + "' ;;\n")
		}
		b.WriteString("esac\n")
	}
	b.WriteString("exit 0\n")
	return []byte(b.String())
}
