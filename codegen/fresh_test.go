package codegen

import "testing"

// TestFingerprintLineEnds: a rule file checked out with CRLF line ends is
// the file built with LF ones, and any other byte counts.
func TestFingerprintLineEnds(t *testing.T) {
	lf := Fingerprint([]byte("---\nevent: bash\n---\nNo.\n"))
	for _, same := range []string{"---\r\nevent: bash\r\n---\r\nNo.\r\n", "---\nevent: bash\n---\nNo.", "---\r\nevent: bash\n---\r\nNo.\r"} {
		if Fingerprint([]byte(same)) != lf {
			t.Errorf("%q: not the same as with LF line ends", same)
		}
	}
	for _, other := range []string{"---\nevent: bash\n---\nNo!\n", "---\nevent: bash\n---\nNo.\n\n", "---\r\r\nevent: bash\n---\nNo.\n", "---\nevent:bash\n---\nNo.\n", ""} {
		if Fingerprint([]byte(other)) == lf {
			t.Errorf("%q: the same fingerprint as another file", other)
		}
	}
}
