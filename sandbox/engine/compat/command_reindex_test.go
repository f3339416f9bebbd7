package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// reIndex on a standalone: CmdReIndex in src/mongo/db/commands/drop_indexes.cpp
// (8.0) drops every index and builds each again from the documents; the
// reply counts the indexes before (appendNumber, an int) and after and
// lists the rebuilt specs. jstests/core/index8.js, plan_cache_clear.js.
const reIndexRef = "src/mongo/db/commands/drop_indexes.cpp (CmdReIndex); jstests/core/index8.js"

func TestReIndex(t *testing.T) {
	docs := `[{"_id":1,"a":1,"b":"x"},{"_id":2,"a":2},{"_id":3,"a":3,"b":"y"}]`
	indexes := `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true},{"key":{"b":1},"name":"b_p","partialFilterExpression":{"b":{"$exists":true}}}]}`
	runCmdCases(t, []cmdCase{
		{name: "reIndex rebuilds every index and lists it", ref: reIndexRef, docs: docs, setup: []string{indexes},
			cmd:      `{"reIndex":"c"}`,
			want:     `{"nIndexesWas":3,"nIndexes":3,"indexes":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","unique":true},{"v":2,"key":{"b":1},"name":"b_p","partialFilterExpression":{"b":{"$exists":true}}}]}`,
			thenFind: `{"find":"c","filter":{},"hint":"b_p","projection":{"_id":1}}`, thenWant: `[{"_id":1},{"_id":3}]`},
		{name: "reIndex of a collection with only _id", ref: reIndexRef, docs: docs, cmd: `{"reIndex":"c","ignored":1}`,
			want: `{"nIndexesWas":1,"nIndexes":1,"indexes":[{"v":2,"key":{"_id":1},"name":"_id_"}]}`},
		{name: "a unique index still refuses a duplicate after reIndex", ref: reIndexRef, docs: docs, setup: []string{indexes, `{"reIndex":"c"}`},
			cmd: `{"insert":"c","documents":[{"_id":4,"a":1}]}`, writeError: true,
			code: mongoerr.DuplicateKey, msg: `E11000 duplicate key error collection: {{db}}.c index: a_1 dup key: { a: 1 }`},
		{name: "reIndex empties the plan cache", ref: reIndexRef + "; jstests/core/plan_cache_clear.js",
			docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"},{"key":{"b":1},"name":"b_1"}]}`,
				`{"find":"c","filter":{"a":1,"b":"x"}}`, `{"reIndex":"c"}`},
			cmd:  `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$count":"n"}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},"ns":"{{db}}.c"}}`},
		{name: "reIndex of a missing collection", ref: reIndexRef, cmd: `{"reIndex":"missing"}`,
			code: mongoerr.NamespaceNotFound, msg: "collection does not exist"},
		{name: "reIndex of a view", ref: reIndexRef, docs: docs, setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd: `{"reIndex":"v"}`, code: mongoerr.CommandNotSupportedOnView, msg: "can't re-index a view"},
		{name: "reIndex of a time-series collection, a view in 8.0", ref: reIndexRef, setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`},
			cmd: `{"reIndex":"ts"}`, code: mongoerr.CommandNotSupportedOnView, msg: "can't re-index a view"},
		{name: "reIndex of a number", ref: reIndexRef + "; src/mongo/db/commands.cpp (parseNsCollectionRequired)", cmd: `{"reIndex":1}`,
			code: mongoerr.InvalidNamespace, msg: "collection name has invalid type int"},
		{name: "reIndex of an empty name", ref: reIndexRef + "; jstests/core/commands_namespace_parsing.js", cmd: `{"reIndex":""}`,
			code: mongoerr.InvalidNamespace, msg: "Invalid namespace specified '{{db}}.'"},
	})
}

// A collection name with a NUL byte: NamespaceString's constructor
// (src/mongo/db/namespace_string.h, makeData) refuses it before any
// command looks at the name. jstests/core/commands_namespace_parsing.js.
const nulNamespaceRef = "src/mongo/db/namespace_string.h (makeData); jstests/core/commands_namespace_parsing.js"

func TestNamespaceWithNUL(t *testing.T) {
	const msg = "namespaces cannot have embedded null characters"
	nul := func(name, cmd string) cmdCase {
		return cmdCase{name: name, ref: nulNamespaceRef, docs: `[{"_id":1}]`, cmd: cmd, code: mongoerr.InvalidNamespace, msg: msg}
	}
	admin := nul("renameCollection to a name with NUL", `{"renameCollection":"{{db}}.c","to":"{{db}}.a\u0000b"}`)
	admin.admin = true
	adminFrom := nul("renameCollection from a name with NUL", `{"renameCollection":"{{db}}.\u0000","to":"{{db}}.d"}`)
	adminFrom.admin = true
	runCmdCases(t, []cmdCase{
		nul("find on a name with NUL", `{"find":"a\u0000b"}`),
		nul("insert into a name with NUL", `{"insert":"\u0000","documents":[{"a":1}]}`),
		nul("create a name with NUL", `{"create":"a\u0000b"}`),
		nul("aggregate on a name with NUL, before the cursor check", `{"aggregate":"\u0000","pipeline":[]}`),
		nul("getMore on a name with NUL", `{"getMore":{"$numberLong":"123456"},"collection":"a\u0000b"}`),
		nul("reIndex of a name with NUL", `{"reIndex":"a\u0000b"}`),
		nul("listIndexes of a name with NUL", `{"listIndexes":"\u0000"}`),
		admin, adminFrom,
		{name: "getMore on an empty name", ref: "src/mongo/db/commands/getmore_cmd.cpp (Invocation); jstests/core/commands_namespace_parsing.js",
			cmd: `{"getMore":{"$numberLong":"123456"},"collection":""}`, code: mongoerr.InvalidNamespace, msg: "Invalid namespace for getMore: {{db}}."},
	})
}
