package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Deep sweep 45 (upd): $inc and $mul against mongod's ArithmeticNode
// (src/mongo/db/update/arithmetic_node.cpp) and SafeNum
// (src/mongo/util/safe_num.cpp): the result is _val op original, a result
// SafeNum::isIdentical to the original is a no-op (doubles compared with
// ==, decimals with Decimal128::isEqual), and decimal results follow the
// IEEE 754 decimal128 arithmetic of Decimal128::add / ::multiply.
const upd45ArithRef = "src/mongo/db/update/arithmetic_node.cpp (updateExistingElement, setValueForNewElement); src/mongo/util/safe_num.cpp (isIdentical); jstests/core/write/update/update_arith_types.js"

func TestDeep45UpdArith(t *testing.T) {
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	inc, incT, incE := cover{family: update, op: "$inc", col: semantics}, cover{family: update, op: "$inc", col: types}, cover{family: update, op: "$inc", col: errorCol}
	mul, mulT, mulE := cover{family: update, op: "$mul", col: semantics}, cover{family: update, op: "$mul", col: types}, cover{family: update, op: "$mul", col: errorCol}
	runUpdateCases(t, []updateCase{
		// isIdentical compares doubles with ==: NaN is never identical,
		// so $inc on a NaN counts as a modification; -0.0 + 0.0 is 0.0,
		// which == -0.0, so the field keeps its -0.0.
		{name: "$inc on a NaN double modifies", ref: upd45ArithRef, cov: inc, docs: one(`"a":{"$numberDouble":"NaN"}`), update: `{"$inc":{"a":1}}`,
			want: one(`"a":{"$numberDouble":"NaN"}`), modified: `1`},
		{name: "$inc 0.0 on -0.0 is a no-op", ref: upd45ArithRef, cov: inc, docs: one(`"a":{"$numberDouble":"-0.0"}`), update: `{"$inc":{"a":0.0}}`,
			want: one(`"a":{"$numberDouble":"-0.0"}`), modified: `0`},
		{name: "$mul 1 on a NaN decimal modifies", ref: upd45ArithRef, cov: mul, docs: one(`"a":{"$numberDecimal":"NaN"}`), update: `{"$mul":{"a":{"$numberDecimal":"1"}}}`,
			want: one(`"a":{"$numberDecimal":"NaN"}`), modified: `1`},
		// Decimal128::isEqual: 1.00 equals 1.0, so the stored 1.0 stays.
		{name: "$inc decimal 0.00 on decimal 1.0 is a no-op", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDecimal":"1.0"}`), update: `{"$inc":{"a":{"$numberDecimal":"0.00"}}}`,
			want: one(`"a":{"$numberDecimal":"1.0"}`), modified: `0`},
		{name: "$mul decimal 1.00 on decimal 2 is a no-op", ref: upd45ArithRef, cov: mulT, docs: one(`"a":{"$numberDecimal":"2"}`), update: `{"$mul":{"a":{"$numberDecimal":"1.00"}}}`,
			want: one(`"a":{"$numberDecimal":"2"}`), modified: `0`},
		// The type still counts: long 0 added to int 5 makes a long.
		{name: "$inc long 0 on int is a change of type", ref: upd45ArithRef, cov: incT, docs: one(`"a":5`), update: `{"$inc":{"a":{"$numberLong":"0"}}}`,
			want: one(`"a":{"$numberLong":"5"}`), modified: `1`},
		{name: "$mul keeps the decimal exponent sum", ref: upd45ArithRef, cov: mulT, docs: one(`"a":{"$numberDecimal":"1.5"}`), update: `{"$mul":{"a":{"$numberDecimal":"2.00"}}}`,
			want: one(`"a":{"$numberDecimal":"3.000"}`), modified: `1`},
		// Decimal infinities: Inf + 1 is Inf (identical: a no-op), a
		// double infinity converts to a decimal infinity, Inf * 0 and
		// Inf - Inf are NaN.
		{name: "$inc on a decimal Infinity is a no-op", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDecimal":"Infinity"}`), update: `{"$inc":{"a":1}}`,
			want: one(`"a":{"$numberDecimal":"Infinity"}`), modified: `0`},
		{name: "$inc decimal on a double Infinity", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDouble":"Infinity"}`), update: `{"$inc":{"a":{"$numberDecimal":"1"}}}`,
			want: one(`"a":{"$numberDecimal":"Infinity"}`), modified: `1`},
		{name: "$inc decimal -Infinity on Infinity is NaN", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDecimal":"Infinity"}`), update: `{"$inc":{"a":{"$numberDecimal":"-Infinity"}}}`,
			want: one(`"a":{"$numberDecimal":"NaN"}`), modified: `1`},
		{name: "$mul decimal -Infinity on 1", ref: upd45ArithRef, cov: mulT, docs: one(`"a":{"$numberDecimal":"1"}`), update: `{"$mul":{"a":{"$numberDecimal":"-Infinity"}}}`,
			want: one(`"a":{"$numberDecimal":"-Infinity"}`), modified: `1`},
		{name: "$mul decimal Infinity on 0 is NaN", ref: upd45ArithRef, cov: mulT, docs: one(`"a":0`), update: `{"$mul":{"a":{"$numberDecimal":"Infinity"}}}`,
			want: one(`"a":{"$numberDecimal":"NaN"}`), modified: `1`},
		// setValueForNewElement multiplies the operand by int 0.
		{name: "$mul a missing field by decimal Infinity is NaN", ref: upd45ArithRef, cov: mulT, docs: one(`"b":1`), update: `{"$mul":{"a":{"$numberDecimal":"Infinity"}}}`,
			want: one(`"b":1,"a":{"$numberDecimal":"NaN"}`), modified: `1`},
		{name: "$mul a missing field by a negative double is -0.0", ref: upd45ArithRef, cov: mulT, docs: one(`"b":1`), update: `{"$mul":{"a":-5.0}}`,
			want: one(`"b":1,"a":{"$numberDouble":"-0.0"}`), modified: `1`},
		{name: "$mul a missing field by a decimal keeps its exponent", ref: upd45ArithRef, cov: mulT, docs: one(`"b":1`), update: `{"$mul":{"a":{"$numberDecimal":"-2.50"}}}`,
			want: one(`"b":1,"a":{"$numberDecimal":"-0.00"}`), modified: `1`},
		{name: "$inc a missing field by a NaN", ref: upd45ArithRef, cov: incT, docs: one(`"b":1`), update: `{"$inc":{"a":{"$numberDouble":"NaN"}}}`,
			want: one(`"b":1,"a":{"$numberDouble":"NaN"}`), modified: `1`},
		// Decimal128 keeps 34 digits, rounding half to even.
		{name: "$inc rounds a decimal to 34 digits half to even", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDecimal":"9999999999999999999999999999999999"}`),
			update: `{"$inc":{"a":{"$numberDecimal":"0.5"}}}`, want: one(`"a":{"$numberDecimal":"1.000000000000000000000000000000000E+34"}`), modified: `1`},
		{name: "$inc rounds a decimal tie to the even digit", ref: upd45ArithRef, cov: incT, docs: one(`"a":{"$numberDecimal":"1000000000000000000000000000000002"}`),
			update: `{"$inc":{"a":{"$numberDecimal":"0.5"}}}`, want: one(`"a":{"$numberDecimal":"1000000000000000000000000000000002"}`), modified: `0`},
		{name: "$mul past the largest decimal is Infinity", ref: upd45ArithRef, cov: mulT, docs: one(`"a":{"$numberDecimal":"9E+6144"}`), update: `{"$mul":{"a":10}}`,
			want: one(`"a":{"$numberDecimal":"Infinity"}`), modified: `1`},
		{name: "$mul a double by a decimal converts the double to 15 digits", ref: upd45ArithRef, cov: mulT, docs: one(`"a":0.1`), update: `{"$mul":{"a":{"$numberDecimal":"3"}}}`,
			want: one(`"a":{"$numberDecimal":"0.300000000000000"}`), modified: `1`},
		// int32 overflow widens to long; long overflow is invalid, and the
		// invalid check follows the identity check.
		{name: "$mul int overflow widens to long", ref: upd45ArithRef, cov: mulT, docs: one(`"a":-2147483648`), update: `{"$mul":{"a":-1}}`,
			want: one(`"a":{"$numberLong":"2147483648"}`), modified: `1`},
		{name: "$inc int underflow widens to long", ref: upd45ArithRef, cov: incT, docs: one(`"a":-2147483648`), update: `{"$inc":{"a":-1}}`,
			want: one(`"a":{"$numberLong":"-2147483649"}`), modified: `1`},
		{name: "$mul long overflow fails", ref: upd45ArithRef, cov: mulE, docs: one(`"a":{"$numberLong":"-9223372036854775808"}`), update: `{"$mul":{"a":-1}}`,
			code: mongoerr.BadValue, msg: "Failed to apply $mul operations to current value ((NumberLong)-9223372036854775808) for document {_id: 1}"},
		{name: "$inc long overflow with a long operand fails", ref: upd45ArithRef, cov: incE, docs: one(`"a":{"$numberLong":"-9223372036854775808"}`), update: `{"$inc":{"a":{"$numberLong":"-1"}}}`,
			code: mongoerr.BadValue, msg: "Failed to apply $inc operations to current value ((NumberLong)-9223372036854775808) for document {_id: 1}"},
		{name: "$inc on a path and its parent conflict", ref: upd45ArithRef, cov: incE, docs: one(`"a":{"x":1}`), update: `{"$inc":{"a.x":1,"a":1}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},
		// The argument check (init) comes before any document is read.
		{name: "$mul by null is refused at parse", ref: upd45ArithRef, cov: mulE, docs: one(`"a":"x"`), update: `{"$mul":{"a":null}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot multiply with non-numeric argument: {a: null}"},
		{name: "$inc by a numeric string is refused", ref: upd45ArithRef, cov: incE, docs: one(`"a":1`), update: `{"$inc":{"a":"1"}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot increment with non-numeric argument: {a: \"1\"}"},
		{name: "$mul on a boolean", ref: upd45ArithRef, cov: mulE, docs: one(`"a":true`), update: `{"$mul":{"a":1}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot apply $mul to a value of non-numeric type. {_id: 1} has the field 'a' of non-numeric type bool"},
		{name: "$inc on null", ref: upd45ArithRef, cov: incE, docs: one(`"a":null`), update: `{"$inc":{"a":1}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'a' of non-numeric type null"},
		{name: "$inc on an array element names the index", ref: upd45ArithRef, cov: incE, docs: one(`"a":[1,"x"]`), update: `{"$inc":{"a.1":1}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field '1' of non-numeric type string"},
		{name: "$inc every array element with $[]", ref: upd45ArithRef, cov: incT, docs: one(`"a":[1,{"$numberLong":"2"},2.5]`), update: `{"$inc":{"a.$[]":1}}`,
			want: one(`"a":[2,{"$numberLong":"3"},3.5]`), modified: `1`},
	})
}
