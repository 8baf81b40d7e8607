// words: the C# transliteration of the skeleton's hk_uinit, hk_uch, hk_uone
// and hk_uw (templates/hook.ps1.tmpl), for TestWordsOnDotNet
// (words_test.go). The first stdin line is the table of kinds
// (pyre.WordTable, $hk_wtab); each further line is "WORDS VALUE", both
// hex-encoded: the words of a regex (the s of a $hk_u<n> hashtable) and a
// value, whose bytes become one char each (ISO-8859-1), as in the
// generated scripts. Prints the rewritten value, hex-encoded, one line per
// input line.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

class Words {
    static string[] ub, uo;
    static int ux = -1;
    static Regex run = new Regex("[\\x80-\\xFF]+", RegexOptions.CultureInvariant);
    static char[] high = new char[128];

    class U {
        public string s;
        public Dictionary<string, string> K;
        public List<int[]> N;
        public string V, O;
    }

    static string Hex(string s) {
        var b = new StringBuilder();
        foreach (char c in s) b.Append(((int)c).ToString("x2"));
        return b.ToString();
    }

    static string Unhex(string s) {
        var b = new StringBuilder();
        for (int i = 0; i + 1 < s.Length; i += 2) b.Append((char)Convert.ToByte(s.Substring(i, 2), 16));
        return b.ToString();
    }

    static void Init(U u, string wtab) {
        if (ub == null) ub = wtab.Split(';');
        u.K = new Dictionary<string, string>(StringComparer.Ordinal);
        u.N = new List<int[]>();
        foreach (var x in u.s.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries)) {
            if (x == "unicode") continue;
            var p = x.Split(new[] { '-', '/' });
            u.N.Add(new[] { int.Parse(p[0]), int.Parse(p[1]), int.Parse(p[2]) });
        }
    }

    static string Ch(U u, string ch, int b, int l) {
        int cp = b - (l == 2 ? 192 : l == 3 ? 224 : 240);
        for (int i = 1; i < l; i++) {
            int x = ch[i];
            if (x < 128 || x > 191) return null;
            cp = cp * 64 + x - 128;
        }
        if ((l == 2 && cp < 128) || (l == 3 && (cp < 2048 || (cp >= 55296 && cp < 57344))) || (l == 4 && (cp < 65536 || cp > 1114111))) return null;
        int bx = (int)Math.Floor(cp / 4096.0);
        if (bx != ux) { uo = ub[bx].Split(' '); ux = bx; }
        var o = uo;
        int off = cp - bx * 4096;
        int lo = 0, hi = o.Length - 1;
        while (lo < hi) { int m = (int)Math.Floor((lo + hi + 1) / 2.0); if (int.Parse(o[m]) <= off) lo = m; else hi = m - 1; }
        int k = o[0][lo] - '0';
        if (k == 0) return ch;
        foreach (var r in u.N) {
            if (r[0] <= cp && cp <= r[1]) {
                if (r[2] != 0) return ((char)r[2]).ToString();
                return ch + (char)0xFA;
            }
        }
        if (k == 2) return ((char)0xF9).ToString();
        return ((char)0xF8).ToString();
    }

    static string One(U u, string r) {
        var o = new StringBuilder();
        int i = 0;
        while (i < r.Length) {
            int b = r[i];
            int l = b >= 240 ? 4 : b >= 224 ? 3 : b >= 192 ? 2 : 1;
            string w = null;
            if (l > 1 && b < 245 && i + l <= r.Length) {
                var ch = r.Substring(i, l);
                if (!u.K.TryGetValue(ch, out w)) { w = Ch(u, ch, b, l); u.K[ch] = w; }
            }
            if (w == null) { o.Append(r[i]); i++; } else { o.Append(w); i += l; }
        }
        return o.ToString();
    }

    static string Uw(U u, string v, string wtab) {
        if (v.IndexOfAny(high) < 0) return v;
        if (u.K == null) Init(u, wtab);
        if (u.V != null && string.Equals(u.V, v, StringComparison.Ordinal)) return u.O;
        u.O = run.Replace(v, m => One(u, m.Value));
        u.V = v;
        return u.O;
    }

    static void Main() {
        for (int i = 0; i < 128; i++) high[i] = (char)(128 + i);
        var stdin = new StreamReader(Console.OpenStandardInput(), Encoding.ASCII);
        string wtab = stdin.ReadLine();
        var us = new Dictionary<string, U>();
        string line;
        while ((line = stdin.ReadLine()) != null) {
            var f = line.Split(' ');
            var s = Unhex(f[0]);
            U u;
            if (!us.TryGetValue(s, out u)) { u = new U { s = s }; us[s] = u; }
            Console.WriteLine(Hex(Uw(u, f.Length > 1 ? Unhex(f[1]) : "", wtab)));
        }
    }
}
