package engine_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The aggregation tests write documents and pipelines in relaxed extended
// JSON, the notation the MongoDB manual uses: 1 decodes as int32, 1.0 as
// double, {"$numberLong": "1"} as int64, {"$date": "..."} as a date. Field
// order is kept, so expected documents are compared exactly.

// ejArray decodes a JSON array of documents or values.
func ejArray(t testing.TB, s string) bson.A {
	t.Helper()
	var wrap struct {
		V bson.A `bson:"v"`
	}
	if err := bson.UnmarshalExtJSON([]byte(`{"v":`+s+`}`), false, &wrap); err != nil {
		t.Fatalf("bad extended JSON %s: %v", s, err)
	}
	return wrap.V
}

// ejDocs decodes a JSON array of documents.
func ejDocs(t testing.TB, s string) []bson.D {
	t.Helper()
	a := ejArray(t, s)
	out := make([]bson.D, len(a))
	for i, v := range a {
		d, ok := v.(bson.D)
		if !ok {
			t.Fatalf("element %d of %s is not a document", i, s)
		}
		out[i] = d
	}
	return out
}

// ejDoc decodes one JSON document.
func ejDoc(t testing.TB, s string) bson.D {
	t.Helper()
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(s), false, &d); err != nil {
		t.Fatalf("bad extended JSON %s: %v", s, err)
	}
	return d
}

// aggCase is one pipeline run over a fresh collection: either want (the
// exact documents, in order unless unordered) or code/msg (the error).
type aggCase struct {
	name      string
	docs      string // JSON array inserted into "c" (may be empty)
	pipeline  string // JSON array
	want      string // JSON array of expected documents
	unordered bool   // compare as multisets (pipelines without $sort)
	code      int32
	msg       string            // exact errmsg when code != 0 (empty: only the code is checked)
	other     map[string]string // further collections of the case's database: name -> JSON docs
	dbLevel   bool              // run as db.aggregate (collectionless, e.g. $documents)
	after     func(t *testing.T, db *mongo.Database)
}

// runAggCases runs every case against its own collection in one server:
// starting one server per case would dominate the suite's time.
func runAggCases(t *testing.T, cases []aggCase) {
	t.Helper()
	client := startServer(t)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// One database per case, so that cases may name the same
			// collections ("c", "inventory", ...) without seeing each other.
			db := client.Database("agg" + strconv.Itoa(i))
			coll := db.Collection("c")
			insertEJ(t, coll, tc.docs)
			for name, docs := range tc.other {
				insertEJ(t, db.Collection(name), docs)
			}
			pipeline := ejArray(t, tc.pipeline)
			collName := coll.Name()
			if tc.dbLevel {
				collName = ""
			}
			if tc.code != 0 {
				err := aggError(t, db, collName, pipeline)
				if err.Code != tc.code || (tc.msg != "" && err.Message != tc.msg) {
					t.Fatalf("error\n got: %d %q\nwant: %d %q", err.Code, err.Message, tc.code, tc.msg)
				}
				return
			}
			var got []bson.D
			if tc.dbLevel {
				got = aggregateDB(t, db, pipeline)
			} else {
				got = aggRun(t, coll, pipeline)
			}
			if tc.after != nil {
				defer tc.after(t, db)
			}
			want := ejDocs(t, tc.want)
			if tc.unordered {
				assertSameDocs(t, got, want)
				return
			}
			assertDocs(t, got, want)
		})
	}
}

func insertEJ(t *testing.T, coll *mongo.Collection, docs string) {
	t.Helper()
	if docs == "" {
		return
	}
	if a := ejArray(t, docs); len(a) > 0 {
		if _, err := coll.InsertMany(ctx, a); err != nil {
			t.Fatalf("insert into %s: %v", coll.Name(), err)
		}
	}
}

func aggregateDB(t testing.TB, db *mongo.Database, pipeline any) []bson.D {
	t.Helper()
	cur, err := db.Aggregate(ctx, pipeline)
	if err != nil {
		t.Fatalf("db.aggregate %v: %v", pipeline, err)
	}
	var out []bson.D
	if err := cur.All(ctx, &out); err != nil {
		t.Fatalf("db.aggregate %v: %v", pipeline, err)
	}
	return out
}

func aggRun(t testing.TB, coll *mongo.Collection, pipeline any) []bson.D {
	t.Helper()
	cur, err := coll.Aggregate(ctx, pipeline)
	if err != nil {
		t.Fatalf("aggregate %v: %v", pipeline, err)
	}
	var out []bson.D
	if err := cur.All(ctx, &out); err != nil {
		t.Fatalf("aggregate %v: %v", pipeline, err)
	}
	return out
}

// aggError runs the aggregate command directly so that the error is the
// server's, whichever point (parse or execution) it is raised at.
func aggError(t testing.TB, db *mongo.Database, coll string, pipeline bson.A) mongo.CommandError {
	t.Helper()
	var target any = coll
	if coll == "" {
		target = 1
	}
	cur, err := db.RunCommandCursor(ctx, bson.D{{Key: "aggregate", Value: target}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{}}})
	if err == nil {
		for cur.Next(ctx) {
		}
		err = cur.Err()
		_ = cur.Close(ctx)
	}
	var ce mongo.CommandError
	if err == nil {
		t.Fatalf("%v: expected an error", pipeline)
	}
	if !errors.As(err, &ce) {
		t.Fatalf("%v: expected a CommandError, got %T %v", pipeline, err, err)
	}
	return ce
}

// assertSameDocs compares documents ignoring their order.
func assertSameDocs(t *testing.T, got, want []bson.D) {
	t.Helper()
	used := make([]bool, len(want))
	if len(got) != len(want) {
		t.Fatalf("documents differ\n got: %v\nwant: %v", got, want)
	}
next:
	for _, g := range got {
		for j, w := range want {
			if !used[j] && reflect.DeepEqual(g, w) {
				used[j] = true
				continue next
			}
		}
		t.Fatalf("unexpected document %v\n got: %v\nwant: %v", g, got, want)
	}
}

// planExecutorPrefix is what mongod puts before an error raised while the
// pipeline runs (as opposed to when it is parsed).
const planExecutorPrefix = "PlanExecutor error during aggregation :: caused by :: "

// optimizePrefix is what mongod puts before an error raised while it
// optimizes the pipeline: evaluating an operator whose arguments are all
// constants happens then, before any document is read.
const optimizePrefix = "Failed to optimize pipeline :: caused by :: "

// exprCase evaluates expr in {$project: {_id: 0, r: expr}} over doc: the
// result is {r: want}, {} when missing is set, or the error code/msg
// (msg is prefixed with planExecutorPrefix, or optimizePrefix when folded,
// and left alone when parseErr).
type exprCase struct {
	name     string
	doc      string // JSON document ("" for {})
	expr     string // JSON expression
	want     string // JSON value
	missing  bool
	code     int32
	msg      string
	parseErr bool
	folded   bool
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	coll := startServer(t).Database("expr").Collection("c")
	docs := make([]any, len(cases))
	for i, tc := range cases {
		d := bson.D{{Key: "_id", Value: int32(i)}}
		if tc.doc != "" {
			d = append(d, ejDoc(t, tc.doc)...)
		}
		docs[i] = d
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := ejArray(t, "["+tc.expr+"]")[0]
			pipeline := bson.A{
				bson.D{{Key: "$match", Value: bson.D{{Key: "_id", Value: int32(i)}}}},
				bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "r", Value: x}}}},
			}
			if tc.code != 0 {
				err := aggError(t, coll.Database(), coll.Name(), pipeline)
				msg := tc.msg
				switch {
				case msg == "":
				case tc.parseErr:
					msg = "Invalid $project :: caused by :: " + msg
				case tc.folded:
					msg = optimizePrefix + msg
				default:
					msg = planExecutorPrefix + msg
				}
				if err.Code != tc.code || (msg != "" && err.Message != msg) {
					t.Fatalf("%s\nerror\n got: %d %q\nwant: %d %q", tc.expr, err.Code, err.Message, tc.code, msg)
				}
				return
			}
			got := aggRun(t, coll, pipeline)
			want := []bson.D{{}}
			if !tc.missing {
				want = []bson.D{{{Key: "r", Value: ejArray(t, "["+tc.want+"]")[0]}}}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s\n got: %v\nwant: %v", tc.expr, got, want)
			}
		})
	}
}
