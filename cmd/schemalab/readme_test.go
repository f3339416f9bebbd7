package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
)

// The README tells a newcomer the truth: the Go version go.mod asks for,
// the clone route first (the module is not published, so `go install
// …@latest` cannot work yet), and every built-in lesson, counted.
func TestReadmeTellsTheTruth(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(string(gomod))
	if m := regexp.MustCompile(`You need Go (\S+) or newer`).FindStringSubmatch(s); m == nil || goVersion == nil || m[1] != goVersion[1] {
		t.Errorf("the README asks for Go %q, go.mod for %q", m, goVersion)
	}
	start := s[strings.Index(s, "## Start"):]
	firstBlock := start[strings.Index(start, "```sh"):]
	firstBlock = firstBlock[:strings.Index(firstBlock[3:], "```")]
	if !strings.Contains(firstBlock, "go run ./cmd/schemalab") || !strings.Contains(firstBlock, "go test ./...") || strings.Contains(firstBlock, "go install") {
		t.Errorf("the first commands a newcomer reads are not the clone route:\n%s", firstBlock)
	}
	cat, errs := lessons.Load(content.FS, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, l := range cat.Lessons {
		if !strings.Contains(s, "| `"+l.ID+"` |") {
			t.Errorf("the README's lesson table lacks %s", l.ID)
		}
	}
	counts := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n := len(cat.Lessons); n >= len(counts) || !strings.Contains(s, "The course has "+counts[n]+" lessons") {
		t.Errorf("the README does not say the course has %d lessons", n)
	}
}
