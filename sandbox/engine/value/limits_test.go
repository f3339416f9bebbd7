package value

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestMeasureWithinAgreesWithMemSize(t *testing.T) {
	doc := bson.D{{Key: "_id", Value: int32(1)}, {Key: "s", Value: "hello"}, {Key: "a", Value: bson.A{1.5, bson.D{{Key: "x", Value: bson.Timestamp{T: 1}}}, bson.A{}}},
		{Key: "c", Value: bson.CodeWithScope{Code: "f()", Scope: bson.D{{Key: "y", Value: int64(2)}}}}}
	for _, v := range []any{doc, bson.A{doc, doc}, "x", int32(3), nil, bson.D{}} {
		size, _, ok := MeasureWithin(v, 1<<30)
		if !ok || size != MemSize(v) {
			t.Fatalf("%v: MeasureWithin %d %v, MemSize %d", v, size, ok, MemSize(v))
		}
	}
}

// A value that shares its parts can stand for far more than it holds;
// the walk stops at the limit instead of visiting every shared part.
func TestMeasureWithinStopsEarly(t *testing.T) {
	var v any = bson.A{"0123456789"}
	for range 60 {
		v = bson.A{v, v}
	}
	size, _, ok := MeasureWithin(v, 1000)
	if ok || size > 1100 {
		t.Fatalf("size %d ok %v", size, ok)
	}
	var deep any = int32(1)
	for range MaxNestingDepth + 1 {
		deep = bson.D{{Key: "a", Value: deep}}
	}
	if _, depth, ok := MeasureWithin(deep, 1<<30); ok || depth != MaxNestingDepth+1 {
		t.Fatalf("depth %d ok %v", depth, ok)
	}
	if _, depth, ok := MeasureWithin(deep.(bson.D)[0].Value, 1<<30); !ok || depth != MaxNestingDepth {
		t.Fatalf("depth %d ok %v", depth, ok)
	}
}
