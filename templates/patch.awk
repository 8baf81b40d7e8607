# patch.awk: the apply_patch reader of decode.awk (README, "Payload
# fields"), in the programs of the hooks that read patches (A=1); the others
# hold nopatch.awk instead. Its names start with pat_ (its state and
# functions) and view_ (the files it found); it adds its texts to the
# pieces of the decoder (piece, piece_n) and sets dec_bad on a patch it cannot
# read, as the JSON decoder does on a document it cannot read.
#
# pat_init: called by dec_init; the keys a patch is read from are wanted
# too, and pat_part is the table of the tool_input keys a view sets: a
# path of a file (f), the path it moves to (m), its added lines (a) and its
# removed ones (r). pat_space is the White_Space of Unicode in UTF-8, which
# str::trim of Rust drops.
function pat_init(   i, w) {
	pat_n = 0
	delete pat_part; delete view_from; delete view_to; delete pat_line; delete view_nadd; delete view_nrem; delete view_add; delete view_rem
	key_wanted["tool_input"] = key_wanted["\"patch"] = key_wanted["\"diff"] = key_inner["\"patch"] = key_inner["\"diff"] = 1
	split("file_path f path m content a contents a new_string a old_string r", w, " ")
	for (i = 1; i < 12; i += 2) pat_part["\"" w[i]] = w[i + 1]
	pat_lead = substr(dec_lead, 1, length(dec_lead) - 1) "[*][*][*] Begin Patch"
	pat_space = "([\t\n\013\014\r ]|\302[\205\240]|\341\232\200|\342\200[\200-\212\250\251\257]|\342\201\237|\343\200\200)+"
}
# pat_start: 1 when the first line L starts a free-form patch (then the
# input is the patch: dec_line keeps its lines in pat_line, and every key
# is unset).
function pat_start(L) {
	if (L !~ pat_lead) return 0
	pat_free = 1; match(L, /[*][*][*] Begin Patch/); pat_line[pat_n = 1] = substr(L, RSTART)
	return 1
}
# pat_read: called by dec_end on a valid input: the free-form patch, else
# the patches in a string tool_input (unless it starts with "{" after white
# space), tool_input.patch and tool_input.diff.
function pat_read(   k, x) {
	if (pat_free) { for (k in val_set) val_set[k] = 0; pat_lines(pat_line, pat_n); return }
	if (val_set["tool_input"] && (x = piece_join(val_from["tool_input"], val_to["tool_input"])) !~ /^[ \t\r\n]*[{]/) pat_text(x)
	if (val_set["\"patch"]) pat_text(piece_join(val_from["\"patch"], val_to["\"patch"]))
	if (val_set["\"diff"]) pat_text(piece_join(val_from["\"diff"], val_to["\"diff"]))
}
# pat_views: called last by dec_end: X[v, i] for each view v and wanted key i.
function pat_views(   v, i, k) {
	for (v = 1; v <= NV; v++) for (i = 1; i <= key_n; i++) if ((k = pat_part[key_name[i]]) != "" && (v, k) in view_from) X[v, i + O] = piece_join(view_from[v, k], view_to[v, k])
}
# pat_text: read the patch text x.
function pat_text(x,   n, t) {
	n = split(x, t, "\n")
	pat_lines(t, n)
}
# pat_lines: the files of the patch in lines t[1] to t[n] (README, "Payload
# fields"), each a view NV: view_from[NV, part] to view_to[NV, part] are the pieces of
# its path (f), the path it moves to (m), its added lines (a) and its
# removed ones (r), each line with a newline. A patch it cannot read makes
# the input invalid. h is a line as the apply_patch of codex reads a header
# there (parser.rs, parse_one_hunk): trimmed of Unicode white space (pat_space at
# either end) where a file section may start (after Begin Patch or a
# Delete File line, at a line of an Add File that does not start with +);
# in an Update File only a line that starts with * (then trimmed at the
# end), else "": an indented line there is context in a hunk.
function pat_lines(t, n,   i, l, m, h, z, v0, v, j) {
	v0 = NV + 1
	for (i = 1; i <= n; i++) {
		l = t[i]; m = l; sub(/\r$/, "", m); h = ""
		if (z == 3) { if (m ~ /^[*]/) { h = m; sub(pat_space "$", "", h) } }
		else if (z != 2 || l !~ /^[+]/) { h = m; sub("^" pat_space, "", h); sub(pat_space "$", "", h) }
		if (!z) { if (h == "" && i < n) continue; if (h != "*** Begin Patch") { dec_bad = 1; return }; z = 1; continue }
		if (z == 4) { if (h != "") dec_bad = 1; continue }
		if (h == "*** End Patch") z = 4
		else if (h ~ /^[*][*][*] (Add|Update|Delete) File: /) {
			z = h ~ /^[*][*][*] A/ ? 2 : h ~ /^[*][*][*] U/ ? 3 : 1
			sub(/^[*][*][*] [A-Za-z]+ File: /, "", h); if (h == "") { dec_bad = 1; return }
			piece[++piece_n] = h; NV++; view_from[NV, "f"] = view_to[NV, "f"] = piece_n; view_nadd[NV] = view_nrem[NV] = 0
		} else if (h ~ /^[*][*][*] Move to: /) {
			sub(/^[*][*][*] Move to: /, "", h); if (z != 3 || h == "" || (NV, "m") in view_from) { dec_bad = 1; return }
			piece[++piece_n] = h; view_from[NV, "m"] = view_to[NV, "m"] = piece_n
		} else if (h == "*** End of File") continue
		else if (h ~ /^[*][*][*]/ || z == 1 && h != "") { dec_bad = 1; return }
		else if (z > 1 && l ~ /^[+]/) view_add[NV, ++view_nadd[NV]] = substr(l, 2) "\n"
		else if (z == 3 && l ~ /^-/) view_rem[NV, ++view_nrem[NV]] = substr(l, 2) "\n"
	}
	if (!z) { dec_bad = 1; return }
	for (v = v0; v <= NV; v++) {
		view_from[v, "a"] = piece_n + 1; for (j = 1; j <= view_nadd[v]; j++) piece[++piece_n] = view_add[v, j]; view_to[v, "a"] = piece_n
		view_from[v, "r"] = piece_n + 1; for (j = 1; j <= view_nrem[v]; j++) piece[++piece_n] = view_rem[v, j]; view_to[v, "r"] = piece_n
	}
}
