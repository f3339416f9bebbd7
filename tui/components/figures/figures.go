// Package figures draws a comparison's figures: one row per figure (keys
// and documents examined, time, data and index bytes, an author's own),
// one column per variant, each a number and a bar scaled to the row's
// largest value, the better (lower) value of a row highlighted. It is the
// panel that stays on screen under a comparison.
package figures

import (
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/pane"
)

var (
	msgTitle     = &locale.Message{ID: "figures.title", Other: "Figures"}
	msgTitleOf   = &locale.Message{ID: "figures.titleOf", Other: "Figures · comparison {{.N}} of {{.Total}} · {{.Key}} shows the next"}
	msgNoFigures = &locale.Message{ID: "figures.none", Other: "No figures: these variants ran no explain and named no collection."}
)

// Model is the figures panel.
type Model struct {
	common.Common
	vs          []lessons.VariantResult
	placeholder string
	group, of   int
	footer      string
}

// New is an empty panel.
func New(c common.Common) *Model { return &Model{Common: c} }

// SetVariants shows vs, comparison group+1 of of.
func (m *Model) SetVariants(vs []lessons.VariantResult, group, of int) {
	m.vs, m.group, m.of = vs, group, of
}

// SetPlaceholder is what the panel says before the comparison ran.
func (m *Model) SetPlaceholder(s string) { m.placeholder = s }

// SetFooter sets the bottom border's label (the run time).
func (m *Model) SetFooter(s string) { m.footer = s }

// Rows is the height the panel needs, border included.
func (m *Model) Rows() int {
	if len(m.vs) == 0 {
		return 3
	}
	n := len(lessons.FigureKeys(m.vs))
	if n == 0 {
		return 3
	}
	if m.Present {
		n *= 2
	}
	return n + 1 + pane.ChromeH
}

func (m *Model) SetSize(w, h int) { m.Common.SetSize(w, h) }

func (m *Model) Init() tea.Cmd                          { return nil }
func (m *Model) Update(tea.Msg) (common.Model, tea.Cmd) { return m, nil }
func (m *Model) ShortHelp() []key.Binding               { return nil }
func (m *Model) FullHelp() [][]key.Binding              { return nil }

// View draws the panel in its frame.
func (m *Model) View() string {
	title := m.T(msgTitle, nil)
	if m.of > 1 {
		title = m.T(msgTitleOf, map[string]any{"N": m.group + 1, "Total": m.of, "Key": m.KeyMap.Group.Help().Key})
	}
	body := m.placeholder
	if len(m.vs) > 0 {
		body = Table(m.Common, m.vs, m.Width-pane.ChromeW, m.Present)
	}
	return pane.Frame(m.Styles, m.Width, m.Height, title, m.footer, strings.Split(body, "\n"), false)
}

// Table is the figures as text width cells wide; big draws the bars two
// lines tall for --present.
func Table(c common.Common, vs []lessons.VariantResult, width int, big bool) string {
	st := c.Styles
	keys := lessons.FigureKeys(vs)
	if len(keys) == 0 || len(vs) == 0 {
		return st.Muted.Render(c.T(msgNoFigures, nil))
	}
	labelW := 0
	for _, k := range keys {
		labelW = max(labelW, ansi.StringWidth(lessons.FigureLabel(c.L, k)))
	}
	labelW += 2
	cellW := max((width-labelW)/len(vs), 8)
	numW := 0
	for _, k := range keys {
		for _, v := range vs {
			if x, ok := v.Figure(k); ok {
				numW = max(numW, ansi.StringWidth(c.L.Figure(x)))
			}
		}
	}
	barW := max(cellW-numW-3, 1)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", labelW))
	for _, v := range vs {
		b.WriteString(common.Fit(st.Subtitle.Render(ansi.Truncate(v.Label, cellW-1, "…")), cellW))
	}
	for _, k := range keys {
		writeRow(&b, c, lessons.FigureLabel(c.L, k), vs, k, labelW, cellW, numW, barW, big)
	}
	return b.String()
}

func writeRow(b *strings.Builder, c common.Common, label string, vs []lessons.VariantResult, k string, labelW, cellW, numW, barW int, big bool) {
	st := c.Styles
	maxV, minV, n := 0.0, math.Inf(1), 0
	for _, v := range vs {
		if x, ok := v.Figure(k); ok {
			maxV, minV, n = max(maxV, x), min(minV, x), n+1
		}
	}
	// A better value exists only when variants differ.
	differ := n > 1 && maxV != minV
	rows := 1
	if big {
		rows = 2
	}
	for r := range rows {
		b.WriteByte('\n')
		if r == 0 {
			b.WriteString(common.Fit(st.Muted.Render(label), labelW))
		} else {
			b.WriteString(strings.Repeat(" ", labelW))
		}
		for _, v := range vs {
			x, ok := v.Figure(k)
			if !ok {
				b.WriteString(common.Fit(st.Muted.Render("—"), cellW))
				continue
			}
			better := differ && x == minV
			num := c.L.Figure(x)
			num = strings.Repeat(" ", numW-ansi.StringWidth(num)) + num
			barStyle, numStyle := st.BarFull, st.Text
			if better {
				barStyle, numStyle = st.BarBetter, st.Better
			}
			if r > 0 {
				num = strings.Repeat(" ", numW)
			}
			b.WriteString(common.Fit(numStyle.Render(num)+" "+barStyle.Render(lessons.BarCells(x, maxV, barW)), cellW))
		}
	}
}
