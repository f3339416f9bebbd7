// Package comptest holds what the components' tests share: goldens at
// several widths, the real lessons as inputs, and the width invariant.
package comptest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// Widths are the widths every component's goldens are taken at.
var Widths = []int{40, 60, 80, 120, 200}

// Goldens checks render's output at each width against
// testdata/TestName/W.golden, escape codes stripped so that a golden
// reads as the screen does. Styles get goldens of their own.
func Goldens(t *testing.T, widths []int, render func(t *testing.T, w int) string) {
	t.Helper()
	for _, w := range widths {
		t.Run(strconv.Itoa(w), func(t *testing.T) {
			golden.RequireEqual(t, ansi.Strip(render(t, w)))
		})
	}
}

// Lesson is the Markdown of lesson file name, without its front matter,
// as it was when the goldens were taken (testdata/lessons, a copy of
// content/): goldens test the renderer on real lessons, and must not
// change when a lesson is rewritten.
func Lesson(t testing.TB, name string) string {
	t.Helper()
	return readLesson(t, filepath.Join("tui", "components", "internal", "comptest", "testdata", "lessons", name))
}

// Lessons is every lesson file of content/ as it is now, for the tests of
// properties every lesson must keep (code wraps between tokens, tables
// never wrap letter by letter).
func Lessons(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{"01-outlier.md", "02-bucket.md", "03-outlier-concurrency.md", "04-computed.md", "05-tree.md", "06-choosing.md"} {
		out[name] = readLesson(t, filepath.Join("content", name))
	}
	return out
}

// readLesson reads path, relative to the module's root, without the
// front matter.
func readLesson(t testing.TB, path string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
	b, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.HasPrefix(s, "---\n") {
		if end := strings.Index(s[4:], "\n---\n"); end >= 0 {
			s = s[4+end+5:]
		}
	}
	return s
}

// Section is the part of md from the line starting with from up to the
// next line starting with to ("" for the end).
func Section(t testing.TB, md, from, to string) string {
	t.Helper()
	i := strings.Index(md, "\n"+from)
	if i < 0 {
		t.Fatalf("no %q in the lesson", from)
	}
	s := md[i+1:]
	if to != "" {
		if j := strings.Index(s[len(from):], "\n"+to); j >= 0 {
			s = s[:len(from)+j+1]
		}
	}
	return s
}

// Fences is the content of every fenced code block of md whose info
// string starts with lang.
func Fences(md, lang string) []string {
	var out []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```"+lang) {
			continue
		}
		var b []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			b = append(b, lines[i])
		}
		out = append(out, strings.Join(b, "\n"))
	}
	return out
}

// FitWidth fails for every line of s wider than w cells.
func FitWidth(t testing.TB, s string, w int) {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, over %d: %q", i+1, lw, w, ansi.Strip(l))
		}
	}
}

// Common is what the components get from the app, in English with the
// dark theme; present doubles the bars.
func Common(present bool) common.Common {
	l := locale.English()
	return common.Common{Styles: styles.New(true, false), KeyMap: keymap.Default(l), L: l, Present: present}
}
