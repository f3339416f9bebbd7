package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

// picture draws a run block's chart (lessons.Pictures recognized it from
// the values): a distribution as a horizontal bar chart, a bucket as a
// sparkline with its figures.
func picture(st *styles.Styles, c lessons.Chart, width int, big bool) string {
	switch {
	case c.Distribution != nil:
		return distribution(st, c.Distribution, width, big)
	case c.Bucket != nil:
		return bucketPicture(st, c.Bucket, width)
	}
	return ""
}

// distribution charts the bars, each labelled with its range.
func distribution(st *styles.Styles, bars []lessons.Bar, width int, big bool) string {
	lw, maxC := 0, 0.0
	for _, b := range bars {
		lw, maxC = max(lw, ansi.StringWidth(b.Label)), max(maxC, b.Count)
	}
	lw = min(lw, width/3)
	cw := len(lessons.FormatFigure(maxC))
	barW := max(width-lw-cw-4, 4)
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render("distribution") + "\n")
	for _, bar := range bars {
		rows := 1
		if big {
			rows = 2
		}
		for r := range rows {
			label, count := fit(bar.Label, lw), fmt.Sprintf("%*s", cw, lessons.FormatFigure(bar.Count))
			if r > 0 {
				label, count = strings.Repeat(" ", lw), strings.Repeat(" ", cw)
			}
			b.WriteString(st.Muted.Render(label) + " " + st.Text.Render(count) + " " + st.BarFull.Render(barOf(bar.Count, maxC, barW)) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// bucketPicture draws one bucket: its samples as a sparkline next to
// count, min, max and average.
func bucketPicture(st *styles.Styles, s *lessons.BucketSeries, width int) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range s.Values {
		lo, hi = min(lo, x), max(hi, x)
	}
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render(fmt.Sprintf("bucket · %d reading%s", len(s.Values), plural(len(s.Values)))))
	for _, row := range sparkRows(s.Values, lo, hi, max(width-2, 8)) {
		b.WriteString("\n" + st.BarFull.Render(row))
	}
	figs := fmt.Sprintf("count %s · min %g · max %g · avg %.2f", lessons.FormatFigure(s.Count), s.Min, s.Max, s.Avg)
	b.WriteString("\n" + st.Muted.Render(figs))
	return b.String()
}

// sparkRows maps every value to an eighth-height block, one cell each: a
// bucket's 60 readings are all shown, in rows of equal length when the
// pane is narrower than the series, on one scale so the rows compare.
func sparkRows(vals []float64, lo, hi float64, width int) []string {
	ticks := []rune("▁▂▃▄▅▆▇█")
	rows := (len(vals) + width - 1) / width
	if rows > 4 {
		// Very long series: sample, one cell per column on one row.
		return []string{sparkline(vals, lo, hi, width, ticks)}
	}
	per := (len(vals) + rows - 1) / rows
	var out []string
	for start := 0; start < len(vals); start += per {
		out = append(out, sparkline(vals[start:min(start+per, len(vals))], lo, hi, per, ticks))
	}
	return out
}

// sparkline draws vals on one row, sampling when there are more values
// than cells.
func sparkline(vals []float64, lo, hi float64, width int, ticks []rune) string {
	n := min(len(vals), width)
	out := make([]rune, n)
	for i := range n {
		x := vals[i*len(vals)/n]
		k := 0
		if hi > lo {
			k = int((x - lo) / (hi - lo) * float64(len(ticks)-1))
		}
		out[i] = ticks[min(max(k, 0), len(ticks)-1)]
	}
	return string(out)
}
