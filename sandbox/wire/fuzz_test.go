package wire

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func seedCommands(t testing.TB) [][]byte {
	docs := []bson.D{
		{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "hello", Value: int32(1)}, {Key: "helloOk", Value: true}, {Key: "client", Value: bson.D{{Key: "application", Value: bson.D{{Key: "name", Value: "fuzz"}}}}}, {Key: "$db", Value: "admin"}},
		{{Key: "buildInfo", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "getParameter", Value: "*"}, {Key: "$db", Value: "admin"}},
		{{Key: "getLog", Value: "startupWarnings"}, {Key: "$db", Value: "admin"}},
		{{Key: "insert", Value: "books"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(1)}, {Key: "tags", Value: bson.A{"a", "b"}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{"a"}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "$jsonSchema", Value: bson.D{{Key: "required", Value: bson.A{"tags"}}, {Key: "properties", Value: bson.D{
			{Key: "tags", Value: bson.D{{Key: "bsonType", Value: "array"}, {Key: "items", Value: bson.D{{Key: "enum", Value: bson.A{"a", "b"}}}}, {Key: "uniqueItems", Value: true}}}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$push", Value: bson.D{{Key: "tags", Value: "c"}}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		// A view over books, read through its pipeline, and one that would cycle.
		{{Key: "create", Value: "tagged"}, {Key: "viewOn", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$unwind", Value: "$tags"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "tagged"}, {Key: "filter", Value: bson.D{{Key: "tags", Value: "a"}}}, {Key: "sort", Value: bson.D{{Key: "_id", Value: int32(-1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "collMod", Value: "tagged"}, {Key: "viewOn", Value: "tagged"}, {Key: "pipeline", Value: bson.A{}}, {Key: "$db", Value: "shop"}},
		// A $match split and moved before $addFields and $group, a $group
		// over a DISTINCT_SCAN, $meta sort keys, and replacement updates
		// that keep or fill an empty timestamp.
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "tags", Value: int32(1)}}}, {Key: "name", Value: "tags_1"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$addFields", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$sqrt", Value: "$_id"}}}, {Key: "t", Value: "$tags"}}}},
			bson.D{{Key: "$match", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: int32(0)}}}, {Key: "t", Value: "a"}, {Key: "n", Value: bson.D{{Key: "$gt", Value: int32(0)}}}}}}}},
			{Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$sort", Value: bson.D{{Key: "tags", Value: int32(1)}}}},
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tags"}, {Key: "first", Value: bson.D{{Key: "$first", Value: "$_id"}}}}}},
			bson.D{{Key: "$match", Value: bson.D{{Key: "_id", Value: "a"}, {Key: "$expr", Value: true}}}}}},
			{Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		// $natural sorts and hints, validated as a query is canonicalised;
		// a cursor option's strict fields; hiding a time-series index.
		{{Key: "find", Value: "books"}, {Key: "sort", Value: bson.D{{Key: "$natural", Value: -1.0}}}, {Key: "hint", Value: bson.D{{Key: "$natural", Value: int64(-1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "delete", Value: "books"}, {Key: "deletes", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "limit", Value: int32(1)}, {Key: "hint", Value: bson.D{{Key: "$natural", Value: "1"}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "listIndexes", Value: "books"}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: int32(1)}, {Key: "foo", Value: int32(1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "create", Value: "ticks"}, {Key: "timeseries", Value: bson.D{{Key: "timeField", Value: "t"}, {Key: "metaField", Value: "m"}}}, {Key: "$db", Value: "shop"}},
		{{Key: "collMod", Value: "ticks"}, {Key: "index", Value: bson.D{{Key: "keyPattern", Value: bson.D{{Key: "m", Value: int32(1)}, {Key: "t", Value: int32(1)}}}, {Key: "hidden", Value: true}}}, {Key: "$db", Value: "shop"}},
		{{Key: "distinct", Value: "books"}, {Key: "key", Value: "tags"}, {Key: "query", Value: bson.D{{Key: "tags", Value: bson.D{{Key: "$type", Value: "string"}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$meta", Value: "randVal"}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$sort", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$meta", Value: 1.5}}}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "u", Value: bson.D{{Key: "ts", Value: bson.Timestamp{}}}}}}}, {Key: "bypassEmptyTsReplacement", Value: true}, {Key: "$db", Value: "shop"}},
		// The internal $mergeCursors (parsed, then refused), a whenMatched
		// pipeline whose empty let still has $$new, and an aggregate that
		// leaves a cursor open at batchSize 0.
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$mergeCursors", Value: bson.D{{Key: "remotes", Value: bson.A{}}, {Key: "nss", Value: "shop.books"}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$merge", Value: bson.D{{Key: "into", Value: "merged"}, {Key: "let", Value: bson.D{}},
			{Key: "whenMatched", Value: bson.A{bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: "$$new._id"}}}}}}, {Key: "whenNotMatched", Value: "insert"}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{}}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: int32(0)}}}, {Key: "$db", Value: "shop"}},
		// features, and find's min/max checked against a hinted index.
		{{Key: "features", Value: int32(1)}, {Key: "oidReset", Value: false}, {Key: "$db", Value: "admin"}},
		{{Key: "find", Value: "books"}, {Key: "min", Value: bson.D{{Key: "tags", Value: "a"}}}, {Key: "max", Value: bson.D{{Key: "tags", Value: "z"}}}, {Key: "hint", Value: bson.D{{Key: "tags", Value: int32(1)}}}, {Key: "$db", Value: "shop"}},
		// Wildcard indexes: whole-document with a projection, a subtree,
		// forms mongod refuses, and queries through the per-path views.
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "$**", Value: int32(1)}}}, {Key: "name", Value: "$**_1"},
			{Key: "wildcardProjection", Value: bson.D{{Key: "tags", Value: int32(0)}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "meta.$**", Value: int32(-1)}}}, {Key: "name", Value: "meta"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: int32(1)}, {Key: "b.$**", Value: int32(1)}}}, {Key: "name", Value: "cw"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "$**", Value: int32(1)}}}, {Key: "name", Value: "w2"},
			{Key: "wildcardProjection", Value: bson.D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(0)}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "tags.0", Value: "a"}, {Key: "meta.x", Value: bson.D{{Key: "$ne", Value: nil}}}}}, {Key: "hint", Value: bson.D{{Key: "$**", Value: int32(1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "$or", Value: bson.A{bson.D{{Key: "meta.x", Value: bson.D{{Key: "$exists", Value: true}}}}, bson.D{{Key: "meta.y", Value: bson.A{}}}}}}}, {Key: "$db", Value: "shop"}},
		// Hashed indexes: a compound one, a query through its hash points,
		// and specs mongod refuses (two hashed fields, unique).
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "title", Value: "hashed"}, {Key: "year", Value: int32(-1)}}}, {Key: "name", Value: "th"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "title", Value: bson.D{{Key: "$in", Value: bson.A{"a", nil, 1.5}}}}, {Key: "year", Value: bson.D{{Key: "$gt", Value: int32(1)}}}}}, {Key: "sort", Value: bson.D{{Key: "year", Value: int32(1)}}}, {Key: "hint", Value: "th"}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: "hashed"}, {Key: "b", Value: "hashed"}}}, {Key: "name", Value: "hh"}, {Key: "unique", Value: true}}}}, {Key: "$db", Value: "shop"}},
		// Top and latency statistics; time-series index specs translated to
		// the buckets' (a partial filter on the metaField, refusals), and a
		// hint to a sparse index under apiStrict.
		{{Key: "top", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "aggregate", Value: "tagged"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$collStats", Value: bson.D{{Key: "latencyStats", Value: bson.D{{Key: "histograms", Value: true}}}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "ticks"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "x", Value: int32(1)}, {Key: "y", Value: "hashed"}}}, {Key: "name", Value: "xy"},
			{Key: "partialFilterExpression", Value: bson.D{{Key: "$or", Value: bson.A{bson.D{{Key: "m.a", Value: int32(1)}}, bson.D{{Key: "x", Value: int32(2)}}}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "ticks"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "t", Value: int32(1)}}}, {Key: "name", Value: "ttl"}, {Key: "expireAfterSeconds", Value: int32(5)},
			{Key: "partialFilterExpression", Value: bson.D{{Key: "m", Value: bson.D{{Key: "$exists", Value: true}}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "tags", Value: "a"}}}, {Key: "hint", Value: "tags_1"}, {Key: "apiVersion", Value: "1"}, {Key: "apiStrict", Value: true}, {Key: "$db", Value: "shop"}},
		// Compound wildcard indexes: a regular prefix around a subtree, an
		// all-fields index with a projection, a document with no wildcard
		// leaf, a query on the prefix alone, and an array in a regular field.
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "year", Value: int32(1)}, {Key: "meta.$**", Value: int32(-1)}, {Key: "title", Value: int32(1)}}}, {Key: "name", Value: "cwi"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "$**", Value: int32(1)}, {Key: "year", Value: int32(1)}}}, {Key: "name", Value: "cwi2"}, {Key: "wildcardProjection", Value: bson.D{{Key: "_id", Value: int32(1)}, {Key: "year", Value: int32(0)}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "insert", Value: "books"}, {Key: "documents", Value: bson.A{bson.D{{Key: "year", Value: int32(1999)}}, bson.D{{Key: "year", Value: bson.A{int32(1), int32(2)}}, {Key: "meta", Value: bson.D{{Key: "x", Value: bson.A{}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "year", Value: bson.D{{Key: "$gt", Value: int32(1)}}}}}, {Key: "sort", Value: bson.D{{Key: "year", Value: int32(-1)}, {Key: "title", Value: int32(1)}}}, {Key: "hint", Value: "cwi"}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "meta.x", Value: bson.D{{Key: "$type", Value: "regex"}}}}}, {Key: "hint", Value: "cwi"}, {Key: "$db", Value: "shop"}},
		// A merged $or, a client's bucket unpacking over an ordinary
		// collection, and the diagnostic sample.
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "$or", Value: bson.A{bson.D{{Key: "year", Value: int32(1)}, {Key: "title", Value: "a"}}, bson.D{{Key: "year", Value: int32(2)}}}}}}, {Key: "sort", Value: bson.D{{Key: "meta.x", Value: int32(-1)}}}, {Key: "projection", Value: bson.D{{Key: "_id", Value: int32(0)}, {Key: "year", Value: int32(1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$_unpackBucket", Value: bson.D{{Key: "timeField", Value: "year"}, {Key: "metaField", Value: "title"}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "getDiagnosticData", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		// Unstable fields under apiStrict, in statements and an
		// explained command; an empty collation; a listIndexes cursor
		// read after its collection is dropped.
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: int32(1)}}}}}, {Key: "sort", Value: bson.D{{Key: "a", Value: int32(1)}}}}}}, {Key: "apiVersion", Value: "1"}, {Key: "apiStrict", Value: true}, {Key: "$db", Value: "shop"}},
		{{Key: "explain", Value: bson.D{{Key: "find", Value: "books"}, {Key: "min", Value: bson.D{{Key: "year", Value: int32(1)}}}}}, {Key: "apiVersion", Value: "1"}, {Key: "apiStrict", Value: true}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "collation", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "insert", Value: "loans"}, {Key: "documents", Value: bson.A{bson.D{{Key: "a", Value: int32(1)}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "listIndexes", Value: "loans"}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: int32(0)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "drop", Value: "loans"}, {Key: "$db", Value: "shop"}},
		// Stages outside API Version 1 under apiStrict, also in a view
		// definition; a random-cursor $sample over a collection of more
		// than 100 documents; a $lookup let of a missing field; an
		// $in with a sort that explodes into merged scans; keys through
		// one array pairing by element; a validator in admin.
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$facet", Value: bson.D{{Key: "f", Value: bson.A{bson.D{{Key: "$indexStats", Value: bson.D{}}}}}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "apiVersion", Value: "1"}, {Key: "apiStrict", Value: true}, {Key: "$db", Value: "shop"}},
		{{Key: "create", Value: "strictview"}, {Key: "viewOn", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$collStats", Value: bson.D{{Key: "latencyStats", Value: bson.D{}}}}}}}, {Key: "apiVersion", Value: "1"}, {Key: "apiStrict", Value: true}, {Key: "$db", Value: "shop"}},
		{{Key: "insert", Value: "many"}, {Key: "documents", Value: manyDocs(150)}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "many"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: int32(3)}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "explain", Value: bson.D{{Key: "aggregate", Value: "many"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: int32(7)}}}}}}, {Key: "cursor", Value: bson.D{}}}}, {Key: "verbosity", Value: "allPlansExecution"}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "books"}, {Key: "let", Value: bson.D{{Key: "m", Value: "$missing"}}}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "$expr", Value: bson.D{{Key: "$eq", Value: bson.A{"$$m", "$nothere"}}}}}}}}}, {Key: "as", Value: "j"}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "many"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "g", Value: int32(1)}, {Key: "i", Value: int32(-1)}}}, {Key: "name", Value: "g_i"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "many"}, {Key: "filter", Value: bson.D{{Key: "g", Value: bson.D{{Key: "$in", Value: bson.A{int32(1), int32(2), int32(3)}}}}}}, {Key: "sort", Value: bson.D{{Key: "i", Value: int32(1)}}}, {Key: "limit", Value: int32(5)}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "a.b", Value: int32(1)}, {Key: "a.c", Value: int32(1)}}}, {Key: "name", Value: "ab_ac"}, {Key: "sparse", Value: true}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "insert", Value: "books"}, {Key: "documents", Value: bson.A{bson.D{{Key: "a", Value: bson.A{int32(1), bson.D{{Key: "b", Value: int32(1)}}, bson.D{{Key: "c", Value: int32(2)}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "create", Value: "v"}, {Key: "validator", Value: bson.D{{Key: "a", Value: int32(1)}}}, {Key: "$db", Value: "admin"}},
		// An unclosed regex using a construct the sandbox refuses; the
		// explain of a findAndModify upsert by _id with fields, and of one
		// whose fields is no document; a replacement upsert on a field
		// inside _id; {$exists: false} on a hashed field.
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "t", Value: bson.D{{Key: "$regex", Value: "(?=a)[[:alpha:])](?#(c"}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "explain", Value: bson.D{{Key: "findAndModify", Value: "books"}, {Key: "query", Value: bson.D{{Key: "_id", Value: int32(99)}}}, {Key: "update", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "x", Value: int32(1)}}}}}, {Key: "upsert", Value: true}, {Key: "new", Value: true}, {Key: "fields", Value: bson.D{{Key: "x", Value: int32(1)}}}}}, {Key: "verbosity", Value: "executionStats"}, {Key: "$db", Value: "shop"}},
		{{Key: "explain", Value: bson.D{{Key: "findAndModify", Value: "books"}, {Key: "query", Value: bson.D{}}, {Key: "remove", Value: true}, {Key: "fields", Value: "x"}}}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id.x", Value: int32(1)}, {Key: "_id.y", Value: int32(2)}}}, {Key: "u", Value: bson.D{{Key: "a", Value: int32(1)}}}, {Key: "upsert", Value: true}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "createIndexes", Value: "many"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "h", Value: "hashed"}, {Key: "g", Value: int32(1)}}}, {Key: "name", Value: "h_g"}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "many"}, {Key: "filter", Value: bson.D{{Key: "h", Value: bson.D{{Key: "$exists", Value: false}}}, {Key: "g", Value: int32(3)}}}, {Key: "$db", Value: "shop"}},
		// A clustered collection: its create, a bounded scan, min/max on
		// the cluster key, a hint of it, a backward sort; query settings
		// and the commands a standalone refuses.
		{{Key: "create", Value: "clu"}, {Key: "clusteredIndex", Value: bson.D{{Key: "key", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "unique", Value: true}}}, {Key: "expireAfterSeconds", Value: int32(60)}, {Key: "$db", Value: "shop"}},
		{{Key: "insert", Value: "clu"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(3)}}, bson.D{{Key: "_id", Value: "a"}}, bson.D{{Key: "_id", Value: bson.D{{Key: "x", Value: int32(1)}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "clu"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: int32(1)}, {Key: "$in", Value: bson.A{int32(2), "b"}}}}}}, {Key: "sort", Value: bson.D{{Key: "_id", Value: int32(-1)}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "clu"}, {Key: "hint", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "min", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "max", Value: bson.D{{Key: "_id", Value: bson.MaxKey{}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "setQuerySettings", Value: bson.D{{Key: "find", Value: "clu"}, {Key: "filter", Value: bson.D{}}, {Key: "$db", Value: "shop"}}}, {Key: "settings", Value: bson.D{{Key: "reject", Value: true}}}, {Key: "$db", Value: "admin"}},
		{{Key: "aggregate", Value: int32(1)}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$querySettings", Value: bson.D{{Key: "showDebugQueryShape", Value: true}}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "admin"}},
		{{Key: "replSetGetStatus", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "setIndexCommitQuorum", Value: "clu"}, {Key: "indexNames", Value: bson.A{"x"}}, {Key: "commitQuorum", Value: int32(1)}, {Key: "$db", Value: "shop"}},
		// maxTimeMS values mongod refuses, and cursors that are gone.
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: "1"}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: int32(-1)}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: int64(2147483648)}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: 1.5}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: nil}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{}}, {Key: "cursor", Value: bson.D{}}, {Key: "maxTimeMS", Value: bson.A{int32(1)}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "books"}, {Key: "localField", Value: "tags"}, {Key: "foreignField", Value: "tags"}, {Key: "as", Value: "t"}}}}}}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: int32(0)}}}, {Key: "maxTimeMS", Value: int32(1)}, {Key: "$db", Value: "shop"}},
		{{Key: "count", Value: "books"}, {Key: "maxTimeMS", Value: int32(-1)}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}}}}, {Key: "maxTimeMS", Value: 0.25}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "batchSize", Value: int32(1)}, {Key: "maxTimeMS", Value: int32(100)}, {Key: "$db", Value: "shop"}},
		{{Key: "getMore", Value: int64(112233)}, {Key: "collection", Value: "books"}, {Key: "maxTimeMS", Value: int32(10)}, {Key: "$db", Value: "shop"}},
		{{Key: "getMore", Value: int64(112233)}, {Key: "collection", Value: "books"}, {Key: "maxTimeMS", Value: "x"}, {Key: "$db", Value: "shop"}},
		{{Key: "killCursors", Value: "books"}, {Key: "cursors", Value: bson.A{int64(112233), "x"}}, {Key: "$db", Value: "shop"}},
		// Authentication, well and badly formed.
		saslStart("n,,n=alice,r=fyko+d2lbbFgONRv9qkxdawL", true),
		saslStart("n,,n=alice,r=", false),
		{{Key: "saslStart", Value: 1}, {Key: "mechanism", Value: "PLAIN"}, {Key: "payload", Value: "AGFsaWNlAHMzY3JldA=="}, {Key: "$db", Value: "admin"}},
		{{Key: "saslStart", Value: 1}, {Key: "mechanism", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		saslContinue(1, "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="),
		saslContinue(2, ""),
		{{Key: "saslContinue", Value: 1}, {Key: "conversationId", Value: "1"}, {Key: "payload", Value: bson.A{}}, {Key: "$db", Value: "admin"}},
		{{Key: "hello", Value: 1}, {Key: "saslSupportedMechs", Value: "admin.alice"}, {Key: "speculativeAuthenticate", Value: bson.D{
			{Key: "saslStart", Value: 1}, {Key: "mechanism", Value: "SCRAM-SHA-256"},
			{Key: "payload", Value: bson.Binary{Data: []byte("n,,n=alice,r=rOprNGfwEbeRWgbNEkqO")}},
			{Key: "options", Value: bson.D{{Key: "skipEmptyExchange", Value: true}}}, {Key: "db", Value: "admin"}}}, {Key: "$db", Value: "admin"}},
		{{Key: "hello", Value: 1}, {Key: "saslSupportedMechs", Value: "nodot"}, {Key: "$db", Value: "admin"}},
		{{Key: "connectionStatus", Value: 1}, {Key: "showPrivileges", Value: true}, {Key: "$db", Value: "admin"}},
		{{Key: "listDatabases", Value: 1}, {Key: "authorizedDatabases", Value: false}, {Key: "$db", Value: "admin"}},
	}
	var out [][]byte
	for _, d := range docs {
		out = append(out, mustEncode(t, d))
	}
	return out
}

// manyDocs is n documents in groups of ten: enough for a $sample to read
// a random cursor.
func manyDocs(n int) bson.A {
	docs := make(bson.A, n)
	for i := range docs {
		docs[i] = bson.D{{Key: "g", Value: int32(i / 10)}, {Key: "i", Value: int32(i)}}
	}
	return docs
}

// FuzzDecodeMessage feeds arbitrary bytes to the message decoder: it must
// never panic, and whatever it accepts must be a command the codec can
// write back.
func FuzzDecodeMessage(f *testing.F) {
	cmds := seedCommands(f)
	f.Add(new(opMsgBuilder).body(cmds[0]).bytes())
	f.Add((&opMsgBuilder{checksum: true}).body(cmds[1]).bytes())
	f.Add(new(opMsgBuilder).body(mustEncode(f, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "d"}})).sequence("documents", cmds[2], cmds[3]).bytes())
	f.Add(opQueryBytes(1, "admin.$cmd", mustEncode(f, bson.D{{Key: "isMaster", Value: int32(1)}})))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	// Authentication, and an exhaust hello.
	for _, c := range cmds[len(cmds)-11:] {
		f.Add((&opMsgBuilder{flags: flagExhaustAllowed}).body(c).bytes())
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		req, err := decodeMessage(msg)
		if err != nil {
			if !isClose(err) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if req == nil {
			t.Fatal("nil request without error")
		}
		if req.cmd != nil {
			if _, err := value.Encode(req.cmd); err != nil {
				t.Fatalf("decoded command does not re-encode: %v", err)
			}
		}
		if req.replyErr != nil {
			encodeReplyDoc(req.replyErr)
		}
		// The guard reads every message the server runs, and the same
		// command, but for an insert's documents, which it validates
		// without building.
		guard, gerr := decodeMessageWith(msg, decodeOptions{skipInsertDocuments: true})
		if gerr != nil {
			t.Fatalf("the server reads what the guard closes the connection on: %v", gerr)
		}
		if req.replyErr != nil || req.cmd == nil {
			return
		}
		if guard.replyErr != nil {
			t.Fatalf("the guard refuses what the server runs: %v", guard.replyErr)
		}
		want := req.cmd
		if len(want) > 0 && want[0].Key == "insert" {
			want = slices.Clone(want)
			for i, e := range want {
				if _, ok := e.Value.(bson.A); ok && e.Key == "documents" {
					want[i].Value = bson.A{}
				}
			}
		}
		a, _ := value.Encode(want)
		b, _ := value.Encode(guard.cmd)
		if !bytes.Equal(a, b) {
			t.Fatalf("the guard reads %v where the server reads %v", guard.cmd, want)
		}
	})
}

// FuzzDispatch decodes arbitrary bytes as a command document, the way the
// wire layer does, and dispatches it through a real engine. No input may
// panic: the engine recovers one as InternalError ("internal error in
// command '...'"), and any InternalError fails the run. Every reply must be
// encodable.
func FuzzDispatch(f *testing.F) {
	for _, c := range seedCommands(f) {
		f.Add(c)
	}
	for _, c := range badInputSeeds(f) {
		f.Add(c)
	}
	for _, c := range stageSeeds(f) {
		f.Add(c)
	}
	for _, c := range diagSeeds(f) {
		f.Add(c)
	}
	srv := startTestServer(f, Options{Engine: engine.New(engine.Options{})})
	f.Fuzz(func(t *testing.T, raw []byte) {
		cmd, _, err := readDocument(raw)
		if err != nil || len(cmd) == 0 {
			return // the wire layer answers these before dispatch
		}
		reply := srv.dispatch(testConn(srv), cmd)
		if problem := dispatchProblem(reply); problem != "" {
			t.Fatalf("command %v: %s", cmd, problem)
		}
	})
}

// FuzzLogin plays arbitrary sequences of commands, authentication among
// them, on one connection of a server that requires authentication, as a
// client that does not know the password would. No sequence may log in,
// or get past the server to a student's data; none may panic.
func FuzzLogin(f *testing.F) {
	seeds := seedCommands(f)
	// A real conversation's messages, made against another server: the
	// fuzzer replays and splices them.
	other := startAuthServer(f, Options{})
	addUser(f, other, "alice", "s3cret", Account{Prefix: "alice_"})
	conn := testConn(other)
	conv := newSCRAMClient(f, "alice", "s3cret")
	start := saslStart(conv.step(f, ""), true)
	first := other.dispatch(conn, start)
	final := saslContinue(1, conv.step(f, payloadOf(f, first)))
	seeds = append(seeds,
		slices.Concat(mustEncode(f, start), mustEncode(f, final)),
		slices.Concat(mustEncode(f, start), mustEncode(f, final), mustEncode(f, bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "alice_db"}})),
		slices.Concat(mustEncode(f, final), mustEncode(f, start), mustEncode(f, final), mustEncode(f, saslContinue(1, ""))),
	)
	for _, s := range seeds {
		f.Add(s)
	}
	srv := startAuthServer(f, Options{})
	addUser(f, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	find := bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "alice_db"}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c := testConn(srv)
		defer srv.eng.ConnectionClosed(c.conn)
		for len(raw) > 0 {
			cmd, rest, err := readDocument(raw)
			if err != nil || len(cmd) == 0 {
				break
			}
			raw = rest
			if problem := dispatchProblem(srv.dispatch(c, cmd)); problem != "" {
				t.Fatalf("command %v: %s", cmd, problem)
			}
		}
		if c.user != nil {
			t.Fatalf("logged in as %s without the password", c.user.name)
		}
		if reply := srv.dispatch(c, find); get(reply, "code") != int32(mongoerr.Unauthorized) {
			t.Fatalf("find after the sequence: %v", reply)
		}
	})
}

// dispatchProblem is what FuzzDispatch reports as a bug in a reply.
func dispatchProblem(reply bson.D) string {
	if get(reply, "code") == int32(mongoerr.InternalError) {
		return fmt.Sprintf("InternalError (a recovered panic): %v", get(reply, "errmsg"))
	}
	switch get(reply, "ok").(type) {
	case float64, int32:
	default:
		return fmt.Sprintf("reply without ok: %v", reply)
	}
	if _, err := value.Encode(reply); err != nil {
		return fmt.Sprintf("reply %v does not encode: %v", reply, err)
	}
	return ""
}

// Every command, the handshake's as well as the data commands, is
// recovered in one place, and FuzzDispatch sees what it answers.
func TestDispatchProblemSeesEveryRecoveredPanic(t *testing.T) {
	eng := engine.New(engine.Options{BeforeCommand: func(name string) {
		if name == "find" || name == "hello" {
			panic(name + " handler blew up")
		}
	}})
	srv := startTestServer(t, Options{Engine: eng})
	conn := testConn(srv)
	for _, cmd := range []bson.D{
		{{Key: "find", Value: "c"}, {Key: "$db", Value: "test"}},
		{{Key: "hello", Value: int32(1)}, {Key: "$db", Value: "admin"}},
	} {
		reply := srv.dispatch(conn, cmd)
		if dispatchProblem(reply) == "" {
			t.Fatalf("%v: panic not reported; reply %v", cmd, reply)
		}
	}
	if p := dispatchProblem(srv.dispatch(conn, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})); p != "" {
		t.Fatalf("ping: %s", p)
	}
}

// badInputSeeds are the malformed and oversized inputs of issue 10, as
// command documents: malformed BSON the wire layer refuses, and commands
// that must stop at one of mongod's limits instead of growing without
// bound.
func badInputSeeds(t testing.TB) [][]byte {
	corrupt := func(d bson.D, at func(b []byte) int, to byte) []byte {
		b := mustEncode(t, d)
		b[at(b)] = to
		return b
	}
	lastValueByte := func(b []byte) int { return len(b) - 2 }
	seeds := [][]byte{
		corrupt(bson.D{{Key: "find", Value: "c"}, {Key: "s", Value: "abc"}}, lastValueByte, 'x'),                                                          // string without NUL
		corrupt(bson.D{{Key: "find", Value: "c"}, {Key: "b", Value: true}}, lastValueByte, 2),                                                             // bool 2
		corrupt(bson.D{{Key: "find", Value: "c"}, {Key: "s", Value: "ab"}}, lastValueByte, 0xff),                                                          // invalid UTF-8 (accepted)
		corrupt(bson.D{{Key: "find", Value: "c"}, {Key: "n", Value: nil}}, func(b []byte) int { return len(b) - 4 }, 0x42),                                // unknown type
		corrupt(bson.D{{Key: "find", Value: "c"}, {Key: "f", Value: bson.D{{Key: "x", Value: int32(1)}}}}, func(b []byte) int { return len(b) - 13 }, 30), // nested length
	}
	var deep any = int32(1)
	for range 201 {
		deep = bson.D{{Key: "a", Value: deep}}
	}
	seeds = append(seeds, mustEncode(t, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: deep}}))

	// Expressions that would grow without bound, over one document.
	over := func(e any) []byte {
		return mustEncode(t, bson.D{{Key: "aggregate", Value: int32(1)}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$documents", Value: bson.A{bson.D{{Key: "s", Value: "ab"}}}}},
			bson.D{{Key: "$project", Value: bson.D{{Key: "r", Value: e}}}},
		}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}})
	}
	doubling := func(initial, step any) any {
		return bson.D{{Key: "$reduce", Value: bson.D{{Key: "input", Value: bson.D{{Key: "$range", Value: bson.A{0, 40}}}},
			{Key: "initialValue", Value: initial}, {Key: "in", Value: step}}}}
	}
	seeds = append(seeds,
		over(bson.D{{Key: "$strLenBytes", Value: doubling("$s", bson.D{{Key: "$concat", Value: bson.A{"$$value", "$$value"}}})}}),
		over(bson.D{{Key: "$size", Value: doubling(bson.A{"$s"}, bson.D{{Key: "$concatArrays", Value: bson.A{"$$value", "$$value"}}})}}),
		over(bson.D{{Key: "$type", Value: doubling(bson.D{}, bson.D{{Key: "a", Value: "$$value"}, {Key: "b", Value: "$$value"}})}}),
		over(bson.D{{Key: "$type", Value: doubling(bson.D{}, bson.D{{Key: "$mergeObjects", Value: bson.A{bson.D{{Key: "a", Value: "$$value"}}, bson.D{{Key: "b", Value: "$$value"}}}}})}}),
		over(bson.D{{Key: "$type", Value: doubling(0, bson.D{{Key: "v", Value: bson.A{"$$value"}}})}}),
		over(bson.D{{Key: "$range", Value: bson.A{0, 1 << 30}}}),
		over(bson.D{{Key: "$replaceAll", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "find", Value: ""}, {Key: "replacement", Value: "$s"}}}}),
		// Blocking stages with allowDiskUse: false, and $push.
		mustEncode(t, bson.D{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$sort", Value: bson.D{{Key: "tags", Value: 1}}}},
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tags"}, {Key: "all", Value: bson.D{{Key: "$push", Value: "$$ROOT"}}}}}},
		}}, {Key: "allowDiskUse", Value: false}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}}),
	)
	// Expression shapes of issue 25's sweep: decimal transcendental
	// functions at the edges of decimal128's range, hashing, BinData
	// conversions, the date arithmetic bounds and the named-argument
	// operators.
	exprs := bson.A{
		bson.D{{Key: "$sin", Value: mustDecimal(t, "9.999999999999999999999999999999999E+6144")}},
		bson.D{{Key: "$pow", Value: bson.A{mustDecimal(t, "9.999999999999999999999999999999999E+6144"), mustDecimal(t, "-4096")}}},
		bson.D{{Key: "$exp", Value: mustDecimal(t, "14199")}},
		bson.D{{Key: "$ln", Value: mustDecimal(t, "1E-6176")}},
		bson.D{{Key: "$atan2", Value: bson.A{mustDecimal(t, "-Infinity"), mustDecimal(t, "NaN")}}},
		bson.D{{Key: "$toHashedIndexKey", Value: bson.D{{Key: "a", Value: bson.A{"$s", 1.5, bson.D{}}}}}},
		bson.D{{Key: "$convert", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "to", Value: bson.D{{Key: "type", Value: "binData"}, {Key: "subtype", Value: 4}}}, {Key: "format", Value: "uuid"}, {Key: "onError", Value: 0}}}},
		bson.D{{Key: "$toUUID", Value: "00000000-0000-0000-0000-000000000000"}},
		bson.D{{Key: "$dateAdd", Value: bson.D{{Key: "startDate", Value: bson.DateTime(1)}, {Key: "unit", Value: "year"}, {Key: "amount", Value: int64(584942417)}}}},
		bson.D{{Key: "$dateTrunc", Value: bson.D{{Key: "date", Value: bson.DateTime(-1)}, {Key: "unit", Value: "hour"}, {Key: "binSize", Value: int64(1) << 62}}}},
		bson.D{{Key: "$getField", Value: bson.D{{Key: "$concat", Value: bson.A{"$s"}}}}},
		bson.D{{Key: "$setField", Value: bson.D{{Key: "field", Value: bson.D{{Key: "$literal", Value: "$a.b"}}}, {Key: "input", Value: "$$ROOT"}, {Key: "value", Value: "$$REMOVE"}}}},
		bson.D{{Key: "$zip", Value: bson.D{{Key: "inputs", Value: bson.A{bson.A{1}, bson.A{}}}, {Key: "useLongestLength", Value: true}, {Key: "defaults", Value: bson.A{"$x", "$y"}}}}},
		bson.D{{Key: "$maxN", Value: bson.D{{Key: "n", Value: 1e300}, {Key: "input", Value: bson.A{1}}}}},
		bson.D{{Key: "$sortArray", Value: bson.D{{Key: "input", Value: bson.A{bson.D{{Key: "k", Value: 1}}}}, {Key: "sortBy", Value: bson.D{{Key: "k..", Value: 1}}}}}},
	}
	for _, e := range exprs {
		seeds = append(seeds, over(e))
	}
	return seeds
}

func mustDecimal(t testing.TB, s string) bson.Decimal128 {
	d, err := bson.ParseDecimal128(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
