package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/tui/styles"
)

// picture draws what a run block's result is easier to look at than to
// read, or returns "": a distribution ({_id, count} documents, as $bucket
// and $sortByCount return) as a horizontal bar chart, and a bucket
// document (samples with count, min and max) as a sparkline with its
// figures. The shapes are recognized from the values, not from lesson ids,
// so an instructor's own lesson gets the same pictures. full returns the
// whole samples array of output i when it was printed in part.
func picture(st *styles.Styles, b lessons.BlockResult, full func(i int) bson.A, width int, big bool) string {
	for i, o := range b.Result.Outputs {
		if s := distribution(st, o.Value, width, big); s != "" {
			return s
		}
		if s := bucketPicture(st, o.Value, full(i), width); s != "" {
			return s
		}
	}
	return ""
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case shell.Int32Value:
		return float64(x), true
	}
	return 0, false
}

func field(d bson.D, k string) (any, bool) {
	for _, e := range d {
		if e.Key == k {
			return e.Value, true
		}
	}
	return nil, false
}

// distribution charts [{_id, count}, …]; a $bucket's numeric _id is the
// lower bound, so each bar is labelled with its range.
func distribution(st *styles.Styles, v any, width int, big bool) string {
	arr, ok := v.(bson.A)
	if !ok || len(arr) < 2 {
		return ""
	}
	labels := make([]string, len(arr))
	counts := make([]float64, len(arr))
	maxC := 0.0
	for i, e := range arr {
		d, ok := e.(bson.D)
		if !ok || len(d) != 2 {
			return ""
		}
		id, ok1 := field(d, "_id")
		c, ok2 := field(d, "count")
		n, ok3 := num(c)
		if !ok1 || !ok2 || !ok3 {
			return ""
		}
		counts[i], maxC = n, max(maxC, n)
		labels[i] = shell.Format(id, shell.FormatOptions{})
	}
	// Numeric ids in ascending order are bucket boundaries.
	bounds := true
	prev := math.Inf(-1)
	for _, e := range arr {
		id, _ := field(e.(bson.D), "_id")
		n, ok := num(id)
		if !ok || n <= prev {
			bounds = false
			break
		}
		prev = n
	}
	if bounds {
		for i := range labels {
			if i+1 < len(labels) {
				labels[i] = labels[i] + "–" + labels[i+1]
			} else {
				labels[i] += "+"
			}
		}
	}
	lw := 0
	for _, l := range labels {
		lw = max(lw, ansi.StringWidth(l))
	}
	lw = min(lw, width/3)
	cw := len(formatFigure(maxC))
	barW := max(width-lw-cw-4, 4)
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render("distribution") + "\n")
	for i := range labels {
		rows := 1
		if big {
			rows = 2
		}
		for r := range rows {
			label, count := fit(labels[i], lw), fmt.Sprintf("%*s", cw, formatFigure(counts[i]))
			if r > 0 {
				label, count = strings.Repeat(" ", lw), strings.Repeat(" ", cw)
			}
			b.WriteString(st.Muted.Render(label) + " " + st.Text.Render(count) + " " + st.BarFull.Render(bar(counts[i], maxC, barW)) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// bucketPicture draws one bucket document (or the first of a list): its
// samples as a sparkline next to count, min, max and average. all, when
// not nil, is the bucket's full samples array read from the database.
func bucketPicture(st *styles.Styles, v any, all bson.A, width int) string {
	if arr, ok := v.(bson.A); ok && len(arr) > 0 {
		v = arr[0]
	}
	d, ok := v.(bson.D)
	if !ok {
		return ""
	}
	sv, ok := field(d, "samples")
	samples, ok2 := sv.(bson.A)
	if !ok || !ok2 || len(samples) == 0 {
		return ""
	}
	if len(all) > len(samples) {
		samples = all
	}
	var vals []float64
	for _, s := range samples {
		sd, ok := s.(bson.D)
		if !ok {
			if n, ok := num(s); ok {
				vals = append(vals, n)
			}
			continue
		}
		// The measurement is the last numeric field (t in {m, t}).
		for i := len(sd) - 1; i >= 0; i-- {
			if n, ok := num(sd[i].Value); ok {
				vals = append(vals, n)
				break
			}
		}
	}
	if len(vals) < 2 {
		return "" // one reading is no line; the document says it all
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, x := range vals {
		lo, hi, sum = min(lo, x), max(hi, x), sum+x
	}
	stat := func(k string, fallback float64) float64 {
		if x, ok := field(d, k); ok {
			if n, ok := num(x); ok {
				return n
			}
		}
		return fallback
	}
	count := stat("count", float64(len(vals)))
	mn, mx := stat("min", lo), stat("max", hi)
	avg := sum / float64(len(vals))
	if s, ok := field(d, "sum"); ok {
		if n, ok := num(s); ok && count > 0 {
			avg = n / count
		}
	}
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render(fmt.Sprintf("bucket · %d reading%s", len(vals), plural(len(vals)))))
	for _, row := range sparkRows(vals, lo, hi, max(width-2, 8)) {
		b.WriteString("\n" + st.BarFull.Render(row))
	}
	figs := fmt.Sprintf("count %s · min %g · max %g · avg %.2f", formatFigure(count), mn, mx, avg)
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
