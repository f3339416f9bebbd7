package catalog

import (
	"bytes"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
)

// BenchmarkDecodeSnapshot144k reads back a snapshot of the bucket
// lesson's readings: 144,000 small documents with an ObjectId _id and a
// {sensorId, at} index, what a cached lesson's first step loads, and
// fills both indexes, which its first query uses.
//
//	go test -run '^$' -bench DecodeSnapshot144k ./sandbox/engine/catalog
func BenchmarkDecodeSnapshot144k(b *testing.B) {
	c := New(nil)
	col, err := c.CreateCollection("db", "readings", nil)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Date(2026, 5, 25, 8, 0, 0, 0, time.UTC)
	for i := range 144000 {
		if _, err := col.Insert(bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "sensorId", Value: "s7"},
			{Key: "at", Value: bson.NewDateTimeFromTime(start.Add(time.Duration(i) * time.Minute))}, {Key: "temp", Value: 21.5}}); err != nil {
			b.Fatal(err)
		}
	}
	spec, err := index.ParseSpec(bson.D{{Key: "key", Value: bson.D{{Key: "sensorId", Value: int32(1)}, {Key: "at", Value: int32(1)}}}, {Key: "name", Value: "sensorId_1_at_1"}}, false)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := col.CreateIndex(spec); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.SnapshotDatabase("db", time.Now()).Encode(&buf); err != nil {
		b.Fatal(err)
	}
	noValidator := func(bson.D) (*validation.Validator, error) { return nil, nil }
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		s, err := c.DecodeSnapshot(buf.Bytes(), "db", time.Now(), noValidator)
		if err != nil || s.Documents() != 144000 {
			b.Fatal(err)
		}
		for _, ix := range s.colls["readings"].Indexes() {
			if ix.Len() != 144000 {
				b.Fatalf("%s has %d entries", ix.Spec.Name, ix.Len())
			}
		}
	}
}
