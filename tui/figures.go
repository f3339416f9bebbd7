package tui

import (
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

// barOf draws value/maxV of width cells with eighth-cell precision; a
// non-zero value always shows at least a sliver.
func barOf(value, maxV float64, width int) string {
	if width <= 0 || maxV <= 0 || value <= 0 {
		return ""
	}
	eighths := int(math.Round(value / maxV * float64(width*8)))
	eighths = max(eighths, 1)
	full, part := eighths/8, eighths%8
	s := strings.Repeat("█", full)
	if part > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[part-1])
	}
	return s
}

// figuresTable is the comparison's figures: one row per figure, one
// column per variant, each a number and a bar scaled to the row's largest
// value. The better (lower) value of a row is highlighted. big draws the
// bars two lines tall for --present.
func figuresTable(st *styles.Styles, vs []lessons.VariantResult, width int, big bool) string {
	keys := lessons.FigureKeys(vs)
	if len(keys) == 0 || len(vs) == 0 {
		return st.Muted.Render("No figures: these variants ran no explain and named no collection.")
	}
	labelW := 0
	for _, k := range keys {
		labelW = max(labelW, ansi.StringWidth(lessons.FigureLabel(k)))
	}
	labelW += 2
	cellW := max((width-labelW)/len(vs), 8)
	numW := 0
	for _, k := range keys {
		for _, v := range vs {
			if x, ok := v.Figure(k); ok {
				numW = max(numW, len(lessons.FormatFigure(x)))
			}
		}
	}
	barW := max(cellW-numW-3, 1)

	var b strings.Builder
	b.WriteString(strings.Repeat(" ", labelW))
	for _, v := range vs {
		b.WriteString(fit(st.Subtitle.Render(ansi.Truncate(v.Label, cellW-1, "…")), cellW))
	}
	for _, k := range keys {
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
				b.WriteString(fit(st.Muted.Render(lessons.FigureLabel(k)), labelW))
			} else {
				b.WriteString(strings.Repeat(" ", labelW))
			}
			for _, v := range vs {
				x, ok := v.Figure(k)
				if !ok {
					b.WriteString(fit(st.Muted.Render("—"), cellW))
					continue
				}
				better := differ && x == minV
				num := lessons.FormatFigure(x)
				num = strings.Repeat(" ", numW-len(num)) + num
				barStyle, numStyle := st.BarFull, st.Text
				if better {
					barStyle, numStyle = st.BarBetter, st.Better
				}
				if r > 0 {
					num = strings.Repeat(" ", numW)
				}
				cell := numStyle.Render(num) + " " + barStyle.Render(barOf(x, maxV, barW))
				b.WriteString(fit(cell, cellW))
			}
		}
	}
	return b.String()
}
