package planner

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func d(pairs ...any) bson.D {
	var out bson.D
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, bson.E{Key: pairs[i].(string), Value: pairs[i+1]})
	}
	return out
}

func TestBoundsPerPredicate(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	cases := []struct {
		filter bson.D
		want   bson.A
	}{
		{d("a", int32(5)), bson.A{"[5, 5]"}},
		{d("a", d("$gt", int32(5))), bson.A{"(5, inf.0]"}},
		{d("a", d("$lte", 2.5)), bson.A{"[-inf.0, 2.5]"}},
		{d("a", d("$gte", "m")), bson.A{`["m", {})`}},
		{d("a", d("$gt", int32(1), "$lt", int32(9))), bson.A{"(1, 9)"}},
		{d("a", d("$in", bson.A{int32(3), int32(1), int32(2)})), bson.A{"[1, 1]", "[2, 2]", "[3, 3]"}},
		{d("a", nil), bson.A{"[null, null]"}},
		{d("a", bson.Regex{Pattern: `^\/Electronics\/`}), bson.A{`["/Electronics/", "/Electronics0")`, `[/^\/Electronics\//, /^\/Electronics\//]`}},
		{d("a", bson.Regex{Pattern: `phone`}), bson.A{`["", {})`, `[/phone/, /phone/]`}},
	}
	for _, tc := range cases {
		e, err := Plan(c, c.NS(), Query{Filter: mustCompile(t, tc.filter)})
		if err != nil {
			t.Fatal(err)
		}
		got := value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.indexBounds.a")
		if value.Compare(got, tc.want) != 0 {
			t.Errorf("%v: bounds %v, want %v", tc.filter, got, tc.want)
		}
	}
}

func fill(t *testing.T, c *catalog.Collection, docs ...bson.D) {
	t.Helper()
	for _, doc := range docs {
		if _, err := c.Insert(doc); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(rs []Result) []any {
	var out []any
	for _, r := range rs {
		out = append(out, value.Get(r.Doc, "_id"))
	}
	return out
}

func TestIndexProvidedSortAndHint(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1), "b", int32(1)))
	for i := range 20 {
		fill(t, c, d("_id", int32(i), "a", int32(i%2), "b", int32(20-i)))
	}
	e, err := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(1))), Sort: d("b", int32(-1)), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(drain(t, e))
	if value.Compare(bson.A(got), bson.A{int32(1), int32(3), int32(5)}) != 0 {
		t.Fatalf("got %v", got)
	}
	qp := e.QueryPlanner()
	if value.Lookup(qp, "winningPlan.stage") != "LIMIT" || value.Lookup(qp, "winningPlan.inputStage.inputStage.direction") != "backward" {
		t.Fatalf("want LIMIT over a backward IXSCAN with no SORT: %v", qp)
	}
	if b := value.Lookup(qp, "winningPlan.inputStage.inputStage.indexBounds.b"); value.Compare(b, bson.A{"[MaxKey, MinKey]"}) != 0 {
		t.Fatalf("backward bounds %v", b)
	}

	// Sorting on an order no index gives needs a SORT stage. (A sort on
	// _id alone would not: the _id index provides it, and the trial picks
	// that scan.)
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(1))), Sort: d("b", int32(1), "_id", int32(-1)), Limit: 2})
	got = ids(drain(t, e))
	if value.Compare(bson.A(got), bson.A{int32(19), int32(17)}) != 0 {
		t.Fatalf("got %v", got)
	}
	if s := value.Lookup(e.QueryPlanner(), "winningPlan.stage"); s != "SORT" {
		t.Fatalf("stage %v", s)
	}
	if l := value.Lookup(e.QueryPlanner(), "winningPlan.limitAmount"); l != int64(2) {
		t.Fatalf("limitAmount %v", l)
	}

	// hint by name and by key; a bad hint fails as mongod does.
	e, err = Plan(c, c.NS(), Query{Hint: "a_1_b_1"})
	if err != nil || value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.indexName") != "a_1_b_1" {
		t.Fatalf("hint by name: %v", err)
	}
	e, err = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(1))), Hint: d("$natural", int32(1))})
	if err != nil || value.Lookup(e.QueryPlanner(), "winningPlan.stage") != "COLLSCAN" {
		t.Fatalf("$natural hint: %v", err)
	}
	_, err = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("hat", "bowler")), Hint: d("nope", int32(1))})
	me := mongoerr.As(err)
	if me == nil || me.Code != mongoerr.BadValue || !strings.HasSuffix(me.Msg, "planner returned error :: caused by :: hint provided does not correspond to an existing index") ||
		!strings.HasPrefix(me.Msg, "error processing query: ns=db.cTree: hat $eq \"bowler\"\nSort: {}\nProj: {}\n") {
		t.Fatalf("bad hint: %q", err)
	}
}

func TestInScanCountsBoundaryKeys(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	for i := range 10 {
		fill(t, c, d("_id", int32(i), "a", int32(i)))
	}
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", d("$in", bson.A{int32(2), int32(5), int32(7)})))})
	if n := len(drain(t, e)); n != 3 {
		t.Fatalf("got %d", n)
	}
	es := e.ExecutionStats(false)
	// mongod's bounds checker looks at 3 matching keys plus the keys that
	// trigger seeks (3, 6) and the one that ends the scan (8).
	if k := value.Lookup(es, "totalKeysExamined"); k != int64(6) {
		t.Errorf("keysExamined %v", k)
	}
	if s := value.Lookup(es, "executionStages.inputStage.seeks"); s != int64(3) {
		t.Errorf("seeks %v", s)
	}
}

func TestMultikeyBoundsAreNotIntersected(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	fill(t, c, d("_id", int32(1), "a", bson.A{int32(1), int32(10)}), d("_id", int32(2), "a", bson.A{int32(5)}))
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", d("$gt", int32(3), "$lt", int32(7))))})
	got := ids(drain(t, e))
	if len(got) != 2 {
		t.Fatalf("{a: [1, 10]} matches $gt 3 and $lt 7 through different elements: got %v", got)
	}
	qp := e.QueryPlanner()
	if value.Lookup(qp, "winningPlan.inputStage.isMultiKey") != true {
		t.Fatal("isMultiKey")
	}
	if b := value.Lookup(qp, "winningPlan.inputStage.indexBounds.a"); value.Compare(b, bson.A{"[-inf.0, 7)"}) != 0 {
		t.Fatalf("bounds %v", b)
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", d("$elemMatch", d("$gt", int32(3), "$lt", int32(7)))))})
	if got := ids(drain(t, e)); len(got) != 1 {
		t.Fatalf("$elemMatch: %v", got)
	}
	if b := value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.indexBounds.a"); value.Compare(b, bson.A{"(3, 7)"}) != 0 {
		t.Fatalf("$elemMatch bounds %v", b)
	}
}

func TestTrialPicksTheSelectiveIndex(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("status", int32(1)))
	mustIndex(t, c, d("parent", int32(1)))
	for i := range 2000 {
		fill(t, c, d("_id", int32(i), "status", "active", "parent", int32(i%100)))
	}
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("status", "active", "parent", int32(7)))})
	if n := len(drain(t, e)); n != 20 {
		t.Fatalf("got %d", n)
	}
	qp := e.QueryPlanner()
	if ix := value.Lookup(qp, "winningPlan.inputStage.indexName"); ix != "parent_1" {
		t.Fatalf("winner %v", ix)
	}
	if r := value.Lookup(qp, "rejectedPlans").(bson.A); len(r) != 1 {
		t.Fatalf("rejected %v", r)
	}
	if f := value.Lookup(qp, "winningPlan.filter"); value.Compare(f, d("status", d("$eq", "active"))) != 0 {
		t.Fatalf("residual filter %v", f)
	}
	all := value.Lookup(e.ExecutionStats(true), "allPlansExecution").(bson.A)
	if len(all) != 2 {
		t.Fatalf("allPlansExecution %v", all)
	}
}

func TestExplainShape(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	fill(t, c, d("_id", int32(1), "a", int32(1)))
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(1)))})
	drain(t, e)
	qp := e.QueryPlanner()
	wantQP := []string{"namespace", "parsedQuery", "indexFilterSet", "queryHash", "planCacheShapeHash", "planCacheKey",
		"optimizationTimeMillis", "maxIndexedOrSolutionsReached", "maxIndexedAndSolutionsReached", "maxScansToExplodeReached",
		"prunedSimilarIndexes", "winningPlan", "rejectedPlans"}
	checkKeys(t, qp, wantQP)
	ix := value.Lookup(qp, "winningPlan.inputStage").(bson.D)
	checkKeys(t, ix, []string{"stage", "keyPattern", "indexName", "isMultiKey", "multiKeyPaths", "isUnique", "isSparse",
		"isPartial", "indexVersion", "direction", "indexBounds"})
	es := e.ExecutionStats(false)
	checkKeys(t, es, []string{"executionSuccess", "nReturned", "executionTimeMillis", "totalKeysExamined", "totalDocsExamined", "executionStages"})
	fetch := value.Lookup(es, "executionStages").(bson.D)
	checkKeys(t, fetch, []string{"isCached", "stage", "nReturned", "executionTimeMillisEstimate", "works", "advanced", "needTime",
		"needYield", "saveState", "restoreState", "isEOF", "docsExamined", "alreadyHasObj", "inputStage"})
	ixs := value.Lookup(es, "executionStages.inputStage").(bson.D)
	checkKeys(t, ixs, []string{"stage", "nReturned", "executionTimeMillisEstimate", "works", "advanced", "needTime",
		"needYield", "saveState", "restoreState", "isEOF", "keyPattern", "indexName", "isMultiKey", "multiKeyPaths", "isUnique",
		"isSparse", "isPartial", "indexVersion", "direction", "indexBounds", "keysExamined", "seeks", "dupsTested", "dupsDropped"})

	missing, _ := Plan(nil, "db.none", Query{})
	if s := value.Lookup(missing.QueryPlanner(), "winningPlan.stage"); s != "EOF" {
		t.Fatalf("missing collection plan %v", s)
	}
}

func checkKeys(t *testing.T, doc bson.D, want []string) {
	t.Helper()
	if len(doc) != len(want) {
		t.Fatalf("fields %v, want %v", keysOf(doc), want)
	}
	for i, k := range want {
		if doc[i].Key != k {
			t.Fatalf("fields %v, want %v", keysOf(doc), want)
		}
	}
}

func keysOf(doc bson.D) []string {
	var out []string
	for _, e := range doc {
		out = append(out, e.Key)
	}
	return out
}

func TestCountAndSkip(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	for i := range 10 {
		fill(t, c, d("_id", int32(i), "a", int32(i%3)))
	}
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(0))), Count: true, Skip: 1})
	n, err := e.Count()
	if err != nil || n != 3 {
		t.Fatalf("count %d %v", n, err)
	}
	if s := value.Lookup(e.QueryPlanner(), "winningPlan.stage"); s != "COUNT" {
		t.Fatalf("stage %v", s)
	}
}

func TestRegexPrefix(t *testing.T) {
	cases := []struct {
		pattern, options string
		prefix           string
		whole, ok        bool
	}{
		{`^\/Electronics\/`, "", "/Electronics/", true, true},
		{`^/Electronics/Phones`, "", "/Electronics/Phones", true, true},
		// A final .* under ^ keeps the prefix exact (analyze_regex.cpp).
		{`^abc.*`, "", "abc", true, true},
		{`\Aabc.*`, "", "abc", false, true},
		{`^a\|`, "", "a|", true, true},
		{`^\\|b`, "", "", false, false},
		{`^ab{2}`, "", "ab", false, true},
		{`^a]b`, "", "a]b", true, true},
		{`^a b#c`, "x", "ab", false, true},
		{`^ab`, "s", "ab", true, true},
		{`^ab`, "m", "", false, false},
		{`\Aab`, "m", "ab", true, true},
		{`^abc?`, "", "ab", false, true},
		{`^abc|^xyz`, "", "", false, false},
		{`^abc`, "i", "", false, false},
		{`abc`, "", "", false, false},
	}
	for _, c := range cases {
		p, whole, ok := regexPrefix(bson.Regex{Pattern: c.pattern, Options: c.options})
		if p != c.prefix || whole != c.whole || ok != c.ok {
			t.Errorf("regexPrefix(%q) = %q %v %v", c.pattern, p, whole, ok)
		}
	}
}

func TestMaterializedPathAndAncestors(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "categories", nil)
	mustIndex(t, c, d("path", int32(1)))
	mustIndex(t, c, d("ancestors", int32(1)))
	fill(t, c,
		d("_id", "Electronics", "path", "/Electronics/", "ancestors", bson.A{}),
		d("_id", "Phones", "path", "/Electronics/Phones/", "ancestors", bson.A{"Electronics"}),
		d("_id", "Smartphones", "path", "/Electronics/Phones/Smartphones/", "ancestors", bson.A{"Electronics", "Phones"}),
		d("_id", "Books", "path", "/Books/", "ancestors", bson.A{}),
	)
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("path", bson.Regex{Pattern: `^\/Electronics\/`}))})
	if got := ids(drain(t, e)); len(got) != 3 {
		t.Fatalf("descendants %v", got)
	}
	es := e.ExecutionStats(false)
	if value.Lookup(es, "totalKeysExamined") != int64(3) || value.Lookup(es, "totalDocsExamined") != int64(3) {
		t.Fatalf("regex scan stats %v", es)
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("ancestors", "Phones"))})
	if got := ids(drain(t, e)); len(got) != 1 || got[0] != "Smartphones" {
		t.Fatalf("ancestors %v", got)
	}
	qp := e.QueryPlanner()
	if value.Lookup(qp, "winningPlan.inputStage.isMultiKey") != true ||
		value.Compare(value.Lookup(qp, "winningPlan.inputStage.multiKeyPaths"), d("ancestors", bson.A{"ancestors"})) != 0 {
		t.Fatalf("multikey explain %v", qp)
	}
}

func TestRootedOrUsesOneScanPerBranch(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	mustIndex(t, c, d("b", int32(1)))
	for i := range 50 {
		fill(t, c, d("_id", int32(i), "a", int32(i), "b", int32(i%10)))
	}
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("$or", bson.A{d("a", int32(3)), d("b", int32(3))}))})
	if got := ids(drain(t, e)); len(got) != 5 {
		t.Fatalf("got %v", got)
	}
	es := e.ExecutionStats(false)
	if value.Lookup(es, "executionStages.stage") != "SUBPLAN" || value.Lookup(es, "executionStages.inputStage.inputStage.stage") != "OR" {
		t.Fatalf("plan %v", es)
	}
	if value.Lookup(es, "totalKeysExamined") != int64(6) || value.Lookup(es, "executionStages.inputStage.inputStage.dupsDropped") != int64(1) {
		t.Fatalf("stats %v", es)
	}
	// A branch without an index makes the whole query a collection scan,
	// still under SUBPLAN (SubplanStage::choosePlanWholeQuery).
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("$or", bson.A{d("a", int32(3)), d("z", int32(3))}))})
	if s := value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.stage"); s != "COLLSCAN" {
		t.Fatalf("stage %v", s)
	}
}

func TestSparseAndPartialIndexesOnlyAnswerWhatTheyHold(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)), bson.E{Key: "partialFilterExpression", Value: d("a", d("$gt", int32(5)))})
	mustIndex(t, c, d("s", int32(1)), bson.E{Key: "sparse", Value: true})
	for i := range 10 {
		fill(t, c, d("_id", int32(i), "a", int32(i)))
	}
	fill(t, c, d("_id", int32(10), "s", int32(1)))
	e, _ := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", d("$gte", int32(8))))})
	if got := ids(drain(t, e)); len(got) != 2 || value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.isPartial") != true {
		t.Fatalf("partial index should answer a >= 8: %v %v", got, e.QueryPlanner())
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("a", int32(3)))})
	if got := ids(drain(t, e)); len(got) != 1 || value.Lookup(e.QueryPlanner(), "winningPlan.stage") != "COLLSCAN" {
		t.Fatalf("a = 3 is outside the partial filter: %v", got)
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("s", nil))})
	if got := ids(drain(t, e)); len(got) != 10 || value.Lookup(e.QueryPlanner(), "winningPlan.stage") != "COLLSCAN" {
		t.Fatalf("{s: null} cannot use a sparse index: %v", got)
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("s", int32(1)))})
	if got := ids(drain(t, e)); len(got) != 1 || value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.indexName") != "s_1" {
		t.Fatalf("sparse index for s = 1: %v", got)
	}
}
