package compat_test

import (
	"strings"
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The CRUD commands' sweep: their options and replies (semantics) and
// the requests mongod refuses (errors), from each command's IDL
// (src/mongo/db/query/find_command.idl, src/mongo/db/ops/write_ops.idl,
// src/mongo/db/query/count_command.idl, distinct_command.idl,
// src/mongo/db/pipeline/aggregate_command.idl, src/mongo/db/query/
// getmore_command.idl, kill_cursors.idl), its command file
// (src/mongo/db/commands/find_cmd.cpp, write_commands.cpp,
// find_and_modify.cpp, count_cmd.cpp, distinct.cpp) and the manual's
// command pages.

const (
	findCmdRef     = "src/mongo/db/query/find_command.idl, src/mongo/db/commands/find_cmd.cpp; manual: reference/command/find"
	writeCmdRef    = "src/mongo/db/ops/write_ops.idl, src/mongo/db/commands/write_commands.cpp, src/mongo/db/ops/write_ops_exec.cpp; manual: reference/command/insert, command/update, command/delete"
	letRef         = "src/mongo/db/pipeline/variables.cpp (Variables::seedVariablesWithLetParameters); manual: reference/command/find (let)"
	famRef         = "src/mongo/db/commands/find_and_modify.cpp, src/mongo/db/query/find_and_modify_command.idl; manual: reference/command/findAndModify"
	countRef       = "src/mongo/db/query/count_command.idl, src/mongo/db/commands/count_cmd.cpp; manual: reference/command/count"
	distinctRef    = "src/mongo/db/query/distinct_command.idl, src/mongo/db/commands/distinct.cpp, src/mongo/bson/dotted_path_support.cpp (extractAllElementsAlongPath); manual: reference/command/distinct"
	aggregateRef   = "src/mongo/db/pipeline/aggregate_command.idl, src/mongo/db/commands/run_aggregate.cpp; manual: reference/command/aggregate"
	cursorCmdRef   = "src/mongo/db/query/getmore_command.idl, src/mongo/db/query/kill_cursors.idl; manual: reference/command/getMore, command/killCursors"
	writeConcernRf = "src/mongo/db/write_concern.cpp (validateWriteConcern); manual: reference/write-concern"
)

// tsHintDocs are one measurement per bucket, each bucket's minimum time
// (its _id's leading bytes) in _id order.
const systemViewsWriteRef = "src/mongo/db/catalog/document_validation.cpp (userAllowedWriteNS); jstests/core/disallow_system_views_user_writes.js"

const tsHintDocs = `{"insert":"c","documents":[{"_id":1,"m":1,"t":{"$date":"1970-01-01T00:00:00Z"}},{"_id":2,"m":2,"t":{"$date":"1970-01-02T00:00:00Z"}},{"_id":3,"m":3,"t":{"$date":"1970-01-03T00:00:00Z"}}]}`

// upsertSuppliedRef is where mongod checks and applies upsertSupplied.
const naturalRef = "src/mongo/db/query/query_request_helper.cpp (validateFindCommandRequest, hasInvalidNaturalParam), " +
	"src/mongo/db/query/parsed_find_command.cpp (validateAndGetAvailableMetadata); jstests/core/query/natural_validation.js, jstests/core/query/sort/natural.js"

const upsertSuppliedRef = "src/mongo/db/ops/parsed_update.cpp (ParsedUpdateBase::parseRequest), src/mongo/db/exec/update_stage.cpp (generateNewDocumentFromSuppliedDoc); jstests/core/write/update/update_with_pipeline.js"

func TestCRUDCommands(t *testing.T) {
	docs := `[{"_id":1,"a":1,"t":["x","y"]},{"_id":2,"a":2,"t":["y"]},{"_id":3,"a":3}]`
	runCmdCases(t, []cmdCase{
		// insert
		{name: "insert generates _id and counts", ref: writeCmdRef, cmd: `{"insert":"c","documents":[{"a":1},{"_id":7}]}`, want: `{"n":2}`,
			thenFind: `{"find":"c","filter":{"_id":7}}`, thenWant: `[{"_id":7}]`},
		{name: "insert ordered:false goes past a duplicate", ref: writeCmdRef, docs: docs, cmd: `{"insert":"c","documents":[{"_id":1},{"_id":8},{"_id":2},{"_id":9}],"ordered":false}`,
			want: `{"n":2,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"_id":1},"keyValue":{"_id":1},"errmsg":"E11000 duplicate key error collection: {{db}}.c index: _id_ dup key: { _id: 1 }"},{"index":2,"code":11000,"keyPattern":{"_id":1},"keyValue":{"_id":2},"errmsg":"E11000 duplicate key error collection: {{db}}.c index: _id_ dup key: { _id: 2 }"}]}`},
		{name: "insert ordered stops at a duplicate", ref: writeCmdRef, docs: docs, cmd: `{"insert":"c","documents":[{"_id":8},{"_id":1},{"_id":9}]}`,
			want: `{"n":1}`, thenFind: `{"find":"c","filter":{"_id":{"$gt":7}}}`, thenWant: `[{"_id":8}]`},
		{name: "insert a top-level $ field", ref: "manual: core/dot-dollar-considerations", cmd: `{"insert":"c","documents":[{"_id":1,"$p":1}]}`, want: `{"n":1}`},
		{name: "insert an array _id", ref: writeCmdRef, cmd: `{"insert":"c","documents":[{"_id":[1]}]}`, writeError: true, code: mongoerr.InvalidIdField, msg: "The '_id' value cannot be of type array"},
		// performInserts makes the collection only for a batch it inserts:
		// documents all refused by fixDocumentForInsert leave none behind
		// (jstests/core/write/insert/insert1.js).
		{name: "insert of a refused _id creates no collection", ref: writeCmdRef + "; jstests/core/write/insert/insert1.js", cmd: `{"insert":"c","documents":[{"_id":{"$regularExpression":{"pattern":"x","options":""}}}]}`,
			writeError: true, code: mongoerr.InvalidIdField, msg: "The '_id' value cannot be of type regex",
			thenFind: `{"listCollections":1,"filter":{"name":"c"},"nameOnly":true}`, thenWant: `{"cursor":{"id":"*","ns":"*","firstBatch":[]}}`},
		{name: "insert ordered:false of a refused and a valid _id creates the collection", ref: writeCmdRef, cmd: `{"insert":"c","documents":[{"_id":[1]},{"_id":1}],"ordered":false}`,
			want:     `{"n":1,"writeErrors":[{"index":0,"code":53,"errmsg":"The '_id' value cannot be of type array"}]}`,
			thenFind: `{"listCollections":1,"filter":{"name":"c"},"nameOnly":true}`, thenWant: `{"cursor":{"id":"*","ns":"*","firstBatch":[{"name":"c","type":"collection"}]}}`},
		{name: "insert without documents", ref: writeCmdRef, cmd: `{"insert":"c"}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'insert.documents' is missing but a required field"},
		{name: "insert of no documents", ref: writeCmdRef, cmd: `{"insert":"c","documents":[]}`, code: mongoerr.InvalidLength, msg: "Write batch sizes must be between 1 and 100000. Got 0 operations."},
		{name: "insert of a number", ref: writeCmdRef, cmd: `{"insert":"c","documents":[1]}`, code: mongoerr.TypeMismatch, msg: "BSON field 'insert.documents.0' is the wrong type 'int', expected type 'object'"},
		{name: "insert into system.profile", ref: bulkWriteAuthRef, cmd: `{"insert":"system.profile","documents":[{"a":1}]}`, code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.profile"},
		// jstests/core/disallow_system_views_user_writes.js (fcv 4.7+):
		// userAllowedWriteNS refuses every user write to system.views.
		{name: "insert into system.views", ref: systemViewsWriteRef, setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd: `{"insert":"system.views","documents":[{"_id":"{{db}}.w","viewOn":"c","pipeline":[]}]}`, code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.views"},
		{name: "update of system.views", ref: systemViewsWriteRef, setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd: `{"update":"system.views","updates":[{"q":{},"u":{"invalidField":true}}]}`, code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.views"},
		{name: "findAndModify of system.views", ref: systemViewsWriteRef, setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd: `{"findAndModify":"system.views","query":{},"update":{"invalidField":true}}`, code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.views"},
		{name: "delete from system.views", ref: systemViewsWriteRef, setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd: `{"delete":"system.views","deletes":[{"q":{},"limit":0}]}`, code: mongoerr.InvalidNamespace, msg: "cannot write to {{db}}.system.views",
			thenFind: `{"find":"system.views","projection":{"_id":1}}`, thenWant: `[{"_id":"{{db}}.v"}]`},
		{name: "insert with w: 2 on a standalone", ref: writeConcernRf, cmd: `{"insert":"c","documents":[{"a":1}],"writeConcern":{"w":2}}`, code: mongoerr.BadValue, msg: "cannot use 'w' > 1 when a host is not replicated"},
		{name: "delete with a tag-set w on a standalone", ref: writeConcernRf, cmd: `{"delete":"c","deletes":[{"q":{},"limit":0}],"writeConcern":{"w":"dc"}}`, code: mongoerr.BadValue,
			msg: "cannot use non-majority 'w' mode dc when a host is not a member of a replica set"},
		{name: "insert with w: majority on a standalone", ref: writeConcernRf, cov: cover{family: commandFam, op: "insert", col: semantics}, cmd: `{"insert":"c","documents":[{"_id":1}],"writeConcern":{"w":"majority"}}`, want: `{"n":1}`},

		// update
		{name: "update several statements", ref: writeCmdRef, docs: docs, cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"a":10}}},{"q":{"a":{"$gt":1}},"u":{"$inc":{"a":1}},"multi":true},{"q":{"_id":5},"u":{"$set":{"a":5}},"upsert":true}]}`,
			want: `{"n":5,"upserted":[{"index":2,"_id":5}],"nModified":4}`},
		{name: "update with let", ref: writeCmdRef, docs: docs, cmd: `{"update":"c","updates":[{"q":{"$expr":{"$eq":["$a","$$v"]}},"u":[{"$set":{"b":"$$v"}}]}],"let":{"v":2}}`,
			want: `{"n":1,"nModified":1}`, thenFind: `{"find":"c","filter":{"_id":2}}`, thenWant: `[{"_id":2,"a":2,"t":["y"],"b":2}]`},
		{name: "update with a hint", ref: writeCmdRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"update":"c","updates":[{"q":{"a":1},"u":{"$set":{"h":1}},"hint":"a_1"}]}`, want: `{"n":1,"nModified":1}`},
		{name: "updateOne with sort picks the first in order", ref: "manual: reference/command/update (sort)", docs: docs,
			cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"hit":true}},"sort":{"a":-1}}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c","filter":{"hit":true},"projection":{"_id":1}}`, thenWant: `[{"_id":3}]`},
		{name: "update a hint that is a number", ref: "src/mongo/db/query/index_hint.cpp", docs: docs, cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"h":1}},"hint":1}]}`,
			code: mongoerr.FailedToParse, msg: "Hint must be a string or an object"},
		{name: "update an unknown statement field", ref: writeCmdRef, cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"h":1}},"x":1}]}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'update.updates.x' is an unknown field."},
		{name: "update statement with a generic argument's name", ref: writeCmdRef + " (UpdateOpEntry is a strict struct: generic arguments belong to the command)",
			cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"a":1}},"comment":"x"}]}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'update.updates.comment' is an unknown field."},
		{name: "update without u", ref: writeCmdRef, cmd: `{"update":"c","updates":[{"q":{}}]}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'update.updates.u' is missing but a required field"},
		{name: "update with u a number", ref: writeCmdRef, cmd: `{"update":"c","updates":[{"q":{},"u":1}]}`, code: mongoerr.FailedToParse, msg: "Update argument must be either an object or an array"},
		{name: "update constants with an operator update", ref: "src/mongo/db/update/update_driver.cpp (UpdateDriver::parse)", cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"a":1}},"c":{"x":1}}]}`,
			writeError: true, code: 51198, msg: "Constant values may only be specified for pipeline updates"},
		// ParsedUpdateBase::parseRequest (parsed_update.cpp);
		// jstests/core/write/update/update_with_pipeline.js.
		{name: "upsertSupplied inserts the supplied document, _id from the query", ref: upsertSuppliedRef,
			cmd:  `{"update":"c","updates":[{"q":{"_id":"s"},"u":[{"$set":{"x":1}}],"upsert":true,"upsertSupplied":true,"c":{"new":{"supplied":true}}}]}`,
			want: `{"n":1,"upserted":[{"index":0,"_id":"s"}],"nModified":0}`, thenFind: `{"find":"c"}`, thenWant: `[{"_id":"s","supplied":true}]`},
		{name: "upsertSupplied updates a match with the pipeline", ref: upsertSuppliedRef, docs: `[{"_id":"s"}]`,
			cmd:  `{"update":"c","updates":[{"q":{"_id":"s"},"u":[{"$set":{"x":1}}],"upsert":true,"upsertSupplied":true,"c":{"new":{"supplied":true}}}]}`,
			want: `{"n":1,"nModified":1}`, thenFind: `{"find":"c"}`, thenWant: `[{"_id":"s","x":1}]`},
		{name: "upsertSupplied without upsert", ref: upsertSuppliedRef,
			cmd:        `{"update":"c","updates":[{"q":{"_id":"s"},"u":[{"$set":{"x":1}}],"upsertSupplied":true,"c":{"new":{"supplied":true}}}]}`,
			writeError: true, code: mongoerr.FailedToParse, msg: "cannot specify 'upsertSupplied: true' for a non-upsert operation"},
		{name: "upsertSupplied without constants", ref: upsertSuppliedRef,
			cmd:        `{"update":"c","updates":[{"q":{"_id":"s"},"u":[{"$set":{"x":1}}],"upsert":true,"upsertSupplied":true}]}`,
			writeError: true, code: mongoerr.FailedToParse, msg: "the parameter 'upsertSupplied' is set to 'true', but no document was supplied"},
		{name: "upsertSupplied whose new is no document", ref: upsertSuppliedRef,
			cmd:        `{"update":"c","updates":[{"q":{"_id":"s"},"u":[{"$set":{"x":1}}],"upsert":true,"upsertSupplied":true,"c":{"new":"string"}}]}`,
			writeError: true, code: mongoerr.FailedToParse, msg: "the parameter 'upsertSupplied' is set to 'true', but no document was supplied"},
		{name: "update a pipeline stage that is no document", ref: "src/mongo/db/ops/write_ops_parsers.cpp (parsePipelineFromBSON)", cmd: `{"update":"c","updates":[{"q":{},"u":[{"$set":{"a":1}},1]}]}`,
			code: mongoerr.TypeMismatch, msg: "Each element of the 'pipeline' array must be an object"},
		{name: "aggregate a stage that is no document, without a cursor", ref: "src/mongo/db/pipeline/aggregation_request_helper.cpp (parsePipelineFromBSON runs in the IDL parse, before validate's cursor check); jstests/aggregation/bugs/server25590.js",
			cmd: `{"aggregate":"c","pipeline":[1,null]}`, code: mongoerr.TypeMismatch, msg: "Each element of the 'pipeline' array must be an object"},
		// find's min and max (query_request_helper.cpp, then QueryPlanner::plan
		// in query_planner.cpp, in that order); jstests/core/query/
		// update_affects_indexes.js and min_max_bounds.js use them with a hint.
		{name: "find min and max name different fields", ref: "src/mongo/db/query/query_request_helper.cpp (51176)", docs: `[{"_id":1,"a":1}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"find":"c","min":{"a":1},"max":{"b":2},"hint":{"a":1}}`, code: mongoerr.ErrMinMaxFieldNames, msg: "min and max must have the same field names"},
		{name: "find min without a hint", ref: "src/mongo/db/query/query_planner.cpp (51173)", docs: `[{"_id":1,"a":1}]`,
			cmd: `{"find":"c","min":{"a":1}}`, code: mongoerr.ErrMinMaxNoHint,
			msg: "error processing query: ns={{db}}.cTree: $and\nSort: {}\nProj: {}\n planner returned error :: caused by :: When using min()/max() a hint of which index to use must be provided"},
		// get_executor.cpp puts CanonicalQuery::toString in front of a
		// planner's error: "ns=app.users limit=51Tree: $and\nSort: {}..." as
		// drivers report it for a bad hint.
		{name: "find with a hint to no index names the query", ref: "src/mongo/db/query/get_executor.cpp (error processing query ... planner returned error)", docs: `[{"_id":1,"a":1}]`,
			cmd: `{"find":"c","limit":5,"hint":{"nope":1}}`, code: mongoerr.BadValue,
			msg: "error processing query: ns={{db}}.c limit=5Tree: $and\nSort: {}\nProj: {}\n planner returned error :: caused by :: hint provided does not correspond to an existing index"},
		{name: "find max with $natural", ref: "src/mongo/db/query/query_planner.cpp (min and max are incompatible with $natural)", docs: `[{"_id":1,"a":1}]`,
			cmd: `{"find":"c","max":{"a":1},"hint":{"$natural":1}}`, code: mongoerr.NoQueryExecutionPlans},
		// $natural in a sort or hint: validateFindCommandRequest (hasInvalidNaturalParam) and
		// validateAndGetAvailableMetadata, run as every query's canonical query is parsed.
		{name: "find sort $natural other than ±1", ref: naturalRef, docs: `[{"_id":1}]`,
			cmd: `{"find":"c","sort":{"$natural":2}}`, code: mongoerr.BadValue, msg: "$natural sort cannot be set to a value other than -1 or 1."},
		{name: "find sort $natural beside another field", ref: naturalRef, docs: `[{"_id":1}]`,
			cmd: `{"find":"c","sort":{"a":1,"$natural":1}}`, code: mongoerr.BadValue, msg: "$natural sort cannot be set to a value other than -1 or 1."},
		{name: "find hint $natural a string", ref: naturalRef, docs: `[{"_id":1}]`,
			cmd: `{"find":"c","hint":{"$natural":"1"}}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1."},
		{name: "find sort $natural with an index hint", ref: naturalRef, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"find":"c","sort":{"$natural":1},"hint":{"a":1}}`, code: mongoerr.BadValue, msg: "index hint not allowed with $natural sort order"},
		{name: "find sort and hint $natural in opposite directions", ref: naturalRef, docs: `[{"_id":1}]`,
			cmd: `{"find":"c","sort":{"$natural":1},"hint":{"$natural":-1}}`, code: mongoerr.BadValue, msg: "$natural hint must be in the same direction as $natural sort order"},
		{name: "find sort $natural as a decimal -1", ref: naturalRef, docs: `[{"_id":1},{"_id":2}]`,
			cmd: `{"find":"c","sort":{"$natural":{"$numberDecimal":"-1"}}}`, want: `{"cursor":{"firstBatch":[{"_id":2},{"_id":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "count hint $natural 0", ref: naturalRef, cov: cover{family: commandFam, op: "count", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"count":"c","hint":{"$natural":0}}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1."},
		{name: "aggregate hint $natural NaN", ref: naturalRef, cov: cover{family: commandFam, op: "aggregate", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"aggregate":"c","pipeline":[],"cursor":{},"hint":{"$natural":{"$numberDouble":"NaN"}}}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1."},
		{name: "update hint $natural 1.1", ref: naturalRef, cov: cover{family: commandFam, op: "update", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"update":"c","updates":[{"q":{},"u":{"x":1},"hint":{"$natural":1.1}}]}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1.", writeError: true},
		{name: "delete hint $natural in a compound hint", ref: naturalRef, cov: cover{family: commandFam, op: "delete", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"delete":"c","deletes":[{"q":{},"limit":1,"hint":{"a":1,"$natural":1}}]}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1.", writeError: true},
		// The explain of a findAndModify parses the command as the command
		// does (FindAndModifyCommandRequest) and compiles its projection
		// before it plans.
		{name: "explain of a findAndModify whose fields is a string", ref: famRef, cov: cover{family: commandFam, op: "explain", col: errorCol}, docs: `[{"_id":1}]`,
			cmd:  `{"explain":{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"x":1}},"fields":"a"}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'findAndModify.fields' is the wrong type 'string', expected type 'object'"},
		{name: "explain of a findAndModify with an unknown field", ref: famRef, cov: cover{family: commandFam, op: "explain", col: errorCol}, docs: `[{"_id":1}]`,
			cmd:  `{"explain":{"findAndModify":"c","query":{"_id":1},"remove":true,"foo":1}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'findAndModify.foo' is an unknown field."},
		{name: "explain of a findAndModify whose projection mixes inclusion and exclusion", ref: famRef + "; src/mongo/db/query/projection_parser.cpp", cov: cover{family: commandFam, op: "explain", col: errorCol}, docs: `[{"_id":1}]`,
			cmd:  `{"explain":{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"x":1}},"fields":{"a":1,"b":0}}}`,
			code: 31254, msg: "Cannot do exclusion on field b in inclusion projection"},
		{name: "explain of a findAndModify whose hint is a number", ref: "jstests/core/write/find_and_modify/find_and_modify_hint.js", cov: cover{family: commandFam, op: "explain", col: errorCol}, docs: `[{"_id":1}]`,
			cmd:  `{"explain":{"findAndModify":"c","query":{"_id":1},"remove":true,"hint":1}}`,
			code: mongoerr.FailedToParse, msg: "Hint must be a string or an object"},
		{name: "explain of a delete with a $natural hint of 2", ref: naturalRef, cov: cover{family: commandFam, op: "explain", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"explain":{"delete":"c","deletes":[{"q":{},"limit":1,"hint":{"$natural":2}}]}}`, code: mongoerr.BadValue, msg: "$natural hint cannot be set to a value other than -1 or 1."},
		{name: "findAndModify sort $natural -100", ref: naturalRef, cov: cover{family: commandFam, op: "findAndModify", col: errorCol}, docs: `[{"_id":1}]`,
			cmd: `{"findAndModify":"c","sort":{"$natural":-100},"update":{"x":1}}`, code: mongoerr.BadValue, msg: "$natural sort cannot be set to a value other than -1 or 1."},
		{name: "find min of another index's fields", ref: "src/mongo/db/query/query_planner.cpp indexCompatibleMaxMin (51174)", docs: `[{"_id":1,"a":1}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"find":"c","min":{"b":1},"hint":"a_1"}`, code: mongoerr.ErrMinMaxIndexIncompatible},
		{name: "find min not before max", ref: "src/mongo/db/query/query_planner.cpp (51175)", docs: `[{"_id":1,"a":1}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"find":"c","min":{"a":5},"max":{"a":3},"hint":{"a":1}}`, code: mongoerr.ErrMinMaxOrder},
		{name: "find min and max in a descending index's order", ref: "src/mongo/db/query/query_planner.cpp finishMinObj (woCompare under the key pattern); planner_access.cpp makeIndexScan (min included, max excluded)",
			docs:  `[{"_id":1,"a":1},{"_id":2,"a":4},{"_id":3,"a":5},{"_id":4,"a":6}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":-1},"name":"a_-1"}]}`},
			cmd:   `{"find":"c","min":{"a":5},"max":{"a":3},"hint":{"a":-1}}`,
			want:  `{"cursor":{"firstBatch":[{"_id":3,"a":5},{"_id":2,"a":4}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find max alone below every key of a descending index", ref: "src/mongo/db/query/query_planner.cpp finishMinObj (an empty min becomes MaxKey when MinKey sorts after max)",
			docs:  `[{"_id":1,"a":1},{"_id":2,"a":4},{"_id":3,"a":5},{"_id":4,"a":6}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":-1},"name":"a_-1"}]}`},
			cmd:   `{"find":"c","max":{"a":3},"hint":{"a":-1}}`,
			want:  `{"cursor":{"firstBatch":[{"_id":4,"a":6},{"_id":3,"a":5},{"_id":2,"a":4}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find min of a collection that does not exist", ref: "src/mongo/db/query/get_executor.cpp (no collection: an EOF plan, nothing planned)",
			cmd: `{"find":"nosuch","min":{"a":1}}`, want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.nosuch"}}`},
		{name: "find with a regex of 16384 characters", ref: "jstests/core/query/regex/regex_limit.js (kMaxRegexPatternLen)",
			docs: `[{"_id":1,"z":"` + strings.Repeat("c", 20000) + `"}]`,
			cmd:  `{"find":"c","filter":{"z":{"$regex":"` + strings.Repeat("c", 16384) + `"}},"projection":{"_id":1}}`, want: `{"cursor":{"firstBatch":[{"_id":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find with a regex too large to compile", ref: "src/mongo/db/matcher/expression_leaf.cpp (RegexMatchExpression: no length check, the compilation fails, 51091); src/mongo/util/pcre.cpp (pcre2_set_max_pattern_length); PCRE2 pcre2_error.c (compile error 88); jstests/core/query/regex/regex_limit.js",
			cmd: `{"find":"c","filter":{"z":{"$regex":"` + strings.Repeat("c", 2*16384+1) + `"}}}`, code: 51091, msg: "Regular expression is invalid: pattern string is longer than the limit set by the application"},
		{name: "find with a regex one byte past the pattern length limit", ref: "src/mongo/util/pcre.cpp (kMaxPatternLength 2^14 through pcre2_set_max_pattern_length); PCRE2 pcre2_error.c (compile error 88)",
			cmd: `{"find":"c","filter":{"z":{"$regex":"` + strings.Repeat("c", 16385) + `"}}}`, code: 51091, msg: "Regular expression is invalid: pattern string is longer than the limit set by the application"},
		{name: "find with a regex nesting 251 groups", ref: "src/mongo/db/matcher/expression_leaf.cpp (51091); PCRE2 pcre2_compile.c (parens_nest_limit 250, compile error 19)",
			cmd: `{"find":"c","filter":{"z":{"$regex":"` + strings.Repeat("(", 251) + "c" + strings.Repeat(")", 251) + `"}}}`, code: 51091, msg: "Regular expression is invalid: parentheses are too deeply nested"},
		{name: "find with a regex nesting 250 groups", ref: "PCRE2 pcre2_compile.c (parens_nest_limit 250)",
			docs: `[{"_id":1,"z":"c"}]`,
			cmd:  `{"find":"c","filter":{"z":{"$regex":"` + strings.Repeat("(", 250) + "c" + strings.Repeat(")", 250) + `"}},"projection":{"_id":1}}`, want: `{"cursor":{"firstBatch":[{"_id":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find on a time-series collection with a $natural -1 hint", ref: "jstests/core/timeseries/query/timeseries_hint.js (the read runs over the buckets collection with the command's hint)",
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`, tsHintDocs},
			cmd:   `{"find":"c","projection":{"_id":1},"hint":{"$natural":-1}}`, want: `{"cursor":{"firstBatch":[{"_id":3},{"_id":2},{"_id":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "aggregate on a time-series collection with a $natural -1 hint", ref: "jstests/core/timeseries/query/timeseries_hint.js (the read runs over the buckets collection with the command's hint)",
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`, tsHintDocs},
			cmd:   `{"aggregate":"c","pipeline":[{"$project":{"_id":1}}],"cursor":{},"hint":{"$natural":-1}}`, want: `{"cursor":{"firstBatch":[{"_id":3},{"_id":2},{"_id":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find on a time-series collection hinting an index by its key", ref: "jstests/core/timeseries/ddl/timeseries_index.js (the hint's key is translated to the buckets' schema)",
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`, tsHintDocs},
			cmd:   `{"find":"c","filter":{"_id":{"$gte":2}},"projection":{"_id":1},"sort":{"_id":1},"hint":{"m":1,"t":1}}`, want: `{"cursor":{"firstBatch":[{"_id":2},{"_id":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find on a time-series collection hinting an index by its name", ref: "jstests/core/timeseries/ddl/timeseries_index.js",
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`, tsHintDocs},
			cmd:   `{"find":"c","projection":{"_id":1},"sort":{"_id":1},"hint":"m_1_t_1"}`, want: `{"cursor":{"firstBatch":[{"_id":1},{"_id":2},{"_id":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find on a time-series collection hinting an index it does not have", ref: "jstests/core/timeseries/ddl/timeseries_index.js (BadValue, as on any collection)",
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`, tsHintDocs},
			cmd:   `{"find":"c","hint":{"x":1}}`, code: mongoerr.BadValue, msg: "error processing query: ns={{db}}.system.buckets.cTree: $and\nSort: {}\nProj: {}\n planner returned error :: caused by :: hint provided does not correspond to an existing index"},
		{name: "aggregate explain with a writeConcern", ref: "src/mongo/db/pipeline/aggregation_request_helper.cpp (validate); jstests/core/query/explain/explain_agg_write_concern.js",
			cmd: `{"aggregate":"c","pipeline":[{"$out":"o"}],"explain":true,"writeConcern":{"w":1}}`, code: mongoerr.FailedToParse, msg: "Aggregation explain does not support the'writeConcern' option"},
		{name: "explain of an aggregate with a writeConcern", ref: "src/mongo/db/pipeline/aggregation_request_helper.cpp (validate: parseFromBSON with the explain verbosity)", cov: cover{family: commandFam, op: "aggregate", col: errorCol},
			cmd: `{"explain":{"aggregate":"c","pipeline":[],"cursor":{},"writeConcern":{"w":1}}}`, code: mongoerr.FailedToParse, msg: "Aggregation explain does not support the'writeConcern' option"},
		{name: "aggregate with a writeConcern and no explain", ref: "src/mongo/db/pipeline/aggregation_request_helper.cpp (validate); jstests/core/query/explain/explain_agg_write_concern.js",
			cmd: `{"aggregate":"c","pipeline":[],"cursor":{},"writeConcern":{"w":1}}`, want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "update an array filter that is no document", ref: writeCmdRef + " (arrayFilters: array<object>)", cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"a.$[e]":1}},"arrayFilters":[{"e":1},2]}]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'update.updates.arrayFilters.1' is the wrong type 'int', expected type 'object'"},
		{name: "update sort with multi", ref: "manual: reference/command/update (sort)", cmd: `{"update":"c","updates":[{"q":{},"u":{"$set":{"a":1}},"multi":true,"sort":{"a":1}}]}`,
			code: mongoerr.FailedToParse, msg: "Cannot specify sort with multi=true"},

		// delete
		{name: "delete limit 0 and 1", ref: writeCmdRef, docs: docs, cmd: `{"delete":"c","deletes":[{"q":{"a":{"$gte":2}},"limit":0},{"q":{},"limit":1}]}`, want: `{"n":3}`,
			thenFind: `{"find":"c"}`, thenWant: `[]`},
		{name: "delete with a hint on a sparse index removes what it holds", ref: "jstests/core/write/delete/delete_hint.js", docs: `[{"_id":1,"x":1},{"_id":2,"x":1},{"_id":3,"x":1,"s":0}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"s":1},"name":"s_1","sparse":true}]}`},
			cmd:   `{"delete":"c","deletes":[{"q":{},"limit":0,"hint":{"s":1}}]}`, want: `{"n":1}`},
		{name: "delete limit 2", ref: writeCmdRef, cmd: `{"delete":"c","deletes":[{"q":{},"limit":2}]}`, code: mongoerr.FailedToParse, msg: "The limit field in delete objects must be 0 or 1. Got 2"},
		{name: "delete without limit", ref: writeCmdRef, cmd: `{"delete":"c","deletes":[{"q":{}}]}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'delete.deletes.limit' is missing but a required field"},
		{name: "delete a hint that is a boolean", ref: "jstests/core/write/delete/delete_hint.js; src/mongo/db/query/index_hint.cpp", cmd: `{"delete":"c","deletes":[{"q":{},"limit":1,"hint":true}]}`,
			code: mongoerr.FailedToParse, msg: "Hint must be a string or an object"},
		{name: "delete a hint naming no index", ref: "jstests/core/write/delete/delete_hint.js", docs: docs, cmd: `{"delete":"c","deletes":[{"q":{"_id":1},"limit":1,"hint":{"badHint":1}}]}`,
			writeError: true, code: mongoerr.BadValue},

		// findAndModify
		{name: "findAndModify returns the document before", ref: famRef, docs: docs, cmd: `{"findAndModify":"c","query":{"_id":1},"update":{"$inc":{"a":1}}}`,
			want: `{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"_id":1,"a":1,"t":["x","y"]}}`},
		{name: "findAndModify new, fields and sort", ref: famRef, docs: docs, cmd: `{"findAndModify":"c","query":{},"sort":{"a":-1},"update":{"$set":{"z":1}},"new":true,"fields":{"z":1}}`,
			want: `{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"_id":3,"z":1}}`},
		{name: "findAndModify upsert", ref: famRef, cmd: `{"findAndModify":"c","query":{"_id":5},"update":{"$set":{"a":5}},"upsert":true,"new":true}`,
			want: `{"lastErrorObject":{"n":1,"updatedExisting":false,"upserted":5},"value":{"_id":5,"a":5}}`},
		{name: "findAndModify remove of nothing", ref: famRef, cmd: `{"findAndModify":"c","query":{"_id":5},"remove":true}`,
			want: `{"lastErrorObject":{"n":0},"value":null}`},
		{name: "findAndModify with a sparse hint updates what the index holds", ref: "jstests/core/write/find_and_modify/find_and_modify_hint.js",
			docs: `[{"_id":0,"x":1},{"_id":1,"x":1},{"_id":2,"x":1,"s":0}]`, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"s":1},"name":"s_1","sparse":true}]}`},
			cmd:  `{"findAndModify":"c","query":{},"update":{"$set":{"y":1}},"hint":{"s":1},"new":true}`,
			want: `{"value":{"_id":2,"x":1,"s":0,"y":1}}`},
		{name: "findAndModify projects the positional element of the document before", ref: famRef + "; src/mongo/db/exec/projection_executor_utils.cpp (applyPositionalProjection)", docs: docs,
			cmd:  `{"findAndModify":"c","query":{"t":"y"},"update":{"$inc":{"a":1}},"fields":{"t.$":1}}`,
			want: `{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"_id":1,"t":["y"]}}`},
		{name: "findAndModify new refuses a positional projection", ref: famRef + "; src/mongo/db/query/get_executor.cpp (getExecutorUpdate, makeProjection)", docs: docs,
			cmd:  `{"findAndModify":"c","query":{"t":"y","a":{"$gte":2}},"update":{"$set":{"z":1}},"fields":{"t.$":1,"z":1},"new":true}`,
			code: mongoerr.BadValue, msg: "cannot use a positional projection and return the new document"},
		{name: "findAndModify new upsert refuses a positional projection", ref: famRef + "; src/mongo/db/query/get_executor.cpp (getExecutorUpdate, makeProjection)",
			cmd:  `{"findAndModify":"c","query":{"t":"y"},"update":{"$set":{"z":1}},"fields":{"t.$":1},"new":true,"upsert":true}`,
			code: mongoerr.BadValue, msg: "cannot use a positional projection and return the new document"},
		{name: "findAndModify new with a positional projection on a missing collection plans EOF", ref: famRef + "; src/mongo/db/query/get_executor.cpp (getExecutorUpdate: no collection, EOF stage)",
			cmd:  `{"findAndModify":"c","query":{"t":"y"},"update":{"$set":{"z":1}},"fields":{"t.$":1},"new":true}`,
			want: `{"lastErrorObject":{"n":0,"updatedExisting":false},"value":null}`},
		{name: "findAndModify remove projects the positional element", ref: famRef + "; src/mongo/db/exec/projection_executor_utils.cpp (applyPositionalProjection)", docs: docs,
			cmd:  `{"findAndModify":"c","query":{"t":"x"},"remove":true,"fields":{"t.$":1,"_id":0}}`,
			want: `{"lastErrorObject":{"n":1},"value":{"t":["x"]}}`},
		{name: "findAndModify with neither update nor remove", ref: famRef, cmd: `{"findAndModify":"c"}`, code: mongoerr.FailedToParse, msg: "Either an update or remove=true must be specified"},
		{name: "findAndModify with both", ref: famRef, cmd: `{"findAndModify":"c","remove":true,"update":{"$set":{"a":1}}}`, code: mongoerr.FailedToParse, msg: "Cannot specify both an update and remove=true"},
		{name: "findAndModify remove and new", ref: famRef, cmd: `{"findAndModify":"c","remove":true,"new":true}`, code: mongoerr.FailedToParse, msg: "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document"},
		{name: "findAndModify an array filter that is no document", ref: famRef + " (arrayFilters: array<object>)", cmd: `{"findAndModify":"c","query":{},"update":{"$set":{"a.$[e]":1}},"arrayFilters":["e"]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'findAndModify.arrayFilters.0' is the wrong type 'string', expected type 'object'"},
		{name: "findAndModify a hint that is a number", ref: "jstests/core/write/find_and_modify/find_and_modify_hint.js", cmd: `{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"y":1}},"hint":1}`,
			code: mongoerr.FailedToParse, msg: "Hint must be a string or an object"},

		// find, getMore, killCursors
		{name: "find with skip, limit, sort and projection", ref: findCmdRef, docs: docs, cmd: `{"find":"c","filter":{"a":{"$gte":1}},"sort":{"a":-1},"skip":1,"limit":1,"projection":{"a":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":2}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find batchSize leaves a cursor open", ref: findCmdRef, docs: docs, cmd: `{"find":"c","batchSize":1}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":1,"t":["x","y"]}],"id":"*","ns":"{{db}}.c"}}`},
		{name: "find singleBatch closes the cursor", ref: findCmdRef, docs: docs, cmd: `{"find":"c","batchSize":1,"singleBatch":true}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":1,"t":["x","y"]}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find with let", ref: findCmdRef, docs: docs, cmd: `{"find":"c","filter":{"$expr":{"$eq":["$a","$$v"]}},"let":{"v":3},"projection":{"_id":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":3}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "find with a let that reads a field", ref: letRef, docs: docs, cmd: `{"find":"c","let":{"v":{"$add":["$a",1]}}}`,
			code: 4890500, msg: "Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents."},
		{name: "find of a collection that does not exist", ref: findCmdRef, cmd: `{"find":"nothere"}`,
			want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.nothere"}}`},
		{name: "find a negative skip", ref: findCmdRef, cmd: `{"find":"c","skip":-1}`, code: 51024, msg: "BSON field 'skip' value must be >= 0, actual value '-1'"},
		{name: "find a negative limit", ref: findCmdRef, cmd: `{"find":"c","limit":-1}`, code: 51024, msg: "BSON field 'limit' value must be >= 0, actual value '-1'"},
		{name: "find an unknown field", ref: findCmdRef, cmd: `{"find":"c","foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'FindCommandRequest.foo' is an unknown field."},
		{name: "find a filter that is a number", ref: findCmdRef, cmd: `{"find":"c","filter":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'FindCommandRequest.filter' is the wrong type 'int', expected type 'object'"},
		{name: "find a sort of 2", ref: "src/mongo/db/query/sort_pattern.cpp", cmd: `{"find":"c","sort":{"a":2}}`, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		// parseMetaExpression (sort_pattern.cpp; sort_key_generator_test.cpp, jstests/core/query/sort/sort_with_meta_operator.js)
		{name: "find a $meta sort of a number", ref: "src/mongo/db/query/sort_pattern.cpp", cmd: `{"find":"c","sort":{"_id":{"$meta":1}}}`, code: 31138, msg: "Illegal $meta sort: $meta: 1"},
		{name: "find a $meta sort of searchHighlights", ref: "src/mongo/db/query/sort_pattern.cpp kValidMetaSorts; jstests/core/query/sort/sort_with_meta_operator.js", cmd: `{"find":"c","sort":{"_id":{"$meta":"searchHighlights"}}}`, code: 31138, msg: `Illegal $meta sort: $meta: "searchHighlights"`},
		{name: "find a $meta sort of an unknown name", ref: "src/mongo/db/query/sort_pattern.cpp", cmd: `{"find":"c","sort":{"_id":{"$meta":"unknown"}}}`, code: 31138, msg: `Illegal $meta sort: $meta: "unknown"`},
		{name: "find a $meta sort with another key", ref: "src/mongo/db/query/sort_pattern.cpp", cmd: `{"find":"c","sort":{"_id":{"$meta":"randVal","x":1}}}`, code: mongoerr.FailedToParse, msg: "Cannot have additional keys in a $meta sort specification"},
		{name: "find a sort by an expression other than $meta", ref: "src/mongo/db/query/sort_pattern.cpp", cmd: `{"find":"c","sort":{"_id":{"$add":[1]}}}`, code: 17312, msg: "$meta is the only expression supported by $sort right now"},
		{name: "getMore of an id not open", ref: cursorCmdRef, cmd: `{"getMore":{"$numberLong":"123"},"collection":"c"}`, code: mongoerr.CursorNotFound, msg: "cursor id 123 not found"},
		{name: "getMore with an int id", ref: cursorCmdRef, cmd: `{"getMore":123,"collection":"c"}`, code: mongoerr.TypeMismatch, msg: "BSON field 'getMore.getMore' is the wrong type 'int', expected type 'long'"},
		{name: "getMore without collection", ref: cursorCmdRef, cmd: `{"getMore":{"$numberLong":"123"}}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'getMore.collection' is missing but a required field"},
		{name: "killCursors of an id not open", ref: cursorCmdRef, cmd: `{"killCursors":"c","cursors":[{"$numberLong":"123"}]}`,
			want: `{"cursorsKilled":[],"cursorsNotFound":[{"$numberLong":"123"}],"cursorsAlive":[],"cursorsUnknown":[]}`},
		{name: "killCursors an int id", ref: cursorCmdRef, cmd: `{"killCursors":"c","cursors":[1]}`, code: mongoerr.TypeMismatch, msg: "BSON field 'killCursors.cursors.0' is the wrong type 'int', expected type 'long'"},

		// count
		{name: "count with query, skip and limit", ref: countRef, docs: docs, cmd: `{"count":"c","query":{"a":{"$gte":1}},"skip":1,"limit":1}`, want: `{"n":1}`},
		{name: "count a negative limit as its absolute value", ref: countRef, docs: docs, cmd: `{"count":"c","limit":-2}`, want: `{"n":2}`},
		{name: "count of a collection that does not exist", ref: countRef, cmd: `{"count":"nothere"}`, want: `{"n":0}`},
		{name: "count a negative skip", ref: countRef, cmd: `{"count":"c","skip":-1}`, code: 51024, msg: "BSON field 'skip' value must be >= 0, actual value '-1'"},
		{name: "count a query that is a number", ref: countRef, cmd: `{"count":"c","query":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'count.query' is the wrong type 'int', expected type 'object'"},
		{name: "count an unknown field", ref: countRef, cmd: `{"count":"c","foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'count.foo' is an unknown field."},

		// distinct
		{name: "distinct unwinds a trailing array and dedups numbers", ref: distinctRef, docs: `[{"a":[1,2,[3]]},{"a":1.0},{"a":{"$numberLong":"2"}},{"a":null},{}]`, cmd: `{"distinct":"c","key":"a"}`,
			want: `{"values":[null,1,2,[3]]}`},
		{name: "distinct through arrays of documents and array indexes", ref: distinctRef,
			docs: `[{"a":[{"x":1},{"x":[2,3]}]},{"a":{"x":[1,2]}},{"a":[[{"x":9}]]},{"b":[[1,2],[3]]}]`, cmd: `{"distinct":"c","key":"a.x"}`,
			want: `{"values":[1,2,3]}`},
		{name: "distinct with a numeric path component", ref: distinctRef, docs: `[{"b":[[1,2],[3]]},{"b":[{"c":4}]}]`, cmd: `{"distinct":"c","key":"b.0"}`,
			want: `{"values":[1,2,{"c":4}]}`},
		{name: "distinct with a query", ref: distinctRef, docs: docs, cmd: `{"distinct":"c","key":"t","query":{"a":{"$lt":2}}}`, want: `{"values":["x","y"]}`},
		{name: "distinct of a key with a NUL", ref: distinctRef + " (CanonicalDistinct::parse); jstests/core/query/distinct/distinct_syntax.js", docs: `[{"a":1}]`,
			cmd: `{"distinct":"c","key":"a\u0000b"}`, code: 31032, msg: "Key field cannot contain an embedded null byte"},
		{name: "distinct of a collection that does not exist", ref: distinctRef, cmd: `{"distinct":"nothere","key":"a"}`, want: `{"values":[]}`},
		{name: "distinct without key", ref: distinctRef, cmd: `{"distinct":"c"}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'distinct.key' is missing but a required field"},
		{name: "distinct key that is a number", ref: distinctRef, cmd: `{"distinct":"c","key":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'distinct.key' is the wrong type 'int', expected type 'string'"},
		{name: "distinct an unknown field", ref: distinctRef, cmd: `{"distinct":"c","key":"a","foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'distinct.foo' is an unknown field."},

		// aggregate
		{name: "aggregate cursor with an unknown field", ref: aggregateRef + "; src/mongo/idl/basic_types.idl (SimpleCursorOptions, strict); src/mongo/db/pipeline/aggregation_request_helper.cpp (parseAggregateCursorFromBSON)", docs: docs,
			cmd: `{"aggregate":"c","pipeline":[],"cursor":{"foo":1}}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'cursor.foo' is an unknown field."},
		{name: "aggregate cursor not a document", ref: aggregateRef + "; src/mongo/db/pipeline/aggregation_request_helper.cpp (parseAggregateCursorFromBSON)", docs: docs,
			cmd: `{"aggregate":"c","pipeline":[],"cursor":1}`, code: mongoerr.TypeMismatch, msg: "cursor field must be missing or an object"},
		{name: "aggregate cursor batchSize", ref: aggregateRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[{"$project":{"a":1}}],"cursor":{"batchSize":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":1}],"id":"*","ns":"{{db}}.c"}}`},
		{name: "aggregate 1 with $documents", ref: aggregateRef, cmd: `{"aggregate":1,"pipeline":[{"$documents":[{"a":1}]}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"a":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.aggregate"}}`},
		{name: "aggregate 1 whose first stage needs a collection, with $documents later", ref: aggregateRef + " (Pipeline::validateCommon); jstests/aggregation/sources/documents/basics.js",
			cmd:  `{"aggregate":1,"pipeline":[{"$project":{"a":1}},{"$documents":[{"a":1}]}],"cursor":{}}`,
			code: mongoerr.InvalidNamespace, msg: "{aggregate: 1} is not valid for '$project'; a collection is required."},
		{name: "aggregate 1 with $documents of a number", ref: aggregateRef + "; src/mongo/db/pipeline/document_source_documents.cpp (desugared into $replaceWith); jstests/aggregation/sources/documents/basics.js",
			cmd:  `{"aggregate":1,"pipeline":[{"$documents":[{"a":1},2]}],"cursor":{}}`,
			code: 40228, msg: "PlanExecutor error during aggregation :: caused by :: 'replacement document' must evaluate to an object, but resulting value was: 2. Type of resulting value: 'int'. Input document: {_tempDocumentsField: 2}"},
		{name: "aggregate with let", ref: aggregateRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[{"$match":{"$expr":{"$eq":["$a","$$v"]}}},{"$project":{"_id":1}}],"cursor":{},"let":{"v":2}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2}],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "aggregate with a let name a user may not write", ref: letRef + "; src/mongo/db/pipeline/variables.cpp (validateNameForUserWrite)", docs: docs,
			cmd: `{"aggregate":"c","pipeline":[],"cursor":{},"let":{"V":1}}`, code: mongoerr.FailedToParse, msg: "'V' starts with an invalid character for a user variable name"},
		{name: "aggregate with a let that reads the document", ref: letRef, docs: docs, cmd: `{"aggregate":"c","pipeline":[],"cursor":{},"let":{"v":"$$ROOT.a"}}`,
			code: 4890500, msg: "Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents."},
		{name: "aggregate without cursor", ref: aggregateRef, cmd: `{"aggregate":"c","pipeline":[]}`, code: mongoerr.FailedToParse, msg: "The 'cursor' option is required, except for aggregate with the explain argument"},
		{name: "aggregate a pipeline that is a number", ref: aggregateRef, cmd: `{"aggregate":"c","pipeline":1,"cursor":{}}`, code: mongoerr.TypeMismatch, msg: "BSON field 'aggregate.pipeline' is the wrong type 'int', expected type 'array'"},
		{name: "aggregate an unknown field", ref: aggregateRef, cmd: `{"aggregate":"c","pipeline":[],"cursor":{},"foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'aggregate.foo' is an unknown field."},
	})
}
