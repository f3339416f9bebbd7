package pictures

import (
	"strings"
	"testing"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
)

// The outlier lesson's distribution of customers per book.
func TestDistributionGoldens(t *testing.T) {
	bars := []lessons.Bar{{Label: "0–50", Count: 966}, {Label: "50–100", Count: 10}, {Label: "100–1000", Count: 18},
		{Label: "1000–10000", Count: 5}, {Label: "10000–100000", Count: 1}}
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		out := strings.Join(Render(comptest.Common(false), lessons.Chart{Distribution: bars}, w, false), "\n")
		comptest.FitWidth(t, out, w)
		return out
	})
}

// A bucket of 60 readings: every one drawn, in rows of equal length when
// the width is narrower than the series.
func TestBucketGoldens(t *testing.T) {
	s := &lessons.BucketSeries{Count: 60, Min: 18.2, Max: 24.9, Avg: 21.43}
	for i := range 60 {
		s.Values = append(s.Values, 18.2+float64((i*7)%68)/10)
	}
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		out := strings.Join(Render(comptest.Common(false), lessons.Chart{Bucket: s}, w, false), "\n")
		comptest.FitWidth(t, out, w)
		if n := strings.Count(out, "▁") + strings.Count(out, "▂") + strings.Count(out, "▃") + strings.Count(out, "▄") +
			strings.Count(out, "▅") + strings.Count(out, "▆") + strings.Count(out, "▇") + strings.Count(out, "█"); n != 60 && w >= 62 {
			t.Errorf("%d readings drawn, want 60", n)
		}
		return out
	})
}
