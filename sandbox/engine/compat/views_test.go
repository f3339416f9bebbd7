package compat_test

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Views (non-materialized, read-only): their creation and validation,
// reads through the resolved pipeline, and the commands refused on them.
const (
	viewsCreateRef  = "src/mongo/db/catalog/create_collection.cpp (_createView), src/mongo/db/views/view_graph.cpp; jstests/core/views/views_creation.js, views_validation.js"
	viewsReadRef    = "src/mongo/db/views/view_catalog_helpers.cpp (resolveView), src/mongo/db/views/resolved_view.cpp, src/mongo/db/query/query_request_conversion.cpp; jstests/core/views/views_find.js, views_aggregation.js, views_count.js, views_distinct.js"
	viewsFindRef    = "src/mongo/db/query/query_request_helper.cpp (asAggregationCommand); jstests/core/views/views_find.js"
	viewsRefuseRef  = "src/mongo/db/shard_role.cpp (a view where a collection is needed), src/mongo/db/commands/create_indexes_cmd.cpp (runCreateIndexesOnNewCollection); jstests/core/views/views_all_commands.js"
	viewsCollModRef = "src/mongo/db/catalog/coll_mod.cpp, src/mongo/db/views/view_graph.cpp; jstests/core/views/views_validation.js"
	viewsStatsRef   = "src/mongo/db/views/view_catalog_helpers.cpp (resolveView stops at $collStats); jstests/core/views/views_coll_stats.js"
)

func TestViewCases(t *testing.T) {
	const docs = `[{"_id":1,"a":1,"s":"x"},{"_id":2,"a":2,"s":"y"},{"_id":3,"a":3,"s":"x"},{"_id":4,"a":4}]`
	view := `{"create":"v","viewOn":"c","pipeline":[{"$match":{"a":{"$gte":2}}}]}`
	runCmdCases(t, []cmdCase{
		// create
		{name: "create a view", ref: viewsCreateRef, cmd: `{"create":"v","viewOn":"c","pipeline":[{"$match":{}}]}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"type":"view"}}`,
			thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"v","type":"view","options":{"viewOn":"c","pipeline":[{"$match":{}}]},"info":{"readOnly":true}}]}}`},
		{name: "create a view without a pipeline", ref: viewsCreateRef, cmd: `{"create":"v","viewOn":"c"}`, want: `{}`,
			thenFind: `{"find":"system.views"}`, thenWant: `[{"_id":"{{db}}.v","viewOn":"c","pipeline":[]}]`},
		{name: "create a view on a view", ref: viewsCreateRef, docs: docs, setup: []string{view},
			cmd: `{"create":"w","viewOn":"v","pipeline":[{"$match":{"s":"x"}}]}`, want: `{}`,
			thenFind: `{"find":"w"}`, thenWant: `[{"_id":3,"a":3,"s":"x"}]`},
		{name: "create a view named system.views", ref: viewsCreateRef, cmd: `{"create":"system.views","viewOn":"c"}`, code: mongoerr.InvalidNamespace},
		{name: "create a view named system.foo", ref: viewsCreateRef, cmd: `{"create":"system.foo","viewOn":"c"}`, code: mongoerr.InvalidNamespace},
		{name: "create a view with $ in its name", ref: viewsCreateRef, cmd: `{"create":"dollar$","viewOn":"c","pipeline":[]}`, code: mongoerr.InvalidNamespace},
		{name: "create a view with a pipeline and no viewOn", ref: viewsCreateRef, cmd: `{"create":"v","pipeline":[]}`,
			code: mongoerr.InvalidOptions, msg: "'pipeline' requires 'viewOn' to also be specified"},
		{name: "create a view with a non-string viewOn", ref: viewsCreateRef + "; src/mongo/db/commands/create.idl", cmd: `{"create":"v","viewOn":1}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.viewOn' is the wrong type 'int', expected type 'string'"},
		{name: "create a view with an object pipeline", ref: viewsCreateRef + "; src/mongo/db/commands/create.idl", cmd: `{"create":"v","viewOn":"c","pipeline":{"$match":{}}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.pipeline' is the wrong type 'object', expected type 'array'"},
		{name: "create a view with $out", ref: viewsCreateRef + "; src/mongo/db/views/view_catalog_helpers.cpp (validatePipeline)", cmd: `{"create":"v","viewOn":"c","pipeline":[{"$out":"x"}]}`,
			code: mongoerr.OptionNotSupportedOnView,
			msg:  "Invalid pipeline for view {{db}}.v :: caused by :: The aggregation stage $out in location 0 of the pipeline cannot be used in the view definition of {{db}}.v because it writes to disk"},
		{name: "create a view with $merge", ref: viewsCreateRef + "; src/mongo/db/views/view_catalog_helpers.cpp (validatePipeline)", cmd: `{"create":"v","viewOn":"c","pipeline":[{"$match":{}},{"$merge":{"into":"x"}}]}`,
			code: mongoerr.OptionNotSupportedOnView,
			msg:  "Invalid pipeline for view {{db}}.v :: caused by :: The aggregation stage $merge in location 1 of the pipeline cannot be used in the view definition of {{db}}.v because it writes to disk"},
		{name: "create a view over itself", ref: viewsCreateRef, cmd: `{"create":"a","viewOn":"a","pipeline":[]}`,
			code: mongoerr.GraphContainsCycle, msg: "View cycle detected: {{db}}.a => {{db}}.a => {{db}}.a"},
		{name: "create a view closing a cycle", ref: viewsCreateRef, setup: []string{`{"create":"a","viewOn":"b"}`},
			cmd: `{"create":"b","viewOn":"a","pipeline":[]}`, code: mongoerr.GraphContainsCycle, msg: "View cycle detected: {{db}}.b => {{db}}.b => {{db}}.a => {{db}}.b"},
		{name: "create a view whose $lookup closes a cycle", ref: viewsCreateRef, cmd: `{"create":"a","viewOn":"b","pipeline":[{"$lookup":{"from":"a","localField":"x","foreignField":"y","as":"z"}}]}`,
			code: mongoerr.GraphContainsCycle},
		{name: "create a view whose $unionWith closes a cycle", ref: viewsCreateRef, setup: []string{`{"create":"a","viewOn":"b"}`},
			cmd: `{"create":"b","viewOn":"c","pipeline":[{"$unionWith":"a"}]}`, code: mongoerr.GraphContainsCycle},
		{name: "create a view over an existing collection name", ref: viewsCreateRef, docs: docs, cmd: `{"create":"c","viewOn":"d"}`, code: mongoerr.NamespaceExists},
		{name: "create the same view again", ref: viewsCreateRef, setup: []string{view}, cmd: view, want: `{}`},
		{name: "create a view with an invalid $lookup", ref: viewsCreateRef, cmd: `{"create":"a","viewOn":"b","pipeline":[{"$lookup":{"from":"a","localField":"b","foreignField":"c"}}]}`,
			code: mongoerr.FailedToParse},

		// reads
		{name: "find on a view", ref: viewsReadRef, docs: docs, setup: []string{view},
			cmd: `{"find":"v","filter":{"s":"x"},"projection":{"s":0}}`, want: `{"cursor":{"firstBatch":[{"_id":3,"a":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with sort, skip and limit", ref: viewsReadRef, docs: docs, setup: []string{view},
			cmd: `{"find":"v","sort":{"a":-1},"skip":1,"limit":2,"projection":{"a":1}}`, want: `{"cursor":{"firstBatch":[{"_id":3,"a":3},{"_id":2,"a":2}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with a $natural sort", ref: viewsFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","sort":{"$natural":1}}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Sort option $natural not supported in aggregation."},
		{name: "find on a view with singleBatch and no limit 1", ref: viewsFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","singleBatch":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option singleBatch not supported in aggregation."},
		{name: "find on a view with singleBatch and limit 1", ref: viewsFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","singleBatch":true,"limit":1,"sort":{"a":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":2,"s":"y"}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with noCursorTimeout", ref: viewsFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","noCursorTimeout":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option noCursorTimeout not supported in aggregation."},
		{name: "find on a view with $elemMatch in the projection", ref: viewsFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","projection":{"arr":{"$elemMatch":{"x":1}}}}`,
			code: mongoerr.InvalidPipelineOperator},
		{name: "find on a view of a missing collection", ref: viewsReadRef, setup: []string{`{"create":"v","viewOn":"none"}`},
			cmd: `{"find":"v"}`, want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "aggregate on a view", ref: viewsReadRef, docs: docs, setup: []string{view},
			cmd: `{"aggregate":"v","pipeline":[{"$group":{"_id":null,"t":{"$sum":"$a"}}}],"cursor":{}}`, want: `{"cursor":{"firstBatch":[{"_id":null,"t":9}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "count on a view", ref: viewsReadRef, docs: docs, setup: []string{view}, cmd: `{"count":"v","query":{"s":"x"}}`, want: `{"n":1}`},
		{name: "count on a view with skip", ref: viewsReadRef, docs: docs, setup: []string{view}, cmd: `{"count":"v","skip":1}`, want: `{"n":2}`},
		{name: "distinct on a view", ref: viewsReadRef, docs: docs, setup: []string{view}, cmd: `{"distinct":"v","key":"s"}`, want: `{"values":["x","y"]}`},
		{name: "$lookup from a view", ref: viewsReadRef + "; jstests/core/views/views_aggregation.js", docs: docs, setup: []string{view},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"_id":{"$lte":2}}},{"$lookup":{"from":"v","localField":"_id","foreignField":"a","as":"m"}},{"$project":{"n":{"$size":"$m"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"n":0},{"_id":2,"n":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "$unionWith a view", ref: viewsReadRef + "; jstests/core/views/views_aggregation.js", docs: docs, setup: []string{view},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"_id":1}},{"$unionWith":"v"},{"$project":{"a":1}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":1},{"_id":2,"a":2},{"_id":3,"a":3},{"_id":4,"a":4}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "$graphLookup from a view", ref: viewsReadRef + "; jstests/core/views/views_aggregation.js", docs: docs, setup: []string{view},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"_id":1}},{"$graphLookup":{"from":"v","startWith":"$a","connectFromField":"a","connectToField":"_id","as":"g","maxDepth":0}},{"$project":{"n":{"$size":"$g"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"n":0}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},

		// refusals
		{name: "insert into a view", ref: viewsRefuseRef, setup: []string{view}, cmd: `{"insert":"v","documents":[{"x":1}]}`, writeError: true,
			code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "update a view", ref: viewsRefuseRef, setup: []string{view}, cmd: `{"update":"v","updates":[{"q":{},"u":{"$set":{"x":1}}}]}`, writeError: true,
			code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "delete from a view", ref: viewsRefuseRef, setup: []string{view}, cmd: `{"delete":"v","deletes":[{"q":{},"limit":1}]}`, writeError: true,
			code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "findAndModify on a view", ref: viewsRefuseRef, setup: []string{view}, cmd: `{"findAndModify":"v","query":{"a":1},"update":{"$set":{"a":2}}}`,
			code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "createIndexes on a view", ref: viewsRefuseRef, setup: []string{view}, cmd: `{"createIndexes":"v","indexes":[{"key":{"x":1},"name":"x_1"}]}`,
			code: mongoerr.CommandNotSupportedOnView, msg: "Cannot create indexes on a view"},
		{name: "dropIndexes on a view", ref: viewsRefuseRef + "; src/mongo/db/catalog/drop_indexes.cpp (checkView)", setup: []string{view}, cmd: `{"dropIndexes":"v","index":"*"}`,
			code: mongoerr.CommandNotSupportedOnView, msg: "Cannot drop indexes on view {{db}}.v"},
		{name: "listIndexes on a view", ref: viewsRefuseRef + "; src/mongo/db/commands/list_indexes.cpp", setup: []string{view}, cmd: `{"listIndexes":"v"}`,
			code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "dbStats counts a view under views", ref: statsRef + "; src/mongo/db/catalog/database_impl.cpp (getStats)", docs: docs, setup: []string{view},
			cmd: `{"dbStats":1}`, want: `{"collections":2,"views":1}`},

		// collMod and drop
		{name: "collMod redefines a view", ref: viewsCollModRef, docs: docs, setup: []string{view},
			cmd: `{"collMod":"v","viewOn":"c","pipeline":[{"$match":{"a":1}}]}`, want: `{}`,
			thenFind: `{"find":"v"}`, thenWant: `[{"_id":1,"a":1,"s":"x"}]`},
		{name: "collMod closing a cycle", ref: viewsCollModRef, setup: []string{`{"create":"a","viewOn":"b"}`, `{"create":"b","viewOn":"c"}`},
			cmd: `{"collMod":"b","viewOn":"a","pipeline":[]}`, code: mongoerr.GraphContainsCycle},
		{name: "collMod with an object pipeline", ref: viewsCollModRef, setup: []string{`{"create":"b","viewOn":"c"}`},
			cmd: `{"collMod":"b","viewOn":"c","pipeline":{}}`, code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.pipeline' is the wrong type 'object', expected type 'array'"},
		{name: "collMod expireAfterSeconds on a view", ref: viewsCollModRef, setup: []string{`{"create":"a","viewOn":"b"}`},
			cmd: `{"collMod":"a","expireAfterSeconds":1}`, code: mongoerr.InvalidOptions},
		{name: "collMod a validator on a view", ref: viewsCollModRef + " (parseCollModRequest)", setup: []string{`{"create":"a","viewOn":"b"}`},
			cmd: `{"collMod":"a","validator":{"x":1}}`, code: mongoerr.InvalidOptions, msg: "option not supported on a view: validator"},
		{name: "collMod a pipeline on a collection", ref: viewsCollModRef + " (parseCollModRequest)", docs: docs,
			cmd: `{"collMod":"c","viewOn":"d","pipeline":[]}`, code: mongoerr.InvalidOptions, msg: "option only supported on a view: pipeline"},
		{name: "collMod viewOn on a collection", ref: viewsCollModRef + " (parseCollModRequest)", docs: docs,
			cmd: `{"collMod":"c","viewOn":"d"}`, code: mongoerr.InvalidOptions, msg: "option only supported on a view: viewOn"},
		{name: "drop a view", ref: dropRef + "; jstests/core/views/views_basic.js", docs: docs, setup: []string{view}, cmd: `{"drop":"v"}`,
			thenFind: `{"find":"system.views"}`, thenWant: `[]`},

		// $collStats
		{name: "$collStats latencyStats on a view", ref: viewsStatsRef, setup: []string{`{"create":"a","viewOn":"b","pipeline":[{"$match":{}}]}`},
			cmd: `{"aggregate":"a","pipeline":[{"$collStats":{"latencyStats":{}}},{"$project":{"ns":1}}],"cursor":{}}`, want: `{"cursor":{"firstBatch":[{"ns":"{{db}}.a"}],"id":{"$numberLong":"0"},"ns":"{{db}}.a"}}`},
		{name: "$collStats in a view pipeline names viewOn", ref: viewsStatsRef, setup: []string{`{"create":"a","viewOn":"b","pipeline":[{"$collStats":{"latencyStats":{}}}]}`},
			cmd: `{"aggregate":"a","pipeline":[{"$project":{"ns":1}}],"cursor":{}}`, want: `{"cursor":{"firstBatch":[{"ns":"{{db}}.b"}],"id":{"$numberLong":"0"},"ns":"{{db}}.a"}}`},
		{name: "$collStats storageStats on a view", ref: viewsStatsRef, setup: []string{`{"create":"a","viewOn":"b"}`},
			cmd: `{"aggregate":"a","pipeline":[{"$collStats":{"storageStats":{}}}],"cursor":{}}`, code: mongoerr.CommandNotSupportedOnView},
	})
}

// TestViewDepth builds the chain of views views_validation.js does: 20
// levels deep is allowed, one more level at either end is not; a read
// resolves at most 20 views.
func TestViewDepth(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "view depth limit", viewsCreateRef, cover{family: commandFam, op: "create", col: errorCol}, func(t *testing.T, db *mongo.Database) {
		ctx := context.Background()
		for i := 1; i <= 20; i++ {
			cmd := bson.D{{Key: "create", Value: "v" + itoa(i)}, {Key: "viewOn", Value: "v" + itoa(i+1)}}
			if err := db.RunCommand(ctx, cmd).Err(); err != nil {
				t.Fatalf("v%d: %v", i, err)
			}
		}
		for _, c := range []bson.D{
			{{Key: "create", Value: "v21"}, {Key: "viewOn", Value: "v22"}},
			{{Key: "create", Value: "v0"}, {Key: "viewOn", Value: "v1"}},
		} {
			var ce mongo.CommandError
			err := db.RunCommand(ctx, c).Err()
			if !errors.As(err, &ce) || ce.Code != mongoerr.ViewDepthLimitExceeded || ce.Message != "View depth limit exceeded; maximum depth is 20" {
				t.Fatalf("%v: %v", c, err)
			}
		}
		if err := db.RunCommand(ctx, bson.D{{Key: "create", Value: "vMid"}, {Key: "viewOn", Value: "v10"}}).Err(); err != nil {
			t.Fatalf("vMid: %v", err)
		}
		// Reading resolves at most 20 views (view_catalog_helpers.cpp,
		// resolveView): v1 needs a 21st lookup to reach its collection.
		var ce mongo.CommandError
		err := db.RunCommand(ctx, bson.D{{Key: "find", Value: "v1"}}).Err()
		if !errors.As(err, &ce) || ce.Code != mongoerr.ViewDepthLimitExceeded || ce.Message != "View depth too deep or view cycle detected; maximum depth is 20" {
			t.Fatalf("find v1: %v", err)
		}
		if err := db.RunCommand(ctx, bson.D{{Key: "find", Value: "v2"}}).Err(); err != nil {
			t.Fatalf("find v2: %v", err)
		}
		union := bson.D{{Key: "aggregate", Value: "v10"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$unionWith", Value: "v1"}}}}, {Key: "cursor", Value: bson.D{}}}
		if err := db.RunCommand(ctx, union).Err(); !errors.As(err, &ce) || ce.Code != mongoerr.ViewDepthLimitExceeded {
			t.Fatalf("$unionWith v1: %v", err)
		}
	})
	s.runCase(t, "CreateView through the driver", viewsCreateRef+"; manual: reference/method/db.createView", cover{family: commandFam, op: "create", col: semantics}, func(t *testing.T, db *mongo.Database) {
		ctx := context.Background()
		insertDocs(t, db.Collection("c"), `[{"_id":1,"a":1},{"_id":2,"a":5}]`)
		if err := db.CreateView(ctx, "big", "c", mongo.Pipeline{{{Key: "$match", Value: bson.D{{Key: "a", Value: bson.D{{Key: "$gt", Value: 2}}}}}}}); err != nil {
			t.Fatal(err)
		}
		var one bson.D
		if err := db.Collection("big").FindOne(ctx, bson.D{}).Decode(&one); err != nil || len(one) != 2 {
			t.Fatalf("findOne: %v %v", one, err)
		}
		n, err := db.Collection("big").CountDocuments(ctx, bson.D{})
		if err != nil || n != 1 {
			t.Fatalf("count: %d %v", n, err)
		}
		_, err = db.Collection("big").InsertOne(ctx, bson.D{{Key: "a", Value: 9}})
		var we mongo.WriteException
		if !errors.As(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != mongoerr.CommandNotSupportedOnView {
			t.Fatalf("insert: %v", err)
		}
	})
}

// TestViewExplain: explain of a read of a view explains the aggregation
// over the view's collection (views_find.js checks the namespace the
// query planner reports).
func TestViewExplain(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "explain find on a view", viewsFindRef, cover{family: commandFam, op: "find", col: explain}, func(t *testing.T, db *mongo.Database) {
		ctx := context.Background()
		insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2}]`)
		mustCommand(t, db, `{"create":"v","viewOn":"c","pipeline":[{"$match":{}}]}`)
		for _, verbosity := range []string{"queryPlanner", "executionStats"} {
			var out bson.M
			cmd := bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "v"}}}, {Key: "verbosity", Value: verbosity}}
			if err := db.RunCommand(ctx, cmd).Decode(&out); err != nil {
				t.Fatal(err)
			}
			qp, _ := out["queryPlanner"].(bson.D)
			if ns, _ := field(qp, "namespace").(string); ns != db.Name()+".c" {
				t.Fatalf("%s: %v", verbosity, out)
			}
			_, hasStats := out["executionStats"]
			if hasStats != (verbosity == "executionStats") {
				t.Fatalf("%s: executionStats %v", verbosity, hasStats)
			}
		}
	})
}

// A read of a view takes its hint to the query over the view's
// collection: asAggregationCommand keeps find's hint, and an aggregate's
// hint stays with the resolved pipeline (jstests/core/agg_hint.js, "a
// hinted agg can be executed against a view").
func TestViewReadHint(t *testing.T) {
	s := newSuite(t)
	const docs = `[{"_id":1,"x":1},{"_id":2,"x":2},{"_id":3,"x":3}]`
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":{"x":1},"name":"x_1"}]}`)
		mustCommand(t, db, `{"create":"v","viewOn":"c","pipeline":[{"$match":{"x":{"$gte":0}}}]}`)
	}
	usedIndex := func(t *testing.T, reply bson.D) string {
		t.Helper()
		var wp bson.D
		if field(reply, "stages") != nil {
			wp = cursorWinningPlan(t, reply)
		} else {
			wp = winningPlan(t, reply)
		}
		name, _ := field(stageNamed(wp, "IXSCAN"), "indexName").(string)
		return name
	}
	for _, c := range []struct{ op, read string }{
		{"aggregate", `{"aggregate":"v","pipeline":[{"$match":{"x":3}}],"cursor":{},"hint":{"_id":1}}`},
		{"find", `{"find":"v","filter":{"x":3},"hint":{"_id":1}}`},
		{"count", `{"count":"v","query":{"x":3},"hint":{"_id":1}}`},
		{"distinct", `{"distinct":"v","key":"x","query":{"x":3},"hint":{"_id":1}}`},
	} {
		s.runCase(t, c.op+" of a view keeps its hint", viewsFindRef+"; jstests/core/agg_hint.js", cover{family: commandFam, op: c.op, col: explain}, func(t *testing.T, db *mongo.Database) {
			setup(t, db)
			if got := usedIndex(t, mustCommand(t, db, `{"explain":`+c.read+`,"verbosity":"queryPlanner"}`)); got != "_id_" {
				t.Errorf("explain uses %q, want the hinted _id_", got)
			}
			st := explainStats(t, db, c.read)
			if got := field(st, "totalKeysExamined"); got != int64(3) && got != int32(3) {
				t.Errorf("executed with %v keys examined, want 3: the whole _id index, as hinted", got)
			}
		})
	}
}

// TestViewGetMore: a cursor on a view names the view, in the first batch
// and in getMore's (views_all_commands.js, getMore).
func TestViewGetMore(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "getMore on a view's cursor", viewsRefuseRef, cover{family: commandFam, op: "getMore", col: semantics}, func(t *testing.T, db *mongo.Database) {
		ctx := context.Background()
		insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2},{"_id":3}]`)
		mustCommand(t, db, `{"create":"v","viewOn":"c"}`)
		for _, cmd := range []bson.D{
			{{Key: "find", Value: "v"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: 0}}}}}, {Key: "batchSize", Value: 2}},
			{{Key: "aggregate", Value: "v"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$sort", Value: bson.D{{Key: "_id", Value: 1}}}}}}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: 2}}}},
		} {
			var first struct {
				Cursor struct {
					ID         int64    `bson:"id"`
					NS         string   `bson:"ns"`
					FirstBatch []bson.D `bson:"firstBatch"`
				} `bson:"cursor"`
			}
			if err := db.RunCommand(ctx, cmd).Decode(&first); err != nil {
				t.Fatal(err)
			}
			if first.Cursor.NS != db.Name()+".v" || len(first.Cursor.FirstBatch) != 2 || first.Cursor.ID == 0 {
				t.Fatalf("%v: %+v", cmd, first)
			}
			var more struct {
				Cursor struct {
					NS        string   `bson:"ns"`
					NextBatch []bson.D `bson:"nextBatch"`
				} `bson:"cursor"`
			}
			if err := db.RunCommand(ctx, bson.D{{Key: "getMore", Value: first.Cursor.ID}, {Key: "collection", Value: "v"}}).Decode(&more); err != nil {
				t.Fatal(err)
			}
			if more.Cursor.NS != db.Name()+".v" || len(more.Cursor.NextBatch) != 1 {
				t.Fatalf("getMore: %+v", more)
			}
		}
	})
}

// A time-series collection is a view over its buckets in mongod, so a
// view defined on one, and $lookup, $graphLookup and $unionWith reading
// one, read its measurements through the unpacking the time-series view
// defines.
func TestTimeseriesUnderAnotherRead(t *testing.T) {
	const tsRef = "src/mongo/db/views/view_catalog_helpers.cpp (resolveView: a time-series view resolves to its buckets with $_internalUnpackBucket); jstests/core/timeseries/query/timeseries_lookup.js, timeseries_union_with.js"
	setup := []string{
		`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`,
		`{"insert":"ts","documents":[{"_id":1,"t":{"$date":"2024-01-01T00:00:00Z"},"m":1,"v":1},{"_id":2,"t":{"$date":"2024-01-01T01:00:00Z"},"m":1,"v":2},{"_id":3,"t":{"$date":"2024-01-01T02:00:00Z"},"m":2,"v":3}]}`,
	}
	withView := append(append([]string{}, setup...), `{"create":"v","viewOn":"ts","pipeline":[{"$match":{"v":{"$gte":2}}}]}`)
	runCmdCases(t, []cmdCase{
		{name: "find on a view of a time-series collection", ref: tsRef, setup: withView,
			cmd:  `{"find":"v","projection":{"_id":1,"v":1},"sort":{"_id":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"v":2},{"_id":3,"v":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "count on a view of a time-series collection", ref: tsRef, setup: withView,
			cmd: `{"count":"v","query":{"m":1}}`, want: `{"n":1}`},
		{name: "$lookup from a time-series collection", ref: tsRef, docs: `[{"_id":1,"m":1}]`, setup: setup,
			cmd:  `{"aggregate":"c","pipeline":[{"$lookup":{"from":"ts","localField":"m","foreignField":"m","as":"r"}},{"$project":{"ids":"$r._id"}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"ids":[1,2]}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "$lookup with a pipeline from a view of a time-series collection", ref: tsRef, docs: `[{"_id":1}]`, setup: withView,
			cmd:  `{"aggregate":"c","pipeline":[{"$lookup":{"from":"v","pipeline":[{"$sort":{"_id":1}},{"$project":{"_id":1}}],"as":"r"}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"r":[{"_id":2},{"_id":3}]}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "$unionWith a time-series collection", ref: tsRef, docs: `[{"_id":0}]`, setup: setup,
			cmd:  `{"aggregate":"c","pipeline":[{"$unionWith":{"coll":"ts","pipeline":[{"$match":{"m":2}}]}},{"$project":{"_id":1}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":0},{"_id":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "$indexStats on a time-series collection", ref: "src/mongo/db/pipeline/document_source_index_stats.cpp, src/mongo/db/timeseries/timeseries_index_schema_conversion_functions.cpp (createTimeseriesIndexFromBucketsIndexSpec); jstests/core/timeseries/ddl/timeseries_index_stats.js",
			setup: append(append([]string{}, setup...), `{"createIndexes":"ts","indexes":[{"key":{"v":-1},"name":"v"}]}`,
				`{"createIndexes":"system.buckets.ts","indexes":[{"key":{"not_meta":1},"name":"raw"}]}`),
			cmd:  `{"aggregate":"ts","pipeline":[{"$indexStats":{}},{"$project":{"_id":0,"name":1,"key":1,"specKey":"$spec.key"}},{"$sort":{"name":1}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"name":"m_1_t_1","key":{"m":1,"t":1},"specKey":{"m":1,"t":1}},{"name":"v","key":{"v":-1},"specKey":{"v":-1}}],"id":{"$numberLong":"0"},"ns":"{{db}}.ts"}}`},
		{name: "listIndexes on a time-series collection leaves out an index made on its buckets", ref: "src/mongo/db/commands/list_indexes.cpp, src/mongo/db/timeseries/timeseries_index_schema_conversion_functions.cpp (createTimeseriesIndexesFromBucketsIndexes)",
			setup: append(append([]string{}, setup...), `{"createIndexes":"system.buckets.ts","indexes":[{"key":{"not_meta":1},"name":"raw"}]}`),
			cmd:   `{"listIndexes":"ts"}`,
			want:  `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"}]}}`},
		{name: "$indexStats on a buckets collection has no _id index", ref: "src/mongo/db/pipeline/document_source_index_stats.cpp (a clustered collection's catalog has no _id index)",
			setup: setup,
			cmd:   `{"aggregate":"system.buckets.ts","pipeline":[{"$indexStats":{}},{"$project":{"_id":0,"name":1}}],"cursor":{}}`,
			want:  `{"cursor":{"firstBatch":[{"name":"m_1_t_1"}],"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.ts"}}`},
		{name: "a sort on the metaField and its limit run on the buckets", ref: "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (doOptimizeAt moves a $sort on the metaField before the unpacking); jstests/core/timeseries/query/bucket_unpacking_with_limit.js",
			setup: setup,
			cmd:   `{"aggregate":"ts","pipeline":[{"$sort":{"m":-1}},{"$limit":5},{"$limit":1},{"$project":{"_id":1}}],"cursor":{}}`,
			want:  `{"cursor":{"firstBatch":[{"_id":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.ts"}}`},
		{name: "the explain of a sort on the metaField and its limit", ref: "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (doOptimizeAt); jstests/core/timeseries/query/bucket_unpacking_with_limit.js",
			setup: setup,
			cmd:   `{"explain":{"aggregate":"ts","pipeline":[{"$sort":{"m":-1}},{"$limit":5},{"$limit":2}],"cursor":{}},"verbosity":"queryPlanner"}`,
			want: `{"explainVersion":"1","stages":[{"$cursor":{"queryPlanner":{"namespace":"{{db}}.system.buckets.ts","parsedQuery":{},"indexFilterSet":false,"queryHash":"*","planCacheShapeHash":"*","planCacheKey":"*","optimizationTimeMillis":0,"maxIndexedOrSolutionsReached":false,"maxIndexedAndSolutionsReached":false,"maxScansToExplodeReached":false,"prunedSimilarIndexes":false,` +
				`"winningPlan":{"isCached":false,"stage":"LIMIT","limitAmount":2,"inputStage":{"stage":"FETCH","inputStage":{"stage":"IXSCAN","keyPattern":{"meta":1,"control.min.t":1,"control.max.t":1},"indexName":"m_1_t_1",` +
				`"isMultiKey":false,"multiKeyPaths":{"meta":[],"control.min.t":[],"control.max.t":[]},"isUnique":false,"isSparse":false,"isPartial":false,"indexVersion":2,"direction":"backward",` +
				`"indexBounds":{"meta":["[MaxKey, MinKey]"],"control.min.t":["[MaxKey, MinKey]"],"control.max.t":["[MaxKey, MinKey]"]}}}},"rejectedPlans":[]}}},` +
				`{"$_internalUnpackBucket":{"exclude":[],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true}},{"$limit":{"$numberLong":"2"}}]}`},
		{name: "$graphLookup from a time-series collection", ref: tsRef, docs: `[{"_id":0,"start":1}]`, setup: setup,
			cmd:  `{"aggregate":"c","pipeline":[{"$graphLookup":{"from":"ts","startWith":"$start","connectFromField":"v","connectToField":"_id","as":"g"}},{"$project":{"n":{"$size":"$g"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":0,"n":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
	})
}
