#!/usr/bin/env bash
# bench/unicode.sh: what exact Unicode \w \d \b would cost in the awk runtime
# (issue 15; the numbers and the decision are in docs/awk-engines.md §12).
#
#   bench/unicode.sh [ROUNDS] [CALLS]
#
# pyre translates \w \d \b ASCII-only (README, "Why Cursor needs a
# compiler"). The exact form
# would spell Python's classes out as UTF-8 byte sequences and be used only
# when the value holds a byte >= 0x80 ("design": v ~ "[\200-\377]" ? v ~ U :
# v ~ A). For each rule below this script builds, with pyre's own translator,
#   A: today's ERE of the Python pattern (ASCII \w \d \b), and
#   U: the ERE of the same pattern with \w, \W, \d and \b written as explicit
#      character sets of the code points python3's re matches for them (so
#      the sets come from the local python3, and U has the form an exact
#      translator would emit),
# checks that every awk running the design answers as python3's re.search
# does, on the timed subjects and on short ones where A is wrong, and then
# times three awk programs per rule, subject and awk, each run the way a hook
# runs (one process per call, LC_ALL=C, the value read from stdin):
#   base   reads the value and prints whether it is empty (no regex);
#   ascii  base + today's test v ~ A;
#   design base + the test above, with both literals in the program text.
# Printed: the regex sizes, then per cell the CPU time of the bash floor (a
# bash script that drains stdin, as in bench/run.sh; issue 15's budgets are
# ratios to it) and of base, and the cost of ascii and design over base, in
# ms and as a fraction of the floor. Each cell is the median over ROUNDS of
# the mean of CALLS calls (a quarter as many at 100 KB, a tenth at 1 MB),
# interleaved. No subject matches any rule: the engines scan all of it.
# AWKS picks the awks (default: each of mawk, gawk, original-awk, busybox
# that is installed); SIZES the subject sizes in bytes (default
# "2 1000 100000 1000000"; the 2-byte subject is "é", which shows the cost
# of compiling U alone).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
calls=${2:-20}
SIZES=${SIZES:-2 1000 100000 1000000}
if [ -z "${AWKS:-}" ]; then
  AWKS=
  for a in mawk gawk original-awk busybox; do
    command -v "$a" > /dev/null && AWKS="$AWKS $a"
  done
fi
command -v python3 > /dev/null || { echo "bench: python3 is required (the reference)" >&2; exit 1; }
tmp=$(mktemp -d)
gen=$(mktemp -d bench/.unicode.XXXXXX) # inside the module, so that go run can import pyre
trap 'rm -rf "$tmp" "$gen"' EXIT
for a in $AWKS; do
  mkdir -p "$tmp/awk-$a"
  ln -s "$(command -v "$a")" "$tmp/awk-$a/awk" # busybox runs the applet its link is named
done

# The rules: name, pattern, and the same pattern with \w (W), \W (NW), \d (D)
# and \b written with sets; (?-i:...) keeps IGNORECASE from adding the case
# partners of the sets' members (U+0345 via U+03B9), as Python's \w does not.
# \b before a word character at the start is (?:^|NW), after one at the end
# (?:NW|\Z): that is what pyre emits for an edge \b, on whole characters.
# The last rule is bench/run.sh's rule.
python3 - "$tmp" > "$tmp/rules.tsv" << 'PY'
import re, sys
def body(pred):
    out, lo = [], None
    for c in range(0x110001):
        ok = c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF and pred(chr(c))
        if ok and lo is None:
            lo = c
        if not ok and lo is not None:
            out.append((lo, c - 1))
            lo = None
    esc = lambda c: "\\U%08x" % c
    return "".join(esc(l) if l == h else esc(l) + "-" + esc(h) for l, h in out)
w, d = re.compile(r"\w"), re.compile(r"\d")
W = "(?-i:[%s])" % body(lambda c: w.match(c))
NW = "(?-i:[^%s])" % body(lambda c: w.match(c))
D = "(?-i:[%s])" % body(lambda c: d.match(c))
rules = [
    ("word", r"\bfoo\w+", "(?:^|%s)foo%s+" % (NW, W)),
    ("digits", r"\d\d\d-\d\d\d\d", "%s%s%s-%s%s%s%s" % (D, D, D, D, D, D, D)),
    ("rm -rf", r"rm\s+-rf\b", r"rm\s+-rf(?:%s|\Z)" % NW),
    ("email", r"\w+@\w+\.\w+", r"%s+@%s+\.%s+" % (W, W, W)),
    ("run.sh", r"(^|\s)tool1\s+--(force|danger)\b", r"(^|\s)tool1\s+--(force|danger)(?:%s|\Z)" % NW),
]
for r in rules:
    print("\t".join(r))
PY

# The translator: pyre.ERE, pyre.AWK and codegen/bash.AwkString, as the
# generated hooks use them. Until pyre.AWK expands intervals (mawk 1.3.4
# reads them as text), fixed counts of one byte or bracket, the only ones
# pyre emits for UTF-8 sequences, are written out here.
cat > "$gen/main.go" << 'GO'
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/pyre"
)

var count = regexp.MustCompile(`(\[[^\]]*\]|\\.|[^\\\[\](){}|*+?])\{([0-9]+)\}`)

func awkForm(p string) string {
	ere, err := pyre.ERE(p, pyre.IgnoreCase)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	form, err := pyre.AWK(ere)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	re := form.Text
	if form.Intervals {
		re = count.ReplaceAllStringFunc(re, func(m string) string {
			s := count.FindStringSubmatch(m)
			var n int
			fmt.Sscan(s[2], &n)
			return strings.Repeat(s[1], n)
		})
	}
	return re
}

func main() {
	dir := os.Args[1]
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<24)
	for i := 0; in.Scan(); i++ {
		f := strings.Split(in.Text(), "\t")
		a, u := awkForm(f[1]), awkForm(f[2])
		qa, qu := bash.AwkString(a), bash.AwkString(u)
		head := "BEGIN { RS = \"\\001\"; HI = \"[\\200-\\377]\"; "
		progs := map[string]string{
			"base":   head + "}\n{ v = $0 }\nEND { print (length(v) > 0) }\n",
			"ascii":  head + "A = " + qa + " }\n{ v = $0 }\nEND { print (v ~ A) }\n",
			"design": head + "A = " + qa + "; U = " + qu + " }\n{ v = $0 }\nEND { if (v ~ HI) print (v ~ U); else print (v ~ A) }\n",
		}
		for m, p := range progs {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.%s.awk", i, m)), []byte(p), 0o644); err != nil {
				panic(err)
			}
		}
		fmt.Printf("%s\t%s\t%d\t%d\t%d\t%d\n", f[0], f[1], len(a), len(u), len(qa), len(qu))
	}
}
GO
go run "./$gen/main.go" "$tmp" < "$tmp/rules.tsv" > "$tmp/sizes.tsv"
nrules=$(wc -l < "$tmp/rules.tsv")

# Subjects: ASCII and non-ASCII text with near misses of every rule, and the
# short ones where today's ASCII form answers differently from Python.
python3 - "$tmp" $SIZES << 'PY'
import sys
tmp, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
miss = "cd /srv && ls -la x; user@host said: xfoo1 foo. rm -rfv tmp; tool1 --forced 12-345 ok\n"
prose = "le café déjà vu — 日本語のテキスト; Ελληνικά и русский текст 😀: "
def make(unit, n):
    b = (unit * (n // len(unit.encode()) + 2)).encode()[:n]
    return b.decode("utf-8", "ignore").encode()
for n in sizes:
    if n >= 100:
        open("%s/s.ascii.%d" % (tmp, n), "wb").write(make(miss, n))
    open("%s/s.utf8.%d" % (tmp, n), "wb").write(make(prose + miss, n) if n >= 100 else "é".encode())
for i, s in enumerate(["éfooa", "fooé", "rm -rfé", "١٢٣-٤٥٦٧", "tool1 --forceé", "josé@exämple.com", "x ⅷ@ⅸ.ⅹ", "rm -rf\u0345"]):
    open("%s/c.%d" % (tmp, i), "wb").write(s.encode())
PY

# The reference: python3's re.search with re.IGNORECASE, as hookify's upstream.
python3 - "$tmp" << 'PY' > "$tmp/want.tsv"
import glob, os, re, sys
tmp = sys.argv[1]
pats = [l.rstrip("\n").split("\t")[1] for l in open(tmp + "/rules.tsv", encoding="utf-8")]
for f in sorted(glob.glob(tmp + "/s.*") + glob.glob(tmp + "/c.*")):
    v = open(f, encoding="utf-8").read()
    for i, p in enumerate(pats):
        print("%s\t%d\t%d" % (os.path.basename(f), i, 1 if re.search(p, v, re.I) else 0))
PY

wrong=0 asciiwrong=0
set -- $AWKS
first=$1
while IFS=$'\t' read -r f i want; do
  for a in $AWKS; do
    got=$(LC_ALL=C timeout 120 "$tmp/awk-$a/awk" -f "$tmp/r$i.design.awk" < "$tmp/$f" 2>&1) || true
    if [ "$got" != "$want" ]; then
      echo "bench: $a, rule $i, $f: the design answered '$got', python3 $want" >&2
      wrong=$((wrong + 1))
    fi
  done
  got=$(LC_ALL=C "$tmp/awk-$first/awk" -f "$tmp/r$i.ascii.awk" < "$tmp/$f" 2>&1) || true
  [ "$got" = "$want" ] || asciiwrong=$((asciiwrong + 1))
done < "$tmp/want.tsv"
[ "$wrong" = 0 ] || { echo "bench: $wrong wrong answers" >&2; exit 1; }
echo "exact Unicode \\w \\d \\b in awk: today's ASCII form differs from python3 on $asciiwrong of $(wc -l < "$tmp/want.tsv") (rule, subject) pairs, the design on none, with each of: ${AWKS# }"
echo "python3 $(python3 -c 'import sys, unicodedata; print("%d.%d" % sys.version_info[:2], "Unicode", unicodedata.unidata_version)')"
echo
echo "| rule                                | ERE bytes A | ERE bytes U | awk literal A | awk literal U |"
echo "|-------------------------------------|-------------|-------------|---------------|---------------|"
while IFS=$'\t' read -r name p la lu qa qu; do
  printf '| %-35s | %11d | %11d | %13d | %13d |\n' "$p" "$la" "$lu" "$qa" "$qu"
done < "$tmp/sizes.tsv"

printf '#!/usr/bin/env bash\ncat >/dev/null\nprintf "{}\\n"\n' > "$tmp/floor.sh"
chmod +x "$tmp/floor.sh"

# cpu_us N INPUT CMD...: mean CPU time (user + system) of one call over N
# calls, in µs. CPU time, not wall time: the cost of a regex is CPU work, and
# CPU time is far less disturbed than wall time on a shared machine.
cpu_us() {
  local n=$1 in=$2 i t0 t1
  shift 2
  times > "$tmp/times" # a builtin with a redirection runs in this shell
  t0=$(children_us < "$tmp/times")
  for ((i = 0; i < n; i++)); do "$@" < "$in" > /dev/null 2>&1 || true; done
  times > "$tmp/times"
  t1=$(children_us < "$tmp/times")
  echo $(((t1 - t0) / n))
}
# children_us: the children's user + system time from the output of times.
children_us() { awk 'NR == 2 { n = split($0, t, /[ms ]+/); print int((t[1] * 60 + t[2] + t[3] * 60 + t[4]) * 1e6) }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
size() {
  if (($1 >= 1000000)); then echo "$(($1 / 1000000)) MB"
  elif (($1 >= 1000)); then echo "$(($1 / 1000)) KB"
  else echo "$1 B"; fi
}

echo
echo "CPU time per call: the bash floor and base; ascii and design as the cost over base, in ms and"
echo "as a fraction of the bash floor; median of $rounds rounds"
echo
echo "| rule                                | subject       | awk          | floor ms | base ms | ascii ms | design ms | ascii x floor | design x floor |"
echo "|-------------------------------------|---------------|--------------|----------|---------|----------|-----------|---------------|----------------|"
for ((i = 0; i < nrules; i++)); do
  p=$(sed -n "$((i + 1))p" "$tmp/rules.tsv" | cut -f2)
  for kind in ascii utf8; do
    for n in $SIZES; do
      in=$tmp/s.$kind.$n
      [ -f "$in" ] || continue
      c=$calls
      ((n < 100000)) || c=$(((calls + 3) / 4))
      ((n < 1000000)) || c=$(((calls + 9) / 10))
      for a in $AWKS; do
        fl=() bs=() as=() ds=()
        for ((r = 0; r < rounds; r++)); do
          fl+=("$(cpu_us "$c" "$in" "$tmp/floor.sh")")
          bs+=("$(LC_ALL=C cpu_us "$c" "$in" "$tmp/awk-$a/awk" -f "$tmp/r$i.base.awk")")
          as+=("$(LC_ALL=C cpu_us "$c" "$in" "$tmp/awk-$a/awk" -f "$tmp/r$i.ascii.awk")")
          ds+=("$(LC_ALL=C cpu_us "$c" "$in" "$tmp/awk-$a/awk" -f "$tmp/r$i.design.awk")")
        done
        f=$(printf '%s\n' "${fl[@]}" | median)
        b=$(printf '%s\n' "${bs[@]}" | median)
        x=$(printf '%s\n' "${as[@]}" | median)
        y=$(printf '%s\n' "${ds[@]}" | median)
        P=$p awk -v s="$kind $(size "$n")" -v a="$a" -v f="$f" -v b="$b" -v x="$x" -v y="$y" 'BEGIN {
          printf "| %-35s | %-13s | %-12s | %8.2f | %7.2f | %8.2f | %9.2f | %12.2fx | %13.2fx |\n", ENVIRON["P"], s, a, f / 1000, b / 1000, (x - b) / 1000, (y - b) / 1000, (x - b) / f, (y - b) / f }'
      done
    done
  done
done
