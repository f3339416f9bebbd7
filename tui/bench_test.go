package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/sandbox"
)

// BenchmarkFirstFrame is launch to the first frame of the catalog with
// the embedded server started and connected.
func BenchmarkFirstFrame(b *testing.B) {
	opts := testOptions(b)
	for b.Loop() {
		be, err := sandbox.StartEmbedded(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		m := newTestApp(b, opts)
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
		m.Update(backendReadyMsg{backend: testSandbox(be)})
		if !strings.Contains(m.render(), "embedded sandbox") {
			b.Fatal("no catalog")
		}
		b.StopTimer()
		be.Close()
		b.StartTimer()
	}
}

func openedApp(b *testing.B, w, h int) *Model {
	m := newTestApp(b, testOptions(b))
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(backendReadyMsg{backend: testSandbox(testBackend)})
	m.openLesson("basics", 0)
	m.render()
	return m
}

// BenchmarkNavigate is a key press that changes step, to the redrawn
// frame.
func BenchmarkNavigate(b *testing.B) {
	m := openedApp(b, 160, 45)
	keys := []tea.KeyPressMsg{press("n"), press("p")}
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.render()
		i++
	}
}

// BenchmarkScroll50k is one scroll step of a 50,000-line output, to the
// redrawn frame.
func BenchmarkScroll50k(b *testing.B) {
	m := openedApp(b, 160, 45)
	var sb strings.Builder
	sb.WriteString("[\n")
	for i := range 50000 {
		fmt.Fprintf(&sb, "  { _id: %d, sensorId: 's7', temp: 21.%d },\n", i, i%10)
	}
	sb.WriteString("]")
	m.lesson.outputs[0] = &stepOutput{text: sb.String()}
	m.lesson.refresh()
	m.Update(press("\t")) // focus the output pane
	m.lesson.focus = 1
	m.lesson.SetSize(m.lesson.Width, m.lesson.Height)
	down := press("j")
	for b.Loop() {
		m.Update(down)
		m.render()
		if m.lesson.output.vp.AtBottom() {
			m.lesson.output.vp.GotoTop()
		}
	}
}

// BenchmarkWrap50k is setting a 50,000-line output whose every line is
// wider than the pane: the one-time cost of soft wrapping it.
func BenchmarkWrap50k(b *testing.B) {
	var sb strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&sb, "  { _id: %d, sensorId: 's7', at: ISODate('2026-09-01T00:00:00.000Z'), temp: 21.%d, note: 'a longer line' },\n", i, i%10)
	}
	text := sb.String()
	p := newPane(openedApp(b, 120, 34).Common, "Output")
	p.SetSize(54, 30)
	for b.Loop() {
		p.SetContent(text)
	}
}
