package wire

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// diagSeeds are the commands of the server's diagnostics, profiler, plan
// cache, sortKey projections, reIndex, storage-engine options and Stable
// API parameters, for FuzzDispatch to mutate: each reads or changes state
// that later inputs meet (a profiled database, an index filter, a cached
// plan), so mutations of one reach the others' paths.
func diagSeeds(t testing.TB) [][]byte {
	cmd := func(kv ...any) []byte {
		d := bson.D{}
		for i := 0; i+1 < len(kv); i += 2 {
			d = append(d, bson.E{Key: kv[i].(string), Value: kv[i+1]})
		}
		return mustEncode(t, d)
	}
	e := func(k string, v any) bson.D { return bson.D{{Key: k, Value: v}} }
	return [][]byte{
		cmd("profile", int32(2), "filter", e("millis", e("$gte", int32(0))), "$db", "shop"),
		cmd("profile", int32(1), "slowms", int32(-1), "sampleRate", 0.5, "$db", "shop"),
		cmd("find", "system.profile", "filter", e("op", "query"), "$db", "shop"),
		cmd("currentOp", int32(1), "$all", true, "$db", "admin"),
		cmd("aggregate", int32(1), "pipeline", bson.A{e("$currentOp", e("localOps", true)), e("$match", e("active", true))}, "cursor", bson.D{}, "$db", "admin"),
		cmd("killOp", int32(1), "op", int32(12345), "$db", "admin"),
		cmd("getLog", "global", "$db", "admin"),
		cmd("serverStatus", int32(1), "metrics", e("commands", int32(0)), "$db", "admin"),
		cmd("planCacheSetFilter", "books", "query", e("a", int32(1)), "sort", e("b", int32(-1)), "indexes", bson.A{e("a", int32(1)), "b_1"}, "$db", "shop"),
		cmd("planCacheListFilters", "books", "$db", "shop"),
		cmd("planCacheClearFilters", "books", "query", e("a", int32(1)), "$db", "shop"),
		cmd("planCacheClear", "books", "query", e("a", e("$gt", int32(2))), "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$planCacheStats", bson.D{}), e("$project", e("cachedPlan", int32(0)))}, "cursor", bson.D{}, "$db", "shop"),
		cmd("find", "books", "filter", e("a", e("$gt", int32(1))), "sort", e("b", int32(1)), "showRecordId", true, "$db", "shop"),
		cmd("find", "books", "projection", e("r", e("$meta", "recordId")), "apiVersion", "1", "apiStrict", true, "$db", "shop"),
		cmd("getMore", int64(1), "collection", "books", "apiVersion", "1", "apiDeprecationErrors", false, "$db", "shop"),
		cmd("find", "books", "filter", e("a", e("$gt", int32(0))), "sort", bson.D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(-1)}}, "projection", e("k", e("$meta", "sortKey")), "returnKey", true, "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$sort", e("b", int32(1))), e("$unwind", "$b"), e("$set", e("k", e("$meta", "sortKey")))}, "cursor", bson.D{}, "$db", "shop"),
		cmd("findAndModify", "books", "query", bson.D{}, "sort", e("a", int32(1)), "update", e("$inc", e("n", int32(1))), "fields", e("k", e("$meta", "sortKey")), "$db", "shop"),
		cmd("reIndex", "books", "$db", "shop"),
		cmd("create", "tmp", "storageEngine", e("inMemory", e("configString", "cache_size=1M")), "$db", "shop"),
		// Server parameters, fsync, idle cursors, and the collMod and
		// renameCollection paths that change an index's uniqueness or
		// check the names a rename may touch.
		cmd("setParameter", int32(1), "internalQueryFrameworkControl", "forceClassicEngine", "logLevel", int32(0), "$db", "admin"),
		cmd("getParameter", int32(1), "internalQueryFindCommandBatchSize", int32(1), "internalPipelineLengthLimit", int32(1), "$db", "admin"),
		cmd("fsync", int32(1), "lock", true, "$db", "admin"),
		cmd("fsyncUnlock", int32(1), "$db", "admin"),
		cmd("aggregate", int32(1), "pipeline", bson.A{e("$currentOp", e("idleCursors", true)), e("$match", e("type", "idleCursor"))}, "cursor", bson.D{}, "$db", "admin"),
		cmd("collMod", "books", "index", bson.D{{Key: "keyPattern", Value: e("a", int32(1))}, {Key: "prepareUnique", Value: true}}, "$db", "shop"),
		cmd("collMod", "books", "index", bson.D{{Key: "name", Value: "a_1"}, {Key: "unique", Value: true}}, "dryRun", true, "$db", "shop"),
		cmd("collMod", "books", "index", bson.D{{Key: "name", Value: "a_1"}, {Key: "forceNonUnique", Value: true}}, "$db", "shop"),
		cmd("renameCollection", "shop.books", "to", "shop.system.buckets.books", "$db", "admin"),
		cmd("renameCollection", "shop.system.views", "to", "shop.views", "dropTarget", true, "$db", "admin"),
		cmd("dbStats", int32(1), "scale", 0.5, "$db", "shop"),
		cmd("create", "ts", "timeseries", bson.D{{Key: "timeField", Value: "t"}, {Key: "metaField", Value: "m"}}, "$db", "shop"),
		cmd("dropIndexes", "ts", "index", bson.D{{Key: "m", Value: int32(1)}, {Key: "t", Value: int32(-1)}}, "$db", "shop"),
		cmd("find", "ts", "hint", e("m", int32(1)), "$db", "shop"),
		cmd("collMod", "system.buckets.ts", "validator", e("a", int32(1)), "$db", "shop"),
		cmd("distinct", "books", "key", "a\x00b", "$db", "shop"),
		// filemd5 plans without a collection scan and reads md5state.
		cmd("filemd5", int32(1), "root", "books", "partialOk", true, "startAt", int32(2), "md5state", bson.Binary{Data: make([]byte, 88)}, "$db", "shop"),
		// A $group the time-series buckets answer, and the unpacking's
		// include list a user may give.
		cmd("aggregate", "ts", "pipeline", bson.A{e("$group", bson.D{{Key: "_id", Value: e("$dateTrunc", bson.D{{Key: "date", Value: "$t"}, {Key: "unit", Value: "hour"}, {Key: "timezone", Value: "+0500"}})}, {Key: "n", Value: e("$count", bson.D{})}, {Key: "hi", Value: e("$max", "$m.x")}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("aggregate", "system.buckets.ts", "pipeline", bson.A{e("$_internalUnpackBucket", bson.D{{Key: "include", Value: bson.A{"a", "m"}}, {Key: "timeField", Value: "t"}, {Key: "metaField", Value: "m"}, {Key: "bucketMaxSpanSeconds", Value: int32(3600)}}), e("$limit", int32(3))}, "cursor", bson.D{}, "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$setWindowFields", bson.D{{Key: "partitionBy", Value: e("$mod", bson.A{"$a", int32(2)})}, {Key: "sortBy", Value: e("b", int32(1))}, {Key: "output", Value: e("r", e("$rank", bson.D{}))}}), e("$sort", e("a", int32(1))), e("$sort", e("b", int32(-1)))}, "cursor", bson.D{}, "$db", "shop"),
		// Bucket predicates on measurements and the time, a streaming
		// group, a user's whole-bucket filter and computed meta fields, a
		// partial time-series index, $_internalDensify, logRotate and
		// listCommands.
		cmd("find", "ts", "filter", bson.D{{Key: "a", Value: e("$in", bson.A{int32(1), "x"})}, {Key: "t", Value: e("$lt", bson.DateTime(-5))}, {Key: "$or", Value: bson.A{e("m", int32(1)), e("b", e("$exists", true))}}}, "$db", "shop"),
		cmd("aggregate", "ts", "pipeline", bson.A{e("$sort", e("t", int32(-1))), e("$group", bson.D{{Key: "_id", Value: e("$subtract", bson.A{e("$dateTrunc", bson.D{{Key: "date", Value: "$t"}, {Key: "unit", Value: "day"}}), "$$NOW"})}, {Key: "n", Value: e("$sum", int32(1))}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$_internalStreamingGroup", bson.D{{Key: "_id", Value: e("k", "$a")}, {Key: "$monotonicIdFields", Value: bson.A{"k"}}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("aggregate", "system.buckets.ts", "pipeline", bson.A{e("$_internalUnpackBucket", bson.D{{Key: "timeField", Value: "t"}, {Key: "bucketMaxSpanSeconds", Value: int32(1)}, {Key: "wholeBucketFilter", Value: bson.D{}}, {Key: "computedMetaProjFields", Value: bson.A{"meta"}}, {Key: "eventFilter", Value: e("a", int32(1))}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("createIndexes", "ts", "indexes", bson.A{bson.D{{Key: "key", Value: e("a", int32(-1))}, {Key: "name", Value: "p"}, {Key: "partialFilterExpression", Value: bson.D{{Key: "m", Value: int32(1)}, {Key: "t", Value: e("$gte", bson.DateTime(0))}, {Key: "b", Value: e("$in", bson.A{int32(1), int32(2)})}}}}}, "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$_internalDensify", bson.D{{Key: "field", Value: "a"}, {Key: "range", Value: bson.D{{Key: "step", Value: int32(1)}, {Key: "bounds", Value: "full"}}}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("hello", int32(1), "internalClient", bson.D{{Key: "minWireVersion", Value: int32(0)}}, "$db", "admin"),
		cmd("logRotate", "server", "$db", "admin"),
		cmd("listCommands", int32(1), "$db", "shop"),
		// Sweep 43's paths: count's limit parsing, the replica read
		// fields, $out into a time-series collection, $documents'
		// projection parse, time-series create and collMod refusals, a TTL
		// conversion on a capped collection, a sorted time-series
		// findAndModify, feature-flag parameters, the subplanner's race
		// of $or branches, constant folding of $concat, and the explain
		// forms of $cond, $switch, $let, $map and $group's accumulators.
		cmd("count", "books", "limit", 1.5, "skip", int64(-1), "$db", "shop"),
		cmd("find", "books", "mirrored", true, "sampleId", bson.Binary{Subtype: 4, Data: make([]byte, 16)}, "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$out", bson.D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "ts"}, {Key: "timeseries", Value: bson.D{{Key: "timeField", Value: "t"}, {Key: "granularity", Value: "hours"}}}})}, "cursor", bson.D{}, "$db", "shop"),
		cmd("aggregate", int32(1), "pipeline", bson.A{e("$documents", bson.D{}), e("$limit", int32(1))}, "cursor", bson.D{}, "$db", "shop"),
		cmd("create", "ts2", "timeseries", bson.D{{Key: "timeField", Value: "t"}, {Key: "granularity", Value: "seconds"}, {Key: "bucketRoundingSeconds", Value: int32(60)}}, "$db", "shop"),
		cmd("collMod", "system.buckets.ts", "expireAfterSeconds", int32(5), "collectionUUID", bson.Binary{Subtype: 4, Data: make([]byte, 16)}, "$db", "shop"),
		cmd("create", "cap", "capped", true, "size", int32(4096), "$db", "shop"),
		cmd("collMod", "cap", "index", bson.D{{Key: "keyPattern", Value: e("t", int32(1))}, {Key: "expireAfterSeconds", Value: int32(10)}}, "$db", "shop"),
		cmd("findAndModify", "ts", "query", e("m", int32(1)), "sort", e("t", int32(1)), "remove", true, "$db", "shop"),
		cmd("getParameter", int32(1), "featureFlagBulkWriteCommand", int32(1), "$db", "admin"),
		cmd("find", "books", "filter", e("$or", bson.A{bson.D{{Key: "a", Value: e("$lte", int32(3))}, {Key: "b", Value: e("$gte", int32(0))}}, e("b", e("$lte", int32(3)))}), "sort", e("a", int32(1)), "$db", "shop"),
		cmd("aggregate", "books", "pipeline", bson.A{e("$project", e("c", e("$concat", bson.A{"x", "y", "$s", "z", "w"})))}, "cursor", bson.D{}, "$db", "shop"),
		cmd("explain", e("aggregate", "books"), "$db", "shop"),
		cmd("explain", bson.D{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{e("$project", bson.D{
			{Key: "c", Value: e("$cond", bson.A{true, "$a", "$b"})},
			{Key: "s", Value: e("$switch", e("branches", bson.A{bson.D{{Key: "case", Value: "$a"}, {Key: "then", Value: int32(1)}}}))},
			{Key: "l", Value: e("$let", bson.D{{Key: "vars", Value: e("v", "$a")}, {Key: "in", Value: e("$map", bson.D{{Key: "input", Value: "$b"}, {Key: "in", Value: "$$v"}})}})},
		}), e("$group", bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: e("$count", bson.D{})}, {Key: "f", Value: e("$firstN", bson.D{{Key: "input", Value: "$a"}, {Key: "n", Value: int32(2)}})}})}}, {Key: "cursor", Value: bson.D{}}}, "verbosity", "queryPlanner", "$db", "shop"),
	}
}
