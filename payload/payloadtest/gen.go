package payloadtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Generated is a payload built by Generate, with the keys to ask for.
type Generated struct {
	// Input is the payload, as it would arrive on stdin.
	Input []byte
	// Want lists wanted keys in the awk decoder's W syntax: "name" or
	// "tool_input.name". It may repeat a key.
	Want []string
}

// Generate builds a hostile payload from arbitrary bytes, which it reads as a
// stream of choices (0, the plainest choice, once they run out, so every
// input gives a document).
// Documents mix every kind of value, every escape, surrogates alone and in
// pairs, raw UTF-8, decoy keys inside strings and nested containers,
// duplicate and escaped keys, repeated tool_input objects, what may and
// what may not stand before the object, and random whitespace. About one
// in six is then damaged (cut,
// byte inserted or removed, junk appended), so invalid documents are covered
// too. A seed that starts with 0xFF is used as the payload itself, after
// that byte, with a fixed list of wanted keys.
func Generate(seed []byte) Generated {
	if len(seed) > 0 && seed[0] == 0xFF {
		return Generated{Input: seed[1:], Want: []string{"command", "cwd", "a", "tool_input", "tool_input.file_path", "tool_input.content"}}
	}
	g := &gen{src: seed}
	var want []string
	for n := g.n(5); n > 0; n-- {
		want = append(want, wantPool[g.n(len(wantPool))])
	}
	g.prefix()
	g.top()
	g.ws()
	g.damage()
	return Generated{Input: []byte(g.out.String()), Want: want}
}

var (
	wantPool = []string{
		"command", "cwd", "file_path", "content", "tool_input", "prompt", "a", "x",
		"tool_input.file_path", "tool_input.content", "tool_input.command",
		"tool_input.path", "tool_input.x", "tool_input.tool_input",
		"tool_input.edits[].new_string", "tool_input.edits[].old_string", "tool_input.edits",
	}
	topKeys = []string{
		"command", "tool_input", "cwd", "file_path", "content", "a", "x", "prompt",
		"tool_name", "commands", "Command", "comman", "", "tool_input ", "b",
	}
	toolKeys = []string{
		"file_path", "content", "command", "path", "x", "tool_input", "new_string", "file_paths", "",
		"edits", "edits", "edits[].new_string",
	}
	atoms = []string{
		"a", "ls -la", " ", "'", "''", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
		"$(id)", "`id`", "$HOME", "%s%d", "&", `\\\"`, `\\\\`, `x\\`, `\"\"`,
		"é", "☃", "😀", `\u00e9`, `\u00E9`, `\u2603`, `\ud83d\ude00`, `\uD83D\uDE00`,
		`\ud800`, `\udc00`, `\udbff\udfff`, `\ud83d\u0041`, `\ud83d\\ude00`, `\ude00\ud83d`,
		`\u0027`, `\u005c`, `\u005C\u0022`, `\u0022`, `\u0001`, `\u001f`, `\u007f`, `\u0080`,
		`\uffff`, `\ufffd`, `\u0061`, `\u000a`, `\u0000`, `a\u0000b`, `\u0000\u0001`,
		`\"command\":\"rm -rf /\"`, `{\"tool_input\":{\"file_path\":\"/etc\"}}`,
		"command", "tool_input", ":", ",", "{", "}", "[", "]", "\x7f", "\u2028",
	}
	rareAtoms = []string{"\xff", "\xc3", "\xed\xa0\x80", `\u0000`, "\x01", "\n", "\t", `\x`, `\u12`}
	numbers   = []string{
		"0", "-0", "1", "-1", "12.5", "1e5", "1E-5", "-0.0e+0", "10", "1.5e300",
		"123456789012345678901234567890", "0.000001",
	}
	spaces = []string{"", "", "", "", " ", "\n", "\t", "\r\n  "}
)

type gen struct {
	src []byte
	i   int
	out strings.Builder
}

// n returns the next choice in [0, k).
func (g *gen) n(k int) int {
	if g.i >= len(g.src) {
		return 0
	}
	c := g.src[g.i]
	g.i++
	return int(c) % k
}

func (g *gen) ws() { g.out.WriteString(spaces[g.n(len(spaces))]) }

// prefixes are what may stand before the '{' (white space, byte order
// marks, Cursor's "n++" framing) and what may not.
var prefixes = []string{
	"\xef\xbb\xbf", "\xef\xbb\xbf\xef\xbb\xbf", "\xff\xfe", "\xfe\xff", "n++", " \r\n\t", "\xef\xbb\xbfn++\n",
	"junk \"]}[ \xff\r\n\t", "n+", "n++x", "\xef\xbb", "\xc3\xa9", "*** Begin Patch\n", "\x00",
}

func (g *gen) prefix() {
	if g.n(3) == 2 {
		for n := 1 + g.n(3); n > 0; n-- {
			g.out.WriteString(prefixes[g.n(len(prefixes))])
		}
	}
}

func (g *gen) top() {
	g.out.WriteString("{")
	for i, n := 0, 1+g.n(6); i < n; i++ {
		if i > 0 {
			g.ws()
			g.out.WriteString(",")
		}
		g.ws()
		k := topKeys[g.n(len(topKeys))]
		g.key(k)
		g.ws()
		g.out.WriteString(":")
		g.ws()
		switch {
		case k != "tool_input":
			g.value(1)
		case g.n(4) == 3:
			g.value(1)
		case g.n(2) == 1:
			g.toolString()
		default:
			g.object(toolKeys, 1)
		}
	}
	g.ws()
	g.out.WriteString("}")
}

// toolString writes a tool_input that is a string holding an object, as
// beforeMCPExecution sends it (docs/mcp.md): usually a valid one, sometimes
// with junk or a BOM before it, data after it, or damage.
func (g *gen) toolString() {
	outer := g.out.String()
	g.out.Reset()
	g.out.WriteString([]string{"", "", "", "", "", " \n", "\xef\xbb\xbf", "x"}[g.n(8)])
	g.object(toolKeys, 1)
	g.ws()
	g.out.WriteString([]string{"", "", "", "", "", "", "}", "x", "{}"}[g.n(9)])
	g.damage()
	inner := g.out.String()
	g.out.Reset()
	g.out.WriteString(outer)
	g.out.WriteString(`"`)
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c == '"' || c == '\\':
			g.out.WriteString(`\` + string(c))
		case c == '\n':
			g.out.WriteString(`\n`)
		case c < 0x20 || c < 0x80 && g.n(16) == 15:
			fmt.Fprintf(&g.out, `\u%04x`, c)
		case g.n(128) == 127:
			// A raw NUL in the text (read as 01): not one JSON object.
			g.out.WriteString(`\u0000`)
			g.out.WriteByte(c)
		default:
			g.out.WriteByte(c)
		}
	}
	g.out.WriteString(`"`)
}

// key writes a key, sometimes with escapes that spell the same text, or
// with a \u0000 in it (read as 01: another key).
func (g *gen) key(k string) {
	switch g.n(13) {
	case 12:
		i := g.n(len(k) + 1)
		k = k[:i] + `\u0000` + k[i:]
	case 8:
		if k != "" {
			i := g.n(len(k))
			k = k[:i] + fmt.Sprintf(`\u%04X`, k[i]) + k[i+1:]
		}
	case 9:
		if k != "" {
			k = fmt.Sprintf(`\u%04x`, k[0]) + k[1:]
		}
	case 10:
		k += `\"`
	case 11:
		k = `\\` + k
	}
	g.out.WriteString(`"` + k + `"`)
}

func (g *gen) object(keys []string, depth int) {
	g.out.WriteString("{")
	for i, n := 0, g.n(5); i < n; i++ {
		if i > 0 {
			g.ws()
			g.out.WriteString(",")
		}
		g.ws()
		k := keys[g.n(len(keys))]
		g.key(k)
		g.ws()
		g.out.WriteString(":")
		g.ws()
		if k == "edits" && g.n(3) != 2 {
			g.edits(depth + 1)
			continue
		}
		g.value(depth + 1)
	}
	g.ws()
	g.out.WriteString("}")
}

// edits writes a MultiEdit edits array: objects with new_string and
// old_string (sometimes twice, null, a number or a container), and other
// values as items.
func (g *gen) edits(depth int) {
	g.out.WriteString("[")
	for i, n := 0, g.n(5); i < n; i++ {
		if i > 0 {
			g.out.WriteString(",")
		}
		g.ws()
		if g.n(6) == 5 {
			g.value(depth + 1)
			continue
		}
		g.out.WriteString("{")
		for j, m := 0, g.n(4); j < m; j++ {
			if j > 0 {
				g.out.WriteString(",")
			}
			g.key([]string{"new_string", "old_string", "new_string", "old_string", "x", "replace_all"}[g.n(6)])
			g.out.WriteString(":")
			g.value(depth + 2)
		}
		g.out.WriteString("}")
	}
	g.ws()
	g.out.WriteString("]")
}

func (g *gen) value(depth int) {
	if g.n(40) == 39 {
		g.bulk()
		return
	}
	kind := g.n(10)
	if depth > 4 && kind >= 8 {
		kind = 0
	}
	switch kind {
	case 0, 1, 2, 3, 4:
		g.str()
	case 5:
		g.out.WriteString(numbers[g.n(len(numbers))])
	case 6:
		g.out.WriteString([]string{"true", "false", "null"}[g.n(3)])
	case 7:
		g.out.WriteString([]string{"{}", "[]", `[""]`, `{"":{}}`}[g.n(4)])
	case 8:
		g.object(topKeys, depth)
	case 9:
		g.out.WriteString("[")
		for i, n := 0, g.n(4); i < n; i++ {
			if i > 0 {
				g.out.WriteString(",")
			}
			g.ws()
			g.value(depth + 1)
		}
		g.ws()
		g.out.WriteString("]")
	}
}

func (g *gen) str() {
	g.out.WriteString(`"`)
	for n := g.n(8); n > 0; n-- {
		var a string
		switch c := g.n(32); {
		case c == 31:
			a = rareAtoms[g.n(len(rareAtoms))]
		case c == 30:
			a = fmt.Sprintf(`\u%02x%02x`, g.n(256), g.n(256))
		default:
			a = atoms[g.n(len(atoms))]
		}
		if g.n(24) == 23 {
			a = strings.Repeat(a, 300)
		}
		g.out.WriteString(a)
	}
	g.out.WriteString(`"`)
}

// bulkItems are the items of a bulk container: tiny tokens, small
// containers, decoy keys, escapes, and now and then a string over 4 KB.
var bulkItems = []string{
	"1", `""`, `"a"`, "[]", "{}", "true", "false", "null", "-0.5e3", "[1,2]", `{"k":1}`,
	`{"command":"rm -rf /"}`, `"\u00e9"`, `"\\"`, `"x\"y"`, "[[[]]]", `{"a":{"b":[]}}`, `[{"":""},[]]`,
	`{"tool_input":{"file_path":".env"}}`, `"é"`, "0", `"\\\""`,
}

// bulk writes, on one line, an array or an object of hundreds to thousands
// of items (bulkItems, by a generator seeded from two choices), the shape
// that decode.awk skims in chunks (dec_long, dec_skim): a million of them
// cost busybox awk 10 s when each went through the state machine.
func (g *gen) bulk() {
	g.out.WriteString(Bulk(uint64(g.n(256)), uint64(g.n(256))))
}

// Bulk is a bulk container (see Generate) built from the seeds a and b.
func Bulk(a, b uint64) string {
	var out strings.Builder
	r := rand.New(rand.NewPCG(a, b))
	obj := r.IntN(3) == 0
	open, end := "[", "]"
	if obj {
		open, end = "{", "}"
	}
	out.WriteString(open)
	for i, n := 0, 200+r.IntN(3000); i < n; i++ {
		if i > 0 {
			out.WriteString([]string{",", ",", ", ", " ,", "\t,\t"}[r.IntN(5)])
		}
		if obj {
			out.WriteString(`"k` + strconv.Itoa(r.IntN(50)) + `":`)
		}
		switch r.IntN(200) {
		case 0:
			out.WriteString(`"` + strings.Repeat("s", 4000+r.IntN(2000)) + `"`)
		case 1:
			out.WriteString(`"` + strings.Repeat(`\"`, 2000+r.IntN(500)) + `"`)
		default:
			out.WriteString(bulkItems[r.IntN(len(bulkItems))])
		}
	}
	out.WriteString(end)
	return out.String()
}

// damage sometimes breaks the document.
func (g *gen) damage() {
	if g.n(6) != 5 || g.out.Len() == 0 {
		return
	}
	s := g.out.String()
	pos := (g.n(256)<<8 | g.n(256)) % len(s)
	switch g.n(5) {
	case 0:
		s = s[:pos]
	case 1:
		const bytes = ",:}]\"\\0x{[ \x01\n"
		s = s[:pos] + bytes[g.n(len(bytes)):][:1] + s[pos:]
	case 2:
		s = s[:pos] + s[pos+1:]
	case 3:
		s += []string{"x", "}", ",", "{}", "\x0b", "\xef\xbb\xbf"}[g.n(6)]
	case 4:
		s = s[:pos] + s[pos:pos+1] + s[pos:]
	}
	g.out.Reset()
	g.out.WriteString(s)
}

// GeneratePatch builds, from arbitrary bytes read as choices like Generate,
// a payload that carries ApplyPatch text (README, "Payload fields"): in
// tool_input.patch or tool_input.diff, as a string tool_input, or as the
// whole payload; several files added, updated (with and without a move)
// and deleted, CRLF line ends, lines that look like headers, header lines
// indented or padded with white space in every position (README, "Payload
// fields"), and now and then a line or a place the format does not allow. Want names the keys a
// patch view sets, and tool_name.
func GeneratePatch(seed []byte) Generated {
	g := &gen{src: seed}
	var b strings.Builder
	nl := "\n"
	if g.n(5) == 0 {
		nl = "\r\n"
	}
	line := func(s string) { b.WriteString(s + nl) }
	// head writes a header line, often indented or padded with white
	// space (Unicode's too), which codex's parser trims where a file
	// section may start, and reads as context inside an update.
	pads := []string{"", "", "", "", " ", "\t", "\u00a0", "\u3000", " \t", "\v", "\u2028", "\u0085"}
	head := func(s string) {
		switch g.n(3) {
		case 0:
			s = pads[g.n(len(pads))] + s
		case 1:
			s = pads[g.n(len(pads))] + s + pads[g.n(len(pads))]
		}
		line(s)
	}
	if g.n(6) == 0 {
		line([]string{"", " ", "\u00a0"}[g.n(3)])
	}
	head([]string{"*** Begin Patch", "*** Begin Patch", "*** Begin Patch", "*** Begin Patch ", "*** begin patch"}[g.n(5)])
	paths := []string{".env", "src/a.go", "a b/c.txt", "é/ü.md", "x", "", "dir/", "*** x", "+y", ".env\r", ".env \t\v\f", " ", ".env\u00a0", "x\u3000\u2028 \u0085", "\u00a0"}
	text := []string{"", "A=1", "console.log(x)", "+plus", "-minus", " space", "***", "@@", "*** End Patch", "é ✅", "\t", "tail "}
	for n := g.n(4); n >= 0; n-- {
		switch g.n(4) {
		case 0, 1:
			head("*** Add File: " + paths[g.n(len(paths))])
			for k := g.n(4); k > 0; k-- {
				line("+" + text[g.n(len(text))])
			}
		case 2:
			head("*** Update File: " + paths[g.n(len(paths))])
			if g.n(3) == 0 {
				head("*** Move to: " + paths[g.n(len(paths))])
			}
			for k := g.n(6); k > 0; k-- {
				line([]string{"@@", "@@ func x", " ", "-", "+", "", "*** End of File"}[g.n(7)] + text[g.n(len(text))])
			}
		case 3:
			head("*** Delete File: " + paths[g.n(len(paths))])
		}
		if g.n(12) == 0 {
			line([]string{"*** Move to: z", "junk", "*** Unknown File: q", "+stray", " *** Move to: z", "\t*** End of File"}[g.n(6)])
		}
	}
	if g.n(6) != 0 {
		head("*** End Patch")
	}
	if g.n(8) == 0 {
		line([]string{"", "after", "  ", "\u00a0\t"}[g.n(4)])
	}
	patch := b.String()
	if g.n(6) == 0 {
		patch = strings.TrimSuffix(patch, nl)
	}
	want := []string{"tool_name", "tool_input.file_path", "tool_input.path", "tool_input.content", "tool_input.contents", "tool_input.new_string", "tool_input.old_string"}
	q, _ := json.Marshal(patch)
	var in string
	switch g.n(5) {
	case 0:
		in = []string{"", "\xef\xbb\xbf", "n++", " \r\n"}[g.n(4)] + patch
	case 1:
		in = `{"tool_name":"ApplyPatch","tool_input":` + string(q) + `}`
	case 2:
		in = `{"tool_name":"ApplyPatch","tool_input":{"path":"decoy.txt","diff":` + string(q) + `}}`
	default:
		in = `{"tool_name":"ApplyPatch","tool_input":{"patch":` + string(q) + `,"file_path":"/p/base.txt","content":"base"}}`
	}
	return Generated{Input: []byte(in), Want: want}
}
