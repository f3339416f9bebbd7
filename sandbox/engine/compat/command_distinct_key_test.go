package compat_test

import (
	"strings"
	"testing"
)

// A distinct key under _id: the command's find projects the key without
// the usual {_id: 0} (getDistinctProjection's isID), so "_id.a" is no
// projection path collision.
const distinctIDKeyRef = "src/mongo/db/query/canonical_distinct.cpp (getProjectedDottedField, getDistinctProjection); jstests/core/query/distinct/distinct_semantics.js"

func TestDistinctKeyUnderID(t *testing.T) {
	docs := `[{"_id":{"a":[1,2]}},{"_id":{"a":[2,3]}},{"_id":{"a":3}},{"_id":{"a":4}}]`
	runCmdCases(t, []cmdCase{
		{name: "distinct on a path under _id", ref: distinctIDKeyRef, docs: docs, cmd: `{"distinct":"c","key":"_id.a"}`,
			want: `{"values":[1,2,3,4]}`},
		{name: "distinct on a path under _id, with an index on it", ref: distinctIDKeyRef, docs: docs,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"_id.a":1},"name":"ia"}]}`},
			cmd:   `{"distinct":"c","key":"_id.a","query":{"_id.a":{"$gte":2}}}`, want: `{"values":[1,2,3,4]}`},
	})
}

// distinct refuses a result near the 16 MB document limit: while it
// collects, when the BSON elements of the distinct values reach 16 MB
// less 4 KB (17217, in the executor's context), and again on the reply
// (31299) (src/mongo/db/commands/distinct.cpp, kMaxResponseSize;
// jstests/core/query/bson_size_limit.js).
func TestDistinctSizeLimit(t *testing.T) {
	const ref = "src/mongo/db/commands/distinct.cpp (kMaxResponseSize = BSONObjMaxUserSize - 4096); jstests/core/query/bson_size_limit.js"
	// The element of {x: s} is s's length plus 8 bytes: a type byte, the
	// name "x" and its NUL, the string's length and its NUL.
	limit := 16<<20 - 4096
	big := func(n int) string { return `[{"_id": 1, "x": "` + strings.Repeat("a", n) + `"}]` }
	runCmdCases(t, []cmdCase{
		{name: "distinct of values past the limit", ref: ref, docs: big(limit - 8), cmd: `{"distinct": "c", "key": "x"}`,
			code: 17217, msg: "Executor error during distinct command :: caused by :: distinct too big, 16mb cap"},
		{name: "distinct of values just under the limit", ref: ref, cov: cover{family: commandFam, op: "distinct", col: semantics},
			docs: big(limit - 101), cmd: `{"distinct": "c", "key": "x"}`, want: `{"values": "*"}`},
	})
}
