#!/usr/bin/env bash
# bench/run.sh: the cost of generated hooks, measured against two floors in
# the same run. Prints a table; times nothing inside tests.
#
#   bench/run.sh [ROUNDS] [CALLS]
#
# floors: a script that drains stdin with cat and prints {}, run by bash
# through env, as the hooks are (ratio: hook / bash floor), and by dash named
# in its #! line, the cheapest start of a POSIX shell (vs dash: hook / dash
# floor, the distance to the limit of one shell and one cat).
# Each cell is the median over ROUNDS of the mean time of CALLS calls (a tenth
# as many for 1 MB payloads); the hook and the floors alternate round by
# round, so machine noise hits all three. Every hook row is measured once per
# awk: the scripts run with a PATH that holds only bash and that awk as "awk"
# (with mawk on PATH they would use mawk). AWKS picks them (default: each of mawk,
# gawk, original-awk and busybox that is installed).
#
# The sizes can be made smaller (bench_test.go does, to check the script in
# seconds): RULES, the rule counts of the shell rows and of the compile
# table (default "1 10 100 1000"); SHELL_BIG, the bytes of the large shell
# payload (default 100000); WRITE, the bytes of the written file (default
# 1000000); TRANSCRIPT, the bytes of the stop hook's transcript (default
# 100000000, with NUL bytes in it). The large-payload rows use the 10-rule
# project.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
calls=${2:-40}
RULES=${RULES:-1 10 100 1000}
SHELL_BIG=${SHELL_BIG:-100000}
WRITE=${WRITE:-1000000}
TRANSCRIPT=${TRANSCRIPT:-100000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/hookify" ./cmd/hookify

if [ -z "${AWKS:-}" ]; then
  AWKS=
  for a in mawk gawk original-awk busybox; do
    command -v "$a" > /dev/null && AWKS="$AWKS $a"
  done
fi
for a in $AWKS; do
  mkdir -p "$tmp/awk-$a"
  ln -s "$(command -v "$a")" "$tmp/awk-$a/awk" # busybox runs the applet its link is named
  ln -s "$(command -v bash)" "$tmp/awk-$a/bash"
done

dash=$(command -v dash) || { echo "bench: dash is required (the dash floor)" >&2; exit 1; }
printf '#!/usr/bin/env bash\ncat >/dev/null\nprintf "{}\\n"\n' > "$tmp/floor.sh"
printf '#!%s\ncat >/dev/null\nprintf "{}\\n"\n' "$dash" > "$tmp/dash-floor.sh"
chmod +x "$tmp/floor.sh" "$tmp/dash-floor.sh"

# project N: N bash rules (half block, half warn), a file block rule, a
# file warn rule and a stop rule on the transcript. No rule matches the
# payloads below.
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
  cat > "$dir/.claude/hookify.zstop.local.md" <<'RULE'
---
name: stop
event: stop
action: block
conditions:
  - field: transcript
    operator: contains
    pattern: hookify-bench-never-there
---
Not yet.
RULE
  "$tmp/hookify" build -C "$dir" 2>/dev/null
}

# grow(S, U, N) in awk: S followed by as many copies of U as it takes to
# reach N characters, built by doubling (appending one U at a time is
# quadratic in some awks: 20 s for 1 MB).
grow='function grow(s, u, n,   k, r) { k = n - length(s); if (k <= 0) return s; k = int((k + length(u) - 1) / length(u)); r = ""; while (k > 0) { if (k % 2) r = r u; u = u u; k = int(k / 2) } return s r }'

# shell_payload SIZE: a beforeShellExecution payload whose command is SIZE
# bytes; write_payload SIZE: a Write whose content is about SIZE bytes.
shell_payload() {
  awk -v n="$1" "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", grow("ls -la", " x", n) }'
}
# transcript SIZE: about SIZE bytes of JSONL, a NUL byte after each MB.
transcript() {
  awk -v n="$1" "$grow"' BEGIN { l = grow("{\"role\":\"assistant\",\"text\":\"", "ran the tests, ", 200) "\"}\n"; m = grow(l, l, 1000000); for (s = 0; s < n; s += length(m)) printf "%s%c", m, 0 }'
}
write_payload() {
  awk -v n="$1" "$grow"' BEGIN { printf "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"main.go\",\"content\":\"%s\"}}", grow("package main\\n", "var x = \\\"y\\\" // a line of code\\n", n) }'
}

# size BYTES: the row label for a payload size (1 KB, 100 KB, 1 MB).
size() {
  if (($1 >= 1000000 && $1 % 1000000 == 0)); then echo "$(($1 / 1000000)) MB"
  elif (($1 >= 1000 && $1 % 1000 == 0)); then echo "$(($1 / 1000)) KB"
  else echo "$1 B"; fi
}

now() { date +%s%N; }

# mean_us N PATH CMD PAYLOAD: mean wall time of one call over N calls, in µs,
# with PATH as the command's PATH.
mean_us() {
  local n=$1 path=$2 cmd=$3 in=$4 t0 t1 i
  t0=$(now)
  for ((i = 0; i < n; i++)); do PATH=$path "$cmd" < "$in" > /dev/null || true; done
  t1=$(now)
  echo $(((t1 - t0) / n / 1000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# compare DIR SCRIPT PAYLOAD ANSWER LABEL: one table row per awk. The script
# must give ANSWER (no rule matches the payloads) before it is timed: a
# broken hook that fails fast would otherwise look cheap.
compare() {
  local dir=$1 script=$2 in=$3 answer=$4 label=$5 n=$calls a r f d h hs fs ds got
  [ "$(wc -c < "$in")" -lt 1000000 ] || n=$(((calls + 9) / 10))
  pushd "$dir" > /dev/null
  for a in $AWKS; do
    got=$(PATH=$tmp/awk-$a "$script" < "$in" 2>&1) || true
    if [ "$got" != "$answer" ]; then
      echo "bench: $script with $a answered $got, want $answer" >&2
      exit 1
    fi
    hs=() fs=() ds=()
    for ((r = 0; r < rounds; r++)); do
      fs+=("$(mean_us "$n" "$PATH" "$tmp/floor.sh" "$in")")
      ds+=("$(mean_us "$n" "$PATH" "$tmp/dash-floor.sh" "$in")")
      hs+=("$(mean_us "$n" "$tmp/awk-$a" "$script" "$in")")
    done
    f=$(printf '%s\n' "${fs[@]}" | median)
    d=$(printf '%s\n' "${ds[@]}" | median)
    h=$(printf '%s\n' "${hs[@]}" | median)
    awk -v l="$label" -v a="$a" -v f="$f" -v d="$d" -v h="$h" 'BEGIN { printf "| %-32s | %-12s | %8.2f | %8.2f | %8.2f | %5.2fx | %6.2fx |\n", l, a, f / 1000, d / 1000, h / 1000, h / f, h / d }'
  done
  popd > /dev/null
}

echo "hookify hook cost: median of $rounds rounds x $calls calls, interleaved with the floors"
echo "awk on PATH: $(readlink -f "$(command -v awk)"); mawk on PATH: $(command -v mawk || echo none) (the scripts use mawk when there is one)"
echo
echo "| case                             | awk          |  bash ms |  dash ms |  hook ms | ratio | vs dash |"
echo "|----------------------------------|--------------|----------|----------|----------|-------|---------|"
shell_payload 1000 > "$tmp/s1k.json"
shell_payload "$SHELL_BIG" > "$tmp/sbig.json"
write_payload "$WRITE" > "$tmp/write.json"
allow='{"permission":"allow"}'
for n in $RULES; do
  project "$n"
  compare "$tmp/p$n" .cursor/hooks/hookify-beforeShellExecution.sh "$tmp/s1k.json" "$allow" "$n rules, 1 KB shell payload"
done
[ -d "$tmp/p10" ] || project 10
compare "$tmp/p10" .cursor/hooks/hookify-beforeShellExecution.sh "$tmp/sbig.json" "$allow" "10 rules, $(size "$SHELL_BIG") shell payload"
compare "$tmp/p10" .cursor/hooks/hookify-preToolUse.sh "$tmp/write.json" "$allow" "$(size "$WRITE") write, preToolUse"
compare "$tmp/p10" .cursor/hooks/hookify-postToolUse.sh "$tmp/write.json" '{}' "$(size "$WRITE") write, postToolUse"
transcript "$TRANSCRIPT" > "$tmp/transcript.jsonl"
printf '{"hook_event_name":"stop","status":"completed","transcript_path":"%s"}' "$tmp/transcript.jsonl" > "$tmp/stop.json"
# The hook reads the whole transcript: a twentieth of the calls.
all_calls=$calls calls=$(((calls + 19) / 20))
compare "$tmp/p10" .cursor/hooks/hookify-stop.sh "$tmp/stop.json" '{}' "$(size "$TRANSCRIPT") transcript, stop"
calls=$all_calls

echo
echo "| compile                            |  build ms |"
echo "|------------------------------------|-----------|"
for n in $RULES; do
  ((n >= 10)) || continue
  rm -rf "$tmp/p$n/.cursor"
  t0=$(now)
  "$tmp/hookify" build -C "$tmp/p$n" 2> /dev/null
  t1=$(now)
  printf '| %-34s | %9.1f |\n' "$n rules" "$(awk -v d=$((t1 - t0)) 'BEGIN { print d / 1e6 }')"
done
