# decode.awk: read one Cursor hook payload (JSON) and hand the wanted values
# to the hook code of the same awk program.
#
# A generated hook is one awk program (templates/hook.sh.tmpl): its own BEGIN
# block, which sets W (and A, when patches are read), then this text, then
# its function hook(). Runs unchanged under mawk 1.3.4, gawk 5, BWK awk (as
# on macOS) and busybox awk, with LC_ALL=C in the environment, so that every
# byte is a character and length() counts bytes.
#
# W: wanted keys, separated by blanks. Each is NAME (a top-level key) or
# tool_input.NAME (a member of the top-level tool_input object), where NAME
# matches [A-Za-z_][A-Za-z0-9_]*, or tool_input.edits[].new_string or
# tool_input.edits[].old_string: when the last tool_input.edits is an
# array (as MultiEdit sends it), those members of its items joined by a
# space, an item without a string, number or boolean there adding "". Any
# other form makes the run invalid.
# The value of the i-th wanted key (1-based) is V[i], or V[i+O] when O is
# set (a number); a key without a value has no element in V.
#
# A: when set to 1, patches are read too (README, "Payload fields"): a
# free-form patch (the first line, after what may stand before the JSON,
# starts "*** Begin Patch": then the input is the patch and every key is
# unset), else the texts of a string tool_input (unless it starts with "{"
# after white space), tool_input.patch and tool_input.diff. Each file of
# each patch is a view j (1-based, in order); for each wanted tool_input
# key of the table in dinit, X[j, i] is its value in that file: file_path
# its path, path the path of its "*** Move to:" line (unset without one),
# content, contents and new_string its added lines, old_string its removed
# lines, each line with a newline. NV is the number of views. A patch text
# that cannot be read (see pt) makes the input invalid.
#
# I: when set to 1, the input is the decoded text of a string tool_input
# (docs/mcp.md): nothing may come before the "{" but JSON whitespace.
# dstr(s, w, o) decodes such a text s in the same program after the payload,
# with I=1, W=w and O=o: its keys get values in V; when s is not one JSON
# object there are none and OK becomes 0 (the hook cannot decide), else OK
# stays as it was.
#
# Input: the bytes before the first "{" may only be white space (space, tab,
# CR, LF) and, unless I=1, bytes of byte order marks (EF BB BF FE FF) and
# the text n++ (a framing that Cursor 3.8.11 and later put there on
# Windows); any other byte there makes the input invalid. From the "{" on the input must be exactly
# one RFC 8259 object followed only by JSON whitespace. Also invalid: no "{"
# at all, raw bytes 00-1F inside strings. The escape \u0000 gives the byte
# 01, wherever it stands: BWK and busybox awk cannot hold a NUL, so a NUL is
# read as 01 everywhere, as transcripts are (README, "Payload fields").
#
# Output: after the input, END calls dfin, which sets OK to 1 when the
# input was valid (else 0, and V holds none of the keys), then hook().
# A string is decoded (all JSON escapes; a pair of surrogates gives 4-byte
# UTF-8, a lone one gives EF BF BD; other bytes are copied as is); a number,
# true or false gives its text; null, an object or an array leave the key
# unset. Keys are compared after decoding their escapes ("comm\u0061nd" is
# command). The last occurrence of a key wins, and a top-level tool_input key
# resets every tool_input.* key. A name listed twice in W gives the same value
# to both. Only depth 1, and depth 2 inside tool_input, are looked at; keys
# inside strings or deeper containers are never fields. Payload bytes are
# only ever data: they are matched and printed, never run.
#
# Known gaps: raw NUL bytes: mawk and
# gawk reject them; BWK awk drops the rest of the line and busybox awk
# treats NUL as a line end, so a document they accept may differ there.
# busybox awk runs gsub, split and match in time proportional to matches
# times the length of the string (glibc regexec measures the rest of the
# string at each call), so lines, strings and structure over 8 KB are
# worked on in pieces of about 4 KB (esc, dec, st); a token (a number)
# over 4 KB long is cut there and makes the input invalid. Split only ever
# splits at a one-byte string, which busybox awk does in linear time.
#
# How it works: valid strings never hold a raw newline, so lines are read one
# at a time. On each line the escapes \\ and \" first become the bytes 01 and
# 02 (raw control bytes are rejected before that, so these are unambiguous),
# one regex rejects every malformed escape, and the line is split at double
# quotes: odd fragments are structure, even ones are whole strings. Structure
# is split into tokens for a state machine: S 0 before the object, 1 after {,
# 2 after a comma in an object, 3 before a colon, 4 before a value, 5 after
# [, 6 after a value, 7 after the object. Wanted values are decoded with gsub
# into pieces kept in the array P, never built up by concatenation; the
# latest value of key k is P[VA[k]] to P[VB[k]], or none when VS[k] is 0, and
# dfin joins them once. Output uses print with an empty ORS: BWK awk
# allocates a buffer as large as the input line for every printf and sprintf.
BEGIN { dinit() }
{ dline($0) }
END { dfin(); hook() }
# dinit: a fresh decoder for the keys W.
function dinit(   i, k, w) {
	S = d = E = FF = FN = np = NV = JS = JN = JA = JW = T = T0 = J0 = 0; G = JG = ""
	delete C; delete VS; delete VA; delete VB; delete PR; delete TK; delete K; delete P
	delete PK; delete XA; delete XB; delete JB; delete JE; delete FT; delete NA; delete NR_; delete LA; delete LR
	ORS = ""; Z = sprintf("%c", 0); ZN = length(Z) == 1
	PX = I ? "^[\t\r ]*$" : "^([\t\r " sprintf("%c%c%c%c%c", 239, 187, 191, 254, 255) "]|n[+][+])*$"
	for (i = 0; i < 16; i++) { c = substr("0123456789abcdef", i + 1, 1); H[c] = H[toupper(c)] = i }
	N = split(W, w, " ")
	for (i = 1; i <= N; i++) {
		k = w[i]
		if (k !~ /^(tool_input[.])?[A-Za-z_][A-Za-z0-9_]*$/ && k !~ /^tool_input[.]edits\[\][.](new|old)_string$/) {
			# in a string tool_input (I=1) no edits are joined: always unset
			if (I && k ~ /^edits\[\][.](new|old)_string$/) { K[i] = k; continue }
			E = 1
		}
		if (k ~ /\[/) JW = 1
		if (k ~ /[.]/) { k = "\"" substr(k, 12); TK[k] = 1 }
		K[i] = k; PR[k] = 1
	}
	if (A) {
		PR["tool_input"] = PR["\"patch"] = PR["\"diff"] = TK["\"patch"] = TK["\"diff"] = 1
		split("file_path f path m content a contents a new_string a old_string r", w, " ")
		for (i = 1; i < 12; i += 2) PK["\"" w[i]] = w[i + 1]
		FX = substr(PX, 1, length(PX) - 1) "[*][*][*] Begin Patch"
		# PS: the White_Space of Unicode in UTF-8, which str::trim of Rust drops
		PS = "([\t\n\013\014\r ]|\302[\205\240]|\341\232\200|\342\200[\200-\212\250\251\257]|\342\201\237|\343\200\200)+"
	}
}
# dline: one line of the input.
function dline(L,   k, n, i, f, F, T9) {
	if (E) return
	if (FF) { FT[++FN] = L; return }
	if (!S) {
		if (A && L ~ FX) { FF = 1; match(L, /[*][*][*] Begin Patch/); FT[FN = 1] = substr(L, RSTART); return }
		k = index(L, "{")
		if (substr(L, 1, k ? k - 1 : length(L)) !~ PX) { E = 1; return }
		if (!k) return
		L = substr(L, k + 1); d = 1; C[1] = "{"; S = 1
	}
	T9 = 0
	if (L ~ /[\001-\037]/) { if (L ~ /[\001-\010\013\014\016-\037]/) { E = 1; return }; T9 = 1 }
	if (ZN && index(L, Z)) { E = 1; return }
	if (index(L, "\\")) { L = esc(L); if (E) return }
	n = split(L, F, "\"")
	if (n % 2 == 0 && n) { E = 1; return }
	for (i = 1; i <= n; i++) {
		f = F[i]
		if (i % 2) { if (f != "") { st(f); if (E) return } }
		else if (T9 && f ~ /[\t\r]/) { E = 1; return }
		else if (S == 1 || S == 2) {
			S = 3; G = ""
			if (f ~ /[\\\001\002]/) f = kd(f)
			if (d == 1) { T0 = f == "tool_input"; if (T0) { for (k in TK) VS[k] = 0; JS = 0 }; if (f in PR) G = f }
			else if (d == 2 && T) { if (("\"" f) in PR && f !~ /[[]/) G = "\"" f; if (JW && f == "edits") { J0 = 1; JS = JN = 0 } }
			else if (d == 4 && JA && (f == "new_string" || f == "old_string")) JG = f
		} else if (S == 4 || S == 5) {
			if (JA && d == 3) ji()
			if (G != "") { VS[G] = 1; VA[G] = np + 1; dec(f); VB[G] = np }
			if (JG != "") { JB[JN, JG] = np + 1; dec(f); JE[JN, JG] = np }
			G = JG = ""; T0 = J0 = 0; S = 6
		} else { E = 1; return }
	}
}
# dfin: after the last line, V and X from the pieces, and OK.
function dfin(   i, j, k, m, v, x) {
	OK = 0
	for (i = 1; i <= N; i++) delete V[i + O]
	if (E || !FF && S != 7) return
	if (FF) { for (k in VS) VS[k] = 0; pt(FT, FN) }
	else if (A) {
		if (VS["tool_input"] && (x = jn(VA["tool_input"], VB["tool_input"])) !~ /^[ \t\r\n]*[{]/) pts(x)
		if (VS["\"patch"]) pts(jn(VA["\"patch"], VB["\"patch"]))
		if (VS["\"diff"]) pts(jn(VA["\"diff"], VB["\"diff"]))
	}
	if (E) { NV = 0; return }
	if (JS) for (i = 1; i <= N; i++) if (K[i] ~ /\[/ && !VS[K[i]]) {
		# tool_input.edits[].M: the members M of the edits, joined by a space
		m = substr(K[i], 10); VS[K[i]] = 1; VA[K[i]] = np + 1
		for (j = 1; j <= JN; j++) {
			if (j > 1) P[++np] = " "
			if ((j, m) in JB) for (k = JB[j, m]; k <= JE[j, m]; k++) P[++np] = P[k]
		}
		VB[K[i]] = np
	}
	for (i = 1; i <= N; i++) if (VS[K[i]]) V[i + O] = jn(VA[K[i]], VB[K[i]])
	if (A) for (v = 1; v <= NV; v++) for (i = 1; i <= N; i++) if ((k = PK[K[i]]) != "" && (v, k) in XA) X[v, i + O] = jn(XA[v, k], XB[v, k])
	OK = 1
}
# dstr: decode the text s of a string tool_input (I=1) into V[o+1] on, for
# the names w; OK becomes 0 when s is not one JSON object.
function dstr(s, w, o,   ok, n, t, i) {
	ok = OK; W = w; O = o; I = 1; A = 0
	dinit(); n = split(s, t, "\n")
	for (i = 1; i <= n; i++) dline(t[i])
	dfin(); OK = ok && OK
}
# jn: the pieces a to b as one string, joined by halves (not quadratic).
function jn(a, b,   m) {
	if (a > b) return ""
	if (a == b) return P[a]
	m = int((a + b) / 2)
	return jn(a, m) jn(m + 1, b)
}
# pts: read the patch text x.
function pts(x,   n, t) {
	n = split(x, t, "\n")
	pt(t, n)
}
# pt: the files of the patch in lines t[1] to t[n] (README, "Payload
# fields"), each a view NV: XA[NV, part] to XB[NV, part] are the pieces of
# its path (f), the path it moves to (m), its added lines (a) and its
# removed ones (r), each line with a newline. A patch it cannot read makes
# the input invalid. h is a line as the apply_patch of codex reads a header
# there (parser.rs, parse_one_hunk): trimmed of Unicode white space (PS at
# either end) where a file section may start (after Begin Patch or a
# Delete File line, at a line of an Add File that does not start with +);
# in an Update File only a line that starts with * (then trimmed at the
# end), else "": an indented line there is context in a hunk.
function pt(t, n,   i, l, m, h, z, v0, v, j) {
	v0 = NV + 1
	for (i = 1; i <= n; i++) {
		l = t[i]; m = l; sub(/\r$/, "", m); h = ""
		if (z == 3) { if (m ~ /^[*]/) { h = m; sub(PS "$", "", h) } }
		else if (z != 2 || l !~ /^[+]/) { h = m; sub("^" PS, "", h); sub(PS "$", "", h) }
		if (!z) { if (h == "" && i < n) continue; if (h != "*** Begin Patch") { E = 1; return }; z = 1; continue }
		if (z == 4) { if (h != "") E = 1; continue }
		if (h == "*** End Patch") z = 4
		else if (h ~ /^[*][*][*] (Add|Update|Delete) File: /) {
			z = h ~ /^[*][*][*] A/ ? 2 : h ~ /^[*][*][*] U/ ? 3 : 1
			sub(/^[*][*][*] [A-Za-z]+ File: /, "", h); if (h == "") { E = 1; return }
			P[++np] = h; NV++; XA[NV, "f"] = XB[NV, "f"] = np; NA[NV] = NR_[NV] = 0
		} else if (h ~ /^[*][*][*] Move to: /) {
			sub(/^[*][*][*] Move to: /, "", h); if (z != 3 || h == "" || (NV, "m") in XA) { E = 1; return }
			P[++np] = h; XA[NV, "m"] = XB[NV, "m"] = np
		} else if (h == "*** End of File") continue
		else if (h ~ /^[*][*][*]/ || z == 1 && h != "") { E = 1; return }
		else if (z > 1 && l ~ /^[+]/) LA[NV, ++NA[NV]] = substr(l, 2) "\n"
		else if (z == 3 && l ~ /^-/) LR[NV, ++NR_[NV]] = substr(l, 2) "\n"
	}
	if (!z) { E = 1; return }
	for (v = v0; v <= NV; v++) {
		XA[v, "a"] = np + 1; for (j = 1; j <= NA[v]; j++) P[++np] = LA[v, j]; XB[v, "a"] = np
		XA[v, "r"] = np + 1; for (j = 1; j <= NR_[v]; j++) P[++np] = LR[v, j]; XB[v, "r"] = np
	}
}
# esc: the line L with its escapes \\ and \" as the bytes 01 and 02; E is
# set when an escape is malformed. A long line goes in pieces of about 4 KB
# (joined by halves, as jn joins), each ending between two escapes: busybox
# awk runs gsub, split and each regex match in time proportional to the
# length of the rest of the string at every match, which over a whole
# line of escapes is quadratic (seconds at 1 MB). dec and st cut long
# texts the same way. Each piece comes from a window of 64 KB (w, from wa
# on): BWK and busybox awk measure the whole string at every substr.
function esc(L,   n, a, b, s, k, Q, w, wa) {
	n = length(L); wa = -65536
	for (a = 1; a <= n; a += b) {
		if (a + 4096 > wa + 65536) { w = substr(L, a, 65536); wa = a }
		s = substr(w, a - wa + 1, n > 8192 ? 4096 : n); b = length(s)
		if (index(s, "\\\\")) gsub(/\\\\/, "\001", s)
		if (index(s, "\\\"")) gsub(/\\"/, "\002", s)
		# the rest of a piece that ends inside an escape (every backslash
		# left starts one) goes with the next
		if (a + b <= n && match(substr(s, length(s) - 7), /\\(u[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?$/)) { s = substr(s, 1, length(s) - RLENGTH); b -= RLENGTH }
		if (s ~ /\\[^\/bfnrtu]|\\$/ || index(s, "\\u") && s ~ /\\u([^0-9A-Fa-f]|.[^0-9A-Fa-f]|..[^0-9A-Fa-f]|...[^0-9A-Fa-f]|.?.?.?$)/) { E = 1; return "" }
		Q[++k] = s
	}
	return qj(Q, 1, k)
}
# qj: the texts q[a] to q[b] joined, by halves.
function qj(q, a, b,   m) {
	if (a >= b) return a == b ? q[a] : ""
	m = int((a + b) / 2)
	return qj(q, a, m) qj(q, m + 1, b)
}
# ji: one more item in tool_input.edits, with no members yet.
function ji() { JN++; delete JB[JN, "new_string"]; delete JB[JN, "old_string"] }
# st: the tokens of a structural fragment; a long one in pieces of about
# 4 KB, each ending after a bracket, colon, comma or white space (see esc).
function st(f,   n, a, i, b, s, w, wa) {
	if (f ~ /^[][{}:,]$/) { tk(f); return }
	if ((n = length(f)) > 8192) {
		wa = -65536
		for (a = 1; a <= n && !E; a += b) {
			if (a + 4096 > wa + 65536) { w = substr(f, a, 65536); wa = a }
			s = substr(w, a - wa + 1, 4096); b = length(s)
			if (a + b <= n && match(s, /[][{}:, \t\r][^][{}:, \t\r]*$/) && RSTART > 1) { s = substr(s, 1, RSTART); b = RSTART }
			st1(s)
		}
		return
	}
	st1(f)
}
function st1(f,   n, a, i) {
	gsub(/[][{}:,]/, " & ", f); n = split(f, a, /[ \t\r]+/)
	for (i = 1; i <= n && !E; i++) if (a[i] != "") tk(a[i])
}
function tk(t) {
	if (t == ":") { if (S == 3) S = 4; else E = 1; return }
	if (t == ",") { if (S == 6) S = C[d] == "{" ? 2 : 4; else E = 1; return }
	if (t == "}" || t == "]") {
		if (C[d] == (t == "}" ? "{" : "[") && (S == 6 || S == (t == "}" ? 1 : 5))) S = --d ? 6 : 7
		else E = 1
		if (d < 3) JA = 0
		return
	}
	if (S != 4 && S != 5) { E = 1; return }
	if (JA && d == 3) ji()
	if (JG != "") { JB[JN, JG] = np + 1; JE[JN, JG] = np }
	if (t == "{" || t == "[") {
		if (G != "") VS[G] = 0
		C[++d] = t; if (d == 2) T = T0 && t == "{"
		if (d == 3 && J0 && t == "[") JA = JS = 1
		S = t == "{" ? 1 : 5
	} else if (t == "true" || t == "false" || t ~ /^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?$/) {
		if (G != "") { VS[G] = 1; VA[G] = VB[G] = ++np; P[np] = t }
		if (JG != "") { JB[JN, JG] = JE[JN, JG] = ++np; P[np] = t }
		S = 6
	} else if (t == "null") { if (G != "") VS[G] = 0; S = 6 }
	else { E = 1; return }
	G = JG = ""; T0 = J0 = 0
}
# dec: add the bytes of the string text p (already checked) to P; a long
# one in pieces of about 4 KB (see esc), none ending inside an escape or
# between the halves of a surrogate pair.
function dec(p,   n, a, b, s, w, wa) {
	if ((n = length(p)) <= 8192) { dec1(p); return }
	wa = -65536
	for (a = 1; a <= n; a += b) {
		if (a + 4096 > wa + 65536) { w = substr(p, a, 65536); wa = a }
		s = substr(w, a - wa + 1, 4096); b = length(s)
		if (a + b <= n && match(substr(s, b - 15), /\\(u([Dd][89ABab][0-9A-Fa-f][0-9A-Fa-f](\\(u[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?)?|[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?)?$/)) { s = substr(s, 1, b - RLENGTH); b -= RLENGTH }
		dec1(s)
	}
}
function dec1(p,   n, a, i, h, c, e, k, r) {
	if (index(p, "\\")) {
		if (index(p, "\\n")) gsub(/\\n/, "\n", p)
		if (p ~ /\\[trbf\/]/) {
			if (index(p, "\\t")) gsub(/\\t/, "\t", p)
			if (index(p, "\\r")) gsub(/\\r/, "\r", p)
			if (index(p, "\\/")) gsub(/\\\//, "/", p)
			if (index(p, "\\b")) gsub(/\\b/, "\b", p)
			if (index(p, "\\f")) gsub(/\\f/, "\f", p)
		}
		# up to 8 code points (no surrogate, nor 00-02, which out or a
		# pair would read otherwise) each with one gsub, the rest below:
		# a loop per escape costs BWK and busybox awk seconds at 1 MB
		for (k = 0; k < 8 && index(p, "\\u") && match(p, /\\u([1-9A-CE-Fa-ce-f]|[Dd][0-7]|0[1-9A-Fa-f]|00[1-9A-Fa-f]|000[3-9A-Fa-f])/); k++) {
			h = substr(p, RSTART + 2, 4); c = hx(h)
			if (!(h in X)) X[h] = u8(c)
			gsub("\\\\u" h, c == 92 ? "\001" : c == 34 ? "\002" : c == 38 ? "\\&" : X[h], p)
		}
		if (index(p, "\\u")) {
			# one piece: a piece or a function call per escape costs BWK
			# and busybox awk seconds at 1 MB, a string of a few KB little
			if (index(p, "\002")) gsub(/\002/, "\"", p)
			n = split(p, a, /\\u/); r = a[1]
			if (index(r, "\001")) gsub(/\001/, "\\", r)
			for (i = 2; i <= n; i++) {
				h = substr(a[i], 1, 4)
				if (h in X) r = r X[h]
				else if ((c = hx(h)) < 55296 || c >= 57344) r = r (X[h] = u8(c))
				else if (c < 56320 && length(a[i]) == 4 && i < n && (e = hx(a[i + 1])) >= 56320 && e < 57344) {
					h = h substr(a[++i], 1, 4); if (!(h in X)) X[h] = u8(65536 + (c - 55296) * 1024 + e - 56320); r = r X[h]
				} else r = r u8(65533)
				if (length(a[i]) > 4) { e = substr(a[i], 5); if (index(e, "\001")) gsub(/\001/, "\\", e); r = r e }
			}
			P[++np] = r
			return
		}
	}
	out(p)
}
function hx(s) { return H[substr(s, 1, 1)] * 4096 + H[substr(s, 2, 1)] * 256 + H[substr(s, 3, 1)] * 16 + H[substr(s, 4, 1)] }
function u8(c) {
	if (c < 128) return c ? sprintf("%c", c) : "\001"
	if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
	if (c < 65536) return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
	return sprintf("%c%c%c%c", 240 + int(c / 262144), 128 + int(c / 4096) % 64, 128 + int(c / 64) % 64, 128 + c % 64)
}
# kd: the text of a key written with escapes (keys are short).
function kd(f,   m, k, j) {
	m = np; dec(f); k = ""
	for (j = m + 1; j <= np; j++) k = k P[j]
	np = m
	return k
}
# out: add text to P; the bytes 01 and 02 stand for a backslash and a quote.
function out(s) {
	if (index(s, "\001")) gsub(/\001/, "\\", s)
	if (index(s, "\002")) gsub(/\002/, "\"", s)
	P[++np] = s
}
