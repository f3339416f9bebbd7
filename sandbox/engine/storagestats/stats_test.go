package storagestats

import (
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func createIndex(t *testing.T, c *catalog.Collection, key bson.D) {
	t.Helper()
	s, err := index.ParseSpec(bson.D{{Key: "key", Value: key}, {Key: "name", Value: index.DefaultName(key)}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateIndex(s); err != nil {
		t.Fatal(err)
	}
}

// seed002 builds seed 002's two shapes of the same readings: 144,000
// one-minute documents against 2,400 hourly buckets of 60 samples.
func seed002(t *testing.T) (flat, buckets *catalog.Collection) {
	cat := catalog.New(nil)
	flat, _ = cat.CreateCollection("lab", "readings", nil)
	buckets, _ = cat.CreateCollection("lab", "readings_bucket", nil)
	createIndex(t, flat, bson.D{{Key: "sensorId", Value: int32(1)}, {Key: "at", Value: int32(1)}})
	createIndex(t, buckets, bson.D{{Key: "sensorId", Value: int32(1)}, {Key: "hour", Value: int32(1)}})
	start := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for h := range 240 {
		hour := start.Add(time.Duration(h) * time.Hour)
		for s := range 10 {
			id := fmt.Sprintf("s%d", s)
			samples := make(bson.A, 60)
			sum, lo, hi := 0.0, 100.0, -100.0
			for m := range 60 {
				temp := 21.4 + float64((h+s)%3)/10 // seed 002 appends a steady 21.4
				samples[m] = bson.D{{Key: "m", Value: int32(m)}, {Key: "t", Value: temp}}
				sum += temp
				lo, hi = min(lo, temp), max(hi, temp)
				flat.Insert(bson.D{
					{Key: "_id", Value: bson.NewObjectID()},
					{Key: "sensorId", Value: id},
					{Key: "at", Value: bson.NewDateTimeFromTime(hour.Add(time.Duration(m) * time.Minute))},
					{Key: "temp", Value: temp},
				})
			}
			buckets.Insert(bson.D{
				{Key: "_id", Value: bson.NewObjectID()},
				{Key: "sensorId", Value: id},
				{Key: "hour", Value: bson.NewDateTimeFromTime(hour)},
				{Key: "count", Value: int32(60)},
				{Key: "samples", Value: samples},
				{Key: "sum", Value: sum},
				{Key: "min", Value: lo},
				{Key: "max", Value: hi},
			})
		}
	}
	return flat, buckets
}

func TestSeed002Ratios(t *testing.T) {
	flat, buckets := seed002(t)
	f, b := Collect(flat), Collect(buckets)
	t.Logf("flat: size %d storage %d index %d %v", f.Size, f.StorageSize, f.TotalIndex, f.IndexSizes)
	t.Logf("buckets: size %d storage %d index %d %v", b.Size, b.StorageSize, b.TotalIndex, b.IndexSizes)
	// MongoDB: 2,879,488 vs 442,368 bytes of data (6.5×) and 3,022,848 vs
	// 86,016 of index (35×). The model must land within a factor of 2.
	dataRatio := float64(f.StorageSize) / float64(b.StorageSize)
	indexRatio := float64(f.TotalIndex) / float64(b.TotalIndex)
	t.Logf("data ratio %.1f, index ratio %.1f", dataRatio, indexRatio)
	if dataRatio < 6.5/2 || dataRatio > 6.5*2 {
		t.Errorf("data ratio %.1f, want 6.5 within a factor of 2", dataRatio)
	}
	if indexRatio < 35.0/2 || indexRatio > 35*2 {
		t.Errorf("index ratio %.1f, want 35 within a factor of 2", indexRatio)
	}
}

func TestEmptyCollectionAndShape(t *testing.T) {
	cat := catalog.New(nil)
	c, _ := cat.CreateCollection("db", "c", nil)
	d := CollStats("db.c", c, 1)
	want := []string{"ns", "size", "count", "numOrphanDocs", "storageSize", "freeStorageSize", "capped", "nindexes", "indexBuilds", "totalIndexSize", "totalSize", "indexSizes", "scaleFactor"}
	if len(d) != len(want) {
		t.Fatalf("fields %v", d)
	}
	for i, k := range want {
		if d[i].Key != k {
			t.Fatalf("field %d = %s, want %s", i, d[i].Key, k)
		}
	}
	if value.Lookup(d, "storageSize") != int64(4096) || value.Lookup(d, "indexSizes._id_") != int64(4096) {
		t.Fatalf("empty collection %v", d)
	}
	c.Insert(bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: "x"}})
	d = CollStats("db.c", c, 1)
	if value.Lookup(d, "size") != int64(value.Size(bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: "x"}})) {
		t.Fatalf("size %v", d)
	}
	if value.Lookup(d, "avgObjSize") != value.Lookup(d, "size") {
		t.Fatalf("avgObjSize %v", d)
	}
}
