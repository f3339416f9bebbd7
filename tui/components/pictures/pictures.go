// Package pictures draws what a run block's result is easier to look at
// than to read (lessons.Pictures recognized it from the values): a
// distribution as a horizontal bar chart, a bucket document as a
// sparkline of its readings with its rolled-up figures.
package pictures

import (
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/inline"
)

var (
	msgDistribution = &locale.Message{ID: "pictures.distribution", Other: "distribution"}
	msgBucket       = &locale.Message{ID: "pictures.bucket", One: "bucket · {{.Count}} reading", Other: "bucket · {{.Count}} readings"}
	msgBucketFigs   = &locale.Message{ID: "pictures.bucketFigures", Other: "count {{.Count}} · min {{.Min}} · max {{.Max}} · avg {{.Avg}}"}
)

// Render draws chart c width cells wide, as lines; big doubles the bars'
// height for --present.
func Render(cm common.Common, c lessons.Chart, width int, big bool) []string {
	switch {
	case c.Distribution != nil:
		return distribution(cm, c.Distribution, width, big)
	case c.Bucket != nil:
		return bucket(cm, c.Bucket, width)
	}
	return nil
}

func distribution(c common.Common, bars []lessons.Bar, width int, big bool) []string {
	st := c.Styles
	lw, maxC := 0, 0.0
	for _, b := range bars {
		lw, maxC = max(lw, ansi.StringWidth(b.Label)), max(maxC, b.Count)
	}
	lw = min(lw, width/3)
	cw := ansi.StringWidth(c.L.Figure(maxC))
	barW := max(width-lw-cw-4, 4)
	out := []string{st.PaneTitle.Render(c.T(msgDistribution, nil))}
	rows := 1
	if big {
		rows = 2
	}
	for _, bar := range bars {
		for r := range rows {
			count := c.L.Figure(bar.Count)
			label, count := common.Fit(bar.Label, lw), strings.Repeat(" ", max(cw-ansi.StringWidth(count), 0))+count
			if r > 0 {
				label, count = strings.Repeat(" ", lw), strings.Repeat(" ", cw)
			}
			out = append(out, st.Muted.Render(label)+" "+st.Text.Render(count)+" "+st.BarFull.Render(lessons.BarCells(bar.Count, maxC, barW)))
		}
	}
	return out
}

func bucket(c common.Common, s *lessons.BucketSeries, width int) []string {
	st := c.Styles
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range s.Values {
		lo, hi = min(lo, x), max(hi, x)
	}
	out := []string{st.PaneTitle.Render(c.N(msgBucket, len(s.Values), nil))}
	for _, row := range SparkRows(s.Values, lo, hi, max(width-2, 8)) {
		out = append(out, st.BarFull.Render(row))
	}
	figs := c.T(msgBucketFigs, map[string]any{"Count": c.L.Figure(s.Count), "Min": c.L.Number(s.Min),
		"Max": c.L.Number(s.Max), "Avg": c.L.Decimal(s.Avg, 2)})
	for _, l := range inline.Split([]inline.Span{{Text: figs}}).Wrap(width) {
		out = append(out, st.Muted.Render(l.Plain()))
	}
	return out
}

// SparkRows maps every value to an eighth-height block, one cell each: a
// bucket's 60 readings are all shown, in rows of equal length when the
// width is narrower than the series, on one scale so the rows compare.
func SparkRows(vals []float64, lo, hi float64, width int) []string {
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
