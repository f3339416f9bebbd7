package update

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func upsert(t *testing.T, seed, update string) (bson.D, error) {
	t.Helper()
	u, err := Compile(js(t, update), Options{Now: 1700000000000})
	if err != nil {
		return nil, err
	}
	return u.Upsert(js(t, seed))
}

// checkGeneratedID asserts a generated ObjectId _id in front and returns the
// rest of the document.
func checkGeneratedID(t *testing.T, d bson.D) bson.D {
	t.Helper()
	if len(d) == 0 || d[0].Key != "_id" {
		t.Fatalf("_id is not first: %s", valueString(d))
	}
	if _, ok := d[0].Value.(bson.ObjectID); !ok {
		t.Fatalf("_id is not a generated ObjectId: %s", valueString(d))
	}
	return d[1:]
}

func TestUpsertSeed002Bucket(t *testing.T) {
	// The filter {sensorId: 's7', hour: <date>, count: {$lt: 60}} seeds only
	// its equality fields; the new fields follow in path order.
	got, err := upsert(t, `{"sensorId": "s7", "hour": {"$date": "2026-09-02T08:00:00Z"}}`,
		`{"$push": {"samples": {"m": 17, "t": 21.4}}, "$inc": {"count": 1, "sum": 21.4}, "$min": {"min": 21.4}, "$max": {"max": 21.4}}`)
	if err != nil {
		t.Fatal(err)
	}
	rest := checkGeneratedID(t, got)
	want := js(t, `{"sensorId": "s7", "hour": {"$date": "2026-09-02T08:00:00Z"}, "count": 1, "max": 21.4, "min": 21.4, "samples": [{"m": 17, "t": 21.4}], "sum": 21.4}`)
	if !identical(rest, want) {
		t.Fatalf("got  %s\nwant %s", valueString(rest), valueString(want))
	}
}

func TestUpsert(t *testing.T) {
	got, err := upsert(t, `{"a": 1, "_id": 7}`, `{"$setOnInsert": {"b": 2}, "$set": {"c": 3}}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := js(t, `{"_id": 7, "a": 1, "b": 2, "c": 3}`); !identical(got, want) {
		t.Fatalf("got %s, want %s", valueString(got), valueString(want))
	}

	got, err = upsert(t, `{"_id": 5, "x": 1}`, `{"a": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := js(t, `{"_id": 5, "a": 1}`); !identical(got, want) {
		t.Fatalf("replacement upsert: got %s, want %s", valueString(got), valueString(want))
	}

	got, err = upsert(t, `{"x": 1}`, `{"a": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	if rest := checkGeneratedID(t, got); !identical(rest, js(t, `{"a": 1}`)) {
		t.Fatalf("replacement upsert without _id: %s", valueString(got))
	}

	got, err = upsert(t, `{"x": 1}`, `{"$set": {"_id": 3}}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := js(t, `{"_id": 3, "x": 1}`); !identical(got, want) {
		t.Fatalf("_id set by the update goes first: got %s", valueString(got))
	}

	var cases = []updateCase{
		{name: "changing the seeded _id", doc: `{"_id": 1}`, update: `{"$set": {"_id": 2}}`, code: 66,
			msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "replacement changing the filter's _id", doc: `{"_id": 1, "a": 1}`, update: `{"_id": 2}`, code: 66,
			msg: "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
		{name: "positional without a match", doc: `{"a": 1}`, update: `{"$set": {"b.$": 2}}`, code: 2,
			msg: "The positional operator did not find the match needed from the query."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := upsert(t, tc.doc, tc.update)
			checkResult(t, got, false, err, tc.want, tc.modified, tc.code, tc.msg)
		})
	}
}

func TestUpsertSeed000OverflowBatch(t *testing.T) {
	// $setOnInsert repeats the seeded equality fields: a no-op on them, and
	// the created fields follow in path order.
	got, err := upsert(t, `{"bookId": 12, "batch": 2}`,
		`{"$push": {"customers": 501}, "$inc": {"count": 1}, "$setOnInsert": {"bookId": 12, "batch": 2}}`)
	if err != nil {
		t.Fatal(err)
	}
	rest := checkGeneratedID(t, got)
	if want := js(t, `{"bookId": 12, "batch": 2, "count": 1, "customers": [501]}`); !identical(rest, want) {
		t.Fatalf("got  %s\nwant %s", valueString(rest), valueString(want))
	}
}
