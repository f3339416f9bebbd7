package tui

import (
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

// standardFigures is the order of the figures every comparison may have.
var standardFigures = []string{"keys", "docs", "ms", "dataBytes", "indexBytes", "updated"}

// figureKeys lists the figures any variant has: standard ones first, then
// an author's own in the order they appear.
func figureKeys(vs []lessons.VariantResult) []string {
	var keys []string
	has := func(k string) bool {
		for _, v := range vs {
			if _, ok := v.Figure(k); ok {
				return true
			}
		}
		return false
	}
	for _, k := range standardFigures {
		if has(k) {
			keys = append(keys, k)
		}
	}
	for _, v := range vs {
		for _, f := range v.Figures {
			if !strings.Contains(" "+strings.Join(keys, " ")+" ", " "+f.Key+" ") {
				keys = append(keys, f.Key)
			}
		}
	}
	return keys
}

func figureLabel(k string) string {
	if l, ok := lessons.FigureLabels[k]; ok {
		return l
	}
	return k
}

// formatFigure prints a figure as people read numbers: 2,879,488.
func formatFigure(v float64) string {
	if v != math.Trunc(v) || math.Abs(v) >= 1e15 {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	s := strconv.FormatInt(int64(math.Abs(v)), 10)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// bar draws value/maxV of width cells with eighth-cell precision; a
// non-zero value always shows at least a sliver.
func bar(value, maxV float64, width int) string {
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
	keys := figureKeys(vs)
	if len(keys) == 0 || len(vs) == 0 {
		return st.Muted.Render("No figures: these variants ran no explain and named no collection.")
	}
	labelW := 0
	for _, k := range keys {
		labelW = max(labelW, ansi.StringWidth(figureLabel(k)))
	}
	labelW += 2
	cellW := max((width-labelW)/len(vs), 8)
	numW := 0
	for _, k := range keys {
		for _, v := range vs {
			if x, ok := v.Figure(k); ok {
				numW = max(numW, len(formatFigure(x)))
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
				b.WriteString(fit(st.Muted.Render(figureLabel(k)), labelW))
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
				num := formatFigure(x)
				num = strings.Repeat(" ", numW-len(num)) + num
				barStyle, numStyle := st.BarFull, st.Text
				if better {
					barStyle, numStyle = st.BarBetter, st.Better
				}
				if r > 0 {
					num = strings.Repeat(" ", numW)
				}
				cell := numStyle.Render(num) + " " + barStyle.Render(bar(x, maxV, barW))
				b.WriteString(fit(cell, cellW))
			}
		}
	}
	return b.String()
}
