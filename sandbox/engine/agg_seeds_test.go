package engine_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $expr in find and pipeline-style updates share the aggregation
// expressions; the seeds' "Verify with" pipelines give the lessons' figures.

func TestAggExprInFind(t *testing.T) {
	db := startServer(t).Database("agg")
	budget := db.Collection("monthlyBudget")
	// The manual's $expr example.
	insertEJ(t, budget, `[
		{"_id": 1, "category": "food", "budget": 400, "spent": 450},
		{"_id": 2, "category": "drinks", "budget": 100, "spent": 150},
		{"_id": 3, "category": "clothes", "budget": 100, "spent": 50},
		{"_id": 4, "category": "misc", "budget": 500, "spent": 300},
		{"_id": 5, "category": "travel", "budget": 200, "spent": 650}
	]`)
	got := findAll(t, budget, ejDoc(t, `{"$expr": {"$gt": ["$spent", "$budget"]}}`), options.Find().SetProjection(bson.D{{Key: "category", Value: 1}}))
	assertDocs(t, got, ejDocs(t, `[{"_id": 1, "category": "food"}, {"_id": 2, "category": "drinks"}, {"_id": 5, "category": "travel"}]`))

	got = findAll(t, budget, ejDoc(t, `{"$expr": {"$lt": [{"$cond": {"if": {"$gte": ["$budget", 200]}, "then": {"$multiply": ["$spent", 0.5]}, "else": "$spent"}}, 100]}}`),
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	assertDocs(t, got, ejDocs(t, `[{"_id": 3}]`))

	// find's let variables.
	got = findAll(t, budget, ejDoc(t, `{"$expr": {"$eq": ["$category", "$$c"]}}`),
		options.Find().SetLet(ejDoc(t, `{"c": {"$concat": ["fo", "od"]}}`)).SetProjection(bson.D{{Key: "_id", Value: 1}}))
	assertDocs(t, got, ejDocs(t, `[{"_id": 1}]`))

	// The aggregate command's let: evaluated once, visible to $match's $expr.
	cur, err := db.RunCommandCursor(ctx, ejDoc(t, `{"aggregate": "monthlyBudget", "pipeline": [{"$match": {"$expr": {"$eq": ["$budget", "$$b"]}}}, {"$project": {"_id": 1}}],
		"cursor": {}, "let": {"b": {"$add": [50, 50]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var out []bson.D
	if err := cur.All(ctx, &out); err != nil {
		t.Fatal(err)
	}
	assertDocs(t, out, ejDocs(t, `[{"_id": 2}, {"_id": 3}]`))

	// An expression error in $expr is the aggregation error.
	ce := commandError(t, db, ejDoc(t, `{"find": "monthlyBudget", "filter": {"$expr": {"$divide": ["$spent", 0]}}}`))
	if ce.Code != mongoerr.BadValue || ce.Message != "Executor error during find command :: caused by :: can't $divide by zero" {
		t.Fatalf("find $expr error %d %q", ce.Code, ce.Message)
	}
	ce = commandError(t, db, ejDoc(t, `{"find": "monthlyBudget", "filter": {"$expr": {"$bogus": 1}}}`))
	if ce.Code != mongoerr.InvalidPipelineOperator || ce.Message != "Unrecognized expression '$bogus'" {
		t.Fatalf("find $expr error %d %q", ce.Code, ce.Message)
	}
}

func TestAggPipelineUpdates(t *testing.T) {
	db := startServer(t).Database("agg")
	students := db.Collection("students")
	insertEJ(t, students, `[
		{"_id": 1, "tests": [95, 92, 90], "old": true},
		{"_id": 2, "tests": [94, 88, 90], "old": true},
		{"_id": 3, "tests": [70, 75, 82], "old": true}
	]`)
	res, err := students.UpdateMany(ctx, bson.D{}, ejArray(t, `[
		{"$set": {"average": {"$trunc": [{"$avg": "$tests"}, 0]}}},
		{"$set": {"grade": {"$switch": {"branches": [
			{"case": {"$gte": ["$average", 90]}, "then": "A"},
			{"case": {"$gte": ["$average", 80]}, "then": "B"},
			{"case": {"$gte": ["$average", 70]}, "then": "C"}], "default": "F"}}}},
		{"$unset": "old"},
		{"$addFields": {"n": {"$size": "$tests"}}},
		{"$project": {"tests": 0}}]`))
	if err != nil {
		t.Fatal(err)
	}
	if res.MatchedCount != 3 || res.ModifiedCount != 3 {
		t.Fatalf("update result %+v", res)
	}
	assertDocs(t, findAll(t, students, bson.D{}), ejDocs(t, `[
		{"_id": 1, "average": 92.0, "grade": "A", "n": 3},
		{"_id": 2, "average": 90.0, "grade": "A", "n": 3},
		{"_id": 3, "average": 75.0, "grade": "C", "n": 3}]`))

	// $replaceWith and $$REMOVE; findOneAndUpdate takes a pipeline too.
	var after bson.D
	err = students.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: 3}}, ejArray(t, `[
		{"$replaceWith": {"_id": "$_id", "summary": {"$concat": ["$grade", "/", {"$toString": "$average"}]}, "n": {"$cond": [{"$gt": ["$n", 5]}, "$n", "$$REMOVE"]}}}]`),
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&after)
	if err != nil {
		t.Fatal(err)
	}
	assertDocs(t, []bson.D{after}, ejDocs(t, `[{"_id": 3, "summary": "C/75"}]`))

	// An upsert through a pipeline starts from the query's equality fields.
	if _, err := students.UpdateOne(ctx, bson.D{{Key: "_id", Value: 9}}, ejArray(t, `[{"$set": {"created": {"$literal": true}, "twice": {"$multiply": ["$_id", 2]}}}]`),
		options.UpdateOne().SetUpsert(true)); err != nil {
		t.Fatal(err)
	}
	assertDocs(t, findAll(t, students, bson.D{{Key: "_id", Value: 9}}), ejDocs(t, `[{"_id": 9, "created": true, "twice": 18}]`))

	// Only $set/$unset/$addFields/$project/$replaceRoot/$replaceWith are allowed.
	// mongod parses the pipeline when it applies the statement: a write error.
	_, err = students.UpdateOne(ctx, bson.D{}, ejArray(t, `[{"$group": {"_id": null}}]`))
	var we mongo.WriteException
	if !errors.As(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != mongoerr.InvalidOptions || we.WriteErrors[0].Message != "$group is not allowed to be used within an update" {
		t.Fatalf("pipeline update with $group: %v", err)
	}
}

// The seed 000 "Verify with" block: the outlier pattern's largest arrays
// and the distribution of array sizes.
func TestSeed000OutlierVerify(t *testing.T) {
	db := startServer(t).Database("agg")
	books := db.Collection("books")
	sizes := []int{3, 49, 50, 99, 100, 499, 500, 999, 1000, 9999, 10000, 100000, 150000}
	for i := 1; i <= 10; i++ {
		sizes = append(sizes, i)
	}
	docs := []any{bson.D{{Key: "_id", Value: int32(0)}, {Key: "title", Value: "no customers"}}}
	for i, n := range sizes {
		customers := make(bson.A, n)
		for j := range customers {
			customers[j] = int32(j)
		}
		docs = append(docs, bson.D{{Key: "_id", Value: int32(i + 1)}, {Key: "title", Value: fmt.Sprintf("b%d", n)}, {Key: "customers", Value: customers}})
	}
	for _, d := range docs { // one at a time: the largest documents are several MB
		if _, err := books.InsertOne(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	top := aggRun(t, books, ejArray(t, `[
		{"$project": {"title": 1, "customerCount": {"$size": {"$ifNull": ["$customers", []]}}}},
		{"$sort": {"customerCount": -1}},
		{"$limit": 20}]`))
	// 24 books; the 4 smallest (0, 1, 2 and one 3) fall off. Sizes are unique except 3.
	wantSizes := []int32{150000, 100000, 10000, 9999, 1000, 999, 500, 499, 100, 99, 50, 49, 10, 9, 8, 7, 6, 5, 4, 3}
	if len(top) != 20 {
		t.Fatalf("top-20 returned %d documents", len(top))
	}
	for i, d := range top {
		if len(d) != 3 || d[0].Key != "_id" || d[1].Key != "title" || d[2].Key != "customerCount" || d[2].Value != wantSizes[i] {
			t.Fatalf("top[%d] = %v, want customerCount %d", i, d, wantSizes[i])
		}
	}
	dist := aggRun(t, books, ejArray(t, `[
		{"$project": {"count": {"$size": {"$ifNull": ["$customers", []]}}}},
		{"$bucket": {"groupBy": "$count", "boundaries": [0, 50, 100, 500, 1000, 10000, 100000], "default": "100000+", "output": {"count": {"$sum": 1}}}}]`))
	assertDocs(t, dist, ejDocs(t, `[
		{"_id": 0, "count": 13}, {"_id": 50, "count": 2}, {"_id": 100, "count": 2}, {"_id": 500, "count": 2},
		{"_id": 1000, "count": 2}, {"_id": 10000, "count": 1}, {"_id": "100000+", "count": 2}]`))
}

// enrollmentsColl inserts the seed 002 enrollments (pre-encoded, so the
// driver's reflection does not dominate).
func enrollmentsColl(t testing.TB, client *mongo.Client, n int) *mongo.Collection {
	t.Helper()
	coll := client.Database("school").Collection("enrollments")
	docs := enrollments(n)
	for i, d := range docs {
		docs[i] = bson.Raw(aggMarshal(t, d))
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	return coll
}

// Seed 002: the computed pattern's $group $avg over 200,000 unindexed
// enrollments reads every document and no index key.
func TestSeed002GroupAvgExplain(t *testing.T) {
	client := startServer(t)
	coll := enrollmentsColl(t, client, 200_000)
	pipeline := ejArray(t, `[{"$group": {"_id": "$courseId", "avg": {"$avg": "$grade"}}}, {"$sort": {"_id": 1}}]`)
	got := aggRun(t, coll, pipeline)
	if len(got) != 200 {
		t.Fatalf("%d groups, want 200", len(got))
	}
	// Course c holds students i ≡ c (mod 200); the generator's grade is 50 + (i*7919)%51.
	for _, c := range []int{0, 7, 199} {
		sum, n := 0, 0
		for i := c; i < 200_000; i += 200 {
			sum += 50 + (i*7919)%51
			n++
		}
		want := bson.D{{Key: "_id", Value: int32(c)}, {Key: "avg", Value: float64(sum) / float64(n)}}
		assertDocs(t, []bson.D{got[c]}, []bson.D{want})
	}
	explain := mustRun(t, coll.Database(), bson.D{
		{Key: "explain", Value: bson.D{{Key: "aggregate", Value: "enrollments"}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{}}}},
		{Key: "verbosity", Value: "executionStats"}})
	raw := bson.Raw(aggMarshal(t, explain))
	stats, err := raw.LookupErr("stages", "0", "$cursor", "executionStats")
	if err != nil {
		t.Fatalf("no stages[0].$cursor.executionStats in %v", raw)
	}
	sd := stats.Document()
	for field, want := range map[string]int64{"nReturned": 200_000, "totalKeysExamined": 0, "totalDocsExamined": 200_000} {
		if v, ok := sd.Lookup(field).AsInt64OK(); !ok || v != want {
			t.Errorf("executionStats.%s = %v, want %d", field, sd.Lookup(field), want)
		}
	}
	// The $group reads only what it groups and averages, so the query
	// under it projects those fields (transformBy) over the scan.
	if stage := sd.Lookup("executionStages", "stage").StringValue(); stage != "PROJECTION_SIMPLE" {
		t.Errorf("executionStages.stage = %q, want PROJECTION_SIMPLE", stage)
	}
	if stage := sd.Lookup("executionStages", "inputStage", "stage").StringValue(); stage != "COLLSCAN" {
		t.Errorf("executionStages.inputStage.stage = %q, want COLLSCAN", stage)
	}
	if name, _ := raw.Lookup("stages", "1").Document().IndexErr(0); name.Key() != "$group" {
		t.Errorf("stages[1] is %v, want $group", raw.Lookup("stages", "1"))
	}
}

// Seed 003: the tree pattern's $graphLookup over a category tree stored
// with parent references (the manual's example tree).
func TestSeed003CategoryTree(t *testing.T) {
	db := startServer(t).Database("agg")
	categories := db.Collection("categories")
	insertEJ(t, categories, `[
		{"_id": "MongoDB", "parent": "Databases"},
		{"_id": "dbm", "parent": "Databases"},
		{"_id": "Databases", "parent": "Programming"},
		{"_id": "Languages", "parent": "Programming"},
		{"_id": "Programming", "parent": "Books"},
		{"_id": "Books", "parent": null}
	]`)
	if _, err := categories.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "parent", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	ancestors := aggRun(t, categories, ejArray(t, `[{"$match": {"_id": "MongoDB"}},
		{"$graphLookup": {"from": "categories", "startWith": "$parent", "connectFromField": "parent", "connectToField": "_id", "as": "ancestors", "maxDepth": 1, "depthField": "level"}},
		{"$project": {"ancestors": {"$sortArray": {"input": "$ancestors", "sortBy": {"level": 1}}}}}]`))
	assertDocs(t, ancestors, ejDocs(t, `[{"_id": "MongoDB", "ancestors": [
		{"_id": "Databases", "parent": "Programming", "level": {"$numberLong": "0"}},
		{"_id": "Programming", "parent": "Books", "level": {"$numberLong": "1"}}]}]`))

	descendants := aggRun(t, categories, ejArray(t, `[{"$match": {"_id": "Programming"}},
		{"$graphLookup": {"from": "categories", "startWith": "$_id", "connectFromField": "_id", "connectToField": "parent", "as": "sub", "depthField": "depth"}},
		{"$project": {"sub": {"$sortArray": {"input": "$sub", "sortBy": {"depth": 1, "_id": 1}}}}}]`))
	assertDocs(t, descendants, ejDocs(t, `[{"_id": "Programming", "sub": [
		{"_id": "Databases", "parent": "Programming", "depth": {"$numberLong": "0"}},
		{"_id": "Languages", "parent": "Programming", "depth": {"$numberLong": "0"}},
		{"_id": "MongoDB", "parent": "Databases", "depth": {"$numberLong": "1"}},
		{"_id": "dbm", "parent": "Databases", "depth": {"$numberLong": "1"}}]}]`))

	// Every root's full subtree, one level at a time.
	roots := aggRun(t, categories, ejArray(t, `[{"$match": {"parent": null}},
		{"$graphLookup": {"from": "categories", "startWith": "$_id", "connectFromField": "_id", "connectToField": "parent", "as": "all", "maxDepth": 0}},
		{"$project": {"n": {"$size": "$all"}}}]`))
	assertDocs(t, roots, ejDocs(t, `[{"_id": "Books", "n": 1}]`))
}

// TestAggMillionDocuments runs $group and a full $sort over 1,000,000
// documents (issue 3: without running out of memory).
func TestAggMillionDocuments(t *testing.T) {
	if os.Getenv("SCHEMALAB_LARGE_TESTS") == "" {
		t.Skip("1,000,000 documents take ~16 s and ~1 GB; set SCHEMALAB_LARGE_TESTS=1 to run")
	}
	coll := startServer(t).Database("big").Collection("c")
	const n, batch = 1_000_000, 100_000
	docs := make([]any, batch)
	for start := 0; start < n; start += batch {
		for j := range batch {
			i := start + j
			docs[j] = bson.Raw(aggMarshal(t, bson.D{{Key: "_id", Value: int32(i)}, {Key: "g", Value: int32(i % 1000)}, {Key: "v", Value: int32((i * 7919) % n)}}))
		}
		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	groups := aggRun(t, coll, ejArray(t, `[{"$group": {"_id": "$g", "n": {"$sum": 1}, "total": {"$sum": "$v"}, "max": {"$max": "$v"}}}, {"$sort": {"_id": 1}}, {"$limit": 2}]`))
	if len(groups) != 2 || groups[0][1].Value != int32(1000) || groups[1][1].Value != int32(1000) {
		t.Fatalf("groups %v", groups)
	}
	// 7919 is prime to 10^6, so v is a permutation of 0..999999: the
	// sorted tail is known.
	sorted, err := coll.Aggregate(ctx, ejArray(t, `[{"$sort": {"v": -1}}, {"$skip": 999997}, {"$project": {"_id": 0, "v": 1}}]`), options.Aggregate().SetAllowDiskUse(true))
	if err != nil {
		t.Fatal(err)
	}
	var tail []bson.D
	if err := sorted.All(ctx, &tail); err != nil {
		t.Fatal(err)
	}
	assertDocs(t, tail, ejDocs(t, `[{"v": 2}, {"v": 1}, {"v": 0}]`))
}
