package tablerules

import "math/rand/v2"

// RandomFile is generated rule-file content: empty, a lone newline, text
// with CR LF, UTF-8 and bytes up to 255 (NUL aside: BWK and busybox awk
// cannot hold it), with or without a final newline, up to a few KB.
func RandomFile(r *rand.Rand) []byte {
	switch r.IntN(8) {
	case 0:
		return nil
	case 1:
		return []byte("\n")
	}
	n := r.IntN(3000)
	b := make([]byte, n)
	for i := range b {
		switch r.IntN(6) {
		case 0:
			b[i] = '\n'
		case 1:
			b[i] = byte(1 + r.IntN(255))
		default:
			b[i] = byte(' ' + r.IntN(95))
		}
	}
	if r.IntN(2) == 0 {
		b = append(b, '\n')
	}
	if r.IntN(4) == 0 {
		b = append(b, "\r\n\r\n\n\n"...)
	}
	return b
}
