package aggregate

import "testing"

func TestProject(t *testing.T) {
	book := `{"_id": 1, "title": "abc123", "isbn": "0001122223334", "author": {"last": "zzz", "first": "aaa"}, "copies": 5, "lastModified": "2016-07-28"}`
	runCases(t, []pipelineCase{
		{name: "inclusion keeps _id and input order", input: []string{book}, pipeline: `[{"$project": {"author": 1, "title": 1}}]`,
			want: []string{`{"_id": 1, "title": "abc123", "author": {"last": "zzz", "first": "aaa"}}`}},
		{name: "_id excluded", input: []string{book}, pipeline: `[{"$project": {"_id": 0, "title": 1, "author": 1}}]`,
			want: []string{`{"title": "abc123", "author": {"last": "zzz", "first": "aaa"}}`}},
		{name: "exclusion", input: []string{book}, pipeline: `[{"$project": {"lastModified": 0, "author.first": 0}}]`,
			want: []string{`{"_id": 1, "title": "abc123", "isbn": "0001122223334", "author": {"last": "zzz"}, "copies": 5}`}},
		{name: "only _id: 0 is an exclusion", input: []string{`{"_id": 1, "a": 1}`}, pipeline: `[{"$project": {"_id": 0}}]`,
			want: []string{`{"a": 1}`}},
		{name: "nested inclusion, dotted and nested forms", input: []string{book}, pipeline: `[{"$project": {"author": {"first": 1}, "copies": true}}]`,
			want: []string{`{"_id": 1, "author": {"first": "aaa"}, "copies": 5}`}},
		{name: "computed fields come after included ones, in spec order", input: []string{book}, pipeline: `[{"$project": {"lastName": "$author.last", "title": 1, "lit": {"$literal": 1}}}]`,
			want: []string{`{"_id": 1, "title": "abc123", "lastName": "zzz", "lit": 1}`}},
		{name: "$$REMOVE omits a computed field", input: []string{`{"_id": 1, "a": 5}`}, pipeline: `[{"$project": {"a": 1, "b": "$$REMOVE", "c": "$missing"}}]`,
			want: []string{`{"_id": 1, "a": 5}`}},
		{name: "dotted inclusion through an array of documents drops scalars", input: []string{`{"_id": 1, "a": [{"b": 1, "c": 2}, 3, [{"b": 4, "d": 5}], {"c": 6}]}`}, pipeline: `[{"$project": {"a.b": 1}}]`,
			want: []string{`{"_id": 1, "a": [{"b": 1}, [{"b": 4}], {}]}`}},
		{name: "dotted exclusion through an array keeps scalars", input: []string{`{"_id": 1, "a": [{"b": 1, "c": 2}, 3]}`}, pipeline: `[{"$project": {"a.b": 0}}]`,
			want: []string{`{"_id": 1, "a": [{"c": 2}, 3]}`}},
		{name: "computed subfield creates the document", input: []string{`{"_id": 1, "x": 2}`}, pipeline: `[{"$project": {"a.b": "$x"}}]`,
			want: []string{`{"_id": 1, "a": {"b": 2}}`}},
		{name: "$unset", input: []string{book}, pipeline: `[{"$unset": ["isbn", "author.first", "copies"]}]`,
			want: []string{`{"_id": 1, "title": "abc123", "author": {"last": "zzz"}, "lastModified": "2016-07-28"}`}},
		{name: "$unset string", input: []string{book}, pipeline: `[{"$unset": "author"}, {"$project": {"title": 1}}]`,
			want: []string{`{"_id": 1, "title": "abc123"}`}},
	})
}

func TestAddFields(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "appends new, replaces existing in place", input: []string{`{"_id": 1, "a": 1, "b": 2}`}, pipeline: `[{"$addFields": {"c": "$a", "a": "x"}}]`,
			want: []string{`{"_id": 1, "a": "x", "b": 2, "c": 1}`}},
		{name: "$set is an alias; nested spec merges into the document", input: []string{`{"_id": 1, "specs": {"doors": 4, "wheels": 4}}`}, pipeline: `[{"$set": {"specs.fuel_type": "unleaded"}}, {"$set": {"specs": {"seats": 5}}}]`,
			want: []string{`{"_id": 1, "specs": {"doors": 4, "wheels": 4, "fuel_type": "unleaded", "seats": 5}}`}},
		{name: "dotted path over an array sets in every element", input: []string{`{"_id": 1, "a": [{"b": 1}, 2]}`}, pipeline: `[{"$addFields": {"a.c": 9}}]`,
			want: []string{`{"_id": 1, "a": [{"b": 1, "c": 9}, {"c": 9}]}`}},
		{name: "$$REMOVE removes", input: []string{`{"_id": 1, "a": 1, "b": 2}`}, pipeline: `[{"$addFields": {"a": "$$REMOVE"}}]`,
			want: []string{`{"_id": 1, "b": 2}`}},
		{name: "numbers are values, not inclusions", input: []string{`{"_id": 1}`}, pipeline: `[{"$addFields": {"one": 1, "t": true, "o": {}}}]`,
			want: []string{`{"_id": 1, "one": 1, "t": true, "o": {}}`}},
		{name: "$replaceRoot and $replaceWith", input: []string{`{"_id": 1, "n": {"a": 1}}`}, pipeline: `[{"$replaceRoot": {"newRoot": "$n"}}, {"$replaceWith": {"b": "$a"}}]`,
			want: []string{`{"b": 1}`}},
	})
}

func TestProjectErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{name: "empty", pipeline: `[{"$project": {}}]`, code: 51272, msg: "Invalid $project :: caused by :: projection specification must have at least one field"},
		{name: "exclusion in inclusion", pipeline: `[{"$project": {"a": 1, "b": 0}}]`, code: 31254, msg: "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection"},
		{name: "inclusion in exclusion", pipeline: `[{"$project": {"a": 0, "b": 1}}]`, code: 31253, msg: "Invalid $project :: caused by :: Cannot do inclusion on field b in exclusion projection"},
		// $project parses with find's projection parser (projection_parser.cpp):
		// a literal or field path is parseLiteral's 31310, an operator
		// attemptToParseGenericExpression's 31252, and a path through an
		// included field addNodeAtPathHelper's 31249.
		{name: "field path in exclusion", pipeline: `[{"$project": {"a": 0, "b": "$x"}}]`, code: 31310,
			msg: `Invalid $project :: caused by :: Cannot use an expression b: "$x" in an exclusion projection`},
		{name: "expression in exclusion", pipeline: `[{"$project": {"a": 0, "b": {"$add": ["$x", 1]}}}]`, code: 31252,
			msg: "Invalid $project :: caused by :: Cannot use expression other than $meta in exclusion projection"},
		{name: "path collision", pipeline: `[{"$project": {"a": 1, "a.b": 1}}]`, code: 31249,
			msg: "Invalid $project :: caused by :: Path collision at a.b remaining portion b"},
		{name: "path collision at the leaf", pipeline: `[{"$project": {"a.b": 1, "a": 1}}]`, code: 31250,
			msg: "Invalid $project :: caused by :: Path collision at a"},
		// The aggregation policies refuse find's own operators.
		{name: "positional", pipeline: `[{"$project": {"a.$": 1}}]`, code: 31324,
			msg: "Invalid $project :: caused by :: Cannot use positional projection in aggregation projection"},
		{name: "$elemMatch", pipeline: `[{"$project": {"a": {"$elemMatch": {"b": 1}}}}]`, code: 168,
			msg: "Invalid $project :: caused by :: Cannot use $elemMatch in this context"},
		{name: "unset type", pipeline: `[{"$unset": 1}]`, code: 31002, msg: "$unset specification must be a string or an array"},
		{name: "replaceRoot not a doc", pipeline: `[{"$replaceRoot": {"newRoot": "$a"}}]`, input: []string{`{"a": 1}`}, code: 40228},
		{name: "dollar field", pipeline: `[{"$addFields": {"$a": 1}}]`, code: 16410},
	})
}
