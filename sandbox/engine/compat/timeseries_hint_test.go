package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A read of a time-series collection runs over its buckets with the
// command's hint, an index key translated to the buckets' schema
// (jstests/core/timeseries/ddl/timeseries_index.js): hinting the default
// {m: 1, t: 1} index with no filter scans it whole.
func TestTimeseriesIndexHintExplain(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a time-series find hinting {m: 1, t: 1} scans its buckets index", "jstests/core/timeseries/ddl/timeseries_index.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`)
			mustCommand(t, db, tsHintDocs)
			reply := mustCommand(t, db, `{"explain":{"find":"c","hint":{"m":1,"t":1}},"verbosity":"queryPlanner"}`)
			cursor := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
			plan := field(field(cursor, "queryPlanner").(bson.D), "winningPlan").(bson.D)
			if got := stageChain(plan); got != "FETCH>IXSCAN" {
				t.Fatalf("plan %s, want the hinted index", got)
			}
			ixscan := field(plan, "inputStage").(bson.D)
			sameValue(t, "keyPattern", field(ixscan, "keyPattern"), `{"meta": 1, "control.min.t": 1, "control.max.t": 1}`)
			sameValue(t, "indexBounds", field(ixscan, "indexBounds"), `{"meta": ["[MinKey, MaxKey]"], "control.min.t": ["[MinKey, MaxKey]"], "control.max.t": ["[MinKey, MaxKey]"]}`)
		})
}
