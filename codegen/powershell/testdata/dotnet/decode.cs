// decode: a line-by-line C# transliteration of hk_read and hk_dec from
// templates/hook.ps1.tmpl, run by decoder_test.go with the very regexes of
// the template, to check the PowerShell decoder's algorithm on .NET against
// the reference decoder (package payload). Keep it in step with the template.
//
// Arguments: TOKENIZER-HEX ESCAPES-HEX SPACE-HEX PREFIX-HEX TOOL HEADER-HEX
// PAD-HEX LEAD-HEX KEY... (keys as "name" or
// "tool_input.name", each distinct; TOOL is 0, or the 1-based position of
// the key "tool_input" to run hk_read_tool on it, or P to read patches as
// the template does with $hk_ps, the keys then holding tool_input,
// tool_input.patch and tool_input.diff). Each stdin line is a hex payload;
// the answer line is "invalid", or one field per key: "-" when unset, else
// "=" and the hex of the value's bytes; then, per file of the patches, " |"
// and its path, move, added and removed lines in the same form.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

class Decode {
    static Encoding bytes = Encoding.GetEncoding(28591);
    static Encoding utf8 = new UTF8Encoding(false);
    static Encoding strict = new UTF8Encoding(false, true);
    static Regex tok, esc, space, pre;
    static Dictionary<string, int> top = new Dictionary<string, int>(StringComparer.Ordinal);
    static Dictionary<string, int> tool = new Dictionary<string, int>(StringComparer.Ordinal);
    static List<int> ti = new List<int>();
    static object[] v;

    static byte[] Hex(string s) {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    static string B(string s) { return bytes.GetString(utf8.GetBytes(s)); }

    // hk_dec
    static string Dec(string raw) {
        if (raw.IndexOf((char)92) < 0) return raw;
        string u = null;
        try { u = strict.GetString(bytes.GetBytes(raw)); } catch (Exception) { u = null; }
        if (u != null) u = B(Regex.Unescape(u));
        else u = esc.Replace(raw, m => B(Regex.Unescape(m.Value)));
        return u.Replace((char)0, (char)1);
    }

    // hk_read
    static bool Read(string s, bool inner) {
        int i = s.IndexOf('{');
        if (i < 0) return false;
        if (inner && !space.IsMatch(s.Substring(0, i))) return false;
        if (!pre.IsMatch(s.Substring(0, i))) return false;
        int pos = i + 1;
        var obj = new List<bool>();
        obj.Add(true);
        int state = 1, want = 0; bool keyTI = false, inTI = false;
        bool jk = false, ja = false, js = false; string jg = null;
        var ed = new List<Dictionary<string, string>>();
        bool jw = tool.ContainsKey("edits[].new_string") || tool.ContainsKey("edits[].old_string");
        while (pos < s.Length) {
            var m = tok.Match(s, pos);
            if (!m.Success) return false;
            pos += m.Length;
            if (m.Groups[1].Success) {
                string t = m.Groups[1].Value;
                if (t == ":") {
                    if (state != 3) return false;
                    state = 4;
                } else if (t == ",") {
                    if (state != 6) return false;
                    if (obj[obj.Count - 1]) state = 2; else state = 4;
                } else if (t == "}" || t == "]") {
                    bool o = t == "}";
                    if (obj.Count == 0 || obj[obj.Count - 1] != o) return false;
                    if (!(state == 6 || (o && state == 1) || (!o && state == 5))) return false;
                    obj.RemoveAt(obj.Count - 1);
                    if (obj.Count > 0) state = 6; else state = 7;
                    if (obj.Count < 3) ja = false;
                } else {
                    if (state != 4 && state != 5) return false;
                    if (want > 0) v[want] = null;
                    if (ja && obj.Count == 3) ed.Add(new Dictionary<string, string>());
                    if (jg != null) ed[ed.Count - 1].Remove(jg);
                    bool o = t == "{";
                    obj.Add(o);
                    if (obj.Count == 2) inTI = keyTI && o;
                    if (obj.Count == 3 && jk && !o) { ja = true; js = true; }
                    if (o) state = 1; else state = 5;
                    want = 0; keyTI = false; jk = false; jg = null;
                }
            } else if (m.Groups[2].Success) {
                string raw = m.Groups[2].Value;
                if (state == 1 || state == 2) {
                    state = 3; want = 0; int k = 0;
                    if (raw.IndexOf((char)92) >= 0) raw = Dec(raw);
                    if (obj.Count == 1 && inner) {
                        if (raw.IndexOf('[') < 0 && tool.TryGetValue(raw, out k)) want = k;
                    } else if (obj.Count == 1) {
                        keyTI = string.Equals(raw, "tool_input", StringComparison.Ordinal);
                        if (keyTI) { foreach (int j in ti) v[j] = null; js = false; }
                        if (top.TryGetValue(raw, out k)) want = k;
                    } else if (obj.Count == 2 && inTI) {
                        if (raw.IndexOf('[') < 0 && tool.TryGetValue(raw, out k)) want = k;
                        if (jw && raw == "edits") { jk = true; js = false; ed = new List<Dictionary<string, string>>(); }
                    } else if (obj.Count == 4 && ja && obj[3] && (raw == "new_string" || raw == "old_string")) {
                        jg = raw;
                    }
                } else if (state == 4 || state == 5) {
                    if (want > 0) v[want] = Dec(raw);
                    if (ja && obj.Count == 3) ed.Add(new Dictionary<string, string>());
                    if (jg != null) ed[ed.Count - 1][jg] = Dec(raw);
                    want = 0; keyTI = false; jk = false; jg = null; state = 6;
                } else {
                    return false;
                }
            } else if (m.Groups[3].Success) {
                if (state != 4 && state != 5) return false;
                string lit = m.Groups[3].Value;
                bool isnull = string.Equals(lit, "null", StringComparison.Ordinal);
                if (want > 0) {
                    if (isnull) v[want] = null; else v[want] = lit;
                }
                if (ja && obj.Count == 3) ed.Add(new Dictionary<string, string>());
                if (jg != null) { if (isnull) ed[ed.Count - 1].Remove(jg); else ed[ed.Count - 1][jg] = lit; }
                want = 0; keyTI = false; jk = false; jg = null; state = 6;
            }
        }
        if (state != 7) return false;
        foreach (string n in new string[] { "new_string", "old_string" }) {
            int k;
            if (!inner && tool.TryGetValue("edits[]." + n, out k)) {
                v[k] = null;
                if (js) {
                    var parts = new List<string>();
                    foreach (var it in ed) parts.Add(it.ContainsKey(n) ? it[n] : "");
                    v[k] = string.Join(" ", parts);
                }
            }
        }
        return true;
    }

    static Regex phead, ppad, plead;

    // hk_free
    static string Free(string s) {
        int at = 0;
        while (at < s.Length) {
            int e = s.IndexOf((char)10, at);
            if (e < 0) e = s.Length;
            string line = s.Substring(at, e - at);
            int b = line.IndexOf("*** Begin Patch", StringComparison.Ordinal);
            if (b >= 0 && pre.IsMatch(line.Substring(0, b))) return s.Substring(at + b);
            if (line.IndexOf('{') >= 0 || !pre.IsMatch(line)) return null;
            at = e + 1;
        }
        return null;
    }

    // hk_patch: a file is {f, m, a, r}.
    static bool Patch(string text, List<string[]> files) {
        string[] lines = text.Split((char)10);
        int st = 0;
        string[] cur = null;
        StringBuilder ca = null, cr = null;
        var added = new List<StringBuilder>(); var removed = new List<StringBuilder>();
        var nw = new List<string[]>();
        for (int i = 0; i < lines.Length; i++) {
            string l = lines[i], m = l;
            if (m.EndsWith("\r", StringComparison.Ordinal)) m = m.Substring(0, m.Length - 1);
            string h = "";
            if (st == 3) {
                if (m.StartsWith("*", StringComparison.Ordinal)) h = ppad.Replace(m, "");
            } else if (st != 2 || !l.StartsWith("+", StringComparison.Ordinal)) {
                h = ppad.Replace(plead.Replace(m, ""), "");
            }
            if (st == 0) {
                if (h.Length == 0 && i < lines.Length - 1) continue;
                if (h != "*** Begin Patch") return false;
                st = 1;
                continue;
            }
            if (st == 4) {
                if (h.Length != 0) return false;
                continue;
            }
            var f = phead.Match(h);
            if (h == "*** End Patch") {
                st = 4;
            } else if (f.Success) {
                if (f.Groups[2].Value.Length == 0) return false;
                if (f.Groups[1].Value == "Add") st = 2; else if (f.Groups[1].Value == "Update") st = 3; else st = 1;
                cur = new string[] { f.Groups[2].Value, null, null, null };
                nw.Add(cur); ca = new StringBuilder(); cr = new StringBuilder(); added.Add(ca); removed.Add(cr);
            } else if (h.StartsWith("*** Move to: ", StringComparison.Ordinal)) {
                string to = h.Substring(13);
                if (st != 3 || to.Length == 0 || cur[1] != null) return false;
                cur[1] = to;
            } else if (h == "*** End of File") {
            } else if (h.StartsWith("***", StringComparison.Ordinal) || (st == 1 && h.Length != 0)) {
                return false;
            } else if (st != 1 && l.StartsWith("+", StringComparison.Ordinal)) {
                ca.Append(l.Substring(1)).Append((char)10);
            } else if (st == 3 && l.StartsWith("-", StringComparison.Ordinal)) {
                cr.Append(l.Substring(1)).Append((char)10);
            }
        }
        if (st == 0) return false;
        for (int j = 0; j < nw.Count; j++) { nw[j][2] = added[j].ToString(); nw[j][3] = removed[j].ToString(); files.Add(nw[j]); }
        return true;
    }

    static void Hexs(StringBuilder sb, string s) {
        if (s == null) { sb.Append('-'); return; }
        sb.Append('=');
        foreach (byte b in bytes.GetBytes(s)) sb.Append(b.ToString("x2"));
    }

    // hk_read_tool
    static bool ReadTool(int slot) {
        if (v[slot] == null) return true;
        if (Read((string)v[slot], true)) return true;
        foreach (int j in ti) v[j] = null;
        return false;
    }

    static void Main(string[] args) {
        var opts = RegexOptions.CultureInvariant;
        tok = new Regex(bytes.GetString(Hex(args[0])), opts);
        esc = new Regex(bytes.GetString(Hex(args[1])), opts);
        space = new Regex(bytes.GetString(Hex(args[2])), opts);
        pre = new Regex(bytes.GetString(Hex(args[3])), opts);
        bool patches = args[4] == "P";
        int toolSlot = patches ? 0 : int.Parse(args[4]);
        phead = new Regex(bytes.GetString(Hex(args[5])), opts);
        ppad = new Regex(bytes.GetString(Hex(args[6])), opts);
        plead = new Regex(bytes.GetString(Hex(args[7])), opts);
        int n = args.Length - 8;
        for (int i = 0; i < n; i++) {
            string k = args[i + 8];
            if (k.StartsWith("tool_input.", StringComparison.Ordinal)) { tool.Add(k.Substring(11), i + 1); ti.Add(i + 1); }
            else top.Add(k, i + 1);
        }
        var stdout = new StreamWriter(Console.OpenStandardOutput());
        string line;
        while ((line = Console.In.ReadLine()) != null) {
            v = new object[n + 1];
            string raw = bytes.GetString(Hex(line));
            var files = new List<string[]>();
            string free = patches ? Free(raw) : null;
            bool ok;
            if (free != null) ok = Patch(free, files);
            else {
                ok = Read(raw, false);
                if (ok && patches) {
                    // the slots of tool_input, tool_input.patch, tool_input.diff
                    int ps0 = top["tool_input"], ps1 = tool["patch"], ps2 = tool["diff"];
                    string x = (string)v[ps0];
                    if (x != null && !x.TrimStart(' ', '\t', '\r', '\n').StartsWith("{", StringComparison.Ordinal)) ok = Patch(x, files);
                    foreach (int j in new int[] { ps1, ps2 }) if (ok && v[j] != null) ok = Patch((string)v[j], files);
                }
            }
            if (ok && toolSlot > 0) ok = ReadTool(toolSlot);
            if (!ok) { stdout.WriteLine("invalid"); continue; }
            var sb = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                if (i > 1) sb.Append(' ');
                if (v[i] == null) { sb.Append('-'); continue; }
                sb.Append('=');
                foreach (byte b in bytes.GetBytes((string)v[i])) sb.Append(b.ToString("x2"));
            }
            foreach (var f in files) {
                sb.Append(" |");
                foreach (string x in f) { sb.Append(' '); Hexs(sb, x); }
            }
            stdout.WriteLine(sb.ToString());
        }
        stdout.Flush();
    }
}
