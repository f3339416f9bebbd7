package compat_test

import "testing"

const (
	fillSrc    = "src/mongo/db/pipeline/document_source_fill.cpp"
	fillManual = "manual: reference/operator/aggregation/fill"
	linearSrc  = "src/mongo/db/pipeline/window_function/window_function_exec_linear_fill.cpp"
)

func TestStageFill(t *testing.T) {
	stock := `[
		{"_id": 1, "time": {"$date": "2021-03-08T09:00:00Z"}, "price": 500},
		{"_id": 2, "time": {"$date": "2021-03-08T10:00:00Z"}},
		{"_id": 3, "time": {"$date": "2021-03-08T11:00:00Z"}, "price": 515},
		{"_id": 4, "time": {"$date": "2021-03-08T12:00:00Z"}},
		{"_id": 5, "time": {"$date": "2021-03-08T13:00:00Z"}},
		{"_id": 6, "time": {"$date": "2021-03-08T14:00:00Z"}, "price": 560}]`
	reviews := `[
		{"_id": 1, "date": {"$date": "2021-03-08T00:00:00Z"}, "score": 90},
		{"_id": 2, "date": {"$date": "2021-03-09T00:00:00Z"}, "score": 92},
		{"_id": 3, "date": {"$date": "2021-03-10T00:00:00Z"}},
		{"_id": 4, "date": {"$date": "2021-03-11T00:00:00Z"}},
		{"_id": 5, "date": {"$date": "2021-03-12T00:00:00Z"}, "score": 85},
		{"_id": 6, "date": {"$date": "2021-03-13T00:00:00Z"}}]`
	byID := `{"$sort": {"_id": 1}}`
	runAggCases(t, []aggCase{
		{name: "a constant value for missing and null fields", ref: fillManual,
			docs:     `[{"_id": 1, "boots": 10, "sandals": null}, {"_id": 2, "sneakers": 12}]`,
			pipeline: `[{"$fill": {"output": {"boots": {"value": 0}, "sandals": {"value": 0}, "sneakers": {"value": 0}}}}, ` + byID + `]`,
			want:     `[{"_id": 1, "boots": 10, "sandals": 0, "sneakers": 0}, {"_id": 2, "sneakers": 12, "boots": 0, "sandals": 0}]`},
		{name: "linear interpolation along dates", ref: fillManual, docs: stock,
			pipeline: `[{"$fill": {"sortBy": {"time": 1}, "output": {"price": {"method": "linear"}}}}, {"$project": {"_id": 0, "price": 1}}]`,
			want:     `[{"price": 500}, {"price": 507.5}, {"price": 515}, {"price": 530.0}, {"price": 545.0}, {"price": 560}]`},
		{name: "last observation carried forward", ref: fillManual, docs: reviews,
			pipeline: `[{"$fill": {"sortBy": {"date": 1}, "output": {"score": {"method": "locf"}}}}, {"$project": {"_id": 0, "score": 1}}]`,
			want:     `[{"score": 90}, {"score": 92}, {"score": 92}, {"score": 92}, {"score": 85}, {"score": 85}]`},
		{name: "locf leaves null before the first value, and fills missing fields", ref: "src/mongo/db/pipeline/accumulator_locf.cpp",
			docs:     `[{"_id": 1, "t": 1}, {"_id": 2, "t": 2, "v": null}, {"_id": 3, "t": 3, "v": 7}, {"_id": 4, "t": 4}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "locf"}}}}, {"$project": {"_id": 0, "t": 0}}]`,
			want:     `[{"v": null}, {"v": null}, {"v": 7}, {"v": 7}]`},
		{name: "linear leaves null outside the known points", ref: linearSrc,
			docs:     `[{"t": 1}, {"t": 2, "v": 10}, {"t": 4, "v": 20}, {"t": 5}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "linear"}}}}, {"$project": {"_id": 0, "t": 1, "v": 1}}]`,
			want:     `[{"t": 1, "v": null}, {"t": 2, "v": 10}, {"t": 4, "v": 20}, {"t": 5, "v": null}]`},
		{name: "linear over numbers gives doubles", ref: linearSrc, cov: cover{col: types},
			docs:     `[{"t": 0, "v": 0}, {"t": 1}, {"t": 3, "v": 3}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "linear"}}}}, {"$project": {"_id": 0, "v": 1}}]`,
			want:     `[{"v": 0}, {"v": 1.0}, {"v": 3}]`},
		{name: "partitionByFields fills each partition alone", ref: fillManual,
			docs:     `[{"_id": 1, "p": "a", "t": 1, "v": 1}, {"_id": 2, "p": "b", "t": 2}, {"_id": 3, "p": "a", "t": 3}, {"_id": 4, "p": "b", "t": 4, "v": 9}, {"_id": 5, "p": "b", "t": 5}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "partitionByFields": ["p"], "output": {"v": {"method": "locf"}}}}, ` + byID + `]`,
			want:     `[{"_id": 1, "p": "a", "t": 1, "v": 1}, {"_id": 2, "p": "b", "t": 2, "v": null}, {"_id": 3, "p": "a", "t": 3, "v": 1}, {"_id": 4, "p": "b", "t": 4, "v": 9}, {"_id": 5, "p": "b", "t": 5, "v": 9}]`},
		{name: "partitionBy an expression", ref: fillManual,
			docs:     `[{"_id": 1, "p": "a", "t": 1, "v": 1}, {"_id": 2, "p": "A", "t": 2}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "partitionBy": {"$toLower": "$p"}, "output": {"v": {"method": "locf"}}}}, ` + byID + `]`,
			want:     `[{"_id": 1, "p": "a", "t": 1, "v": 1}, {"_id": 2, "p": "A", "t": 2, "v": 1}]`},
		{name: "method and value fields together in one stage", ref: fillSrc,
			docs:     `[{"_id": 1, "t": 1, "a": 1}, {"_id": 2, "t": 2}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"a": {"method": "locf"}, "b": {"value": "none"}}}}, ` + byID + `]`,
			want:     `[{"_id": 1, "t": 1, "a": 1, "b": "none"}, {"_id": 2, "t": 2, "a": 1, "b": "none"}]`},

		{name: "not an object", ref: fillSrc, pipeline: `[{"$fill": "x"}]`,
			code: 9, msg: "The $fill stage specification must be an object, found string"},
		{name: "output is required", ref: fillSrc, pipeline: `[{"$fill": {"sortBy": {"t": 1}}}]`,
			code: 40414, msg: "BSON field '$fill.output' is missing but a required field"},
		{name: "output may not be empty", ref: fillSrc, pipeline: `[{"$fill": {"output": {}}}]`,
			code: 6050203, msg: "The output field in '$fill' must contain an object with at least one element"},
		{name: "each output must be an object", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": 1}}}]`,
			code: 6050200, msg: "Each fill output specification must be an object with exactly one field"},
		{name: "method and value together", ref: fillSrc, pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"a": {"method": "locf", "value": 1}}}}]`,
			code: 6050201, msg: "Each fill output specification must have exactly one of 'method' or 'value' fields, not both"},
		{name: "an unknown method", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": {"method": "mean"}}}}]`,
			code: 6050202, msg: "Method must be either locf or linear"},
		{name: "partitionBy and partitionByFields together", ref: fillSrc,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "partitionBy": "$p", "partitionByFields": ["p"], "output": {"a": {"method": "locf"}}}}]`,
			code:     6050204, msg: "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'"},
		{name: "an unknown field", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": {"value": 1}}, "sort": {"t": 1}}}]`,
			code: 40415, msg: "BSON field '$fill.sort' is an unknown field."},
		{name: "an unknown field in an output", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": {"val": 1}}}}]`,
			code: 40415, msg: "BSON field '$fill.val' is an unknown field."},
		{name: "method must be a string", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": {"method": 1}}}}]`,
			code: 14, msg: "BSON field '$fill.method' is the wrong type 'int', expected type 'string'"},
		{name: "linear needs a sortBy", ref: fillSrc, pipeline: `[{"$fill": {"output": {"a": {"method": "linear"}}}}]`,
			code: 605001, msg: "$linearFill must be specified with a top level sortBy expression with exactly one element"},
		{name: "linear over a string fails", ref: linearSrc, cov: cover{col: types},
			docs:     `[{"t": 1, "v": "x"}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "linear"}}}}]`,
			code:     14, msg: planExecutor + "Value to be filled must be numeric or nullish, but found string"},
		{name: "linear with repeated sort values fails", ref: linearSrc,
			docs:     `[{"t": 1, "v": 1}, {"t": 1}]`,
			pipeline: `[{"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "linear"}}}}]`,
			code:     6050106, msg: planExecutor + "There can be no repeated values in the sort field"},
	})
}
