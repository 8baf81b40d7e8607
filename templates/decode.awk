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
# key of the table in pat_init, X[j, i] is its value in that file: file_path
# its path, path the path of its "*** Move to:" line (unset without one),
# content, contents and new_string its added lines, old_string its removed
# lines, each line with a newline. NV is the number of views. A patch text
# that cannot be read (see pat_lines) makes the input invalid. The patch
# reader is templates/patch.awk (hooks that read no patches hold
# templates/nopatch.awk instead).
#
# I: when set to 1, the input is the decoded text of a string tool_input
# (docs/mcp.md): nothing may come before the "{" but JSON whitespace.
# dec_input(s, w, o) decodes such a text s in the same program after the payload,
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
# Output: after the input, END calls dec_end, which sets OK to 1 when the
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
# worked on in pieces of about 4 KB (dec_escapes, dec_string,
# dec_struct); a token (a number)
# over 4 KB long is cut there and makes the input invalid. Split only ever
# splits at a one-byte string, which busybox awk does in linear time.
#
# How it works: valid strings never hold a raw newline, so lines are read one
# at a time. On each line the escapes \\ and \" first become the bytes 01 and
# 02 (raw control bytes are rejected before that, so these are unambiguous),
# one regex rejects every malformed escape, and the line is split at double
# quotes: odd fragments are structure, even ones are whole strings. Structure
# is split into tokens for a state machine: dec_state 0 before the object, 1 after {,
# 2 after a comma in an object, 3 before a colon, 4 before a value, 5 after
# [, 6 after a value, 7 after the object. Wanted values are decoded with gsub
# into pieces kept in the array piece, never built up by concatenation; the
# latest value of key k is piece[val_from[k]] to piece[val_to[k]], or none
# when val_set[k] is 0, and dec_end joins them once. dec_depth is the depth,
# dec_open[d] the bracket that opened depth d, dec_bad set when the input
# cannot be read; key_cur is the wanted key whose value comes next. Output uses print with an empty ORS: BWK awk
# allocates a buffer as large as the input line for every printf and sprintf.
BEGIN { dec_init() }
{ dec_line($0) }
END { dec_end(); hook() }
# dec_init: a fresh decoder for the keys W.
function dec_init(   i, k, w, c) {
	dec_state = dec_depth = dec_skip = dec_bad = pat_free = piece_n = NV = edits_seen = edits_n = edits_in = edits_wanted = dec_inner = dec_key_input = dec_key_edits = 0; key_cur = edit_key = ""
	delete dec_open; delete val_set; delete val_from; delete val_to; delete key_wanted; delete key_inner; delete key_name; delete piece
	delete edit_from; delete edit_to
	ORS = ""; dec_nul = sprintf("%c", 0); dec_nul_seen = length(dec_nul) == 1
	dec_lead = I ? "^[\t\r ]*$" : "^([\t\r " sprintf("%c%c%c%c%c", 239, 187, 191, 254, 255) "]|n[+][+])*$"
	for (i = 0; i < 16; i++) { c = substr("0123456789abcdef", i + 1, 1); hex_digit[c] = hex_digit[toupper(c)] = i }
	key_n = split(W, w, " ")
	for (i = 1; i <= key_n; i++) {
		k = w[i]
		if (k !~ /^(tool_input[.])?[A-Za-z_][A-Za-z0-9_]*$/ && k !~ /^tool_input[.]edits\[\][.](new|old)_string$/) {
			# in a string tool_input (I=1) no edits are joined: always unset
			if (I && k ~ /^edits\[\][.](new|old)_string$/) { key_name[i] = k; continue }
			dec_bad = 1
		}
		if (k ~ /\[/) edits_wanted = 1
		if (k ~ /[.]/) { k = "\"" substr(k, 12); key_inner[k] = 1 }
		key_name[i] = k; key_wanted[k] = 1
	}
	if (A) pat_init()
}
# dec_line: one line of the input.
function dec_line(L,   k, ctl) {
	if (dec_bad) return
	if (pat_free) { pat_line[++pat_n] = L; return }
	if (!dec_state) {
		if (A && pat_start(L)) return
		k = index(L, "{")
		if (substr(L, 1, k ? k - 1 : length(L)) !~ dec_lead) { dec_bad = 1; return }
		if (!k) return
		L = substr(L, k + 1); dec_depth = 1; dec_open[1] = "{"; dec_state = 1
	}
	ctl = 0
	if (L ~ /[\001-\037]/) { if (L ~ /[\001-\010\013\014\016-\037]/) { dec_bad = 1; return }; ctl = 1 }
	if (dec_nul_seen && index(L, dec_nul)) { dec_bad = 1; return }
	if (index(L, "\\")) { L = dec_escapes(L); if (dec_bad) return }
	if (length(L) > 8192) dec_long(L, ctl)
	else dec_frags(L, ctl)
}
# dec_frags: the text L of a line (or a chunk of one that dec_long cut,
# starting and ending outside a string), split at its double quotes.
function dec_frags(L, ctl,   k, n, i, f, F) {
	n = split(L, F, "\"")
	if (n % 2 == 0 && n) { dec_bad = 1; return }
	for (i = 1; i <= n; i++) {
		f = F[i]
		if (i % 2) { if (f != "") { dec_struct(f); if (dec_bad) return } }
		else if (ctl && f ~ /[\t\r]/) { dec_bad = 1; return }
		else if (dec_state == 1 || dec_state == 2) {
			dec_state = 3; key_cur = ""
			if (f ~ /[\\\001\002]/) f = dec_key(f)
			if (dec_depth == 1) { dec_key_input = f == "tool_input"; if (dec_key_input) { for (k in key_inner) val_set[k] = 0; edits_seen = 0 }; if (f in key_wanted) key_cur = f }
			else if (dec_depth == 2 && dec_inner) { if (("\"" f) in key_wanted && f !~ /[[]/) key_cur = "\"" f; if (edits_wanted && f == "edits") { dec_key_edits = 1; edits_seen = edits_n = 0 } }
			else if (dec_depth == 4 && edits_in && (f == "new_string" || f == "old_string")) edit_key = f
		} else if (dec_state == 4 || dec_state == 5) {
			if (edits_in && dec_depth == 3) edits_item()
			if (key_cur != "") { val_set[key_cur] = 1; val_from[key_cur] = piece_n + 1; dec_string(f); val_to[key_cur] = piece_n }
			if (edit_key != "") { edit_from[edits_n, edit_key] = piece_n + 1; dec_string(f); edit_to[edits_n, edit_key] = piece_n }
			key_cur = edit_key = ""; dec_key_input = dec_key_edits = 0; dec_state = 6
		} else { dec_bad = 1; return }
	}
}
# dec_long: a line over 8 KB, in chunks of about 4 KB that start and end
# outside strings (dec_cut): busybox awk splits and loops at about 1.5 us a
# field, so a line of a million short tokens cost it 10 s. A chunk inside a
# container that nothing is read from (dec_skip, its depth) is skimmed with
# a few substitutions (dec_skim); any other chunk, and one that closes that
# container, goes through dec_frags as a short line does. Chunks come from a
# window of 64 KB (w, from wa on), as in dec_escapes.
function dec_long(L, ctl,   n, a, b, c, w, wa) {
	n = length(L); wa = -65536
	for (a = 1; a <= n && !dec_bad; a += b) {
		if (a + 4096 > wa + 65536) { w = substr(L, a, 65536); wa = a }
		c = substr(w, a - wa + 1, 4096)
		if (a + length(c) > n) b = length(c)
		else if (b = dec_cut(c)) c = substr(c, 1, b)
		else { b = dec_close(L, a, n); c = substr(L, a, b) }
		if (!dec_skip || !dec_skim(c, ctl)) dec_frags(c, ctl)
	}
}
# dec_cut: how much of the text c (4 KB of a line, starting outside a
# string) a chunk takes: up to a bracket, colon or comma after the last
# whole string, else up to the opening quote of the last string, so that a
# chunk never ends inside a string, a number or a literal, nor in a key
# before its colon (dec_skim reads "," then a string as an item of an
# array); 0 when c starts with a string that goes on past it.
function dec_cut(c,   q, t, lq, pq) {
	q = split(c, t, "\"") - 1
	if (!q) {
		if (match(c, /[][{}:,][^][{}:,]*$/) || match(c, /[ \t\r][^ \t\r]*$/)) return RSTART
		return length(c)
	}
	lq = length(c) - length(t[q + 1])
	if (q % 2) return lq - 1
	if (match(t[q + 1], /[][{}:,][^][{}:,]*$/)) return lq + RSTART
	pq = lq - length(t[q]) - 1
	return pq > 1 ? pq - 1 : lq
}
# dec_close: the length of the string of L that starts at a (with its
# quotes), looked for in windows of 64 KB; the rest of L when it does not end.
function dec_close(L, a, n,   p, k) {
	for (p = a + 1; p <= n; p += 65536) if (k = index(substr(L, p, 65536), "\"")) return p + k - a
	return n - a + 1
}
# dec_skim: 1 when the chunk c is well formed inside the container at depth
# dec_skip and leaves it open; then dec_depth, dec_open and dec_state are
# as after c. Else 0, and nothing changed. Each string becomes the byte 03,
# each number and literal 04, a key with its colon 07; a container whose
# items are all such becomes 04 (8 rounds: deeper ones stay); a run of ","
# and an item becomes 05 in an array, 06 in an object. The bytes left are
# few, and go through the states of dec_token; any other byte (a bad
# token) leaves c to dec_frags, which says what is wrong.
function dec_skim(c, ctl,   t, n, i, x, d, s, o, k) {
	if (index(c, "\"")) {
		if (ctl) gsub(/"[^"\t\r]*"/, "\003", c); else gsub(/"[^"]*"/, "\003", c)
		if (index(c, "\"")) return 0
	}
	gsub(/-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?|true|false|null/, "\004", c)
	if (c ~ /[ \t\r]/) gsub(/[ \t\r]+/, "", c)
	if (index(c, "\003:")) gsub(/\003:/, "\007", c)
	# (two substitutions: one with both alternatives costs mawk 1.6 ms a chunk)
	for (i = 0; i < 8 && gsub(/\[([\003\004](,[\003\004])*)?\]/, "\004", c) + gsub(/[{](\007[\003\004](,\007[\003\004])*)?[}]/, "\004", c); i++) ;
	if (index(c, ",")) { gsub(/(,\007[\003\004])+/, "\006", c); gsub(/(,[\003\004])+/, "\005", c) }
	d = dec_depth; s = dec_state; n = split(c, t, "")
	for (i = 1; i <= n; i++) {
		x = t[i]; k = d in o ? o[d] : dec_open[d]
		if (x == "\004" || x == "\003" && (s == 4 || s == 5)) { if (s != 4 && s != 5) return 0; s = 6 }
		else if (x == "\003") { if (s != 1 && s != 2) return 0; s = 3 }
		else if (x == "\007") { if (s != 1 && s != 2) return 0; s = 4 }
		else if (x == ":") { if (s != 3) return 0; s = 4 }
		else if (x == ",") { if (s != 6) return 0; s = k == "{" ? 2 : 4 }
		else if (x == "\005" || x == "\006") { if (s != 6 || k != (x == "\005" ? "[" : "{")) return 0 }
		else if (x == "[" || x == "{") { if (s != 4 && s != 5) return 0; o[++d] = x; s = x == "[" ? 5 : 1 }
		else if (x == "]" || x == "}") { if (k != (x == "]" ? "[" : "{") || s != 6 && s != (x == "]" ? 5 : 1) || --d < dec_skip) return 0; s = 6 }
		else return 0
	}
	for (k in o) if (k + 0 <= d) dec_open[k] = o[k]
	dec_depth = d; dec_state = s
	return 1
}
# dec_end: after the last line, V and X from the pieces, and OK.
function dec_end(   i, j, k, m) {
	OK = 0
	for (i = 1; i <= key_n; i++) delete V[i + O]
	if (dec_bad || !pat_free && dec_state != 7) return
	if (A) { pat_read(); if (dec_bad) { NV = 0; return } }
	if (edits_seen) for (i = 1; i <= key_n; i++) if (key_name[i] ~ /\[/ && !val_set[key_name[i]]) {
		# tool_input.edits[].M: the members M of the edits, joined by a space
		m = substr(key_name[i], 10); val_set[key_name[i]] = 1; val_from[key_name[i]] = piece_n + 1
		for (j = 1; j <= edits_n; j++) {
			if (j > 1) piece[++piece_n] = " "
			if ((j, m) in edit_from) for (k = edit_from[j, m]; k <= edit_to[j, m]; k++) piece[++piece_n] = piece[k]
		}
		val_to[key_name[i]] = piece_n
	}
	for (i = 1; i <= key_n; i++) if (val_set[key_name[i]]) V[i + O] = piece_join(val_from[key_name[i]], val_to[key_name[i]])
	if (A) pat_views()
	OK = 1
}
# dec_input: decode the text s of a string tool_input (I=1) into V[o+1] on, for
# the names w; OK becomes 0 when s is not one JSON object.
function dec_input(s, w, o,   ok, n, t, i) {
	ok = OK; W = w; O = o; I = 1; A = 0
	dec_init(); n = split(s, t, "\n")
	for (i = 1; i <= n; i++) dec_line(t[i])
	dec_end(); OK = ok && OK
}
# piece_join: the pieces a to b as one string, joined by halves (not quadratic).
function piece_join(a, b,   m) {
	if (a > b) return ""
	if (a == b) return piece[a]
	m = int((a + b) / 2)
	return piece_join(a, m) piece_join(m + 1, b)
}
# dec_escapes: the line L with its escapes \\ and \" as the bytes 01 and 02; dec_bad is
# set when an escape is malformed. A long line goes in pieces of about 4 KB
# (joined by halves, as piece_join joins), each ending between two escapes: busybox
# awk runs gsub, split and each regex match in time proportional to the
# length of the rest of the string at every match, which over a whole
# line of escapes is quadratic (seconds at 1 MB). dec_string and
# dec_struct cut long
# texts the same way. Each piece comes from a window of 64 KB (w, from wa
# on): BWK and busybox awk measure the whole string at every substr.
function dec_escapes(L,   n, a, b, s, k, Q, w, wa) {
	n = length(L); wa = -65536
	for (a = 1; a <= n; a += b) {
		if (a + 4096 > wa + 65536) { w = substr(L, a, 65536); wa = a }
		s = substr(w, a - wa + 1, n > 8192 ? 4096 : n); b = length(s)
		if (index(s, "\\\\")) gsub(/\\\\/, "\001", s)
		if (index(s, "\\\"")) gsub(/\\"/, "\002", s)
		# the rest of a piece that ends inside an escape (every backslash
		# left starts one) goes with the next
		if (a + b <= n && match(substr(s, length(s) - 7), /\\(u[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?$/)) { s = substr(s, 1, length(s) - RLENGTH); b -= RLENGTH }
		if (s ~ /\\[^\/bfnrtu]|\\$/ || index(s, "\\u") && s ~ /\\u([^0-9A-Fa-f]|.[^0-9A-Fa-f]|..[^0-9A-Fa-f]|...[^0-9A-Fa-f]|.?.?.?$)/) { dec_bad = 1; return "" }
		Q[++k] = s
	}
	return join_halves(Q, 1, k)
}
# join_halves: the texts q[a] to q[b] joined, by halves.
function join_halves(q, a, b,   m) {
	if (a >= b) return a == b ? q[a] : ""
	m = int((a + b) / 2)
	return join_halves(q, a, m) join_halves(q, m + 1, b)
}
# edits_item: one more item in tool_input.edits, with no members yet.
function edits_item() { edits_n++; delete edit_from[edits_n, "new_string"]; delete edit_from[edits_n, "old_string"] }
# dec_struct: the tokens of a structural fragment; a long one in pieces of about
# 4 KB, each ending after a bracket, colon, comma or white space (see dec_escapes).
function dec_struct(f,   n, a, i, b, s, w, wa) {
	if (f ~ /^[][{}:,]$/) { dec_token(f); return }
	if ((n = length(f)) > 8192) {
		wa = -65536
		for (a = 1; a <= n && !dec_bad; a += b) {
			if (a + 4096 > wa + 65536) { w = substr(f, a, 65536); wa = a }
			s = substr(w, a - wa + 1, 4096); b = length(s)
			if (a + b <= n && match(s, /[][{}:, \t\r][^][{}:, \t\r]*$/) && RSTART > 1) { s = substr(s, 1, RSTART); b = RSTART }
			dec_struct_piece(s)
		}
		return
	}
	dec_struct_piece(f)
}
function dec_struct_piece(f,   n, a, i) {
	gsub(/[][{}:,]/, " & ", f); n = split(f, a, /[ \t\r]+/)
	for (i = 1; i <= n && !dec_bad; i++) if (a[i] != "") dec_token(a[i])
}
function dec_token(t) {
	if (t == ":") { if (dec_state == 3) dec_state = 4; else dec_bad = 1; return }
	if (t == ",") { if (dec_state == 6) dec_state = dec_open[dec_depth] == "{" ? 2 : 4; else dec_bad = 1; return }
	if (t == "}" || t == "]") {
		if (dec_open[dec_depth] == (t == "}" ? "{" : "[") && (dec_state == 6 || dec_state == (t == "}" ? 1 : 5))) dec_state = --dec_depth ? 6 : 7
		else dec_bad = 1
		if (dec_depth < dec_skip) dec_skip = 0
		if (dec_depth < 3) edits_in = 0
		return
	}
	if (dec_state != 4 && dec_state != 5) { dec_bad = 1; return }
	if (edits_in && dec_depth == 3) edits_item()
	if (edit_key != "") { edit_from[edits_n, edit_key] = piece_n + 1; edit_to[edits_n, edit_key] = piece_n }
	if (t == "{" || t == "[") {
		if (key_cur != "") val_set[key_cur] = 0
		dec_open[++dec_depth] = t; if (dec_depth == 2) dec_inner = dec_key_input && t == "{"
		if (dec_depth == 3 && dec_key_edits && t == "[") edits_in = edits_seen = 1
		# a container nothing is read from: dec_long skims it
		if (!dec_skip && dec_depth > 1 && (dec_depth > 2 || !dec_inner) && (dec_depth > 4 || !edits_in)) dec_skip = dec_depth
		dec_state = t == "{" ? 1 : 5
	} else if (t == "true" || t == "false" || t ~ /^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?$/) {
		if (key_cur != "") { val_set[key_cur] = 1; val_from[key_cur] = val_to[key_cur] = ++piece_n; piece[piece_n] = t }
		if (edit_key != "") { edit_from[edits_n, edit_key] = edit_to[edits_n, edit_key] = ++piece_n; piece[piece_n] = t }
		dec_state = 6
	} else if (t == "null") { if (key_cur != "") val_set[key_cur] = 0; dec_state = 6 }
	else { dec_bad = 1; return }
	key_cur = edit_key = ""; dec_key_input = dec_key_edits = 0
}
# dec_string: add the bytes of the string text p (already checked) to piece; a long
# one in pieces of about 4 KB (see dec_escapes), none ending inside an escape or
# between the halves of a surrogate pair.
function dec_string(p,   n, a, b, s, w, wa) {
	if ((n = length(p)) <= 8192) { dec_string_piece(p); return }
	wa = -65536
	for (a = 1; a <= n; a += b) {
		if (a + 4096 > wa + 65536) { w = substr(p, a, 65536); wa = a }
		s = substr(w, a - wa + 1, 4096); b = length(s)
		if (a + b <= n && match(substr(s, b - 15), /\\(u([Dd][89ABab][0-9A-Fa-f][0-9A-Fa-f](\\(u[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?)?|[0-9A-Fa-f]?[0-9A-Fa-f]?[0-9A-Fa-f]?)?)?$/)) { s = substr(s, 1, b - RLENGTH); b -= RLENGTH }
		dec_string_piece(s)
	}
}
function dec_string_piece(p,   n, a, i, h, c, e, k, r) {
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
			h = substr(p, RSTART + 2, 4); c = hex4(h)
			if (!(h in utf8_of)) utf8_of[h] = utf8(c)
			gsub("\\\\u" h, c == 92 ? "\001" : c == 34 ? "\002" : c == 38 ? "\\&" : utf8_of[h], p)
		}
		if (index(p, "\\u")) {
			# one piece: a piece or a function call per escape costs BWK
			# and busybox awk seconds at 1 MB, a string of a few KB little
			if (index(p, "\002")) gsub(/\002/, "\"", p)
			n = split(p, a, /\\u/); r = a[1]
			if (index(r, "\001")) gsub(/\001/, "\\", r)
			for (i = 2; i <= n; i++) {
				h = substr(a[i], 1, 4)
				if (h in utf8_of) r = r utf8_of[h]
				else if ((c = hex4(h)) < 55296 || c >= 57344) r = r (utf8_of[h] = utf8(c))
				else if (c < 56320 && length(a[i]) == 4 && i < n && (e = hex4(a[i + 1])) >= 56320 && e < 57344) {
					h = h substr(a[++i], 1, 4); if (!(h in utf8_of)) utf8_of[h] = utf8(65536 + (c - 55296) * 1024 + e - 56320); r = r utf8_of[h]
				} else r = r utf8(65533)
				if (length(a[i]) > 4) { e = substr(a[i], 5); if (index(e, "\001")) gsub(/\001/, "\\", e); r = r e }
			}
			piece[++piece_n] = r
			return
		}
	}
	piece_add(p)
}
function hex4(s) { return hex_digit[substr(s, 1, 1)] * 4096 + hex_digit[substr(s, 2, 1)] * 256 + hex_digit[substr(s, 3, 1)] * 16 + hex_digit[substr(s, 4, 1)] }
function utf8(c) {
	if (c < 128) return c ? sprintf("%c", c) : "\001"
	if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
	if (c < 65536) return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
	return sprintf("%c%c%c%c", 240 + int(c / 262144), 128 + int(c / 4096) % 64, 128 + int(c / 64) % 64, 128 + c % 64)
}
# dec_key: the text of a key written with escapes (keys are short).
function dec_key(f,   m, k, j) {
	m = piece_n; dec_string(f); k = ""
	for (j = m + 1; j <= piece_n; j++) k = k piece[j]
	piece_n = m
	return k
}
# piece_add: add text to piece; the bytes 01 and 02 stand for a backslash and a quote.
function piece_add(s) {
	if (index(s, "\001")) gsub(/\001/, "\\", s)
	if (index(s, "\002")) gsub(/\002/, "\"", s)
	piece[++piece_n] = s
}
