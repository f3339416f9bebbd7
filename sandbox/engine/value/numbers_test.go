package value

import (
	"math"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Decimal128::toDouble as the engine's coercions use it: the nearest
// double, ±Inf past the double range (not an error), NaN for NaN, and the
// sign of a negative zero kept.
func TestDecimalToDouble(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"1.5E+3", 1500},
		{"0.1", 0.1},
		{"1E+6000", math.Inf(1)},
		{"-1E+6000", math.Inf(-1)},
		{"Infinity", math.Inf(1)},
		{"-Infinity", math.Inf(-1)},
		{"-0", math.Copysign(0, -1)},
	} {
		d, err := bson.ParseDecimal128(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := DecimalToDouble(d); got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("DecimalToDouble(%s) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := DecimalToDouble(bson.NewDecimal128(0x7c00000000000000, 0)); !math.IsNaN(got) {
		t.Errorf("DecimalToDouble(NaN) = %v", got)
	}
}

func TestWholeNumber(t *testing.T) {
	for _, c := range []struct {
		in   any
		want int64
		ok   bool
	}{
		{int32(-3), -3, true},
		{int64(1 << 40), 1 << 40, true},
		{2.0, 2, true},
		{2.5, 0, false},
		{math.NaN(), 0, false},
		{1e300, 0, false},
		{float64(1 << 63), 0, false},
		{float64(-(1 << 63)), math.MinInt64, true},
		{"2", 0, false},
	} {
		if got, ok := WholeNumber(c.in); got != c.want || ok != c.ok {
			t.Errorf("WholeNumber(%v) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
