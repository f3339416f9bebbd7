package aggregate

import "testing"

// The cases mongod's own comments and unit tests describe for the
// preferred-number rounders (granularity_rounder_preferred_numbers_test).
func TestPreferredNumberRounding(t *testing.T) {
	cases := []struct {
		series string
		value  float64
		up     bool
		want   float64
	}{
		{"E6", 0.8, true, 1},       // between the previous decade's max and this min
		{"E6", 0.8, false, 0.68},   // rounds down to the previous decade's max
		{"E6", 15, true, 22},       // on the series: strictly greater
		{"E6", 15, false, 10},      // on the series: strictly less
		{"R5", 160, true, 250},     // 16 × 10 scaled exactly
		{"E96", 101, true, 102},    // E96 is the full series
		{"E192", 101, true, 102},   // E192 too
		{"1-2-5", 7, true, 10},     // 7 lies between 5 and the next decade's 10
		{"R80", 1.0, false, 0.975}, // mongod's least-rounded R80 starts at 103
	}
	for _, c := range cases {
		got := roundGranularity(c.series, c.value, c.up)
		if got != c.want {
			t.Errorf("%s round(up=%v) %v = %v, want %v", c.series, c.up, c.value, got, c.want)
		}
	}
}
