package aggregate

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func runWithDB(t *testing.T, db *fakeDB, input []bson.D, pipeline string) []bson.D {
	t.Helper()
	got, err := runPipeline(t, db.context(), input, pipe(t, pipeline))
	if err != nil {
		t.Fatalf("error: %v", err)
	}
	return got
}

func expect(t *testing.T, got []bson.D, want ...string) {
	t.Helper()
	if g, w := ejson(t, got), ejson(t, docs(t, want...)); g != w {
		t.Errorf("\n got %s\nwant %s", g, w)
	}
}

func TestLookupLocalForeign(t *testing.T) {
	db := newFakeDB()
	db.colls["inventory"] = docs(t,
		`{"_id": 1, "sku": "almonds", "instock": 120}`,
		`{"_id": 2, "sku": "bread", "instock": 80}`,
		`{"_id": 3, "sku": "cashews", "instock": 60}`,
		`{"_id": 5, "sku": null}`,
		`{"_id": 6}`,
	)
	orders := docs(t,
		`{"_id": 1, "item": "almonds", "price": 12}`,
		`{"_id": 2, "item": ["bread", "cashews"]}`,
		`{"_id": 3}`,
	)
	got := runWithDB(t, db, orders, `[{"$lookup": {"from": "inventory", "localField": "item", "foreignField": "sku", "as": "inventory_docs"}}]`)
	expect(t, got,
		`{"_id": 1, "item": "almonds", "price": 12, "inventory_docs": [{"_id": 1, "sku": "almonds", "instock": 120}]}`,
		`{"_id": 2, "item": ["bread", "cashews"], "inventory_docs": [{"_id": 2, "sku": "bread", "instock": 80}, {"_id": 3, "sku": "cashews", "instock": 60}]}`,
		// A missing local field matches null and missing foreign fields.
		`{"_id": 3, "inventory_docs": [{"_id": 5, "sku": null}, {"_id": 6}]}`,
	)
}

func TestLookupPipeline(t *testing.T) {
	db := newFakeDB()
	db.colls["warehouses"] = docs(t,
		`{"_id": 1, "stock_item": "almonds", "warehouse": "A", "instock": 120}`,
		`{"_id": 2, "stock_item": "pecans", "warehouse": "A", "instock": 80}`,
		`{"_id": 3, "stock_item": "almonds", "warehouse": "B", "instock": 60}`,
		`{"_id": 4, "stock_item": "cookies", "warehouse": "B", "instock": 40}`,
		`{"_id": 5, "stock_item": "cookies", "warehouse": "A", "instock": 80}`,
	)
	orders := docs(t,
		`{"_id": 1, "item": "almonds", "price": 12, "ordered": 2}`,
		`{"_id": 2, "item": "pecans", "price": 20, "ordered": 1}`,
		`{"_id": 3, "item": "cookies", "price": 10, "ordered": 60}`,
	)
	// The manual's "multiple join conditions" example.
	got := runWithDB(t, db, orders, `[{"$lookup": {"from": "warehouses", "let": {"order_item": "$item", "order_qty": "$ordered"}, "pipeline": [
		{"$match": {"$expr": {"$and": [{"$eq": ["$stock_item", "$$order_item"]}, {"$gte": ["$instock", "$$order_qty"]}]}}},
		{"$project": {"stock_item": 0, "_id": 0}}], "as": "stockdata"}}]`)
	expect(t, got,
		`{"_id": 1, "item": "almonds", "price": 12, "ordered": 2, "stockdata": [{"warehouse": "A", "instock": 120}, {"warehouse": "B", "instock": 60}]}`,
		`{"_id": 2, "item": "pecans", "price": 20, "ordered": 1, "stockdata": [{"warehouse": "A", "instock": 80}]}`,
		`{"_id": 3, "item": "cookies", "price": 10, "ordered": 60, "stockdata": [{"warehouse": "A", "instock": 80}]}`,
	)
	// localField/foreignField combined with let and pipeline.
	got = runWithDB(t, db, orders[:1], `[{"$lookup": {"from": "warehouses", "localField": "item", "foreignField": "stock_item", "let": {"q": "$ordered"}, "pipeline": [{"$project": {"_id": 0, "warehouse": 1, "q": "$$q"}}], "as": "w"}}]`)
	expect(t, got, `{"_id": 1, "item": "almonds", "price": 12, "ordered": 2, "w": [{"warehouse": "A", "q": 2}, {"warehouse": "B", "q": 2}]}`)
	// A let value that looks like a field path stays a string.
	got = runWithDB(t, db, docs(t, `{"_id": 1, "s": "$stock_item"}`), `[{"$lookup": {"from": "warehouses", "let": {"v": "$s"}, "pipeline": [{"$limit": 1}, {"$project": {"_id": 0, "v": "$$v"}}], "as": "r"}}]`)
	expect(t, got, `{"_id": 1, "s": "$stock_item", "r": [{"v": "$stock_item"}]}`)
}

func TestLookupErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{name: "not object", pipeline: `[{"$lookup": 1}]`, code: mongoerr.FailedToParse, msg: "the $lookup specification must be an Object"},
		{name: "no as", pipeline: `[{"$lookup": {"from": "x", "localField": "a", "foreignField": "b"}}]`, code: mongoerr.FailedToParse, msg: "must specify 'as' field for a $lookup"},
		{name: "no foreignField", pipeline: `[{"$lookup": {"from": "x", "localField": "a", "as": "b"}}]`, code: mongoerr.FailedToParse, msg: "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified"},
		{name: "let without pipeline", pipeline: `[{"$lookup": {"from": "x", "localField": "a", "foreignField": "b", "let": {}, "as": "c"}}]`, code: mongoerr.FailedToParse, msg: "$lookup with a 'let' argument must also specify 'pipeline'"},
		{name: "unknown", pipeline: `[{"$lookup": {"from": "x", "foo": "a", "as": "c", "pipeline": []}}]`, code: mongoerr.FailedToParse, msg: "unknown argument to $lookup: foo"},
		{name: "bad sub-pipeline", pipeline: `[{"$lookup": {"from": "x", "as": "c", "pipeline": [{"$foo": 1}]}}]`, code: 40324},
		{name: "undefined variable in sub-pipeline", pipeline: `[{"$lookup": {"from": "x", "as": "c", "pipeline": [{"$project": {"a": "$$nope"}}]}}]`, code: 17276},
	})
}

func TestGraphLookup(t *testing.T) {
	db := newFakeDB()
	// The manual's employees example.
	db.colls["employees"] = docs(t,
		`{"_id": 1, "name": "Dev"}`,
		`{"_id": 2, "name": "Eliot", "reportsTo": "Dev"}`,
		`{"_id": 3, "name": "Ron", "reportsTo": "Eliot"}`,
		`{"_id": 4, "name": "Andrew", "reportsTo": "Eliot"}`,
		`{"_id": 5, "name": "Asya", "reportsTo": "Ron"}`,
		`{"_id": 6, "name": "Dan", "reportsTo": "Andrew"}`,
	)
	input := docs(t, `{"_id": 5, "name": "Asya", "reportsTo": "Ron"}`)
	got := runWithDB(t, db, input, `[{"$graphLookup": {"from": "employees", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "reportingHierarchy", "depthField": "depth"}}]`)
	expect(t, got, `{"_id": 5, "name": "Asya", "reportsTo": "Ron", "reportingHierarchy": [
		{"_id": 3, "name": "Ron", "reportsTo": "Eliot", "depth": {"$numberLong": "0"}},
		{"_id": 2, "name": "Eliot", "reportsTo": "Dev", "depth": {"$numberLong": "1"}},
		{"_id": 1, "name": "Dev", "depth": {"$numberLong": "2"}}]}`)
	// One query per depth level, with the whole frontier in one $in; the
	// missing connectFromField of "Dev" ends the search.
	if len(db.queries) != 3 {
		t.Errorf("queries = %d %v, want 3", len(db.queries), db.queries)
	}

	db.queries = nil
	got = runWithDB(t, db, input, `[{"$graphLookup": {"from": "employees", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h", "maxDepth": 1, "restrictSearchWithMatch": {"_id": {"$ne": 2}}}}, {"$project": {"h._id": 1}}]`)
	expect(t, got, `{"_id": 5, "h": [{"_id": 3}]}`)

	// Descendants: startWith an array, fanning out per level.
	got = runWithDB(t, db, docs(t, `{"_id": 0, "roots": ["Eliot"]}`), `[{"$graphLookup": {"from": "employees", "startWith": "$roots", "connectFromField": "name", "connectToField": "reportsTo", "as": "team", "depthField": "d"}}, {"$project": {"team.name": 1, "team.d": 1}}]`)
	expect(t, got, `{"_id": 0, "team": [{"name": "Ron", "d": {"$numberLong": "0"}}, {"name": "Andrew", "d": {"$numberLong": "0"}}, {"name": "Asya", "d": {"$numberLong": "1"}}, {"name": "Dan", "d": {"$numberLong": "1"}}]}`)
}

func TestGraphLookupCycle(t *testing.T) {
	db := newFakeDB()
	db.colls["g"] = docs(t,
		`{"_id": "a", "next": ["b"]}`,
		`{"_id": "b", "next": ["c", "a"]}`,
		`{"_id": "c", "next": "a"}`,
	)
	got := runWithDB(t, db, docs(t, `{"_id": 0, "start": "a"}`), `[{"$graphLookup": {"from": "g", "startWith": "$start", "connectFromField": "next", "connectToField": "_id", "as": "reach"}}, {"$project": {"reach._id": 1}}]`)
	expect(t, got, `{"_id": 0, "reach": [{"_id": "a"}, {"_id": "b"}, {"_id": "c"}]}`)
	runErrorCases(t, []errorCase{
		{name: "missing field", pipeline: `[{"$graphLookup": {"from": "g", "startWith": "$a", "connectFromField": "x", "as": "y"}}]`, code: 40105,
			msg: "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified."},
		{name: "maxDepth negative", pipeline: `[{"$graphLookup": {"from": "g", "startWith": "$a", "connectFromField": "x", "connectToField": "z", "as": "y", "maxDepth": -1}}]`, code: 40101,
			msg: "maxDepth requires a nonnegative argument, found: -1"},
		{name: "maxDepth type", pipeline: `[{"$graphLookup": {"from": "g", "startWith": "$a", "connectFromField": "x", "connectToField": "z", "as": "y", "maxDepth": "a"}}]`, code: 40100,
			msg: "maxDepth must be numeric, found type: string"},
		{name: "unknown", pipeline: `[{"$graphLookup": {"from": "g", "foo": 1}}]`, code: 40104, msg: "Unknown argument to $graphLookup: foo"},
		{name: "from type", pipeline: `[{"$graphLookup": {"from": 1}}]`, code: 9, msg: "$graphLookup 'from' field must be a string, but found int"},
	})
}

func TestLookupAbsorbsUnwind(t *testing.T) {
	db := newFakeDB()
	db.colls["inv"] = docs(t, `{"_id": 1, "sku": "a"}`, `{"_id": 2, "sku": "a"}`)
	ctx := db.context()
	p, err := Parse(pipe(t, `[{"$lookup": {"from": "inv", "localField": "item", "foreignField": "sku", "as": "inv"}}, {"$unwind": "$inv"}]`), ctx)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, toDocs(p.Explain("queryPlanner")),
		`{"$lookup": {"from": "inv", "as": "inv", "localField": "item", "foreignField": "sku", "unwinding": {"preserveNullAndEmptyArrays": false}}}`)
	it, _ := p.Run(NewSliceIterator(docs(t, `{"_id": 9, "item": "a"}`, `{"_id": 10, "item": "b"}`)))
	got, err := Drain(it)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got, `{"_id": 9, "item": "a", "inv": {"_id": 1, "sku": "a"}}`, `{"_id": 9, "item": "a", "inv": {"_id": 2, "sku": "a"}}`)
}
