package aggregate

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestPipelineErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{name: "unknown stage", pipeline: `[{"$foo": {}}]`, code: 40324, msg: "Unrecognized pipeline stage name: '$foo'"},
		{name: "two fields", pipeline: `[{"$match": {}, "$limit": 1}]`, code: 40323, msg: "A pipeline stage specification object must contain exactly one field."},
		{name: "not an object", pipeline: `[1]`, code: mongoerr.TypeMismatch, msg: "Each element of the 'pipeline' array must be an object"},
		{name: "$out not last", pipeline: `[{"$out": "x"}, {"$limit": 1}]`, code: 40601, msg: "$out can only be the final stage in the pipeline"},
		{name: "$merge not last", pipeline: `[{"$merge": "x"}, {"$limit": 1}]`, code: 40601, msg: "$merge can only be the final stage in the pipeline"},
		{name: "$collStats not first", pipeline: `[{"$limit": 1}, {"$collStats": {}}]`, code: 40602, msg: "$collStats is only valid as the first stage in a pipeline"},
		{name: "$out in $facet", pipeline: `[{"$facet": {"a": [{"$out": "x"}]}}]`, code: 40600, msg: "$out is not allowed to be used within a $facet stage"},
		{name: "$match not object", pipeline: `[{"$match": 1}]`, code: 15959, msg: "the match filter must be an expression in an object"},
		{name: "$match bad operator", pipeline: `[{"$match": {"a": {"$foo": 1}}}]`, code: mongoerr.BadValue},
		{name: "$sample size", pipeline: `[{"$sample": {"size": -1}}]`, code: 28747},
		{name: "expression error at run time", pipeline: `[{"$project": {"s": {"$size": "$a"}}}]`, input: []string{`{"a": 1}`}, code: 17124},
	})
}

func TestFacetUnionDocuments(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "$facet", input: enrollments,
			pipeline: `[{"$facet": {"byCourse": [{"$sortByCount": "$course"}], "top": [{"$sort": {"grade": -1}}, {"$limit": 1}, {"$project": {"student": 1, "_id": 0}}], "n": [{"$count": "n"}]}}]`,
			want:     []string{`{"byCourse": [{"_id": "db", "count": 3}, {"_id": "go", "count": 2}], "top": [{"student": "ann"}], "n": [{"n": 5}]}`}},
		{name: "$documents", pipeline: `[{"$documents": [{"x": 1}, {"x": 2}]}, {"$set": {"y": "$x"}}]`,
			want: []string{`{"x": 1, "y": 1}`, `{"x": 2, "y": 2}`}},
		{name: "$sample bigger than input returns all", input: []string{`{"_id": 1}`}, pipeline: `[{"$sample": {"size": 5}}]`, want: []string{`{"_id": 1}`}},
	})
	db := newFakeDB()
	db.colls["other"] = docs(t, `{"_id": 10, "v": 1}`, `{"_id": 11, "v": 2}`)
	got := runWithDB(t, db, docs(t, `{"_id": 1}`), `[{"$unionWith": {"coll": "other", "pipeline": [{"$match": {"v": 2}}]}}]`)
	expect(t, got, `{"_id": 1}`, `{"_id": 11, "v": 2}`)
	got = runWithDB(t, db, nil, `[{"$unionWith": "other"}]`)
	expect(t, got, `{"_id": 10, "v": 1}`, `{"_id": 11, "v": 2}`)
}

func TestOutAndMerge(t *testing.T) {
	db := newFakeDB()
	got := runWithDB(t, db, docs(t, `{"_id": 1, "c": "a", "g": 1}`, `{"_id": 2, "c": "a", "g": 3}`),
		`[{"$group": {"_id": "$c", "avg": {"$avg": "$g"}}}, {"$out": "stats"}]`)
	if len(got) != 0 {
		t.Errorf("$out returned %v", got)
	}
	expect(t, db.colls["stats"], `{"_id": "a", "avg": 2.0}`)

	// The computed pattern: recompute stored averages with $merge.
	db.colls["courses"] = docs(t, `{"_id": "a", "title": "A", "avg": 0.0}`, `{"_id": "b", "title": "B"}`)
	runWithDB(t, db, docs(t, `{"c": "a", "g": 4}`, `{"c": "z", "g": 1}`),
		`[{"$group": {"_id": "$c", "avg": {"$avg": "$g"}}}, {"$merge": {"into": "courses", "on": "_id", "whenMatched": "merge", "whenNotMatched": "discard"}}]`)
	expect(t, db.colls["courses"], `{"_id": "a", "title": "A", "avg": 4.0}`, `{"_id": "b", "title": "B"}`)

	runWithDB(t, db, docs(t, `{"_id": "b", "n": 2}`, `{"_id": "c", "n": 1}`),
		`[{"$merge": {"into": {"db": "test", "coll": "courses"}, "whenMatched": [{"$set": {"n": {"$add": ["$$new.n", 10]}}}], "whenNotMatched": "insert"}}]`)
	expect(t, db.colls["courses"], `{"_id": "a", "title": "A", "avg": 4.0}`, `{"_id": "b", "title": "B", "n": 12}`, `{"_id": "c", "n": 1}`)

	runWithDB(t, db, docs(t, `{"_id": "a", "x": 1}`), `[{"$merge": {"into": "courses", "whenMatched": "replace"}}]`)
	expect(t, db.colls["courses"][:1], `{"_id": "a", "x": 1}`)
	runWithDB(t, db, docs(t, `{"_id": "a", "y": 1}`), `[{"$merge": {"into": "courses", "whenMatched": "keepExisting"}}]`)
	expect(t, db.colls["courses"][:1], `{"_id": "a", "x": 1}`)

	// whenMatched: "fail" is a plain insert, which only a real
	// collection's unique index refuses: compat's
	// TestStageMergeDuplicateKeyContext covers it through the driver.
	_, err := runPipeline(t, db.context(), docs(t, `{"_id": "zz"}`), pipe(t, `[{"$merge": {"into": "courses", "whenNotMatched": "fail"}}]`))
	if me, ok := err.(*mongoerr.Error); !ok || me.Code != mongoerr.MergeStageNoMatchingDocument {
		t.Errorf("whenNotMatched fail: %v", err)
	}
}

func TestStatsStages(t *testing.T) {
	db := newFakeDB()
	db.colls["input"] = docs(t, `{"_id": 1}`)
	got := runWithDB(t, db, nil, `[{"$collStats": {"storageStats": {}, "count": {}}}]`)
	expect(t, got, `{"ns": "test.input", "count": {"$numberLong": "1"}}`)
	got = runWithDB(t, db, nil, `[{"$indexStats": {}}]`)
	expect(t, got, `{"name": "_id_"}`)
}

func TestExplainAndLeadingStages(t *testing.T) {
	ctx := newFakeDB().context()
	p, err := Parse(pipe(t, `[{"$match": {"course": "db"}}, {"$sort": {"grade": -1}}, {"$limit": 2}, {"$group": {"_id": "$course", "avg": {"$avg": "$grade"}}}, {"$count": "n"}]`), ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.EnableTiming()
	filter, ok := p.LeadingMatch()
	if !ok || len(filter) != 1 || filter[0].Key != "course" {
		t.Fatalf("LeadingMatch = %v %v", filter, ok)
	}
	p.RemoveLeading(1)
	if srt, limit, ok := p.LeadingSort(); !ok || limit != 2 || srt[0].Key != "grade" {
		t.Fatalf("LeadingSort = %v %d %v", srt, limit, ok)
	}
	it, err := p.Run(NewSliceIterator(docs(t, enrollments...)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Drain(it); err != nil {
		t.Fatal(err)
	}
	got := p.Explain("executionStats")
	names := []string{}
	for _, s := range got {
		names = append(names, s.(bson.D)[0].Key)
	}
	want := []string{"$sort", "$group", "$group", "$project"}
	if len(names) != len(want) {
		t.Fatalf("stages %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("stages %v, want %v", names, want)
		}
	}
	expect(t, []bson.D{got[0].(bson.D)}, `{"$sort": {"sortKey": {"grade": -1}, "limit": {"$numberLong": "2"}}, "totalDataSizeSortedBytesEstimate": {"$numberLong": "163"}, "usedDisk": false, "spills": {"$numberLong": "0"}, "spilledDataStorageSize": {"$numberLong": "0"}, "nReturned": {"$numberLong": "2"}, "executionTimeMillisEstimate": {"$numberLong": "0"}}`)
	expect(t, []bson.D{got[3].(bson.D)[:1]}, `{"$project": {"_id": false, "n": true}}`)
	plain := p.Explain("queryPlanner")
	if len(plain[1].(bson.D)) != 1 {
		t.Errorf("queryPlanner explain has stats: %v", plain[1])
	}
}

func TestCancellation(t *testing.T) {
	ctx := newFakeDB().context()
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	ctx.Ctx = cctx
	input := enrollmentDocs(10_000)
	_, err := runPipeline(t, ctx, input, pipe(t, `[{"$group": {"_id": "$courseId"}}]`))
	if me, ok := err.(*mongoerr.Error); !ok || me.Code != mongoerr.Interrupted {
		t.Errorf("err = %v", err)
	}
}

func TestCommandLet(t *testing.T) {
	ctx := newFakeDB().context()
	ctx.Let = bson.D{{Key: "target", Value: "db"}}
	got, err := runPipeline(t, ctx, docs(t, enrollments...), pipe(t, `[{"$match": {"$expr": {"$eq": ["$course", "$$target"]}}}, {"$project": {"_id": 1, "t": "$$target"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got, `{"_id": 1, "t": "db"}`, `{"_id": 3, "t": "db"}`, `{"_id": 5, "t": "db"}`)
}

// The "Verify with" block of seed 000 (outlier pattern).
func TestSeedOutlierDistribution(t *testing.T) {
	input := []string{
		`{"_id": 1, "title": "a", "customers": [1, 2, 3]}`,
		`{"_id": 2, "title": "b"}`,
		`{"_id": 3, "title": "c", "customers": []}`,
	}
	runCases(t, []pipelineCase{
		{name: "outliers", input: input,
			pipeline: `[{"$project": {"title": 1, "customerCount": {"$size": {"$ifNull": ["$customers", []]}}}}, {"$sort": {"customerCount": -1}}, {"$limit": 20}]`,
			want:     []string{`{"_id": 1, "title": "a", "customerCount": 3}`, `{"_id": 2, "title": "b", "customerCount": 0}`, `{"_id": 3, "title": "c", "customerCount": 0}`}},
		{name: "distribution", input: input,
			pipeline: `[{"$project": {"count": {"$size": {"$ifNull": ["$customers", []]}}}}, {"$bucket": {"groupBy": "$count", "boundaries": [0, 50, 100, 500, 1000, 10000, 100000], "default": "100000+", "output": {"count": {"$sum": 1}}}}]`,
			want:     []string{`{"_id": 0, "count": 3}`}},
	})
}

func TestPipelineOptimizations(t *testing.T) {
	ctx := newFakeDB().context()
	p, err := Parse(pipe(t, `[{"$match": {"course": "db"}}, {"$match": {"grade": {"$gte": 80}}}, {"$sort": {"grade": 1}}, {"$skip": 1}, {"$limit": 5}, {"$limit": 3}]`), ctx)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, toDocs(p.Explain("queryPlanner")),
		`{"$match": {"$and": [{"course": {"$eq": "db"}}, {"grade": {"$gte": 80}}]}}`,
		`{"$sort": {"sortKey": {"grade": 1}, "limit": {"$numberLong": "4"}}}`,
		`{"$skip": {"$numberLong": "1"}}`)
	it, _ := p.Run(NewSliceIterator(docs(t, enrollments...)))
	got, err := Drain(it)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got, `{"_id": 1, "course": "db", "grade": 90, "student": "ann", "tags": ["a"]}`)
}

func toDocs(a bson.A) []bson.D {
	out := make([]bson.D, len(a))
	for i, v := range a {
		out[i] = v.(bson.D)
	}
	return out
}
