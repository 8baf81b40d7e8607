// match: the .NET side of the differential regex test (dotnet_test.go).
// Each stdin line is "PATTERN SUBJECT", both hex-encoded; the subject bytes
// become one char each (ISO-8859-1), as in the generated scripts. Prints
// one line per input: 1 (match), 0 (no match) or "E message".
using System;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

class Match {
    static byte[] Hex(string s) {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    static void Main() {
        var latin1 = Encoding.GetEncoding(28591);
        var stdout = new StreamWriter(Console.OpenStandardOutput());
        string line;
        while ((line = Console.In.ReadLine()) != null) {
            var f = line.Split(' ');
            try {
                var re = new Regex(latin1.GetString(Hex(f[0])), RegexOptions.CultureInvariant, TimeSpan.FromSeconds(10));
                stdout.WriteLine(re.IsMatch(latin1.GetString(Hex(f[1]))) ? "1" : "0");
            } catch (Exception e) {
                stdout.WriteLine("E " + e.Message.Replace('\n', ' '));
            }
        }
        stdout.Flush();
    }
}
