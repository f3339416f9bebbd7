package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// handler executes one command; it returns the reply fields without "ok".
type handler func(e *Engine, req *request) (bson.D, error)

// explainer answers {explain: {<command>...}, verbosity}: req is the
// explained command.
type explainer func(e *Engine, req *request, verbosity string) (bson.D, error)

// command is one entry of the command table: every command the server
// answers, the connection handshake included, is here and only here.
type command struct {
	// name is mongod's name for the command (Command::getName), which
	// explain's errors report whichever alias the client used.
	name    string
	aliases []string
	run     handler
	// explain is nil for the commands mongod cannot explain.
	explain explainer
	// adminOnly commands fail on any other database with Unauthorized.
	adminOnly bool
	// help is the command's help() in mongod 8.0, which listCommands
	// reports; empty, it is Command::help's defaultHelp.
	help string
	// noAuth commands are those whose requiresAuth() is false: a client
	// runs them before it authenticates (the handshake, ping,
	// buildInfo, listCommands, connectionStatus and authentication
	// itself). The wire server asks RequiresAuth.
	noAuth bool
	// secondary is the command's secondaryAllowed(), which listCommands
	// reports.
	secondary secondaryAllowed
	// maxTimeMS is how the command's own IDL declares maxTimeMS, when it
	// does (see parseMaxTimeMS).
	maxTimeMS *maxTimeIDL
	// growsStorage commands add storage whose size is not known before
	// they run (a new collection's empty index): they are refused on a
	// database whose storage quota is reached (checkQuota).
	growsStorage bool
	// sessionFree commands are the server's own (handshake, diagnostics):
	// their session fields are not checked (refuseTransactionNumber).
	sessionFree bool
	// collectionUUID commands take a collectionUUID that the namespace
	// must match (checkCollectionUUID).
	collectionUUID bool
	// noWriteConcern commands are those whose supportsWriteConcern is
	// false in mongod: a writeConcern argument fails
	// (uassertCommandDoesNotSpecifyWriteConcern).
	noWriteConcern bool
}

// cmdNotSupported answers a command mongod 8.0 has and the sandbox does
// not run: NotImplemented, which says so, not CommandNotFound, which would
// tell a learner that MongoDB has no such command.
func cmdNotSupported(_ *Engine, req *request) (bson.D, error) {
	return nil, mongoerr.Newf(mongoerr.NotImplemented,
		"the %s command is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", req.name)
}

// commands lists the commands of a mongod 8.0 standalone the sandbox
// answers (New adds schemalab's own SnapshotCommand unless Strict). Names
// are case-sensitive as in mongod; the historical aliases it accepts are
// listed with their command. help, noAuth, secondary and adminOnly are
// mongod 8.0's for the command, as listCommands reports them; the file
// each comes from is named where the help is not one line of it.
func commands() []*command {
	return append([]*command{
		// src/mongo/db/repl/replication_info.cpp (CmdHello, CmdIsMaster).
		{name: "hello", run: cmdHello, sessionFree: true, noAuth: true, secondary: secondaryAlways,
			help: "Check if this server is primary for a replica set\n{ hello : 1 }"},
		{name: "isMaster", aliases: []string{"ismaster"}, run: cmdHello, sessionFree: true, noAuth: true,
			secondary: secondaryAlways, help: "Check if this server is primary for a replica set\n{ isMaster : 1 }"},
		// src/mongo/db/commands/generic.cpp.
		{name: "ping", run: cmdPing, sessionFree: true, noAuth: true, secondary: secondaryAlways,
			help: "a way to check that the server is alive. responds immediately even if server is in a db lock."},
		{name: "listCommands", run: cmdListCommands, sessionFree: true, noWriteConcern: true, noAuth: true,
			secondary: secondaryAlways, help: "get a list of all db commands"},
		// src/mongo/db/commands/dbcommands.cpp (CmdBuildInfo).
		{name: "buildInfo", aliases: []string{"buildinfo"}, run: cmdBuildInfo, sessionFree: true, noAuth: true,
			secondary: secondaryAlways, help: "get version #, etc.\n{ buildinfo:1 }"},
		// src/mongo/db/commands/parameters.cpp.
		{name: "getParameter", run: cmdGetParameter, adminOnly: true, sessionFree: true, secondary: secondaryAlways,
			help: getParameterHelp()},
		{name: "setParameter", run: cmdSetParameter, adminOnly: true, sessionFree: true, secondary: secondaryAlways,
			help: setParameterHelp()},
		// src/mongo/db/commands/query_cmd/query_settings_cmds.cpp.
		{name: "setQuerySettings", run: cmdSetQuerySettings, adminOnly: true, noWriteConcern: true,
			help: "Sets the query settings for the query shape of a given query."},
		// Standalone refusals and sessions: standalone.go.
		// src/mongo/db/commands/rwc_defaults_commands.cpp.
		{name: "getDefaultRWConcern", run: cmdDefaultRWConcern, adminOnly: true, secondary: secondaryAlways,
			help: "get the current read/write concern defaults being applied by this node"},
		{name: "setDefaultRWConcern", run: cmdDefaultRWConcern, adminOnly: true,
			help: "set the current read/write concern defaults (cluster-wide)"},
		{name: "setUserWriteBlockMode", run: cmdSetUserWriteBlockMode, help: "Set whether user write blocking is enabled"},
		// src/mongo/db/commands/txn_cmds.cpp.
		{name: "commitTransaction", run: cmdEndTransaction, adminOnly: true, help: "Commits a transaction"},
		{name: "abortTransaction", run: cmdEndTransaction, adminOnly: true, help: "Aborts a transaction"},
		// src/mongo/db/repl/repl_set_commands.cpp (the other replSet
		// commands: replicaSetCommands).
		{name: "replSetInitiate", run: cmdReplSetInitiate, adminOnly: true, secondary: secondaryAlways,
			help: replSetInitiateHelp},
		// src/mongo/db/commands/resize_oplog.cpp, oplog_note.cpp.
		{name: "replSetResizeOplog", run: cmdReplSetResizeOplog, adminOnly: true, secondary: secondaryAlways,
			help: "Resize oplog using size (in MBs) and optionally, retention (in terms of hours)"},
		{name: "appendOplogNote", run: cmdAppendOplogNote, adminOnly: true, help: "Adds a no-op entry to the oplog"},
		// src/mongo/db/s/analyze_shard_key_cmd.cpp, configure_query_analyzer_cmd.cpp.
		{name: "analyzeShardKey", run: cmdShardKeyAnalysis, adminOnly: true, secondary: secondaryAlways,
			help: "Returns metrics for evaluating a shard key for a collection."},
		{name: "configureQueryAnalyzer", run: cmdShardKeyAnalysis, adminOnly: true,
			help: "Starts or stops collecting metrics about read and write queries against a collection."},
		// src/mongo/db/commands/start_session_command.cpp,
		// refresh_sessions_command.cpp, end_sessions_command.cpp.
		{name: "startSession", run: cmdStartSession, sessionFree: true, secondary: secondaryAlways,
			help: "start a logical session"},
		{name: "refreshSessions", run: cmdRefreshSessions, sessionFree: true, secondary: secondaryAlways,
			help: "renew a set of logical sessions"},
		{name: "setIndexCommitQuorum", run: cmdSetIndexCommitQuorum, help: setIndexCommitQuorumHelp},
		{name: "removeQuerySettings", run: cmdRemoveQuerySettings, adminOnly: true, noWriteConcern: true,
			help: "Removes the query settings for the query shape of a given query."},
		// src/mongo/db/commands/fsync.cpp.
		{name: "fsync", run: cmdFsync, adminOnly: true, secondary: secondaryAlways},
		{name: "fsyncUnlock", run: cmdFsyncUnlock, adminOnly: true, secondary: secondaryAlways},
		// src/mongo/db/commands/generic_servers.cpp: features, hostInfo and
		// getCmdLineOpts are GenericTC commands with no help.
		{name: "getCmdLineOpts", run: cmdGetCmdLineOpts, adminOnly: true, sessionFree: true, secondary: secondaryAlways},
		// generic_servers.cpp: logRotate is a GenericTC command, no help.
		{name: "logRotate", run: cmdLogRotate, adminOnly: true, sessionFree: true, secondary: secondaryAlways, noWriteConcern: true},
		{name: "getLog", run: cmdGetLog, adminOnly: true, sessionFree: true, secondary: secondaryAlways,
			help: "{ getLog : '*' }  OR { getLog : 'global' }"},
		{name: "hostInfo", run: cmdHostInfo, sessionFree: true, secondary: secondaryAlways},
		{name: "features", run: cmdFeatures, sessionFree: true, noWriteConcern: true, secondary: secondaryAlways},
		// src/mongo/db/commands/connection_status.cpp.
		{name: "connectionStatus", run: cmdConnectionStatus, sessionFree: true, noWriteConcern: true, noAuth: true,
			secondary: secondaryAlways},
		{name: "whatsmyuri", run: cmdWhatsMyURI, sessionFree: true, noWriteConcern: true, secondary: secondaryAlways,
			help: "{whatsmyuri:1}"},
		{name: "endSessions", run: cmdEndSessions, sessionFree: true, noWriteConcern: true, secondary: secondaryAlways,
			help: "end a set of logical sessions"},
		// src/mongo/db/commands/server_status.cpp.
		{name: "serverStatus", run: cmdServerStatus, sessionFree: true, secondary: secondaryAlways,
			help: "returns lots of administrative server statistics. Optionally set {..., all: 1} to " +
				"retrieve all server status sections."},
		// src/mongo/db/ftdc/ftdc_commands.cpp.
		{name: "getDiagnosticData", run: cmdGetDiagnosticData, adminOnly: true, sessionFree: true,
			secondary: secondaryAlways, help: "get latest diagnostic data collection snapshot"},

		// src/mongo/db/commands/write_commands.cpp, find_cmd.cpp,
		// getmore_cmd.cpp, killcursors_common.h, count_cmd.cpp,
		// distinct.cpp, bulk_write.cpp, find_and_modify.cpp,
		// pipeline_command.cpp, explain_cmd.cpp.
		{name: "insert", collectionUUID: true, run: cmdInsert, help: "insert documents"},
		{name: "find", collectionUUID: true, run: cmdFind, explain: overTimeseries((*Engine).explainFind),
			maxTimeMS: &maxTimeIDL{nonNegative: true}, secondary: secondaryOptIn, help: "query for documents"},
		{name: "getMore", run: cmdGetMore, maxTimeMS: &maxTimeIDL{}, secondary: secondaryAlways,
			help: "retrieve more results from an existing cursor"},
		{name: "killCursors", run: cmdKillCursors, secondary: secondaryAlways, help: "Kill a list of cursor ids"},
		{name: "filemd5", run: cmdFileMD5, secondary: secondaryAlways,
			help: " example: { filemd5 : ObjectId(aaaaaaa) , root : \"fs\" }"},
		{name: "count", run: cmdCount, explain: overTimeseries((*Engine).explainCount), secondary: secondaryOptIn,
			help: "count objects in collection"},
		{name: "distinct", run: cmdDistinct, explain: overTimeseries((*Engine).explainDistinct), secondary: secondaryOptIn,
			help: "{ distinct : 'collection name' , key : 'a.b' , query : {} }"},
		{name: "update", collectionUUID: true, run: cmdUpdate, explain: (*Engine).explainUpdate, help: "update documents"},
		{name: "delete", collectionUUID: true, run: cmdDelete, explain: (*Engine).explainDelete, help: "delete documents"},
		{name: "bulkWrite", run: cmdBulkWrite, adminOnly: true, help: "command to apply inserts, updates and deletes in bulk"},
		{name: "findAndModify", aliases: []string{"findandmodify"}, run: cmdFindAndModify, explain: (*Engine).explainFindAndModify,
			help: findAndModifyHelp},
		{name: "aggregate", collectionUUID: true, run: cmdAggregate, explain: overTimeseries((*Engine).explainAggregate),
			maxTimeMS: &maxTimeIDL{nonNegative: true}, secondary: secondaryOptIn,
			help: "Runs the aggregation command. See http://dochub.mongodb.org/core/aggregation for more details."},
		{name: "explain", run: cmdExplain, explain: explainExplain, secondary: secondaryOptIn,
			help: "explain database reads and writes"},

		// src/mongo/db/commands/create_command.cpp, dbcommands.cpp,
		// list_databases.cpp, list_collections.cpp,
		// rename_collection_cmd.cpp, create_indexes_cmd.cpp (no help),
		// list_indexes.cpp, drop_indexes_cmd.cpp, validate.cpp,
		// collection_to_capped.cpp.
		{name: "create", run: cmdCreate, growsStorage: true, help: createHelp},
		{name: "drop", collectionUUID: true, run: cmdDrop, help: "drop a collection\n{drop : <collectionName>}"},
		{name: "dropDatabase", run: cmdDropDatabase, help: "drop (delete) this database"},
		{name: "listDatabases", run: cmdListDatabases, adminOnly: true, secondary: secondaryOptIn,
			help: "{ listDatabases:1, [filter: <filterObject>] [, nameOnly: true ] }\nlist databases on this server"},
		{name: "listCollections", run: cmdListCollections, secondary: secondaryOptIn, help: "list collections for this db"},
		{name: "renameCollection", collectionUUID: true, run: cmdRenameCollection, adminOnly: true,
			help: " example: { renameCollection: foo.a, to: bar.b }"},
		{name: "createIndexes", collectionUUID: true, run: cmdCreateIndexes},
		{name: "listIndexes", run: cmdListIndexes, secondary: secondaryOptIn, help: "list indexes for a collection"},
		{name: "dropIndexes", aliases: []string{"deleteIndexes"}, collectionUUID: true, run: cmdDropIndexes,
			help: "drop indexes for a collection"},
		{name: "collStats", run: cmdCollStats, secondary: secondaryAlways, help: collStatsHelp},
		{name: "dbStats", run: cmdDBStats, secondary: secondaryAlways, help: dbStatsHelp},
		{name: "dataSize", aliases: []string{"datasize"}, run: cmdDataSize, secondary: secondaryAlways, help: dataSizeHelp},
		{name: "validate", run: cmdValidate, secondary: secondaryAlways, help: validateHelp},
		{name: "collMod", collectionUUID: true, run: cmdCollMod, help: collModHelp},
		{name: "convertToCapped", run: cmdConvertToCapped,
			help: "{ convertToCapped:<fromCollectionName>, size:<sizeInBytes> }"},
		{name: "cloneCollectionAsCapped", run: cmdCloneCollectionAsCapped, growsStorage: true,
			help: "{ cloneCollectionAsCapped:<fromName>, toCollection:<toName>, size:<sizeInBytes> }"},
		// src/mongo/db/commands/profile_common.h, current_op_common.h,
		// kill_op_cmd_base.h, top_command.cpp.
		{name: "profile", run: cmdProfile, noWriteConcern: true, secondary: secondaryAlways, help: profileHelp},
		{name: "currentOp", run: cmdCurrentOp, adminOnly: true, secondary: secondaryAlways},
		{name: "killOp", run: cmdKillOp, adminOnly: true, secondary: secondaryAlways},
		{name: "top", run: cmdTop, adminOnly: true, secondary: secondaryAlways, help: "usage by collection, in micros "},
		// src/mongo/db/commands/query_cmd/plan_cache_clear_command.cpp,
		// index_filter_commands.cpp (IndexFilterCommand: kOptIn).
		{name: "planCacheClear", run: cmdPlanCacheClear, secondary: secondaryOptIn,
			help: "Drops one or all plan cache entries in a collection."},
		{name: "planCacheClearFilters", run: cmdPlanCacheClearFilters, secondary: secondaryOptIn,
			help: "Clears index filter for a single query shape or, if the query shape is omitted, all filters for the collection."},
		{name: "planCacheListFilters", run: cmdPlanCacheListFilters, secondary: secondaryOptIn,
			help: "Displays index filters for all query shapes in a collection."},
		{name: "planCacheSetFilter", run: cmdPlanCacheSetFilter, secondary: secondaryOptIn,
			help: "Sets index filter for a query shape. Overrides existing filter."},
		{name: "reIndex", run: cmdReIndex, noWriteConcern: true,
			help: "re-index a collection (can only be run on a standalone mongod)"},
		{name: "compact", run: cmdCompact, secondary: secondaryAlways, noWriteConcern: true, help: compactHelp},
	}, append(replicaSetCommands(), unsupportedCommands()...)...)
}

// replicaSetCommands are the replSet commands whose run starts with
// ReplicationCoordinatorImpl::checkReplEnabledForCommand
// (src/mongo/db/repl/repl_set_commands.cpp, repl_set_get_status_cmd.cpp):
// on a standalone each fails with NoReplicationEnabled. Their base,
// ReplSetCommand (repl_set_command.h), is adminOnly and kAlways.
func replicaSetCommands() []*command {
	cmds := []*command{
		{name: "replSetGetStatus", help: replSetGetStatusHelp},
		{name: "replSetGetConfig", help: replSetGetConfigHelp},
		{name: "replSetReconfig", help: replSetReconfigHelp},
		{name: "replSetStepDown", help: replSetStepDownHelp},
		{name: "replSetStepUp"},
		{name: "replSetFreeze", help: replSetFreezeHelp},
		{name: "replSetMaintenance", help: replSetMaintenanceHelp},
		{name: "replSetSyncFrom", help: replSetSyncFromHelp},
		{name: "replSetAbortPrimaryCatchUp", help: replSetAbortPrimaryCatchUpHelp},
	}
	for _, c := range cmds {
		c.run, c.adminOnly, c.secondary = cmdNotReplicaSet, true, secondaryAlways
	}
	return cmds
}

// unsupportedCommands are the other commands a mongod 8.0 standalone
// registers and a learner can reach (the manual's Database Commands
// reference: aggregation, sessions, authentication, user and role
// management, replication, administration and diagnostics) which the
// sandbox does not run: each is refused with NotImplemented. Left out,
// and so CommandNotFound as on mongod: the test-only commands mongod
// registers only with enableTestCommands (sleep, captrunc, godinsert,
// emptycapped, configureFailPoint, ...), the mongos-only ones
// (shardCollection, isdbgrid, ...), internal ones (names starting with
// '_') and the commands removed before 8.0 (getLastError, eval, ...).
// adminOnly is mongod's adminOnly() for the command, so that running one
// elsewhere fails first as it does on mongod.
func unsupportedCommands() []*command {
	cmds := []*command{
		// src/mongo/db/commands/map_reduce_command.cpp: kAlways off a
		// replica set.
		{name: "mapReduce", aliases: []string{"mapreduce"}, secondary: secondaryAlways, help: mapReduceHelp},
		// src/mongo/db/commands/kill_sessions_command.cpp,
		// kill_all_sessions_command.cpp, kill_all_sessions_by_pattern_command.cpp.
		{name: "killSessions", secondary: secondaryAlways, help: "kill a logical session and its operations"},
		{name: "killAllSessions", secondary: secondaryAlways,
			help: "kill all logical sessions, for a user, and their operations"},
		{name: "killAllSessionsByPattern", secondary: secondaryAlways, help: "kill logical sessions by pattern"},
		// src/mongo/db/commands/authentication_commands.cpp,
		// src/mongo/db/auth/sasl_commands.cpp.
		{name: "authenticate", noAuth: true, secondary: secondaryAlways},
		{name: "logout", secondary: secondaryAlways, help: "de-authenticate"},
		{name: "saslStart", noAuth: true, secondary: secondaryAlways,
			help: "First step in a SASL authentication conversation."},
		{name: "saslContinue", noAuth: true, secondary: secondaryAlways,
			help: "Subsequent steps in a SASL authentication conversation."},
		// src/mongo/db/commands/user_management_commands.cpp: CmdUMCTyped
		// has no help; UMCStdParams kNever, UMCInfoParams kOptIn,
		// UMCInvalidateUserCacheParams kAlways.
		{name: "createUser"}, {name: "updateUser"}, {name: "dropUser"}, {name: "dropAllUsersFromDatabase"},
		{name: "grantRolesToUser"}, {name: "revokeRolesFromUser"},
		{name: "usersInfo", secondary: secondaryOptIn},
		{name: "createRole"}, {name: "updateRole"}, {name: "dropRole"}, {name: "dropAllRolesFromDatabase"},
		{name: "grantPrivilegesToRole"}, {name: "revokePrivilegesFromRole"}, {name: "grantRolesToRole"},
		{name: "revokeRolesFromRole"},
		{name: "rolesInfo", secondary: secondaryOptIn},
		{name: "invalidateUserCache", secondary: secondaryAlways},
		{name: "applyOps", help: "internal (sharding)\n" +
			"{ applyOps : [ ] , preCondition : [ { ns : ... , q : ... , res : ... } ] }"},
		{name: "dbHash", secondary: secondaryAlways},
		{name: "validateDBMetadata", secondary: secondaryAlways},
		{name: "createSearchIndexes"}, {name: "updateSearchIndex"}, {name: "dropSearchIndex"},
		{name: "listSearchIndexes", secondary: secondaryOptIn},
		{name: "compactStructuredEncryptionData"}, {name: "cleanupStructuredEncryptionData"},
		{name: "availableQueryOptions", secondary: secondaryAlways},
		{name: "splitVector", secondary: secondaryAlways},
		{name: "dbCheck"},
		{name: "lockInfo", adminOnly: true, secondary: secondaryAlways, help: "show all lock info on the server"},
		{name: "connPoolStats", adminOnly: true, secondary: secondaryAlways,
			help: "stats about connections between servers in a replica set or sharded cluster."},
		{name: "getClusterParameter", adminOnly: true, secondary: secondaryAlways},
		{name: "setClusterParameter", adminOnly: true},
		{name: "setFeatureCompatibilityVersion", adminOnly: true},
		{name: "rotateCertificates", adminOnly: true, secondary: secondaryAlways},
		{name: "shutdown", adminOnly: true, secondary: secondaryAlways},
		{name: "dropConnections", adminOnly: true, secondary: secondaryAlways},
		{name: "autoCompact", adminOnly: true, secondary: secondaryAlways},
		{name: "cleanupOrphaned", adminOnly: true},
		{name: "startRecordingTraffic", adminOnly: true, secondary: secondaryAlways},
		{name: "stopRecordingTraffic", adminOnly: true, secondary: secondaryAlways},
		{name: "setProfilingFilterGlobally", adminOnly: true, secondary: secondaryAlways},
	}
	for _, c := range cmds {
		c.run = cmdNotSupported
	}
	return cmds
}

// commandTable indexes cmds by every name a client may use.
func commandTable(cmds []*command) map[string]*command {
	table := make(map[string]*command, len(cmds)+8)
	for _, c := range cmds {
		table[c.name] = c
		for _, alias := range c.aliases {
			table[alias] = c
		}
	}
	return table
}

// CommandName is mongod's name for the command a client calls name (an
// alias gives its command's name), and whether the engine knows it.
func (e *Engine) CommandName(name string) (string, bool) {
	c, ok := e.commands[name]
	if !ok {
		return "", false
	}
	return c.name, true
}
