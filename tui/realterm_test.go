package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/prose"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// walkEnv turns on TestRealTerminalWalk; .ci/tui-tmux.sh sets it.
const walkEnv = "SCHEMALAB_TMUX_WALK"

// tmuxTerm drives the built binary in a tmux session, on a tmux server
// of the walk's own (socket), so that no other tmux user on the machine
// can end it.
type tmuxTerm struct {
	t               *testing.T
	socket, session string
}

func (tt *tmuxTerm) tmux(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", tt.socket}, args...)...).CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (tt *tmuxTerm) screen() string { return tt.tmux("capture-pane", "-t", tt.session, "-p") }

// settled is the screen once a frame is drawn whole: the footer is on
// its last line and two looks in a row agree.
func (tt *tmuxTerm) settled() string {
	tt.t.Helper()
	prev := ""
	return tt.waitUntil("a whole frame", 30*time.Second, func(s string) bool {
		ok := s == prev && strings.Contains(lastLine(s), "quit")
		prev = s
		return ok
	})
}

func (tt *tmuxTerm) keys(k ...string) {
	tt.tmux(append([]string{"send-keys", "-t", tt.session}, k...)...)
}

// dump makes the app in the pane print its goroutines (SIGQUIT) to its
// stderr file and returns that file, to show where it is stuck.
func (tt *tmuxTerm) dump(stderr string) string {
	shellPID := strings.TrimSpace(tt.tmux("display-message", "-p", "-t", tt.session, "#{pane_pid}"))
	out, err := exec.Command("pgrep", "-P", shellPID).Output()
	if err != nil {
		return fmt.Sprintf("no process under the pane's shell %s: %v", shellPID, err)
	}
	for _, pid := range strings.Fields(string(out)) {
		_ = exec.Command("kill", "-QUIT", pid).Run()
	}
	time.Sleep(2 * time.Second)
	b, err := os.ReadFile(stderr)
	if err != nil {
		return err.Error()
	}
	return "the app's stderr after SIGQUIT:\n" + string(b)
}

// waitUntil polls the screen until ok holds.
func (tt *tmuxTerm) waitUntil(what string, d time.Duration, ok func(string) bool) string {
	tt.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tt.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var positionRe = regexp.MustCompile(`(\d+)–(\d+)/(\d+)`)

// docPane is the first pane of a lesson screen: its rows between the
// borders, and its scroll position (total 0 when all of it shows).
func docPane(s string) (rows []string, last, total int) {
	lines := strings.Split(s, "\n")
	// The pane ends at its first top-right corner; an editor may be
	// beside it.
	width := len([]rune(lines[0]))
	if len(lines) > 1 {
		if i := strings.IndexAny(lines[1], "╮┓"); i >= 0 {
			width = len([]rune(lines[1][:i])) + 1
		}
	}
	for i := 1; i < len(lines); i++ {
		if r := []rune(lines[i]); len(r) > width {
			lines[i] = string(r[:width])
		}
		if strings.HasPrefix(lines[i], "╰") || strings.HasPrefix(lines[i], "┗") {
			if m := positionRe.FindStringSubmatch(strings.SplitN(lines[i], "╯", 2)[0]); m != nil {
				last, _ = strconv.Atoi(m[2])
				total, _ = strconv.Atoi(m[3])
			}
			return rows, last, total
		}
		if i > 1 {
			rows = append(rows, lines[i])
		}
	}
	return rows, 0, 0
}

// expectedTokens are the words of a step's prose and the identifiers and
// string literals of its code, each of which must appear unbroken on
// some screen line.
// proseCommon is what the prose renderer is given, in English.
func proseCommon(st *styles.Styles) common.Common {
	l := locale.English()
	return common.Common{Styles: st, KeyMap: keymap.Default(l), L: l}
}

func expectedTokens(st *styles.Styles, blocks []lessons.Block, exercise *lessons.Exercise) []string {
	var out []string
	lexer := chroma.Coalesce(lexers.Get("javascript"))
	code := func(src string) {
		it, err := lexer.Tokenise(nil, src)
		if err != nil {
			return
		}
		for tok := it(); tok != chroma.EOF; tok = it() {
			v := strings.TrimSpace(tok.Value)
			if len(v) < 2 || strings.Contains(v, "\n") {
				continue
			}
			if tok.Type.InCategory(chroma.Name) || tok.Type.InSubCategory(chroma.LiteralString) {
				out = append(out, v)
			}
		}
	}
	for _, b := range blocks {
		switch b.Kind {
		case lessons.Prose:
			out = append(out, prose.Parse(proseCommon(st), b.Text, prose.Options{}).Words()...)
		case lessons.Run, lessons.Setup, lessons.Compare:
			code(b.Text)
		}
	}
	if exercise != nil {
		code(exercise.Starter)
	}
	return out
}

// editorLines are the lines of code the exercise's editor showed, put
// back together: the editor soft-wraps a long line at a space, as editors
// do, and its continuation rows have no number in the gutter. A wrapped
// line is given both ways, its rows joined with the space the wrap took
// and without it (a word wider than the editor is cut without a space).
func editorLines(screens []string) []string {
	var out []string
	var line []string
	flush := func() {
		if len(line) > 0 {
			out = append(out, strings.Join(line, " "), strings.Join(line, ""))
		}
		line = nil
	}
	for _, row := range screens {
		_, rest, ok := strings.Cut(row, "┃")
		if !ok {
			continue
		}
		if i := strings.LastIndex(rest, "│"); i >= 0 {
			rest = rest[:i]
		}
		r := []rune(rest)
		if len(r) < editorGutter {
			continue
		}
		gutter, text := strings.TrimSpace(string(r[:editorGutter])), strings.TrimRight(string(r[editorGutter:]), " ")
		if gutter != "" {
			flush()
		}
		line = append(line, text)
	}
	flush()
	return out
}

// editorGutter is the width of the editor's line numbers after its bar:
// a space, the number right-aligned in three cells, a space.
const editorGutter = 5

// missing are the tokens no captured line holds.
func missing(tokens []string, seen []string) []string {
	var out []string
	for _, tok := range tokens {
		found := false
		for _, l := range seen {
			if strings.Contains(l, tok) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, tok)
		}
	}
	return out
}

// The real-terminal walk: every step of every built-in lesson in the
// built binary at 120×40 in tmux. At each step it shows the setup, runs
// what can run (an exercise gets its starter checked, a wrong attempt),
// scrolls the step's pane to the end, and asserts that every word of the
// prose and every identifier and string literal of the code appeared
// unbroken on a screen line, and that a comparison's prose has at least
// 15 rows or shows whole.
func TestRealTerminalWalk(t *testing.T) {
	if os.Getenv(walkEnv) == "" {
		t.Skip("drives the built binary in tmux for minutes; .ci/tui-tmux.sh runs it with " + walkEnv + "=1")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "schemalab")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/schemalab").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	st := styles.New(true, false)
	// SCHEMALAB_TMUX_SIZE walks at another size (80x24, 200x50); the
	// comparison's 15 rows are asserted from 40 rows up.
	// SCHEMALAB_TMUX_CAPTURES keeps each step's first screen there.
	cols, rowsN := "120", "40"
	if sz := os.Getenv("SCHEMALAB_TMUX_SIZE"); sz != "" {
		cols, rowsN, _ = strings.Cut(sz, "x")
	}
	tall, _ := strconv.Atoi(rowsN)
	width, _ := strconv.Atoi(cols)
	captures := os.Getenv("SCHEMALAB_TMUX_CAPTURES")
	for _, l := range cat.Lessons {
		t.Run(l.ID, func(t *testing.T) {
			// A server per lesson: a tmux server exits with its last
			// session, and a session begun on one that is exiting fails
			// ("server exited unexpectedly").
			socket := fmt.Sprintf("schemalab-walk-%d-%s", os.Getpid(), l.ID)
			tt := &tmuxTerm{t: t, socket: socket, session: socket}
			rc := filepath.Join(dir, l.ID+".rc")
			// The app draws on the terminal; its stderr goes to a file,
			// which keeps the goroutine dump of an app that did not quit.
			stderr := filepath.Join(dir, l.ID+".stderr")
			tt.tmux("new-session", "-d", "-s", tt.session, "-x", cols, "-y", rowsN,
				fmt.Sprintf("env SCHEMALAB_STATE_DIR='%s' SCHEMALAB_CACHE_DIR='%s' TERM=xterm-256color '%s' --lesson %s 2>'%s'; echo $? > '%s'; sleep 60", filepath.Join(dir, "state"), filepath.Join(dir, "cache"), bin, l.ID, stderr, rc))
			defer exec.Command("tmux", "-L", socket, "kill-server").Run()
			tt.waitUntil("the introduction", 60*time.Second, func(s string) bool { return strings.Contains(s, "introduction") })
			s := tt.settled()
			intro := ""
			if captures != "" {
				intro = filepath.Join(captures, l.ID+"-00.txt")
			}
			walkPane(t, tt, width, s, "introduction", prose.Parse(proseCommon(st), l.Intro, prose.Options{}).Words(), false, intro)
			for i := range l.Steps {
				step := &l.Steps[i]
				tt.keys("n")
				head := fmt.Sprintf("step %d/%d", i+1, len(l.Steps))
				tt.waitUntil(head, 30*time.Second, func(s string) bool { return strings.Contains(firstLine(s), head) })
				if len(step.Code(lessons.Setup)) > 0 {
					tt.keys("x")
				}
				runnable := step.Exercise != nil || len(step.Code(lessons.Run))+len(step.Code(lessons.Compare)) > 0
				if runnable {
					// The screen before the key may already say "ran in"
					// (a setup's pane): the run's own answer changes it.
					before := tt.screen()
					tt.keys("Enter")
					tt.waitUntil("the run of "+head, 3*time.Minute, func(s string) bool {
						return s != before && strings.Contains(s, "ran in") && !strings.Contains(lastLine(s), "cancels")
					})
				}
				s := tt.settled()
				name := ""
				if captures != "" {
					name = filepath.Join(captures, fmt.Sprintf("%s-%02d.txt", l.ID, i+1))
				}
				var editor []string
				if step.Exercise != nil {
					// The editor shows as many lines as fit: walk the
					// cursor down through the rest.
					tt.keys("e")
					for range strings.Count(step.Exercise.Starter, "\n") + 2 {
						tt.keys("Down")
						time.Sleep(30 * time.Millisecond)
						editor = append(editor, strings.Split(tt.screen(), "\n")...)
					}
					// A lone ESC is told from a key's escape sequence by
					// a pause after it.
					tt.keys("Escape")
					tt.waitUntil("editing to stop", 20*time.Second, func(s string) bool { return !strings.Contains(s, "editing (") })
				}
				walkPane(t, tt, width, s, head, expectedTokens(st, step.Blocks, step.Exercise), len(step.Code(lessons.Compare)) > 0 && tall >= 40, name, append(editor, editorLines(editor)...)...)
			}
			// q quits an idle app; one still running a step waits for it
			// to stop (Session.Close).
			tt.waitUntil("the app to be idle", time.Minute, func(s string) bool { return !strings.Contains(lastLine(s), "cancels") })
			tt.keys("q")
			deadline := time.Now().Add(10 * time.Second)
			for {
				b, err := os.ReadFile(rc)
				if err == nil && len(b) > 0 {
					if strings.TrimSpace(string(b)) != "0" {
						t.Errorf("exit code %s", b)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the app did not quit on q; screen:\n%s\n%s", tt.screen(), tt.dump(stderr))
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// walkPane scrolls the step's pane from top to bottom, collecting every
// screen, and checks the tokens against them; capture, if set, keeps the
// first screen.
func walkPane(t *testing.T, tt *tmuxTerm, wide int, s, what string, tokens []string, compare bool, capture string, seenBefore ...string) {
	t.Helper()
	if capture != "" {
		if err := os.WriteFile(capture, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows, last, total := docPane(s)
	if compare && total > 0 && len(rows) < 15 {
		t.Errorf("%s: the prose pane of a comparison shows %d rows of %d; want at least 15 or all of it", what, len(rows), total)
	}
	seen := append(append(seenBefore, strings.Split(s, "\n")...), sideways(tt, s)...)
	for n := 0; total > 0 && last < total && n < 200; n++ {
		tt.keys("Space")
		prev := last
		s = tt.waitUntil(what+" scrolled", 20*time.Second, func(s string) bool {
			_, l, _ := docPane(s)
			return l != prev
		})
		seen = append(seen, strings.Split(s, "\n")...)
		seen = append(seen, sideways(tt, s)...)
		_, last, total = docPane(s)
	}
	// A word wider than the pane (a long address) cannot fit on one of its
	// lines: it is cut with … and still opens as a terminal hyperlink, or
	// scrolls sideways in code.
	var fit []string
	for _, tok := range tokens {
		if len([]rune(tok)) < wide-8 {
			fit = append(fit, tok)
		}
	}
	tokens = fit
	if m := missing(tokens, seen); len(m) > 0 {
		t.Errorf("%s: %d of %d words and tokens never appeared unbroken on a screen line: %q", what, len(m), len(tokens), m[:min(len(m), 20)])
	}
}

// sideways scrolls wide rows (tables, long code) right until nothing is
// left to their right, collecting the screens, and back.
func sideways(tt *tmuxTerm, s string) []string {
	var seen []string
	n := 0
	more := func(s string) bool {
		rows, _, _ := docPane(s)
		return strings.Contains(strings.Join(rows, "\n"), "more →")
	}
	for ; more(s) && n < 40; n++ {
		// The screen need not change: the rows that scroll may be out of
		// sight, with only their cue in view.
		prev := s
		tt.keys(">")
		for wait := time.Now().Add(time.Second); s == prev && time.Now().Before(wait); {
			time.Sleep(30 * time.Millisecond)
			s = tt.screen()
		}
		seen = append(seen, strings.Split(s, "\n")...)
	}
	for range n {
		tt.keys("<")
	}
	if n > 0 {
		tt.waitUntil("the scroll back", 20*time.Second, func(s string) bool { return !strings.Contains(s, "← more") })
	}
	return seen
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}
