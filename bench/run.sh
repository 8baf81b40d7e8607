#!/usr/bin/env bash
# bench/run.sh: the cost of generated hooks, measured against a floor in the
# same run. Prints a table; times nothing inside tests.
#
#   bench/run.sh [ROUNDS] [CALLS]
#
# floor: a bash script that drains stdin with cat and prints {}.
# Each cell is the median over ROUNDS of the mean time of CALLS calls; the
# hook and the floor alternate round by round, so machine noise hits both.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
calls=${2:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/hookify" ./cmd/hookify

printf '#!/usr/bin/env bash\ncat >/dev/null\nprintf "{}\\n"\n' > "$tmp/floor.sh"
chmod +x "$tmp/floor.sh"

# project N: N bash rules (half block, half warn), a file block rule and a
# file warn rule. No rule matches the payloads below.
project() {
  local n=$1 dir=$tmp/p$1 i
  mkdir -p "$dir/.claude"
  for ((i = 1; i <= n; i++)); do
    local action=warn
    ((i % 2)) && action=block
    cat > "$dir/.claude/hookify.r$i.local.md" <<RULE
---
name: rule-$i
event: bash
action: $action
conditions:
  - field: command
    operator: regex_match
    pattern: (^|\\s)tool$i\\s+--(force|danger)\\b
  - field: command
    operator: not_contains
    pattern: --dry-run
---
Rule $i says no.
RULE
  done
  cat > "$dir/.claude/hookify.zfile.local.md" <<'RULE'
---
name: env
event: file
action: block
conditions:
  - field: file_path
    operator: regex_match
    pattern: \.env$
---
No env.
RULE
  cat > "$dir/.claude/hookify.zwarn.local.md" <<'RULE'
---
name: console
event: file
conditions:
  - field: new_text
    operator: regex_match
    pattern: console\.log\(
---
No console.
RULE
  "$tmp/hookify" build -C "$dir" 2>/dev/null
}

# payload SIZE: a beforeShellExecution payload whose command is SIZE bytes.
shell_payload() {
  awk -v n="$1" 'BEGIN { s = "ls -la"; while (length(s) < n) s = s " x"; printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", s }'
}
write_payload() {
  awk -v n="$1" 'BEGIN { s = "package main\\n"; while (length(s) < n) s = s "var x = \\\"y\\\" // a line of code\\n"; printf "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"main.go\",\"content\":\"%s\"}}", s }'
}

now() { date +%s%N; }

# mean_ms CMD PAYLOAD: mean wall time of one call, in ms.
mean_ms() {
  local cmd=$1 in=$2 t0 t1 i
  t0=$(now)
  for ((i = 0; i < calls; i++)); do "$cmd" < "$in" > /dev/null || true; done
  t1=$(now)
  echo $(((t1 - t0) / calls / 1000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# compare DIR SCRIPT PAYLOAD LABEL: one table row.
compare() {
  local dir=$1 script=$2 in=$3 label=$4 r hs=() fs=()
  pushd "$dir" > /dev/null
  for ((r = 0; r < rounds; r++)); do
    fs+=("$(mean_ms "$tmp/floor.sh" "$in")")
    hs+=("$(mean_ms "$script" "$in")")
  done
  popd > /dev/null
  local f h
  f=$(printf '%s\n' "${fs[@]}" | median)
  h=$(printf '%s\n' "${hs[@]}" | median)
  awk -v l="$label" -v f="$f" -v h="$h" 'BEGIN { printf "| %-34s | %8.2f | %8.2f | %5.2fx |\n", l, f / 1000, h / 1000, h / f }'
}

echo "hookify hook cost: median of $rounds rounds x $calls calls, interleaved with the floor"
echo
echo "| case                               | floor ms |  hook ms | ratio |"
echo "|------------------------------------|----------|----------|-------|"
shell_payload 1000 > "$tmp/s1k.json"
shell_payload 100000 > "$tmp/s100k.json"
write_payload 1000000 > "$tmp/w1m.json"
for n in 1 10 100 1000; do
  project "$n"
  compare "$tmp/p$n" .cursor/hooks/hookify-beforeShellExecution.sh "$tmp/s1k.json" "$n rules, 1 KB shell payload"
done
compare "$tmp/p10" .cursor/hooks/hookify-beforeShellExecution.sh "$tmp/s100k.json" "10 rules, 100 KB shell payload"
compare "$tmp/p10" .cursor/hooks/hookify-preToolUse.sh "$tmp/w1m.json" "1 MB write, preToolUse"
compare "$tmp/p10" .cursor/hooks/hookify-postToolUse.sh "$tmp/w1m.json" "1 MB write, postToolUse"

echo
echo "| compile                            |  build ms |"
echo "|------------------------------------|-----------|"
for n in 10 100 1000; do
  rm -rf "$tmp/p$n/.cursor"
  t0=$(now)
  "$tmp/hookify" build -C "$tmp/p$n" 2> /dev/null
  t1=$(now)
  printf '| %-34s | %9.1f |\n' "$n rules" "$(awk -v d=$((t1 - t0)) 'BEGIN { print d / 1e6 }')"
done
