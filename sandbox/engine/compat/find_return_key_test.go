package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// find's returnKey answers, for each document, the key of the index entry
// it came from instead of the document: QueryPlannerAnalysis puts a
// RETURN_KEY stage where the projection would go, ignoring the projection
// once it is parsed, and ReturnKeyStage (src/mongo/db/exec/classic/
// return_key.cpp) builds the answer from the index key metadata, an empty
// document when no index scan produced it. RETURN_KEY reads no field, so
// an index scan needs no FETCH. jstests/core/rollback_index_drop.js,
// jstests/core/index_check5.js-style returnKey uses.
func TestFindReturnKey(t *testing.T) {
	const (
		ref   = "src/mongo/db/query/planner_analysis.cpp analyzeDataAccess (ReturnKeyNode); src/mongo/db/exec/classic/return_key.cpp"
		docs  = `[{"_id":1,"a":3,"b":"x"},{"_id":2,"a":1,"b":"y"},{"_id":3,"a":2,"b":"z"}]`
		ia    = `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`
		batch = `"id":{"$numberLong":"0"},"ns":"{{db}}.c"`
	)
	cov := cover{family: commandFam, op: "find"}
	runCmdCases(t, []cmdCase{
		{name: "returnKey over an index scan answers the keys", ref: "jstests/core/rollback_index_drop.js; " + ref, cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","hint":{"a":1},"sort":{"a":1},"returnKey":true}`,
			want: `{"cursor":{"firstBatch":[{"a":1},{"a":2},{"a":3}],` + batch + `}}`},
		{name: "returnKey over a collection scan answers empty documents", ref: ref + " (no index key metadata: BSONObj())", cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","filter":{"b":{"$ne":"y"}},"hint":{"$natural":1},"returnKey":true}`,
			want: `{"cursor":{"firstBatch":[{},{}],` + batch + `}}`},
		{name: "returnKey ignores the projection", ref: ref + " (the projection is ignored when returnKey is specified)", cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","filter":{"a":{"$gte":2}},"projection":{"b":1,"_id":0},"returnKey":true}`,
			want: `{"cursor":{"firstBatch":[{"a":2},{"a":3}],` + batch + `}}`},
		{name: "returnKey false answers the documents", ref: ref, cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","filter":{"a":1},"returnKey":false}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":1,"b":"y"}],` + batch + `}}`},
		{name: "returnKey still parses the projection", ref: "src/mongo/db/query/canonical_query.cpp (the projection is parsed before planning)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs, setup: []string{ia},
			cmd: `{"find":"c","projection":{"a":{"$bogus":1}},"returnKey":true}`, code: 31325},
		{name: "returnKey must be a boolean", ref: "src/mongo/db/query/find_command.idl (returnKey: optionalBool)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			cmd: `{"find":"c","returnKey":"yes"}`, code: mongoerr.TypeMismatch},
		// The projection's sortKey fields are kept: RETURN_KEY sets each,
		// after the index key, to the sort key (setNestedField), whether
		// the index gives the order (a SORT_KEY_GENERATOR computes it) or
		// a SORT does. jstests/core/return_key.js.
		{name: "returnKey keeps the sortKey $meta fields", ref: "jstests/core/return_key.js; " + ref + " (sortKeyMetaFields)", cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","sort":{"a":1},"hint":{"a":1},"projection":{"s":{"$meta":"sortKey"},"t.u":{"$meta":"sortKey"}},"returnKey":true}`,
			want: `{"cursor":{"firstBatch":[{"a":1,"s":[1],"t":{"u":[1]}},{"a":2,"s":[2],"t":{"u":[2]}},{"a":3,"s":[3],"t":{"u":[3]}}],` + batch + `}}`},
		{name: "returnKey keeps the sortKey of a blocking sort", ref: "jstests/core/return_key.js; " + ref + " (sortKeyMetaFields)", cov: cov, docs: docs, setup: []string{ia},
			cmd:  `{"find":"c","sort":{"b":-1},"hint":{"a":1},"projection":{"s":{"$meta":"sortKey"},"x":1},"returnKey":true}`,
			want: `{"cursor":{"firstBatch":[{"a":2,"s":["z"]},{"a":1,"s":["y"]},{"a":3,"s":["x"]}],` + batch + `}}`},
		{name: "returnKey with a sortKey $meta and no sort is refused", ref: "src/mongo/db/query/canonical_query.cpp CanonicalQuery::init", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs, setup: []string{ia},
			cmd: `{"find":"c","projection":{"s":{"$meta":"sortKey"}},"returnKey":true}`, code: mongoerr.BadValue, msg: "cannot use sortKey $meta projection without a sort"},
		// A view's find becomes an aggregate (asAggregationCommand), which
		// cannot carry returnKey; a time-series collection is such a view.
		{name: "returnKey on a view is refused", ref: "src/mongo/db/query/query_request_conversion.cpp asAggregationCommand", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd:   `{"find":"v","returnKey":true}`, code: mongoerr.InvalidPipelineOperator, msg: "Option returnKey not supported in aggregation."},
		{name: "returnKey on a time-series collection is refused", ref: "src/mongo/db/query/query_request_conversion.cpp asAggregationCommand", cov: cover{family: commandFam, op: "find", col: errorCol},
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`},
			cmd:   `{"find":"ts","returnKey":true}`, code: mongoerr.InvalidPipelineOperator, msg: "Option returnKey not supported in aggregation."},
		// ExpressionMeta: a document a find's plan read from the
		// collection has its record id; in a pipeline only a leading
		// $project the query layer runs sees it (meta_pipeline_test.go
		// has the rest, projection_meta_sort_key_test.go the sort key).
		{name: "a recordId $meta in a find projection is the record id", ref: "src/mongo/db/pipeline/expression.cpp ExpressionMeta (kRecordId)", cov: cover{family: projection, op: "$meta"}, docs: docs,
			cmd:  `{"find":"c","filter":{"a":{"$gte":2}},"projection":{"r":{"$meta":"recordId"},"a":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":3,"r":{"$numberLong":"1"}},{"_id":3,"a":2,"r":{"$numberLong":"3"}}],` + batch + `}}`},
		{name: "a recordId $meta in a pipeline's pushed-down $project is the record id", ref: "src/mongo/db/exec/classic/projection.cpp ProjectionStageDefault::transform; src/mongo/db/pipeline/pipeline_d.cpp buildProjectionForPushdown", cov: cover{family: projection, op: "$meta"}, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$project":{"r":{"$meta":"recordId"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"r":{"$numberLong":"1"}},{"_id":2,"r":{"$numberLong":"2"}},{"_id":3,"r":{"$numberLong":"3"}}],` + batch + `}}`},
		// query_request_helper::addShowRecordIdMetaProj: showRecordId is
		// {$recordId: {$meta: "recordId"}} added to the projection
		// (FieldPath allows that one name, field_path.cpp), after its own
		// fields; a projection naming $recordId already keeps its own.
		// jstests/core/query/show_record_id.js.
		{name: "showRecordId appends $recordId", ref: "src/mongo/db/query/query_request_helper.cpp addShowRecordIdMetaProj", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"a":{"$lte":2}},"sort":{"a":1},"showRecordId":true}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":1,"b":"y","$recordId":{"$numberLong":"2"}},{"_id":3,"a":2,"b":"z","$recordId":{"$numberLong":"3"}}],` + batch + `}}`},
		{name: "showRecordId after an inclusion projection", ref: "src/mongo/db/query/query_request_helper.cpp addShowRecordIdMetaProj", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":1},"projection":{"b":1,"_id":0},"showRecordId":true}`,
			want: `{"cursor":{"firstBatch":[{"b":"x","$recordId":{"$numberLong":"1"}}],` + batch + `}}`},
		{name: "showRecordId keeps a projected $recordId", ref: "src/mongo/db/query/query_request_helper.cpp addShowRecordIdMetaProj", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":1},"projection":{"$recordId":{"$literal":"mine"}},"showRecordId":true}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"$recordId":"mine"}],` + batch + `}}`},
		{name: "showRecordId false adds nothing", ref: "src/mongo/db/query/find_command.idl (showRecordId: safeBool)", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":1},"showRecordId":false}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":3,"b":"x"}],` + batch + `}}`},
		{name: "showRecordId on a view is refused", ref: "src/mongo/db/query/query_request_conversion.cpp asAggregationCommand", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd:   `{"find":"v","showRecordId":true}`, code: mongoerr.InvalidPipelineOperator, msg: "Option showRecordId not supported in aggregation."},
		{name: "a $-prefixed projection field other than the metadata ones is refused", ref: "src/mongo/db/pipeline/field_path.cpp kAllowedDollarPrefixedFields", cov: cover{family: projection, op: "$meta", col: errorCol}, docs: docs,
			cmd: `{"find":"c","projection":{"$recordIds":1}}`, code: 16410},
		// find_command.idl's internal resume fields are $_requestResumeToken
		// and $_resumeAfter; the sandbox has no record-id resume tokens.
		{name: "$_requestResumeToken is refused", ref: "src/mongo/db/query/find_command.idl ($_requestResumeToken)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			cmd: `{"find":"c","hint":{"$natural":1},"$_requestResumeToken":true}`, code: mongoerr.NotImplemented},
		{name: "$_resumeAfter is refused", ref: "src/mongo/db/query/find_command.idl ($_resumeAfter)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			cmd: `{"find":"c","hint":{"$natural":1},"$_resumeAfter":{"$recordId":{"$numberLong":"1"}}}`, code: mongoerr.NotImplemented},
		{name: "requestResumeToken without $_ is an unknown field", ref: "src/mongo/db/query/find_command.idl (strict: true)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			cmd: `{"find":"c","requestResumeToken":true}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'FindCommandRequest.requestResumeToken' is an unknown field."},
		{name: "includeQueryStatsMetrics is refused", ref: "src/mongo/db/query/find_command.idl (includeQueryStatsMetrics, requires_fcv_80)", cov: cover{family: commandFam, op: "find", col: errorCol}, docs: docs,
			cmd: `{"find":"c","includeQueryStatsMetrics":true}`, code: mongoerr.NotImplemented},
		{name: "includeQueryStatsMetrics false is accepted", ref: "src/mongo/db/query/find_command.idl (includeQueryStatsMetrics: optionalBool)", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"a":1},"includeQueryStatsMetrics":false}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":1,"b":"y"}],` + batch + `}}`},
	})
}

// RETURN_KEY's explain: no fields of its own (plan_explainer_impl's
// statsToBSON has no case for it), the SKIP under it and the LIMIT above
// it as for a projection, and no FETCH when nothing else reads documents.
func TestExplainFindReturnKey(t *testing.T) {
	const ref = "src/mongo/db/query/planner_analysis.cpp analyzeDataAccess (skip before RETURN_KEY, limit after)"
	s := newSuite(t)
	s.runCase(t, "RETURN_KEY over the IXSCAN reads no document", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 6}}, "returnKey": true}`)
		sameFigures(t, st, "RETURN_KEY>IXSCAN", 3, 0)
		plan, _ := field(st, "executionStages").(bson.D)
		if v := field(plan, "transformBy"); v != nil {
			t.Errorf("RETURN_KEY has transformBy %v", v)
		}
	})
	s.runCase(t, "SKIP under RETURN_KEY and LIMIT above it", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 1}, "d": {"$lt": 5}}, "returnKey": true, "skip": 1, "limit": 1}`)
		sameFigures(t, st, "LIMIT>RETURN_KEY>SKIP>FETCH>IXSCAN", 5, 5)
	})
}

// showRecordId rules out the _id lookup (isIdHackEligibleQuery,
// src/mongo/db/query/get_executor.cpp): the plan fetches through the _id
// index and projects $recordId as a $meta.
func TestShowRecordIDExplain(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "showRecordId by _id is no express lookup", "src/mongo/db/query/get_executor.cpp isIdHackEligibleQuery",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 0, "a": 1}]`)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"_id": 0}, "showRecordId": true}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "PROJECTION_DEFAULT>FETCH>IXSCAN" {
				t.Errorf("plan %s, want PROJECTION_DEFAULT>FETCH>IXSCAN", got)
			}
			sameValue(t, "transformBy", field(plan, "transformBy"), `{"$recordId": {"$meta": "recordId"}}`)
		})
}
