package initialize

// The text of the Cursor commands, one template per command of the table
// in initialize.go. They are written for the agent: short, imperative,
// and ending with the build and the tests. Written for hookify; upstream's
// commands (plugins/hookify/commands/ of anthropics/claude-plugins-official)
// were read for what they cover, not copied.

// format is the rule format, shared by /hookify and /hookify-help.
const format = `## The rule format

A rule is one file, ` + "`{{.Rules}}`" + `: YAML front matter between ` + "`---`" + ` lines,
then the message, in Markdown, that the agent reads when the rule matches.

` + "```markdown" + `
---
name: block-force-push
enabled: true
event: bash
action: block
pattern: git\s+push\s+.*(--force|-f)(\s|$)
tests:
  - input: {command: "git push --force origin main"}
    expect: block
  - input: {command: "git push --force-with-lease"}
    expect: allow
---

Use ` + "`git push --force-with-lease`" + ` instead.
` + "```" + `

- ` + "`name`" + `: the rule's name, lower case with dashes, also in the file name.
- ` + "`enabled`" + `: ` + "`true`" + ` or ` + "`false`" + `.
- ` + "`event`" + `: what the rule looks at, and its fields:
  - ` + "`bash`" + `: a shell command the agent runs; ` + "`command`" + `, ` + "`cwd`" + `.
  - ` + "`file`" + `: a file the agent writes or edits; ` + "`file_path`" + `, ` + "`new_text`" + `, ` + "`old_text`" + `, ` + "`content`" + `.
  - ` + "`read`" + `: a file the agent reads; ` + "`file_path`" + `, ` + "`content`" + ` (block only).
  - ` + "`prompt`" + `: the user's prompt; ` + "`user_prompt`" + `.
  - ` + "`stop`" + `: the agent is about to stop; ` + "`transcript`" + `, ` + "`last_assistant_message`" + `.
  - ` + "`all`" + `: every event above.
- ` + "`action`" + `: ` + "`warn`" + ` (the default: the agent is told, the action goes ahead) or
  ` + "`block`" + ` (the action is refused with the message; on ` + "`stop`" + `, the agent is told to go on).
- ` + "`pattern`" + `: a Python regular expression, searched case-insensitively in the event's
  main field (` + "`command`" + `, ` + "`new_text`" + `, ` + "`file_path`" + `, ` + "`user_prompt`" + `). For more than one test use
  ` + "`conditions`" + ` instead; all of them must hold:

  ` + "```yaml" + `
  conditions:
    - field: file_path
      operator: regex_match
      pattern: \.env$
    - field: file_path
      operator: not_contains
      pattern: .example
  ` + "```" + `

  Operators: {{.Ops}}.
- ` + "`tool_matcher`" + ` (optional): ` + "`mcp__<server>__<tool>`" + ` for an MCP tool, ` + "`Task`" + ` for subagents.
- ` + "`tests`" + `: examples that ` + "`hookify test`" + ` runs: ` + "`input`" + ` maps the fields to text, ` + "`expect`" + ` is
  ` + "`allow`" + `, ` + "`warn`" + ` or ` + "`block`" + `. Give at least one case that matches and one that must not.
`

// finish ends every command.
const finish = `## Finally

Run these from the project root and show the user their output:

` + "```sh" + `
{{.Build}}
{{.Test}}
` + "```" + `

If ` + "`hookify`" + ` is not on PATH but the project's go.mod records it as a tool, run
` + "`go tool hookify`" + ` with the same arguments. If the build reports an error at
` + "`file:line:col`" + `, fix that place in the rule and run both again; say what changed.
`

const hookifyText = `# Write a hookify rule

Write or change a hookify rule, a file ` + "`{{.Rules}}`" + ` that hookify compiles into Cursor
hooks, so that the agent is warned or stopped when it does what the user does not want.

## What to guard against

- The user's request is the text after the command. Turn it into one rule, or a few.
- With no text, read this conversation for what the user objected to: things they asked
  not to be done, actions they undid or corrected, the same mistake twice. Propose the
  rules you would write, one line each, and ask before writing them.
- If a rule with the same purpose exists (read ` + "`{{.Glob}}`" + `), change it instead of adding one.

## How to write it

1. Choose the event (which action), the field, the operator and the pattern, and the action:
   ` + "`block`" + ` only for what must never happen, ` + "`warn`" + ` otherwise.
2. Keep patterns narrow: match the harmful form, not every mention of a word.
3. Write the message for the agent: what is wrong and what to do instead.
4. Add ` + "`tests:`" + ` with a case that must match and a case that must not.
5. Name the file ` + "`{{.Rules}}`" + ` after the rule's name.

` + format + "\n" + finish

const listText = `# List the hookify rules

Show the hookify rules of {{.Where}} and whether each is in force.

1. Read every ` + "`{{.Glob}}`" + ` file.
2. Show one table row per file: name, enabled, event, action, what it matches (the
   pattern or the conditions, shortened), and the file name.
3. Under the table, say how many rules there are, how many are enabled, and that
   ` + "`/hookify`" + ` adds or changes one and ` + "`/hookify-configure`" + ` turns one on or off.
4. Run the build and the tests below: a rule with errors is not enforced. Mark each such
   rule in the table with its error.

` + finish

const configureText = `# Turn hookify rules on or off

Enable or disable hookify rules of {{.Where}}.

1. Read every ` + "`{{.Glob}}`" + ` file and list the rules with their ` + "`enabled`" + ` state.
2. The user's text after the command names the rules and what to do ("disable warn-sudo").
   Without it, show the list and ask which rules to change.
3. In each file to change, set the front matter line ` + "`enabled: true`" + ` or ` + "`enabled: false`" + `
   (add the line after ` + "`name:`" + ` when it is missing). Change nothing else.
4. Say which rules changed. A disabled rule stays in its file and is not enforced.

` + finish

const helpText = `# hookify in Cursor

Explain hookify to the user, briefly, from what follows; answer their question if they
asked one after the command.

hookify compiles Claude Code hookify rules (` + "`{{.Rules}}`" + `) into Cursor hooks:
scripts under ` + "`{{.Hooks}}`" + ` and entries in ` + "`{{.HooksJSON}}`" + `. Cursor runs them before and after
the agent's shell commands, file writes, reads, MCP tools and prompts, and when it stops.
A rule acts once it is built: ` + "`hookify build`" + ` writes the hooks and ` + "`hookify watch`" + ` rebuilds
on every save. The hooks notice a rule file added, changed, removed or renamed since the
build: they rebuild where hookify is installed, and otherwise keep the rules as built and
tell you which files changed and the command to run.

- ` + "`/hookify <what to prevent>`" + `: write or change a rule; with no text, from this conversation.
- ` + "`/hookify-list`" + `: the rules and whether each is enforced.
- ` + "`/hookify-configure <rule> on|off`" + `: enable or disable rules.
- ` + "`hookify explain`" + `: what each rule becomes in Cursor; ` + "`hookify doctor`" + `: whether the hooks work here.

` + format + "\n" + finish
