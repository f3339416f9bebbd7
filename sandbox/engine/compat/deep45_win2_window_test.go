package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Sweep 45 wave 2, window functions: $derivative, $integral,
// $expMovingAvg, $shift, $locf, $median/$percentile, the top/bottom
// family, range windows over dates, and $setWindowFields' own parse
// errors, following mongod 8.0's window_function_expression.h/.cpp
// (parsers), window_function_exec_derivative.cpp,
// window_function_integral.cpp and accumulator_exp_moving_avg.cpp.
const (
	wfDerivCpp  = "src/mongo/db/pipeline/window_function/window_function_exec_derivative.cpp"
	wfIntegCpp  = "src/mongo/db/pipeline/window_function/window_function_integral.cpp"
	wfExpAvgCpp = "src/mongo/db/pipeline/accumulator_exp_moving_avg.cpp"
	wfExpAvgPrs = wfExprCpp + " ExpressionExpMovingAvg::parse"
	wfUnitPrs   = wfExprH + " ExpressionWithUnit"
)

func TestDeep45Win2Window(t *testing.T) {
	w := func(op string) cover { return cover{family: window, op: op} }
	wt := func(op string) cover { return cover{family: window, op: op, col: types} }
	we := func(op string) cover { return cover{family: window, op: op, col: errorCol} }
	pts := `[{"t": 1, "x": 1}, {"t": 2, "x": 3}, {"t": 4, "x": 10}, {"t": 5, "x": {"$numberDecimal": "2"}}, {"t": 6, "x": {"$numberLong": "5"}}]`
	days := `[{"t": {"$date": "2024-01-01T00:00:00Z"}, "x": 0}, {"t": {"$date": "2024-01-02T00:00:00Z"}, "x": 24},
		{"t": {"$date": "2024-01-02T12:00:00Z"}, "x": 36}]`
	prev := `"window": {"documents": [-1, 0]}`
	pe := "PlanExecutor error during aggregation :: caused by :: "
	runAggCases(t, []aggCase{
		// $derivative: rise / run between the window's ends through
		// $subtract and $divide, so two ints give a double, a decimal
		// gives a decimal; a window of one document divides by zero: null.
		{name: "derivative of ints is a double, of a decimal a decimal", ref: wfDerivCpp, cov: wt("$derivative"), docs: pts,
			pipeline: swf(`{"$derivative": {"input": "$x"}, ` + prev + `}`),
			want:     `[{"r": null}, {"r": 2.0}, {"r": 3.5}, {"r": {"$numberDecimal": "-8"}}, {"r": {"$numberDecimal": "3"}}]`},
		{name: "derivative over a range window", ref: wfDerivCpp, cov: w("$derivative"), docs: pts,
			pipeline: swf(`{"$derivative": {"input": "$x"}, "window": {"range": [-1, 0]}}`),
			want:     `[{"r": null}, {"r": 2.0}, {"r": null}, {"r": {"$numberDecimal": "-8"}}, {"r": {"$numberDecimal": "3"}}]`},
		// Per unit the 1/ms rate is multiplied by the unit's ms, in doubles.
		{name: "derivative per hour over dates", ref: wfDerivCpp, cov: w("$derivative"), docs: days,
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": "hour"}, ` + prev + `}`),
			want:     `[{"r": null}, {"r": 0.9999999999999999}, {"r": 0.9999999999999999}]`},
		{name: "derivative per week over a time range window", ref: wfDerivCpp, cov: w("$derivative"), docs: days,
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": "week"}, "window": {"range": [-1, 0], "unit": "day"}}`),
			want:     `[{"r": null}, {"r": 168.0}, {"r": 168.0}]`},
		{name: "derivative of a null input", ref: wfDerivCpp, cov: we("$derivative"), docs: `[{"t": 1, "x": 1}, {"t": 2}]`,
			pipeline: swf(`{"$derivative": {"input": "$x"}, ` + prev + `}`), code: 5624903, msg: pe + "$derivative input must not be null or missing"},
		{name: "derivative with a unit over numbers", ref: wfDerivCpp, cov: we("$derivative"), docs: pts,
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": "day"}, ` + prev + `}`), code: 5624900, msg: pe + "$derivative with 'unit' expects the sortBy field to be a Date"},
		{name: "derivative over dates without a unit", ref: wfDerivCpp, cov: we("$derivative"), docs: days,
			pipeline: swf(`{"$derivative": {"input": "$x"}, ` + prev + `}`), code: 5624901, msg: pe + "$derivative where the sortBy is a Date requires an 'unit'"},
		{name: "derivative over a string sortBy", ref: wfDerivCpp, cov: we("$derivative"), docs: `[{"t": "a", "x": 1}, {"t": "b", "x": 2}]`,
			pipeline: swf(`{"$derivative": {"input": "$x"}, ` + prev + `}`), code: 5624902, msg: pe + "$derivative (with no 'unit') expects the sortBy field to be numeric"},
		{name: "derivative needs a window", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"input": "$x"}}`), code: 9, msg: "$derivative requires explicit window bounds"},
		{name: "derivative needs input", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"unit": "day"}, ` + prev + `}`), code: 9, msg: "$derivative requires an 'input' expression"},
		{name: "derivative of a string", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": "$x", ` + prev + `}`), code: 9, msg: `$derivative expects an object, but got a string: $derivative: "$x"`},
		{name: "derivative unit of a number", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": 1}, ` + prev + `}`), code: 9, msg: "unit' must be a string, but got int"},
		{name: "derivative unit month", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": "month"}, ` + prev + `}`), code: 5490710, msg: "unit must be 'week' or smaller"},
		{name: "derivative unknown unit", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"input": "$x", "unit": "days"}, ` + prev + `}`), code: 9, msg: "unknown time unit value: days"},
		{name: "derivative unknown argument", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: swf(`{"$derivative": {"input": "$x", "by": 1}, ` + prev + `}`), code: 9, msg: "$derivative got unexpected argument: by"},
		{name: "derivative without sortBy", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$derivative": {"input": "$x"}, ` + prev + `}}}}]`, code: 9, msg: "$derivative requires a sortBy"},
		{name: "derivative with a compound sortBy", ref: wfUnitPrs, cov: we("$derivative"),
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": 1, "x": 1}, "output": {"r": {"$derivative": {"input": "$x"}, ` + prev + `}}}}]`, code: 9, msg: "$derivative requires a non-compound sortBy"},

		// $integral: the trapezoid rule, each area (y1 + y2) * dx / 2.0 (a
		// double or a decimal) summed in a WindowFunctionSum; one point is
		// the sum of nothing, int 0; per unit it is divided by its ms.
		{name: "integral of one point is int 0, then doubles and decimals", ref: wfIntegCpp, cov: wt("$integral"), docs: pts,
			pipeline: swf(`{"$integral": {"input": "$x"}, ` + prev + `}`),
			want:     `[{"r": 0}, {"r": 2.0}, {"r": 13.0}, {"r": {"$numberDecimal": "6"}}, {"r": {"$numberDecimal": "3.5"}}]`},
		{name: "integral per hour over dates", ref: wfIntegCpp, cov: w("$integral"), docs: days,
			pipeline: swf(`{"$integral": {"input": "$x", "unit": "hour"}, "window": {"documents": ["unbounded", "current"]}}`),
			want:     `[{"r": 0.0}, {"r": 288.0}, {"r": 648.0}]`},
		{name: "integral of an empty range window is null", ref: wfIntegCpp, cov: w("$integral"), docs: pts,
			pipeline: swf(`{"$integral": {"input": "$x"}, "window": {"range": [1, 1]}}`),
			want:     `[{"r": 0}, {"r": null}, {"r": 0}, {"r": 0}, {"r": null}]`},
		{name: "integral with NaN in the window is NaN", ref: wfIntegCpp, cov: wt("$integral"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": {"$numberDouble": "NaN"}}, {"t": 3, "x": 1}, {"t": 4, "x": 1}]`,
			pipeline: swf(`{"$integral": {"input": "$x"}, ` + prev + `}`),
			want:     `[{"r": 0}, {"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}, {"r": 1.0}]`},
		{name: "integral of a null input", ref: wfIntegCpp, cov: we("$integral"), docs: `[{"t": 1, "x": 1}, {"t": 2, "x": null}]`,
			pipeline: swf(`{"$integral": {"input": "$x"}}`), code: 5423900,
			msg: pe + "The input value of $integral window function must be a vector of 2 value, the first value must be numeric or date type and the second must be numeric."},
		{name: "integral with a unit over numbers", ref: wfIntegCpp, cov: we("$integral"), docs: pts,
			pipeline: swf(`{"$integral": {"input": "$x", "unit": "second"}}`), code: 5423901, msg: pe + "$integral with 'unit' expects the sortBy field to be a Date"},
		{name: "integral over dates without a unit", ref: wfIntegCpp, cov: we("$integral"), docs: days,
			pipeline: swf(`{"$integral": {"input": "$x"}}`), code: 5423902, msg: pe + "$integral (with no 'unit') expects the sortBy field to be numeric"},
		{name: "integral with two units", ref: wfUnitPrs, cov: we("$integral"),
			pipeline: swf(`{"$integral": {"input": "$x", "unit": "day", "unit": "hour"}}`), code: 9, msg: "There can be only one 'unit' field for $integral"},
		{name: "integral with two windows", ref: wfUnitPrs, cov: we("$integral"),
			pipeline: swf(`{"$integral": {"input": "$x"}, ` + prev + `, ` + prev + `}`), code: 9, msg: "There can be only one 'window' field for $integral"},
		{name: "integral unknown argument", ref: wfUnitPrs, cov: we("$integral"),
			pipeline: swf(`{"$integral": {"input": "$x"}, "unit": "day"}`), code: 9, msg: "$integral got unexpected argument: unit"},
		{name: "integral unit quarter", ref: wfUnitPrs, cov: we("$integral"),
			pipeline: swf(`{"$integral": {"input": "$x", "unit": "quarter"}}`), code: 5490710, msg: "unit must be 'week' or smaller"},

		// $expMovingAvg: alpha = 2 / (N + 1) in decimal, each number
		// folded in as a decimal; a double unless an input was a decimal;
		// null before the first number, non-numbers skipped.
		{name: "expMovingAvg N of ints gives doubles", ref: wfExpAvgCpp, cov: wt("$expMovingAvg"), docs: pts,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": 2}}`),
			want: `[{"r": 1.0}, {"r": 2.3333333333333335}, {"r": 7.444444444444445}, {"r": {"$numberDecimal": "3.814814814814814814814814814814814"}},
				{"r": {"$numberDecimal": "4.604938271604938271604938271604939"}}]`},
		{name: "expMovingAvg skips what is not a number", ref: wfExpAvgCpp, cov: w("$expMovingAvg"),
			docs:     `[{"t": 1, "x": null}, {"t": 2, "x": "s"}, {"t": 3, "x": 3}, {"t": 4}, {"t": 5, "x": 1.5}]`,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "alpha": 0.5}}`),
			want:     `[{"r": null}, {"r": null}, {"r": 3.0}, {"r": 3.0}, {"r": 2.25}]`},
		{name: "expMovingAvg alpha as a double has 15 digits", ref: wfExpAvgCpp, cov: wt("$expMovingAvg"),
			docs:     `[{"t": 1, "x": 3}, {"t": 2, "x": {"$numberDecimal": "10"}}, {"t": 3, "x": 1.5}]`,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "alpha": 0.3}}`),
			want:     `[{"r": 3.0}, {"r": {"$numberDecimal": "5.100000000000000"}}, {"r": {"$numberDecimal": "4.020000000000000000000000000000"}}]`},
		{name: "expMovingAvg with NaN stays NaN", ref: wfExpAvgCpp, cov: wt("$expMovingAvg"),
			docs:     `[{"t": 1, "x": 3}, {"t": 2, "x": {"$numberDouble": "NaN"}}, {"t": 3, "x": 1}]`,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": 3}}`),
			want:     `[{"r": 3.0}, {"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}]`},
		// The alpha bounds are compared as decimals: a decimal just under
		// 1 passes, a double just under 1 rounds to 1 (15 digits) and fails.
		{name: "expMovingAvg alpha a decimal just under 1", ref: wfExpAvgPrs, cov: w("$expMovingAvg"), docs: `[{"t": 1, "x": 1}, {"t": 2, "x": 3}]`,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "alpha": {"$numberDecimal": "0.999999999999999999999999999999999"}}}`),
			want:     `[{"r": 1.0}, {"r": 3.0}]`},
		{name: "expMovingAvg alpha a double just under 1", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "alpha": 0.9999999999999999}}`), code: 9,
			msg: "'alpha' must be between 0 and 1 (exclusive), found alpha: 0.9999999999999999"},
		// N is read with safeNumberLong: the largest long still gives
		// 2 / 2^63, and -Infinity saturates in the message.
		{name: "expMovingAvg N the largest long", ref: wfExpAvgPrs, cov: w("$expMovingAvg"), docs: `[{"t": 1, "x": 1}, {"t": 2, "x": 3}]`,
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": {"$numberLong": "9223372036854775807"}}}`),
			want:     `[{"r": 1.0}, {"r": 1.0}]`},
		{name: "expMovingAvg N minus infinity", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": {"$numberDouble": "-Infinity"}}}`), code: 9,
			msg: "'N' must be greater than zero. Got -9223372036854775808"},
		{name: "expMovingAvg N not an integer", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": {"$numberDecimal": "2.5"}}}`), code: 9,
			msg: `'N' field must be an integer, but found  N: NumberDecimal("2.5"). To use a non-integer, use the 'alpha' argument instead`},
		{name: "expMovingAvg N a bool", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": true}}`), code: 9, msg: "'N' field must be an integer, but found type bool"},
		{name: "expMovingAvg N zero", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": 0.0}}`), code: 9, msg: "'N' must be greater than zero. Got 0"},
		{name: "expMovingAvg alpha a string", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "alpha": "0.5"}}`), code: 9, msg: "'alpha' must be a number"},
		{name: "expMovingAvg with N and alpha", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": 2, "alpha": 0.5}}`), code: 9,
			msg: "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field"},
		{name: "expMovingAvg with neither", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "beta": 0.5}}`), code: 9,
			msg: "Got unrecognized field in $expMovingAvg$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field"},
		{name: "expMovingAvg with a window", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: swf(`{"$expMovingAvg": {"input": "$x", "N": 2}, "window": {"documents": [-1, 0]}}`), code: 9,
			msg: "$expMovingAvg must have exactly one argument that is an object"},
		{name: "expMovingAvg without sortBy", ref: wfExpAvgPrs, cov: we("$expMovingAvg"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$expMovingAvg": {"input": "$x", "N": 2}}}}}]`, code: 9,
			msg: "$expMovingAvg requires an explicit 'sortBy'"},
	})
}

// swfParse is where mongod parses $setWindowFields.
const swfParse = "src/mongo/db/pipeline/document_source_set_window_fields.cpp createFromBson"

func TestDeep45Win2SetWindowFields(t *testing.T) {
	se := cover{family: stage, op: "$setWindowFields", col: errorCol}
	sc := cover{family: stage, op: "$setWindowFields"}
	one := `[{"_id": 1, "t": 1, "x": 1}]`
	runAggCases(t, []aggCase{
		// The spec is parsed by its IDL parser first: each field once.
		{name: "partitionBy given twice", ref: swfParse + " (SetWindowFieldsSpec IDL)", cov: se,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$t", "partitionBy": "$x", "output": {"a": {"$sum": 1}}}}]`,
			code:     40413, msg: "BSON field '$setWindowFields.partitionBy' is a duplicate field"},
		{name: "output given twice", ref: swfParse + " (SetWindowFieldsSpec IDL)", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a": {"$sum": 1}}, "output": {"b": {"$sum": 1}}}}]`,
			code:     40413, msg: "BSON field '$setWindowFields.output' is a duplicate field"},
		{name: "sortBy not an object", ref: swfParse + " (SetWindowFieldsSpec IDL)", cov: se,
			pipeline: `[{"$setWindowFields": {"sortBy": 1, "output": {"a": {"$sum": 1}}}}]`,
			code:     14, msg: "BSON field '$setWindowFields.sortBy' is the wrong type 'int', expected type 'object'"},
		{name: "unknown field before the missing output", ref: swfParse + " (SetWindowFieldsSpec IDL)", cov: se,
			pipeline: `[{"$setWindowFields": {"window": {}}}]`,
			code:     40415, msg: "BSON field '$setWindowFields.window' is an unknown field."},
		{name: "output missing", ref: swfParse + " (SetWindowFieldsSpec IDL)", cov: se,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$t"}}]`,
			code:     40414, msg: "BSON field '$setWindowFields.output' is missing but a required field"},
		// Output names go into a FieldRefSet: a name twice conflicts as a
		// prefix does.
		{name: "the same output field twice", ref: swfParse, cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a": {"$sum": 1}, "a": {"$max": "$x"}}}}]`,
			code:     6307900, msg: "$setWindowFields 'output' specification contains two conflicting paths"},
		{name: "an output field under another", ref: swfParse, cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a.b": {"$sum": 1}, "a": {"$max": "$x"}}}}]`,
			code:     6307900, msg: "$setWindowFields 'output' specification contains two conflicting paths"},
		// A name is made a FieldPath only when the stage's dependencies are
		// taken, after every output has parsed: a later output's error
		// comes first.
		{name: "a $-name then a bad function", ref: swfParse + "; window_function_statement.h addDependencies", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"$a": {"$sum": 1}, "b": {"$nope": 1}}}}]`,
			code:     9, msg: "Unrecognized window function, $nope"},
		{name: "a $-name then a non-object output", ref: swfParse + "; window_function_statement.cpp", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"$a": {"$sum": 1}, "b": 1}}}]`,
			code:     9, msg: "The field 'b' must be an object"},
		{name: "a $-name alone", ref: swfParse + "; window_function_statement.h addDependencies", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"$a": {"$sum": 1}}}}]`,
			code:     16410, msg: "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{name: "a name ending in a dot", ref: swfParse + "; window_function_statement.h addDependencies", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a.": {"$sum": 1}}}}]`,
			code:     40353, msg: "FieldPath must not end with a '.'."},
		{name: "an output that is no function", ref: wfExprCpp + " Expression::parse", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a": {"x": 1}}}}]`,
			code:     9, msg: "Expected a $-prefixed window function, x"},
		{name: "an empty output", ref: wfExprCpp + " Expression::parse", cov: se,
			pipeline: `[{"$setWindowFields": {"output": {"a": {}}}}]`,
			code:     9, msg: "Expected a $-prefixed window function"},
		// A constant array partitionBy is refused by create(), after the
		// outputs parsed; other constants put everything in one partition.
		{name: "constant array partitionBy after the outputs", ref: swfParse + " create", cov: se,
			pipeline: `[{"$setWindowFields": {"partitionBy": [1], "output": {"a": {"$nope": 1}}}}]`,
			code:     9, msg: "Unrecognized window function, $nope"},
		{name: "constant array partitionBy", ref: swfParse + " create", cov: se,
			pipeline: `[{"$setWindowFields": {"partitionBy": {"$literal": [1]}, "output": {"a": {"$sum": 1}}}}]`,
			code:     14, msg: "An expression used to partition cannot evaluate to value of type array"},
		{name: "constant partitionBy is one partition", ref: swfParse + " create", cov: sc, docs: `[{"_id": 1, "t": 1}, {"_id": 2, "t": 2}]`,
			pipeline: `[{"$setWindowFields": {"partitionBy": {"$add": [1, 2]}, "sortBy": {"_id": 1}, "output": {"a": {"$sum": "$t"}}}}, {"$project": {"_id": 0, "a": 1}}]`,
			want:     `[{"a": 3}, {"a": 3}]`},
		{name: "empty output adds nothing", ref: swfParse, cov: sc, docs: one,
			pipeline: `[{"$setWindowFields": {"output": {}}}]`, want: one},
	})
}

// TestDeep45Win2WindowFamilies covers $shift, $locf, the top/bottom and
// first/last families, $median/$percentile and $avg/$min over range windows
// with dates and units (window_function_shift.cpp, window_bounds.cpp,
// window_function_expression.cpp ExpressionN and ExpressionFirstLast).
func TestDeep45Win2WindowFamilies(t *testing.T) {
	w := func(op string) cover { return cover{family: window, op: op} }
	wt := func(op string) cover { return cover{family: window, op: op, col: types} }
	we := func(op string) cover { return cover{family: window, op: op, col: errorCol} }
	const shiftCpp = "src/mongo/db/pipeline/window_function/window_function_shift.cpp"
	const boundsCpp = "src/mongo/db/pipeline/window_function/window_bounds.cpp"
	gaps := `[{"t": 1, "x": 3}, {"t": 2}, {"t": 3, "x": 1}, {"t": 4, "x": null}]`
	dated := `[{"t": {"$date": "2024-01-01T00:00:00Z"}, "x": 1}, {"t": {"$date": "2024-01-01T12:00:00Z"}, "x": 4},
		{"t": {"$date": "2024-01-03T00:00:00Z"}, "x": {"$numberLong": "7"}}, {"t": {"$date": "2024-01-03T00:00:01Z"}, "x": {"$numberDecimal": "2"}}]`
	empty := `"window": {"documents": [5, 6]}`
	runAggCases(t, []aggCase{
		// $shift: the output of the document 'by' away; the constant
		// default (null when none) past the partition's ends and where the
		// output is missing (shift.js's {_id: 1}, {_id: 2} case); a null
		// output stays null.
		{name: "shift forward: a missing output and the end give the default", ref: shiftCpp + "; shift.js", cov: w("$shift"), docs: gaps,
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1, "default": "d"}}`),
			want:     `[{"r": "d"}, {"r": 1}, {"r": null}, {"r": "d"}]`},
		{name: "shift by a decimal and a default folded to a constant", ref: shiftCpp, cov: wt("$shift"), docs: gaps,
			pipeline: swf(`{"$shift": {"output": "$x", "by": {"$numberDecimal": "-1"}, "default": {"$add": [1, 2]}}}`),
			want:     `[{"r": 3}, {"r": 3}, {"r": 3}, {"r": 1}]`},
		{name: "shift by 0 is the document itself", ref: shiftCpp, cov: w("$shift"), docs: gaps,
			pipeline: swf(`{"$shift": {"output": "$x", "by": 0}}`), want: `[{"r": 3}, {"r": null}, {"r": 1}, {"r": null}]`},
		{name: "shift by past int", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": {"$numberLong": "3000000000"}}}`), code: 9,
			msg: "'$shift:by' field must be an integer, but found  by: 3000000000"},
		{name: "shift by a fraction", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1.5}}`), code: 9, msg: "'$shift:by' field must be an integer, but found  by: 1.5"},
		{name: "shift default not constant", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1, "default": "$x"}}`), code: 9, msg: "'$shift:default' expression must yield a constant value."},
		{name: "shift refuses a window", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1}, "window": {"documents": [-1, 0]}}`), code: 9, msg: "$shift does not accept a 'window' field"},
		{name: "shift without by", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x"}}`), code: 9, msg: "$shift requires 'by' as an integer value."},
		{name: "shift without output", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"by": 1}}`), code: 9, msg: "$shift requires an 'output' expression."},
		{name: "shift unknown argument", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1, "n": 1}}`), code: 9, msg: "Unknown argument in $shift"},
		{name: "shift of a number", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": 1}`), code: 9, msg: "Argument to $shift must be an object"},
		{name: "shift with a second function", ref: shiftCpp, cov: we("$shift"),
			pipeline: swf(`{"$shift": {"output": "$x", "by": 1}, "$locf": "$x"}`), code: 9, msg: "Cannot specify multiple functions in window function spec"},

		// $locf: the last non-null value so far; an array input is a value.
		{name: "locf carries the last non-null value", ref: wfExprH + " ExpressionFromLeftUnboundedWindowFunction", cov: w("$locf"), docs: gaps,
			pipeline: swf(`{"$locf": "$x"}`), want: `[{"r": 3}, {"r": 3}, {"r": 1}, {"r": 1}]`},
		{name: "locf of an array expression", ref: wfExprH + " ExpressionFromLeftUnboundedWindowFunction", cov: w("$locf"), docs: gaps,
			pipeline: swf(`{"$locf": ["$x"]}`), want: `[{"r": [3]}, {"r": [null]}, {"r": [1]}, {"r": [null]}]`},

		// The top/bottom family as windows: missing outputs are null; an
		// empty window is [] for the N forms, null for the single ones.
		{name: "topN of a sliding window, missing sorts first", ref: wfTopH, cov: w("$topN"), docs: gaps,
			pipeline: swf(`{"$topN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": [null, 3]}, {"r": [null, 1]}, {"r": [null, null]}, {"r": [null, 1]}]`},
		{name: "bottomN of a sliding window", ref: wfTopH, cov: w("$bottomN"), docs: gaps,
			pipeline: swf(`{"$bottomN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": [null, 3]}, {"r": [1, 3]}, {"r": [null, 1]}, {"r": [null, 1]}]`},
		{name: "bottom of a sliding window", ref: wfTopH, cov: w("$bottom"), docs: gaps,
			pipeline: swf(`{"$bottom": {"sortBy": {"x": 1}, "output": "$x"}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": 3}, {"r": 3}, {"r": 1}, {"r": 1}]`},
		{name: "bottom of an empty window is null", ref: wfTopH, cov: w("$bottom"), docs: gaps,
			pipeline: swf(`{"$bottom": {"sortBy": {"x": 1}, "output": "$x"}, ` + empty + `}`),
			want:     `[{"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "topN of an empty window is empty", ref: wfTopH, cov: w("$topN"), docs: gaps,
			pipeline: swf(`{"$topN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, ` + empty + `}`),
			want:     `[{"r": []}, {"r": []}, {"r": []}, {"r": []}]`},
		{name: "topN given twice", ref: wfExprCpp + " ExpressionN::parse", cov: we("$topN"),
			pipeline: swf(`{"$topN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, "$topN": {"n": 1, "sortBy": {"x": 1}, "output": "$x"}}`),
			code:     9, msg: "saw multiple specifications for '$topN' expression"},
		{name: "topN with a second function", ref: wfExprCpp + " ExpressionN::parse", cov: we("$topN"),
			pipeline: swf(`{"$topN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, "$bottomN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}}`),
			code:     9, msg: "$topN got unexpected argument: $bottomN"},
		{name: "bottomN with two windows", ref: wfExprCpp + " ExpressionN::parse", cov: we("$bottomN"),
			pipeline: swf(`{"$bottomN": {"n": 2, "sortBy": {"x": 1}, "output": "$x"}, "window": {}, "window": {}}`),
			code:     9, msg: "saw multiple 'window' fields in '$bottomN' expression"},
		{name: "topN n from the document is missing", ref: wfExprCpp + " ExpressionN::buildRemovable", cov: we("$topN"), docs: gaps,
			pipeline: swf(`{"$topN": {"n": "$t", "sortBy": {"x": 1}, "output": "$x"}}`), code: 5787902,
			msg: "PlanExecutor error during aggregation :: caused by :: Value for 'n' must be of integral type, but found MISSING"},

		// $last: the value at the window's end (missing writes nothing);
		// an empty window is null.
		{name: "last of a sliding window", ref: wfFirstLastH, cov: w("$last"), docs: gaps,
			pipeline: swf(`{"$last": "$x", "window": {"documents": [-1, 0]}}`), want: `[{"r": 3}, {}, {"r": 1}, {"r": null}]`},
		{name: "last of an empty window", ref: wfFirstLastH, cov: w("$last"), docs: gaps,
			pipeline: swf(`{"$last": "$x", ` + empty + `}`), want: `[{"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "last with two windows", ref: wfExprCpp + " ExpressionFirstLast::parse", cov: we("$last"),
			pipeline: swf(`{"$last": "$x", "window": {}, "window": {}}`), code: 9, msg: "saw multiple 'window' fields in '$last' expression"},
		{name: "last unknown argument", ref: wfExprCpp + " ExpressionFirstLast::parse", cov: we("$last"),
			pipeline: swf(`{"$last": "$x", "unit": "day"}`), code: 9, msg: "$last got unexpected argument: unit"},
		{name: "lastN of a sliding window", ref: wfNH, cov: w("$lastN"), docs: gaps,
			pipeline: swf(`{"$lastN": {"n": 2, "input": "$x"}, "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": [3]}, {"r": [3, null]}, {"r": [null, 1]}, {"r": [1, null]}]`},
		{name: "lastN of an empty window", ref: wfNH, cov: w("$lastN"), docs: gaps,
			pipeline: swf(`{"$lastN": {"n": 2, "input": "$x"}, ` + empty + `}`), want: `[{"r": []}, {"r": []}, {"r": []}, {"r": []}]`},

		// $median/$percentile as windows over dated ranges and sliding
		// documents: the discrete approximate percentile, always a double.
		{name: "median over a day range", ref: "src/mongo/db/pipeline/window_function/window_function_percentile.cpp", cov: wt("$median"), docs: dated,
			pipeline: swf(`{"$median": {"input": "$x", "method": "approximate"}, "window": {"range": [-1, 0], "unit": "day"}}`),
			want:     `[{"r": 1.0}, {"r": 1.0}, {"r": 7.0}, {"r": 2.0}]`},
		{name: "percentile of a sliding window", ref: "src/mongo/db/pipeline/window_function/window_function_percentile.cpp", cov: wt("$percentile"), docs: dated,
			pipeline: swf(`{"$percentile": {"input": "$x", "p": [0.5, 0.9], "method": "approximate"}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": [1.0, 4.0]}, {"r": [4.0, 7.0]}, {"r": [4.0, 7.0]}, {"r": [2.0, 7.0]}]`},
		{name: "median of an empty window", ref: "src/mongo/db/pipeline/window_function/window_function_percentile.cpp", cov: w("$median"), docs: gaps,
			pipeline: swf(`{"$median": {"input": "$x", "method": "approximate"}, ` + empty + `}`),
			want:     `[{"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "percentile p from the document", ref: "src/mongo/db/pipeline/accumulator_percentile.cpp", cov: we("$percentile"),
			pipeline: swf(`{"$percentile": {"input": "$x", "p": "$t", "method": "approximate"}}`), code: 7750300,
			msg: `The $percentile 'p' field must be an array of constant values, but found value: "$t".`},

		// $avg and $min over range windows of dates with a unit: the
		// bounds are whole units; a decimal among longs makes $avg decimal.
		{name: "avg over a day range of dates", ref: boundsCpp, cov: wt("$avg"), docs: dated,
			pipeline: swf(`{"$avg": "$x", "window": {"range": [-1, 0], "unit": "day"}}`),
			want:     `[{"r": 1.0}, {"r": 2.5}, {"r": 7.0}, {"r": {"$numberDecimal": "4.5"}}]`},
		{name: "min over a day range of dates keeps the type", ref: boundsCpp, cov: wt("$min"), docs: dated,
			pipeline: swf(`{"$min": "$x", "window": {"range": [-1, 0], "unit": "day"}}`),
			want:     `[{"r": 1}, {"r": 1}, {"r": {"$numberLong": "7"}}, {"r": {"$numberDecimal": "2"}}]`},
		{name: "avg from the current date a second ahead", ref: boundsCpp, cov: w("$avg"), docs: dated,
			pipeline: swf(`{"$avg": "$x", "window": {"range": ["current", 1], "unit": "second"}}`),
			want:     `[{"r": 1.0}, {"r": 4.0}, {"r": {"$numberDecimal": "4.5"}}, {"r": {"$numberDecimal": "2"}}]`},
		{name: "avg over dates without a unit", ref: boundsCpp, cov: we("$avg"), docs: dated,
			pipeline: swf(`{"$avg": "$x", "window": {"range": [-1, 0]}}`), code: 5429413,
			msg: "PlanExecutor error during aggregation :: caused by :: Invalid range: For windows that involve date or time ranges, a unit must be provided."},
		{name: "min over a unit range of numbers", ref: boundsCpp, cov: we("$min"), docs: gaps,
			pipeline: swf(`{"$min": "$x", "window": {"range": [-1, 0], "unit": "day"}}`), code: 5429513,
			msg: "PlanExecutor error during aggregation :: caused by :: Invalid range: Expected the sortBy field to be a Date, but it was int"},
		{name: "avg with a fractional unit bound", ref: boundsCpp, cov: we("$avg"),
			pipeline: swf(`{"$avg": "$x", "window": {"range": [{"$numberDecimal": "-1.5"}, 0], "unit": "day"}}`), code: 9,
			msg: "With 'unit', range-based bounds must be an integer"},
		{name: "min with a unit on document bounds", ref: boundsCpp, cov: we("$min"),
			pipeline: swf(`{"$min": "$x", "window": {"documents": [-1, 0], "unit": "day"}}`), code: 9,
			msg: "Window bounds can only specify 'unit' with range-based bounds."},
	})
}

// $shift and $expMovingAvg explain as their serialize() writes them:
// ExpressionShift::serialize gives {by, output, default} (default null when
// none, an optimized default as its constant); ExpressionExpMovingAvg's gives
// N as a long or alpha as the decimal it was read as, then the input.
func TestDeep45Win2ShiftExpMovingAvgExplain(t *testing.T) {
	ref := wfExprH + " ExpressionExpMovingAvg::serialize; src/mongo/db/pipeline/window_function/window_function_shift.cpp ExpressionShift::serialize"
	s := newSuite(t)
	for _, tc := range []struct{ name, fn, want string }{
		{"expMovingAvg N is a long", `{"$expMovingAvg": {"input": {"$add": ["$x", 1]}, "N": 2}}`,
			`{"$expMovingAvg": {"N": {"$numberLong": "2"}, "input": {"$add": ["$x", {"$const": 1}]}}}`},
		{"expMovingAvg alpha is a decimal", `{"$expMovingAvg": {"alpha": 0.5, "input": "$x"}}`,
			`{"$expMovingAvg": {"alpha": {"$numberDecimal": "0.500000000000000"}, "input": "$x"}}`},
		{"shift without default", `{"$shift": {"output": {"$add": ["$x", 1]}, "by": 1.0}}`,
			`{"$shift": {"by": 1, "output": {"$add": ["$x", {"$const": 1}]}, "default": null}}`},
		{"shift with a folded default", `{"$shift": {"default": {"$add": [1, 2]}, "by": -1, "output": "$x"}}`,
			`{"$shift": {"by": -1, "output": "$x", "default": 3}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: window, op: firstOperator(ejDoc(t, tc.fn)), col: explain}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "t": 1, "x": 1}]`)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$setWindowFields": {"sortBy": {"t": 1}, "output": {"r": `+tc.fn+`}}}]`, "queryPlanner")
			got := lastStage(t, reply)
			sameValue(t, tc.fn, got, `{"$_internalSetWindowFields": {"sortBy": {"t": 1}, "output": {"r": `+tc.want+`}}}`)
		})
	}
}
