package wire

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// stageSeeds are aggregate commands over the stages and window functions
// the sweep of issue 25 added or changed, for FuzzDispatch to mutate:
// $redact's recursion, $densify's generation (and its limit), $fill's
// expansion, the window functions, the stages answered with mongod's
// refusals, and $out's and $merge's targets.
func stageSeeds(t testing.TB) [][]byte {
	agg := func(stages ...bson.D) []byte {
		p := bson.A{}
		for _, s := range stages {
			p = append(p, s)
		}
		return mustEncode(t, bson.D{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: p}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}})
	}
	st := func(name string, spec any) bson.D { return bson.D{{Key: name, Value: spec}} }
	d := func(kv ...any) bson.D {
		out := bson.D{}
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, bson.E{Key: kv[i].(string), Value: kv[i+1]})
		}
		return out
	}
	window := func(fn bson.D) []byte {
		return agg(st("$setWindowFields", d("partitionBy", "$p", "sortBy", d("_id", int32(1)), "output", d("r", fn))))
	}
	return [][]byte{
		agg(st("$redact", d("$cond", bson.A{d("$eq", bson.A{"$level", int32(5)}), "$$PRUNE", "$$DESCEND"}))),
		agg(st("$densify", d("field", "_id", "range", d("step", int32(1), "bounds", "full")))),
		agg(st("$densify", d("field", "_id", "partitionByFields", bson.A{"tags"}, "range", d("step", 0.5, "bounds", bson.A{int32(-3), int32(7)})))),
		agg(st("$densify", d("field", "d", "range", d("step", int32(1), "unit", "month", "bounds", "partition")))),
		agg(st("$densify", d("field", "_id", "range", d("step", 1e-9, "bounds", bson.A{int32(0), int32(1)})))),
		agg(st("$fill", d("sortBy", d("_id", int32(1)), "output", d("x", d("method", "linear"), "y", d("method", "locf"), "z", d("value", int32(0)))))),
		window(d("$derivative", d("input", "$_id"), "window", d("documents", bson.A{int32(-1), int32(0)}))),
		window(d("$integral", d("input", "$_id", "unit", "hour"), "window", d("range", bson.A{int32(-1), int32(0)}, "unit", "day"))),
		window(d("$expMovingAvg", d("input", "$_id", "N", int32(3)))),
		window(d("$covariancePop", bson.A{"$_id", "$_id"}, "window", d("range", bson.A{"unbounded", "current"}))),
		window(d("$linearFill", "$x")),
		window(d("$locf", "$x")),
		window(d("$minN", d("input", "$_id", "n", int32(2)), "window", d("documents", bson.A{int32(-2), int32(2)}))),
		agg(st("$group", d("_id", d("t", "$tags"), "r", d("$topN", d("n", "$t", "output", "$_id", "sortBy", d("_id", int32(-1))))))),
		agg(st("$changeStream", bson.D{})),
		agg(st("$search", d("text", d("query", "x", "path", "t")))),
		agg(st("$currentOp", bson.D{})),
		agg(st("$_internalInhibitOptimization", bson.D{}), st("$match", d("_id", int32(1)))),
		agg(st("$out", d("db", "admin", "coll", "x"))),
		agg(st("$merge", d("into", "m", "whenMatched", bson.A{st("$set", d("n", "$$new"))}, "whenNotMatched", "discard"))),
		agg(st("$collStats", d("storageStats", d("scale", int32(1024)), "count", bson.D{}))),
		agg(st("$facet", d("a", bson.A{st("$densify", d("field", "_id", "range", d("step", int32(1), "bounds", "full")))}))),
		// The time-series sort bounded by the buckets it reads, the stage
		// a client may not send, and collMod's time-series options.
		mustEncode(t, d("aggregate", "ticks", "pipeline", bson.A{st("$match", d("m", int32(1))), st("$sort", d("t", int32(-1))), st("$limit", int32(3))},
			"cursor", bson.D{}, "$db", "shop")),
		mustEncode(t, d("aggregate", "ticks", "pipeline", bson.A{st("$project", d("v", int32(0))), st("$sort", d("m", int32(1), "t", int32(1)))},
			"cursor", bson.D{}, "hint", d("$natural", int32(-1)), "$db", "shop")),
		agg(st("$_internalBoundedSort", d("sortKey", d("t", int32(1)), "bound", d("base", "min", "offsetSeconds", int64(3600))))),
		mustEncode(t, d("collMod", "ticks", "timeseries", d("bucketMaxSpanSeconds", int32(7200), "bucketRoundingSeconds", int32(7200)),
			"expireAfterSeconds", int32(60), "timeseriesBucketsMayHaveMixedSchemaData", true, "$db", "shop")),
		mustEncode(t, d("create", "system.buckets.raw", "timeseries", d("timeField", "t"), "$db", "shop")),
		// The last-point rewrite (a bucket-level $sort and $group before
		// the unpacking), the $match mapped past a hoisted meta sort, an
		// index spec cleaned by ignoreUnknownIndexOptions, and a stage
		// kept for internal clients under apiStrict.
		mustEncode(t, d("create", "ticks", "timeseries", d("timeField", "t", "metaField", "m"), "$db", "shop")),
		mustEncode(t, d("aggregate", "ticks", "pipeline", bson.A{st("$sort", d("m", int32(1), "t", int32(-1))), st("$group", d("_id", "$m", "v", d("$first", "$v")))},
			"cursor", bson.D{}, "$db", "shop")),
		mustEncode(t, d("aggregate", "ticks", "pipeline", bson.A{st("$group", d("_id", "$m.a", "v", d("$bottomN", d("n", int32(1), "sortBy", d("m.a", int32(-1), "t", int32(1)), "output", bson.A{"$v"}))))},
			"cursor", bson.D{}, "$db", "shop")),
		mustEncode(t, d("aggregate", "ticks", "pipeline", bson.A{st("$sort", d("m", int32(-1))), st("$match", d("v", d("$gt", int32(1))))},
			"cursor", bson.D{}, "$db", "shop")),
		mustEncode(t, d("createIndexes", "books", "indexes", bson.A{d("key", d("x", int32(1)), "name", "x_1", "someField", "v")},
			"ignoreUnknownIndexOptions", true, "$db", "shop")),
		mustEncode(t, d("aggregate", "books", "pipeline", bson.A{st("$_internalDensify", d("field", "a", "range", d("step", int32(1), "bounds", "full")))},
			"cursor", bson.D{}, "apiVersion", "1", "apiStrict", true, "$db", "shop")),
		// The sweep's new argument checks: a fractional sort direction, a
		// dotted $facet name, a delete limit that is not a number, create's
		// idIndex, a rename onto itself, findAndModify's batchSize.
		agg(st("$sort", d("a", 1.5)), st("$facet", d("a.b", bson.A{}))),
		mustEncode(t, d("delete", "books", "deletes", bson.A{d("q", bson.D{}, "limit", "x")}, "$db", "shop")),
		mustEncode(t, d("create", "c2", "idIndex", d("key", d("_id", int32(1)), "name", "_id_"), "$db", "shop")),
		mustEncode(t, d("renameCollection", "shop.books", "to", "shop.books", "$db", "admin")),
		mustEncode(t, d("findAndModify", "books", "query", bson.D{}, "update", d("$inc", d("n", int32(1))), "batchSize", int32(0), "$db", "shop")),
		// This stop's paths: an $or below an $and and a rooted $or whose
		// branches share a scan, a distinct over such an $or, metadata in
		// a pipeline, $merge inserting under whenMatched: "fail", a
		// percentile naming a let variable, time-series buckets reused by
		// create and their cluster key asked for, and a write explained on
		// a time-series collection.
		mustEncode(t, d("find", "books", "filter", d("x", int32(1), "$or", bson.A{d("a", int32(1)), d("b", d("$gt", int32(2)))}), "$db", "shop")),
		mustEncode(t, d("find", "books", "filter", d("$or", bson.A{d("x", d("$lt", int32(2))), d("x", d("$gt", int32(7)))}), "hint", d("x", int32(1)), "$db", "shop")),
		mustEncode(t, d("distinct", "books", "key", "x", "query", d("$or", bson.A{d("x", d("$lt", int32(4))), d("x", d("$gt", int32(6)))}), "$db", "shop")),
		agg(st("$project", d("a", int32(1), "r", d("$meta", "recordId"))), st("$sort", d("a", int32(1))), st("$set", d("k", d("$meta", "sortKey")))),
		agg(st("$merge", d("into", "m", "whenMatched", "fail", "whenNotMatched", "insert", "on", bson.A{"_id"}))),
		mustEncode(t, d("aggregate", "books", "pipeline", bson.A{st("$group", d("_id", nil, "p", d("$percentile", d("input", "$x", "p", "$$ps", "method", "approximate"))))},
			"let", d("ps", bson.A{0.5, 0.9}), "cursor", bson.D{}, "$db", "shop")),
		mustEncode(t, d("create", "raw", "timeseries", d("timeField", "t"), "$db", "shop")),
		mustEncode(t, d("createIndexes", "system.buckets.raw", "indexes", bson.A{d("key", d("_id", int32(1)), "name", "_id_1", "clustered", true, "unique", true)}, "$db", "shop")),
		mustEncode(t, d("explain", d("delete", "ticks", "deletes", bson.A{d("q", bson.D{}, "limit", int32(0))}), "$db", "shop")),
		// Draw 41/42's paths: a time-series delete explained as TS_MODIFY
		// with a hint, a mixed-schema bucket written straight to the
		// buckets, compact, a top/bottom set sharing one sort key, and a
		// hinted index the query is not relevant to.
		mustEncode(t, d("explain", d("delete", "ticks", "deletes", bson.A{d("q", d("m", int32(2), "_id", d("$gte", int32(3))), "limit", int32(1), "hint", d("m", int32(1)))}),
			"verbosity", "executionStats", "$db", "shop")),
		mustEncode(t, d("insert", "system.buckets.ticks", "documents", bson.A{d("_id", bson.NewObjectID(), "control", d("version", int32(1),
			"min", d("t", bson.DateTime(0), "a", d("x", int32(1))), "max", d("t", bson.DateTime(0), "a", d("x", bson.A{int32(1)}))), "data", bson.D{})}, "$db", "shop")),
		mustEncode(t, d("compact", "books", "dryRun", true, "freeSpaceTargetMB", int32(1), "$db", "shop")),
		agg(st("$group", d("_id", nil, "a", d("$top", d("output", "$x", "sortBy", d("y", int32(1)))), "b", d("$top", d("output", "$z", "sortBy", d("y", int32(1))))))),
		mustEncode(t, d("find", "books", "filter", d("y", int32(7)), "hint", d("x", int32(1), "y", int32(1)), "$db", "shop")),
	}
}
