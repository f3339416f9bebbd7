package compat_test

import "testing"

// compact on a standalone (src/mongo/db/commands/compact.cpp, its fields
// in compact.idl, which is strict; dryRun and freeSpaceTargetMB: manual,
// reference/command/compact). The sandbox keeps its records in memory,
// with no free pages to give back, so it frees 0 bytes
// (jstests/core/administrative/compact_keeps_indexes.js).
func TestCompactCommand(t *testing.T) {
	const ref = "src/mongo/db/commands/compact.cpp; jstests/core/administrative/compact_keeps_indexes.js"
	docs := `[{"_id": 1, "x": 1}]`
	runCmdCases(t, []cmdCase{
		{name: "compact frees no bytes and keeps the indexes", ref: ref, docs: docs,
			setup: []string{`{"createIndexes": "c", "indexes": [{"key": {"x": 1}, "name": "x_1"}]}`},
			cmd:   `{"compact": "c", "force": true}`, want: `{"bytesFreed": 0, "ok": 1.0}`,
			thenFind: `{"listIndexes": "c"}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_"}, {"v": 2, "key": {"x": 1}, "name": "x_1"}]}}`},
		{name: "a dry run estimates instead", ref: "manual: reference/command/compact (dryRun)", docs: docs,
			cmd: `{"compact": "c", "dryRun": true}`, want: `{"estimatedBytesFreed": 0, "ok": 1.0}`},
		{name: "a view cannot be compacted", ref: ref, docs: docs, setup: []string{`{"create": "v", "viewOn": "c", "pipeline": []}`},
			cmd: `{"compact": "v"}`, code: 166, msg: "can't compact a view"},
		{name: "a missing collection", ref: ref, cmd: `{"compact": "none"}`, code: 26, msg: "collection does not exist"},
		{name: "force must be a bool", ref: "src/mongo/db/commands/compact.idl (force: bool)", docs: docs,
			cmd: `{"compact": "c", "force": 1}`, code: 14, msg: "BSON field 'compact.force' is the wrong type 'int', expected type 'bool'"},
		{name: "an unknown field", ref: "src/mongo/db/commands/compact.idl (strict)", docs: docs,
			cmd: `{"compact": "c", "bogus": 1}`, code: 40415, msg: "BSON field 'compact.bogus' is an unknown field."},
	})
}
