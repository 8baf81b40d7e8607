// combine: a line-by-line C# transliteration of hk_cut, hk_join and the way
// hk_rules combines the answers of the scripts it ran, from
// templates/hook.ps1.tmpl, run by rerun_test.go on generated answers against
// tablerules.Combined. Keep it in step with the template.
//
// Input (stdin, UTF-8, one item a line): the pieces of the event's block
// answer (3 lines) and of its warn answer (3 lines), their exit codes (2
// lines), then for each script its exit code and its stdout without the
// final newline (empty for nothing). Output: the answer as hk_say prints it,
// or "EXIT n" when it exits n with nothing, or "ALLOW" when hk_rules returns.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

class Combine {
    // hk_cut
    static string[] Cut(string a, string[] p) {
        if (p[0] == "" || !a.StartsWith(p[0], StringComparison.Ordinal)) return null;
        string r = a.Substring(p[0].Length);
        string last = p[2];
        if (last == "") last = p[1];
        if (r.Length < last.Length || !r.EndsWith(last, StringComparison.Ordinal)) return null;
        r = r.Substring(0, r.Length - last.Length);
        if (p[2] == "") return new string[] { r, "" };
        int i = r.IndexOf(p[1], StringComparison.Ordinal);
        if (i < 0) return null;
        return new string[] { r.Substring(0, i), r.Substring(i + p[1].Length) };
    }

    // hk_join
    static string Join(string[] p, List<string[]> ms) {
        var u = new List<string>();
        var g = new List<string>();
        foreach (var m in ms) { u.Add(m[0]); g.Add(m[1]); }
        if (p[2] == "") return p[0] + string.Join("\\n\\n", u.ToArray()) + p[1];
        return p[0] + string.Join("\\n\\n", u.ToArray()) + p[1] + string.Join("\\n\\n", g.ToArray()) + p[2];
    }

    static void Say(string text) {
        var b = new UTF8Encoding(false).GetBytes(text);
        var o = Console.OpenStandardOutput();
        o.Write(b, 0, b.Length);
        o.Flush();
    }

    static void Main() {
        var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var lines = new List<string>();
        string line;
        while ((line = input.ReadLine()) != null) lines.Add(line);
        string[] B = { lines[0], lines[1], lines[2] };
        string[] W = { lines[3], lines[4], lines[5] };
        int BX = int.Parse(lines[6]), WX = int.Parse(lines[7]);
        // hk_rules, from the loop over the scripts it ran.
        var bs = new List<string[]>();
        var ws = new List<string[]>();
        int fail = 0;
        for (int k = 8; k + 1 < lines.Count; k += 2) {
            int exitCode = int.Parse(lines[k]);
            string a = lines[k + 1].TrimEnd('\r', '\n');
            if (a == "") {
                if (exitCode > fail) fail = exitCode;
                continue;
            }
            var m = Cut(a, B);
            if (m != null) { bs.Add(m); continue; }
            m = Cut(a, W);
            if (m != null) ws.Add(m);
        }
        if (bs.Count > 0) { Say(Join(B, bs) + "\n"); Say("EXIT " + BX + "\n"); return; }
        if (fail != 0) { Say("EXIT " + fail + "\n"); return; }
        if (ws.Count > 0) { Say(Join(W, ws) + "\n"); Say("EXIT " + WX + "\n"); return; }
        Say("ALLOW\n");
    }
}
