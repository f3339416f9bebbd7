package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The explain of a delete on a time-series collection is planned on its
// buckets (get_executor.cpp getExecutorDelete, 8.0; the stage's fields:
// plan_explainer_impl.cpp, STAGE_TIMESERIES_MODIFY; the filters:
// timeseries_update_delete_util.cpp getMatchExprsForWrites). The cases
// follow jstests/core/timeseries/query/timeseries_explain_delete.js: four
// measurements, two per meta value, in two buckets.
func TestTimeseriesExplainDelete(t *testing.T) {
	const ref = "src/mongo/db/query/get_executor.cpp getExecutorDelete; jstests/core/timeseries/query/timeseries_explain_delete.js"
	s := newSuite(t)
	setup := func(t *testing.T, db *mongo.Database, indexMeta bool) {
		t.Helper()
		mustCommand(t, db, `{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`)
		if indexMeta {
			mustCommand(t, db, `{"createIndexes": "ts", "indexes": [{"key": {"m": 1}, "name": "m_1"}]}`)
		}
		mustCommand(t, db, `{"insert": "ts", "documents": [
			{"_id": 1, "t": {"$date": "2021-07-12T16:00:00Z"}, "m": 1}, {"_id": 2, "t": {"$date": "2021-07-12T16:00:00Z"}, "m": 1},
			{"_id": 3, "t": {"$date": "2021-07-12T16:00:00Z"}, "m": 2}, {"_id": 4, "t": {"$date": "2021-07-12T16:00:00Z"}, "m": 2}]}`)
	}
	const closed = `{"control.closed": {"$not": {"$eq": true}}}`
	run := func(t *testing.T, db *mongo.Database, del string) (plan, stages bson.D) {
		t.Helper()
		reply := mustCommand(t, db, `{"explain": {"delete": "ts", "deletes": [`+del+`]}, "verbosity": "executionStats"}`)
		qp, _ := field(reply, "queryPlanner").(bson.D)
		sameValue(t, "namespace", field(qp, "namespace"), `"`+db.Name()+`.system.buckets.ts"`)
		es, _ := field(reply, "executionStats").(bson.D)
		stages, _ = field(es, "executionStages").(bson.D)
		// The explain deletes nothing.
		n := mustCommand(t, db, `{"count": "ts"}`)
		sameValue(t, "count after the explain", field(n, "n"), `4`)
		return winningPlan(t, reply), stages
	}

	// An empty query deletes whole buckets: DELETE (never batched) over a
	// scan that skips closed buckets; nWouldDelete counts measurements.
	s.runCase(t, "delete many with an empty query removes whole buckets", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, false)
			plan, stages := run(t, db, `{"q": {}, "limit": 0}`)
			sameValue(t, "stage", field(plan, "stage"), `"DELETE"`)
			in, _ := field(plan, "inputStage").(bson.D)
			sameValue(t, "scan", field(in, "stage"), `"COLLSCAN"`)
			sameValue(t, "scan filter", field(in, "filter"), closed)
			sameValue(t, "nWouldDelete", field(stages, "nWouldDelete"), `4`)
		})
	// A query on the metaField alone also removes whole buckets.
	s.runCase(t, "delete many by the metaField removes whole buckets", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, false)
			plan, stages := run(t, db, `{"q": {"m": 2}, "limit": 0}`)
			sameValue(t, "stage", field(plan, "stage"), `"DELETE"`)
			sameValue(t, "nWouldDelete", field(stages, "nWouldDelete"), `2`)
		})
	// A measurement predicate makes a TS_MODIFY: the bucket filter is the
	// closed-bucket filter, the meta predicate and the bucket bound of
	// the rest; the residual filter is the rest.
	s.runCase(t, "delete many with a measurement predicate is TS_MODIFY", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, false)
			plan, stages := run(t, db, `{"q": {"m": 2, "_id": {"$gte": 3}}, "limit": 0}`)
			sameValue(t, "stage", field(plan, "stage"), `"TS_MODIFY"`)
			sameValue(t, "opType", field(plan, "opType"), `"deleteMany"`)
			sameValue(t, "bucketFilter", field(plan, "bucketFilter"),
				`{"$and": [`+closed+`, {"meta": {"$eq": 2}}, {"control.max._id": {"$_internalExprGte": 3}}]}`)
			sameValue(t, "residualFilter", field(plan, "residualFilter"), `{"_id": {"$gte": 3}}`)
			sameValue(t, "nBucketsUnpacked", field(stages, "nBucketsUnpacked"), `1`)
			sameValue(t, "nMeasurementsDeleted", field(stages, "nMeasurementsDeleted"), `2`)
		})
	s.runCase(t, "delete many by a measurement bound unpacks every bucket it may hold", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, false)
			plan, stages := run(t, db, `{"q": {"_id": {"$lte": 3}}, "limit": 0}`)
			sameValue(t, "bucketFilter", field(plan, "bucketFilter"),
				`{"$and": [`+closed+`, {"control.min._id": {"$_internalExprLte": 3}}]}`)
			sameValue(t, "nBucketsUnpacked", field(stages, "nBucketsUnpacked"), `2`)
			sameValue(t, "nMeasurementsDeleted", field(stages, "nMeasurementsDeleted"), `3`)
		})
	// A hint names the time-series index; the scan is of the buckets'.
	s.runCase(t, "a hinted delete scans the buckets' index", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, true)
			plan, stages := run(t, db, `{"q": {"m": 2, "_id": 3}, "limit": 0, "hint": {"m": 1}}`)
			sameValue(t, "bucketFilter", field(plan, "bucketFilter"), `{"$and": [`+closed+`, {"meta": {"$eq": 2}},
				{"$and": [{"control.min._id": {"$_internalExprLte": 3}}, {"control.max._id": {"$_internalExprGte": 3}}]}]}`)
			sameValue(t, "residualFilter", field(plan, "residualFilter"), `{"_id": {"$eq": 3}}`)
			fetch, _ := field(plan, "inputStage").(bson.D)
			ixscan, _ := field(fetch, "inputStage").(bson.D)
			sameValue(t, "index", field(ixscan, "indexName"), `"m_1"`)
			sameValue(t, "nMeasurementsDeleted", field(stages, "nMeasurementsDeleted"), `1`)
		})
	// A deleteOne is a TS_MODIFY whatever its query, and stops at the
	// first measurement it deletes.
	s.runCase(t, "delete one is TS_MODIFY and stops at the first match", ref, explainCase(commandFam, "delete"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, false)
			plan, stages := run(t, db, `{"q": {"m": 1}, "limit": 1}`)
			sameValue(t, "stage", field(plan, "stage"), `"TS_MODIFY"`)
			sameValue(t, "opType", field(plan, "opType"), `"deleteOne"`)
			sameValue(t, "residualFilter", field(plan, "residualFilter"), `{}`)
			sameValue(t, "nBucketsUnpacked", field(stages, "nBucketsUnpacked"), `1`)
			sameValue(t, "nMeasurementsDeleted", field(stages, "nMeasurementsDeleted"), `1`)
		})
}
