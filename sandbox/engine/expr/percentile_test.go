package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The t-digest is exact while every centroid holds one value, and within
// a small rank error beyond (percentile_algo_tdigest_test.cpp's accuracy
// checks on shuffled data).
func TestTDigest(t *testing.T) {
	small := NewTDigest()
	for _, v := range []float64{5, math.NaN(), 1, 3, 2, 4} {
		small.Incorporate(v)
	}
	got, ok := small.Percentiles([]float64{0, 0.2, 0.5, 0.99, 1})
	if !ok || got[0] != 1 || got[1] != 1 || got[2] != 3 || got[3] != 5 || got[4] != 5 {
		t.Fatalf("small digest %v %v, want [1 1 3 5 5]", got, ok)
	}
	big := NewTDigest()
	const n = 100_000
	r := rand.New(rand.NewPCG(1, 2))
	for _, i := range r.Perm(n) {
		big.Incorporate(float64(i))
	}
	ps := []float64{0.001, 0.01, 0.5, 0.99, 0.999}
	got, _ = big.Percentiles(ps)
	for i, p := range ps {
		want := float64(TrueRank(n, p))
		if math.Abs(got[i]-want) > 0.005*n {
			t.Errorf("p%g = %g, want about %g", p, got[i], want)
		}
	}
	if _, ok := NewTDigest().Percentiles([]float64{0.5}); ok {
		t.Error("an empty digest has no percentile")
	}
}
