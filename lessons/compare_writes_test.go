package lessons

import (
	"context"
	"testing"
)

const writesLesson = "---\nid: writes\ntitle: Writes\n---\n" +
	"## Seed\n```js setup\ndb.a.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]); db.b.insertOne({ _id: 1 })\n```\n" +
	"## Compare\n" +
	"```js compare label=\"one by one\" writes=\"a\"\n" +
	"(() => { [1, 2, 3].forEach((_id) => db.a.updateOne({ _id }, { $set: { x: 1 } })); db.b.updateOne({ _id: 1 }, { $set: { x: 1 } }); return { docs: 0 }; })()\n```\n" +
	"```js compare label=\"at once\" writes=\"a\"\n" +
	"db.a.updateMany({}, { $set: { y: 1 } }); db.a.bulkWrite([{ updateOne: { filter: { _id: 1 }, update: { $set: { z: 1 } } } }, { deleteOne: { filter: { _id: 3 } } }]).deletedCount\n```\n" +
	"```js compare label=\"any\" writes=\"*\"\n" +
	"db.a.find().toArray(); db.b.insertMany([{ _id: 2 }, { _id: 3 }]).insertedIds.length\n```\n"

// writes= counts the write operations a variant sent to a collection, from
// the client's commands: the statements of an update or delete, the
// documents of an insert; none for reads, none for another collection.
func TestCompareWritesCountsTheVariantsWriteOperations(t *testing.T) {
	be := startSandbox(t)
	l, err := Parse("writes.md", []byte(writesLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, be, l, "test_")
	res, err := r.Do(context.Background(), Request{Op: OpRun, Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Blocks) == 0 || len(res.Blocks[0].Variants) != 3 {
		t.Fatalf("compare result = %+v", res.Blocks)
	}
	for i, want := range []float64{3, 3, 2} {
		v := res.Blocks[0].Variants[i]
		if v.Err != nil {
			t.Fatalf("%s: %v", v.Label, v.Err)
		}
		if got, ok := v.Figure("writes"); !ok || got != want {
			t.Errorf("%s: writes = %v (%v), want %v", v.Label, got, ok, want)
		}
	}
}
