package figures

import (
	"testing"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
)

func variants(n int) []lessons.VariantResult {
	labels := []string{"flat", "bucketed", "flat, steady", "bucketed, steady"}
	vals := [][]float64{{720, 720, 3, 2_879_488}, {12, 12, 0, 77_824}, {720, 720, 2, 2_879_488}, {12, 12, 0, 40_960}}
	var vs []lessons.VariantResult
	for i := range n {
		vs = append(vs, lessons.VariantResult{Label: labels[i], Figures: []lessons.Figure{
			{Key: "keys", Value: vals[i][0]}, {Key: "docs", Value: vals[i][1]}, {Key: "ms", Value: vals[i][2]}, {Key: "storageBytes", Value: vals[i][3]}}})
	}
	return vs
}

// Two variants' figures: each row scaled to its largest value, the lower
// one marked better; at every width.
func TestTwoVariantGoldens(t *testing.T) {
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		m := New(comptest.Common(false))
		m.SetVariants(variants(2), 0, 1)
		m.SetSize(w, m.Rows())
		out := m.View()
		comptest.FitWidth(t, out, w)
		return out
	})
}

// Four variants, the second of two comparisons, in present mode's tall
// bars.
func TestFourVariantPresentGoldens(t *testing.T) {
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		m := New(comptest.Common(true))
		m.SetVariants(variants(4), 1, 2)
		m.SetSize(w, m.Rows())
		out := m.View()
		comptest.FitWidth(t, out, w)
		return out
	})
}
