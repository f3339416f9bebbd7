package compat_test

import "testing"

// Sweep 41 (time-series ddl/write/query jstests): cases for the
// differences fixed in the sandbox.

// tsClosedBucketRef: every time-series update and delete filters the
// buckets with control.closed != true, so a bucket a direct write marked
// closed keeps its measurements.
const tsClosedBucketRef = "src/mongo/db/timeseries/timeseries_update_delete_util.cpp (closedBucketFilter, getMatchExprsForWrites); " +
	"jstests/core/timeseries/write/timeseries_closed_update_delete.js"

func TestSweep41TimeseriesClosedBucket(t *testing.T) {
	setup := []string{
		`{"create": "c", "timeseries": {"timeField": "t", "metaField": "m"}}`,
		`{"insert": "c", "documents": [{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": "a", "v": 1},
			{"_id": 2, "t": {"$date": "2024-03-01T00:05:00Z"}, "m": "a", "v": 2},
			{"_id": 3, "t": {"$date": "2024-03-01T00:05:00Z"}, "m": "z", "v": 3}]}`,
		`{"findAndModify": "system.buckets.c", "query": {"meta": "a"}, "update": {"$set": {"control.closed": true}}}`,
	}
	runCmdCases(t, []cmdCase{
		{name: "a meta update skips the closed bucket", ref: tsClosedBucketRef, setup: setup,
			cmd:      `{"update": "c", "updates": [{"q": {"m": "a"}, "u": {"$set": {"m": "b"}}, "multi": true}]}`,
			want:     `{"n": 0, "nModified": 0}`,
			thenFind: `{"find": "c", "filter": {"m": "a"}, "projection": {"_id": 1}, "sort": {"_id": 1}}`, thenWant: `[{"_id": 1}, {"_id": 2}]`},
		{name: "a delete skips the closed bucket", ref: tsClosedBucketRef, setup: setup,
			cmd:      `{"delete": "c", "deletes": [{"q": {}, "limit": 0}]}`,
			want:     `{"n": 1}`,
			thenFind: `{"find": "c", "projection": {"_id": 1}, "sort": {"_id": 1}}`, thenWant: `[{"_id": 1}, {"_id": 2}]`},
		{name: "an open bucket of the same collection is still updated", ref: tsClosedBucketRef, setup: setup,
			cmd:      `{"update": "c", "updates": [{"q": {"m": "z"}, "u": {"$set": {"m": "y"}}, "multi": true}]}`,
			want:     `{"n": 1, "nModified": 1}`,
			thenFind: `{"find": "c", "filter": {"m": "y"}, "projection": {"_id": 1}}`, thenWant: `[{"_id": 3}]`},
	})
}
