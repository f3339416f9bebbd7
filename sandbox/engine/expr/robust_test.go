package expr

import (
	"fmt"
	"sort"
	"testing"
)

// TestNoPanics feeds every operator a spread of malformed and edge-case
// arguments: user input must produce errors or values, never panics.
func TestNoPanics(t *testing.T) {
	args := []string{
		`1`, `-1`, `0`, `1.5`, `"x"`, `""`, `null`, `true`, `[]`, `[1]`, `[1, 2]`, `[1, 2, 3]`, `[1, 2, 3, 4]`,
		`{}`, `{"a": 1}`, `[null, null]`, `["$a", "$b"]`, `["$s", 0, -5]`, `["$arr", -1]`, `["$arr", 2147483648]`,
		`[{"$numberDecimal": "1E+6000"}, {"$numberDecimal": "-Infinity"}]`, `[{"$numberDecimal": "NaN"}, 0]`,
		`[{"$numberLong": "-9223372036854775808"}, -1]`, `[1e308, 1e308]`, `["$d", "$d"]`, `["$d", 1e300]`,
		`{"input": "$arr", "as": "x", "in": "$$x", "cond": true}`, `{"input": 5, "initialValue": 0, "in": 1}`,
		`{"date": "$d", "unit": "year", "amount": 1e18, "binSize": 3, "startDate": "$d", "endDate": "$d"}`,
		`{"date": "$d", "format": "%", "timezone": "+99:99"}`, `{"dateString": "2020-13-45", "format": "%Y"}`,
		`{"year": 9999, "month": 32767, "day": -32768, "millisecond": 1e15}`,
		`{"inputs": [[1], "$s"], "useLongestLength": true, "defaults": [1, 2]}`,
		`{"input": "$s", "regex": "(", "options": "x"}`, `{"input": "$s", "find": "", "replacement": "y"}`,
		`{"field": "a", "input": "$o", "value": 1}`, `{"n": 0, "input": [1]}`, `{"branches": [{"case": 1}]}`,
		`{"vars": {"x": 1}, "in": "$$x"}`, `{"to": "int", "input": "$s", "onError": 1}`, `{"input": [3, 1], "sortBy": {"a": 1}}`,
	}
	doc := `{"a": 1, "b": {"$numberLong": "9223372036854775807"}, "s": "héllo", "arr": [1, {"a": 2}, [3]],
		"d": {"$date": "2020-02-29T12:00:00Z"}, "o": {"x": 1}}`
	names := make([]string, 0, len(operators))
	for n := range operators {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, a := range args {
			spec := fmt.Sprintf(`{%q: %s}`, n, a)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panicked: %v", spec, r)
					}
				}()
				_, _ = evalCase(t, spec, doc)
			}()
		}
	}
}
