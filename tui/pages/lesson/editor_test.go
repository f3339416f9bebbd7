package lesson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// The editor of a twelve-line exercise, watched in a file whose path is
// longer than the pane is wide, at 80, 120 and 200 columns: the code
// does not shift right at line 10 (the line numbers' gutter has one
// width), and the path is shown whole, over as many lines as it takes.
func TestEditorGutterAndWatchedPath(t *testing.T) {
	l := locale.English()
	c := common.Common{Styles: styles.New(true, true), KeyMap: keymap.Default(l), L: l}
	var code []string
	for i := 1; i <= 12; i++ {
		code = append(code, fmt.Sprintf("x%d = %d", i, i))
	}
	path := "/home/learner/.local/state/schemalab/exercises/outlier-concurrency/exercise-comments-with-hasoverflow-ten-at-a-time.js"
	for _, w := range []int{80, 120, 200} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			e := newEditor(c, strings.Join(code, "\n"), false)
			e.setWatching("watching " + path + ": every save checks it · w stops")
			e.SetSize(w, 50)
			out := ansi.Strip(e.View())
			golden.RequireEqual(t, []byte(out))
			column := func(s string) int {
				for _, line := range strings.Split(out, "\n") {
					if i := strings.Index(line, s); i >= 0 {
						return i
					}
				}
				t.Fatalf("no %q in\n%s", s, out)
				return 0
			}
			if a, b := column("x9 ="), column("x10 ="); a != b {
				t.Errorf("line 10 starts at column %d, line 9 at %d:\n%s", b, a, out)
			}
			var text strings.Builder
			for _, line := range strings.Split(out, "\n")[1:] {
				text.WriteString(strings.TrimSpace(strings.Trim(strings.TrimSpace(line), "│")))
			}
			if !strings.Contains(text.String(), path) {
				t.Errorf("the path is not shown whole:\n%s", out)
			}
		})
	}
}
