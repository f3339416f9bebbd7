package engine_test

import (
	"testing"
)

// Expected values follow the MongoDB 8.0 manual ("Project Fields to Return
// from Query", "$slice (projection)", "$elemMatch (projection)", "$
// (projection)") and jstests/core/query/projection.
func TestConfProjection(t *testing.T) {
	db, _ := confColl(t,
		`{"_id":1,"a":5,"b":{"c":1,"d":2},"arr":[{"x":1,"y":2},{"x":2,"y":3},{"y":4},7],"s":[1,2,3,4,5]}`,
		`{"_id":2,"b":[{"c":1,"d":2},3,{"d":4}],"arr":[]}`,
	)
	cases := []struct{ filter, proj, want string }{
		{`{"_id":1}`, `{}`, `[{"_id":1,"a":5,"b":{"c":1,"d":2},"arr":[{"x":1,"y":2},{"x":2,"y":3},{"y":4},7],"s":[1,2,3,4,5]}]`},
		{`{"_id":1}`, `{"s":1,"a":1}`, `[{"_id":1,"a":5,"s":[1,2,3,4,5]}]`},
		{`{"_id":1}`, `{"a":true,"_id":0}`, `[{"a":5}]`},
		{`{"_id":1}`, `{"a":0,"arr":0,"s":0}`, `[{"_id":1,"b":{"c":1,"d":2}}]`},
		{`{"_id":1}`, `{"_id":0}`, `[{"a":5,"b":{"c":1,"d":2},"arr":[{"x":1,"y":2},{"x":2,"y":3},{"y":4},7],"s":[1,2,3,4,5]}]`},
		{`{"_id":1}`, `{"_id":1}`, `[{"_id":1}]`},
		{`{"_id":1}`, `{"missing":1}`, `[{"_id":1}]`},
		{`{"_id":1}`, `{"b.c":1}`, `[{"_id":1,"b":{"c":1}}]`},
		{`{"_id":1}`, `{"b.c":0,"arr":0,"s":0}`, `[{"_id":1,"a":5,"b":{"d":2}}]`},
		{`{"_id":1}`, `{"arr.x":1,"_id":0}`, `[{"arr":[{"x":1},{"x":2},{}]}]`},
		{`{"_id":1}`, `{"arr.x":0,"_id":0,"a":0,"b":0,"s":0}`, `[{"arr":[{"y":2},{"y":3},{"y":4},7]}]`},
		{`{"_id":2}`, `{"b.d":1}`, `[{"_id":2,"b":[{"d":2},{"d":4}]}]`},
		{`{"_id":1}`, `{"a.b":1}`, `[{"_id":1}]`},
		{`{"_id":1}`, `{"s":{"$slice":2},"arr":0,"b":0}`, `[{"_id":1,"a":5,"s":[1,2]}]`},
		{`{"_id":1}`, `{"s":{"$slice":-2},"_id":0,"a":1}`, `[{"a":5,"s":[4,5]}]`},
		{`{"_id":1}`, `{"s":{"$slice":[1,2]},"a":1}`, `[{"_id":1,"a":5,"s":[2,3]}]`},
		{`{"_id":1}`, `{"s":{"$slice":[-2,5]},"a":1}`, `[{"_id":1,"a":5,"s":[4,5]}]`},
		{`{"_id":1}`, `{"s":{"$slice":[10,2]},"a":1}`, `[{"_id":1,"a":5,"s":[]}]`},
		{`{"_id":1}`, `{"a":{"$slice":1},"_id":1,"s":1}`, `[{"_id":1,"a":5,"s":[1,2,3,4,5]}]`},
		{`{"_id":1}`, `{"arr":{"$elemMatch":{"x":{"$gte":2}}}}`, `[{"_id":1,"arr":[{"x":2,"y":3}]}]`},
		{`{"_id":1}`, `{"arr":{"$elemMatch":{"x":9}}}`, `[{"_id":1}]`},
		{`{"_id":1}`, `{"a":1,"arr":{"$elemMatch":{"y":{"$gt":2}}}}`, `[{"_id":1,"a":5,"arr":[{"x":2,"y":3}]}]`},
		{`{"arr.y":{"$gte":3}}`, `{"arr.$":1}`, `[{"_id":1,"arr":[{"x":2,"y":3}]}]`},
		{`{"s":{"$gt":3}}`, `{"s.$":1,"_id":0}`, `[{"s":[4]}]`},
		{`{"_id":1}`, `{"sum":{"$add":["$a",1]},"a":1}`, `[{"_id":1,"a":5,"sum":6}]`},
		{`{"_id":1}`, `{"c":"$b.c","_id":0}`, `[{"c":1}]`},
		{`{"_id":1}`, `{"lit":{"$literal":1},"_id":0}`, `[{"lit":1}]`},
		{`{"_id":1}`, `{"str":"hello","_id":0}`, `[{"str":"hello"}]`},
		{`{"_id":1}`, `{"n":{"$size":"$s"},"_id":0}`, `[{"n":5}]`},
		{`{"_id":1}`, `{"b":{"c":1},"_id":0}`, `[{"b":{"c":1}}]`},
		// A computed field below an array reaches every element, a scalar
		// one too, which becomes a document of the computed fields
		// (InclusionNode's applyExpressionsToValue, shared with $project).
		{`{"_id":1}`, `{"arr.x":1,"arr.z":"k","_id":0}`, `[{"arr":[{"x":1,"z":"k"},{"x":2,"z":"k"},{"z":"k"},{"z":"k"}]}]`},
	}
	for _, c := range cases {
		got := firstBatch(t, db, `{"find":"c","filter":`+c.filter+`,"projection":`+c.proj+`}`)
		sameJSON(t, "projection "+c.proj, got, c.want)
	}
}

// Error codes and messages are from src/mongo/db/query/projection/projection_parser.cpp.
func TestConfProjectionErrors(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":[1,2],"b":1}`)
	cases := []struct {
		proj string
		code int32
		msg  string
	}{
		{`{"a":1,"b":0}`, 31254, "Cannot do exclusion on field b in inclusion projection"},
		{`{"a":0,"b":1}`, 31253, "Cannot do inclusion on field b in exclusion projection"},
		{`{"a":1,"a.b":1}`, 31249, "Path collision at a.b remaining portion b"},
		{`{"a":{"$elemMatch":1}}`, 31274, "elemMatch: Invalid argument, object required, but got int"},
	}
	for _, c := range cases {
		wantErr(t, db, `{"find":"c","filter":{},"projection":`+c.proj+`}`, c.code, c.msg)
	}
}
