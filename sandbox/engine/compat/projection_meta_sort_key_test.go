package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// {$meta: "sortKey"} in a find projection is the key the plan sorted the
// document by: the SORT stage keeps it, or a SORT_KEY_GENERATOR computes it
// when an index gives the order (addSortKeyGeneratorStageIfNeeded,
// src/mongo/db/query/planner_analysis.cpp). ExpressionMeta writes it with
// DocumentMetadataFields::serializeSortKeyAsArray: an array with one part
// per sort field, a missing part as null. Through an array the part is the
// element the sort compared: the smallest ascending, the largest
// descending (SortKeyGenerator). A find without a sort has no key to give
// (CanonicalQuery::init), and findAndModify refuses the projection
// (get_executor.cpp makeProjection). jstests/core/sortl.js.
func TestProjectionMetaSortKey(t *testing.T) {
	const (
		ref   = "jstests/core/sortl.js; src/mongo/db/exec/document_value/document_metadata_fields.cpp serializeSortKeyAsArray"
		docs  = `[{"_id":1,"a":2,"b":"x"},{"_id":2,"a":[5,0,7],"b":"y"},{"_id":3,"b":"z"}]`
		ib    = `{"createIndexes":"c","indexes":[{"key":{"b":1},"name":"b_1"}]}`
		batch = `"id":{"$numberLong":"0"},"ns":"{{db}}.c"`
	)
	cov := cover{family: projection, op: "$meta"}
	errs := cover{family: projection, op: "$meta", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "sortKey of a one-field sort is a one-part array", ref: ref, cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":1},"sort":{"a":1},"projection":{"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"a":2,"b":"x","k":[2]}],` + batch + `}}`},
		{name: "sortKey has a part per sort field in sort order", ref: ref, cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":{"$in":[1,3]}},"sort":{"b":-1,"_id":1},"projection":{"_id":0,"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"b":"z","k":["z",3]},{"a":2,"b":"x","k":["x",1]}],` + batch + `}}`},
		{name: "sortKey of a missing field is null", ref: ref + " (missingToNull)", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":3},"sort":{"a":1,"b":1},"projection":{"_id":0,"b":0,"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"k":[null,"z"]}],` + batch + `}}`},
		{name: "sortKey of an array is its smallest element ascending", ref: "src/mongo/db/exec/sort_key_generator.cpp (the key of an array is the one the sort compares)", cov: cov, docs: docs,
			cmd:  `{"find":"c","sort":{"a":1},"projection":{"_id":1,"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"_id":3,"k":[null]},{"_id":2,"k":[0]},{"_id":1,"k":[2]}],` + batch + `}}`},
		{name: "sortKey of an array is its largest element descending", ref: "src/mongo/db/exec/sort_key_generator.cpp (the key of an array is the one the sort compares)", cov: cov, docs: docs,
			cmd:  `{"find":"c","sort":{"a":-1},"limit":2,"projection":{"_id":1,"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"k":[7]},{"_id":1,"k":[2]}],` + batch + `}}`},
		{name: "sortKey of a sort an index provides", ref: "src/mongo/db/query/planner_analysis.cpp addSortKeyGeneratorStageIfNeeded", cov: cov, docs: docs, setup: []string{ib},
			cmd:  `{"find":"c","filter":{"b":{"$gte":"y"}},"sort":{"b":-1},"hint":{"b":1},"projection":{"_id":1,"k":{"$meta":"sortKey"}}}`,
			want: `{"cursor":{"firstBatch":[{"_id":3,"k":["z"]},{"_id":2,"k":["y"]}],` + batch + `}}`},
		{name: "sortKey inside a projection expression", ref: "src/mongo/db/pipeline/expression.cpp ExpressionMeta (kSortKey)", cov: cov, docs: docs,
			cmd:  `{"find":"c","filter":{"_id":1},"sort":{"b":1},"projection":{"_id":0,"k":{"$arrayElemAt":[{"$meta":"sortKey"},0]}}}`,
			want: `{"cursor":{"firstBatch":[{"k":"x"}],` + batch + `}}`},
		{name: "sortKey without a sort is refused", ref: "src/mongo/db/query/canonical_query.cpp CanonicalQuery::init", cov: errs, docs: docs,
			cmd: `{"find":"c","projection":{"k":{"$meta":"sortKey"}}}`, code: mongoerr.BadValue, msg: "cannot use sortKey $meta projection without a sort"},
		{name: "sortKey without a sort is refused on a missing collection", ref: "src/mongo/db/query/canonical_query.cpp CanonicalQuery::init", cov: errs,
			cmd: `{"find":"nothere","projection":{"k":{"$meta":"sortKey"}}}`, code: mongoerr.BadValue, msg: "cannot use sortKey $meta projection without a sort"},
		{name: "findAndModify update refuses a sortKey projection", ref: "jstests/core/sortl.js; src/mongo/db/query/get_executor.cpp makeProjection", cov: errs, docs: docs,
			cmd:  `{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"b":1}},"sort":{"a":1},"fields":{"k":{"$meta":"sortKey"}}}`,
			code: mongoerr.BadValue, msg: "Cannot use a $meta sortKey projection in findAndModify commands.",
			thenFind: `{"find":"c","filter":{"_id":1}}`, thenWant: `[{"_id":1,"a":2,"b":"x"}]`},
		{name: "findAndModify remove refuses a sortKey projection", ref: "jstests/core/sortl.js; src/mongo/db/query/get_executor.cpp makeProjection", cov: errs, docs: docs,
			cmd:  `{"findAndModify":"c","query":{"_id":1},"remove":true,"sort":{"b":1},"fields":{"k":{"$meta":"sortKey"}}}`,
			code: mongoerr.BadValue, msg: "Cannot use a $meta sortKey projection in findAndModify commands.",
			thenFind: `{"find":"c","filter":{"_id":1}}`, thenWant: `[{"_id":1,"a":2,"b":"x"}]`},
		{name: "findAndModify upsert refuses a sortKey projection", ref: "src/mongo/db/query/get_executor.cpp makeProjection", cov: errs,
			cmd:  `{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"b":1}},"upsert":true,"fields":{"k":{"$meta":"sortKey"}}}`,
			code: mongoerr.BadValue, msg: "Cannot use a $meta sortKey projection in findAndModify commands."},
		// No executor is built over a collection that does not exist: the
		// plan is EOF and the projection is never checked.
		{name: "findAndModify over a missing collection finds nothing", ref: "src/mongo/db/query/get_executor.cpp getExecutorDelete (a missing collection is an EOF plan)", cov: cover{family: commandFam, op: "findAndModify"},
			cmd:  `{"findAndModify":"nothere","query":{"_id":1},"remove":true,"fields":{"k":{"$meta":"sortKey"}}}`,
			want: `{"lastErrorObject":{"n":0},"value":null}`},
		// In a pipeline DocumentSourceSort sets the metadata and the
		// stages that build their output from the input document keep it
		// (jstests/aggregation/sources/project/id_meta_projection.js: the
		// same key whether the $project runs in the query layer or after
		// an $unwind).
		{name: "aggregate sortKey after a pushed-down $sort", ref: "jstests/aggregation/sources/project/id_meta_projection.js; src/mongo/db/pipeline/document_source_sort.cpp", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"a":1}},{"$project":{"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":3,"k":[null]},{"_id":2,"k":[0]},{"_id":1,"k":[2]}],` + batch + `}}`},
		{name: "aggregate sortKey kept through $unwind", ref: "jstests/aggregation/sources/project/id_meta_projection.js; src/mongo/db/pipeline/document_source_unwind.cpp (each output copies the input's metadata)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"a":-1,"_id":1}},{"$unwind":"$a"},{"$project":{"a":1,"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":5,"k":[7,2]},{"_id":2,"a":0,"k":[7,2]},{"_id":2,"a":7,"k":[7,2]},{"_id":1,"a":2,"k":[2,1]}],` + batch + `}}`},
		// A $sort the pipeline runs itself sets no key on a standalone:
		// 8.0's DocumentSourceSort::extractSortKey adds it only when the
		// output is to be merged (needsMerge).
		{name: "aggregate sortKey after a $sort run in the pipeline is missing", ref: "src/mongo/db/pipeline/document_source_sort.cpp extractSortKey (needsMerge)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$group":{"_id":"$b"}},{"$sort":{"_id":-1}},{"$match":{"_id":{"$ne":"y"}}},{"$addFields":{"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":"z"},{"_id":"x"}],` + batch + `}}`},
		{name: "aggregate sortKey through a second $project", ref: "src/mongo/db/pipeline/document_source_single_document_transformation.cpp (the output keeps the input's metadata)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"b":1}},{"$project":{"b":1}},{"$limit":2},{"$set":{"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"b":"x","k":["x"]},{"_id":2,"b":"y","k":["y"]}],` + batch + `}}`},
		// Without a $sort before it the documents have no key, and mongod
		// answers nothing: sort key metadata is not among DepsTracker's
		// kDefaultUnavailableMetadata (dependencies.h), so nothing fails,
		// and ExpressionMeta gives missing.
		{name: "aggregate sortKey with no $sort before it is missing", ref: "src/mongo/db/pipeline/dependencies.h kDefaultUnavailableMetadata; src/mongo/db/pipeline/expression.cpp ExpressionMeta (kSortKey)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"_id":{"$lte":2}}},{"$project":{"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1},{"_id":2}],` + batch + `}}`},
		{name: "aggregate sortKey in a $lookup pipeline is missing", ref: "src/mongo/db/pipeline/expression.cpp ExpressionMeta (kSortKey)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"_id":1}},{"$limit":1},{"$lookup":{"from":"c","pipeline":[{"$match":{"_id":3}},{"$set":{"k":{"$ifNull":[{"$meta":"sortKey"},"none"]}}}],"as":"l"}},{"$project":{"l.k":1}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"l":[{"k":"none"}]}],` + batch + `}}`},
		// The sandbox does not hand the keys into a $facet's buffer, so it
		// refuses rather than guess there.
		{name: "aggregate sortKey inside $facet is refused", ref: "src/mongo/db/pipeline/expression.cpp ExpressionMeta (kSortKey)", cov: errs, docs: docs,
			cmd: `{"aggregate":"c","pipeline":[{"$sort":{"a":1}},{"$facet":{"f":[{"$project":{"k":{"$meta":"sortKey"}}}]}}],"cursor":{}}`, code: mongoerr.NotImplemented},
		// $group's documents are new ones, without metadata.
		{name: "aggregate sortKey past a $group is missing", ref: "src/mongo/db/pipeline/document_source_group.cpp (new output documents)", cov: cov, docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"a":1}},{"$group":{"_id":null}},{"$project":{"k":{"$meta":"sortKey"}}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"_id":null}],` + batch + `}}`},
	})
}

// Where the sort key comes from shows in the plan: a blocking SORT keeps
// it (addSortKeyMetadata), and when an index gives the order the planner
// puts a SORT_KEY_GENERATOR where the projection goes, above a SKIP
// (addSortKeyGeneratorStageIfNeeded, src/mongo/db/query/planner_analysis.cpp).
func TestExplainSortKeyPlans(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/planner_analysis.cpp addSortKeyGeneratorStageIfNeeded"
	s.runCase(t, "an index sort adds a SORT_KEY_GENERATOR for a sortKey projection", ref,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "sort": {"a": 1}, "skip": 7, "hint": {"a": 1}, "projection": {"k": {"$meta": "sortKey"}}}`)
			sameFigures(t, st, "PROJECTION_DEFAULT>SORT_KEY_GENERATOR>FETCH>SKIP>IXSCAN", 10, 3)
		})
	s.runCase(t, "a blocking sort needs no SORT_KEY_GENERATOR", ref,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "sort": {"d": 1}, "hint": {"a": 1}, "projection": {"k": {"$meta": "sortKey"}}}`)
			sameFigures(t, st, "PROJECTION_DEFAULT>SORT>FETCH>IXSCAN", 10, 10)
		})
	s.runCase(t, "an index sort without a sortKey projection has no SORT_KEY_GENERATOR", ref,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "sort": {"a": 1}, "hint": {"a": 1}, "projection": {"k": "$d"}}`)
			sameFigures(t, st, "PROJECTION_DEFAULT>FETCH>IXSCAN", 10, 10)
		})
}
