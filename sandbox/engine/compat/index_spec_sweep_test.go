package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// createIndexes' checks of one index specification, in the order 8.0's
// index_key_validate.cpp runs them: validateIndexSpec reads each field of
// the spec in turn (the key pattern through validateKeyPattern), and
// createIndexes wraps its refusal in "Error in specification <spec>".
const (
	keyPatternRef = "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec, validateKeyPattern); src/mongo/db/index_names.cpp (findPluginName)"
)

func ciCmd(spec string) string { return `{"createIndexes":"c","indexes":[` + spec + `]}` }

func TestIndexKeyPatternSweep(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "a key value of 0", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":0},"name":"a_0"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: 0 }, name: "a_0" } :: caused by :: Values in the index key pattern cannot be 0.`},
		{name: "a key value of -0.0", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":-0.0},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: -0.0 }, name: "x" } :: caused by :: Values in the index key pattern cannot be 0.`},
		{name: "a key value of NaN", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":{"$numberDouble":"NaN"}},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: nan.0 }, name: "x" } :: caused by :: Values in the index key pattern cannot be NaN.`},
		{name: "a boolean key value", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":true},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: true }, name: "x" } :: caused by :: Values in v:2 index key pattern cannot be of type bool. Only numbers > 0, numbers < 0, and strings are allowed.`},
		{name: "an unknown plugin", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":"foo"},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: "foo" }, name: "x" } :: caused by :: Unknown index plugin 'foo'`},
		// findPluginName takes "" for the btree plugin; the empty string
		// is refused once validateKeyPattern has passed the pattern.
		{name: "an empty string key value", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":""},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: "" }, name: "x" } :: caused by :: Values in the index key pattern cannot be empty strings`},
		{name: "an empty string after a 0", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":"","b":0},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: "", b: 0 }, name: "x" } :: caused by :: Values in the index key pattern cannot be 0.`},
		{name: "an empty string beside a plugin", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":"","b":"hashed"},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: "", b: "hashed" }, name: "x" } :: caused by :: Can't use more than one index plugin for a single index.`},
		{name: "a field named twice", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1,"a":-1},"name":"x"}`), code: mongoerr.BadValue,
			msg: `Error in specification { key: { a: 1, a: -1 }, name: "x" } :: caused by :: The field 'a' appears multiple times in the index key pattern { a: 1, a: -1 }`},
		{name: "a field named twice is found before a 0", ref: keyPatternRef, cmd: ciCmd(`{"key":{"b":0,"a":1,"a":1},"name":"x"}`), code: mongoerr.BadValue,
			msg: `Error in specification { key: { b: 0, a: 1, a: 1 }, name: "x" } :: caused by :: The field 'a' appears multiple times in the index key pattern { b: 0, a: 1, a: 1 }`},
		{name: "two plugins", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":"hashed","b":"2d"},"name":"x"}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: "hashed", b: "2d" }, name: "x" } :: caused by :: Can't use more than one index plugin for a single index.`},
		{name: "a key that is a number", ref: keyPatternRef, cmd: ciCmd(`{"key":1,"name":"x"}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: 1, name: "x" } :: caused by :: The field 'key' must be an object, but got int`},
		{name: "a name that is a number", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":1}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: 1 } :: caused by :: The field 'name' must be a string, but got int`},
		{name: "a large negative direction", ref: keyPatternRef + "; jstests/core/index/index_id_options.js", cmd: ciCmd(`{"key":{"a":-1.7976931348623157e308},"name":"x"}`),
			want: `{"numIndexesBefore":1,"numIndexesAfter":2}`},
	})
}

// The types validateIndexSpec requires of the options it reads, each
// checked where the spec holds it.
func TestIndexOptionTypesSweep(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "unique as a string", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","unique":"yes"}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", unique: "yes" } :: caused by :: The field 'unique has value unique: "yes", which is not convertible to bool`},
		{name: "sparse as a document", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","sparse":{}}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", sparse: {} } :: caused by :: The field 'sparse has value sparse: {}, which is not convertible to bool`},
		{name: "background as null", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","background":null}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", background: null } :: caused by :: The field 'background has value background: null, which is not convertible to bool`},
		{name: "an option's type is checked before a later key pattern", ref: keyPatternRef, cmd: `{"createIndexes":"c","indexes":[{"unique":"yes","key":{"a":0},"name":"x"}]}`, code: mongoerr.TypeMismatch,
			msg: `Error in specification { unique: "yes", key: { a: 0 }, name: "x" } :: caused by :: The field 'unique has value unique: "yes", which is not convertible to bool`},
		{name: "hidden as a number names the field 'name'", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","hidden":1}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", hidden: 1 } :: caused by :: The field 'name' must be a bool, but got int`},
		{name: "partialFilterExpression as a number", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","partialFilterExpression":1}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", partialFilterExpression: 1 } :: caused by :: The field 'partialFilterExpression' must be an object, but got int`},
		{name: "v as a string", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","v":"2"}`), code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "x", v: "2" } :: caused by :: The field 'v' must be a number, but got string`},
		{name: "v not a 32-bit integer", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","v":2.5}`), code: mongoerr.BadValue,
			msg: `Error in specification { key: { a: 1 }, name: "x", v: 2.5 } :: caused by :: Index version must be representable as a 32-bit integer, but got 2.5`},
		{name: "v of 3", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","v":3}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: 1 }, name: "x", v: 3 } :: caused by :: Invalid index specification { key: { a: 1 }, name: "x", v: 3 }; cannot create an index with v=3`},
		{name: "v of 2 as a decimal", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","v":{"$numberDecimal":"2"}}`), want: `{"numIndexesBefore":1,"numIndexesAfter":2}`},
		{name: "unique and prepareUnique together", ref: keyPatternRef, cmd: ciCmd(`{"key":{"a":1},"name":"x","unique":true,"prepareUnique":true}`), code: mongoerr.CannotCreateIndex,
			msg: `Error in specification { key: { a: 1 }, name: "x", unique: true, prepareUnique: true } :: caused by :: Invalid index specification { key: { a: 1 }, name: "x", unique: true, prepareUnique: true }; cannot create an index with the 'unique' option and the 'prepareUnique' option`},
		{name: "unique as 1 is stored as true", ref: keyPatternRef + "; src/mongo/db/catalog/index_catalog_impl.cpp (_fixIndexSpec)", cmd: ciCmd(`{"key":{"a":1},"name":"x","unique":1}`),
			want: `{"numIndexesBefore":1,"numIndexesAfter":2}`, thenFind: `{"listIndexes":"c"}`,
			thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"x","unique":true}]}}`},
	})
}

// validateIndexSpecTTL's checks, through the BSONElement form of
// validateExpireAfterSeconds (index_key_validate.cpp): collMod reads its
// value as a long and uses the int64 form, with other messages.
func TestIndexTTLSweep(t *testing.T) {
	const ttlRef = "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpecTTL, validateExpireAfterSeconds); src/mongo/db/commands/create_indexes_cmd.cpp (validateTTLOptions)"
	runCmdCases(t, []cmdCase{
		{name: "a NaN TTL", ref: ttlRef, cmd: ciCmd(`{"key":{"t":1},"name":"x","expireAfterSeconds":{"$numberDouble":"NaN"}}`), code: mongoerr.CannotCreateIndex,
			msg: `. Index spec: { key: { t: 1 }, name: "x", expireAfterSeconds: nan.0 } :: caused by :: TTL index 'expireAfterSeconds' option must not be NaN`},
		{name: "a TTL beyond int32", ref: ttlRef, cmd: ciCmd(`{"key":{"t":1},"name":"x","expireAfterSeconds":{"$numberLong":"2147483648"}}`), code: mongoerr.CannotCreateIndex,
			msg: `. Index spec: { key: { t: 1 }, name: "x", expireAfterSeconds: 2147483648 } :: caused by :: TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer`},
		{name: "a TTL below int32", ref: ttlRef, cmd: ciCmd(`{"key":{"t":1},"name":"x","expireAfterSeconds":-3e9}`), code: mongoerr.CannotCreateIndex,
			msg: `. Index spec: { key: { t: 1 }, name: "x", expireAfterSeconds: -3000000000.0 } :: caused by :: TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer`},
		{name: "a TTL of int32's largest value", ref: ttlRef, cmd: ciCmd(`{"key":{"t":1},"name":"x","expireAfterSeconds":2147483647}`), want: `{"numIndexesBefore":1,"numIndexesAfter":2}`},
		{name: "a later spec's parse error wins over an earlier TTL", ref: ttlRef + " (parseAndValidateIndexSpecs runs on every spec first)",
			cmd:  `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"x","expireAfterSeconds":-1},{"key":{"a":0},"name":"y"}]}`,
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a: 0 }, name: "y" } :: caused by :: Values in the index key pattern cannot be 0.`},
	})
}

// ignoreUnknownIndexOptions is a safeBool of createIndexes
// (create_indexes.idl); when true, parseAndValidateIndexSpecs
// (create_indexes_cmd.cpp) takes the fields an index spec may not hold
// out of each spec (removeUnknownFields) before validating it, so the
// index is built without them. jstests/core/ddl/create_indexes_with_unknown_field_names.js.
const ignoreUnknownRef = "src/mongo/db/create_indexes.idl; src/mongo/db/commands/create_indexes_cmd.cpp (parseAndValidateIndexSpecs); src/mongo/db/catalog/index_key_validate.cpp (removeUnknownFields); jstests/core/ddl/create_indexes_with_unknown_field_names.js"

func TestIgnoreUnknownIndexOptions(t *testing.T) {
	spec := `{"key":{"x":1},"name":"myindex","someField":"someValue"}`
	runCmdCases(t, []cmdCase{
		{name: "an unknown field is refused by default", ref: ignoreUnknownRef, cmd: ciCmd(spec), code: mongoerr.InvalidIndexSpecificationOption},
		{name: "and with ignoreUnknownIndexOptions false", ref: ignoreUnknownRef,
			cmd: `{"createIndexes":"c","indexes":[` + spec + `],"ignoreUnknownIndexOptions":false}`, code: mongoerr.InvalidIndexSpecificationOption},
		{name: "ignoreUnknownIndexOptions is a safeBool", ref: ignoreUnknownRef,
			cmd: `{"createIndexes":"c","indexes":[` + spec + `],"ignoreUnknownIndexOptions":"badValue"}`, code: mongoerr.TypeMismatch,
			msg: `BSON field 'createIndexes.ignoreUnknownIndexOptions' is the wrong type 'string', expected types '[bool, long, int, decimal, double']`},
	})
	s := newSuite(t)
	s.runCase(t, "with ignoreUnknownIndexOptions the index is built without the field", ignoreUnknownRef, cover{family: commandFam, op: "createIndexes", col: semantics}, func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes":"c","indexes":[`+spec+`],"ignoreUnknownIndexOptions":true}`)
		reply := mustCommand(t, db, `{"listIndexes":"c"}`)
		batch := field(field(reply, "cursor").(bson.D), "firstBatch").(bson.A)
		sameValue(t, "indexes", batch, `[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"x":1},"name":"myindex"}]`)
	})
}
