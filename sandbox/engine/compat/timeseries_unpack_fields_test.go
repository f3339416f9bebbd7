package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The unpacking of a time-series collection builds only the fields the
// rest of the pipeline reads (DocumentSourceInternalUnpackBucket::
// doOptimizeAt: hasNoRequirements, extractOrBuildProjectToInternalize,
// internalizeProject; serializeToArray lists the fields sorted, the
// metaField last). A plain inclusion or exclusion $project right after it,
// with no filter on the measurements, becomes its list and goes; with a
// filter, or a computed field, the list is what the stages read. The cases
// follow jstests/core/timeseries/query/timeseries_match_pushdown_with_project.js.
const unpackFieldsRef = "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (extractOrBuildProjectToInternalize, internalizeProject, serializeToArray); src/mongo/db/query/timeseries/README.md; jstests/core/timeseries/query/timeseries_match_pushdown_with_project.js"

func TestTimeseriesUnpackFields(t *testing.T) {
	s := newSuite(t)
	unpack := func(fields string, filter string) string {
		out := `{"$_internalUnpackBucket":{` + fields + `,"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true`
		if filter != "" {
			out += `,"eventFilter":` + filter
		}
		return out + `}}`
	}
	cases := []struct{ name, pipeline, stages, want string }{
		{name: "a plain inclusion becomes the include list",
			pipeline: `[{"$match":{"m":1}},{"$project":{"v":1,"_id":0}},{"$limit":2}]`,
			stages:   `[` + unpack(`"include":["v"]`, "") + `,{"$limit":{"$numberLong":"2"}}]`,
			want:     `[{"v":1},{"v":4}]`},
		{name: "a plain exclusion becomes the exclude list",
			pipeline: `[{"$project":{"v":0,"_id":0}},{"$limit":1}]`,
			stages:   `[` + unpack(`"exclude":["_id","v"]`, "") + `,{"$limit":{"$numberLong":"1"}}]`,
			want:     `[{"t":{"$date":"2023-11-14T22:13:20Z"},"m":0}]`},
		{name: "with a filter the inclusion stays and the list is what is read",
			pipeline: `[{"$match":{"v":{"$gt":27}}},{"$project":{"_id":0,"m":1}}]`,
			stages:   `[` + unpack(`"include":["v","m"]`, `{"v":{"$gt":27}}`) + `,{"$project":{"_id":false,"m":true}}]`,
			want:     `[{"m":1},{"m":2}]`},
		{name: "with a filter an exclusion stays and everything is built",
			pipeline: `[{"$match":{"v":{"$gt":28}}},{"$project":{"_id":0,"v":0}}]`,
			stages:   `[` + unpack(`"exclude":[]`, `{"v":{"$gt":28}}`) + `,{"$project":{"_id":false,"v":false}}]`,
			want:     `[{"t":{"$date":"2023-11-14T22:42:20Z"},"m":2}]`},
		{name: "a computed field reads its arguments",
			pipeline: `[{"$project":{"_id":0,"w":{"$add":["$v",1]}}},{"$limit":1}]`,
			stages:   `[` + unpack(`"include":["v"]`, "") + `,{"$project":{"_id":false,"w":{"$add":["$v",{"$const":1}]}}},{"$limit":{"$numberLong":"1"}}]`,
			want:     `[{"w":1}]`},
		{name: "a group reads its key and arguments, the metaField listed last",
			pipeline: `[{"$match":{"v":{"$gte":0}}},{"$group":{"_id":"$m","a":{"$avg":"$v"}}},{"$sort":{"_id":1}}]`,
			stages:   `[` + unpack(`"include":["v","m"]`, `{"v":{"$gte":0}}`) + `,{"$group":{"_id":"$m","a":{"$avg":"$v"}}},{"$sort":{"sortKey":{"_id":1}}}]`,
			want:     `[{"_id":0,"a":13.5},{"_id":1,"a":14.5},{"_id":2,"a":15.5}]`},
		{name: "an exclusion of the metaField drops it from the buckets instead",
			pipeline: `[{"$project":{"m":0,"_id":0}},{"$limit":1}]`,
			stages:   `[` + unpack(`"exclude":["_id"]`, "") + `,{"$limit":{"$numberLong":"1"}}]`,
			want:     `[{"t":{"$date":"2023-11-14T22:13:20Z"},"v":0}]`},
		{name: "a stage that needs whole documents gets them",
			pipeline: `[{"$sort":{"v":-1}},{"$limit":1},{"$project":{"_id":0}}]`,
			stages:   `[` + unpack(`"exclude":[]`, "") + `,{"$sort":{"sortKey":{"v":-1},"limit":{"$numberLong":"1"}}},{"$project":{"_id":false}}]`,
			want:     `[{"t":{"$date":"2023-11-14T22:42:20Z"},"m":2,"v":29}]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, unpackFieldsRef, cover{family: stage, op: "$project", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			_, stages := tsExplainStages(t, db, tc.pipeline, "")
			sameValue(t, "stages", stages, tc.stages)
			got := tsAggregate(t, db, tc.pipeline)
			sameValue(t, "results", got, tc.want)
		})
	}

	s.runCase(t, "a $limit right after the unpacking also limits the buckets read", unpackFieldsRef+" (doOptimizeAt: limit pushdown)",
		cover{family: stage, op: "$limit", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			plan, stages := tsExplainStages(t, db, `[{"$limit":2}]`, "")
			sameValue(t, "plan", plan, `{"isCached":false,"stage":"LIMIT","limitAmount":2,"inputStage":{"stage":"COLLSCAN","direction":"forward"}}`)
			sameValue(t, "stages", stages, `[`+unpack(`"exclude":[]`, "")+`,{"$limit":{"$numberLong":"2"}}]`)
			if got := tsAggregate(t, db, `[{"$limit":2}]`); len(got) != 2 {
				t.Fatalf("%d measurements, want 2", len(got))
			}
			// A filter on the measurements keeps the limit below the
			// unpacking only: a bucket may hold none that match. The scan
			// reads the buckets whose control.max may match.
			plan, _ = tsExplainStages(t, db, `[{"$match":{"v":{"$gt":3}}},{"$limit":2}]`, "")
			sameValue(t, "filtered plan", plan, `{"isCached":false,"stage":"COLLSCAN","filter":{"control.max.v":{"$_internalExprGt":3}},"direction":"forward"}`)
		})

	buckets := func(spec string) string {
		return `{"aggregate":"system.buckets.c","pipeline":[{"$_internalUnpackBucket":` + spec + `},{"$limit":1}],"cursor":{}}`
	}
	setup := []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`,
		`{"insert":"c","documents":[{"t":{"$date":"2024-01-01T00:00:00Z"},"m":1,"v":7,"w":8}]}`}
	cov := cover{family: stage, op: "$_unpackBucket", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "an include list given", ref: unpackFieldsRef, cov: cover{family: stage, op: "$_unpackBucket", col: semantics}, setup: setup,
			cmd:  buckets(`{"include":["v","m"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600}`),
			want: `{"cursor":{"firstBatch":[{"m":1,"v":7}],"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.c"},"ok":1.0}`},
		{name: "an exclude list given", ref: unpackFieldsRef, cov: cover{family: stage, op: "$_unpackBucket", col: semantics}, setup: setup,
			cmd:  buckets(`{"exclude":["_id","t","m"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600}`),
			want: `{"cursor":{"firstBatch":[{"v":7,"w":8}],"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.c"},"ok":1.0}`},
		{name: "both lists", ref: unpackFieldsRef, cov: cov, setup: setup,
			cmd:  buckets(`{"include":[],"exclude":[],"timeField":"t","bucketMaxSpanSeconds":3600}`),
			code: 5408000, msg: "The $_internalUnpackBucket stage expects at most one of include/exclude parameters to be specified"},
		{name: "a list that is no array", ref: unpackFieldsRef, cov: cov, setup: setup,
			cmd:  buckets(`{"include":"v","timeField":"t","bucketMaxSpanSeconds":3600}`),
			code: 5346501, msg: "include or exclude field must be an array, got: string"},
		{name: "a field that is no string", ref: unpackFieldsRef, cov: cov, setup: setup,
			cmd:  buckets(`{"exclude":[1],"timeField":"t","bucketMaxSpanSeconds":3600}`),
			code: 5346502, msg: "include or exclude field element must be a string, got: int"},
		{name: "a dotted field", ref: unpackFieldsRef, cov: cov, setup: setup,
			cmd:  buckets(`{"include":["a.b"],"timeField":"t","bucketMaxSpanSeconds":3600}`),
			code: 5346503, msg: "include or exclude field element must be a single-element field path"},
	})
}
