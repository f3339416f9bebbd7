package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestBits(t *testing.T) {
	// Manual, "Bitwise Query Operators": a: 54 is 00110110.
	a := func(v any) D { return D{{Key: "a", Value: v}} }
	f := func(op string, arg any) D { return D{{Key: "a", Value: D{{Key: op, Value: arg}}}} }
	runMatchCases(t, []matchCase{
		{"allSet positions", f("$bitsAllSet", A{int32(1), int32(5)}), a(int32(54)), true},
		{"allSet mask", f("$bitsAllSet", int32(50)), a(int32(54)), true},
		{"allSet missing bit", f("$bitsAllSet", A{int32(0)}), a(int32(54)), false},
		{"allSet bindata", f("$bitsAllSet", bson.Binary{Data: []byte{0x30}}), a(int32(54)), true},
		{"allClear", f("$bitsAllClear", A{int32(0), int32(3)}), a(int32(54)), true},
		{"anySet", f("$bitsAnySet", A{int32(0), int32(1)}), a(int32(54)), true},
		{"anyClear", f("$bitsAnyClear", A{int32(1), int32(2)}), a(int32(54)), false},
		{"negative sign extends", f("$bitsAllSet", A{int32(100)}), a(int32(-1)), true},
		{"fraction never matches", f("$bitsAllClear", A{int32(0)}), a(2.5), false},
		{"string never matches", f("$bitsAllClear", A{int32(0)}), a("x"), false},
		{"bindata value", f("$bitsAllSet", A{int32(9)}), a(bson.Binary{Data: []byte{0, 2}}), true},
	})
	runErrCases(t, []errCase{
		{"negative position", f("$bitsAllSet", A{int32(-1)}), mongoerr.BadValue, "Failed to parse bit position. Expected a non-negative number in: 0: -1"},
		{"string", f("$bitsAnySet", "x"), mongoerr.BadValue, `a takes an Array, a number, or a BinData but received: $bitsAnySet: "x"`},
		{"negative mask", f("$bitsAnySet", int32(-1)), mongoerr.FailedToParse, "Expected a non-negative number in: $bitsAnySet: -1"},
	})
}
