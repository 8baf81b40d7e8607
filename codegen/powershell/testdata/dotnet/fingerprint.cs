// fingerprint: a line-by-line C# transliteration of hk_fp and of hk_live's
// exact check (the files of the folder against the names and fingerprints of
// the build) from templates/hook.ps1.tmpl, run by fresh_test.go on generated
// rule files against codegen.Fingerprint. Keep it in step with the
// template.
//
// Arguments: the folder of the rule files, then name and fingerprint pairs
// of the build. It prints hk_live's list of the files added, changed and
// removed, or nothing when they are as built.
using System;
using System.Collections.Generic;
using System.IO;

class Fingerprint {
    // hk_fp
    static long Fp(byte[] b) {
        if (b.Length == 0) return 0;
        int n = b.Length;
        if (b[n - 1] == 10) n--;
        long h = 0;
        for (int i = 0; i < n; i++) {
            if (b[i] == 13 && (i + 1 == n || b[i + 1] == 10)) continue;
            h = (h * 31 + b[i]) % 2147483647;
        }
        return (h * 31 + 10) % 2147483647;
    }

    static void Main(string[] args) {
        var names = new List<string>();
        var sums = new List<long>();
        for (int i = 1; i + 1 < args.Length; i += 2) { names.Add(args[i]); sums.Add(long.Parse(args[i + 1])); }
        var files = new Dictionary<string, FileInfo>(StringComparer.Ordinal);
        foreach (var f in new DirectoryInfo(args[0]).GetFiles("hookify.*.local.md")) files[f.Name] = f;
        var known = new Dictionary<string, long>(StringComparer.Ordinal);
        for (int i = 0; i < names.Count; i++) known[names[i]] = sums[i];
        var sorted = new List<string>(files.Keys).ToArray();
        Array.Sort(sorted, StringComparer.Ordinal);
        var d = new List<string>();
        foreach (var n in sorted) {
            long s = 0;
            try { s = Fp(File.ReadAllBytes(files[n].FullName)); } catch (Exception) { s = 0; }
            if (!known.ContainsKey(n)) d.Add(n + " (added)");
            else if (known[n] != s) d.Add(n + " (changed)");
        }
        foreach (var n in names) if (!files.ContainsKey(n)) d.Add(n + " (removed)");
        if (d.Count > 0) Console.WriteLine(string.Join(", ", d.ToArray()));
    }
}
