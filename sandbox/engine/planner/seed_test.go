package planner

import (
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func compileFilter(f bson.D) (func(bson.D) bool, error) {
	q, err := query.Compile(f, query.Options{})
	if err != nil {
		return nil, err
	}
	return q.Matches, nil
}

func newCatalog() *catalog.Catalog { return catalog.New(compileFilter) }

func mustIndex(t testing.TB, c *catalog.Collection, key bson.D, opts ...bson.E) *index.Index {
	t.Helper()
	spec := bson.D{{Key: "key", Value: key}, {Key: "name", Value: index.DefaultName(key)}}
	spec = append(spec, opts...)
	s, err := index.ParseSpec(spec, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateIndex(s); err != nil {
		t.Fatal(err)
	}
	return c.Index(s.Name)
}

func mustCompile(t testing.TB, f bson.D) *query.Filter {
	t.Helper()
	q, err := query.Compile(f, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

var seedStart = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)

// seedReadings builds seed 002's data: 10 sensors × 14,400 one-minute
// readings = 144,000 flat documents, and the same data as 2,400 hourly
// buckets of 60 samples.
func seedReadings(t testing.TB) (flat, buckets *catalog.Collection) {
	cat := newCatalog()
	flat, _ = cat.CreateCollection("lab", "readings", nil)
	buckets, _ = cat.CreateCollection("lab", "readings_bucket", nil)
	mustIndex(t, flat, bson.D{{Key: "sensorId", Value: int32(1)}, {Key: "at", Value: int32(1)}})
	mustIndex(t, buckets, bson.D{{Key: "sensorId", Value: int32(1)}, {Key: "hour", Value: int32(1)}})
	const sensors, minutes = 10, 14400
	for h := range minutes / 60 {
		hour := seedStart.Add(time.Duration(h) * time.Hour)
		for s := range sensors {
			id := fmt.Sprintf("s%d", s)
			samples := make(bson.A, 60)
			sum, lo, hi := 0.0, 100.0, -100.0
			for m := range 60 {
				temp := 18 + float64((h*60+m+s*7)%90)/10
				samples[m] = bson.D{{Key: "m", Value: int32(m)}, {Key: "t", Value: temp}}
				sum += temp
				lo, hi = min(lo, temp), max(hi, temp)
				at := hour.Add(time.Duration(m) * time.Minute)
				if _, err := flat.Insert(bson.D{
					{Key: "_id", Value: bson.NewObjectID()},
					{Key: "sensorId", Value: id},
					{Key: "at", Value: bson.NewDateTimeFromTime(at)},
					{Key: "temp", Value: temp},
				}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := buckets.Insert(bson.D{
				{Key: "_id", Value: bson.NewObjectID()},
				{Key: "sensorId", Value: id},
				{Key: "hour", Value: bson.NewDateTimeFromTime(hour)},
				{Key: "count", Value: int32(60)},
				{Key: "samples", Value: samples},
				{Key: "sum", Value: sum},
				{Key: "min", Value: lo},
				{Key: "max", Value: hi},
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return flat, buckets
}

func drain(t testing.TB, e *Executor) []Result {
	t.Helper()
	var out []Result
	for {
		r, ok, err := e.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return out
		}
		out = append(out, r)
	}
}

func windowFilter(field string) bson.D {
	lo := bson.NewDateTimeFromTime(seedStart)
	hi := bson.NewDateTimeFromTime(seedStart.Add(12 * time.Hour))
	return bson.D{{Key: "sensorId", Value: "s7"}, {Key: field, Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: hi}}}}
}

func lookupStats(d bson.D, path string) any { return value.Lookup(d, path) }

func TestSeed002ExplainFigures(t *testing.T) {
	flat, buckets := seedReadings(t)
	cases := []struct {
		name       string
		coll       *catalog.Collection
		field      string
		keys, docs int64
		bounds     bson.D
	}{
		{"flat", flat, "at", 720, 720, bson.D{
			{Key: "sensorId", Value: bson.A{`["s7", "s7"]`}},
			{Key: "at", Value: bson.A{"[new Date(1788220800000), new Date(1788264000000))"}},
		}},
		{"buckets", buckets, "hour", 12, 12, bson.D{
			{Key: "sensorId", Value: bson.A{`["s7", "s7"]`}},
			{Key: "hour", Value: bson.A{"[new Date(1788220800000), new Date(1788264000000))"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Plan(tc.coll, tc.coll.NS(), Query{Filter: mustCompile(t, windowFilter(tc.field))})
			if err != nil {
				t.Fatal(err)
			}
			got := drain(t, e)
			if int64(len(got)) != tc.docs {
				t.Fatalf("returned %d documents, want %d", len(got), tc.docs)
			}
			es := e.ExecutionStats(false)
			if k := lookupStats(es, "totalKeysExamined"); k != tc.keys {
				t.Errorf("totalKeysExamined = %v, want %d", k, tc.keys)
			}
			if d := lookupStats(es, "totalDocsExamined"); d != tc.docs {
				t.Errorf("totalDocsExamined = %v, want %d", d, tc.docs)
			}
			qp := e.QueryPlanner()
			if s := lookupStats(qp, "winningPlan.stage"); s != "FETCH" {
				t.Errorf("winning stage %v", s)
			}
			if s := lookupStats(qp, "winningPlan.inputStage.stage"); s != "IXSCAN" {
				t.Errorf("input stage %v", s)
			}
			if b := lookupStats(qp, "winningPlan.inputStage.indexBounds"); value.Compare(b, tc.bounds) != 0 {
				t.Errorf("indexBounds = %v, want %v", b, tc.bounds)
			}
			if w := lookupStats(es, "executionStages.inputStage.works"); w != tc.keys+1 {
				t.Errorf("IXSCAN works = %v, want %d", w, tc.keys+1)
			}
			if f := lookupStats(qp, "winningPlan.filter"); !value.IsMissing(f) {
				t.Errorf("FETCH has a filter %v; the bounds answer the query exactly", f)
			}
		})
	}
}

func TestCollScanOver200k(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("lab", "enrollments", nil)
	for i := range 200000 {
		c.Insert(bson.D{{Key: "_id", Value: int32(i)}, {Key: "courseId", Value: int32(i % 200)}, {Key: "grade", Value: float64(i % 100)}})
	}
	e, err := Plan(c, c.NS(), Query{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(drain(t, e)); n != 200000 {
		t.Fatalf("got %d", n)
	}
	es := e.ExecutionStats(false)
	if lookupStats(es, "totalKeysExamined") != int64(0) || lookupStats(es, "totalDocsExamined") != int64(200000) {
		t.Fatalf("stats %v", es)
	}
	if s := lookupStats(es, "executionStages.stage"); s != "COLLSCAN" {
		t.Fatalf("stage %v", s)
	}
	if w := lookupStats(es, "executionStages.works"); w != int64(200001) {
		t.Fatalf("works %v", w)
	}
}
