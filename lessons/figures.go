package lessons

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// standardFigures are the figures every comparison may have, in the order
// the app and `schemalab run` show them.
var standardFigures = []string{"keys", "docs", "ms", "dataBytes", "indexBytes", "storageBytes", "updated"}

// figureLabels are the display names of the standard figure keys.
var figureLabels = map[string]string{
	"keys": "keys examined", "docs": "docs examined", "ms": "ms",
	"dataBytes": "data bytes", "indexBytes": "index bytes", "updated": "docs updated",
	"storageBytes": "storage bytes",
}

// FigureKeys lists the figures any variant has: the standard ones first,
// then an author's own in the order they appear.
func FigureKeys(vs []VariantResult) []string {
	var keys []string
	has := func(k string) bool {
		return slices.ContainsFunc(vs, func(v VariantResult) bool { _, ok := v.Figure(k); return ok })
	}
	for _, k := range standardFigures {
		if has(k) {
			keys = append(keys, k)
		}
	}
	for _, v := range vs {
		for _, f := range v.Figures {
			keys = appendNew(keys, f.Key)
		}
	}
	return keys
}

// FigureLabel is the display name of figure key k.
func FigureLabel(k string) string {
	if l, ok := figureLabels[k]; ok {
		return l
	}
	return k
}

// FormatFigure prints a figure as people read numbers: 2,879,488, or two
// decimals for a fraction. Magnitudes an int64 cannot hold exactly print
// in full with two decimals rather than overflow.
func FormatFigure(v float64) string {
	if v != math.Trunc(v) || math.Abs(v) >= 1e15 || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	s := strconv.FormatInt(int64(math.Abs(v)), 10)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
