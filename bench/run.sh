#!/usr/bin/env bash
# bench/run.sh: the cost of generated hooks, measured against two floors and
# a static binary in the same run. Prints a table; times nothing inside tests.
#
#   bench/run.sh [ROUNDS] [CALLS]
#
# floors: a script that drains stdin with cat and prints {}, run by bash
# through env (ratio: hook / bash floor), and by dash named in its #! line,
# the cheapest start of a POSIX shell (vs dash: hook / dash floor, the
# distance to the limit of one shell and one cat).
# static: a static Go binary (CGO_ENABLED=0, bench/refhook) with the same
# rules compiled in, deciding the payload with hookify's reference evaluator
# and printing the same answer (vs static: hook / static), the cost of one
# compiled process and no shell.
# Each cell is the median over ROUNDS of the mean time of CALLS calls (a tenth
# as many for 1 MB payloads); the hook, the floors and the static binary
# alternate round by round, so machine noise hits all four. Every hook row is
# measured once per awk: the scripts run with a PATH that holds only sh
# (dash, Debian's /bin/sh), that awk as "awk", tr (a stop hook that reads
# the transcript runs it), and bash only when the script's #! line names
# it (with mawk on PATH they would use mawk). AWKS
# picks them (default: each of mawk, gawk, original-awk and busybox that is
# installed). After the table, each awk's ratio to mawk's, per case (the
# budget of issue 15: gawk and BWK awk within 1.6x).
#
# The sizes can be made smaller (bench_test.go does, to check the script in
# seconds): RULES, the rule counts of the shell rows and of the compile
# table (default "1 10 100 1000"); SHELL_BIG, the bytes of the large shell
# payload (default 100000); WRITE, the bytes of the written file (default
# 1000000); ESCAPES, the sizes of the escape-heavy writes (default "1000000
# 4000000": content that is nothing but the escapes \\, \" and \t, read by
# the postToolUse rule); TOKENS, the sizes of the arrays of tiny tokens
# that no rule reads (default 4000000); TRANSCRIPT, the bytes of the stop hook's transcript
# (default 100000000, with NUL bytes in it); DFA_BIG, the bytes of the
# command that the table matcher rows decide in one call (default 1000000);
# UNI_BIG, that of the prose the Unicode rule rows decide in one call
# (default 1000000).
# The large-payload rows use the 10-rule project.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
calls=${2:-40}
RULES=${RULES:-1 10 100 1000}
SHELL_BIG=${SHELL_BIG:-100000}
WRITE=${WRITE:-1000000}
ESCAPES=${ESCAPES:-1000000 4000000}
TOKENS=${TOKENS:-4000000}
TRANSCRIPT=${TRANSCRIPT:-100000000}
DFA_BIG=${DFA_BIG:-1000000}
UNI_BIG=${UNI_BIG:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/hookify" ./cmd/hookify
go build -o "$tmp/refgen" ./bench/refhook/gen
dash=$(command -v dash) || { echo "bench: dash is required (the dash floor, and sh on the hooks' PATH)" >&2; exit 1; }

if [ -z "${AWKS:-}" ]; then
  AWKS=
  for a in mawk gawk original-awk busybox; do
    command -v "$a" > /dev/null && AWKS="$AWKS $a"
  done
fi
for a in $AWKS; do
  mkdir -p "$tmp/awk-$a"
  ln -s "$(command -v "$a")" "$tmp/awk-$a/awk" # busybox runs the applet its link is named
  ln -s "$dash" "$tmp/awk-$a/sh"
  ln -s "$(command -v tr)" "$tmp/awk-$a/tr" # stop hooks read the transcript through tr
done

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
  # The static binary of the project: its hooks as Go values, in place of
  # bench/refhook/hooks.go.
  "$tmp/refgen" "$dir" > "$dir/hooks.go"
  printf '{"Replace":{"%s":"%s"}}' "$PWD/bench/refhook/hooks.go" "$dir/hooks.go" > "$dir/overlay.json"
  CGO_ENABLED=0 go build -overlay "$dir/overlay.json" -o "$dir/refhook" ./bench/refhook
}

# project_last: one stop rule on last_assistant_message, which reads the
# last assistant entry of Cursor's agent transcript (README, "Payload
# fields"). It does not match the transcript below.
project_last() {
  local dir=$tmp/plast
  mkdir -p "$dir/.claude"
  cat > "$dir/.claude/hookify.claims.local.md" <<'RULE'
---
name: claims
event: stop
action: block
conditions:
  - field: last_assistant_message
    operator: regex_match
    pattern: (?i)all tests pass
---
Show the test output.
RULE
  "$tmp/hookify" build -C "$dir" 2>/dev/null
  "$tmp/refgen" "$dir" > "$dir/hooks.go"
  printf '{"Replace":{"%s":"%s"}}' "$PWD/bench/refhook/hooks.go" "$dir/hooks.go" > "$dir/overlay.json"
  CGO_ENABLED=0 go build -overlay "$dir/overlay.json" -o "$dir/refhook" ./bench/refhook
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
# agent_transcript SIZE: about SIZE bytes of Cursor's agent transcript, turns
# of a user entry, an assistant entry with text and a tool call, and two of
# tool calls only (the hook parses these from the end back to the text); the
# last turn ends with text that no rule matches.
agent_transcript() {
  awk -v n="$1" "$grow"' BEGIN {
    u = "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"<user_query>\\nfix the build\\n</user_query>\"}]}}\n"
    a = "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" grow("", "Looking at the failing test.\\n", 400) "\"},{\"type\":\"tool_use\",\"name\":\"Shell\",\"input\":{\"command\":\"go test ./...\"}}]}}\n"
    t = "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Write\",\"input\":{\"path\":\"main.go\",\"contents\":\"" grow("", "var x = \\\"y\\\" // a line of code\\n", 4000) "\"}}]}}\n"
    m = grow(u a t t, u a t t, 1000000)
    for (s = 0; s < n; s += length(m)) printf "%s", m
    printf "%s", a
  }'
}
# escape_payload SIZE: a Write whose content is SIZE bytes of JSON escapes.
escape_payload() {
  awk -v n="$1" "$grow"' BEGIN { printf "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"main.go\",\"content\":\"%s\"}}", grow("", "\\\\\\\"\\t", n) }'
}
# tokens_payload SIZE: a Write with, beside its content, an array of SIZE
# bytes of tiny tokens that no rule reads (1, "", [], {} in turn): a
# million tokens cost busybox awk 10 s before decode.awk skimmed them.
tokens_payload() {
  awk -v n="$1" "$grow"' BEGIN { printf "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"main.go\",\"content\":\"x\"},\"other\":[%s1]}", grow("", "1,\"\",[],{},", n) }'
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

# mean_us N PATH PAYLOAD CMD [ARG...]: mean wall time of one call over N
# calls, in µs, with PATH as the command's PATH.
mean_us() {
  local n=$1 path=$2 in=$3 t0 t1 i
  shift 3
  t0=$(now)
  for ((i = 0; i < n; i++)); do PATH=$path "$@" < "$in" > /dev/null || true; done
  t1=$(now)
  echo $(((t1 - t0) / n / 1000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# ratios["CASE|AWK"] is the hook's ratio to the bash floor, and
# ratios["CASE|static"] the static binary's (of the first awk's row), for the
# summary after the table; cases lists the cases in order.
declare -A ratios
cases=()

# check WHAT ANSWER PATH CMD [ARG...] < PAYLOAD: CMD, run with PATH, must
# give ANSWER (no rule matches the payloads) before it is timed: a broken
# hook that fails fast would otherwise look cheap.
check() {
  local what=$1 answer=$2 path=$3 got
  shift 3
  got=$(PATH=$path "$@" 2>&1) || true
  if [ "$got" != "$answer" ]; then
    echo "bench: $what answered $got, want $answer" >&2
    exit 1
  fi
}

# compare DIR SCRIPT PAYLOAD ANSWER LABEL: one table row per awk, the hook
# SCRIPT of the project DIR against the floors and DIR's static binary.
compare() {
  local dir=$1 script=$2 in=$3 answer=$4 label=$5 n=$calls a r f d s h hs fs ds ss event
  [ "$(wc -c < "$in")" -lt 1000000 ] || n=$(((calls + 9) / 10))
  [ "$(wc -c < "$in")" -lt 4000000 ] || n=$(((calls + 39) / 40))
  event=${script##*/hookify-} event=${event%.sh}
  cases+=("$label")
  pushd "$dir" > /dev/null
  check "the static binary ($event)" "$answer" "$PATH" ./refhook "$event" < "$in"
  for a in $AWKS; do
    case $(head -n 1 "$script") in
    *bash*) ln -sf "$(command -v bash)" "$tmp/awk-$a/bash" ;;
    esac
    check "$script with $a" "$answer" "$tmp/awk-$a" "$script" < "$in"
    hs=() fs=() ds=() ss=()
    for ((r = 0; r < rounds; r++)); do
      fs+=("$(mean_us "$n" "$PATH" "$in" "$tmp/floor.sh")")
      ds+=("$(mean_us "$n" "$PATH" "$in" "$tmp/dash-floor.sh")")
      ss+=("$(mean_us "$n" "$PATH" "$in" ./refhook "$event")")
      hs+=("$(mean_us "$n" "$tmp/awk-$a" "$in" "$script")")
    done
    f=$(printf '%s\n' "${fs[@]}" | median)
    d=$(printf '%s\n' "${ds[@]}" | median)
    s=$(printf '%s\n' "${ss[@]}" | median)
    h=$(printf '%s\n' "${hs[@]}" | median)
    awk -v l="$label" -v a="$a" -v f="$f" -v d="$d" -v s="$s" -v h="$h" 'BEGIN { printf "| %-32s | %-12s | %8.2f | %8.2f | %9.2f | %8.2f | %6.2fx | %6.2fx | %8.2fx |\n", l, a, f / 1000, d / 1000, s / 1000, h / 1000, h / f, h / d, h / s }'
    ratios["$label|$a"]=$(awk -v f="$f" -v h="$h" 'BEGIN { print h / f }')
    [ -n "${ratios["$label|static"]:-}" ] || ratios["$label|static"]=$(awk -v f="$f" -v s="$s" 'BEGIN { print s / f }')
  done
  popd > /dev/null
}

echo "hookify hook cost: median of $rounds rounds x $calls calls, interleaved with the floors and the static binary"
echo "hook PATH: sh (dash), tr and the row's awk as awk (bash too when a script's #! names it); mawk on this PATH: $(command -v mawk || echo none) (the scripts use mawk when there is one)"
echo
echo "| case                             | awk          |  bash ms |  dash ms | static ms |  hook ms |   ratio | vs dash | vs static |"
echo "|----------------------------------|--------------|----------|----------|-----------|----------|---------|---------|-----------|"
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
for n in $ESCAPES; do
  escape_payload "$n" > "$tmp/escapes.json"
  compare "$tmp/p10" .cursor/hooks/hookify-postToolUse.sh "$tmp/escapes.json" '{}' "$(size "$n") escapes, postToolUse"
done
for n in $TOKENS; do
  tokens_payload "$n" > "$tmp/tokens.json"
  compare "$tmp/p10" .cursor/hooks/hookify-postToolUse.sh "$tmp/tokens.json" '{}' "$(size "$n") tiny tokens, postToolUse"
done
transcript "$TRANSCRIPT" > "$tmp/transcript.jsonl"
printf '{"hook_event_name":"stop","status":"completed","transcript_path":"%s"}' "$tmp/transcript.jsonl" > "$tmp/stop.json"
# The hook reads the whole transcript: a twentieth of the calls.
all_calls=$calls calls=$(((calls + 19) / 20))
compare "$tmp/p10" .cursor/hooks/hookify-stop.sh "$tmp/stop.json" '{}' "$(size "$TRANSCRIPT") transcript, stop"
calls=$all_calls
project_last
agent_transcript "$TRANSCRIPT" > "$tmp/agent.jsonl"
printf '{"hook_event_name":"stop","status":"completed","transcript_path":"%s"}' "$tmp/agent.jsonl" > "$tmp/last.json"
# The hook reads the whole file too, and parses its last turn.
calls=$(((calls + 19) / 20))
compare "$tmp/plast" .cursor/hooks/hookify-stop.sh "$tmp/last.json" '{}' "$(size "$TRANSCRIPT") last message, stop"
calls=$all_calls

# Each awk's ratio to the bash floor divided by mawk's, per case: the
# floors of the two rows absorb the noise of their rounds.
summary_awks=
for a in $AWKS; do
  [ "$a" = mawk ] || summary_awks="$summary_awks $a"
done
if [[ " $AWKS " == *" mawk "* ]]; then
  echo
  echo "ratios to the bash floor: the static binary, mawk, and each other awk's as a multiple of mawk's"
  echo
  line="| case                             | static |   mawk |"
  rule="|----------------------------------|--------|--------|"
  for a in $summary_awks; do
    line="$line $(printf '%13s' "$a/mawk") |"
    rule="$rule$(printf '%*s' "$(printf ' %13s ' "$a/mawk" | wc -c)" '' | tr ' ' -)|"
  done
  echo "$line"
  echo "$rule"
  for c in "${cases[@]}"; do
    line=$(awk -v c="$c" -v s="${ratios["$c|static"]}" -v m="${ratios["$c|mawk"]}" 'BEGIN { printf "| %-32s | %5.2fx | %5.2fx |", c, s, m }')
    for a in $summary_awks; do
      line="$line$(awk -v w=$((${#a} + 5)) -v m="${ratios["$c|mawk"]}" -v x="${ratios["$c|$a"]}" 'BEGIN { printf " %*.2fx |", (w > 13 ? w : 13) - 1, x / m }')"
    done
    echo "$line"
  done
fi

# The live check (docs/live-rules.md): the 10-rule project's shell hook
# with the check that notices stale rule files, and the same hook built
# without it (from rules/ in place of .claude/: a build from elsewhere has no
# check), after a first call has written the stamp. In CPU time, user and
# system of every process of LIVE_CALLS calls (default 12 x CALLS, at least 40), from
# /usr/bin/time: on a loaded machine wall time counts the other processes
# too. The two alternate round by round; each cell is the median.
cpu_us() {
  local n=$1 path=$2 in=$3
  shift 3
  /usr/bin/time -f '%U %S' -o "$tmp/cpu" bash -c 'n=$1 path=$2 in=$3; shift 3; for ((i = 0; i < n; i++)); do PATH=$path "$@" < "$in" > /dev/null || true; done' cpu "$n" "$path" "$in" "$@"
  awk -v n="$n" '{ printf "%d\n", ($1 + $2) * 1e6 / n }' "$tmp/cpu"
}
live_calls=${LIVE_CALLS:-$((calls * 12 > 40 ? calls * 12 : 40))}
mkdir -p "$tmp/p10nc/rules"
cp "$tmp/p10"/.claude/* "$tmp/p10nc/rules/"
"$tmp/hookify" build -C "$tmp/p10nc" rules 2> /dev/null
# The per-rule layout: the script of the first rule, which also carries the
# rerun after a rebuild (docs/live-rules.md, "The per-rule layout").
mkdir -p "$tmp/p10pr/.claude" "$tmp/p10prnc/rules"
cp "$tmp/p10"/.claude/* "$tmp/p10pr/.claude/"
cp "$tmp/p10"/.claude/* "$tmp/p10prnc/rules/"
"$tmp/hookify" build -C "$tmp/p10pr" --layout per-rule 2> /dev/null
"$tmp/hookify" build -C "$tmp/p10prnc" --layout per-rule rules 2> /dev/null
grep -q 'hookify-fresh' "$tmp/p10pr/.cursor/hooks/hookify-rule-1.sh" || { echo "bench: the per-rule script has no live check" >&2; exit 1; }
grep -q 'hookify-fresh' "$tmp/p10/.cursor/hooks/hookify-beforeShellExecution.sh" || { echo "bench: the 10-rule hook has no live check" >&2; exit 1; }
! grep -q 'hookify-fresh' "$tmp/p10nc/.cursor/hooks/hookify-beforeShellExecution.sh" || { echo "bench: the hook built from rules/ has the live check" >&2; exit 1; }
echo
echo "live check: the 10-rule shell hook (1 KB payload) with and without it, and the first rule's script of the per-rule layout, CPU ms a call, median of $rounds rounds x $live_calls calls"
echo
echo "| case                             | awk          | without ms |  with ms |   ratio |"
echo "|----------------------------------|--------------|------------|----------|---------|"
for a in $AWKS; do
  for d in p10 p10nc; do
    (cd "$tmp/$d" && check "the $d hook with $a" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-beforeShellExecution.sh < "$tmp/s1k.json")
  done
  [ -e "$tmp/p10/.cursor/hooks/.hookify-fresh" ] || { echo "bench: the hook wrote no stamp" >&2; exit 1; }
  ws=() os=()
  for ((r = 0; r < rounds; r++)); do
    os+=("$(cd "$tmp/p10nc" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/s1k.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
    ws+=("$(cd "$tmp/p10" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/s1k.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
  done
  o=$(printf '%s\n' "${os[@]}" | median)
  w=$(printf '%s\n' "${ws[@]}" | median)
  awk -v a="$a" -v o="$o" -v w="$w" 'BEGIN { printf "| %-32s | %-12s | %10.3f | %8.3f | %6.2fx |\n", "live check, 10 rules, 1 KB shell", a, o / 1000, w / 1000, (o > 0 ? w / o : 0) }'
  for d in p10pr p10prnc; do
    (cd "$tmp/$d" && check "the $d script with $a" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-rule-1.sh < "$tmp/s1k.json")
  done
  ws=() os=()
  for ((r = 0; r < rounds; r++)); do
    os+=("$(cd "$tmp/p10prnc" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/s1k.json" .cursor/hooks/hookify-rule-1.sh)")
    ws+=("$(cd "$tmp/p10pr" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/s1k.json" .cursor/hooks/hookify-rule-1.sh)")
  done
  o=$(printf '%s\n' "${os[@]}" | median)
  w=$(printf '%s\n' "${ws[@]}" | median)
  awk -v a="$a" -v o="$o" -v w="$w" 'BEGIN { printf "| %-32s | %-12s | %10.3f | %8.3f | %6.2fx |\n", "live check, per-rule, 1 KB shell", a, o / 1000, w / 1000, (o > 0 ? w / o : 0) }'
done

# The table matcher (docs/awk-engines.md §14): a project with the README's
# block-force-push rule, whose ERE mawk and busybox awk backtrack on, so the
# hook runs its table (hk_dfa), against the same project without it, on a
# 1 KB command that holds the rule's needle (the table runs over it all);
# the added CPU time as a multiple of the bash floor's (issue 22: at most
# 0.2x with mawk). Then one call on a 1 MB command of spaces after "git
# push", which took mawk minutes with the ERE (budget: 2 s in every awk).
dfa_project() {
  local dir=$tmp/$1
  mkdir -p "$dir/.claude"
  cat > "$dir/.claude/hookify.base.local.md" <<'RULE'
---
name: base
event: bash
action: block
pattern: hookify-bench-never-there
---
No.
RULE
  if [ "$2" = with ]; then
    cat > "$dir/.claude/hookify.push.local.md" <<'RULE'
---
name: block-force-push
event: bash
action: block
pattern: git\s+push\s+.*(--force|-f)(\s|$)
---
No force push.
RULE
  fi
  "$tmp/hookify" build -C "$dir" 2> /dev/null
}
dfa_project pdfa with
dfa_project pnodfa without
grep -q 'hk_dfa(v' "$tmp/pdfa/.cursor/hooks/hookify-beforeShellExecution.sh" || { echo "bench: the force-push hook runs no table" >&2; exit 1; }
awk -v n=1000 "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", grow("git push origin ", "feature-x ", n) }' > "$tmp/push1k.json"
awk -v n="$DFA_BIG" "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%sx\",\"cwd\":\"/w\"}", grow("git push", " ", n) }' > "$tmp/push1m.json"
echo
echo "table matcher: the force-push rule's table on a 1 KB command, CPU ms a call, median of $rounds rounds x $live_calls calls; and one call on $(size "$DFA_BIG") of spaces after git push (big s)"
echo
echo "| case                             | awk          | floor ms | without ms |  with ms | added / floor |  big s |"
echo "|----------------------------------|--------------|----------|------------|----------|---------------|--------|"
for a in $AWKS; do
  for d in pdfa pnodfa; do
    (cd "$tmp/$d" && check "the $d hook with $a" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-beforeShellExecution.sh < "$tmp/push1k.json")
  done
  fs=() ws=() os=()
  for ((r = 0; r < rounds; r++)); do
    fs+=("$(cpu_us "$live_calls" "$PATH" "$tmp/push1k.json" "$tmp/floor.sh")")
    os+=("$(cd "$tmp/pnodfa" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/push1k.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
    ws+=("$(cd "$tmp/pdfa" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/push1k.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
  done
  f=$(printf '%s\n' "${fs[@]}" | median)
  o=$(printf '%s\n' "${os[@]}" | median)
  w=$(printf '%s\n' "${ws[@]}" | median)
  (cd "$tmp/pdfa" && check "the force-push hook with $a on 1 MB" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-beforeShellExecution.sh < "$tmp/push1m.json")
  big=$(cd "$tmp/pdfa" && cpu_us 1 "$tmp/awk-$a" "$tmp/push1m.json" .cursor/hooks/hookify-beforeShellExecution.sh)
  awk -v a="$a" -v f="$f" -v o="$o" -v w="$w" -v b="$big" 'BEGIN { printf "| %-32s | %-12s | %8.3f | %10.3f | %8.3f | %12.2fx | %6.2f |\n", "force-push table, 1 KB shell", a, f / 1000, o / 1000, w / 1000, (w - o) / f, b / 1e6 }'
done

# Python's Unicode \w \d \b (docs/awk-engines.md §15): a project with a
# rule that reads them (\bfoo\w+, so its hook rewrites the value with
# words.awk before the ERE reads it) against the same project without it,
# on a 1 KB command that holds the rule's needle (foo) and no match, in
# ASCII and in prose of several scripts (the rewrite runs over all of it);
# the added CPU time as a multiple of the bash floor's. Then one call on
# UNI_BIG bytes of the same prose, and one on UNI_BIG bytes of words that
# do not repeat (random letters and digits of four scripts, the rewrite's
# worst case: each character and word is new), budget 2 s in every awk.
uni_project() {
  local dir=$tmp/$1
  mkdir -p "$dir/.claude"
  cp "$tmp/pnodfa/.claude/hookify.base.local.md" "$dir/.claude/"
  if [ "$2" = with ]; then
    cat > "$dir/.claude/hookify.word.local.md" <<'RULE'
---
name: foo-word
event: bash
action: block
pattern: \bfoo\w+
---
No.
RULE
  fi
  "$tmp/hookify" build -C "$dir" 2> /dev/null
}
uni_project puni with
uni_project pnouni without
grep -q 'hk_uw(v' "$tmp/puni/.cursor/hooks/hookify-beforeShellExecution.sh" || { echo "bench: the Unicode rule's hook does not rewrite" >&2; exit 1; }
prose='Größe über naïve café ٣٤٥ 中文字符 Ελληνικά русский foo-bar '
awk -v n=1000 "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", grow("echo ", "plain ascii text foo-bar ", n) }' > "$tmp/uni1k-ascii.json"
awk -v n=1000 -v u="$prose" "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", grow("echo ", u, n) }' > "$tmp/uni1k.json"
awk -v n="$UNI_BIG" -v u="$prose" "$grow"' BEGIN { printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"%s\",\"cwd\":\"/w\"}", grow("echo ", u, n) }' > "$tmp/uni1m.json"
LC_ALL=C awk -v n="$UNI_BIG" '
function u8(c) { # the UTF-8 bytes of code point c
  if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
  return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
}
BEGIN {
  srand(1); printf "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"echo "
  split("19968 20991 192 591 1024 1279 1632 1641", r, " ")
  for (b = 0; b < n; b++) {
    k = 2 * int(rand() * 4) + 1; c = r[k] + int(rand() * (r[k + 1] - r[k] + 1))
    w = u8(c); printf "%s", w; b += length(w) - 1
    if (rand() < 0.2) { printf " "; b++ }
  }
  printf " foo-\",\"cwd\":\"/w\"}"
}' > "$tmp/uni1m-rand.json"
echo
echo "Unicode rule: \\bfoo\\w+ on a 1 KB command that holds foo, CPU ms a call, median of $rounds rounds x $live_calls calls; and one call on $(size "$UNI_BIG") of prose (big s) and of words that do not repeat (rand s)"
echo
echo "| case                             | awk          | floor ms | without ms |  with ms | added / floor |  big s | rand s |"
echo "|----------------------------------|--------------|----------|------------|----------|---------------|--------|--------|"
for a in $AWKS; do
  for payload in uni1k-ascii uni1k; do
    for d in puni pnouni; do
      (cd "$tmp/$d" && check "the $d hook with $a on $payload" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-beforeShellExecution.sh < "$tmp/$payload.json")
    done
    fs=() ws=() os=()
    for ((r = 0; r < rounds; r++)); do
      fs+=("$(cpu_us "$live_calls" "$PATH" "$tmp/$payload.json" "$tmp/floor.sh")")
      os+=("$(cd "$tmp/pnouni" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/$payload.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
      ws+=("$(cd "$tmp/puni" && cpu_us "$live_calls" "$tmp/awk-$a" "$tmp/$payload.json" .cursor/hooks/hookify-beforeShellExecution.sh)")
    done
    f=$(printf '%s\n' "${fs[@]}" | median)
    o=$(printf '%s\n' "${os[@]}" | median)
    w=$(printf '%s\n' "${ws[@]}" | median)
    big= rnd=
    label="Unicode rule, 1 KB ASCII"
    if [ "$payload" = uni1k ]; then
      for big in uni1m uni1m-rand; do
        (cd "$tmp/puni" && check "the Unicode rule's hook with $a on $(size "$UNI_BIG") ($big)" "$allow" "$tmp/awk-$a" .cursor/hooks/hookify-beforeShellExecution.sh < "$tmp/$big.json")
      done
      big=$(cd "$tmp/puni" && cpu_us 1 "$tmp/awk-$a" "$tmp/uni1m.json" .cursor/hooks/hookify-beforeShellExecution.sh)
      rnd=$(cd "$tmp/puni" && cpu_us 1 "$tmp/awk-$a" "$tmp/uni1m-rand.json" .cursor/hooks/hookify-beforeShellExecution.sh)
      label="Unicode rule, 1 KB prose"
    fi
    awk -v l="$label" -v a="$a" -v f="$f" -v o="$o" -v w="$w" -v b="$big" -v r="$rnd" 'BEGIN { printf "| %-32s | %-12s | %8.3f | %10.3f | %8.3f | %12.2fx | %6s | %6s |\n", l, a, f / 1000, o / 1000, w / 1000, (w - o) / f, (b == "" ? "" : sprintf("%.2f", b / 1e6)), (r == "" ? "" : sprintf("%.2f", r / 1e6)) }'
  done
done

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
