package powershell

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/internal/tablerules"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// TestCombineOnDotNet runs a C# transliteration of hk_rules' combination
// of answers (hk_cut, hk_join; testdata/dotnet/combine.cs) on Mono on
// generated answers of every event's shapes, messages holding the fixed
// pieces' own text, quotes, backslashes, control and non-ASCII characters,
// against tablerules.Combined, as codegen/bash.TestPerRuleRerun runs the
// Unix hook's (pwsh is not here to run hk_rules itself).
func TestCombineOnDotNet(t *testing.T) {
	mono, exe := monoExe(t, "combine.cs")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 29))
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	for round := range rounds {
		e := ir.CursorEvents[r.IntN(len(ir.CursorEvents))]
		warn := []ir.WarnMode{ir.WarnContext, ir.WarnAsk, ir.WarnAllow}[r.IntN(3)]
		h := codegen.NewLayout(&ir.Unit{Name: "hookify-x", Hooks: []*ir.Hook{{Event: e}}}, warn, false).Hooks[0]
		b, w := codegen.AnswerPieces(h.Blocked), codegen.AnswerPieces(h.Warned)
		in := []string{b[0], b[1], b[2], w[0], w[1], w[2], fmt.Sprint(h.Blocked.Exit), fmt.Sprint(h.Warned.Exit)}
		var answers []tablerules.Answer
		for range r.IntN(5) {
			a := tablerules.RandomAnswer(r)
			answers = append(answers, a)
			in = append(in, fmt.Sprint(a.Exit), strings.TrimSuffix(a.Text(h), "\n"))
		}
		cmd := testenv.Command(t, mono, exe)
		cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("mono: %v", err)
		}
		out, exit, allow := tablerules.Combined(h, answers)
		want := out + fmt.Sprintf("EXIT %d\n", exit)
		if allow {
			want = "ALLOW\n"
		}
		if string(got) != want {
			t.Errorf("round %d, %s, %v: got %q, want %q", round, e, answers, got, want)
		}
	}
}
