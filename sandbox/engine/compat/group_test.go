package compat_test

import "testing"

const (
	groupMissing = "jstests/aggregation/sources/group/groupMissing.js"
	groupByExpr  = "jstests/aggregation/sources/group/group_by_expr.js"
	groupByEmpty = "jstests/aggregation/sources/group/group_by_empty_object.js"
)

func TestGroup(t *testing.T) {
	xy := `[{"_id": 1, "x": 1, "y": 5}, {"_id": 2, "x": 2, "y": 10}]`
	sales := `[
		{"_id": 1, "item": "abc", "price": {"$numberDecimal": "10"}, "quantity": 2, "date": {"$date": "2014-03-01T08:00:00Z"}},
		{"_id": 2, "item": "jkl", "price": {"$numberDecimal": "20"}, "quantity": 1, "date": {"$date": "2014-03-01T09:00:00Z"}},
		{"_id": 3, "item": "xyz", "price": {"$numberDecimal": "5"}, "quantity": 10, "date": {"$date": "2014-03-15T09:00:00Z"}},
		{"_id": 4, "item": "xyz", "price": {"$numberDecimal": "5"}, "quantity": 20, "date": {"$date": "2014-04-04T11:21:39.736Z"}},
		{"_id": 5, "item": "abc", "price": {"$numberDecimal": "10"}, "quantity": 10, "date": {"$date": "2014-04-04T21:23:13.331Z"}}]`
	runAggCases(t, []aggCase{
		{name: "missing and null group together", ref: groupMissing,
			docs: `[{"_id": 1, "a": null}, {"_id": 2}]`, pipeline: `[{"$group": {"_id": "$a"}}]`,
			want: `[{"_id": null}]`},
		{name: "item4 one-field compound _id: missing becomes null", ref: groupMissing,
			docs: `[{"_id": 1, "a": null}, {"_id": 2}]`, pipeline: `[{"$group": {"_id": {"a": "$a"}}}]`,
			want: `[{"_id": {"a": null}}]`},
		{name: "several fields: a missing field is left out", ref: groupMissing,
			docs:     `[{"_id": 1, "a": null, "b": 1}, {"_id": 2, "b": 1}, {"_id": 3, "a": null, "b": 1}]`,
			pipeline: `[{"$group": {"_id": {"a": "$a", "b": "$b"}}}]`, unordered: true,
			want: `[{"_id": {"b": 1}}, {"_id": {"a": null, "b": 1}}]`},
		{name: "inclusion-style _id", ref: "src/mongo/db/pipeline/document_source_group.cpp parseIdExpression (17390)",
			docs: xy, pipeline: `[{"$group": {"_id": {"a": 1}}}]`,
			code: 17390, msg: "$group does not support inclusion-style expressions"},
		{name: "item5 _id with an empty $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {}}}}]`, want: `[{"_id": {}}]`},
		{name: "_id with $expr and another field", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {"$eq": ["$x", 1]}, "secondGroupByField": "$y"}}}]`, code: 15983},
		{name: "_id with a field and then $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"secondGroupByField": "$y", "$expr": {"$eq": ["$x", 1]}}}}]`, code: 16410},
		{name: "_id with nested $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"exprFieldName": {"$expr": {"$max": [{"$expr": {"$multiply": ["$x", 2]}}, 3]}}, "secondGroupByField": "$y"}}}]`,
			unordered: true, want: `[{"_id": {"exprFieldName": 3, "secondGroupByField": 5}}, {"_id": {"exprFieldName": 4, "secondGroupByField": 10}}]`},
		{name: "_id with a constant $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {"$literal": "this is a string"}}}}]`, want: `[{"_id": "this is a string"}]`},
		{name: "_id with a constant object $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {"a": "b"}}}}]`, want: `[{"_id": {"a": "b"}}]`},
		{name: "_id with a computed $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {"$multiply": ["$x", 10]}}}}, {"$sort": {"_id": 1}}]`, want: `[{"_id": 10}, {"_id": 20}]`},
		{name: "$sum of an empty $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": 1, "sum": {"$sum": {"$expr": {}}}}}]`, want: `[{"_id": 1, "sum": 0}]`},
		{name: "$sum of a constant $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": 1, "sum": {"$sum": {"$expr": {"$literal": 5}}}}}]`, want: `[{"_id": 1, "sum": 10}]`},
		{name: "$sum of nested $expr", ref: groupByExpr,
			docs: xy, pipeline: `[{"$group": {"_id": 1, "sum": {"$sum": {"$expr": {"$add": ["$x", {"$expr": {"$multiply": ["$y", 2]}}]}}}}}]`,
			want: `[{"_id": 1, "sum": 33}]`},
		{name: "empty object _id", ref: groupByEmpty,
			docs: xy, pipeline: `[{"$group": {"_id": {"$expr": {"$expr": {}}}}}]`, want: `[{"_id": {}}]`},
		{name: "$sortByCount of an empty $expr", ref: groupByEmpty,
			docs: xy, pipeline: `[{"$sortByCount": {"$expr": {}}}]`, want: `[{"_id": {}, "count": 2}]`},
		{name: "group by item with $sum, $avg", ref: "manual: reference/operator/aggregation/group (Group by Item Having)",
			docs: sales,
			pipeline: `[{"$group": {"_id": "$item", "totalSaleAmount": {"$sum": {"$multiply": ["$price", "$quantity"]}}}},
				{"$match": {"totalSaleAmount": {"$gte": 100}}}, {"$sort": {"_id": 1}}]`,
			want: `[{"_id": "abc", "totalSaleAmount": {"$numberDecimal": "120"}}, {"_id": "xyz", "totalSaleAmount": {"$numberDecimal": "150"}}]`},
		{name: "group by null counts everything", ref: "manual: reference/operator/aggregation/group (Calculate Count, Sum, and Average)",
			docs:     sales,
			pipeline: `[{"$group": {"_id": null, "count": {"$count": {}}, "averageQuantity": {"$avg": "$quantity"}}}]`,
			want:     `[{"_id": null, "count": 5, "averageQuantity": 8.6}]`},
		{name: "group by a date part", ref: "manual: reference/operator/aggregation/group (Group by Day of the Year)",
			docs:     sales,
			pipeline: `[{"$group": {"_id": {"$dateToString": {"format": "%Y-%m-%d", "date": "$date"}}, "n": {"$sum": 1}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": "2014-03-01", "n": 2}, {"_id": "2014-03-15", "n": 1}, {"_id": "2014-04-04", "n": 2}]`},
		{name: "numeric values group across types", ref: "jstests/aggregation/sources/group/numeric_grouping.js",
			docs:     `[{"_id": 1, "key": 1}, {"_id": 2, "key": {"$numberLong": "1"}}, {"_id": 3, "key": 1.0}, {"_id": 4, "key": {"$numberDecimal": "1.00"}}]`,
			pipeline: `[{"$group": {"_id": "$key", "n": {"$sum": 1}}}, {"$project": {"_id": 0, "n": 1}}]`,
			want:     `[{"n": 4}]`},
		{name: "$push and $addToSet", ref: "manual: reference/operator/aggregation/push",
			docs:     `[{"_id": 1, "k": "a", "v": 1}, {"_id": 2, "k": "a", "v": 2}, {"_id": 3, "k": "a", "v": 1}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$group": {"_id": "$k", "all": {"$push": "$v"}, "set": {"$addToSet": "$v"}}}, {"$project": {"all": 1, "n": {"$size": "$set"}}}]`,
			want:     `[{"_id": "a", "all": [1, 2, 1], "n": 2}]`},
		{name: "$first and $last follow the input order", ref: "manual: reference/operator/aggregation/first",
			docs:     `[{"_id": 1, "k": "a", "v": 3}, {"_id": 2, "k": "a", "v": 1}, {"_id": 3, "k": "a"}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$group": {"_id": "$k", "f": {"$first": "$v"}, "l": {"$last": "$v"}}}]`,
			want:     `[{"_id": "a", "f": 3, "l": null}]`},
		{name: "$sum of no numbers is 0", ref: "manual: reference/operator/aggregation/sum (Non-numeric or Non-existent Fields)",
			docs:     `[{"_id": 1, "v": "x"}, {"_id": 2}]`,
			pipeline: `[{"$group": {"_id": null, "s": {"$sum": "$v"}, "a": {"$avg": "$v"}}}]`,
			want:     `[{"_id": null, "s": 0, "a": null}]`},
		{name: "group needs _id", ref: "src/mongo/db/pipeline/document_source_group.cpp (15955)",
			docs: xy, pipeline: `[{"$group": {"n": {"$sum": 1}}}]`,
			code: 15955, msg: "a group specification must include an _id"},
	})
}

func TestExprOperator(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "item5 $expr in $project", ref: groupByExpr + " (the same operator in $project)",
			expr: `{"$expr": {"$literal": 5}}`, want: `5`},
		{name: "$expr of a field path", ref: groupByExpr,
			doc: `{"_id": 0, "a": "x"}`, expr: `{"$expr": "$a"}`, want: `"x"`},
		{name: "$expr of an empty object", ref: groupByEmpty,
			expr: `{"$expr": {}}`, want: `{}`},
	})
}
