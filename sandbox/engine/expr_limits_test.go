package engine_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// exprOn runs {$project: {_id: 0, r: <e>}} over the one document of
// limits.s, {_id: 1, s: <15,000,000 × "a">}.
func exprOn(e any) bson.D {
	return bson.D{{Key: "aggregate", Value: "s"}, {Key: "pipeline", Value: bson.A{
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "r", Value: e}}}},
	}}, {Key: "cursor", Value: bson.D{}}}
}

func doubling(initial, step any) bson.D {
	return bson.D{{Key: "$reduce", Value: bson.D{{Key: "input", Value: bson.D{{Key: "$range", Value: bson.A{0, 64}}}},
		{Key: "initialValue", Value: initial}, {Key: "in", Value: step}}}}
}

// Strings built by expressions obey mongod's two limits, checked before
// the string is allocated: the StringBuilder's 64 MB (13548) and the 16 MB
// of a string value (16493). The case, a 300-byte command that
// doubled a string to 2 GiB, now stops at 16 MB.
func TestExpressionStringLimits(t *testing.T) {
	db := startServer(t).Database("limits")
	const n = 15_000_000
	if _, err := db.Collection("s").InsertOne(context.Background(), bson.D{{Key: "_id", Value: 1}, {Key: "s", Value: strings.Repeat("a", n)}}); err != nil {
		t.Fatal(err)
	}
	tooLong := "Tried to create string longer than 16MB"
	tests := []struct {
		name string
		e    any
		code int32
		msg  string
		// refused is the size of the string mongod refuses to build;
		// the command may allocate no more than a fraction of it.
		refused int
	}{
		{"$reduce doubling a string", bson.D{{Key: "$strLenBytes", Value: doubling("x", bson.D{{Key: "$concat", Value: bson.A{"$$value", "$$value"}}})}}, 16493, tooLong, 0},
		{"$concat to 16 MB", bson.D{{Key: "$concat", Value: bson.A{"$s", strings.Repeat("b", 16<<20-n)}}}, 16493, tooLong, 0},
		{"$concat past 64 MB", bson.D{{Key: "$concat", Value: bson.A{"$s", "$s", "$s", "$s", "$s"}}}, 13548, "BufBuilder attempted to grow() to 75000000 bytes, past the 64MB limit.", 5 * n},
		{"$replaceAll growing", bson.D{{Key: "$replaceAll", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "find", Value: "a"}, {Key: "replacement", Value: "bb"}}}}, 16493, tooLong, 2 * n},
		{"$replaceAll past 64 MB", bson.D{{Key: "$replaceAll", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "find", Value: "a"}, {Key: "replacement", Value: "xxxxx"}}}}, 13548, "BufBuilder attempted to grow() to 67108865 bytes, past the 64MB limit.", 5 * n},
		{"$replaceOne", bson.D{{Key: "$replaceOne", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "find", Value: "a"}, {Key: "replacement", Value: strings.Repeat("c", 16<<20-n+1)}}}}, 16493, tooLong, 0},
		{"$regexFindAll", bson.D{{Key: "$size", Value: bson.D{{Key: "$regexFindAll", Value: bson.D{{Key: "input", Value: "$s"}, {Key: "regex", Value: "a"}}}}}}, 51151, "$regexFindAll: the size of buffer to store output exceeded the 64MB limit", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			wantCode(t, commandError(t, db, exprOn(tc.e)), tc.code, "Location"+strconv.Itoa(int(tc.code)), aggPrefix+tc.msg)
			runtime.ReadMemStats(&after)
			if grown := int(after.TotalAlloc - before.TotalAlloc); tc.refused > 0 && grown > tc.refused/4 {
				t.Fatalf("refusing a %d MB string allocated %d MB", tc.refused>>20, grown>>20)
			}
		})
	}

	// Just under the limit is fine, and $strLenBytes counts it right.
	out := mustRun(t, db, exprOn(bson.D{{Key: "$strLenBytes", Value: bson.D{{Key: "$concat", Value: bson.A{"$s", strings.Repeat("b", 16<<20-1-n)}}}}}))
	if got := resultOf(t, out); got != int32(16<<20-1) {
		t.Fatalf("$strLenBytes = %v", got)
	}
}

// Arrays and documents built by expressions stop at 100 MB (value.MemSize)
// and 200 levels, however their parts are shared.
func TestExpressionArrayAndDocumentLimits(t *testing.T) {
	db := startServer(t).Database("limits")
	if _, err := db.Collection("s").InsertOne(context.Background(), bson.D{{Key: "_id", Value: 1}, {Key: "s", Value: strings.Repeat("a", 15_000_000)}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		e      any
		code   int32
		prefix string
	}{
		{"$concatArrays doubling", bson.D{{Key: "$size", Value: doubling(bson.A{1}, bson.D{{Key: "$concatArrays", Value: bson.A{"$$value", "$$value"}}})}}, mongoerr.ExceededMemoryLimit, "$concatArrays would use too much memory ("},
		{"$map of a big string", bson.D{{Key: "$size", Value: bson.D{{Key: "$map", Value: bson.D{{Key: "input", Value: bson.D{{Key: "$range", Value: bson.A{0, 1000}}}}, {Key: "in", Value: "$s"}}}}}}, mongoerr.ExceededMemoryLimit, "$map would use too much memory ("},
		{"$zip with long defaults", bson.D{{Key: "$size", Value: bson.D{{Key: "$zip", Value: bson.D{{Key: "inputs", Value: bson.A{bson.D{{Key: "$range", Value: bson.A{0, 1000}}}, bson.A{}}}, {Key: "useLongestLength", Value: true}, {Key: "defaults", Value: bson.A{0, "$s"}}}}}}}, mongoerr.ExceededMemoryLimit, "$zip would use too much memory ("},
		{"object literal doubling", bson.D{{Key: "$type", Value: doubling(bson.D{}, bson.D{{Key: "a", Value: "$$value"}, {Key: "b", Value: "$$value"}})}}, mongoerr.ExceededMemoryLimit, "object literal would use too much memory ("},
		{"array literal doubling", bson.D{{Key: "$type", Value: doubling(bson.A{}, bson.A{"$$value", "$$value"})}}, mongoerr.ExceededMemoryLimit, "array literal would use too much memory ("},
		{"$mergeObjects doubling", bson.D{{Key: "$type", Value: doubling(bson.D{}, bson.D{{Key: "$mergeObjects", Value: bson.A{bson.D{{Key: "a", Value: "$$value"}}, bson.D{{Key: "b", Value: "$$value"}}}}})}}, mongoerr.ExceededMemoryLimit, "$mergeObjects would use too much memory ("},
		{"$setField doubling", bson.D{{Key: "$type", Value: doubling(bson.D{}, bson.D{{Key: "$setField", Value: bson.D{{Key: "field", Value: "a"}, {Key: "input", Value: bson.D{{Key: "b", Value: "$$value"}}}, {Key: "value", Value: "$$value"}}}})}}, mongoerr.ExceededMemoryLimit, "$setField would use too much memory ("},
		{"nesting past 200 levels", bson.D{{Key: "$type", Value: bson.D{{Key: "$reduce", Value: bson.D{{Key: "input", Value: bson.D{{Key: "$range", Value: bson.A{0, 1000}}}}, {Key: "initialValue", Value: 0}, {Key: "in", Value: bson.D{{Key: "v", Value: "$$value"}}}}}}}}, mongoerr.Overflow,
			"cannot convert document to BSON because it exceeds the limit of 200 levels of nesting"},
		{"$split into too many parts", bson.D{{Key: "$size", Value: bson.D{{Key: "$split", Value: bson.A{"$s", "a"}}}}}, mongoerr.ExceededMemoryLimit, "$split would use too much memory ("},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ce := commandError(t, db, exprOn(tc.e))
			if ce.Code != tc.code || !strings.HasPrefix(ce.Message, aggPrefix+tc.prefix) {
				t.Fatalf("error %d %q, want %d %q...", ce.Code, ce.Message, tc.code, aggPrefix+tc.prefix)
			}
			if tc.code == mongoerr.ExceededMemoryLimit && !strings.HasSuffix(ce.Message, " bytes) and cannot spill to disk. Memory limit: 104857600 bytes") {
				t.Fatalf("error %q", ce.Message)
			}
		})
	}
	// The same operators under the limits are unchanged.
	out := mustRun(t, db, exprOn(bson.D{{Key: "$size", Value: doubling(bson.A{1}, bson.D{{Key: "$slice", Value: bson.A{bson.D{{Key: "$concatArrays", Value: bson.A{"$$value", "$$value"}}}, 1000}}})}}))
	if got := resultOf(t, out); got != int32(1000) {
		t.Fatalf("$size = %v", got)
	}
}

// resultOf is r in the first document of an exprOn reply.
func resultOf(t *testing.T, reply bson.D) any {
	t.Helper()
	cursor, _ := field(reply, "cursor").(bson.D)
	batch, _ := field(cursor, "firstBatch").(bson.A)
	if len(batch) != 1 {
		t.Fatalf("reply %v", reply)
	}
	return field(batch[0].(bson.D), "r")
}
