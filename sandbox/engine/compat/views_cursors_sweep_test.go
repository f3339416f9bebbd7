package compat_test

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A sweep of views and cursors against mongod 8.0: the find options a
// view's aggregation cannot carry, count and distinct over a view, the
// view definition's IDL, and the cursor options of find, aggregate,
// getMore and killCursors.
const (
	sweepViewFindRef     = "src/mongo/db/query/query_request_conversion.cpp (asAggregateCommandRequest), src/mongo/db/commands/find_cmd.cpp; jstests/core/views/views_find.js"
	sweepViewCountRef    = "src/mongo/db/query/count_command_as_aggregation_command.cpp, src/mongo/db/commands/count_cmd.cpp; jstests/core/views/views_count.js"
	sweepViewDistinctRef = "src/mongo/db/query/parsed_distinct.cpp (asAggregationCommand), src/mongo/db/commands/distinct.cpp; jstests/core/views/views_distinct.js"
	sweepViewIDLRef      = "src/mongo/db/commands/create.idl, src/mongo/db/coll_mod.idl, src/mongo/db/commands/create_command_validation.cpp (validateViewOnNotEmpty); jstests/core/views/views_creation.js"
	sweepViewRenameRef   = "src/mongo/db/catalog/rename_collection.cpp; jstests/core/views/views_rename.js"
	sweepViewWriteRef    = "src/mongo/db/ops/insert.cpp (userAllowedWriteNS); jstests/core/views/invalid_system_views.js"
	sweepGetMoreRef      = "src/mongo/db/query/getmore_command.idl, src/mongo/db/commands/getmore_cmd.cpp; jstests/core/query/find/find_getmore_cmd.js"
	sweepAggCursorRef    = "src/mongo/db/pipeline/aggregate_command.idl, src/mongo/db/query/cursor_request.idl (SimpleCursorOptions), src/mongo/db/commands/run_aggregate.cpp"
)

func TestViewsCursorsSweep(t *testing.T) {
	const docs = `[{"_id":1,"a":1,"s":"x"},{"_id":2,"a":2,"s":"y"},{"_id":3,"a":3,"s":"x"},{"_id":4,"a":4}]`
	view := `{"create":"v","viewOn":"c","pipeline":[{"$match":{"a":{"$gte":2}}}]}`
	runCmdCases(t, []cmdCase{
		// find on a view: the options asAggregateCommandRequest carries
		// over, and those it refuses.
		{name: "find on a view with let", ref: sweepViewFindRef, docs: docs, setup: []string{view},
			cmd: `{"find":"v","filter":{"$expr":{"$eq":["$a","$$x"]}},"let":{"x":3}}`, want: `{"cursor":{"firstBatch":[{"_id":3,"a":3,"s":"x"}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with batchSize 1", ref: sweepViewFindRef, docs: docs, setup: []string{view},
			cmd: `{"find":"v","batchSize":1}`, want: `{"cursor":{"firstBatch":[{"_id":2,"a":2,"s":"y"}],"id":"*","ns":"{{db}}.v"}}`},
		{name: "find on a view with sort, skip and limit 1", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","sort":{"a":-1},"limit":1,"skip":1}`,
			want: `{"cursor":{"firstBatch":[{"_id":3,"a":3,"s":"x"}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with a $natural hint", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","hint":{"$natural":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":2,"s":"y"},{"_id":3,"a":3,"s":"x"},{"_id":4,"a":4}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},
		{name: "find on a view with min", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","min":{"a":1},"hint":{"a":1}}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option min not supported in aggregation."},
		{name: "find on a view with tailable", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","tailable":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Tailable cursors are not supported in aggregation."},
		{name: "find on a view with returnKey", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","returnKey":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option returnKey not supported in aggregation."},
		{name: "find on a view with showRecordId", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","showRecordId":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option showRecordId not supported in aggregation."},
		{name: "find on a view with allowPartialResults", ref: sweepViewFindRef, docs: docs, setup: []string{view}, cmd: `{"find":"v","allowPartialResults":true}`,
			code: mongoerr.InvalidPipelineOperator, msg: "Option allowPartialResults not supported in aggregation."},

		// count and distinct on a view
		{name: "count on a view matching nothing", ref: sweepViewCountRef, docs: docs, setup: []string{view}, cmd: `{"count":"v","query":{"a":99}}`, want: `{"n":0}`},
		{name: "count on a view with a negative limit", ref: sweepViewCountRef, docs: docs, setup: []string{view}, cmd: `{"count":"v","limit":-1}`, want: `{"n":1}`},
		{name: "explain count on a view counts into a field named count", ref: sweepViewCountRef + " (countCommandAsAggregationCommand ends the pipeline with {$count: \"count\"})", docs: docs, setup: []string{view},
			cmd:  `{"explain":{"count":"v","query":{"a":3}},"verbosity":"queryPlanner"}`,
			want: `{"explainVersion":"1","stages":[{"$cursor":"*"},{"$group":{"_id":{"$const":null},"count":{"$sum":{"$const":1}}}},{"$project":{"_id":false,"count":true}}]}`},
		{name: "count on a view of a missing collection", ref: sweepViewCountRef, setup: []string{`{"create":"v","viewOn":"none"}`}, cmd: `{"count":"v"}`, want: `{"n":0}`},
		{name: "distinct on a view through arrays", ref: sweepViewDistinctRef, docs: `[{"_id":1,"a":[1,[2]]},{"_id":2,"a":{"b":[3,4]}},{"_id":3,"a":[{"b":5},{"b":[6]}]}]`, setup: []string{`{"create":"v","viewOn":"c"}`},
			cmd: `{"distinct":"v","key":"a.b"}`, want: `{"values":[3,4,5,6]}`},
		{name: "distinct on a view of a missing collection", ref: sweepViewDistinctRef, setup: []string{`{"create":"v","viewOn":"none"}`}, cmd: `{"distinct":"v","key":"a"}`, want: `{"values":[]}`},

		// the view definition's IDL
		{name: "create a view with an empty viewOn", ref: sweepViewIDLRef, cmd: `{"create":"v","viewOn":""}`, code: mongoerr.BadValue, msg: "'viewOn' cannot be empty"},
		{name: "create a view whose pipeline holds a number", ref: sweepViewIDLRef, cmd: `{"create":"v","viewOn":"c","pipeline":[{"$match":{}},1]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.pipeline.1' is the wrong type 'int', expected type 'object'"},
		{name: "create with a pipeline of a string and no viewOn", ref: sweepViewIDLRef, cmd: `{"create":"v","pipeline":["x"]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.pipeline.0' is the wrong type 'string', expected type 'object'"},
		{name: "create a view with $out inside $lookup", ref: sweepViewIDLRef, cmd: `{"create":"v","viewOn":"c","pipeline":[{"$lookup":{"from":"o","pipeline":[{"$out":"x"}],"as":"r"}}]}`, code: 51047},
		{name: "create a view with $out inside $facet", ref: sweepViewIDLRef, cmd: `{"create":"v","viewOn":"c","pipeline":[{"$facet":{"f":[{"$out":"x"}]}}]}`, code: 40600},
		{name: "create a view named system.local.new", ref: sweepViewIDLRef, cmd: `{"create":"system.local.new","viewOn":"c"}`, code: mongoerr.InvalidNamespace},
		{name: "collMod a view to an empty viewOn", ref: sweepViewIDLRef, setup: []string{view}, cmd: `{"collMod":"v","viewOn":""}`, code: mongoerr.BadValue, msg: "'viewOn' cannot be empty"},
		{name: "collMod a view's pipeline to hold a string", ref: sweepViewIDLRef, setup: []string{view}, cmd: `{"collMod":"v","pipeline":["x"]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.pipeline.0' is the wrong type 'string', expected type 'object'"},
		{name: "collMod a collection with a numeric viewOn", ref: sweepViewIDLRef, docs: docs, cmd: `{"collMod":"c","viewOn":1}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.viewOn' is the wrong type 'int', expected type 'string'"},
		{name: "collMod a view's pipeline alone", ref: viewsCollModRef, docs: docs, setup: []string{view}, cmd: `{"collMod":"v","pipeline":[{"$match":{"a":4}}]}`, want: `{}`,
			thenFind: `{"find":"v"}`, thenWant: `[{"_id":4,"a":4}]`},
		{name: "collMod a view with nothing to change", ref: viewsCollModRef, setup: []string{view}, cmd: `{"collMod":"v"}`, want: `{}`},
		{name: "collMod an index of a view", ref: viewsCollModRef + " (parseCollModRequest)", setup: []string{view}, cmd: `{"collMod":"v","index":{"name":"x","hidden":true}}`,
			code: mongoerr.InvalidOptions, msg: "option not supported on a view: index"},

		// listing, renaming, writing
		{name: "listCollections nameOnly lists a view's type", ref: "src/mongo/db/commands/list_collections.cpp (buildViewBson)", docs: docs, setup: []string{view},
			cmd:  `{"listCollections":1,"nameOnly":true,"filter":{"type":"view"}}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"v","type":"view"}]}}`},
		{name: "renameCollection of a view", ref: sweepViewRenameRef, admin: true, docs: docs, setup: []string{view}, cmd: `{"renameCollection":"{{db}}.v","to":"{{db}}.w"}`,
			code: mongoerr.CommandNotSupportedOnView},
		{name: "renameCollection onto a view", ref: sweepViewRenameRef, admin: true, docs: docs, setup: []string{view}, cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.v","dropTarget":true}`,
			code: mongoerr.NamespaceExists, msg: "a view already exists with that name: {{db}}.v"},
		{name: "insert into system.views", ref: sweepViewWriteRef, cmd: `{"insert":"system.views","documents":[{"_id":"x.y","viewOn":"c","pipeline":[]}]}`,
			code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.views"},
		{name: "$out of a view's documents", ref: viewsReadRef, docs: docs, setup: []string{view}, cmd: `{"aggregate":"v","pipeline":[{"$out":"o"}],"cursor":{}}`,
			want:     `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`,
			thenFind: `{"find":"o"}`, thenWant: `[{"_id":2,"a":2,"s":"y"},{"_id":3,"a":3,"s":"x"},{"_id":4,"a":4}]`},
		{name: "$out into a view", ref: viewsRefuseRef, docs: docs, setup: []string{view}, cmd: `{"aggregate":"c","pipeline":[{"$out":"v"}],"cursor":{}}`, code: mongoerr.CommandNotSupportedOnView},
		{name: "$merge into a view", ref: viewsRefuseRef, docs: docs, setup: []string{view}, cmd: `{"aggregate":"c","pipeline":[{"$merge":{"into":"v"}}],"cursor":{}}`, code: mongoerr.CommandNotSupportedOnView},

		// commands that need the collection's storage
		{name: "validate a view", ref: "src/mongo/db/catalog/validate_state.cpp; jstests/core/views/views_all_commands.js (validate)", setup: []string{view},
			cmd: `{"validate":"v"}`, code: mongoerr.CommandNotSupportedOnView, msg: "Cannot validate a view"},
		{name: "collStats of a view", ref: "src/mongo/db/stats/storage_stats.cpp (appendCollectionStorageStats), src/mongo/db/db_raii.cpp", setup: []string{view},
			cmd: `{"collStats":"v"}`, code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "dataSize of a view", ref: "src/mongo/db/commands/dbcommands.cpp (CmdDatasize), src/mongo/db/db_raii.cpp; jstests/core/views/views_all_commands.js (dataSize)", setup: []string{view},
			cmd: `{"dataSize":"{{db}}.v"}`, code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},

		// only $collStats reads the view itself; $indexStats is resolved
		{name: "$indexStats on a view with a pipeline", ref: "src/mongo/db/commands/run_aggregate.cpp (runAggregate resolves a view unless the pipeline starts with $collStats), src/mongo/db/pipeline/pipeline.cpp (validateCommon)",
			setup: []string{view}, cmd: `{"aggregate":"v","pipeline":[{"$indexStats":{}}],"cursor":{}}`,
			code: 40602, msg: "$indexStats is only valid as the first stage in a pipeline"},
		{name: "$indexStats on a view without a pipeline", ref: "src/mongo/db/commands/run_aggregate.cpp (runAggregate resolves a view unless the pipeline starts with $collStats)",
			docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`, `{"create":"v","viewOn":"c"}`},
			cmd:  `{"aggregate":"v","pipeline":[{"$indexStats":{}},{"$project":{"name":1,"_id":0}},{"$sort":{"name":1}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"name":"_id_"},{"name":"a_1"}],"id":{"$numberLong":"0"},"ns":"{{db}}.v"}}`},

		// explain of a write acquires a collection
		{name: "explain an update of a view", ref: viewsRefuseRef + "; src/mongo/db/commands/write_commands.cpp (CmdUpdate explain)", setup: []string{view},
			cmd: `{"explain":{"update":"v","updates":[{"q":{},"u":{"$set":{"x":1}}}]}}`, code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "explain a delete from a view", ref: viewsRefuseRef + "; src/mongo/db/commands/write_commands.cpp (CmdDelete explain)", setup: []string{view},
			cmd: `{"explain":{"delete":"v","deletes":[{"q":{},"limit":1}]},"verbosity":"queryPlanner"}`, code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},
		{name: "explain a findAndModify of a view", ref: viewsRefuseRef + "; src/mongo/db/commands/find_and_modify.cpp (explain)", setup: []string{view},
			cmd: `{"explain":{"findAndModify":"v","query":{},"remove":true}}`, code: mongoerr.CommandNotSupportedOnView, msg: "Namespace {{db}}.v is a view, not a collection"},

		// cursor options
		{name: "aggregate with a negative batchSize", ref: sweepAggCursorRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[],"cursor":{"batchSize":-1}}`,
			code: 51024, msg: "BSON field 'batchSize' value must be >= 0, actual value '-1'"},
		{name: "aggregate without cursor", ref: sweepAggCursorRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[]}`,
			code: mongoerr.FailedToParse, msg: "The 'cursor' option is required, except for aggregate with the explain argument"},
		{name: "aggregate with an unknown cursor option", ref: sweepAggCursorRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[],"cursor":{"foo":1}}`, code: mongoerr.IDLUnknownField},
		{name: "find with a batchSize above every count", ref: findCmdRef, docs: docs, cmd: `{"find":"c","batchSize":{"$numberLong":"10000000000"},"projection":{"_id":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1},{"_id":2},{"_id":3},{"_id":4}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find batchSize 0 on a missing collection", ref: findCmdRef, cmd: `{"find":"nothere","batchSize":0}`,
			want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.nothere"}}`},
		{name: "getMore of cursor id 0", ref: sweepGetMoreRef, cmd: `{"getMore":{"$numberLong":"0"},"collection":"c"}`, code: mongoerr.CursorNotFound, msg: "cursor id 0 not found"},
	})
}

// killCursors finds a cursor by its id alone: the collection the command
// names is not compared with the cursor's (KillCursorsCmd::doKillCursor,
// CursorManager::killCursor), so a view's name kills a cursor of its
// collection, and the cursor is then gone.
func TestKillCursorsByIDAlone(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "killCursors naming another collection", "src/mongo/db/commands/query_cmd/killcursors_cmd.cpp, src/mongo/db/query/client_cursor/cursor_manager.cpp (killCursor); jstests/core/query/kill_cursors.js",
		cover{family: commandFam, op: "killCursors", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2},{"_id":3}]`)
			first := mustCommand(t, db, `{"find":"c","batchSize":1}`)
			id := field(field(first, "cursor").(bson.D), "id").(int64)
			killed, err := command(t, db, bson.D{{Key: "killCursors", Value: "other"}, {Key: "cursors", Value: bson.A{id, int64(123)}}})
			if err != nil {
				t.Fatal(err)
			}
			sameFields(t, "killCursors", killed, bson.D{{Key: "cursorsKilled", Value: bson.A{id}}, {Key: "cursorsNotFound", Value: bson.A{int64(123)}},
				{Key: "cursorsAlive", Value: bson.A{}}, {Key: "cursorsUnknown", Value: bson.A{}}})
			var out bson.D
			gone := db.RunCommand(context.Background(), bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}}).Decode(&out)
			sameError(t, "getMore of the killed cursor", serverError(t, nil, gone), mongoerr.CursorNotFound, "")
		})
}

// A getMore without a comment runs with the comment of the command that
// opened its cursor, and its profile entry shows it in the command; one
// with its own comment keeps it.
func TestGetMoreInheritsComment(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "getMore's profile entry carries the cursor's comment", "src/mongo/db/commands/getmore_cmd.cpp (setUpOperationContextStateForGetMore), src/mongo/db/curop.cpp (appendCommentField); jstests/core/profile_getmore.js",
		cover{family: commandFam, op: "getMore", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2},{"_id":3}]`)
			mustCommand(t, db, `{"profile":2}`)
			first := mustCommand(t, db, `{"find":"c","batchSize":1,"comment":"opened"}`)
			id := field(field(first, "cursor").(bson.D), "id").(int64)
			for _, own := range []bson.D{nil, {{Key: "comment", Value: "mine"}}} {
				cmd := append(bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}, {Key: "batchSize", Value: int32(1)}}, own...)
				if err := db.RunCommand(context.Background(), cmd).Err(); err != nil {
					t.Fatal(err)
				}
			}
			mustCommand(t, db, `{"profile":0}`)
			docs, err := cursorDocs(t, db, ejDoc(t, `{"find":"system.profile","filter":{"op":"getmore"},"projection":{"_id":0,"command.comment":1}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "getMore entries", docs, `[{"command":{"comment":"opened"}},{"command":{"comment":"mine"}}]`, false)
		})
}
