package locale

import (
	"math"

	"golang.org/x/text/number"
)

// Int is n with the language's digit grouping: 2,879,488 in English,
// 2.879.488 in Indonesian, 2 879 488 in Russian.
func (l *Localizer) Int(n int) string { return l.numbers.Sprint(number.Decimal(n)) }

// Decimal is v with exactly digits fraction digits, grouped, with the
// language's decimal mark: 71.25 · 71,25.
func (l *Localizer) Decimal(v float64, digits int) string {
	return l.numbers.Sprint(number.Decimal(v, number.Scale(digits)))
}

// Number is v as the language writes it, with up to three decimals:
// 20.7 · 20,7.
func (l *Localizer) Number(v float64) string { return l.numbers.Sprint(number.Decimal(v)) }

// Figure is a measured figure as people read numbers: a whole number with
// its digits grouped, a fraction with two decimals. Magnitudes an int64
// cannot hold exactly print in full with two decimals rather than overflow.
func (l *Localizer) Figure(v float64) string {
	if v != math.Trunc(v) || math.Abs(v) >= 1e15 || math.IsInf(v, 0) || math.IsNaN(v) {
		return l.Decimal(v, 2)
	}
	return l.numbers.Sprint(number.Decimal(int64(v)))
}
