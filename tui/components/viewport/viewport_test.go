package viewport

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/components/internal/comptest"
)

var (
	down       = tea.KeyPressMsg{Code: 'j', Text: "j"}
	shiftRight = tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModShift}
	shiftLeft  = tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModShift}
)

// wideContent is prose above a table too wide for a 20-cell window.
func wideContent() []Row {
	return []Row{
		{Text: "prose stays"},
		{Text: "0123456789abcdefghijklmnopqrstuvwxyz", Scroll: true, Gutter: "│ "},
		{Text: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", Scroll: true, Gutter: "│ "},
		CueRow(38, "shift+←/→ scrolls"),
	}
}

func TestHorizontalScrollMovesOnlyScrollRows(t *testing.T) {
	m := New(comptest.Common(false))
	m.SetSize(20, 4)
	m.SetRows(wideContent())
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	want := []string{"prose stays", "│ 0123456789abcdefgh", "│ ABCDEFGHIJKLMNOPQR"}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("row %d = %q, want %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[3], "more →") || strings.Contains(lines[3], "← more") {
		t.Errorf("cue at the left edge = %q, want only more →", lines[3])
	}

	m.Update(shiftRight)
	lines = strings.Split(ansi.Strip(m.View()), "\n")
	if lines[0] != "prose stays" || lines[1] != "│ 89abcdefghijklmnop" {
		t.Errorf("after shift+→: %q", lines[:2])
	}
	if !strings.Contains(lines[3], "← more · more →") {
		t.Errorf("cue in the middle = %q", lines[3])
	}
	for range 10 {
		m.Update(shiftRight)
	}
	if m.XOffset() != 38-20 {
		t.Errorf("x offset stops at %d, want %d (the block's width less the window's)", m.XOffset(), 18)
	}
	lines = strings.Split(ansi.Strip(m.View()), "\n")
	if lines[1] != "│ ijklmnopqrstuvwxyz" || !strings.Contains(lines[3], "← more") || strings.Contains(lines[3], "more →") {
		t.Errorf("at the right end: %q", lines)
	}
	comptest.FitWidth(t, m.View(), 20)
	m.Update(shiftLeft)
	if m.XOffset() != 10 {
		t.Errorf("shift+← goes back a step: x = %d", m.XOffset())
	}
}

func TestRenderIsExactlyTheWindow(t *testing.T) {
	m := New(comptest.Common(false))
	m.SetSize(30, 5)
	m.SetRows([]Row{{Text: "one"}, {Text: "two"}})
	if got := strings.Count(m.View(), "\n") + 1; got != 5 {
		t.Errorf("short content renders %d lines, want the window's 5", got)
	}
	var rows []Row
	for i := range 100 {
		rows = append(rows, Row{Text: fmt.Sprintf("row %d", i)})
	}
	m.SetRows(rows)
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	if !m.AtBottom() || m.YOffset() != 95 {
		t.Errorf("end: offset %d, want 95", m.YOffset())
	}
	last := strings.Split(m.View(), "\n")
	if len(last) != 5 || last[4] != "row 99" {
		t.Errorf("bottom window = %q", last)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.YOffset() != 92 {
		t.Errorf("wheel up scrolls 3 rows: offset %d", m.YOffset())
	}
	m.ShowRow(10)
	if m.YOffset() != 10 {
		t.Errorf("ShowRow(10) above the window: offset %d", m.YOffset())
	}
	m.ShowRow(40)
	if m.YOffset() != 36 {
		t.Errorf("ShowRow(40) below the window: offset %d", m.YOffset())
	}
	m.SetRows(rows[:3])
	if m.YOffset() != 0 {
		t.Errorf("shorter content clamps the offset: %d", m.YOffset())
	}
}

func TestNoHorizontalScrollWithoutWideRows(t *testing.T) {
	m := New(comptest.Common(false))
	m.SetSize(30, 5)
	m.SetRows([]Row{{Text: "fits"}})
	if m.Handle(shiftRight) {
		t.Error("shift+→ moved a window whose rows all fit")
	}
	if len(m.ShortHelp()) != 2 {
		t.Errorf("short help offers horizontal keys with nothing to scroll: %d bindings", len(m.ShortHelp()))
	}
}

func TestWindowCutsWideCharacters(t *testing.T) {
	// 日本語 is six cells; a window never cuts a wide letter in half.
	if got := ansi.StringWidth(Window("日本語テキスト", 1, 5)); got > 5 {
		t.Errorf("window of 5 cells is %d wide", got)
	}
	if got := Window("Привет, мир", 0, 6); got != "Привет" {
		t.Errorf("Cyrillic window = %q", got)
	}
}

// BenchmarkScroll2000 is a key press to its frame on a 200×50 window over
// 2,000 rows of mongosh output, some wider than the window.
func BenchmarkScroll2000(b *testing.B) {
	m := New(comptest.Common(false))
	m.SetSize(200, 50)
	rows := make([]Row, 2000)
	for i := range rows {
		rows[i] = Row{Gutter: "│ ", Text: fmt.Sprintf("  { at: ISODate('2026-09-02T07:%02d:00.000Z'), temp: 23.%d, sensorId: 's%d' },%s", i%60, i%10, i%10, strings.Repeat(" pad", i%80)), Scroll: true}
	}
	rows = append(rows, CueRow(400, "shift+←/→ scrolls"))
	m.SetRows(rows)
	keys := []tea.KeyPressMsg{down, down, shiftRight, shiftLeft}
	i := 0
	for b.Loop() {
		m.Update(keys[i%len(keys)])
		_ = m.View()
		i++
		if m.AtBottom() {
			m.GotoTop()
		}
	}
}
