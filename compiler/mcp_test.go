package compiler

import (
	"strings"
	"testing"

	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/eval"
)

// TestMCPTool pins how a tool_matcher name reads as an MCP pattern
// (docs/mcp.md): which tool names and servers its conditions accept, with
// Python's verdict (the evaluator's engine) on the patterns lowering wrote.
func TestMCPTool(t *testing.T) {
	for _, tt := range []struct {
		name         string
		tool, server string // server "" is a payload without mcp_server_name
		want         bool
	}{
		{"mcp__github__create_issue", "create_issue", "github", true},
		{"mcp__github__create_issue", "MCP:create_issue", "github", true},
		{"mcp__github__create_issue", "create_issue", "", true},
		{"mcp__github__create_issue", "create_issue", "gitlab", false},
		{"mcp__github__create_issue", "create_issues", "github", false},
		{"mcp__github__create_issue", "Create_Issue", "github", false},
		{"mcp__github__create_issue", "create_issue", "GitHub", false},
		{"mcp__github__create_issue", "x_create_issue", "github", false},
		{"mcp__github__create_issue", "mcp__github__create_issue", "github", false},
		{"mcp__github__create_issue", "MCP:MCP:create_issue", "github", false},
		{"mcp__github__*", "anything", "github", true},
		{"mcp__github__*", "", "github", true},
		{"mcp__github__*", "anything", "github-enterprise", false},
		{"mcp__github", "anything", "github", true},
		{"mcp__github__.*", "create", "github", true},
		{"mcp__github__create_.*", "create_pr", "github", true},
		{"mcp__github__create_.*", "createpr", "github", false},
		{"mcp__supabase-*__execute_sql", "execute_sql", "supabase-prod", true},
		{"mcp__supabase-*__execute_sql", "execute_sql", "supabase-", true},
		{"mcp__supabase-*__execute_sql", "execute_sql", "supabase", false},
		{"mcp__supabase-*__execute_sql", "execute_sql", "my-supabase-prod", false},
		{"mcp__*", "x", "any", true},
		{"mcp__.*", "x", "any", true},
		{"mcp__*__get", "get", "a\nb", true},
		{"mcp__a.b__t.x", "t.x", "a.b", true},
		{"mcp__a.b__t.x", "tYx", "aXb", false},
		{"mcp__n8n-mcp-*__n8n_executions", "n8n_executions", "n8n-mcp-cloud", true},
		{"mcp__srv__a__b", "a__b", "srv", true},
	} {
		m, problem := mcpTool(tt.name, diag.Pos{}, DefaultTranslator)
		if problem != "" {
			t.Errorf("%s: %s", tt.name, problem)
			continue
		}
		holds := func(pattern, v string) bool {
			re, err := eval.Regexp(pattern)
			if err != nil {
				t.Fatalf("%s: %v", pattern, err)
			}
			return re.MatchString(v)
		}
		if got := holds(m.Tool.Pattern, tt.tool) && holds(m.Server.Pattern, tt.server); got != tt.want {
			t.Errorf("%s on tool %q, server %q: %v, want %v (%s, %s)", tt.name, tt.tool, tt.server, got, tt.want, m.Tool.Pattern, m.Server.Pattern)
		}
	}
}

// TestMCPToolRefused: a name that is not an MCP tool name is an error that
// says what to write.
func TestMCPToolRefused(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"mcp__", "names no server: write mcp__<server>__<tool>, or mcp__* for every MCP tool"},
		{"mcp____x", "names no server"},
		{"mcp__github__", "names no tool: write mcp__github__* for every tool of the server"},
		{"mcp__github__(create", `holds "("`},
		{"mcp__git hub__x", `holds " "`},
		{"mcp__github__[a-z]+", `holds "["`},
		{"mcp__sérver__x", `holds "é"`},
	} {
		_, problem := mcpTool(tt.name, diag.Pos{}, DefaultTranslator)
		if !strings.Contains(problem, tt.want) {
			t.Errorf("%s: %q, want it to say %q", tt.name, problem, tt.want)
		}
	}
	res := compileOne(t, "---\nname: a\ntool_matcher: Bash|mcp__github__(create|mcp__x__y\npattern: rm\nevent: bash\n---\nx", Options{})
	if !res.Diags.HasErrors() || !strings.Contains(res.Diags.String(), "3:15: error: mcp__github__(create holds") {
		t.Errorf("a bad MCP name in a tool_matcher: %v", res.Diags)
	}
}
