package validation

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BenchmarkCheckFivePropertySchema is the cost of validating one document
// against a five-property $jsonSchema, the engine-side part of the
// issue's validation-overhead figure.
func BenchmarkCheckFivePropertySchema(b *testing.B) {
	schema := bson.D{{Key: "$jsonSchema", Value: bson.D{
		{Key: "bsonType", Value: "object"},
		{Key: "required", Value: bson.A{"name", "year", "major", "address"}},
		{Key: "properties", Value: bson.D{
			{Key: "name", Value: bson.D{{Key: "bsonType", Value: "string"}}},
			{Key: "year", Value: bson.D{{Key: "bsonType", Value: "int"}, {Key: "minimum", Value: int32(2017)}, {Key: "maximum", Value: int32(3017)}}},
			{Key: "major", Value: bson.D{{Key: "enum", Value: bson.A{"Math", "English", "History", "Computer Science"}}}},
			{Key: "gpa", Value: bson.D{{Key: "bsonType", Value: "double"}}},
			{Key: "address", Value: bson.D{{Key: "bsonType", Value: "object"}, {Key: "required", Value: bson.A{"city"}}}},
		}},
	}}}
	v, err := Compile(schema, 0, nil, true)
	if err != nil {
		b.Fatal(err)
	}
	doc := bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "name", Value: fmt.Sprintf("student %06d", 1)}, {Key: "year", Value: int32(2018)},
		{Key: "major", Value: "Math"}, {Key: "gpa", Value: 3.5}, {Key: "address", Value: bson.D{{Key: "city", Value: "NYC"}}}}
	b.ReportAllocs()
	cpu := processCPU()
	for range b.N {
		if err := v.Check(doc, 0); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time per check, which other work on a shared machine inflates
	// less than the wall time ns/op.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
