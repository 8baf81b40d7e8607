// table: the C# transliteration of the skeleton's hk_drle and hk_dfa
// (templates/hook.ps1.tmpl), for TestTablesOnDotNet (table_test.go). Each
// stdin line is "LITERAL SUBJECT", both hex-encoded: LITERAL is the
// PowerShell hashtable a generated script assigns to $hk_d<n>
// (powershell.TableLiteral), read here as PowerShell reads its three
// single-quoted strings; the subject bytes become one char each
// (ISO-8859-1), as in the generated scripts. Prints one line per input: 1
// (match), 0 (no match) or "E message".
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

class Table {
    static byte[] Hex(string s) {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    // Field returns the single-quoted string of key in a literal
    // "@{ cs = '…'; ts = '…'; es = '…'; C = $null; T = $null; E = $null }".
    static string Field(string lit, string key) {
        var m = Regex.Match(lit, "(?:^@\\{ |; )" + key + " = '((?:[^']|'')*)'");
        if (!m.Success) throw new Exception("no " + key + " in " + lit);
        return m.Groups[1].Value.Replace("''", "'");
    }

    static List<int> Drle(string s) {
        var a = new List<int>();
        foreach (var x0 in s.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries)) {
            var x = x0;
            int r = 1;
            int p = x.IndexOf('*');
            if (p >= 0) { r = int.Parse(x.Substring(0, p)); x = x.Substring(p + 1); }
            int n = int.Parse(x);
            for (; r > 0; r--) a.Add(n);
        }
        return a;
    }

    static bool Dfa(string lit, string v) {
        var c = new int[256];
        var a = Drle(Field(lit, "cs"));
        for (int i = 1; i < 256; i++) c[i] = a[i - 1];
        a = Drle(Field(lit, "ts"));
        a.Insert(0, 0);
        var t = a.ToArray();
        var e = new bool[t.Length];
        foreach (var s0 in Drle(Field(lit, "es"))) e[s0] = true;
        int s = t[1];
        int n = v.Length;
        for (int i = 0; i < n && s > 0; i++) s = t[s + c[(int)v[i]]];
        return s == 0 || (s > 0 && e[s]);
    }

    static void Main() {
        var latin1 = Encoding.GetEncoding(28591);
        var stdout = new StreamWriter(Console.OpenStandardOutput());
        string line;
        while ((line = Console.In.ReadLine()) != null) {
            var f = line.Split(' ');
            try {
                stdout.WriteLine(Dfa(latin1.GetString(Hex(f[0])), latin1.GetString(Hex(f[1]))) ? "1" : "0");
            } catch (Exception e) {
                stdout.WriteLine("E " + e.Message.Replace('\n', ' '));
            }
        }
        stdout.Flush();
    }
}
