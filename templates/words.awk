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
# points come from hk_wtab() (pyre.WordTable: runs of one kind from U+0080
# on, each 3*length+kind), loaded the first time into hk_us (the start of
# each run) and hk_uk (its kind: 0 other, 1 letter, 2 digit).
# v is read in windows of about 4 KB that end between two characters (BWK
# and busybox awk measure the whole string at every substr); in a window,
# split finds the runs of non-ASCII bytes, and only their characters are
# looked at.
function hk_uinit(K, N, s,   n, i, a, x, c, k) {
  K[0] = 0
  n = split(s, a, " "); N[0] = n - 1
  for (i = 2; i <= n; i++) {
    split(a[i], x, "[-/]")
    N[i - 1, "l"] = x[1] + 0; N[i - 1, "h"] = x[2] + 0; N[i - 1, "b"] = x[3] + 0
  }
  if (hk_un) return
  for (i = 1; i < 256; i++) { c = sprintf("%c", i); hk_ord[c] = i; hk_chr[i] = c }
  n = split(hk_wtab(), a, " "); c = 128
  for (i = 1; i <= n; i++) { k = a[i] % 3; hk_us[i] = c; hk_uk[i] = k; c += (a[i] - k) / 3 }
  hk_un = n
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
  lo = 1; hi = hk_un
  while (lo < hi) { m = int((lo + hi + 1) / 2); if (hk_us[m] <= cp) lo = m; else hi = m - 1 }
  k = hk_uk[lo]
  if (!k) return ch
  for (i = 1; i <= N[0]; i++)
    if (N[i, "l"] <= cp && cp <= N[i, "h"]) return N[i, "b"] ? hk_chr[N[i, "b"]] : ch "\372"
  return k == 2 ? "\371" : "\370"
}
# hk_urun rewrites r, a run of non-ASCII bytes. A character that is not
# valid UTF-8 (hk_uch gives "") stays, its first byte alone.
function hk_urun(r, K, N,   o, n, i, l, b, ch) {
  n = length(r); o = ""
  for (i = 1; i <= n; i += l) {
    b = hk_ord[substr(r, i, 1)]
    l = b >= 240 ? 4 : b >= 224 ? 3 : b >= 192 ? 2 : 1
    ch = substr(r, i, l)
    if (!(ch in K)) K[ch] = l > 1 && b < 245 ? hk_uch(ch, b, l, N) : ""
    if (K[ch] == "") { l = 1; o = o substr(r, i, 1) } else o = o K[ch]
  }
  return o
}
function hk_uw(v, K, N, s,   o, n, p, w, m, c, na, A, B, i, j) {
  if (v !~ /[\200-\377]/) return v
  if (!(0 in K)) hk_uinit(K, N, s)
  o = ""; n = length(v)
  for (p = 1; p <= n; p += m) {
    w = substr(v, p, 4099); m = length(w)
    if (m > 4096) {
      m = 4096
      while (m > 4093 && (c = hk_ord[substr(w, m + 1, 1)]) >= 128 && c < 192) m--
      w = substr(w, 1, m)
    }
    if (w !~ /[\200-\377]/) { o = o w; continue }
    na = split(w, A, /[\200-\377]+/)
    split(w, B, /[\001-\177]+/)
    j = B[1] == "" ? 2 : 1
    c = A[1]
    for (i = 2; i <= na; i++) c = c hk_urun(B[j++], K, N) A[i]
    o = o c
  }
  return o
}
