package compat_test

import "testing"

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
