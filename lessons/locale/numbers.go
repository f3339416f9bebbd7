package locale

import (
	"math"
	"time"

	"golang.org/x/text/number"
)

var (
	msgMicros  = &Message{ID: "duration.micros", Other: "{{.N}}µs"}
	msgMillis  = &Message{ID: "duration.millis", Other: "{{.N}}ms"}
	msgSeconds = &Message{ID: "duration.seconds", Other: "{{.N}}s"}
)

// Duration is a run time as schemalab shows it: µs below a millisecond, ms
// below ten seconds, then seconds with one decimal, in the language's
// units and decimal mark (12ms · 12 мс · 12,3 s).
func (l *Localizer) Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return l.T(msgMicros, map[string]any{"N": d.Microseconds()})
	case d < 10*time.Second:
		return l.T(msgMillis, map[string]any{"N": d.Milliseconds()})
	}
	return l.T(msgSeconds, map[string]any{"N": l.Decimal(d.Round(100*time.Millisecond).Seconds(), 1)})
}

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
