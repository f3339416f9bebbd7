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
// listed with their command.
func commands() []*command {
	return append([]*command{
		{name: "hello", run: cmdHello, sessionFree: true},
		{name: "isMaster", aliases: []string{"ismaster"}, run: cmdHello, sessionFree: true},
		{name: "ping", run: cmdPing, sessionFree: true},
		{name: "buildInfo", aliases: []string{"buildinfo"}, run: cmdBuildInfo, sessionFree: true},
		{name: "getParameter", run: cmdGetParameter, adminOnly: true, sessionFree: true},
		{name: "setParameter", run: cmdSetParameter, adminOnly: true, sessionFree: true},
		{name: "setQuerySettings", run: cmdSetQuerySettings, adminOnly: true, noWriteConcern: true},
		// Standalone refusals and sessions: standalone.go.
		{name: "getDefaultRWConcern", run: cmdDefaultRWConcern, adminOnly: true},
		{name: "setDefaultRWConcern", run: cmdDefaultRWConcern, adminOnly: true},
		{name: "setUserWriteBlockMode", run: cmdSetUserWriteBlockMode},
		{name: "commitTransaction", run: cmdEndTransaction, adminOnly: true},
		{name: "abortTransaction", run: cmdEndTransaction, adminOnly: true},
		{name: "replSetInitiate", run: cmdReplSetInitiate, adminOnly: true},
		{name: "replSetResizeOplog", run: cmdReplSetResizeOplog, adminOnly: true},
		{name: "appendOplogNote", run: cmdAppendOplogNote, adminOnly: true},
		{name: "analyzeShardKey", run: cmdShardKeyAnalysis, adminOnly: true},
		{name: "configureQueryAnalyzer", run: cmdShardKeyAnalysis, adminOnly: true},
		{name: "startSession", run: cmdStartSession, sessionFree: true},
		{name: "refreshSessions", run: cmdRefreshSessions, sessionFree: true},
		{name: "setIndexCommitQuorum", run: cmdSetIndexCommitQuorum},
		{name: "removeQuerySettings", run: cmdRemoveQuerySettings, adminOnly: true, noWriteConcern: true},
		{name: "fsync", run: cmdFsync, adminOnly: true},
		{name: "fsyncUnlock", run: cmdFsyncUnlock, adminOnly: true},
		{name: "getCmdLineOpts", run: cmdGetCmdLineOpts, adminOnly: true, sessionFree: true},
		{name: "getLog", run: cmdGetLog, adminOnly: true, sessionFree: true},
		{name: "hostInfo", run: cmdHostInfo, sessionFree: true},
		{name: "features", run: cmdFeatures, sessionFree: true, noWriteConcern: true},
		{name: "connectionStatus", run: cmdConnectionStatus, sessionFree: true, noWriteConcern: true},
		{name: "whatsmyuri", run: cmdWhatsMyURI, sessionFree: true, noWriteConcern: true},
		{name: "endSessions", run: cmdEndSessions, sessionFree: true, noWriteConcern: true},
		{name: "serverStatus", run: cmdServerStatus, sessionFree: true},
		{name: "getDiagnosticData", run: cmdGetDiagnosticData, adminOnly: true, sessionFree: true},

		{name: "insert", collectionUUID: true, run: cmdInsert},
		{name: "find", collectionUUID: true, run: cmdFind, explain: overTimeseries((*Engine).explainFind),
			maxTimeMS: &maxTimeIDL{nonNegative: true}},
		{name: "getMore", run: cmdGetMore, maxTimeMS: &maxTimeIDL{}},
		{name: "killCursors", run: cmdKillCursors},
		{name: "filemd5", run: cmdFileMD5},
		{name: "count", run: cmdCount, explain: overTimeseries((*Engine).explainCount)},
		{name: "distinct", run: cmdDistinct, explain: overTimeseries((*Engine).explainDistinct)},
		{name: "update", collectionUUID: true, run: cmdUpdate, explain: (*Engine).explainUpdate},
		{name: "delete", collectionUUID: true, run: cmdDelete, explain: (*Engine).explainDelete},
		{name: "bulkWrite", run: cmdBulkWrite, adminOnly: true},
		{name: "findAndModify", aliases: []string{"findandmodify"}, run: cmdFindAndModify, explain: (*Engine).explainFindAndModify},
		{name: "aggregate", collectionUUID: true, run: cmdAggregate, explain: overTimeseries((*Engine).explainAggregate),
			maxTimeMS: &maxTimeIDL{nonNegative: true}},
		{name: "explain", run: cmdExplain, explain: explainExplain},

		{name: "create", run: cmdCreate, growsStorage: true},
		{name: "drop", collectionUUID: true, run: cmdDrop},
		{name: "dropDatabase", run: cmdDropDatabase},
		{name: "listDatabases", run: cmdListDatabases},
		{name: "listCollections", run: cmdListCollections},
		{name: "renameCollection", collectionUUID: true, run: cmdRenameCollection},
		{name: "createIndexes", collectionUUID: true, run: cmdCreateIndexes},
		{name: "listIndexes", run: cmdListIndexes},
		{name: "dropIndexes", aliases: []string{"deleteIndexes"}, collectionUUID: true, run: cmdDropIndexes},
		{name: "collStats", run: cmdCollStats},
		{name: "dbStats", run: cmdDBStats},
		{name: "dataSize", aliases: []string{"datasize"}, run: cmdDataSize},
		{name: "validate", run: cmdValidate},
		{name: "collMod", collectionUUID: true, run: cmdCollMod},
		{name: "convertToCapped", run: cmdConvertToCapped},
		{name: "cloneCollectionAsCapped", run: cmdCloneCollectionAsCapped, growsStorage: true},
		{name: "profile", run: cmdProfile, noWriteConcern: true},
		{name: "currentOp", run: cmdCurrentOp, adminOnly: true},
		{name: "killOp", run: cmdKillOp, adminOnly: true},
		{name: "top", run: cmdTop, adminOnly: true},
		{name: "planCacheClear", run: cmdPlanCacheClear},
		{name: "planCacheClearFilters", run: cmdPlanCacheClearFilters},
		{name: "planCacheListFilters", run: cmdPlanCacheListFilters},
		{name: "planCacheSetFilter", run: cmdPlanCacheSetFilter},
		{name: "reIndex", run: cmdReIndex, noWriteConcern: true},
		// Commands mongod 8.0 has that the sandbox leaves out.
		{name: "compact", run: cmdNotSupported},
	}, unsupportedCommands()...)
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
	anyDB := []string{
		"listCommands", "killSessions",
		"killAllSessions", "killAllSessionsByPattern", "authenticate", "logout", "saslStart", "saslContinue",
		"createUser", "updateUser", "dropUser", "dropAllUsersFromDatabase", "grantRolesToUser",
		"revokeRolesFromUser", "usersInfo", "createRole", "updateRole", "dropRole",
		"dropAllRolesFromDatabase", "grantPrivilegesToRole", "revokePrivilegesFromRole",
		"grantRolesToRole", "revokeRolesFromRole", "rolesInfo", "invalidateUserCache", "applyOps",
		"dbHash", "validateDBMetadata",
		"createSearchIndexes", "updateSearchIndex", "dropSearchIndex", "listSearchIndexes",
		"compactStructuredEncryptionData", "cleanupStructuredEncryptionData", "availableQueryOptions",
		"splitVector", "dbCheck",
	}
	adminOnly := []string{
		"lockInfo", "connPoolStats", "getClusterParameter",
		"setClusterParameter", "setFeatureCompatibilityVersion", "logRotate",
		"rotateCertificates", "shutdown", "dropConnections", "autoCompact", "cleanupOrphaned", "startRecordingTraffic",
		"stopRecordingTraffic", "setProfilingFilterGlobally",
	}
	cmds := make([]*command, 0, len(anyDB)+len(adminOnly)+len(replicaSetCommands)+1)
	for _, name := range replicaSetCommands {
		cmds = append(cmds, &command{name: name, run: cmdNotReplicaSet, adminOnly: true})
	}
	cmds = append(cmds, &command{name: "mapReduce", aliases: []string{"mapreduce"}, run: cmdNotSupported})
	for _, name := range anyDB {
		cmds = append(cmds, &command{name: name, run: cmdNotSupported})
	}
	for _, name := range adminOnly {
		cmds = append(cmds, &command{name: name, run: cmdNotSupported, adminOnly: true})
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
