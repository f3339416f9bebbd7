package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Sweep 43 (query family, second walk): find's and count's hint is
// hint.idl's indexHint, whose deserializer (hint_parser.cpp parseHint)
// takes an index name or a key pattern and refuses any other value with
// FailedToParse; count took any value and ignored what it could not use,
// find answered with an IDL type error.
func TestSweep43Qry2Hint(t *testing.T) {
	const ref = "src/mongo/db/query/hint.idl, hint_parser.cpp parseHint; find_command.idl, count_command.idl (hint: indexHint)"
	const msg = "Hint must be a string or an object"
	docs := `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]`
	runCmdCases(t, []cmdCase{
		// jstests/core/query/explain/explain_skip.js and regex4.js hint
		// through the shell; a number is no hint at all.
		{name: "find whose hint is a number", ref: ref, docs: docs, cmd: `{"find": "c", "hint": 5}`,
			code: mongoerr.FailedToParse, msg: msg},
		{name: "find whose hint is null", ref: ref, docs: docs, cmd: `{"find": "c", "hint": null}`,
			code: mongoerr.FailedToParse, msg: msg},
		{name: "find whose hint is an array", ref: ref, docs: docs, cmd: `{"find": "c", "hint": ["a_1"]}`,
			code: mongoerr.FailedToParse, msg: msg},
		{name: "count whose hint is a number", ref: ref, docs: docs, cmd: `{"count": "c", "hint": 5}`,
			code: mongoerr.FailedToParse, msg: msg},
		{name: "count whose hint is a boolean", ref: ref, docs: docs, cmd: `{"count": "c", "query": {"a": 1}, "hint": true}`,
			code: mongoerr.FailedToParse, msg: msg},
		{name: "explain of a count whose hint is a number", ref: ref, docs: docs, cmd: `{"explain": {"count": "c", "hint": 1}}`,
			code: mongoerr.FailedToParse, msg: msg},
		// aggregate_command.idl types its hint as indexHint too.
		{name: "aggregate whose hint is a number", ref: ref + "; aggregate_command.idl", docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [], "cursor": {}, "hint": 5}`, code: mongoerr.FailedToParse, msg: msg},
		{name: "aggregate whose hint is null", ref: ref + "; aggregate_command.idl", docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$match": {"a": 1}}], "cursor": {}, "hint": null}`, code: mongoerr.FailedToParse, msg: msg},
		{name: "aggregate whose hint is an empty document", ref: ref + "; aggregate_command.idl", docs: docs,
			cmd:  `{"aggregate": "c", "pipeline": [{"$match": {"a": 2}}, {"$project": {"_id": 1}}], "cursor": {}, "hint": {}}`,
			want: `{"cursor": {"firstBatch": [{"_id": 2}], "id": {"$numberLong": "0"}, "ns": "*"}}`},
		// An empty key pattern still names no index, and a name or a key
		// pattern still hints.
		{name: "count whose hint is an empty document", ref: ref, docs: docs, cmd: `{"count": "c", "hint": {}}`, want: `{"n": 2}`},
		{name: "find whose hint is an empty document", ref: ref, docs: docs, cmd: `{"find": "c", "hint": {}, "filter": {"a": 2}}`,
			want: `{"cursor": "*"}`},
		{name: "count whose hint names the _id index", ref: ref, docs: docs, cmd: `{"count": "c", "query": {"a": 2}, "hint": "_id_"}`, want: `{"n": 1}`},
	})
}
