package compat_test

import "testing"

// Which query predicates give the positional projection its array
// position: OrMatchExpression::matches hands its children no
// MatchDetails, so an $or that the optimizer leaves an $or records none,
// while one it turns into an $in does.
const positionalOrRef = "src/mongo/db/matcher/expression_tree.cpp (OrMatchExpression::matches); src/mongo/db/exec/projection_executor_utils.cpp (applyPositionalProjection); jstests/core/query/project/positional_projection.js"

func TestPositionalProjectionOr(t *testing.T) {
	docs := `[{"_id":1,"a":[1,2,3],"b":[4,5,6]}]`
	pos := cover{family: projection, op: "positional $", col: semantics}
	runFindCases(t, []findCase{
		{name: "$ after an $or on two fields finds no position", ref: positionalOrRef, cov: cover{family: projection, op: "positional $", col: errorCol},
			docs: docs, filter: `{"$or":[{"a":1},{"b":5}]}`, projection: `{"a.$":1}`, code: 51246},
		{name: "$ after an $or of equalities on one field, which is an $in", ref: positionalOrRef, cov: pos,
			docs: docs, filter: `{"$or":[{"a":2},{"a":3}]}`, projection: `{"b.$":1,"_id":0}`, want: `[{"b":[5]}]`},
		// applyFindPositionalProjection: a position past the end of the
		// array projected is 51247, not 51246
		// (jstests/core/query/project/positional_projection_multiple_array_fields.js).
		{name: "$ on a parallel array shorter than the matched position", ref: positionalOrRef, cov: cover{family: projection, op: "positional $", col: errorCol},
			docs: `[{"_id":3,"a":[4,5,6],"b":["four","five"]}]`, filter: `{"a":6}`, projection: `{"b.$":1}`, code: 51247},
		{name: "$ on a parallel array long enough", ref: positionalOrRef, cov: pos,
			docs: `[{"_id":3,"a":[4,5,6],"b":["four","five"]}]`, filter: `{"a":5}`, projection: `{"b.$":1}`, want: `[{"_id":3,"b":["five"]}]`},
	})
}
