package lessons

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const picturesLesson = "---\nid: pictures\ntitle: Pictures\n---\n" +
	"## A bucket printed in part\n```js setup\n" +
	"db.readings_bucket.insertMany(['s6', 's7'].map((s) => ({ sensorId: s, hour: new Date(Date.UTC(2026, 8, 1)), count: 60, " +
	"samples: Array.from({ length: 60 }, (_, m) => ({ m, t: 20 + m / 10 })) })));\n```\n" +
	"```js run\ndb.readings_bucket.findOne({ sensorId: 's7' }, { _id: 0, samples: { $slice: 3 } })\n```\n" +
	"## A distribution\n```js run\n" +
	"db.books.insertMany([{ n: 1 }, { n: 2 }, { n: 60 }, { n: 20000 }]);\n" +
	"db.books.aggregate([{ $bucket: { groupBy: '$n', boundaries: [0, 50, 10000], default: 10000, output: { count: { $sum: 1 } } } }])\n```\n" +
	"## A tree\n```js setup\n" +
	"db.cats.insertMany([{ _id: 'electronics', name: 'Electronics', parent: null }, { _id: 'phones', name: 'Phones', parent: 'electronics' },\n" +
	"  { _id: 'smartphones', name: 'Smartphones', parent: 'phones' }, { _id: 'android', name: 'Android', parent: 'smartphones' },\n" +
	"  { _id: 'books', name: 'Books', parent: null }]);\n```\n" +
	"```js run\ndb.cats.aggregate([{ $match: { _id: 'android' } }, { $graphLookup: { from: 'cats', startWith: '$parent', " +
	"connectFromField: 'parent', connectToField: '_id', as: 'ancestors', depthField: 'depth' } }, " +
	"{ $project: { name: 1, 'ancestors.name': 1, 'ancestors.depth': 1 } }])\n```\n"

// Pictures are recognized from the values a step printed: a bucket cut to
// three samples is drawn with its whole hour read back from the
// database, a $bucket result as bars with ranges, and a $graphLookup
// result as the tree with the returned nodes and their depths.
func TestPictures(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("pictures.md", []byte(picturesLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, startSandbox(t), l, "pic_")
	run := func(i int) *Pictures {
		res, err := r.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil || !res.OK() {
			t.Fatalf("step %d: %v %v", i+1, err, res.Failures)
		}
		return &res.Pictures
	}
	p := run(0)
	if len(p.Charts) != 1 || p.Charts[0].Bucket == nil || len(p.Charts[0].Bucket.Values) != 60 || p.Charts[0].Bucket.Count != 60 {
		t.Fatalf("bucket picture: %+v", p.Charts)
	}
	p = run(1)
	if len(p.Charts) != 1 || len(p.Charts[0].Distribution) != 3 {
		t.Fatalf("distribution: %+v", p.Charts)
	}
	if got := p.Charts[0].Distribution; got[0].Label != "0–50" || got[0].Count != 2 || got[1].Label != "50–10000" || got[2].Label != "10000" {
		t.Errorf("bars: %+v", got)
	}
	p = run(2)
	tr := p.Tree
	if tr == nil || tr.Parent["android"] != "smartphones" || len(tr.IDs) != 5 {
		t.Fatalf("tree: %+v", tr)
	}
	if d, ok := tr.Hits["phones"]; !ok || d != 1 {
		t.Errorf("phones: hit %v at depth %d, want depth 1", ok, d)
	}
	if _, ok := tr.Hits["books"]; ok {
		t.Error("books was not returned")
	}
}

// Materialized paths and ancestor arrays give the same tree as parent
// references.
func TestBuildTreeModels(t *testing.T) {
	byPath := buildTree([]bson.D{
		{{Key: "_id", Value: "e"}, {Key: "name", Value: "Electronics"}, {Key: "path", Value: "/Electronics"}},
		{{Key: "_id", Value: "p"}, {Key: "name", Value: "Phones"}, {Key: "path", Value: "/Electronics/Phones"}},
	})
	if byPath == nil || byPath.Parent["p"] != "e" {
		t.Errorf("materialized path tree: %+v", byPath)
	}
	byAncestors := buildTree([]bson.D{
		{{Key: "_id", Value: "e"}, {Key: "ancestors", Value: bson.A{}}},
		{{Key: "_id", Value: "p"}, {Key: "ancestors", Value: bson.A{"e"}}},
	})
	if byAncestors == nil || byAncestors.Parent["p"] != "e" {
		t.Errorf("ancestors tree: %+v", byAncestors)
	}
	if buildTree([]bson.D{{{Key: "_id", Value: "x"}, {Key: "v", Value: 1}}}) != nil {
		t.Error("documents without tree fields were read as a tree")
	}
}

func TestPipelineOf(t *testing.T) {
	coll, pipe, ok := pipelineOf("// group\ndb.people.aggregate([\n  { $match: {} },\n  { $count: 'n' }\n]);")
	if !ok || coll != "db.people" || !strings.HasPrefix(pipe, "[") {
		t.Fatalf("got %q %q %v", coll, pipe, ok)
	}
	for _, src := range []string{
		"db.people.find()",
		"const x = 1; db.people.aggregate([])",
		"db.a.aggregate([]); db.b.aggregate([])",
	} {
		if _, _, ok := pipelineOf(src); ok {
			t.Errorf("pipelineOf(%q) accepted a step that is not a single aggregate", src)
		}
	}
}

// $bucket leaves out empty buckets: a bar ends at the next boundary of the
// $bucket that made it (not of another the step sent), not at the next
// bar, and a default bucket named by a string keeps its name after the
// ranged bars.
func TestDistributionRangesFollowTheBoundaries(t *testing.T) {
	bucket := func(id any, n int32) bson.D { return bson.D{{Key: "_id", Value: id}, {Key: "count", Value: n}} }
	got := distribution(bson.A{bucket(int32(-20), 3), bucket(int32(-10), 46), bucket(int32(0), 46), bucket(int32(10), 5)},
		[]bson.A{{int32(0), int32(100)}, {int32(-50), int32(-30), int32(-20), int32(-10), int32(0), int32(10), int32(20), int32(30), int32(50)}})
	var labels []string
	for _, b := range got {
		labels = append(labels, b.Label)
	}
	if strings.Join(labels, " ") != "-20–-10 -10–0 0–10 10–20" {
		t.Errorf("labels with a gap after the last bar: %q", labels)
	}
	got = distribution(bson.A{bucket(int32(30), 12), bucket("beyond", 1)}, []bson.A{{int32(0), int32(30), int32(50)}})
	if got[0].Label != "30–50" || got[1].Label != "'beyond'" {
		t.Errorf("a string default bucket: %+v", got)
	}
	got = distribution(bson.A{bucket(int32(0), 2), bucket(int32(50), 1)}, nil)
	if got[0].Label != "0–50" || got[1].Label != "50" {
		t.Errorf("without boundaries: %+v", got)
	}
}

func TestBarCells(t *testing.T) {
	for _, c := range []struct {
		v, max float64
		w      int
		want   string
	}{{0, 10, 10, ""}, {10, 10, 4, "████"}, {1, 1000, 4, "▏"}, {5, 10, 4, "██"}, {3, 8, 2, "▊"}} {
		if got := BarCells(c.v, c.max, c.w); got != c.want {
			t.Errorf("BarCells(%v, %v, %d) = %q, want %q", c.v, c.max, c.w, got, c.want)
		}
	}
}
