package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Query settings (manual: reference/command/setQuerySettings) live in a
// cluster parameter, which a standalone mongod does not have: setting or
// removing them is refused after the request parses, and $querySettings
// lists none.
const querySettingsRef = "src/mongo/db/commands/query_settings_cmds.cpp (assertNoStandalone, typedRun), src/mongo/db/pipeline/document_source_query_settings.h and .cpp, " +
	"src/mongo/db/pipeline/document_source_query_settings.idl; jstests/noPassthrough/query_settings_standalone.js"

func TestQuerySettingsOnAStandalone(t *testing.T) {
	instance := `{"find": "c", "filter": {"a": 1}, "$db": "{{db}}"}`
	qsStage := func(col column) cover { return cover{family: stage, op: "$querySettings", col: col} }
	runCmdCases(t, []cmdCase{
		{name: "setQuerySettings on a standalone sets nothing", ref: querySettingsRef, admin: true, cov: cover{family: commandFam, op: "setQuerySettings", col: semantics},
			cmd:  `{"setQuerySettings": ` + instance + `, "settings": {"indexHints": {"ns": {"db": "{{db}}", "coll": "c"}, "allowedIndexes": ["a_1"]}}}`,
			code: mongoerr.IllegalOperation, msg: "setQuerySettings can only run on replica sets or sharded clusters",
			thenFind: `{"aggregate": 1, "pipeline": [{"$querySettings": {}}], "cursor": {}}`, thenWant: `[]`},
		{name: "setQuerySettings by a query shape hash on a standalone", ref: querySettingsRef, admin: true,
			cmd:  `{"setQuerySettings": "0F7E6A6C8D4B2F5C3B1A8E9D7C6B5A4F3E2D1C0B9A8F7E6D5C4B3A2F1E0D9C8B", "settings": {"reject": true}}`,
			code: mongoerr.IllegalOperation, msg: "setQuerySettings can only run on replica sets or sharded clusters"},
		{name: "setQuerySettings without settings", ref: querySettingsRef, admin: true, cmd: `{"setQuerySettings": ` + instance + `}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'setQuerySettings.settings' is missing but a required field"},
		{name: "setQuerySettings with a number", ref: querySettingsRef, admin: true, cmd: `{"setQuerySettings": 1, "settings": {}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'setQuerySettings.setQuerySettings' is the wrong type 'int', expected types '[string, object']"},
		{name: "setQuerySettings outside admin", ref: querySettingsRef, cmd: `{"setQuerySettings": ` + instance + `, "settings": {"reject": true}}`,
			code: mongoerr.Unauthorized, msg: "setQuerySettings may only be run against the admin database."},
		{name: "removeQuerySettings on a standalone", ref: querySettingsRef, admin: true, cov: cover{family: commandFam, op: "removeQuerySettings", col: semantics},
			cmd:  `{"removeQuerySettings": ` + instance + `}`,
			code: mongoerr.IllegalOperation, msg: "removeQuerySettings can only run on replica sets or sharded clusters"},
		{name: "removeQuerySettings with an unknown field", ref: querySettingsRef, admin: true, cmd: `{"removeQuerySettings": ` + instance + `, "settings": {}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'removeQuerySettings.settings' is an unknown field."},
		{name: "$querySettings lists none", ref: querySettingsRef, admin: true, cov: qsStage(semantics),
			cmd:  `{"aggregate": 1, "pipeline": [{"$querySettings": {"showDebugQueryShape": true}}], "cursor": {}}`,
			want: `{"cursor": {"firstBatch": [], "id": {"$numberLong": "0"}, "ns": "admin.$cmd.aggregate"}}`},
		{name: "$querySettings of a number", ref: querySettingsRef, admin: true, cov: qsStage(errorCol),
			cmd:  `{"aggregate": 1, "pipeline": [{"$querySettings": 1}], "cursor": {}}`,
			code: mongoerr.ErrQuerySettingsSpec, msg: "$querySettings stage expects a document as argument"},
		{name: "$querySettings with an unknown field", ref: querySettingsRef, admin: true, cov: qsStage(errorCol),
			cmd:  `{"aggregate": 1, "pipeline": [{"$querySettings": {"verbose": true}}], "cursor": {}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field '$querySettings.verbose' is an unknown field."},
		{name: "$querySettings showDebugQueryShape not a boolean", ref: querySettingsRef, admin: true, cov: qsStage(types),
			cmd:  `{"aggregate": 1, "pipeline": [{"$querySettings": {"showDebugQueryShape": 1}}], "cursor": {}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field '$querySettings.showDebugQueryShape' is the wrong type 'int', expected type 'bool'"},
		{name: "$querySettings not first", ref: querySettingsRef, admin: true, cov: qsStage(errorCol),
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": []}, {"$querySettings": {}}], "cursor": {}}`,
			code: mongoerr.ErrStageNotFirst, msg: "$querySettings is only valid as the first stage in a pipeline"},
	})
}
