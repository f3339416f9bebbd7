package validation

import (
	"fmt"
	"testing"

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
	v, err := Compile(schema, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	doc := bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "name", Value: fmt.Sprintf("student %06d", 1)}, {Key: "year", Value: int32(2018)},
		{Key: "major", Value: "Math"}, {Key: "gpa", Value: 3.5}, {Key: "address", Value: bson.D{{Key: "city", Value: "NYC"}}}}
	b.ReportAllocs()
	for range b.N {
		if err := v.Check(doc, 0); err != nil {
			b.Fatal(err)
		}
	}
}
