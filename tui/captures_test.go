package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The screens in testdata/captures were captured from the built binary in
// tmux (TestRealTerminalWalk with SCHEMALAB_TMUX_CAPTURES) at each size,
// on the steps issue 13 found broken. This test holds them to what was
// fixed, so that a capture refreshed after a change is checked too.
func TestRealCapturesShowTheFixes(t *testing.T) {
	for _, size := range []string{"80x24", "120x40", "200x50"} {
		w, h := parseSize(t, size)
		files, err := filepath.Glob(filepath.Join("testdata", "captures", size, "*.txt"))
		if err != nil || len(files) < 10 {
			t.Fatalf("%s: %d captures, %v", size, len(files), err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := strings.TrimRight(string(b), "\n")
			name := size + "/" + filepath.Base(f)
			lines := strings.Split(s, "\n")
			if len(lines) != h {
				t.Errorf("%s: %d lines, want %d", name, len(lines), h)
			}
			for i, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("%s: line %d is wider than the terminal", name, i+1)
				}
				// Headings lose their hashes; emphasis its stars.
				if strings.Contains(l, "## ") || strings.Contains(l, "**") {
					t.Errorf("%s: Markdown marks on line %d: %q", name, i+1, l)
				}
			}
			// The whole footer, shortened before help and quit.
			if last := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(last, "? help • q quit") {
				t.Errorf("%s: the footer is cut: %q", name, last)
			}
			if strings.Contains(s, "Figures") && h >= 40 {
				if rows, _, total := docPane(s); total > 0 && len(rows) < 15 {
					t.Errorf("%s: the comparison's prose has %d rows", name, len(rows))
				}
			}
		}
		for file, want := range map[string][]string{
			// The table at its natural width, never wrapped inside a word.
			"tree-11.txt": {"parent references", "anchored regex", "array of ancestors"},
			// The introduction is the lesson's first page.
			"choosing-00.txt": {"Choosing a Pattern · Introduction"},
			"outlier-00.txt":  {"The Outlier Pattern · Introduction"},
			// Each statement's output under it, the figures in view.
			"outlier-04.txt": {"Compare: what the pattern buys", "⇒ customers_1", "keys examined"},
			"bucket-04.txt":  {"keys examined", "720"},
			// An exercise opens with its starter.
			"outlier-11.txt": {"Your code", "db.ulasan.insertMany(buku.ulasan.map("},
		} {
			b, err := os.ReadFile(filepath.Join("testdata", "captures", size, file))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range want {
				if !strings.Contains(string(b), s) {
					t.Errorf("%s/%s lacks %q", size, file, s)
				}
			}
		}
	}
}

func parseSize(t *testing.T, s string) (int, int) {
	a, b, _ := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		t.Fatalf("size %q", s)
	}
	return w, h
}
