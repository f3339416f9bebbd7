package acceptance

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

type seedExample struct {
	script, output string
}

// seedExamples extracts the (script, mongosh output) pairs of a seed: a
// "js" block followed by "Output yang Dihasilkan:" and a "text" block.
func seedExamples(t *testing.T, path string) []seedExample {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var out []seedExample
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "js" {
			continue
		}
		var script []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "Output yang Dihasilkan:"; j++ {
			script = append(script, lines[j])
		}
		for j < len(lines) && strings.TrimSpace(lines[j]) != "text" {
			j++
		}
		var output []string
		for j++; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			output = append(output, lines[j])
		}
		out = append(out, seedExample{
			script: strings.TrimSpace(strings.Join(script, "\n")) + "\n",
			output: strings.Join(output, "\n") + "\n",
		})
		i = j
	}
	return out
}

var objectIDRe = regexp.MustCompile(`ObjectId\('[0-9a-f]{24}'\)`)

func normalizeIDs(s string) string { return objectIDRe.ReplaceAllString(s, "ObjectId('…')") }

// TestSeed001Transcript runs every script of seed 001 in one session, in
// order, and requires mongosh's exact output (ObjectId values aside).
func TestSeed001Transcript(t *testing.T) {
	examples := seedExamples(t, "testdata/seed_001.txt")
	if len(examples) != 5 {
		t.Fatalf("found %d examples in seed 001, want 5", len(examples))
	}
	sh := newShell(t, "test")
	for i, ex := range examples {
		res, err := sh.Eval(context.Background(), ex.script)
		if err != nil {
			t.Errorf("example %d: %v\nscript:\n%s", i+1, err, ex.script)
		}
		got, want := normalizeIDs(res.Transcript), normalizeIDs(ex.output)
		if got != want {
			t.Errorf("example %d output differs\nscript:\n%s\ngot:\n%s\nwant:\n%s", i+1, ex.script, got, want)
		}
	}
}
