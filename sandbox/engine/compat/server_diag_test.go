package compat_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The server's diagnostic commands as a mongod 8.0 standalone answers
// them: serverStatus's opcounters and metrics, getLog's RAM log,
// currentOp, the $currentOp stage and killOp.

const (
	countersRef     = "src/mongo/db/stats/counters.h (OpCounters), src/mongo/db/commands.cpp (Command::initializeClusterRole), src/mongo/db/ops/write_ops_exec.cpp; jstests/core/opcounters_write_cmd.js"
	docMetricRef    = "src/mongo/db/curop.cpp (recordCurOpMetrics); jstests/core/find_and_modify_metrics.js (8.0)"
	updMetricRef    = "src/mongo/db/commands/find_and_modify.cpp (collectMetrics), src/mongo/db/commands/update_metrics.cpp; jstests/core/find_and_modify_metrics.js, jstests/core/update_metrics.js"
	getLogRef       = "src/mongo/db/commands/generic.cpp (GetLogCmd), src/mongo/logv2/ramlog.h; jstests/core/getlog1.js"
	curOpRef        = "src/mongo/db/commands/current_op_common.cpp, src/mongo/db/curop.cpp (reportCurrentOpForClient, reportState); jstests/core/basic1.js"
	curOpStgRef     = "src/mongo/db/pipeline/document_source_current_op.cpp (createFromBson), document_source_current_op.idl"
	cursorMetricRef = "src/mongo/db/clientcursor.cpp, cursor_manager.cpp (incrementCursorLifespanMetric); mongod's jstest of metrics.cursor.totalOpened and moreThanOneBatch (counted when the cursor dies)"
	queryExecRef    = "src/mongo/db/curop_metrics.cpp (recordCurOpMetrics), src/mongo/db/collection_index_usage_tracker.cpp (recordCollectionScans), document_source.cpp (accumulatePipelinePlanSummaryStats); jstests/aggregation/sources/facet/facet_stats.js, mongod's jstest of metrics.queryExecutor.collectionScans"
	diagDataRef     = "src/mongo/db/ftdc/ftdc_commands.cpp (GetDiagnosticDataCommand), src/mongo/db/ftdc/collector.cpp (FTDCCollectorCollection::collect); jstests/core/diagnostics/diagdata.js"
	killOpRef       = "src/mongo/db/commands/kill_op.cpp, kill_op_cmd_base.cpp (parseOpId), src/mongo/bson/util/bson_extract.cpp (bsonExtractIntegerField)"
)

func TestDiagnosticCommands(t *testing.T) {
	stg := func(col column) cover { return cover{family: stage, op: "$currentOp", col: col} }
	runCmdCases(t, []cmdCase{
		// getDiagnosticData: the latest FTDC sample, framed with start and
		// end dates (jstests/core/diagnostics/diagdata.js, jstests/libs/ftdc.js).
		{name: "getDiagnosticData holds a serverStatus sample", ref: diagDataRef, admin: true, cmd: `{"getDiagnosticData":1}`,
			want: `{"data":{"start":"*","serverStatus":"*","end":"*"}}`},
		{name: "getDiagnosticData elsewhere", ref: diagDataRef + " (adminOnly)", cmd: `{"getDiagnosticData":1}`, code: mongoerr.Unauthorized,
			msg: "getDiagnosticData may only be run against the admin database."},
		// getLog
		{name: "getLog global holds the RAM log", ref: getLogRef, admin: true, cmd: `{"getLog":"global"}`,
			want: `{"totalLinesWritten":"*","log":"*"}`},
		{name: "getLog startupWarnings is empty", ref: getLogRef, admin: true, cmd: `{"getLog":"startupWarnings"}`,
			want: `{"totalLinesWritten":0,"log":[]}`},
		{name: "getLog of an unknown log", ref: getLogRef, admin: true, cmd: `{"getLog":"butty"}`, codeless: true,
			msg: "no RamLog named: butty"},
		{name: "getLog elsewhere", ref: getLogRef + " (adminOnly)", cmd: `{"getLog":"global"}`, code: mongoerr.Unauthorized,
			msg: "getLog may only be run against the admin database."},

		// currentOp
		{name: "currentOp lists the operations", ref: curOpRef, admin: true, cmd: `{"currentOp":1}`, want: `{"inprog":"*"}`},
		{name: "currentOp's other fields filter", ref: curOpRef, admin: true, cmd: `{"currentOp":1,"ns":"nowhere.none"}`, want: `{"inprog":[]}`},
		// A command without a collection keeps the legacy db.$cmd namespace
		// curOpCommandSetup (service_entry_point_common.cpp) gives it.
		{name: "currentOp $all and $ownOps are its options, not filters", ref: curOpRef + " (curOpCommandSetup)", admin: true,
			cmd: `{"currentOp":1,"$all":true,"$ownOps":false,"command.currentOp":1,"active":true}`, want: `{"inprog":[{"type":"op","host":"*","desc":"*","connectionId":"*","client":"*","clientMetadata":"*","active":true,"currentOpTime":"*","threaded":true,"opid":"*","lsid":"*","secs_running":"*","microsecs_running":"*","op":"command","ns":"admin.$cmd","redacted":false,"command":"*","numYields":0,"waitingForLock":false}]}`},
		// The command runs $currentOp with truncateOps: its own command, over
		// 1000 bytes, is cut to a string; its comment stays beside it.
		{name: "currentOp truncates a command over 1000 bytes", ref: curOpRef + " (appendAsObjOrString)", admin: true,
			cmd:  `{"currentOp":1,"command.comment":"` + strings.Repeat("x", 1100) + `","comment":"` + strings.Repeat("x", 1100) + `"}`,
			want: `{"inprog":[{"type":"op","host":"*","desc":"*","connectionId":"*","client":"*","clientMetadata":"*","active":true,"currentOpTime":"*","threaded":true,"opid":"*","lsid":"*","secs_running":"*","microsecs_running":"*","op":"command","ns":"admin.$cmd","redacted":false,"command":{"$truncated":"*","comment":"` + strings.Repeat("x", 1100) + `"},"numYields":0,"waitingForLock":false}]}`},
		{name: "currentOp with a filter that does not parse", ref: curOpRef, admin: true, cov: cover{family: commandFam, op: "currentOp", col: errorCol},
			cmd: `{"currentOp":1,"a":{"$foo":1}}`, code: mongoerr.BadValue, msg: "unknown operator: $foo"},
		{name: "currentOp elsewhere", ref: curOpRef + " (adminOnly)", cmd: `{"currentOp":1}`, code: mongoerr.Unauthorized,
			msg: "currentOp may only be run against the admin database."},

		// killOp
		{name: "killOp of an unknown operation", ref: killOpRef, admin: true, cmd: `{"killOp":1,"op":123456}`,
			want: `{"info":"attempting to kill op"}`},
		{name: "killOp without op", ref: killOpRef, admin: true, cmd: `{"killOp":1}`, code: mongoerr.NoSuchKey, msg: `Missing expected field "op"`},
		{name: "killOp with a string op", ref: killOpRef, admin: true, cmd: `{"killOp":1,"op":"shard:1"}`, code: mongoerr.TypeMismatch,
			msg: `Expected field "op" to have numeric type, but found string`},
		{name: "killOp with a fractional op", ref: killOpRef, admin: true, cmd: `{"killOp":1,"op":1.5}`, code: mongoerr.BadValue,
			msg: `Expected field "op" to have a value exactly representable as a 64-bit integer, but found op: 1.5`},
		{name: "killOp with an op beyond 32 bits", ref: killOpRef, admin: true, cmd: `{"killOp":1,"op":{"$numberLong":"4294967296"}}`, code: 26823,
			msg: "invalid op : 4294967296. Op ID cannot be represented with 32 bits"},
		{name: "killOp elsewhere", ref: killOpRef + " (adminOnly)", cmd: `{"killOp":1,"op":1}`, code: mongoerr.Unauthorized,
			msg: "killOp may only be run against the admin database."},

		// $currentOp
		{name: "$currentOp reports the aggregate itself", ref: curOpStgRef, cov: stg(semantics), admin: true,
			cmd:  `{"aggregate":1,"pipeline":[{"$currentOp":{"allUsers":true,"idleSessions":false}},{"$match":{"command.comment":"me"}},{"$project":{"_id":0,"type":1,"active":1,"op":1,"ns":1,"command.aggregate":1}}],"cursor":{},"comment":"me"}`,
			want: `{"cursor":{"firstBatch":[{"type":"op","active":true,"op":"command","ns":"admin.$cmd.aggregate","command":{"aggregate":1}}],"id":{"$numberLong":"0"},"ns":"admin.$cmd.aggregate"}}`},
		{name: "$currentOp with an unknown option", ref: curOpStgRef, cov: stg(errorCol), admin: true,
			cmd: `{"aggregate":1,"pipeline":[{"$currentOp":{"foo":true}}],"cursor":{}}`, code: mongoerr.IDLUnknownField,
			msg: "BSON field '$currentOp.foo' is an unknown field."},
		{name: "$currentOp options are optionalBools", ref: curOpStgRef + " (OptionalBool::parseFromBSON)", cov: stg(errorCol), admin: true,
			cmd: `{"aggregate":1,"pipeline":[{"$currentOp":{"allUsers":1}}],"cursor":{}}`, code: mongoerr.TypeMismatch,
			msg: "Field 'allUsers' should be a boolean value, but found: int"},
		{name: "$currentOp targetAllNodes needs a sharded cluster", ref: curOpStgRef, cov: stg(errorCol), admin: true,
			cmd: `{"aggregate":1,"pipeline":[{"$currentOp":{"targetAllNodes":true}}],"cursor":{}}`, code: mongoerr.FailedToParse,
			msg: "$currentOp supports targetAllNodes parameter only for sharded clusters"},
		{name: "$currentOp localOps with targetAllNodes", ref: curOpStgRef, cov: stg(errorCol), admin: true,
			cmd: `{"aggregate":1,"pipeline":[{"$currentOp":{"localOps":true,"targetAllNodes":true}}],"cursor":{}}`, code: mongoerr.FailedToParse,
			msg: "The 'localOps' parameter of the $currentOp stage cannot be true when 'targetAllNodes' is also true"},
		{name: "$currentOp must come first", ref: curOpStgRef + " (StageConstraints: kFirst)", cov: stg(errorCol), admin: true,
			cmd: `{"aggregate":1,"pipeline":[{"$documents":[]},{"$currentOp":{}}],"cursor":{}}`, code: 40602,
			msg: "$currentOp is only valid as the first stage in a pipeline"},
	})
}

const idleCursorRef = "src/mongo/db/pipeline/process_interface/common_process_interface.cpp (getCurrentOps), src/mongo/db/generic_cursor.idl, curop.cpp (truncateAndSerializeGenericCursor); jstests/core/administrative/current_op/currentop_cursors.js"

// $currentOp's idleCursors lists the cursors no getMore is using, with
// ns, lsid and planSummary at the top and the rest of the GenericCursor
// under cursor; without it, none is listed.
func TestCurrentOpIdleCursors(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "$currentOp idleCursors lists an open cursor", idleCursorRef,
		cover{family: stage, op: "$currentOp", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1,"v":1},{"_id":2,"v":2},{"_id":3,"v":3},{"_id":4,"v":4},{"_id":5,"v":5},{"_id":6,"v":6}]`)
			mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":{"v":1},"name":"v_1"}]}`)
			opened := mustCommand(t, db, `{"find":"c","filter":{"v":{"$gt":1}},"batchSize":2,"noCursorTimeout":true}`)
			id := field(field(opened, "cursor").(bson.D), "id").(int64)
			// Without a deadline, which the driver would send as maxTimeMS.
			more := bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}, {Key: "batchSize", Value: 1}}
			if err := db.RunCommand(context.Background(), more).Err(); err != nil {
				t.Fatalf("getMore: %v", err)
			}
			admin := db.Client().Database("admin")
			list := func(idle bool) []bson.D {
				cmd := bson.D{{Key: "aggregate", Value: 1}, {Key: "pipeline", Value: bson.A{
					bson.D{{Key: "$currentOp", Value: bson.D{{Key: "idleCursors", Value: idle}}}},
					bson.D{{Key: "$match", Value: bson.D{{Key: "type", Value: "idleCursor"}, {Key: "cursor.cursorId", Value: id}}}},
				}}, {Key: "cursor", Value: bson.D{}}}
				reply, ce := command(t, admin, cmd)
				if ce != nil {
					t.Fatalf("$currentOp: %v", ce)
				}
				var out []bson.D
				for _, d := range field(field(reply, "cursor").(bson.D), "firstBatch").(bson.A) {
					out = append(out, d.(bson.D))
				}
				return out
			}
			if got := list(false); len(got) != 0 {
				t.Errorf("idleCursors false listed %s", relaxed(got))
			}
			got := list(true)
			if len(got) != 1 {
				t.Fatalf("idleCursors listed %s, want the one cursor", relaxed(got))
			}
			entry := got[0]
			var keys []string
			for _, e := range entry {
				keys = append(keys, e.Key)
			}
			if strings.Join(keys, ",") != "type,host,ns,lsid,planSummary,cursor" {
				t.Errorf("fields %v", keys)
			}
			if field(entry, "ns") != db.Name()+".c" || field(entry, "planSummary") != "IXSCAN { v: 1 }" {
				t.Errorf("entry %s", relaxed(entry))
			}
			cursor := field(entry, "cursor").(bson.D)
			keys = keys[:0]
			for _, e := range cursor {
				keys = append(keys, e.Key)
			}
			if strings.Join(keys, ",") != "cursorId,createdDate,lastAccessDate,nDocsReturned,nBatchesReturned,noCursorTimeout,tailable,awaitData,originatingCommand" {
				t.Errorf("cursor fields %v", keys)
			}
			if field(cursor, "nDocsReturned") != int64(3) || field(cursor, "nBatchesReturned") != int64(2) ||
				field(cursor, "noCursorTimeout") != true || field(cursor, "tailable") != false ||
				field(field(cursor, "originatingCommand").(bson.D), "batchSize") != int32(2) {
				t.Errorf("cursor %s", relaxed(cursor))
			}
			created, accessed := field(cursor, "createdDate").(bson.DateTime), field(cursor, "lastAccessDate").(bson.DateTime)
			if accessed < created {
				t.Errorf("lastAccessDate %v before createdDate %v", accessed, created)
			}
		})
}

// serverStatusOf runs serverStatus on db.
func serverStatusOf(t *testing.T, db *mongo.Database) bson.D {
	t.Helper()
	return mustCommand(t, db, `{"serverStatus":1}`)
}

// counterAt reads a counter at a dotted path of a serverStatus reply; it
// must be a long, as mongod's Counter64 and OpCounters are.
func counterAt(t *testing.T, d bson.D, path ...string) int64 {
	t.Helper()
	var v any = d
	for _, p := range path {
		doc, ok := v.(bson.D)
		if !ok {
			t.Fatalf("serverStatus has no %v: %s", path, relaxed(d))
		}
		v = field(doc, p)
	}
	n, ok := v.(int64)
	if !ok {
		t.Fatalf("serverStatus %v is %T (%v), want a long", path, v, v)
	}
	return n
}

func TestServerStatusCounters(t *testing.T) {
	s := newSuite(t)
	cmdCov := func(op string) cover { return cover{family: commandFam, op: op, col: semantics} }
	// delta runs action and checks how far each counter at paths moved.
	delta := func(t *testing.T, db *mongo.Database, action func(), want map[string]int64, paths map[string][]string) {
		t.Helper()
		before := serverStatusOf(t, db)
		action()
		after := serverStatusOf(t, db)
		for name, path := range paths {
			if got := counterAt(t, after, path...) - counterAt(t, before, path...); got != want[name] {
				t.Errorf("%s moved by %d, want %d", name, got, want[name])
			}
		}
	}
	op := func(name string) []string { return []string{"opcounters", name} }
	run := func(t *testing.T, db *mongo.Database, cmd string) { command(t, db, ejDoc(t, cmd)) }
	opPaths := map[string][]string{"insert": op("insert"), "query": op("query"), "update": op("update"), "delete": op("delete"), "getmore": op("getmore")}

	s.runCase(t, "serverStatus sections and their order", countersRef+"; src/mongo/db/commands/server_status.cpp", cmdCov("serverStatus"), func(t *testing.T, db *mongo.Database) {
		got := serverStatusOf(t, db)
		sameFields(t, "serverStatus", got, ejDoc(t, `{"host":"*","version":"*","process":"mongod","pid":"*","uptime":"*","uptimeMillis":"*","uptimeEstimate":"*","localTime":"*","connections":"*","metrics":"*","opcounters":"*"}`))
		if m := field(got, "metrics").(bson.D); len(m) != 4 || m[0].Key != "commands" || m[1].Key != "cursor" || m[2].Key != "document" || m[3].Key != "queryExecutor" {
			t.Errorf("metrics holds %s", relaxed(m))
		}
		ops := field(got, "opcounters").(bson.D)
		for i, name := range []string{"insert", "query", "update", "delete", "getmore", "command"} {
			if ops[i].Key != name {
				t.Errorf("opcounters field %d is %q, want %q", i, ops[i].Key, name)
			}
			counterAt(t, got, "opcounters", name)
		}
		sameFields(t, "metrics.document", field(field(got, "metrics").(bson.D), "document").(bson.D),
			ejDoc(t, `{"deleted":"*","inserted":"*","returned":"*","updated":"*"}`))
		counterAt(t, got, "metrics", "commands", "<UNKNOWN>")
		fam := field(field(field(got, "metrics").(bson.D), "commands").(bson.D), "findAndModify").(bson.D)
		sameFields(t, "metrics.commands.findAndModify", fam, ejDoc(t, `{"arrayFilters":"*","failed":"*","pipeline":"*","rejected":"*","total":"*"}`))
	})
	s.runCase(t, "serverStatus leaves out the sections set to 0", "src/mongo/db/commands/server_status.cpp (ServerStatusCommand::run)", cmdCov("serverStatus"), func(t *testing.T, db *mongo.Database) {
		got := mustCommand(t, db, `{"serverStatus":1,"opcounters":0,"metrics":{"commands":0},"connections":false}`)
		for _, name := range []string{"opcounters", "connections"} {
			if field(got, name) != nil {
				t.Errorf("serverStatus answered %s: %s", name, relaxed(got))
			}
		}
		m := field(got, "metrics").(bson.D)
		if len(m) != 3 || m[0].Key != "cursor" || m[1].Key != "document" || m[2].Key != "queryExecutor" {
			t.Errorf("metrics with commands: 0 is %s", relaxed(m))
		}
	})
	s.runCase(t, "insert counts every document attempted", countersRef, cmdCov("insert"), func(t *testing.T, db *mongo.Database) {
		delta(t, db, func() { run(t, db, `{"insert":"c","documents":[{"_id":1},{"_id":2}]}`) }, map[string]int64{"insert": 2}, opPaths)
		// Ordered, failing on its second document: two attempted.
		delta(t, db, func() { run(t, db, `{"insert":"c","documents":[{"_id":3},{"_id":3},{"_id":4}]}`) }, map[string]int64{"insert": 2}, opPaths)
		// Unordered: all three.
		delta(t, db, func() { run(t, db, `{"insert":"c","documents":[{"_id":5},{"_id":5},{"_id":6}],"ordered":false}`) }, map[string]int64{"insert": 3}, opPaths)
	})
	s.runCase(t, "update and delete count each statement attempted", countersRef, cmdCov("update"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id":0},{"_id":1}]`)
		delta(t, db, func() {
			run(t, db, `{"update":"c","updates":[{"q":{"_id":0},"u":{"$set":{"a":1}}},{"q":{"_id":0},"u":{"$set":{"_id":9}}}]}`)
		},
			map[string]int64{"update": 2}, opPaths)
		delta(t, db, func() { run(t, db, `{"delete":"c","deletes":[{"q":{"_id":0},"limit":1},{"q":{"_id":1},"limit":1}]}`) },
			map[string]int64{"delete": 2}, opPaths)
	})
	s.runCase(t, "find counts a query and getMore a getmore, failed or not", countersRef, cmdCov("find"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id":0},{"_id":1},{"_id":2}]`)
		delta(t, db, func() {
			if _, err := cursorDocs(t, db, ejDoc(t, `{"find":"c","batchSize":2}`)); err != nil {
				t.Fatal(err)
			}
		}, map[string]int64{"query": 1, "getmore": 1}, opPaths)
		delta(t, db, func() { run(t, db, `{"find":"c","filter":{"_id":{"$invalidOp":1}}}`) }, map[string]int64{"query": 1}, opPaths)
		delta(t, db, func() { run(t, db, `{"getMore":{"$numberLong":"123"},"collection":"c"}`) }, map[string]int64{"getmore": 1}, opPaths)
	})
	s.runCase(t, "metrics.commands counts runs and failures; unknown commands count apart", countersRef, cmdCov("count"), func(t *testing.T, db *mongo.Database) {
		paths := map[string][]string{
			"total": {"metrics", "commands", "count", "total"}, "failed": {"metrics", "commands", "count", "failed"},
			"unknown": {"metrics", "commands", "<UNKNOWN>"},
		}
		delta(t, db, func() { run(t, db, `{"count":"c","query":{"$invalidOp":1}}`) }, map[string]int64{"total": 1, "failed": 1}, paths)
		delta(t, db, func() { run(t, db, `{"count":"c"}`) }, map[string]int64{"total": 1}, paths)
		delta(t, db, func() { run(t, db, `{"noSuchCommandAtAll":1}`) }, map[string]int64{"unknown": 1}, paths)
	})
	s.runCase(t, "update and findAndModify count pipelines and arrayFilters", updMetricRef, cmdCov("findAndModify"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id":1,"a":[5,10]}]`)
		paths := map[string][]string{
			"updPipeline": {"metrics", "commands", "update", "pipeline"}, "updArrayFilters": {"metrics", "commands", "update", "arrayFilters"},
			"famPipeline": {"metrics", "commands", "findAndModify", "pipeline"}, "famArrayFilters": {"metrics", "commands", "findAndModify", "arrayFilters"},
		}
		delta(t, db, func() { run(t, db, `{"update":"c","updates":[{"q":{},"u":{"$set":{"b":1}}}]}`) }, nil, paths)
		delta(t, db, func() { run(t, db, `{"update":"c","updates":[{"q":{},"u":[{"$set":{"b":2}}]}]}`) }, map[string]int64{"updPipeline": 1}, paths)
		delta(t, db, func() {
			run(t, db, `{"update":"c","updates":[{"q":{},"u":{"$set":{"a.$[e]":1}},"arrayFilters":[{"e":{"$gt":6}}],"multi":true}]}`)
		}, map[string]int64{"updArrayFilters": 1}, paths)
		delta(t, db, func() { run(t, db, `{"findAndModify":"c","query":{"_id":1},"update":[{"$set":{"b":3}}]}`) }, map[string]int64{"famPipeline": 1}, paths)
		delta(t, db, func() {
			run(t, db, `{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"a.$[e]":2}},"arrayFilters":[{"e":{"$gt":0}}]}`)
		}, map[string]int64{"famArrayFilters": 1}, paths)
	})
	s.runCase(t, "metrics.cursor counts the cursors registered and how they lived", cursorMetricRef, cmdCov("getMore"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id":0},{"_id":1},{"_id":2},{"_id":3},{"_id":4}]`)
		cur := func(name string) []string { return []string{"metrics", "cursor", name} }
		paths := map[string][]string{
			"totalOpened": cur("totalOpened"), "moreThanOneBatch": cur("moreThanOneBatch"), "timedOut": cur("timedOut"),
			"open": {"metrics", "cursor", "open", "total"}, "short": {"metrics", "cursor", "lifespan", "lessThan1Second"},
		}
		var id any
		delta(t, db, func() {
			id = field(field(mustCommand(t, db, `{"find":"c","batchSize":2}`), "cursor").(bson.D), "id")
		}, map[string]int64{"totalOpened": 1, "open": 1}, paths)
		// Killed before any getMore: it served one batch.
		delta(t, db, func() {
			command(t, db, bson.D{{Key: "killCursors", Value: "c"}, {Key: "cursors", Value: bson.A{id}}})
		}, map[string]int64{"open": -1, "short": 1}, paths)
		// Exhausted by getMores: more than one batch. A cursor spent in its
		// first batch is never registered.
		delta(t, db, func() {
			if _, err := cursorDocs(t, db, ejDoc(t, `{"find":"c","batchSize":2}`)); err != nil {
				t.Fatal(err)
			}
			mustCommand(t, db, `{"find":"c"}`)
		}, map[string]int64{"totalOpened": 1, "moreThanOneBatch": 1, "short": 1}, paths)
		got := serverStatusOf(t, db)
		sameFields(t, "metrics.cursor", field(field(got, "metrics").(bson.D), "cursor").(bson.D), ejDoc(t,
			`{"lifespan":{"greaterThanOrEqual10Minutes":"*","lessThan10Minutes":"*","lessThan15Seconds":"*","lessThan1Minute":"*","lessThan1Second":"*","lessThan30Seconds":"*","lessThan5Seconds":"*"},`+
				`"moreThanOneBatch":"*","open":{"noTimeout":{"$numberLong":"0"},"pinned":"*","total":"*"},"timedOut":"*","totalOpened":"*"}`))
	})
	s.runCase(t, "metrics.document counts what the writes and reads did", docMetricRef, cmdCov("findAndModify"), func(t *testing.T, db *mongo.Database) {
		doc := func(name string) []string { return []string{"metrics", "document", name} }
		paths := map[string][]string{"deleted": doc("deleted"), "inserted": doc("inserted"), "returned": doc("returned"), "updated": doc("updated")}
		delta(t, db, func() { run(t, db, `{"insert":"c","documents":[{"a":1},{"a":1},{"a":2}]}`) }, map[string]int64{"inserted": 3}, paths)
		delta(t, db, func() { run(t, db, `{"update":"c","updates":[{"q":{"a":1},"u":{"$set":{"b":1}},"multi":true}]}`) }, map[string]int64{"updated": 2}, paths)
		delta(t, db, func() { run(t, db, `{"update":"c","updates":[{"q":{"a":9},"u":{"$set":{"b":1}},"upsert":true}]}`) }, map[string]int64{"inserted": 1}, paths)
		delta(t, db, func() { cursorDocs(t, db, ejDoc(t, `{"find":"c","batchSize":1}`)) }, map[string]int64{"returned": 4}, paths)
		delta(t, db, func() { run(t, db, `{"findAndModify":"c","query":{"a":7},"update":{"$set":{"b":2}}}`) }, nil, paths)
		delta(t, db, func() { run(t, db, `{"findAndModify":"c","query":{"a":2},"update":{"$set":{"b":2}}}`) }, map[string]int64{"updated": 1, "returned": 1}, paths)
		delta(t, db, func() { run(t, db, `{"findAndModify":"c","query":{"a":2},"remove":true}`) }, map[string]int64{"deleted": 1, "returned": 1}, paths)
		delta(t, db, func() { run(t, db, `{"delete":"c","deletes":[{"q":{},"limit":0}]}`) }, map[string]int64{"deleted": 3}, paths)
	})
	s.runCase(t, "metrics.queryExecutor counts keys and documents examined and collection scans", queryExecRef, cmdCov("aggregate"), func(t *testing.T, db *mongo.Database) {
		qe := func(names ...string) []string { return append([]string{"metrics", "queryExecutor"}, names...) }
		paths := map[string][]string{"scanned": qe("scanned"), "scannedObjects": qe("scannedObjects"),
			"total": qe("collectionScans", "total"), "nonTailable": qe("collectionScans", "nonTailable")}
		insertDocs(t, db.Collection("local"), `[{"_id":1},{"_id":2},{"_id":3}]`)
		insertDocs(t, db.Collection("foreign"), `[{"_id":0,"k":1},{"_id":1,"k":2},{"_id":2,"k":3}]`)
		// facet_stats.js: each local document scans the foreign side,
		// 3 + 3 × 3 documents; no index, no keys. Four collection scans.
		delta(t, db, func() {
			cursorDocs(t, db, ejDoc(t, `{"aggregate":"local","cursor":{},"pipeline":[{"$facet":{"n":[{"$lookup":{"from":"foreign","let":{"id":"$_id"},"pipeline":[{"$match":{"$expr":{"$eq":["$$id","$k"]}}}],"as":"j"}}]}}]}`))
		}, map[string]int64{"scannedObjects": 12, "total": 4, "nonTailable": 4}, paths)
		// An index scan examines keys; its getMores count their
		// documents but no further collection scan.
		run(t, db, `{"createIndexes":"foreign","indexes":[{"key":{"k":1},"name":"k_1"}]}`)
		delta(t, db, func() {
			cursorDocs(t, db, ejDoc(t, `{"find":"foreign","filter":{"k":{"$gte":2}},"batchSize":1}`))
		}, map[string]int64{"scanned": 2, "scannedObjects": 2}, paths)
		delta(t, db, func() { cursorDocs(t, db, ejDoc(t, `{"find":"local","batchSize":1}`)) },
			map[string]int64{"scannedObjects": 3, "total": 1, "nonTailable": 1}, paths)
		// Writes, count and distinct count what their plans examined.
		delta(t, db, func() { run(t, db, `{"update":"local","updates":[{"q":{"a":1},"u":{"$set":{"b":1}},"multi":true}]}`) },
			map[string]int64{"scannedObjects": 3, "total": 1, "nonTailable": 1}, paths)
		delta(t, db, func() { run(t, db, `{"count":"foreign","query":{"k":3}}`) }, map[string]int64{"scanned": 1}, paths)
		delta(t, db, func() { run(t, db, `{"distinct":"foreign","key":"k","query":{"k":{"$lt":3}}}`) }, map[string]int64{"scanned": 2}, paths)
		// A tailable cursor's scan counts in total only.
		run(t, db, `{"create":"capped","capped":true,"size":4096}`)
		insertDocs(t, db.Collection("capped"), `[{"a":1},{"a":2}]`)
		delta(t, db, func() { run(t, db, `{"find":"capped","tailable":true}`) }, map[string]int64{"scannedObjects": 2, "total": 1}, paths)
	})
}

// TestGetLogLines reads the RAM log's lines: the connection the test
// client opened, and the slow-query line of an operation over slowms.
func TestGetLogLines(t *testing.T) {
	s := newSuite(t)
	globalLog := func(t *testing.T, db *mongo.Database) []string {
		t.Helper()
		reply := mustCommand(t, db.Client().Database("admin"), `{"getLog":"global"}`)
		var lines []string
		for _, l := range field(reply, "log").(bson.A) {
			lines = append(lines, l.(string))
		}
		if n, ok := field(reply, "totalLinesWritten").(int32); !ok || int(n) < len(lines) {
			t.Errorf("totalLinesWritten is %v for %d lines", field(reply, "totalLinesWritten"), len(lines))
		}
		return lines
	}
	// logEveryOperation makes every operation slow enough for the log
	// (slowms -1) until the case ends.
	logEveryOperation := func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"profile":0,"slowms":-1}`)
		t.Cleanup(func() { mustCommand(t, db, `{"profile":0,"slowms":100}`) })
	}
	has := func(lines []string, parts ...string) bool {
		for _, l := range lines {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(l, p)
			}
			if all {
				return true
			}
		}
		return false
	}
	s.runCase(t, "getLog global logs the connections", getLogRef+"; src/mongo/transport/session_workflow.cpp (id 22943)",
		cover{family: commandFam, op: "getLog", col: semantics}, func(t *testing.T, db *mongo.Database) {
			if lines := globalLog(t, db); !has(lines, `"id":22943`, `"msg":"Connection accepted"`, `"connectionId":`) {
				t.Errorf("no Connection accepted line in %q", lines)
			}
		})
	s.runCase(t, "getLog global logs a query slower than slowms", getLogRef+"; src/mongo/db/curop.cpp (completeAndLogOperation, id 51803)",
		cover{family: commandFam, op: "getLog", col: semantics}, func(t *testing.T, db *mongo.Database) {
			logEveryOperation(t, db)
			mustCommand(t, db, `{"find":"c","comment":"a slow one"}`)
			if lines := globalLog(t, db); !has(lines, `"id":51803`, `"msg":"Slow query"`, `"ns":"`+db.Name()+`.c"`, `"comment":"a slow one"`, `"durationMillis":`) {
				t.Errorf("no Slow query line in %q", lines)
			}
		})
	s.runCase(t, "a slow insert's line shows its message body, not its document sequence",
		getLogRef+"; src/mongo/db/service_entry_point_common.cpp (setGenericOpRequestDetails is given request.body)",
		cover{family: commandFam, op: "getLog", col: semantics}, func(t *testing.T, db *mongo.Database) {
			logEveryOperation(t, db)
			insertDocs(t, db.Collection("c"), `[{"mark":"in-a-sequence"}]`) // the driver sends a document sequence
			mustCommand(t, db, `{"insert":"c","documents":[{"mark":"in-the-body"}]}`)
			lines := globalLog(t, db)
			if !has(lines, `"msg":"Slow query"`, `"insert":"c"`, `"mark":"in-the-body"`) {
				t.Errorf("no line shows the insert whose documents were in its body: %q", lines)
			}
			if has(lines, "in-a-sequence") {
				t.Errorf("a line shows documents that came as a sequence: %q", lines)
			}
		})
	s.runCase(t, "a line past 10 KB is cut at the value that crosses it",
		getLogRef+"; src/mongo/logv2/json_formatter.cpp (JSONValueExtractor), src/mongo/bson/bsonelement.cpp (jsonStringGenerator's writeLimit)",
		cover{family: commandFam, op: "getLog", col: semantics}, func(t *testing.T, db *mongo.Database) {
			logEveryOperation(t, db)
			comment := strings.Repeat("c", 20*1024)
			mustCommand(t, db, `{"find":"c","filter":{"a":1},"comment":"`+comment+`"}`)
			var line bson.D
			for _, l := range globalLog(t, db) {
				if strings.Contains(l, `"msg":"Slow query"`) && strings.Contains(l, `"find":"c"`) {
					if len(l) > 11*1024 {
						t.Errorf("the line has %d bytes", len(l))
					}
					if err := bson.UnmarshalExtJSON([]byte(l), false, &line); err != nil {
						t.Fatalf("%v: %s", err, l)
					}
				}
			}
			if line == nil {
				t.Fatal("no Slow query line for the find")
			}
			cut := relaxed(field(line, "truncated"))
			if want := `{"command":{"comment":{"type":"string","size":20485}}}`; cut != want {
				t.Errorf("truncated is %s, want %s", cut, want)
			}
			cmd, _ := field(field(line, "attr").(bson.D), "command").(bson.D)
			if field(cmd, "filter") == nil || field(cmd, "comment") != nil {
				t.Errorf("the command logged is %s: its filter kept, its comment cut", relaxed(cmd))
			}
			// The command's BSON size: its comment alone is 20 KB.
			if n, ok := field(field(line, "size").(bson.D), "command").(int32); !ok || n < 20*1024 {
				t.Errorf("size is %s, want the command's BSON size", relaxed(field(line, "size")))
			}
		})
}

// TestKillOp interrupts a getMore waiting for data on a tailable cursor:
// killOp makes it fail with Interrupted, as checkForInterrupt does in
// mongod's wait for inserts, and $currentOp showed it while it waited.
func TestKillOp(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "killOp interrupts a waiting getMore", killOpRef+"; src/mongo/db/query/plan_executor_impl.cpp (waitForInserts)",
		cover{family: commandFam, op: "killOp", col: semantics}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create":"capped","capped":true,"size":4096}`)
			insertDocs(t, db.Collection("capped"), `[{"_id":1}]`)
			// One session for the find and its getMores, as a cursor
			// belongs to its session: the driver's own cursor.
			cur, err := db.Collection("capped").Find(ctxFor(t), bson.D{},
				options.Find().SetCursorType(options.TailableAwait).SetMaxAwaitTime(20*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if !cur.Next(ctxFor(t)) {
				t.Fatalf("no first document: %v", cur.Err())
			}
			done := make(chan error, 1)
			go func() {
				cur.Next(context.Background())
				done <- cur.Err()
			}()
			admin := db.Client().Database("admin")
			match := `{"aggregate":1,"pipeline":[{"$currentOp":{}},{"$match":{"command.getMore":{"$exists":true},"ns":"` + db.Name() + `.capped"}}],"cursor":{}}`
			var opid any
			for deadline := time.Now().Add(10 * time.Second); opid == nil && time.Now().Before(deadline); {
				docs, err := cursorDocs(t, admin, ejDoc(t, match))
				if err != nil {
					t.Fatal(err)
				}
				if len(docs) == 1 {
					if got := field(docs[0], "op"); got != "getmore" {
						t.Errorf("the getMore's op is %v", got)
					}
					opid = field(docs[0], "opid")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if opid == nil {
				t.Fatal("$currentOp never showed the waiting getMore")
			}
			sameFields(t, "killOp", mustCommand(t, admin, `{"killOp":1,"op":`+relaxed(opid)+`}`), ejDoc(t, `{"info":"attempting to kill op"}`))
			logged := false
			for _, l := range field(mustCommand(t, admin, `{"getLog":"global"}`), "log").(bson.A) {
				logged = logged || strings.Contains(l.(string), `"msg":"Going to kill op","attr":{"opId":`+relaxed(opid)+`}`)
			}
			if !logged {
				t.Error("no Going to kill op line in the RAM log")
			}
			select {
			case err := <-done:
				var ce mongo.CommandError
				if !errors.As(err, &ce) {
					t.Fatalf("the killed getMore ended with %v", err)
				}
				sameError(t, "the killed getMore", &ce, mongoerr.Interrupted, "Executor error during getMore :: caused by :: operation was interrupted")
			case <-time.After(10 * time.Second):
				t.Fatal("the getMore did not stop")
			}
		})
}
