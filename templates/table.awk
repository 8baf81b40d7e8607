# table.awk: the table matcher of the Unix hooks (docs/awk-engines.md §14).
# hk_dfa(v, T, C, E, classes, next, ends) tells whether a regex's automaton
# (pyre.Table, written by its AWKData) matches v. T, C and E are arrays of
# the table's own, loaded from the three strings the first time: C maps a
# byte to its class, T the transitions, E the states that accept at the end
# of the value. v is read in windows of 4 KB (BWK and busybox awk measure the
# whole string at every substr) and a byte at a time with substr, the
# fastest form measured. A state is the index of its first entry in T, so
# a byte costs one lookup in C and one in T; 0 is a match and -1 no match
# whatever follows, so the loop stops at the first state that decides. A
# byte that is not in C reads as class 0. hk_drle expands a string of
# numbers (a run of n equal numbers written n*x) into A[1], A[2], ...
# hk_chr holds the byte of each code 1-255 (under LC_ALL=C).
function hk_drle(s, A,   n, i, m, p, r, x, a) {
  n = split(s, a, " "); m = 0
  for (i = 1; i <= n; i++) {
    x = a[i]; r = 1
    if (p = index(x, "*")) { r = substr(x, 1, p - 1) + 0; x = substr(x, p + 1) }
    x += 0
    while (r-- > 0) A[++m] = x
  }
}
function hk_dfa(v, T, C, E, c, t, e,   s, n, p, w, i, m, a) {
  if (!(0 in T)) {
    T[0] = 0
    if (!(1 in hk_chr)) for (i = 1; i < 256; i++) hk_chr[i] = sprintf("%c", i)
    hk_drle(c, a)
    for (i = 1; i < 256; i++) if (a[i]) C[hk_chr[i]] = a[i]
    hk_drle(t, T)
    n = split(e, a, " ")
    for (i = 1; i <= n; i++) E[a[i]] = 1
  }
  s = T[1]
  n = length(v)
  for (p = 1; p <= n && s > 0; p += 4096) {
    w = substr(v, p, 4096); m = length(w)
    for (i = 1; i <= m && s > 0; i++) s = T[s + C[substr(w, i, 1)]]
  }
  return s == 0 || (s > 0 && (s in E))
}
