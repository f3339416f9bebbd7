package value

import (
	"math"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
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

// The conversions named after mongod's, on the edges that distinguish them.
func TestNumberConversions(t *testing.T) {
	dec := func(s string) bson.Decimal128 {
		d, err := bson.ParseDecimal128(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		in   any
		want int64
		code int32
	}{
		{int32(-3), -3, 0},
		{2.9, 2, 0},
		{-2.9, -2, 0},
		{1e19, 0, 31109},
		{math.NaN(), 0, 31109},
		{dec("2.5"), 2, 0},
		{dec("3.5"), 4, 0},
		{"x", 0, 16004},
	} {
		got, err := CoerceToLong(c.in)
		var code int32
		if me, ok := err.(*mongoerr.Error); ok {
			code = me.Code
		}
		if got != c.want || code != c.code {
			t.Errorf("CoerceToLong(%v) = %d, %v; want %d, code %d", c.in, got, err, c.want, c.code)
		}
	}
	if _, err := CoerceToInt(int64(1 << 40)); err == nil || err.(*mongoerr.Error).Code != 31108 {
		t.Errorf("CoerceToInt(2^40) = %v, want 31108", err)
	}
	for _, c := range []struct {
		in             any
		integral, is64 bool
	}{
		{int64(1 << 40), false, true},
		{2.0, true, true},
		{2.5, false, false},
		{dec("4.000"), true, true},
		{dec("4.5"), false, false},
		{dec("1E+30"), false, false},
	} {
		if Integral(c.in) != c.integral || Integral64Bit(c.in) != c.is64 {
			t.Errorf("Integral(%v), Integral64Bit = %v, %v; want %v, %v", c.in, Integral(c.in), Integral64Bit(c.in), c.integral, c.is64)
		}
	}
	for _, c := range []struct {
		in   any
		want int64
	}{
		{math.NaN(), 0},
		{1e30, math.MaxInt64},
		{-1e30, math.MinInt64},
		{dec("-1E+30"), math.MinInt64},
		{dec("7.9"), 7},
	} {
		if got, ok := SafeNumberLong(c.in); !ok || got != c.want {
			t.Errorf("SafeNumberLong(%v) = %d, want %d", c.in, got, c.want)
		}
	}
	if CreateIntOrLong(1<<31) != int64(1<<31) || CreateIntOrLong(5) != int32(5) {
		t.Error("CreateIntOrLong")
	}
}
