# words.awk: the rewrite of a value for the regexes that read Python's
# Unicode \w \d \b (pyre.Rewrite; docs/awk-engines.md §15). hk_uw(v, K, N, s)
# returns v with each non-ASCII letter written as byte 0xF8 and each
# non-ASCII digit (Nd) as 0xF9, except the letters and digits the regex
# names, listed in s (pyre's words: "unicode lo-hi/b ..."), which become
# byte b, or get a 0xFA after them where b is 0. K and N are the rewrite's
# own arrays: K holds the rewritten form of each character met (a character
# costs the search of its kind once), N the named ranges, read from s the
# first time. An ASCII value is returned as it is. Text that is not valid
# UTF-8 stays byte for byte, as in pyre.Rewrite. The kinds of the code
# points come from hk_wtab() (pyre.WordTable: blocks of 4096 code points,
# each the kinds of its runs, 0 other, 1 letter, 2 digit, and the offsets
# where the runs after the first start), split into hk_ub the first time;
# the block of the character at hand is split into hk_uo (hk_ux: which
# block, hk_uz: how many runs), and a binary search finds its run.
# v is read in windows of about 4 KB that end between two characters (BWK
# and busybox awk measure the whole string at every substr); in a window,
# split finds the runs of non-ASCII bytes, and only their characters are
# looked at, and a short run met before is one lookup. The result is
# gathered in pieces of 64 KB (a join copies what it joins to). K keeps the
# last value and its rewrite too ("v", "o"): the rules of a hook that read
# one field with the same words rewrite it once.
function hk_uinit(K, N, s,   n, i, a, x, c) {
  K[0] = 0
  n = split(s, a, " "); N[0] = n - 1
  for (i = 2; i <= n; i++) {
    split(a[i], x, "[-/]")
    N[i - 1, "l"] = x[1] + 0; N[i - 1, "h"] = x[2] + 0; N[i - 1, "b"] = x[3] + 0
  }
  if (hk_un) return
  for (i = 1; i < 256; i++) { c = sprintf("%c", i); hk_ord[c] = i; hk_chr[i] = c }
  hk_un = split(hk_wtab(), hk_ub, ";"); hk_ux = -1
}
# hk_uch returns the rewritten form of the character of l bytes ch, whose
# first byte is b.
function hk_uch(ch, b, l, N,   cp, i, x, lo, hi, m, k) {
  cp = b - (l == 2 ? 192 : l == 3 ? 224 : 240)
  for (i = 2; i <= l; i++) {
    x = hk_ord[substr(ch, i, 1)]
    if (x < 128 || x > 191) return ""
    cp = cp * 64 + x - 128
  }
  if (l == 2 && cp < 128 || l == 3 && (cp < 2048 || cp >= 55296 && cp < 57344) || l == 4 && (cp < 65536 || cp > 1114111)) return ""
  x = int(cp / 4096)
  if (x != hk_ux) { hk_uz = split(hk_ub[x + 1], hk_uo, " "); hk_ux = x }
  x = cp - x * 4096
  lo = 1; hi = hk_uz
  while (lo < hi) { m = int((lo + hi + 1) / 2); if (hk_uo[m] + 0 <= x) lo = m; else hi = m - 1 }
  k = substr(hk_uo[1], lo, 1) + 0
  if (!k) return ch
  for (i = 1; i <= N[0]; i++)
    if (N[i, "l"] <= cp && cp <= N[i, "h"]) return N[i, "b"] ? hk_chr[N[i, "b"]] : ch "\372"
  return k == 2 ? "\371" : "\370"
}
# hk_urun rewrites r, a run of non-ASCII bytes: a gsub and a split cut it
# into characters (a first byte and the continuation bytes after it; bytes
# before the first one stay), and each character's form is kept in K. A
# short run, a word, is kept whole in K too, under "r" and its bytes.
function hk_urun(r, K, N,   o, n, i, c, C) {
  n = length(r)
  if (n <= 64 && (("r" r) in K)) return K["r" r]
  c = r
  gsub(/[\300-\367][\200-\277]*/, "\001&", c)
  n = split(c, C, "\001")
  o = C[1]
  for (i = 2; i <= n; i++) {
    c = C[i]
    if (!(c in K)) K[c] = hk_uone(c, N)
    o = o K[c]
  }
  if (length(r) <= 64) K["r" r] = o
  return o
}
# hk_uone rewrites c, a first byte and the continuation bytes after it:
# the character they start, if it is valid UTF-8, and the bytes after it,
# which stay (as do all of c's when it is not).
function hk_uone(c, N,   b, l, t) {
  b = hk_ord[substr(c, 1, 1)]
  l = b >= 240 ? 4 : b >= 224 ? 3 : 2
  if (b >= 245 || length(c) < l) return c
  t = hk_uch(substr(c, 1, l), b, l, N)
  return t == "" ? c : t substr(c, l + 1)
}
function hk_uw(v, K, N, s,   o, n, p, w, m, c, na, A, B, i, j, q) {
  if (v !~ /[\200-\377]/) return v
  if (!(0 in K)) hk_uinit(K, N, s)
  if (("v" in K) && K["v"] == v) return K["o"]
  o = q = ""; n = length(v)
  for (p = 1; p <= n; p += m) {
    w = substr(v, p, 4099); m = length(w)
    if (m > 4096) {
      m = 4096
      while (m > 4093 && (c = hk_ord[substr(w, m + 1, 1)]) >= 128 && c < 192) m--
      w = substr(w, 1, m)
    }
    if (w !~ /[\200-\377]/) c = w
    else {
      na = split(w, A, /[\200-\377]+/)
      split(w, B, /[\001-\177]+/)
      j = B[1] == "" ? 2 : 1
      c = A[1]
      for (i = 2; i <= na; i++) c = c hk_urun(B[j++], K, N) A[i]
    }
    # q gathers 64 KB before it joins o: each join copies o
    q = q c
    if (length(q) >= 65536) { o = o q; q = "" }
  }
  K["v"] = v; K["o"] = o q
  return K["o"]
}
