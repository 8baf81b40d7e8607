package bash

import "testing"

// TestIdentifyAwk reads the version output of each awk the hooks may meet
// (docs/awk-engines.md §1, §9): the first lines the installed awks print
// for AwkVersionArgs, and those of versions that cannot be run here, as
// their sources print them.
func TestIdentifyAwk(t *testing.T) {
	for _, c := range []struct {
		out, goos            string
		kind, ver            string
		supported, intervals bool
	}{
		// Installed here (Debian 12).
		{"mawk: not an option: --version\nmawk 1.3.4 20200120\nCopyright 2008-2019,2020, Thomas E. Dickey\n", "linux", "mawk", "1.3.4 20200120", true, false},
		{"GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)\n", "linux", "gawk", "5.2.1", true, true},
		{"awk version 20220912\n", "linux", "BWK awk", "20220912", true, true},
		{"awk: unrecognized option '--version'\nBusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) multi-call binary.\n", "linux", "busybox awk", "1.35.0", true, true},
		// Elsewhere.
		{"mawk 1.3.4 20240123\n", "linux", "mawk", "1.3.4 20240123", true, true},
		{"mawk 1.3.4 20200717\n", "linux", "mawk", "1.3.4 20200717", true, false},
		{"mawk 1.3.4 20200724\n", "linux", "mawk", "1.3.4 20200724", true, true},
		{"mawk 1.3.4 20200106\n", "linux", "mawk", "1.3.4 20200106", false, false},
		{"mawk 1.3.3 Nov 1996, Copyright (C) Michael D. Brennan\n", "linux", "mawk", "1.3.3", false, false},
		{"GNU Awk 4.0.2\n", "linux", "gawk", "4.0.2", true, true},
		{"GNU Awk 3.1.8\n", "linux", "gawk", "3.1.8", false, false},
		{"awk version 20200816\n", "darwin", "BWK awk", "20200816", true, true},
		{"awk version 20070501\n", "darwin", "BWK awk", "20070501", true, true},
		{"awk version 20040207\n", "darwin", "BWK awk", "20040207", false, false},
		{"awk version 20070501\n", "linux", "BWK awk", "20070501", false, false},
		{"awk version 20121220\n", "freebsd", "BWK awk", "20121220", false, false},
		{"awk version 20190305\n", "linux", "BWK awk", "20190305", true, true},
		{"awk version 20230909\n", "linux", "BWK awk", "20230909", false, false},
		{"awk version 20231030\n", "linux", "BWK awk", "20231030", true, true},
		{"awk version 20240728\n", "darwin", "BWK awk", "20240728", true, true},
		{"BusyBox v1.36.1 (2023-11-07 18:53:09 UTC) multi-call binary.\n", "linux", "busybox awk", "1.36.1", true, true},
		{"BusyBox v1.30.1 (Ubuntu 1:1.30.1-7ubuntu3) multi-call binary.\n", "linux", "busybox awk", "1.30.1", false, false},
		// Unknown.
		{"usage: nawk [-F fs][-v var=value][prog | -f progfile][file ...]\n", "linux", "", "", false, false},
		{"", "linux", "", "", false, false},
	} {
		got := IdentifyAwk(c.out, c.goos)
		if got.Kind != c.kind || got.Version != c.ver || (got.Kind != "" && (got.Problem == "") != c.supported) || got.Intervals != c.intervals {
			t.Errorf("IdentifyAwk(%q, %s) = %+v, want %s %s (supported: %v, intervals: %v)", c.out, c.goos, got, c.kind, c.ver, c.supported, c.intervals)
		}
		if got.Kind != "" && got.Min == "" {
			t.Errorf("IdentifyAwk(%q, %s) names no minimum version", c.out, c.goos)
		}
	}
}
