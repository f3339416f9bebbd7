package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The find projection sweep: inclusion and exclusion, $slice, $elemMatch,
// $meta and the positional $ (its own row), their semantics and the
// projections mongod refuses. The facts come from
// src/mongo/db/query/projection_parser.cpp (parseElement, parseInclusion,
// parseExclusion, parseSubObjectAsExpression), the projection executor
// (src/mongo/db/exec/projection_executor_utils.cpp) and the manual's
// projection pages.

const (
	projParserRef = "src/mongo/db/query/projection_parser.cpp"
	projRef       = "src/mongo/db/query/projection_parser.cpp; manual: tutorial/project-fields-from-query-results"
	positionalRef = "src/mongo/db/query/projection_parser.cpp (parseInclusion), src/mongo/db/exec/projection_executor_utils.cpp; manual: reference/operator/projection/positional"
	elemMatchRef  = "src/mongo/db/query/projection_parser.cpp (parseSubObjectAsExpression); manual: reference/operator/projection/elemMatch"
	metaRef       = "src/mongo/db/pipeline/expression.cpp (ExpressionMeta); src/mongo/db/query/canonical_query.cpp; manual: reference/operator/aggregation/meta"
)

func TestProjectionSweep(t *testing.T) {
	docs := `[{"_id":1,"a":[1,2,3,4],"b":{"c":1,"d":2},"e":[{"f":1,"g":1},{"f":2,"g":2},{"f":2,"g":3}],"x":"s"},
		{"_id":2,"a":5,"b":[{"c":1,"d":1},{"c":2}],"e":[]}]`
	pr := func(op string, col column) cover { return cover{family: projection, op: op, col: col} }
	incl := "inclusion and exclusion"
	runFindCases(t, []findCase{
		// inclusion and exclusion
		{name: "dotted inclusion through an array of documents", ref: projRef, docs: docs, projection: `{"b.c":1,"_id":0}`,
			want: `[{"b":{"c":1}},{"b":[{"c":1},{"c":2}]}]`},
		{name: "dotted exclusion through an array of documents", ref: projRef, docs: docs, filter: `{"_id":2}`, projection: `{"b.d":0,"e":0}`,
			want: `[{"_id":2,"a":5,"b":[{"c":1},{"c":2}]}]`},
		{name: "a nested projection is the dotted one", ref: projRef, docs: docs, filter: `{"_id":1}`, projection: `{"b":{"d":1}}`,
			want: `[{"_id":1,"b":{"d":2}}]`},
		{name: "_id: 0 alone excludes only _id", ref: projRef, docs: docs, filter: `{"_id":2}`, projection: `{"_id":0}`,
			want: `[{"a":5,"b":[{"c":1,"d":1},{"c":2}],"e":[]}]`},
		{name: "a literal is computed in an inclusion", ref: projRef, cov: pr(incl, semantics), docs: docs, filter: `{"_id":2}`, projection: `{"a":1,"k":"$a","l":{"$literal":1}}`,
			want: `[{"_id":2,"a":5,"k":5,"l":1}]`},
		{name: "fields keep the document's order", ref: projRef, docs: docs, filter: `{"_id":1}`, projection: `{"x":1,"a":1}`,
			want: `[{"_id":1,"a":[1,2,3,4],"x":"s"}]`},
		{name: "inclusion then exclusion", ref: projParserRef, docs: docs, projection: `{"a":1,"x":0}`, code: 31254, msg: "Cannot do exclusion on field x in inclusion projection"},
		{name: "exclusion then inclusion", ref: projParserRef, docs: docs, projection: `{"x":0,"a":1}`, code: 31253, msg: "Cannot do inclusion on field a in exclusion projection"},
		{name: "an expression in an exclusion", ref: projParserRef, docs: docs, projection: `{"x":0,"k":{"$add":[1,2]}}`, cov: pr(incl, errorCol),
			code: 31252, msg: "Cannot use expression other than $meta in exclusion projection"},
		{name: "a literal in an exclusion", ref: projParserRef, docs: docs, projection: `{"x":0,"k":"y"}`, code: 31310, msg: `Cannot use an expression k: "y" in an exclusion projection`},
		{name: "a path and its parent", ref: projParserRef, docs: docs, projection: `{"b":1,"b.c":1}`, code: 31249, msg: "Path collision at b.c remaining portion c"},
		{name: "a collision below the first component names the tail after it", ref: projParserRef + " (addNodeAtPathHelper); src/mongo/db/pipeline/field_path.cpp (FieldPath::tail drops the first component)",
			cov: pr(incl, errorCol), docs: docs, projection: `{"b.c":1,"b.c.d":1}`, code: 31249, msg: "Path collision at b.c.d remaining portion c.d"},
		{name: "a parent after its path", ref: projParserRef, docs: docs, projection: `{"b.c":1,"b":1}`, code: 31250, msg: "Path collision at b"},
		{name: "an empty sub-projection", ref: projParserRef, docs: docs, projection: `{"b":{}}`, code: 51270, msg: "An empty sub-projection is not a valid value. Found empty object at path"},
		{name: "a field starting with $", ref: projParserRef, cov: pr(incl, errorCol), docs: docs, projection: `{"$a":1}`, code: 16410, msg: "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{name: "an unknown operator", ref: projParserRef, docs: docs, projection: `{"a":{"$foo":1}}`, cov: pr(incl, errorCol), code: 31325, msg: "Unknown expression $foo"},

		// positional $
		{name: "$ keeps the first element the query matched", ref: positionalRef, cov: pr("positional $", semantics), docs: docs, filter: `{"a":{"$gte":2}}`, projection: `{"a.$":1}`,
			want: `[{"_id":1,"a":[2]},{"_id":2,"a":5}]`},
		{name: "$ on an array of documents", ref: positionalRef, cov: pr("positional $", semantics), docs: docs, filter: `{"e.f":2}`, projection: `{"e.$":1}`,
			want: `[{"_id":1,"e":[{"f":2,"g":2}]}]`},
		{name: "$ after $elemMatch in the query", ref: positionalRef, cov: pr("positional $", semantics), docs: docs, filter: `{"e":{"$elemMatch":{"f":2,"g":3}}}`, projection: `{"e.$":1,"x":1}`,
			want: `[{"_id":1,"e":[{"f":2,"g":3}],"x":"s"}]`},
		{name: "$ in the middle of a path", ref: projParserRef, cov: pr("positional $", errorCol), docs: docs, filter: `{"e.f":2}`, projection: `{"e.$.f":1}`,
			code: 31394, msg: "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and the results will be equivalent."},
		{name: "$ excluded", ref: projParserRef, cov: pr("positional $", errorCol), docs: docs, filter: `{"a":2}`, projection: `{"a.$":0}`,
			code: 31395, msg: "positional projection cannot be used with exclusion"},
		{name: "$ with a literal", ref: projParserRef, cov: pr("positional $", errorCol), docs: docs, filter: `{"a":2}`, projection: `{"a.$":"x"}`,
			code: 31308, msg: "positional projection cannot be used with a literal"},
		{name: "$ with a sub-object", ref: projParserRef, cov: pr("positional $", errorCol), docs: docs, filter: `{"a":2}`, projection: `{"a.$":{"b":1}}`,
			code: 31271, msg: "positional projection cannot be used with an expression or sub object"},
		{name: "two positional projections", ref: projParserRef, cov: pr("positional $", errorCol), docs: docs, filter: `{"a":2,"e.f":2}`, projection: `{"a.$":1,"e.$":1}`,
			code: 31276, msg: "Cannot specify more than one positional projection per query."},
		{name: "$ on an array the query does not name fails at run time", ref: positionalRef + "; jstests/core/query/project/positional_projection.js", cov: pr("positional $", errorCol), docs: docs, filter: `{"_id":1}`, projection: `{"a.$":1}`,
			code: 51246},
		{name: "$ on a field the query does not name, missing from the document", ref: positionalRef + "; jstests/core/query/project/positional_projection.js", docs: docs, filter: `{"_id":2}`, projection: `{"g.$":1}`,
			want: `[{"_id":2}]`},
		{name: "$ on an empty path", ref: positionalRef, cov: pr("positional $", errorCol), docs: docs, projection: `{".$":1}`,
			code: 5392900, msg: "Projection on field .$ is invalid"},

		// $elemMatch
		{name: "$elemMatch keeps the first matching element", ref: elemMatchRef, docs: docs, projection: `{"e":{"$elemMatch":{"f":2}}}`,
			want: `[{"_id":1,"e":[{"f":2,"g":2}]},{"_id":2}]`},
		{name: "$elemMatch on a scalar field leaves it out", ref: elemMatchRef, docs: docs, filter: `{"_id":2}`, projection: `{"a":{"$elemMatch":{"$gt":1}},"x":1}`,
			want: `[{"_id":2}]`},
		{name: "$elemMatch with a value condition", ref: elemMatchRef, docs: docs, filter: `{"_id":1}`, projection: `{"a":{"$elemMatch":{"$gt":2}}}`,
			want: `[{"_id":1,"a":[3]}]`},
		{name: "$elemMatch of a number", ref: elemMatchRef, docs: docs, projection: `{"e":{"$elemMatch":1}}`, code: 31274, msg: "elemMatch: Invalid argument, object required, but got int"},
		{name: "$elemMatch on a nested field", ref: elemMatchRef, docs: docs, projection: `{"b.c":{"$elemMatch":{"$gt":1}}}`, code: 31275, msg: "Cannot use $elemMatch projection on a nested field."},
		{name: "$elemMatch after a positional", ref: elemMatchRef, docs: docs, filter: `{"a":2}`, projection: `{"a.$":1,"e":{"$elemMatch":{"f":1}}}`,
			cov: pr("$elemMatch", errorCol), code: 31255, msg: "Cannot specify positional operator and $elemMatch."},
		{name: "a positional after $elemMatch", ref: elemMatchRef, docs: docs, filter: `{"a":2}`, projection: `{"e":{"$elemMatch":{"f":1}},"a.$":1}`,
			code: 31256, msg: "Cannot specify positional operator and $elemMatch."},
		{name: "$elemMatch with an unknown operator", ref: elemMatchRef, docs: docs, projection: `{"e":{"$elemMatch":{"f":{"$foo":1}}}}`,
			code: mongoerr.BadValue, msg: "unknown operator: $foo"},

		// $slice
		{name: "$slice beyond the end", ref: slice1, docs: docs, filter: `{"_id":1}`, projection: `{"a":{"$slice":[3,5]}}`,
			want: `[{"_id":1,"a":[4],"b":{"c":1,"d":2},"e":[{"f":1,"g":1},{"f":2,"g":2},{"f":2,"g":3}],"x":"s"}]`},
		{name: "$slice of a scalar leaves it, beside an inclusion", ref: slice1, docs: docs, filter: `{"_id":2}`, projection: `{"a":{"$slice":1},"x":1}`,
			want: `[{"_id":2,"a":5}]`},
		{name: "$slice of a string", ref: slice1 + "; " + projParserRef, docs: docs, projection: `{"a":{"$slice":"x"}}`,
			code: 28667, msg: `Invalid $slice syntax. The given syntax { $slice: "x" } did not match the find() syntax because :: Location31273: $slice only supports numbers and [skip, limit] arrays :: The given syntax did not match the expression $slice syntax. :: caused by :: Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in.`},

		// $meta
		{name: "textScore without $text", ref: metaRef, cov: pr("$meta", semantics), docs: docs, projection: `{"score":{"$meta":"textScore"}}`,
			code: 40218, msg: "query requires text score metadata, but it is not available"},
		{name: "an unknown $meta", ref: metaRef, docs: docs, projection: `{"m":{"$meta":"foo"}}`, code: 17308, msg: "Unsupported argument to $meta: foo"},
		{name: "a $meta that is no string", ref: metaRef, docs: docs, projection: `{"m":{"$meta":1}}`, code: 17307, msg: "$meta only supports string arguments"},
	})
}
