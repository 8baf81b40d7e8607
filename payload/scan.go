package payload

import "fmt"

// scanner reads the tokens of RFC 8259 JSON from b at i: white space,
// numbers and strings. The payload decoder and the transcript reader
// (LastAssistantMessage) share it.
type scanner struct {
	b []byte
	i int
}

// peek returns the next byte, or 0 at the end of the input.
func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// space skips JSON white space.
func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? and returns
// "", or what is wrong with it.
func (s *scanner) number() string {
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return "bad number"
	}
	if s.peek() == '.' {
		s.i++
		if s.digits() == 0 {
			return "bad fraction"
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if s.digits() == 0 {
			return "bad exponent"
		}
	}
	return ""
}

// rawString reads a string at its opening quote, checks it, and returns the
// raw text between the quotes (unescape decodes it), or what is wrong.
func (s *scanner) rawString() ([]byte, string) {
	if s.peek() != '"' {
		return nil, "want a string"
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], ""
		case c < 0x20:
			return nil, fmt.Sprintf("control byte 0x%02x in a string", c)
		case c != '\\':
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		switch s.b[s.i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.i += 2
		case 'u':
			if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
				return nil, "bad \\u escape"
			}
			s.i += 6
		default:
			return nil, "bad escape"
		}
	}
	return nil, "unterminated string"
}
