package compat_test

import "testing"

// {$meta: "indexKey"} is the key of the index entry a document came from:
// IndexScan::doWork (src/mongo/db/exec/classic/index_scan.cpp) records it
// with IndexKeyEntry::rehydrateKey, the key's values named by the key
// pattern's fields, when the plan asks for it; a collection scan records
// nothing, so the field is absent. The metadata stays with the document
// through FETCH and SORT, and DocumentSourceCursor hands it to the
// pipeline. jstests/core/query/project/projection_meta_index_key.js.
func TestProjectionMetaIndexKey(t *testing.T) {
	const (
		ref   = "jstests/core/query/project/projection_meta_index_key.js; src/mongo/db/exec/classic/index_scan.cpp (addKeyMetadata, rehydrateKey)"
		docs  = `[{"_id":1,"a":10,"b":"x"},{"_id":2,"a":20,"b":"y"},{"_id":3,"a":30,"b":"z"}]`
		ab    = `{"createIndexes":"c","indexes":[{"key":{"a":1,"b":1},"name":"a_1_b_1"}]}`
		batch = `"id":{"$numberLong":"0"},"ns":"{{db}}.c"`
	)
	cov := cover{family: projection, op: "$meta"}
	runCmdCases(t, []cmdCase{
		{name: "indexKey with an inclusion over an index scan", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"find":"c","filter":{"a":{"$gt":20}},"projection":{"_id":0,"a":1,"c":{"$meta":"indexKey"}},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"a":30,"c":{"a":30,"b":"z"}}],` + batch + `}}`},
		{name: "indexKey with an exclusion over an index scan", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"find":"c","filter":{"a":{"$gt":20}},"projection":{"_id":0,"a":0,"c":{"$meta":"indexKey"}},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"b":"z","c":{"a":30,"b":"z"}}],` + batch + `}}`},
		{name: "indexKey is absent over a collection scan", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"find":"c","filter":{"a":{"$gt":20}},"projection":{"_id":0,"a":1,"c":{"$meta":"indexKey"}},"hint":{"$natural":1}}`,
			want: `{"cursor":{"firstBatch":[{"a":30}],` + batch + `}}`},
		{name: "indexKey of a sort the index provides", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"find":"c","projection":{"_id":1,"c":{"$meta":"indexKey"}},"sort":{"a":1},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"c":{"a":10,"b":"x"}},{"_id":2,"c":{"a":20,"b":"y"}},{"_id":3,"c":{"a":30,"b":"z"}}],` + batch + `}}`},
		{name: "indexKey kept through a blocking sort", ref: ref + "; src/mongo/db/exec/classic/sort.cpp (the member keeps its metadata)", cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"find":"c","filter":{"a":{"$gte":20}},"projection":{"_id":1,"c":{"$meta":"indexKey"}},"sort":{"b":-1},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":3,"c":{"a":30,"b":"z"}},{"_id":2,"c":{"a":20,"b":"y"}}],` + batch + `}}`},
		{name: "indexKey names a dotted key field flat", ref: "src/mongo/db/storage/index_entry_comparison.cpp (IndexKeyEntry::rehydrateKey appends each value under the key pattern's field name)", cov: cov,
			docs:  `[{"_id":1,"x":{"y":5}}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"x.y":1},"name":"x.y_1"}]}`},
			cmd:   `{"find":"c","filter":{"x.y":5},"projection":{"_id":0,"x":1,"k":{"$meta":"indexKey"}}}`,
			want:  `{"cursor":{"firstBatch":[{"x":{"y":5},"k":{"x.y":5}}],` + batch + `}}`},
		{name: "indexKey of a missing key field is null", ref: ref, cov: cov, docs: `[{"_id":1,"a":1}]`, setup: []string{ab},
			cmd:  `{"find":"c","filter":{"a":1},"projection":{"_id":0,"k":{"$meta":"indexKey"}},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"a":1,"k":{"a":1,"b":null}}],` + batch + `}}`},
		{name: "indexKey of a multikey document is the first key scanned", ref: "src/mongo/db/exec/classic/index_scan.cpp (a deduplicated RecordId keeps the metadata of the key that first produced it)", cov: cov,
			docs:  `[{"_id":1,"a":[3,1,2]}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd:   `{"find":"c","filter":{"a":{"$gte":2}},"projection":{"_id":0,"k":{"$meta":"indexKey"}},"hint":{"a":1}}`,
			want:  `{"cursor":{"firstBatch":[{"a":[3,1,2],"k":{"a":2}}],` + batch + `}}`},
		{name: "aggregate indexKey in a $project the query layer runs", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"a":{"$gt":20}}},{"$project":{"_id":0,"a":1,"c":{"$meta":"indexKey"}}}],"cursor":{},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"a":30,"c":{"a":30,"b":"z"}}],` + batch + `}}`},
		{name: "aggregate indexKey in a $project after a pushed-down $sort", ref: ref + "; src/mongo/db/pipeline/document_source_cursor.cpp (documents keep their metadata)", cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"aggregate":"c","pipeline":[{"$sort":{"a":1}},{"$project":{"_id":1,"c":{"$meta":"indexKey"}}}],"cursor":{},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":1,"c":{"a":10,"b":"x"}},{"_id":2,"c":{"a":20,"b":"y"}},{"_id":3,"c":{"a":30,"b":"z"}}],` + batch + `}}`},
		{name: "aggregate indexKey inside an expression of $addFields", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"a":20}},{"$addFields":{"k":{"$ifNull":[{"$meta":"indexKey"},"none"]}}}],"cursor":{},"hint":{"a":1,"b":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":20,"b":"y","k":{"a":20,"b":"y"}}],` + batch + `}}`},
		{name: "aggregate indexKey over a collection scan", ref: ref, cov: cov, docs: docs, setup: []string{ab},
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{"a":20}},{"$addFields":{"k":{"$ifNull":[{"$meta":"indexKey"},"none"]}}}],"cursor":{},"hint":{"$natural":1}}`,
			want: `{"cursor":{"firstBatch":[{"_id":2,"a":20,"b":"y","k":"none"}],` + batch + `}}`},
		{name: "a sort by indexKey is refused", ref: "src/mongo/db/query/sort_pattern.cpp (kValidMetaSorts has no indexKey)", cov: cover{family: projection, op: "$meta", col: errorCol}, docs: docs, setup: []string{ab},
			cmd: `{"find":"c","projection":{"c":{"$meta":"indexKey"}},"sort":{"c":{"$meta":"indexKey"}},"hint":{"a":1,"b":1}}`, code: 31138, msg: `Illegal $meta sort: $meta: "indexKey"`},
	})
}
