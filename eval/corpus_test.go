package eval

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/eval/internal/pyoracle"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/payload/payloadtest"
	"github.com/hookify/hookify/pyre"
)

var perHook = flag.Int("payloads", 12, "payloads generated per hook in the differential test")

// TestDifferential runs the generated scripts of synthetic rules over
// regex edge cases and every event (see differential). Each rule is built
// alone with --layout per-rule, so that a rule on several events gets one
// script that takes the event as its argument (the corpus tests build the
// default layout).
func TestDifferential(t *testing.T) {
	synth := synthetic()
	var projects []*project
	warns := []ir.WarnMode{ir.WarnContext, ir.WarnAsk, ir.WarnAllow}
	for i, name := range slices.Sorted(maps.Keys(synth)) {
		// Every --warn mode, in turn: a warn rule on a shell command or an
		// MCP tool speaks on postToolUse, asks, or allows on its gate.
		if p := compileProject(t, synth, "synthetic "+name, []string{name}, ir.PerRule, warns[i%len(warns)]); p != nil {
			projects = append(projects, p)
		}
	}
	if len(projects) != len(synth) {
		t.Errorf("%d of %d synthetic rules compile", len(projects), len(synth))
	}
	pairs := differential(t, projects)
	t.Logf("%d synthetic rules; %d rule x payload pairs", len(synth), pairs)
}

// TestDifferentialCorpus does the same for every corpus rule that compiles,
// alone and all together. It skips without the corpus.
func TestDifferentialCorpus(t *testing.T) {
	dir := testenv.CorpusDir(t)
	corpus := os.DirFS(dir)
	var projects []*project
	var together []string
	skipped := 0
	for _, f := range testenv.CorpusRules(t) {
		name := filepath.Base(f)
		p := compileProject(t, corpus, name, []string{name}, ir.PerEvent, ir.WarnContext)
		if p == nil {
			skipped++
			continue
		}
		projects = append(projects, p)
		together = append(together, name)
	}
	if len(projects) == 0 {
		t.Fatal("no corpus rule compiles")
	}
	single := len(projects)
	if p := compileProject(t, corpus, "corpus (all together)", together, ir.PerEvent, ir.WarnContext); p != nil {
		projects = append(projects, p)
	} else {
		t.Error("the corpus rules that compile alone do not compile together")
	}
	pairs := differential(t, projects)
	t.Logf("%d corpus rules compile (%d do not); %d rule x payload pairs, with the whole corpus together", single, skipped, pairs)
}

// differential runs the generated scripts of the projects on payloads
// generated for each hook, with each awk, and compares every answer and
// exit code with the evaluator's. It returns the number of rule x payload
// pairs (per awk).
func differential(t *testing.T, projects []*project) int {
	samples := regexSamples(t, projects)
	r := rand.New(rand.NewPCG(4, 2))
	for _, p := range projects {
		p.fixtures = generate(t, p, samples, r, *perHook)
	}
	transcript := filepath.Join(t.TempDir(), "env-transcript.jsonl")
	if err := os.WriteFile(transcript, []byte(`{"role":"user","text":"npm test and go test passed"}`), 0o644); err != nil {
		t.Fatal(err)
	}

	runAwks := testenv.Awks
	if testing.Short() {
		runAwks = runAwks[:1]
	}
	sh := testenv.LookPath(t, "sh")
	pairs, runs := 0, 0
	outcomes := map[ir.Outcome]int{}
	for i, awk := range runAwks {
		dir := testenv.AwkDir(t, awk)
		iv := hasIntervals(t, dir)
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for _, p := range projects {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				p.ran = runScripts(t, p, sh, dir, transcript)
			}()
		}
		wg.Wait()
		for _, p := range projects {
			env := Env{Warn: p.warn, ReadFile: p.readFile, Getenv: func(k string) string {
				if k == ir.TranscriptEnv {
					return transcript
				}
				return ""
			}}
			for j, fx := range p.fixtures {
				want := Hook(fx.hook, fx.raw, env)
				if !iv && needsIntervals(p.plan, fx.hook) {
					// The hook's program fails as on an unreadable
					// payload (TestIntervalFallback).
					want = Hook(fx.hook, []byte("not JSON"), env)
				}
				for _, prob := range want.Problems {
					t.Errorf("%s: the evaluator cannot run %s", p.name, prob)
				}
				got := p.ran[j]
				runs++
				if i == 0 {
					outcomes[want.Outcome]++
					pairs++
				}
				if got.err != "" || !bytes.Equal(got.out, want.Answer) || got.code != want.Exit {
					t.Errorf("%s with %s, %s payload %s:\nscript: %q exit %d %s\nevaluator: %q exit %d",
						p.name, awk, fx.hook.Event, strconv.Quote(string(fx.raw)), got.out, got.code, got.err, want.Answer, want.Exit)
				}
			}
		}
	}
	t.Logf("%d script runs over %d awks; evaluator outcomes: %d none, %d warn, %d block, %d fail",
		runs, len(runAwks), outcomes[ir.None], outcomes[ir.Warned], outcomes[ir.Blocked], outcomes[ir.Failed])
	return pairs
}

// project is a compiled rule set written to a temporary project root.
type project struct {
	name     string
	root     string
	plan     *ir.Cursor
	warn     ir.WarnMode // the build's --warn
	fixtures []fixture
	ran      []ran
}

// fixture is one payload for one hook.
type fixture struct {
	hook   *ir.Hook
	script string // command, relative to the root
	arg    string // the script's argument: the event, in a multi-hook script
	raw    []byte
}

type ran struct {
	out  []byte
	code int
	err  string
}

func compileProject(t *testing.T, fsys fs.FS, name string, inputs []string, layout ir.Layout, warn ir.WarnMode) *project {
	res := compiler.Compile(fsys, compiler.Options{Inputs: inputs, Layout: layout, Warn: warn})
	if res.Diags.HasErrors() || res.Cursor == nil || len(res.Cursor.Units) == 0 {
		return nil
	}
	p := &project{name: name, root: t.TempDir(), plan: res.Cursor, warn: warn}
	for _, f := range res.Files {
		writeFile(t, filepath.Join(p.root, f.Path), f)
	}
	// The rule files too, as in a project: the hooks check that they are
	// the ones they were built from (docs/live-rules.md).
	rules, _ := fs.Glob(fsys, ".claude/hookify.*.local.md")
	for _, src := range rules {
		data, err := fs.ReadFile(fsys, src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(p.root, src), codegen.File{Path: src, Data: data, Mode: 0o644})
	}
	return p
}

func writeFile(t *testing.T, path string, f codegen.File) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f.Data, os.FileMode(f.Mode)); err != nil {
		t.Fatal(err)
	}
}

// readFile is the hook's view of files: relative to the project root,
// regular and readable only.
func (p *project) readFile(name string) ([]byte, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(p.root, name)
	}
	return readRegular(name)
}

// driver runs many payloads through the scripts from one sh process, as
// Cursor runs a hook: the script with its argument, from the project root,
// with the payload on stdin. Lines of the manifest: script, argument ("-"
// for none), payload file, output file.
const driver = `cd "$1" || exit 1
while IFS=' ' read -r hkd_script hkd_arg hkd_in hkd_out; do
  if [ "$hkd_arg" = - ]; then set --; else set -- "$hkd_arg"; fi
  "./$hkd_script" "$@" < "$hkd_in" > "$hkd_out" 2>/dev/null
  printf '%s\n' "$?" > "$hkd_out.code"
done < "$2"
`

func runScripts(t *testing.T, p *project, sh, awk, transcript string) []ran {
	work := t.TempDir()
	var manifest strings.Builder
	for i, fx := range p.fixtures {
		in := filepath.Join(work, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(in, fx.raw, 0o644); err != nil {
			t.Error(err)
			return nil
		}
		arg := fx.arg
		if arg == "" {
			arg = "-"
		}
		fmt.Fprintf(&manifest, "%s %s %s %s\n", fx.script, arg, in, in+".out")
	}
	mf := filepath.Join(work, "manifest")
	os.WriteFile(mf, []byte(manifest.String()), 0o644)
	cmd := testenv.Command(t, sh, "-c", driver, "driver", p.root, mf)
	cmd.Env = []string{"PATH=" + awk, "HOME=" + work, ir.TranscriptEnv + "=" + transcript}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: driver: %v\n%s", p.name, err, out)
		return make([]ran, len(p.fixtures))
	}
	out := make([]ran, len(p.fixtures))
	for i := range p.fixtures {
		in := filepath.Join(work, fmt.Sprintf("%d.json", i))
		o, err := os.ReadFile(in + ".out")
		c, err2 := os.ReadFile(in + ".out.code")
		if err != nil || err2 != nil {
			out[i].err = "(not run)"
			continue
		}
		out[i].out = o
		out[i].code, _ = strconv.Atoi(strings.TrimSpace(string(c)))
	}
	return out
}

// regexSamples asks Python for strings generated from every regex of the
// projects: pattern → samples with Python's verdicts. Where the script looks
// for a needle before the regex, strings built around the needle (in other
// case, glued to ASCII and non-ASCII word characters, on a line of its own)
// go to Python too, so that values holding the needle without a match are
// among the samples.
func regexSamples(t *testing.T, projects []*project) map[string][]sample {
	var pats []string
	needles := map[string]string{}
	for _, p := range projects {
		for _, u := range p.plan.Units {
			for _, h := range u.Hooks {
				for _, c := range h.Checks {
					for _, cd := range c.AllConds() {
						if cd.Op.IsRegex() && !slices.Contains(pats, cd.Pattern) {
							pats = append(pats, cd.Pattern)
							if cd.Needle != "" {
								needles[cd.Pattern], _ = pyre.Needle(cd.ERE)
							}
						}
					}
				}
			}
		}
	}
	var reqs []pyoracle.Request
	for i, p := range pats {
		req := pyoracle.Request{Pattern: p, Samples: 16, Seed: i + 7}
		if n := needles[p]; n != "" && utf8.ValidString(n) {
			up := strings.ToUpper(n[:1]) + n[1:]
			req.Subjects = []string{n, up, "x" + n + "x", "_" + n, n + "9", " " + n + " ", "\n" + n + "\n", "a" + up + "z",
				// Glued to characters that are word characters or digits
				// only in Unicode (\w \d \b read them as Python does), and
				// to a connector and a combining mark that are not.
				"é" + n, n + "ß", "中" + n + "中", "٣" + n + "٣", "Ⅻ" + n, n + "\u0308", "‿" + n + "‿"}
		}
		reqs = append(reqs, req)
	}
	out := map[string][]sample{}
	for i, a := range pyoracle.Ask(t, reqs) {
		subjects := append(a.Samples, reqs[i].Subjects...)
		for j, s := range subjects {
			out[pats[i]] = append(out[pats[i]], sample{s, a.Matches[j]})
		}
	}
	return out
}

type sample struct {
	s     string
	match bool
}

// candidates returns values that make c true (want) or false.
func candidates(c *ir.Condition, want bool, samples map[string][]sample, r *rand.Rand) []string {
	var out []string
	p := c.Pattern
	switch c.Op {
	case ir.RegexMatch, ir.NotRegexMatch:
		for _, s := range samples[p] {
			if s.match == (want == (c.Op == ir.RegexMatch)) {
				out = append(out, s.s)
			}
		}
		if !want == (c.Op == ir.RegexMatch) {
			out = append(out, "", "zzz")
		}
	case ir.Contains, ir.NotContains:
		if want == (c.Op == ir.Contains) {
			out = append(out, p, "x "+p+" y", p+"\n", "é"+p)
		} else {
			out = append(out, "", "unrelated text", strings.ToUpper(p)+"?")
		}
	case ir.Equals:
		if want {
			out = append(out, p)
		} else {
			out = append(out, p+" ", "", " "+p, p+"\n")
		}
	case ir.StartsWith:
		if want {
			out = append(out, p, p+" tail", p+"\n")
		} else {
			out = append(out, "x"+p, " "+p)
		}
	case ir.EndsWith:
		if want {
			out = append(out, p, "head "+p)
		} else {
			out = append(out, p+"x", p+"\n")
		}
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// pickValue picks a value for a field that satisfies its conditions (or, when
// flip is one of them, satisfies the others and not flip).
func pickValue(conds []ir.ResolvedCondition, flip *ir.Condition, samples map[string][]sample, r *rand.Rand) string {
	var pool []string
	for _, c := range conds {
		pool = append(pool, candidates(c.Condition, c.Condition != flip, samples, r)...)
	}
	n := len(pool)
	for i := 0; i < n && i < 6; i++ {
		pool = append(pool, pool[r.IntN(n)]+" "+pool[r.IntN(n)])
	}
	for _, v := range pool {
		ok := true
		for _, c := range conds {
			got, _ := test(c.Condition, v)
			if got != (c.Condition != flip) {
				ok = false
				break
			}
		}
		if ok {
			return v
		}
	}
	if len(pool) > 0 {
		return pool[r.IntN(len(pool))]
	}
	return ""
}

// member is one key of a payload under construction.
type member struct {
	tool bool
	key  string
	val  string
	null bool
	raw  string // a JSON literal instead (number, true, object)
}

func generate(t *testing.T, p *project, samples map[string][]sample, r *rand.Rand, n int) []fixture {
	var out []fixture
	for _, u := range p.plan.Units {
		for _, h := range u.Hooks {
			script := compiler.HooksDir + "/" + u.Name + ".sh"
			arg := ""
			if len(u.Hooks) > 1 {
				arg = h.Event.String()
			}
			for i := 0; i < n; i++ {
				raw := payloadFor(t, p, h, samples, r, i)
				out = append(out, fixture{hook: h, script: script, arg: arg, raw: raw})
			}
		}
	}
	return out
}

// payloadFor builds payload number i for h: a check made to hold, or made
// to fail on one condition, or random fields; then written in one of many
// JSON spellings.
func payloadFor(t *testing.T, p *project, h *ir.Hook, samples map[string][]sample, r *rand.Rand, i int) []byte {
	var ms []member
	if len(h.Checks) > 0 && i%6 != 5 {
		c := h.Checks[r.IntN(len(h.Checks))]
		conds := c.Conds
		if len(c.Any) > 0 {
			// An MCP tool of one of the rule's patterns.
			conds = slices.Concat(conds, c.Any[r.IntN(len(c.Any))])
		}
		var flip *ir.Condition
		if i%3 == 1 && len(conds) > 0 {
			flip = conds[r.IntN(len(conds))].Condition
		}
		bySrc := map[string][]ir.ResolvedCondition{}
		var order []ir.Source
		for _, cd := range conds {
			k := cd.Src.String()
			if bySrc[k] == nil {
				order = append(order, cd.Src)
			}
			bySrc[k] = append(bySrc[k], cd)
		}
		// With patches read, the patch fields sometimes come from one file
		// of a patch instead (README, "Payload fields").
		patched := h.ReadsPatches() && r.IntN(3) == 0
		parts := map[byte]string{}
		for _, src := range order {
			conds := bySrc[src.String()]
			if r.IntN(8) == 0 || flip != nil && slices.ContainsFunc(conds, func(c ir.ResolvedCondition) bool { return c.Condition == flip }) && r.IntN(3) == 0 {
				continue // the field is missing: its default, or every condition on it is false
			}
			v := pickValue(conds, flip, samples, r)
			switch r.IntN(8) {
			case 0:
				v += "\n"
			case 1:
				v = "line one\n" + v
			}
			if part, ok := ir.PatchKeys[firstKey(src).Name]; ok && patched && firstKey(src).ToolInput {
				parts[part] = v
				continue
			}
			ms = append(ms, place(t, p, src, v, r)...)
		}
		if patched {
			text := patchText(parts, r)
			switch r.IntN(4) {
			case 0:
				return append([]byte("\ufeff"), text...) // free-form: the payload is the patch
			case 1:
				ms = append(ms, member{key: "tool_input", val: text})
			case 2:
				ms = append(ms, member{tool: true, key: "diff", val: text})
			default:
				ms = append(ms, member{tool: true, key: "patch", val: text})
			}
		}
		if len(c.Tools) > 0 {
			switch r.IntN(6) {
			case 0:
				ms = append(ms, member{key: "tool_name", val: "Read"})
			case 1:
				ms = append(ms, member{key: "tool_name", val: ""})
			case 2:
			default:
				ms = append(ms, member{key: "tool_name", val: c.Tools[r.IntN(len(c.Tools))]})
			}
		}
	} else {
		for _, k := range h.Keys() {
			if r.IntN(2) == 0 {
				ms = append(ms, member{tool: k.ToolInput, key: k.Name, val: randomText(r)})
			}
		}
	}
	r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	ms = append([]member{{key: "hook_event_name", val: h.Event.String()}, {key: "conversation_id", val: "c-1"}}, ms...)
	return spell(ms, r, h.Event.Spec().MCP && r.IntN(4) != 0)
}

// patchText writes a patch with one file whose path ('f'), added lines
// ('a') and removed lines ('r') are parts, when set, among decoy files.
func patchText(parts map[byte]string, r *rand.Rand) string {
	lines := func(prefix, v string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(strings.TrimSuffix(v, "\n"), "\n") {
			b.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
		}
		return b.String()
	}
	path, ok := parts['f']
	if !ok {
		path = "src/main.go"
	}
	file := "*** Update File: " + path + "\n"
	if r.IntN(3) == 0 {
		file = "*** Update File: old/name.txt\n*** Move to: " + path + "\n"
	}
	file += "@@ func main\n context\n"
	if v, ok := parts['r']; ok {
		file += lines("-", v)
	}
	if v, ok := parts['a']; ok {
		file += lines("+", v)
	}
	if _, ok := parts['r']; !ok && r.IntN(2) == 0 {
		file = "*** Add File: " + path + "\n" + lines("+", parts['a'])
	}
	files := []string{"*** Add File: docs/notes.md\n+unrelated\n", "*** Delete File: old/gone.txt\n"}[:r.IntN(3)]
	files = slices.Insert(files, r.IntN(len(files)+1), file)
	// Header lines indented or padded with white space, which codex's
	// parser trims where a file section may start (README, "Payload
	// fields"); after an update's hunks an indented one is a context line.
	pad := func() string { return []string{"", "", "", " ", "\t", "\u00a0", " \u3000"}[r.IntN(7)] }
	for i := range files {
		files[i] = pad() + files[i]
	}
	return pad() + "*** Begin Patch" + pad() + "\n" + strings.Join(files, "") + pad() + "*** End Patch\n"
}

// place sets a source's value in the payload, through one of its keys.
func place(t *testing.T, p *project, src ir.Source, v string, r *rand.Rand) []member {
	if src.Transcript {
		switch r.IntN(8) {
		case 0:
			return nil // $CURSOR_TRANSCRIPT_PATH
		case 1:
			return []member{{key: ir.TranscriptKey.Name, val: "no/such/file"}}
		case 2:
			return []member{{key: ir.TranscriptKey.Name, val: "."}} // a directory
		}
		f, err := os.CreateTemp(p.root, "transcript-*.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		data := v
		if src.LastAssistant {
			// Cursor's agent transcript: generated lines, then the agent
			// saying v, then perhaps lines that keep it (a tool call, the
			// end of the turn) or forget it (the user speaking).
			data = payloadtest.GenerateTranscript(r) + "\n" + AssistantEntry(v) + "\n"
			data += []string{"", "", `{"type":"turn_ended","status":"success"}` + "\n",
				`{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Shell","input":{}}]}}`,
				`{"role":"user","message":{"content":"go on"}}`}[r.IntN(5)]
		}
		if r.IntN(2) == 0 {
			data += "\x00go test, npm test, AFTER-NUL\x00" // nothing after a NUL is lost
		}
		f.WriteString(data)
		f.Close()
		name := f.Name()
		if r.IntN(2) == 0 {
			name = filepath.Base(name) // relative to the project root
		}
		return []member{{key: ir.TranscriptKey.Name, val: name}}
	}
	if len(src.Keys) == 0 {
		return nil
	}
	k := src.Keys[0]
	var out []member
	if len(src.Keys) > 1 && r.IntN(3) == 0 {
		j := 1 + r.IntN(len(src.Keys)-1)
		if r.IntN(2) == 0 {
			out = append(out, member{tool: k.ToolInput, key: k.Name, null: true})
		}
		k = src.Keys[j]
	}
	if last := src.Keys[len(src.Keys)-1]; strings.HasPrefix(last.Name, "edits[].") && r.IntN(4) == 0 {
		k = last // MultiEdit, more often
	}
	if m, ok := strings.CutPrefix(k.Name, "edits[]."); ok {
		// MultiEdit: v as the members m of the edits, joined by a space.
		var items []string
		for _, part := range strings.SplitN(v, " ", 1+r.IntN(3)) {
			items = append(items, `{"replace_all":false,`+ir.JSONString(m)+`:`+ir.JSONString(part)+`}`)
		}
		return append(out, member{tool: true, key: "edits", raw: "[" + strings.Join(items, ",") + "]"})
	}
	out = append(out, member{tool: k.ToolInput, key: k.Name, val: v})
	if len(src.Keys) > 1 && r.IntN(3) == 0 {
		// Decoys at the other keys of the field: every key is a candidate,
		// so none of them may hide the real value.
		for _, d := range src.Keys {
			if d != k && r.IntN(2) == 0 {
				out = append(out, member{tool: d.ToolInput, key: d.Name, val: []string{"", "decoy", randomText(r)}[r.IntN(3)]})
			}
		}
	}
	return out
}

var texts = []string{"", "ls -la", "é✅ 中文", "a\tb", "\"quoted\" \\ back", "line\nline", "npm test", "x\u2028y", "😀", "a\x00b", "\x00"}

func randomText(r *rand.Rand) string { return texts[r.IntN(len(texts))] }

// spell writes the members as one JSON object, in one of many spellings
// that must all decode to the same fields: escapes (in keys too), BOMs and
// Cursor's n++ framing before the object, decoys the decoder must not take
// for fields, duplicates where the last one wins, whitespace and newlines
// between tokens, \u0000 in any string (read as 01). With toolString,
// tool_input is a string of JSON, as beforeMCPExecution sends it.
func spell(ms []member, r *rand.Rand, toolString bool) []byte {
	style := r.IntN(12)
	str := func(s string) string {
		switch style {
		case 1:
			return asciiJSON(s)
		case 2:
			b, _ := json.Marshal(s) // <, > and & as \u003c ...
			return string(b)
		case 11:
			if r.IntN(2) == 0 {
				// A NUL anywhere in a key or a value, an argument of an MCP
				// tool too (escaped once more in a string tool_input).
				i := r.IntN(len(s) + 1)
				for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
					i--
				}
				s = s[:i] + "\x00" + s[i:]
			}
		}
		return ir.JSONString(s)
	}
	val := func(m member) string {
		switch {
		case m.null:
			return "null"
		case m.raw != "":
			return m.raw
		}
		return str(m.val)
	}
	sep, colon := ",", ":"
	if style == 3 {
		sep, colon = ",\n  ", " : "
	}
	var top, tool []string
	key := func(k string) string {
		if style == 10 && k != "" {
			i := r.IntN(len(k))
			return `"` + k[:i] + fmt.Sprintf(`\u%04x`, k[i]) + k[i+1:] + `"`
		}
		return str(k)
	}
	for _, m := range ms {
		kv := key(m.key) + colon + val(m)
		if style == 4 {
			// A decoy first: the same key with another value, overridden.
			kv = key(m.key) + colon + str("decoy "+m.val) + sep + kv
		}
		if m.tool {
			tool = append(tool, kv)
		} else {
			top = append(top, kv)
		}
	}
	if style == 5 {
		top = append(top, `"note":"\"command\":\"rm -rf /\" \"tool_input\":{\"file_path\":\".env\"}"`,
			`"nested":{"command":"rm -rf /","prompt":"deploy prod","file_path":".env","x":[{"tool_input":{"content":"AKIA0000"}}]}`)
	}
	if len(tool) > 0 {
		obj := "{" + strings.Join(tool, sep) + "}"
		if toolString {
			obj = str(obj)
			if style == 11 && r.IntN(3) == 0 {
				// A \u0000 in the string itself: its text holds a raw NUL
				// (read as 01), so it is not one JSON object.
				i := 1 + r.IntN(len(obj)-1)
				for obj[i-1] == '\\' || !utf8.RuneStart(obj[i]) {
					i--
				}
				obj = obj[:i] + `\u0000` + obj[i:]
			}
		}
		t := `"tool_input"` + colon + obj
		if style == 6 {
			t = `"tool_input"` + colon + `{"file_path":"decoy","content":"decoy"}` + sep + t
		}
		top = append(top, t)
	}
	body := "{" + strings.Join(top, sep) + "}"
	switch style {
	case 7:
		return []byte("\ufeff\ufeff" + body + "\n")
	case 8:
		return []byte("\xff\xfe\r\n n++\t{ " + body[1:] + " \r\n\t")
	case 9:
		if r.IntN(3) == 0 {
			return []byte(body[:len(body)-1]) // truncated: both must fail the same way
		}
		if r.IntN(3) == 0 {
			return []byte("junk " + body) // text before the object
		}
		if r.IntN(2) == 0 {
			return []byte(strings.Replace(body, "}", `,"bad":"\u0000"}`, 1))
		}
	}
	return []byte(body)
}

// asciiJSON writes s with every non-ASCII character as \u escapes
// (surrogate pairs above U+FFFF), as Python's json.dumps does, and / as \/.
func asciiJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '/':
			b.WriteString(`\/`)
		case c < 0x20 || c >= 0x7f:
			if c > 0xFFFF {
				c -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04X`, 0xD800+(c>>10), 0xDC00+(c&0x3FF))
			} else if c != utf8.RuneError {
				fmt.Fprintf(&b, `\u%04x`, c)
			}
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// syntheticPatterns are regex edge cases, as bash rules, for the places
// where the translator and the evaluator could read Python differently.
var syntheticPatterns = []string{
	`a$`, `^a`, `a\Z`, `(?m)^b`, `(?m)a$`, `a.b`, `(?s)a.b`, `a[^x]b`, `\bgo\b`, `\Bo`, `foo\b`,
	`\w+@\w+`, `\d{3,}`, `\s`, `[\s\S]x`, `k`, `s`, `i`, `é`, `[a-z]{2}`, `[^a-z]`, `x{,2}y`,
	`(?x) a b # c`, `(?-i:Abc)`, `\x41`, `\u00e9`, `[[:alpha:]]`, `(a|)b`, `^$`, `(?i)rm\s+-rf`,
	`git\s+push\s+.*(--force|-f)(\s|$)`, `\.(js|ts)x?$`, `(^|/)\.env(\.[a-z]+)?$`, `\bdeploy\s+(to\s+)?prod(uction)?\b`,
	`中文|✅`, `[é-ë]`, `\.\*`, `[\]]`, `a{2}b{0,1}`, `.*`, ``, `(?a)\s`,
	// \w \d \b in Unicode, as Python reads them.
	`caf\w\b`, `\bé`, `[^\W\d]\d`,
}

// synthetic returns a rule set: one bash rule per syntheticPatterns entry,
// plus rules on the other events.
func synthetic() fstest.MapFS {
	fsys := fstest.MapFS{}
	add := func(name, front string) {
		fsys[fmt.Sprintf("hookify.%s.local.md", name)] = &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nMessage of " + name + ".\n")}
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	for i, p := range syntheticPatterns {
		action := "warn"
		if i%2 == 0 {
			action = "block"
		}
		add(fmt.Sprintf("re%02d", i), "event: bash\naction: "+action+"\npattern: "+q(p))
	}
	add("file-block", "event: file\naction: block\nconditions:\n  - field: file_path\n    operator: regex_match\n    pattern: '\\.env$'\n  - field: new_text\n    operator: contains\n    pattern: SECRET")
	add("file-warn", "event: file\nconditions:\n  - field: content\n    operator: not_contains\n    pattern: license\n  - field: tool_input.mode\n    operator: equals\n    pattern: create")
	add("read", "event: read\naction: block\nconditions:\n  - field: file_path\n    operator: starts_with\n    pattern: /etc/")
	add("prompt", "event: prompt\naction: block\nconditions:\n  - field: user_prompt\n    operator: ends_with\n    pattern: '!!'")
	add("stop", "event: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_regex_match\n    pattern: 'go test|npm (run )?test'\n  - field: reason\n    operator: equals\n    pattern: ''")
	add("stop-last", "event: stop\naction: block\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: '(?i)\\b(done|tests? pass)'\n  - field: transcript\n    operator: not_contains\n    pattern: go test")
	add("stop-nul", "event: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_contains\n    pattern: AFTER-NUL")
	add("all", "event: all\naction: block\ntool_matcher: Bash|Edit\nconditions:\n  - field: command\n    operator: contains\n    pattern: rm")
	// MCP tools (docs/mcp.md): server and tool globs, several patterns,
	// bare and tool_input.* fields, next to a shell tool.
	add("mcp-sql", "tool_matcher: mcp__supabase-*__execute_sql\naction: block\nconditions:\n  - field: query\n    operator: not_contains\n    pattern: LIMIT")
	add("mcp-many", "event: all\naction: warn\ntool_matcher: mcp__github__*|mcp__gitlab__create_.*|Bash\nconditions:\n  - field: title\n    operator: regex_match\n    pattern: '\\bwip\\b'")
	add("mcp-server", "event: bash\naction: block\ntool_matcher: mcp__shell|Bash\npattern: 'rm\\s+-rf'")
	// A file rule on MCP tools: new_text is the argument of that name.
	add("mcp-content", "event: file\naction: block\ntool_matcher: mcp__fs__write_*\nconditions:\n  - field: new_text\n    operator: contains\n    pattern: SECRET")
	add("mcp-any", "tool_matcher: mcp__*\naction: block\nconditions:\n  - field: tool_input.path\n    operator: starts_with\n    pattern: /etc/\n  - field: mcp_server_name\n    operator: not_regex_match\n    pattern: ^trusted$")
	// Cursor's Task tool: its input parameters by name, a Task rule next
	// to the write tools, and one on the Task tool alone.
	add("task-block", "event: all\naction: block\ntool_matcher: Task\nconditions:\n  - field: subagent_type\n    operator: equals\n    pattern: explore\n  - field: prompt\n    operator: regex_match\n    pattern: '(?i)secret'")
	add("task-write-warn", "event: all\naction: warn\ntool_matcher: Task|Write\nconditions:\n  - field: tool_input.description\n    operator: not_contains\n    pattern: serial\n  - field: prompt\n    operator: contains\n    pattern: parallel")
	// A negated regex with a needle ("--force-with-lease"): the script looks
	// for the needle before the regex, inside the negation.
	add("not-needle", "event: bash\naction: block\nconditions:\n  - field: command\n    operator: regex_match\n    pattern: 'push\\s+(-f|--force)'\n  - field: command\n    operator: not_regex_match\n    pattern: '--force-with-lease\\b'")
	tableRules(add)
	return fsys
}

// firstKey is the first key of a source, or none (the transcript's).
func firstKey(src ir.Source) ir.Key {
	if len(src.Keys) == 0 {
		return ir.Key{}
	}
	return src.Keys[0]
}
