package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

const (
	outSrc   = "src/mongo/db/pipeline/document_source_out.cpp"
	mergeSrc = "src/mongo/db/pipeline/document_source_merge.cpp"
	statsSrc = "src/mongo/db/pipeline/document_source_coll_stats.cpp"
)

// $out's and $merge's specifications and targets, and $collStats's, as
// their parsers check them.
func TestStageOutMergeTargets(t *testing.T) {
	docs := `[{"_id": 1, "a": 1}]`
	runAggCases(t, []aggCase{
		{name: "$out of a number", ref: outSrc, docs: docs, pipeline: `[{"$out": 5}]`,
			code: 16990, msg: "$out only supports a string or object argument, but found int"},
		{name: "$out to a system collection", ref: outSrc, docs: docs, pipeline: `[{"$out": "system.x"}]`,
			code: 17385, msg: "Can't $out to special collection: system.x"},
		{name: "$out to an internal database", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "admin", "coll": "x"}}]`,
			code: 31321, msg: "Can't $out to internal database: admin"},
		{name: "$out to an empty name", ref: outSrc, docs: docs, pipeline: `[{"$out": ""}]`, code: 73},
		{name: "$out's object needs db", ref: outSrc, docs: docs, pipeline: `[{"$out": {"coll": "x"}}]`,
			code: 40414, msg: "BSON field '$out.db' is missing but a required field"},
		{name: "$out's object needs coll", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "x"}}]`,
			code: 40414, msg: "BSON field '$out.coll' is missing but a required field"},
		{name: "$out's unknown field", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "x", "coll": "y", "mode": "replace"}}]`,
			code: 40415, msg: "BSON field '$out.mode' is an unknown field."},

		{name: "$merge of a number", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": 5}]`,
			code: 14, msg: "$merge requires a string or object argument, but found int"},
		{name: "$merge to a system collection", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": "system.x"}]`,
			code: 31319, msg: "Cannot $merge to special collection: system.x"},
		{name: "$merge to an internal database", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": {"db": "config", "coll": "x"}}}]`,
			code: 31320, msg: "Cannot $merge to internal database: config"},
		{name: "whenMatched fail with whenNotMatched fail", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "whenMatched": "fail", "whenNotMatched": "fail"}}]`,
			code:     51181, msg: "Combination of $merge modes 'whenMatched: fail' and 'whenNotMatched: fail' is not supported"},
		{name: "keepExisting with discard", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "whenMatched": "keepExisting", "whenNotMatched": "discard"}}]`,
			code:     51181, msg: "Combination of $merge modes 'whenMatched: keepExisting' and 'whenNotMatched: discard' is not supported"},
		{name: "a duplicate on field", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": "m", "on": ["_id", "_id"]}}]`,
			code: 31465, msg: "Found a duplicate field '_id'"},
		{name: "let redefining new", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "let": {"new": "$a"}, "whenMatched": [{"$set": {"x": 1}}]}}]`,
			code:     51273, msg: "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'"},
		{name: "into needs coll", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": {"db": "x"}}}]`,
			code: 40414, msg: "BSON field '$merge.into.coll' is missing but a required field"},

		{name: "$collStats of a number", ref: statsSrc, cov: cover{op: "$collStats"}, docs: docs, pipeline: `[{"$collStats": 5}]`,
			code: 40166, msg: "$collStats must take a nested object but found: $collStats: 5"},
		{name: "$collStats scale below 1 when parsed", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"scale": 0}}}]`,
			code: 51024, msg: "BSON field 'scale' value must be >= 1, actual value '0'"},
		{name: "$collStats scale of a string", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"scale": "a"}}}]`,
			code: 14, msg: "BSON field '$collStats.storageStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "$collStats unknown storage option", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"x": 1}}}]`,
			code: 40415, msg: "BSON field '$collStats.storageStats.x' is an unknown field."},
		{name: "$collStats histograms must be a bool", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"latencyStats": {"histograms": 1}}}]`,
			code: 14, msg: "BSON field '$collStats.latencyStats.histograms' is the wrong type 'int', expected type 'bool'"},
		{name: "$collStats count", ref: statsSrc, docs: `[{"_id": 1}, {"_id": 2}]`, pipeline: `[{"$collStats": {"count": {}}}, {"$project": {"_id": 0, "count": 1}}]`,
			want: `[{"count": 2}]`},
	})
}

// A DuplicateKey error of $merge's writes carries the context
// DocumentSourceMerge::flush gives it: whenMatched: "fail" inserts
// without looking for a match, and a collision on the index whose key is
// exactly the on fields is "found an existing document"; any other
// collision, in any mode, "failed due to a DuplicateKey error". After it
// the executor's own context, as for every aggregation error.
// jstests/aggregation/sources/merge/mode_fail_insert.js and
// mode_replace_insert.js.
func TestStageMergeDuplicateKeyContext(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "$merge duplicate keys name the index that collided, with the context of their cause", mergeSrc+" (flush); jstests/aggregation/sources/merge/mode_fail_insert.js, mode_replace_insert.js",
		cover{family: stage, op: "$merge", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("src"), `[{"_id": 0, "a": 0, "b": {"c": 2}}]`)
			for _, cmd := range []string{
				`{"createIndexes": "out", "indexes": [{"key": {"a": 1, "b.c": 1}, "name": "a_1_b.c_1", "unique": true}]}`,
				`{"insert": "out", "documents": [{"_id": 1, "a": 0, "b": {"c": 2}}]}`,
				`{"createIndexes": "out3", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`,
				`{"insert": "out3", "documents": [{"_id": 0, "a": 5}]}`,
				`{"createIndexes": "out2", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`,
				`{"insert": "out2", "documents": [{"_id": 7, "a": 0}]}`,
			} {
				if err := db.RunCommand(t.Context(), ejDoc(t, cmd)).Err(); err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
			}
			prefix := "PlanExecutor error during aggregation :: caused by :: "
			matched := "$merge with whenMatched: fail found an existing document with the same values for the 'on' fields :: caused by :: "
			other := "$merge failed due to a DuplicateKey error :: caused by :: "
			dup := "E11000 duplicate key error collection: " + db.Name()
			for _, tc := range []struct{ name, merge, want string }{
				{"fail, on the fields of a unique index", `{"into": "out", "whenMatched": "fail", "whenNotMatched": "insert", "on": ["a", "b.c"]}`,
					prefix + matched + dup + ".out index: a_1_b.c_1 dup key: { a: 0, b.c: 2 }"},
				{"fail, on _id", `{"into": "out3", "whenMatched": "fail", "whenNotMatched": "insert"}`,
					prefix + matched + dup + ".out3 index: _id_ dup key: { _id: 0 }"},
				{"fail, on the fields of a unique index, colliding on _id", `{"into": "out3", "whenMatched": "fail", "whenNotMatched": "insert", "on": "a"}`,
					prefix + other + dup + ".out3 index: _id_ dup key: { _id: 0 }"},
				{"replace, colliding on another unique index", `{"into": "out2", "whenMatched": "replace", "whenNotMatched": "insert"}`,
					prefix + other + dup + ".out2 index: a_1 dup key: { a: 0 }"},
			} {
				_, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "src"}, {Key: "pipeline", Value: ejArray(t, `[{"$merge": `+tc.merge+`}]`)}, {Key: "cursor", Value: bson.D{}}})
				sameError(t, tc.name, err, 11000, tc.want)
			}
		})
}

// $collStats' count of a collection that does not exist fails, as
// appendCollectionRecordCount (storage_stats.cpp) refuses it and
// makeStatsForNs (document_source_coll_stats.cpp) puts the stage's context
// first, and handleCursorCommand (run_aggregate.cpp) the executor's; jstests/aggregation/sources/collStats/count.js checks it before
// the database exists and after the collection is dropped.
func TestStageCollStatsCountMissing(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "$collStats count of a missing collection", statsSrc+"; src/mongo/db/stats/storage_stats.cpp appendCollectionRecordCount",
		cover{family: stage, op: "$collStats", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			count := ejArray(t, `[{"$collStats": {"count": {}}}]`)
			want := "PlanExecutor error during aggregation :: caused by :: Unable to retrieve count in $collStats stage :: caused by :: Collection [" + db.Name() + ".c] not found."
			for _, when := range []string{"before the database exists", "after the collection is dropped"} {
				_, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: count}, {Key: "cursor", Value: bson.D{}}})
				sameError(t, when, err, 26, want)
				insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
				if err := db.Collection("c").Drop(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
		})
}

// $out's timeseries option (MongoDB 7.0.3 and later): the target becomes,
// or must already be, a time-series collection.
func TestStageOutTimeseries(t *testing.T) {
	docs := `[{"_id": 1, "t": {"$date": "2024-01-01T00:00:00Z"}, "m": "a", "v": 1}, {"_id": 2, "t": {"$date": "2024-01-01T01:00:00Z"}, "m": "b", "v": 2}]`
	s := newSuite(t)
	s.runCase(t, "$out creates a time-series collection, then replaces its measurements", outSrc, cover{family: stage, op: "$out", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			out := func(match string) *mongo.CommandError {
				pipeline := ejArray(t, `[{"$match": `+match+`}, {"$out": {"db": "`+db.Name()+`", "coll": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}}]`)
				_, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{}}})
				return err
			}
			if err := out(`{}`); err != nil {
				t.Fatal(err)
			}
			colls, err := cursorDocs(t, db, ejDoc(t, `{"listCollections": 1, "filter": {"name": "ts"}}`))
			if err != nil || len(colls) != 1 || field(colls[0], "type") != "timeseries" {
				t.Fatalf("ts after $out: %v %v", colls, err)
			}
			if err := out(`{"_id": 2}`); err != nil {
				t.Fatal(err)
			}
			got, _ := cursorDocs(t, db, ejDoc(t, `{"find": "ts", "projection": {"_id": 1, "v": 1}}`))
			sameDocs(t, "ts after the second $out", got, `[{"_id": 2, "v": 2}]`, false)
		})
	runAggCases(t, []aggCase{
		{name: "$out's timeseries needs a timeField", ref: outSrc, docs: docs,
			pipeline: `[{"$out": {"db": "d", "coll": "ts", "timeseries": {"metaField": "m"}}}]`,
			code:     40414, msg: "BSON field '$out.timeseries.timeField' is missing but a required field"},
		{name: "$out's timeseries option must be an object", ref: outSrc, docs: docs,
			pipeline: `[{"$out": {"db": "d", "coll": "ts", "timeseries": 1}}]`,
			code:     14, msg: "BSON field '$out.timeseries' is the wrong type 'int', expected type 'object'"},
	})
}
