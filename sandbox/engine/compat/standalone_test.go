package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The sandbox is a standalone mongod: commands that need a replica set or
// a sharded cluster refuse with the error each raises on a standalone,
// after their request parses; the session commands run.
const (
	standaloneReplRef = "src/mongo/db/repl/repl_set_commands.cpp, src/mongo/db/repl/repl_set_get_status_cmd.cpp " +
		"(ReplicationCoordinatorImpl::checkReplEnabledForCommand), src/mongo/db/commands/resize_oplog.cpp, src/mongo/db/commands/oplog_note.cpp"
	standaloneAdminRef = "src/mongo/db/commands/rwc_defaults_commands.cpp (assertNotStandaloneOrShardServer), " +
		"src/mongo/db/commands/set_user_write_block_mode_command.cpp, src/mongo/db/commands/txn_cmds.cpp, " +
		"src/mongo/db/s/analyze_shard_key_cmd.cpp, src/mongo/db/s/configure_query_analyzer_cmd.cpp, " +
		"src/mongo/db/pipeline/document_source_list_sampled_queries.cpp, src/mongo/db/index_builds_coordinator_mongod.cpp (setCommitQuorum)"
	standaloneSessionRef = "src/mongo/db/commands/start_session_command.cpp, src/mongo/db/commands/refresh_sessions_command.cpp, " +
		"src/mongo/db/session/logical_session_id.idl (localLogicalSessionTimeoutMinutes: 30); manual: reference/command/startSession"
)

func TestStandaloneRefusals(t *testing.T) {
	sem := func(op string) cover { return cover{family: commandFam, op: op, col: semantics} }
	cases := []cmdCase{
		{name: "replSetInitiate", ref: standaloneReplRef, admin: true, cov: sem("replSetInitiate"), cmd: `{"replSetInitiate": {"_id": "rs0", "members": []}}`,
			code: mongoerr.NoReplicationEnabled, msg: "This node was not started with replication enabled."},
		{name: "replSetInitiate elsewhere", ref: standaloneReplRef, cmd: `{"replSetInitiate": 1}`,
			code: mongoerr.Unauthorized, msg: "replSetInitiate may only be run against the admin database."},
		{name: "replSetResizeOplog", ref: standaloneReplRef, admin: true, cov: sem("replSetResizeOplog"), cmd: `{"replSetResizeOplog": 1, "size": 990}`,
			code: mongoerr.NamespaceNotFound, msg: "oplog does not exist"},
		{name: "replSetResizeOplog elsewhere", ref: standaloneReplRef, cmd: `{"replSetResizeOplog": 1, "size": 990}`,
			code: mongoerr.Unauthorized, msg: "replSetResizeOplog may only be run against the admin database."},
		{name: "appendOplogNote", ref: standaloneReplRef, admin: true, cov: sem("appendOplogNote"), cmd: `{"appendOplogNote": 1, "data": {"a": 1}}`,
			code: mongoerr.NoReplicationEnabled, msg: `Must have replication set up to run "appendOplogNote"`},
		{name: "appendOplogNote elsewhere", ref: standaloneReplRef, cmd: `{"appendOplogNote": 1, "data": {}}`,
			code: mongoerr.Unauthorized, msg: "appendOplogNote may only be run against the admin database."},
		{name: "getDefaultRWConcern", ref: standaloneAdminRef, admin: true, cov: sem("getDefaultRWConcern"), cmd: `{"getDefaultRWConcern": 1}`,
			code: mongoerr.ErrRWConcernDefaultsStandalone, msg: "'getDefaultRWConcern' is not supported on standalone nodes."},
		{name: "getDefaultRWConcern with an unknown field", ref: standaloneAdminRef, admin: true, cmd: `{"getDefaultRWConcern": 1, "verbose": true}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'getDefaultRWConcern.verbose' is an unknown field."},
		{name: "setDefaultRWConcern", ref: standaloneAdminRef, admin: true, cov: sem("setDefaultRWConcern"), cmd: `{"setDefaultRWConcern": 1, "defaultWriteConcern": {"w": 1}}`,
			code: mongoerr.ErrRWConcernDefaultsStandalone, msg: "'setDefaultRWConcern' is not supported on standalone nodes."},
		{name: "setDefaultRWConcern elsewhere", ref: standaloneAdminRef, cmd: `{"setDefaultRWConcern": 1, "defaultWriteConcern": {"w": 1}}`,
			code: mongoerr.Unauthorized, msg: "setDefaultRWConcern may only be run against the admin database."},
		{name: "setUserWriteBlockMode", ref: standaloneAdminRef, cov: sem("setUserWriteBlockMode"), cmd: `{"setUserWriteBlockMode": 1, "global": true}`,
			code: mongoerr.IllegalOperation, msg: "setUserWriteBlockMode cannot be run on standalones"},
		{name: "setUserWriteBlockMode without global", ref: standaloneAdminRef, cmd: `{"setUserWriteBlockMode": 1}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'setUserWriteBlockMode.global' is missing but a required field"},
		{name: "setUserWriteBlockMode global of the wrong type", ref: standaloneAdminRef, cmd: `{"setUserWriteBlockMode": 1, "global": "yes"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'setUserWriteBlockMode.global' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "commitTransaction outside a transaction", ref: standaloneAdminRef, admin: true, cov: sem("commitTransaction"), cmd: `{"commitTransaction": 1}`,
			code: mongoerr.CommandFailed, msg: "commitTransaction must be run within a transaction"},
		{name: "commitTransaction elsewhere", ref: standaloneAdminRef, cmd: `{"commitTransaction": 1}`,
			code: mongoerr.Unauthorized, msg: "commitTransaction may only be run against the admin database."},
		{name: "abortTransaction outside a transaction", ref: standaloneAdminRef, admin: true, cov: sem("abortTransaction"), cmd: `{"abortTransaction": 1}`,
			code: mongoerr.CommandFailed, msg: "abortTransaction must be run within a transaction"},
		{name: "abortTransaction with an unknown field", ref: standaloneAdminRef, admin: true, cmd: `{"abortTransaction": 1, "now": true}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'abortTransaction.now' is an unknown field."},
		{name: "analyzeShardKey", ref: standaloneAdminRef, admin: true, cov: sem("analyzeShardKey"), cmd: `{"analyzeShardKey": "{{db}}.c", "key": {"a": 1}}`,
			code: mongoerr.IllegalOperation, msg: "analyzeShardKey command is not supported on a standalone mongod"},
		{name: "analyzeShardKey without a key", ref: standaloneAdminRef, admin: true, cmd: `{"analyzeShardKey": "{{db}}.c"}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'analyzeShardKey.key' is missing but a required field"},
		{name: "configureQueryAnalyzer", ref: standaloneAdminRef, admin: true, cov: sem("configureQueryAnalyzer"), cmd: `{"configureQueryAnalyzer": "{{db}}.c", "mode": "full", "samplesPerSecond": 1}`,
			code: mongoerr.IllegalOperation, msg: "configureQueryAnalyzer command is not supported on a standalone mongod"},
		{name: "configureQueryAnalyzer without a mode", ref: standaloneAdminRef, admin: true, cmd: `{"configureQueryAnalyzer": "{{db}}.c"}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'configureQueryAnalyzer.mode' is missing but a required field"},
		{name: "$listSampledQueries", ref: standaloneAdminRef, admin: true, cov: cover{family: stage, op: "$listSampledQueries", col: semantics},
			cmd:  `{"aggregate": 1, "pipeline": [{"$listSampledQueries": {}}], "cursor": {}}`,
			code: mongoerr.IllegalOperation, msg: "$listSampledQueries is not supported on a standalone mongod"},
		{name: "$listSampledQueries of a number", ref: standaloneAdminRef, admin: true, cov: cover{family: stage, op: "$listSampledQueries", col: errorCol},
			cmd:  `{"aggregate": 1, "pipeline": [{"$listSampledQueries": 1}], "cursor": {}}`,
			code: mongoerr.ErrListSampledQueriesSpec, msg: "$listSampledQueries must take a nested object but found: $listSampledQueries: 1"},
		{name: "setIndexCommitQuorum: no index build is in progress", ref: standaloneAdminRef, cov: sem("setIndexCommitQuorum"),
			setup: []string{`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`},
			cmd:   `{"setIndexCommitQuorum": "c", "indexNames": ["a_1"], "commitQuorum": "majority"}`,
			code:  mongoerr.IndexNotFound, msg: "Cannot find an index build on collection '{{db}}.c' with the provided index names"},
		{name: "setIndexCommitQuorum without index names", ref: standaloneAdminRef, setup: []string{`{"create": "c"}`},
			cmd:  `{"setIndexCommitQuorum": "c", "indexNames": [], "commitQuorum": 1}`,
			code: mongoerr.IndexNotFound, msg: "Cannot set a new commit quorum on an index build in collection '{{db}}.c' without providing any indexes."},
		{name: "setIndexCommitQuorum on a missing collection", ref: standaloneAdminRef,
			cmd:  `{"setIndexCommitQuorum": "nope", "indexNames": ["a_1"], "commitQuorum": 1}`,
			code: mongoerr.NamespaceNotFound, msg: "Collection '{{db}}.nope' was not found."},
		{name: "setIndexCommitQuorum without commitQuorum", ref: standaloneAdminRef, cmd: `{"setIndexCommitQuorum": "c", "indexNames": ["a_1"]}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'setIndexCommitQuorum.commitQuorum' is missing but a required field"},
		{name: "createIndexes with a commit quorum", ref: standaloneAdminRef + ", src/mongo/db/commands/create_indexes_cmd.cpp (parseAndGetCommitQuorum)",
			cov:  cover{family: commandFam, op: "createIndexes", col: errorCol},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}], "commitQuorum": "majority"}`,
			code: mongoerr.BadValue, msg: "Standalones can't specify commitQuorum"},
		{name: "startSession", ref: standaloneSessionRef, cov: sem("startSession"), cmd: `{"startSession": 1}`,
			want: `{"id": {"id": "*"}, "timeoutMinutes": 30}`},
		{name: "startSession with an unknown field", ref: standaloneSessionRef, cmd: `{"startSession": 1, "timeout": 5}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'startSession.timeout' is an unknown field."},
		{name: "refreshSessions", ref: standaloneSessionRef, cov: sem("refreshSessions"),
			cmd: `{"refreshSessions": [{"id": {"$binary": {"base64": "AAAAAAAAQACAAAAAAAAAAA==", "subType": "04"}}}]}`, want: `{}`},
		{name: "refreshSessions of a number", ref: standaloneSessionRef, cmd: `{"refreshSessions": 1}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'refreshSessions.refreshSessions' is the wrong type 'int', expected type 'array'"},
	}
	for _, name := range []string{"replSetGetStatus", "replSetGetConfig", "replSetReconfig", "replSetStepDown", "replSetStepUp",
		"replSetFreeze", "replSetMaintenance", "replSetSyncFrom", "replSetAbortPrimaryCatchUp"} {
		cases = append(cases, cmdCase{name: name, ref: standaloneReplRef, admin: true, cov: sem(name), cmd: `{"` + name + `": 1}`,
			code: mongoerr.NoReplicationEnabled, msg: "not running with --replSet"})
		cases = append(cases, cmdCase{name: name + " elsewhere", ref: standaloneReplRef, cmd: `{"` + name + `": 1}`,
			code: mongoerr.Unauthorized, msg: name + " may only be run against the admin database."})
	}
	runCmdCases(t, cases)
}
