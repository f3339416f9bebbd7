package compat_test

import "testing"

// MongoDB 8.0 updates a time-series collection only as its docs list:
// a multi update, not an upsert, selecting by the metaField and changing
// it alone with update operators (featureFlagTimeseriesUpdatesSupport,
// which lifts this, is off). Everything else is InvalidOptions.
const tsUpdateRef = "src/mongo/db/timeseries/timeseries_write_util.cpp (updateRequestCheckFunction), timeseries_update_delete_util.cpp; " +
	"https://www.mongodb.com/docs/manual/core/timeseries/timeseries-limitations/; " +
	"jstests/core/timeseries/write/timeseries_update_arbitrary_updates_not_enabled.js"

func TestTimeseriesUpdateRestrictions(t *testing.T) {
	ts := `{"create": "c", "timeseries": {"timeField": "t", "metaField": "m"}}`
	insert := `{"insert": "c", "documents": [{"_id": 1, "t": {"$date": "2026-01-01T00:00:00Z"}, "m": {"a": "A"}, "v": 1},
		{"_id": 2, "t": {"$date": "2026-01-01T00:01:00Z"}, "m": {"a": "A"}, "v": 2}, {"_id": 3, "t": {"$date": "2026-01-01T00:02:00Z"}, "m": {"a": "B"}, "v": 3}]}`
	setup := []string{ts, insert}
	update := func(stmt string) string { return `{"update": "c", "updates": [` + stmt + `]}` }
	refused := func(name, stmt, msg string) cmdCase {
		return cmdCase{name: name, ref: tsUpdateRef, setup: setup, cmd: update(stmt), writeError: true, code: 72, msg: msg}
	}
	const notMetaQuery = "Cannot perform an update or delete on a time-series collection when querying on a field that is not the metaField 'm'"
	const notMetaUpdate = "Cannot perform an update on a time-series collection which updates a field that is not the metaField 'm'"
	runCmdCases(t, []cmdCase{
		{name: "a multi update of the metaField selected by it", ref: tsUpdateRef, setup: setup,
			cmd:      update(`{"q": {"m.a": "A"}, "u": {"$set": {"m.a": "C"}}, "multi": true}`),
			want:     `{"n": 2, "nModified": 2}`,
			thenFind: `{"find": "c", "filter": {"m.a": "C"}, "projection": {"_id": 1}, "sort": {"_id": 1}}`, thenWant: `[{"_id": 1}, {"_id": 2}]`},
		{name: "a $rename within the metaField", ref: tsUpdateRef, setup: setup,
			cmd: update(`{"q": {"m": {"a": "B"}}, "u": {"$rename": {"m.a": "m.b"}}, "multi": true}`), want: `{"n": 1, "nModified": 1}`},
		refused("a non-multi update", `{"q": {"m.a": "A"}, "u": {"$set": {"m.a": "C"}}}`, "Cannot perform a non-multi update on a time-series collection"),
		refused("an upsert", `{"q": {"m.a": "Z"}, "u": {"$set": {"m.a": "C"}}, "multi": true, "upsert": true}`, "Cannot perform an upsert on a time-series collection"),
		refused("a query on a measurement field", `{"q": {"v": 1}, "u": {"$set": {"m.a": "C"}}, "multi": true}`, notMetaQuery),
		refused("a query on a measurement field inside $and", `{"q": {"$and": [{"m.a": "A"}, {"v": 1}]}, "u": {"$set": {"m.a": "C"}}, "multi": true}`, notMetaQuery),
		refused("a query with $expr", `{"q": {"$expr": {"$eq": ["$m.a", "A"]}}, "u": {"$set": {"m.a": "C"}}, "multi": true}`,
			"Cannot use $expr when performing an update or delete on a time-series collection"),
		refused("an update of a measurement field", `{"q": {"m.a": "A"}, "u": {"$set": {"v": 10}}, "multi": true}`, notMetaUpdate),
		refused("a $rename out of the metaField", `{"q": {"m.a": "A"}, "u": {"$rename": {"m.a": "a"}}, "multi": true}`, notMetaUpdate),
		refused("a replacement", `{"q": {"m.a": "A"}, "u": {"m": {"a": "C"}}, "multi": true}`,
			"Cannot perform an update on a time-series collection using a replacement document"),
		refused("a pipeline update", `{"q": {"m.a": "A"}, "u": [{"$set": {"m.a": "C"}}], "multi": true}`,
			"Cannot perform an update on a time-series collection using a pipeline update"),
		{name: "a collection without a metaField", ref: tsUpdateRef,
			setup: []string{`{"create": "c", "timeseries": {"timeField": "t"}}`, `{"insert": "c", "documents": [{"t": {"$date": "2026-01-01T00:00:00Z"}, "v": 1}]}`},
			cmd:   update(`{"q": {}, "u": {"$set": {"v": 2}}, "multi": true}`), writeError: true, code: 72,
			msg: "Cannot perform an update on a time-series collection that does not have a metaField"},
		{name: "findAndModify updating a time-series collection", ref: tsUpdateRef, setup: setup,
			cmd: `{"findAndModify": "c", "query": {"m.a": "A"}, "update": {"$set": {"m.a": "C"}}}`, code: 72,
			msg: "Cannot perform a non-multi update on a time-series collection"},
	})
}
