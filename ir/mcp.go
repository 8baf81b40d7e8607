package ir

// MCPTool is one MCP tool pattern of a rule's tool_matcher,
// mcp__<server>__<tool>, whose `*` matches any run of characters
// (docs/mcp.md). Lowering turns it into two case-sensitive regex_match
// conditions: Tool on the payload's tool_name (an "MCP:" prefix allowed),
// Server on its mcp_server_name (which may be missing or empty). A call is
// the pattern's when both hold.
type MCPTool struct {
	Pattern      string // as written: "mcp__github__*"
	Server, Tool Condition
}

var (
	// MCPServerKey is the payload key that names the MCP server of a call.
	MCPServerKey = Key{Name: "mcp_server_name"}
	// ToolInputKey is the top-level tool_input, read as a value where it
	// may be a string of JSON.
	ToolInputKey = Key{Name: "tool_input"}
)

// Conds are the pattern's conditions with their payload sources. Both
// fields read "" when missing: a payload without a server name matches any
// server, and one without a tool name only a tool part that is all `*`.
func (m *MCPTool) Conds() []ResolvedCondition {
	return []ResolvedCondition{
		{Condition: &m.Tool, Src: Source{Keys: []Key{ToolNameKey}, HasDefault: true}},
		{Condition: &m.Server, Src: Source{Keys: []Key{MCPServerKey}, HasDefault: true}},
	}
}
