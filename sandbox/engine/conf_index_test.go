package engine_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// listIndexes and dropIndexes replies as the manual shows them for 8.0.
func TestConfListAndDropIndexes(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":1,"b":"x"}`)
	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true},{"key":{"b":-1,"a":1},"name":"b_-1_a_1","sparse":true},{"key":{"c":1},"name":"c_1","partialFilterExpression":{"a":{"$gt":5}}}]}`)
	out := okJ(t, db, `{"listIndexes":"c"}`)
	sameJSON(t, "listIndexes", out, `{"cursor":{"id":{"$numberLong":"0"},"ns":"conf.c","firstBatch":[
		{"v":2,"key":{"_id":1},"name":"_id_"},
		{"v":2,"key":{"a":1},"name":"a_1","unique":true},
		{"v":2,"key":{"b":-1,"a":1},"name":"b_-1_a_1","sparse":true},
		{"v":2,"key":{"c":1},"name":"c_1","partialFilterExpression":{"a":{"$gt":5}}}]},"ok":1.0}`)

	// Same key, other name: IndexOptionsConflict.
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"other","unique":true}]}`, mongoerr.IndexOptionsConflict, "Index already exists with a different name: a_1")
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"x":1}}]}`, mongoerr.FailedToParse, "Error in specification { key: { x: 1 } } :: caused by :: The 'name' field is a required property of an index specification")
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"x":"bogus"},"name":"x"}]}`, mongoerr.CannotCreateIndex, "Error in specification { key: { x: \"bogus\" }, name: \"x\" } :: caused by :: Unknown index plugin 'bogus'")
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{},"name":"e"}]}`, mongoerr.CannotCreateIndex, "Error in specification { key: {}, name: \"e\" } :: caused by :: Index keys cannot be empty.")

	wantErr(t, db, `{"dropIndexes":"c","index":"_id_"}`, mongoerr.InvalidOptions, "cannot drop _id index")
	wantErr(t, db, `{"dropIndexes":"c","index":"nope"}`, mongoerr.IndexNotFound, "index not found with name [nope]")
	wantErr(t, db, `{"dropIndexes":"c","index":{"zz":1}}`, mongoerr.IndexNotFound, "can't find index with key: { zz: 1 }")
	sameJSON(t, "drop by key", okJ(t, db, `{"dropIndexes":"c","index":{"c":1}}`), `{"nIndexesWas":4,"ok":1.0}`)
	sameJSON(t, "drop by names", okJ(t, db, `{"dropIndexes":"c","index":["a_1"]}`), `{"nIndexesWas":3,"ok":1.0}`)
	sameJSON(t, "drop *", okJ(t, db, `{"dropIndexes":"c","index":"*"}`), `{"nIndexesWas":2,"msg":"non-_id indexes dropped for collection","ok":1.0}`)
	sameJSON(t, "only _id_ left", firstBatch(t, db, `{"listIndexes":"c"}`), `[{"v":2,"key":{"_id":1},"name":"_id_"}]`)
	wantErr(t, db, `{"listIndexes":"nope"}`, mongoerr.NamespaceNotFound, "ns does not exist: conf.nope")
}

// Multikey and the compound-multikey restriction (code 171), unique,
// sparse and partial indexes, and the planner choosing an index.
func TestConfIndexBehaviour(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"a":1,"b":1},"name":"a_1_b_1"}]}`)
	okJ(t, db, `{"insert":"c","documents":[{"_id":1,"a":[1,2],"b":3},{"_id":2,"a":4,"b":[5,6]}]}`)
	out := okJ(t, db, `{"insert":"c","documents":[{"_id":3,"a":[1,2],"b":[3,4]}]}`)
	sameJSON(t, "parallel arrays", out, `{"n":0,"writeErrors":[{"index":0,"code":171,"errmsg":"cannot index parallel arrays [b] [a]"}],"ok":1.0}`)
	findIDs(t, db, `{"a":2}`, `[1]`)
	findIDs(t, db, `{"b":6}`, `[2]`)

	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"u":1},"name":"u_1","unique":true,"sparse":true}]}`)
	okJ(t, db, `{"insert":"c","documents":[{"_id":4},{"_id":5},{"_id":6,"u":1}]}`)
	out = okJ(t, db, `{"insert":"c","documents":[{"_id":7,"u":1}]}`)
	if we, _ := field(out, "writeErrors").(bson.A); len(we) != 1 {
		t.Errorf("sparse unique duplicate accepted: %v", out)
	}
	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"p":1},"name":"p_1","unique":true,"partialFilterExpression":{"active":true}}]}`)
	okJ(t, db, `{"insert":"c","documents":[{"_id":8,"p":1},{"_id":9,"p":1,"active":true},{"_id":10,"p":1}]}`)
	out = okJ(t, db, `{"insert":"c","documents":[{"_id":11,"p":1,"active":true}]}`)
	sameJSON(t, "partial unique", out, `{"n":0,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"p":1},"keyValue":{"p":1},"errmsg":"E11000 duplicate key error collection: conf.c index: p_1 dup key: { p: 1 }"}],"ok":1.0}`)

	// A unique index with a missing field holds null once.
	db2, _ := confColl(t)
	okJ(t, db2, `{"createIndexes":"c","indexes":[{"key":{"k":1},"name":"k_1","unique":true}]}`)
	okJ(t, db2, `{"insert":"c","documents":[{"_id":1}]}`)
	out = okJ(t, db2, `{"insert":"c","documents":[{"_id":2,"k":null}]}`)
	sameJSON(t, "null dup", out, `{"n":0,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"k":1},"keyValue":{"k":null},"errmsg":"E11000 duplicate key error collection: conf.c index: k_1 dup key: { k: null }"}],"ok":1.0}`)

	// The planner uses the index: explain's winning plan scans it.
	for _, q := range []string{`{"a":4}`, `{"a":{"$gte":2,"$lt":5}}`, `{"a":{"$in":[1,4]},"b":3}`} {
		ex := okJ(t, db, `{"explain":{"find":"c","filter":`+q+`},"verbosity":"queryPlanner"}`)
		qp, _ := field(ex, "queryPlanner").(bson.D)
		wp := relaxed(field(qp, "winningPlan"))
		if !strings.Contains(wp, `"stage":"IXSCAN"`) || !strings.Contains(wp, `"indexName":"a_1_b_1"`) || !strings.Contains(wp, `"isMultiKey":true`) {
			t.Errorf("explain %s winningPlan %s", q, wp)
		}
	}
	ex := okJ(t, db, `{"explain":{"find":"c","filter":{"zz":1}},"verbosity":"queryPlanner"}`)
	if wp := relaxed(field(field(ex, "queryPlanner").(bson.D), "winningPlan")); !strings.Contains(wp, `"stage":"COLLSCAN"`) {
		t.Errorf("unindexed field: %s", wp)
	}
}

// Index builds over existing documents: failures carry mongod's build
// context; multikey unique indexes hold each element once per document.
func TestConfIndexBuilds(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":[1,2],"b":[3,4]}`, `{"_id":2,"tags":["x","x"]}`)
	_, ce := runJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"a":1,"b":1},"name":"ab"}]}`)
	if ce == nil || ce.Code != mongoerr.CannotIndexParallelArrays || !strings.HasPrefix(ce.Message, "Index build failed: ") ||
		!strings.HasSuffix(ce.Message, " ) :: caused by :: cannot index parallel arrays [b] [a]") {
		t.Errorf("parallel arrays build: %v", ce)
	}
	// The same document twice in one multikey unique index is no conflict.
	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"tags":1},"name":"t","unique":true}]}`)
	out := okJ(t, db, `{"insert":"c","documents":[{"_id":3,"tags":["y","x"]}]}`)
	sameJSON(t, "multikey dup", out, `{"n":0,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"tags":1},"keyValue":{"tags":"x"},"errmsg":"E11000 duplicate key error collection: conf.c index: t dup key: { tags: \"x\" }"}],"ok":1.0}`)

	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"z":1},"name":"*"}]}`, mongoerr.BadValue, "The index name '*' is not valid.")
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"z":1},"name":"_id_"}]}`, mongoerr.BadValue, "The index name '_id_' is reserved for the _id index, which must have key pattern {_id: 1}, found key: { z: 1 }")
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"z":1},"name":"z1","sparse":true,"partialFilterExpression":{"a":1}}]}`, 67,
		`Error in specification { key: { z: 1 }, name: "z1", sparse: true, partialFilterExpression: { a: 1 } } :: caused by :: cannot mix "partialFilterExpression" and "sparse" options`)
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"z":1},"name":"z1","bogus":1}]}`, 197,
		`Error in specification { key: { z: 1 }, name: "z1", bogus: 1 } :: caused by :: The field 'bogus' is not valid for an index specification. Specification: { key: { z: 1 }, name: "z1", bogus: 1 }`)
}
