package tui

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/pages/lesson"
)

// until runs cmd and the commands it leads to, in the background, and
// feeds m the messages until done reports one; the spinner's ticks and
// the cursor's blinks are left to wait.
func until(t testing.TB, m *Model, cmd tea.Cmd, done func(tea.Msg) bool) {
	t.Helper()
	msgs := make(chan tea.Msg, 64)
	launch := func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() { msgs <- c() }()
	}
	launch(cmd)
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case msg := <-msgs:
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					launch(c)
				}
				continue
			}
			if msg == nil {
				continue
			}
			_, next := m.Update(msg)
			if done(msg) {
				return
			}
			launch(next)
		case <-deadline:
			t.Fatal("timed out")
		}
	}
}

// A key press to its frame on a 200×50 screen showing a 2,000-line
// output, expanded: the budget is 16 ms.
func BenchmarkKeyToFrame200x50(b *testing.B) {
	opts := testOptions(b)
	opts.Catalog = catalogOf(b, "testdata/long")
	opts.Lesson, opts.Step = "long", 1
	m := newTestApp(b, opts)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	until(b, m, m.connectCmd(), func(msg tea.Msg) bool { _, ok := msg.(backendReadyMsg); return ok })
	_, cmd := m.Update(press("enter"))
	until(b, m, cmd, func(msg tea.Msg) bool { _, ok := msg.(lesson.Ran); return ok })
	m.Update(press("a"))
	if s := screen(m); !strings.Contains(s, "line 30: ") || !strings.Contains(s, "/2") {
		b.Fatalf("the output is not shown expanded:\n%s", s)
	}
	keys := []tea.KeyPressMsg{press("j"), press("j"), {Code: tea.KeyPgDown}, press("k"), {Code: tea.KeyPgUp}}
	b.ResetTimer()
	for i := range b.N {
		m.Update(keys[i%len(keys)])
		_ = m.render()
	}
}

// A frame after a spinner tick on a 160×45 screen of the bucket lesson:
// what a learner's process draws a dozen times a second while a step
// runs or waits for the room's turn. The tick changes the status line
// only, so the page is not drawn again.
func BenchmarkSpinnerTickFrame160x45(b *testing.B) {
	opts := testOptions(b)
	opts.Catalog, _ = lessons.Load(content.FS)
	opts.Lesson, opts.Step = "bucket", 1
	m := newTestApp(b, opts)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	until(b, m, m.connectCmd(), func(msg tea.Msg) bool { _, ok := msg.(backendReadyMsg); return ok })
	before := m.render()
	if !strings.Contains(before, "Bucket") {
		b.Fatalf("not the bucket lesson:\n%s", before)
	}
	b.ResetTimer()
	for range b.N {
		m.Update(spinner.TickMsg{})
		_ = m.render()
	}
}

// Expanding and collapsing the 2,000-line output: a key that lays the
// step out again.
func BenchmarkShowAllToFrame200x50(b *testing.B) {
	opts := testOptions(b)
	opts.Catalog = catalogOf(b, "testdata/long")
	opts.Lesson, opts.Step = "long", 1
	m := newTestApp(b, opts)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	until(b, m, m.connectCmd(), func(msg tea.Msg) bool { _, ok := msg.(backendReadyMsg); return ok })
	_, cmd := m.Update(press("enter"))
	until(b, m, cmd, func(msg tea.Msg) bool { _, ok := msg.(lesson.Ran); return ok })
	b.ResetTimer()
	for range b.N {
		m.Update(press("a"))
		_ = m.render()
	}
}

// The first frame of the built binary, measured as a process: from its
// start in a 120×40 pseudo-terminal to the catalog on the screen. The
// issue's budget is 150 ms.
func BenchmarkFirstFrame(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "schemalab")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/schemalab").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	state := b.TempDir()
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(bin)
		cmd.Env = append(cmd.Environ(), "SCHEMALAB_STATE_DIR="+state, "SCHEMALAB_CACHE_DIR="+filepath.Join(state, "cache"), "TERM=xterm-256color")
		start := time.Now()
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		var seen bytes.Buffer
		buf := make([]byte, 64<<10)
		for !bytes.Contains(seen.Bytes(), []byte("hands-on")) {
			n, err := f.Read(buf)
			if err != nil {
				b.Fatalf("read: %v after %q", err, seen.String())
			}
			seen.Write(buf[:n])
		}
		total += time.Since(start)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/first-frame")
}
