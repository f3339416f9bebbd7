package compat_test

import (
	"testing"

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
