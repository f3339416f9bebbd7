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

// tsIndexedArrayRef: a bucket indexed on control.min/max.<f> may not hold
// an array in measurement field f (validateDocumentCommon's check, run
// on every bucket written); a field no such index covers may.
const tsIndexedArrayRef = "src/mongo/db/index/expression_keys_private.cpp (validateDocumentCommon, 5930501), " +
	"src/mongo/db/timeseries/timeseries_dotted_path_support.cpp (fieldContainsArrayData, haveArrayAlongBucketDataPath); " +
	"jstests/core/timeseries/ddl/timeseries_metric_index_compound.js (testBadIndexForData)"

func TestSweep41TimeseriesIndexedArray(t *testing.T) {
	create := `{"create": "c", "timeseries": {"timeField": "t", "metaField": "m"}}`
	withIndex := func(key string) []string {
		return []string{create, `{"createIndexes": "c", "indexes": [{"key": ` + key + `, "name": "ix"}]}`}
	}
	insert := func(doc string) string { return `{"insert": "c", "documents": [` + doc + `]}` }
	const msg = "Indexed measurement field contains an array value"
	runCmdCases(t, []cmdCase{
		{name: "an array under a compound measurement index", ref: tsIndexedArrayRef, setup: withIndex(`{"x": 1, "a": 1}`),
			cmd:        insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "a": [1, 2]}`),
			writeError: true, code: 5930501, msg: msg,
			thenFind: `{"find": "c"}`, thenWant: `[]`},
		{name: "an array under a single-field measurement index", ref: tsIndexedArrayRef, setup: withIndex(`{"a": -1}`),
			cmd:        insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "a": ["x"]}`),
			writeError: true, code: 5930501, msg: msg},
		{name: "an array inside an indexed dotted path", ref: tsIndexedArrayRef, setup: withIndex(`{"x.y": 1}`),
			cmd:        insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "x": {"y": [3]}}`),
			writeError: true, code: 5930501, msg: msg},
		{name: "an array in a field no index covers", ref: tsIndexedArrayRef, setup: withIndex(`{"x": 1}`),
			cmd:      insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "x": 5, "a": [1, 2]}`),
			want:     `{"n": 1}`,
			thenFind: `{"find": "c", "projection": {"_id": 1, "a": 1}}`, thenWant: `[{"_id": 1, "a": [1, 2]}]`},
		{name: "an array below an indexed object field", ref: tsIndexedArrayRef, setup: withIndex(`{"a": 1}`),
			cmd:  insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "a": {"b": [1]}}`),
			want: `{"n": 1}`},
		{name: "a later insert of the same series after a refused one", ref: tsIndexedArrayRef,
			setup:    append(withIndex(`{"a": 1}`), insert(`{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "a": [1]}`)),
			cmd:      insert(`{"_id": 2, "t": {"$date": "2024-03-01T00:00:01Z"}, "m": 1, "a": 7}`),
			want:     `{"n": 1}`,
			thenFind: `{"find": "c", "projection": {"_id": 1}}`, thenWant: `[{"_id": 2}]`},
	})
}
