// lastmsg: a line-by-line C# transliteration of hk_lastmsg, hk_tline,
// hk_tval and hk_dec from templates/hook.ps1.tmpl, run by
// lastmsg_test.go with the very regexes of the template, to check the
// PowerShell reading of last_assistant_message on .NET against the
// reference (payload.LastAssistantMessage). Keep it in step with the
// template.
//
// Arguments: TTOK-HEX ESCAPES-HEX. Each stdin line is a hex transcript (one
// char per byte, each NUL already 01, as hk_transcript reads it); the answer
// line is "=" and the hex of the message's bytes.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

class LastMsg {
    static Encoding bytes = Encoding.GetEncoding(28591);
    static Encoding utf8 = new UTF8Encoding(false);
    static Encoding strict = new UTF8Encoding(false, true);
    static Regex ttok, esc;

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

    // hk_lastmsg
    static string LastMsg1(string t) {
        string[] lines = t.Split((char)10);
        for (int i = lines.Length - 1; i >= 0; i--) {
            var e = TLine(lines[i]);
            if (e == null) continue;
            if (e.role == "user") return "";
            if (e.role == "assistant" && e.text != null) return e.text;
        }
        return "";
    }

    class X {
        public string role, cs, g1, g2, g4, tx;
        public int ck, d;
        public List<string> parts;
        public bool im, ic, it, ty;
    }

    class Entry { public string role, text; }

    // hk_tline
    static Entry TLine(string s) {
        var x = new X();
        var stack = new List<bool>();
        int pos = 0, st = 4;
        while (pos < s.Length) {
            var m = ttok.Match(s, pos);
            if (!m.Success) return null;
            pos += m.Length;
            int d = stack.Count; x.d = d;
            if (m.Groups[1].Success) {
                string tok = m.Groups[1].Value;
                if (tok == ":") {
                    if (st != 3) return null;
                    st = 4;
                } else if (tok == ",") {
                    if (st != 6 || d == 0) return null;
                    if (stack[d - 1]) st = 2; else st = 4;
                } else if (tok == "}" || tok == "]") {
                    bool o = tok == "}";
                    if (d == 0 || stack[d - 1] != o) return null;
                    if (!(st == 6 || (o && st == 1) || (!o && st == 5))) return null;
                    if (d == 4 && x.it) {
                        if (x.ty && x.tx != null) x.parts.Add(x.tx);
                        x.it = false;
                    } else if (d == 3 && x.ic) x.ic = false;
                    else if (d == 2 && x.im) x.im = false;
                    stack.RemoveAt(d - 1);
                    if (stack.Count > 0) st = 6; else st = 7;
                } else {
                    if (st != 4 && st != 5) return null;
                    if (!TVal(x, tok, null)) return null;
                    stack.Add(tok == "{");
                    if (tok == "{") st = 1; else st = 5;
                }
            } else if (m.Groups[2].Success) {
                string raw = m.Groups[2].Value;
                if (st == 1 || st == 2) {
                    st = 3;
                    string k = Dec(raw);
                    if (d == 1) x.g1 = k; else if (d == 2 && x.im) x.g2 = k; else if (d == 4 && x.it) x.g4 = k;
                } else if (st == 4 || st == 5) {
                    if (!TVal(x, "s", raw)) return null;
                    st = 6;
                } else return null;
            } else if (m.Groups[3].Success) {
                if (st != 4 && st != 5) return null;
                if (!TVal(x, "l", null)) return null;
                st = 6;
            }
        }
        if (st != 7) return null;
        string text = null;
        if (x.ck == 1) text = x.cs;
        else if (x.ck == 2 && x.parts.Count > 0) text = string.Join(((char)10).ToString(), x.parts.ToArray());
        return new Entry { role = x.role, text = text };
    }

    // hk_tval
    static bool TVal(X x, string k, string raw) {
        int d = x.d;
        if (d == 0) return k == "{";
        if (d == 1) {
            if (x.g1 == "role") {
                x.role = null;
                if (k == "s") x.role = Dec(raw);
            } else if (x.g1 == "message") {
                x.ck = 0; x.im = k == "{";
            }
        } else if (d == 2 && x.im) {
            if (x.g2 == "content") {
                x.ck = 0; x.ic = k == "[";
                if (k == "s") { x.ck = 1; x.cs = Dec(raw); }
                if (k == "[") { x.ck = 2; x.parts = new List<string>(); }
            }
        } else if (d == 3 && x.ic) {
            x.it = k == "{"; x.ty = false; x.tx = null;
        } else if (d == 4 && x.it) {
            if (x.g4 == "type") x.ty = k == "s" && Dec(raw) == "text";
            else if (x.g4 == "text") {
                x.tx = null;
                if (k == "s") x.tx = Dec(raw);
            }
        }
        return true;
    }

    static void Main(string[] args) {
        var opts = RegexOptions.CultureInvariant;
        ttok = new Regex(bytes.GetString(Hex(args[0])), opts);
        esc = new Regex(bytes.GetString(Hex(args[1])), opts);
        var stdout = new StreamWriter(Console.OpenStandardOutput());
        string line;
        while ((line = Console.In.ReadLine()) != null) {
            var sb = new StringBuilder("=");
            foreach (byte b in bytes.GetBytes(LastMsg1(bytes.GetString(Hex(line))))) sb.Append(b.ToString("x2"));
            stdout.WriteLine(sb.ToString());
        }
        stdout.Flush();
    }
}
