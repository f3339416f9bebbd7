package compat_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Capped collections: create's capped, size and max, eviction of the
// oldest documents, natural order, the statistics of a capped collection,
// collMod's cappedSize and cappedMax, and tailable cursors.

const (
	cappedCreateRef = "src/mongo/db/commands/create.idl (size: gte 1, lte 1 PB; max: lt 2^31), src/mongo/db/commands/create_command.cpp (CmdCreate::typedRun), " +
		"src/mongo/db/catalog/collection_options.cpp (adjustCappedMaxDocs; adjustCappedSize rounds only without featureFlagCappedCollectionsRelaxedSize; appendBSON); manual: core/capped-collections"
	cappedEvictRef = "src/mongo/db/catalog/capped_collection_maintenance.cpp (cappedDeleteUntilBelowConfiguredMaximum); jstests/core/capped/capped_max1.js, capped_large_docs.js"
	cappedStatsRef = "src/mongo/db/stats/storage_stats.cpp (appendCollectionStorageStats: capped, max, maxSize / scale); jstests/core/capped/capped_max1.js"
	cappedModRef   = "src/mongo/db/catalog/coll_mod.cpp (parseCollModRequest: 'Collection must be capped.', checkAndAdjustCappedSize/MaxDocs), src/mongo/db/coll_mod.idl; jstests/core/capped/capped_resize.js"
	cappedTailRef  = "src/mongo/db/query/query_request_helper.cpp (validateFindCommandRequest), src/mongo/db/query/tailable_mode.cpp (tailableModeFromBools), " +
		"src/mongo/db/query/get_executor.cpp (tailable cursor requested on non capped collection), src/mongo/db/query/canonical_query.cpp (toString), " +
		"src/mongo/db/commands/find_cmd.cpp (shouldSaveCursor), src/mongo/db/commands/getmore_cmd.cpp; jstests/core/query/cursor/tailable_skip_limit.js"
)

// cappedConvertRef is where convertToCapped and cloneCollectionAsCapped
// check and copy.
const cappedConvertRef = "src/mongo/db/commands/collection_to_capped.cpp, src/mongo/db/catalog/capped_utils.cpp (cloneCollectionAsCapped, convertToCapped), " +
	"src/mongo/db/catalog/collection_options.cpp (checkAndAdjustCappedSize); jstests/core/capped/capped_convertToCapped1.js, convert_to_capped.js, convert_to_capped_nonexistent.js, clone_as_capped_nonexistent.js; manual: reference/command/convertToCapped"

func TestCappedConversion(t *testing.T) {
	five := `[{"_id":1,"a":1},{"_id":2,"a":2},{"_id":3,"a":3},{"_id":4,"a":4},{"_id":5,"a":5}]`
	listC := `{"listCollections":1,"filter":{"name":"c"}}`
	runCmdCases(t, []cmdCase{
		{name: "convertToCapped keeps the documents in natural order", ref: cappedConvertRef, docs: five,
			setup: []string{`{"collMod":"c","validator":{"a":{"$gte":0}}}`, `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"convertToCapped":"c","size":100000}`, want: `{}`,
			thenFind: `{"find":"c","sort":{"$natural":1}}`,
			thenWant: `[{"_id":1,"a":1},{"_id":2,"a":2},{"_id":3,"a":3},{"_id":4,"a":4},{"_id":5,"a":5}]`},
		{name: "convertToCapped lists the new options first", ref: cappedConvertRef, docs: five,
			setup: []string{`{"collMod":"c","validator":{"a":{"$gte":0}}}`},
			cmd:   `{"convertToCapped":"c","size":4096}`, want: `{}`,
			thenFind: listC, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"c","type":"collection","options":{"capped":true,"size":4096,"validator":{"a":{"$gte":0}},"validationLevel":"strict","validationAction":"error"},"info":"*","idIndex":"*"}]}}`},
		{name: "convertToCapped drops the other indexes", ref: cappedConvertRef, docs: five,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"convertToCapped":"c","size":100000}`, want: `{}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"}]}}`},
		{name: "convertToCapped with size 0", ref: cappedConvertRef, docs: five, cmd: `{"convertToCapped":"c","size":0}`,
			code: mongoerr.InvalidOptions, msg: "Capped collection size must be greater than zero"},
		{name: "convertToCapped without a size", ref: cappedConvertRef, docs: five, cmd: `{"convertToCapped":"c"}`,
			code: mongoerr.InvalidOptions, msg: "Capped collection size must be greater than zero"},
		{name: "convertToCapped past 1 PB", ref: cappedConvertRef, docs: five, cmd: `{"convertToCapped":"c","size":5.308156746568726e+21}`,
			code: mongoerr.BadValue, msg: "size cannot exceed 1 PB"},
		{name: "convertToCapped in a database that does not exist", ref: cappedConvertRef, cmd: `{"convertToCapped":"c","size":1024}`,
			code: mongoerr.NamespaceNotFound, msg: "database {{db}} not found"},
		{name: "convertToCapped of a collection that does not exist", ref: cappedConvertRef, docs: five, cmd: `{"convertToCapped":"nope","size":1024}`,
			code: mongoerr.NamespaceNotFound, msg: "source collection {{db}}.nope does not exist"},
		{name: "convertToCapped of a view", ref: cappedConvertRef, docs: five, setup: []string{`{"create":"v","viewOn":"c"}`},
			cmd: `{"convertToCapped":"v","size":1024}`, code: mongoerr.CommandNotSupportedOnView, msg: "cloneCollectionAsCapped not supported for views: {{db}}.v"},
		{name: "convertToCapped of a number", ref: cappedConvertRef, docs: five, cmd: `{"convertToCapped":1,"size":1024}`,
			code: mongoerr.InvalidNamespace, msg: "collection name has invalid type int"},
		{name: "cloneCollectionAsCapped copies and keeps the source", ref: cappedConvertRef, docs: five,
			cmd: `{"cloneCollectionAsCapped":"c","toCollection":"k","size":100000}`, want: `{}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$count":"n"},{"$unionWith":{"coll":"k","pipeline":[{"$count":"k"}]}}],"cursor":{}}`,
			thenWant: `[{"n":5},{"k":5}]`},
		{name: "cloneCollectionAsCapped into a small size keeps the newest documents", ref: cappedConvertRef + "; " + cappedEvictRef, docs: five,
			cmd: `{"cloneCollectionAsCapped":"c","toCollection":"k","size":50}`, want: `{}`,
			thenFind: `{"find":"k"}`, thenWant: `[{"_id":4,"a":4},{"_id":5,"a":5}]`},
		{name: "cloneCollectionAsCapped onto an existing collection", ref: cappedConvertRef, docs: five, setup: []string{`{"create":"k"}`},
			cmd:  `{"cloneCollectionAsCapped":"c","toCollection":"k","size":1024}`,
			code: mongoerr.NamespaceExists, msg: "cloneCollectionAsCapped failed - destination collection {{db}}.k already exists. source collection: {{db}}.c"},
		{name: "cloneCollectionAsCapped from a collection that does not exist", ref: cappedConvertRef, docs: five,
			cmd:  `{"cloneCollectionAsCapped":"nope","toCollection":"k","size":1024}`,
			code: mongoerr.NamespaceNotFound, msg: "source collection {{db}}.nope does not exist"},
		{name: "cloneCollectionAsCapped without toCollection", ref: cappedConvertRef, docs: five, cmd: `{"cloneCollectionAsCapped":"c","size":1024}`,
			code: mongoerr.TypeMismatch, msg: "'toCollection' must be of type String"},
		{name: "cloneCollectionAsCapped of a number", ref: cappedConvertRef, docs: five, cmd: `{"cloneCollectionAsCapped":1,"toCollection":"k","size":1024}`,
			code: mongoerr.TypeMismatch, msg: "'cloneCollectionAsCapped' must be of type String"},
		{name: "cloneCollectionAsCapped to an invalid name", ref: cappedConvertRef, docs: five, cmd: `{"cloneCollectionAsCapped":"c","toCollection":".k","size":1024}`,
			code: mongoerr.InvalidNamespace, msg: "Invalid target collection name: .k"},
	})
}

func TestCappedCollections(t *testing.T) {
	capped := `{"create":"c","capped":true,"size":100000,"max":3}`
	five := `{"insert":"c","documents":[{"_id":1},{"_id":2},{"_id":3},{"_id":4},{"_id":5}]}`
	runCmdCases(t, []cmdCase{
		// create
		{name: "create capped lists capped, size and max first", ref: cappedCreateRef, cmd: `{"create":"k","validator":{"a":1},"capped":true,"size":1000,"max":5}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"k","type":"collection","options":{"capped":true,"size":1000,"max":5,"validator":{"a":1}},"info":"*","idIndex":{"v":2,"key":{"_id":1},"name":"_id_"}}]}}`},
		{name: "create capped keeps a size that is no multiple of 256", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":1000.9}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"k","type":"collection","options":{"capped":true,"size":1000},"info":"*","idIndex":"*"}]}}`},
		// CollectionOptions::appendBSON appends max with appendNumber(long
		// long), which stores 2^30 up to 2^40 as a double
		// (src/mongo/bson/bsonobjbuilder.h).
		{name: "create capped with max 0 stores no limit as 2^31-1", ref: cappedCreateRef + "; src/mongo/bson/bsonobjbuilder.h (appendNumber)", cmd: `{"create":"k","capped":true,"size":4096,"max":0}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"k","type":"collection","options":{"capped":true,"size":4096,"max":{"$numberDouble":"2147483647"}},"info":"*","idIndex":"*"}]}}`},
		{name: "create capped: a size of 2^40 or more lists as a long", ref: cappedCreateRef + "; src/mongo/bson/bsonobjbuilder.h (appendNumber)", cmd: `{"create":"k","capped":true,"size":1099511627776}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"k","type":"collection","options":{"capped":true,"size":{"$numberLong":"1099511627776"}},"info":"*","idIndex":"*"}]}}`},
		{name: "create capped: false with nothing else is a plain collection", ref: cappedCreateRef, cmd: `{"create":"k","capped":false}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"k","type":"collection","options":{},"info":"*","idIndex":"*"}]}}`},
		{name: "create capped again with the same options", ref: cappedCreateRef, setup: []string{capped}, cmd: capped, want: `{}`},
		{name: "create capped without size", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"max":5}`, code: mongoerr.InvalidOptions, msg: "the 'size' field is required when 'capped' is true"},
		{name: "create size without capped", ref: cappedCreateRef, cmd: `{"create":"k","size":1000}`, code: mongoerr.InvalidOptions,
			msg: "the 'capped' field needs to be true when either the 'size' or 'max' fields are present"},
		{name: "create max with capped false", ref: cappedCreateRef, cmd: `{"create":"k","capped":false,"max":5}`, code: mongoerr.InvalidOptions,
			msg: "the 'capped' field needs to be true when either the 'size' or 'max' fields are present"},
		{name: "create capped size 0", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":0}`, code: 51024, msg: "BSON field 'size' value must be >= 1, actual value '0'"},
		{name: "create capped size over 1 PB", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":{"$numberLong":"1125899906842625"}}`, code: 51024,
			msg: "BSON field 'size' value must be <= 1125899906842624, actual value '1125899906842625'"},
		{name: "create capped max 2^31", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":1000,"max":{"$numberLong":"2147483648"}}`, code: 51024,
			msg: "BSON field 'max' value must be < 2147483648, actual value '2147483648'"},
		{name: "create capped size of the wrong type", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":"big"}`, code: mongoerr.TypeMismatch,
			msg: "BSON field 'create.size' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "create capped time series", ref: cappedCreateRef, cmd: `{"create":"k","capped":true,"size":1000,"timeseries":{"timeField":"t"}}`, code: mongoerr.InvalidOptions,
			msg: "{{db}}.k: 'timeseries' is not allowed with 'capped'"},

		// eviction and natural order
		{name: "capped insert evicts the oldest past max", ref: cappedEvictRef, setup: []string{capped, five}, cmd: `{"count":"c"}`, want: `{"n":3}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":3},{"_id":4},{"_id":5}]`},
		{name: "capped natural order backwards", ref: cappedEvictRef + "; manual: reference/operator/meta/natural", setup: []string{capped, five}, cmd: `{"count":"c"}`, want: `{"n":3}`,
			thenFind: `{"find":"c","sort":{"$natural":-1}}`, thenWant: `[{"_id":5},{"_id":4},{"_id":3}]`},
		{name: "capped insert evicts the oldest past size", ref: cappedEvictRef, cov: cover{op: "insert"},
			setup: []string{`{"create":"c","capped":true,"size":120}`}, cmd: `{"insert":"c","documents":[{"_id":1,"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},{"_id":2,"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},{"_id":3,"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}]}`,
			want: `{"n":3}`, thenFind: `{"find":"c","projection":{"_id":1}}`, thenWant: `[{"_id":2},{"_id":3}]`},
		{name: "capped keeps a document larger than its size alone", ref: cappedEvictRef + " (never the record just inserted)", cov: cover{op: "insert"},
			setup: []string{`{"create":"c","capped":true,"size":20}`, `{"insert":"c","documents":[{"_id":1}]}`}, cmd: `{"insert":"c","documents":[{"_id":2,"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}]}`,
			want: `{"n":1}`, thenFind: `{"find":"c","projection":{"_id":1}}`, thenWant: `[{"_id":2}]`},
		{name: "capped allows deletes", ref: "manual: core/capped-collections (since 5.0 documents may be deleted); " + cappedEvictRef, cov: cover{op: "delete"},
			setup: []string{capped, five}, cmd: `{"delete":"c","deletes":[{"q":{"_id":4},"limit":1}]}`, want: `{"n":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":3},{"_id":5}]`},
		{name: "capped allows an update that grows a document", ref: "jstests/core/capped/capped_update.js (SERVER-58865)", cov: cover{op: "update"},
			setup: []string{capped, five}, cmd: `{"update":"c","updates":[{"q":{"_id":4},"u":{"$set":{"s":"a longer value"}}}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":3},{"_id":4,"s":"a longer value"},{"_id":5}]`},
		// 7.1 dropped prepareSpecForCreate's refusal of a TTL index on a
		// capped collection (SERVER-77586; DOCS-16225: "TTL indexes can now
		// be created on capped collections").
		{name: "capped takes a TTL index", ref: "SERVER-77586; jstests/core/ddl/coll_mod_convert_to_ttl.js", cov: cover{op: "createIndexes"},
			setup: []string{capped}, cmd: `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":10}]}`,
			want: `{"numIndexesBefore":1,"numIndexesAfter":2}`},
		{name: "capped has an _id index", ref: cappedCreateRef, cov: cover{op: "listIndexes"}, setup: []string{capped}, cmd: `{"listIndexes":"c"}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"}]}}`},
		{name: "$out to a capped collection", ref: "src/mongo/db/pipeline/document_source_out.cpp (17152)", cov: cover{family: stage, op: "$out"},
			setup: []string{capped, five}, cmd: `{"aggregate":"c","pipeline":[{"$out":"c"}],"cursor":{}}`, code: 17152,
			msg: "PlanExecutor error during aggregation :: caused by :: namespace '{{db}}.c' is capped so it can't be used for $out"},

		// statistics
		{name: "collStats of a capped collection", ref: cappedStatsRef, setup: []string{capped, five}, cmd: `{"collStats":"c"}`,
			want: `{"ns":"{{db}}.c","count":3,"capped":true,"max":3,"maxSize":100000}`},
		{name: "collStats of a capped collection scaled", ref: cappedStatsRef, setup: []string{capped}, cmd: `{"collStats":"c","scale":1000}`,
			want: `{"capped":true,"max":3,"maxSize":100}`},
		{name: "collStats of a capped collection without max", ref: cappedStatsRef, setup: []string{`{"create":"c","capped":true,"size":5000}`}, cmd: `{"collStats":"c"}`,
			want: `{"capped":true,"max":0,"maxSize":5000}`},

		// collMod
		{name: "collMod cappedSize and cappedMax", ref: cappedModRef, setup: []string{capped}, cmd: `{"collMod":"c","cappedSize":50000,"cappedMax":-1}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"c"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"c","type":"collection","options":{"capped":true,"size":50000,"max":{"$numberDouble":"2147483647"}},"info":"*","idIndex":"*"}]}}`},
		{name: "collMod cappedMax adds max after size", ref: cappedModRef, setup: []string{`{"create":"c","capped":true,"size":5000}`}, cmd: `{"collMod":"c","cappedMax":7}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"c"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"c","type":"collection","options":{"capped":true,"size":5000,"max":7},"info":"*","idIndex":"*"}]}}`},
		{name: "collMod lowering cappedMax evicts at the next insert", ref: cappedModRef, setup: []string{capped, five, `{"collMod":"c","cappedMax":1}`},
			cmd: `{"insert":"c","documents":[{"_id":6}]}`, cov: cover{op: "collMod", col: semantics}, want: `{"n":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":6}]`},
		{name: "collMod cappedSize on a collection that is not capped", ref: cappedModRef, docs: `[{"_id":1}]`, cmd: `{"collMod":"c","cappedSize":5000}`,
			code: mongoerr.InvalidOptions, msg: "Collection must be capped."},
		{name: "collMod cappedSize 0", ref: cappedModRef, docs: `[{"_id":1}]`, cmd: `{"collMod":"c","cappedSize":0}`,
			code: 51024, msg: "BSON field 'cappedSize' value must be >= 1, actual value '0'"},
		{name: "collMod cappedMax 2^31", ref: cappedModRef, setup: []string{capped}, cmd: `{"collMod":"c","cappedMax":{"$numberLong":"2147483648"}}`,
			code: 51024, msg: "BSON field 'cappedMax' value must be < 2147483648, actual value '2147483648'"},
		{name: "collMod a TTL on a capped collection's index", ref: cappedModRef + " (featureFlagTTLIndexesOnCappedCollections, on since 7.1)", setup: []string{capped, `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1"}]}`},
			cmd: `{"collMod":"c","index":{"name":"t_1","expireAfterSeconds":10}}`, want: `{"expireAfterSeconds_new":{"$numberLong":"10"}}`},

		// find options
		{name: "find tailable on a collection that is not capped", ref: cappedTailRef, docs: `[{"_id":1}]`, cmd: `{"find":"c","tailable":true,"filter":{"a":1}}`,
			code: mongoerr.BadValue, msg: "error processing query: ns={{db}}.cTree: a $eq 1\nSort: {}\nProj: {}\n tailable cursor requested on non capped collection"},
		{name: "find awaitData without tailable", ref: cappedTailRef, setup: []string{capped}, cmd: `{"find":"c","awaitData":true}`,
			code: mongoerr.FailedToParse, msg: "Cannot set 'awaitData' without also setting 'tailable'"},
		{name: "find tailable with a sort", ref: cappedTailRef, setup: []string{capped}, cmd: `{"find":"c","tailable":true,"sort":{"_id":1}}`,
			code: mongoerr.BadValue, msg: "cannot use tailable option with a sort other than {$natural: 1}"},
		{name: "find tailable with singleBatch", ref: cappedTailRef, setup: []string{capped}, cmd: `{"find":"c","tailable":true,"singleBatch":true}`,
			code: mongoerr.BadValue, msg: "cannot use tailable option with the 'singleBatch' option"},
		{name: "find tailable on an empty capped collection keeps no cursor", ref: cappedTailRef, setup: []string{capped}, cmd: `{"find":"c","tailable":true}`,
			want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find tailable with {$natural: 1} and skip", ref: cappedTailRef, setup: []string{capped, five}, cmd: `{"find":"c","tailable":true,"sort":{"$natural":1},"skip":1}`,
			want: `{"cursor":{"firstBatch":[{"_id":4},{"_id":5}],"id":"*","ns":"{{db}}.c"}}`},
	})
}

// TestTailableCursors follows a tailable cursor across inserts: it stays
// open at the end of the collection and a later getMore returns what was
// inserted since; an awaitData getMore waits at most its maxTimeMS.
func TestTailableCursors(t *testing.T) {
	s := newSuite(t)
	getMoreCov := cover{family: commandFam, op: "getMore", col: semantics}
	open := func(t *testing.T, db *mongo.Database, cmd string) int64 {
		t.Helper()
		mustCommand(t, db, `{"create":"c","capped":true,"size":100000}`)
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":1},{"_id":2}]}`)
		reply := mustCommand(t, db, cmd)
		id, _ := field(field(reply, "cursor").(bson.D), "id").(int64)
		if id == 0 {
			t.Fatalf("%s: no cursor kept: %s", cmd, relaxed(reply))
		}
		return id
	}
	// getMore runs with a context that has no deadline: the driver would
	// send a deadline as maxTimeMS, which only an awaitData getMore takes.
	getMore := func(t *testing.T, db *mongo.Database, id int64, extra bson.D) (bson.D, *mongo.CommandError) {
		t.Helper()
		cmd := append(bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}}, extra...)
		ctx, cancel := context.WithCancel(context.Background())
		defer time.AfterFunc(30*time.Second, cancel).Stop()
		defer cancel()
		var out bson.D
		if err := db.RunCommand(ctx, cmd).Decode(&out); err != nil {
			return nil, serverError(t, cmd, err)
		}
		return out, nil
	}
	batch := func(reply bson.D) bson.A {
		b, _ := field(field(reply, "cursor").(bson.D), "nextBatch").(bson.A)
		return b
	}
	s.runCase(t, "tailable getMore returns what was inserted since", cappedTailRef, getMoreCov, func(t *testing.T, db *mongo.Database) {
		id := open(t, db, `{"find":"c","tailable":true}`)
		reply, err := getMore(t, db, id, nil)
		if err != nil || len(batch(reply)) != 0 || field(field(reply, "cursor").(bson.D), "id") != id {
			t.Fatalf("getMore at the end: %v %s", err, relaxed(reply))
		}
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":3}]}`)
		reply, err = getMore(t, db, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "after an insert", docsOf(batch(reply)), `[{"_id":3}]`, false)
	})
	s.runCase(t, "tailable getMore with maxTimeMS on a cursor without awaitData", cappedTailRef, cover{family: commandFam, op: "getMore", col: errorCol}, func(t *testing.T, db *mongo.Database) {
		id := open(t, db, `{"find":"c","tailable":true}`)
		_, err := getMore(t, db, id, bson.D{{Key: "maxTimeMS", Value: int32(10)}})
		sameError(t, "getMore maxTimeMS", err, mongoerr.BadValue, "cannot set maxTimeMS on getMore command for a non-awaitData cursor")
	})
	s.runCase(t, "awaitData getMore waits its maxTimeMS and returns an empty batch", cappedTailRef, getMoreCov, func(t *testing.T, db *mongo.Database) {
		id := open(t, db, `{"find":"c","tailable":true,"awaitData":true}`)
		start := time.Now()
		reply, err := getMore(t, db, id, bson.D{{Key: "maxTimeMS", Value: int32(100)}})
		if err != nil || len(batch(reply)) != 0 {
			t.Fatalf("awaitData getMore: %v %s", err, relaxed(reply))
		}
		if waited := time.Since(start); waited < 90*time.Millisecond || waited > 5*time.Second {
			t.Fatalf("awaitData getMore waited %v for maxTimeMS 100", waited)
		}
	})
	s.runCase(t, "awaitData getMore wakes on an insert", cappedTailRef, getMoreCov, func(t *testing.T, db *mongo.Database) {
		id := open(t, db, `{"find":"c","tailable":true,"awaitData":true}`)
		done := make(chan struct{})
		go func() {
			defer close(done)
			time.Sleep(50 * time.Millisecond)
			_, _ = db.Collection("c").InsertOne(t.Context(), bson.D{{Key: "_id", Value: 7}})
		}()
		reply, err := getMore(t, db, id, bson.D{{Key: "maxTimeMS", Value: int32(5000)}})
		<-done
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "awaited insert", docsOf(batch(reply)), `[{"_id":7}]`, false)
	})
	s.runCase(t, "tailable cursor loses its position when its record is evicted", cappedEvictRef+"; src/mongo/db/exec/collection_scan.cpp (doRestoreState)", cover{family: commandFam, op: "getMore", col: errorCol}, func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"create":"c","capped":true,"size":100000,"max":2}`)
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":1},{"_id":2}]}`)
		reply := mustCommand(t, db, `{"find":"c","tailable":true}`)
		id, _ := field(field(reply, "cursor").(bson.D), "id").(int64)
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":3},{"_id":4}]}`)
		_, err := getMore(t, db, id, nil)
		if err == nil || err.Code != mongoerr.CappedPositionLost {
			t.Fatalf("getMore after the cursor's record was evicted: %v", err)
		}
	})
}

func docsOf(a bson.A) []bson.D {
	out := make([]bson.D, len(a))
	for i, d := range a {
		out[i] = d.(bson.D)
	}
	return out
}
