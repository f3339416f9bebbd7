package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The sandbox answers as a standalone mongod 8.0 (hello names no replica
// set). The commands of replication, read/write concern defaults, write
// blocking, transactions and shard key analysis exist on a standalone and
// refuse to run there, each with its own error once its request parses;
// the session commands run.

// cmdNotReplicaSet answers the replSet commands that check that
// replication is enabled first (replicaSetCommands).
func cmdNotReplicaSet(*Engine, *request) (bson.D, error) {
	return nil, mongoerr.New(mongoerr.NoReplicationEnabled, "not running with --replSet")
}

// cmdReplSetInitiate: CmdReplSetInitiate::run refuses a node started
// without --replSet before it reads the configuration.
func cmdReplSetInitiate(*Engine, *request) (bson.D, error) {
	return nil, mongoerr.New(mongoerr.NoReplicationEnabled, "This node was not started with replication enabled.")
}

// cmdReplSetResizeOplog: there is no local.oplog.rs to resize
// (resize_oplog.cpp looks it up before it parses the request).
func cmdReplSetResizeOplog(*Engine, *request) (bson.D, error) {
	return nil, mongoerr.New(mongoerr.NamespaceNotFound, "oplog does not exist")
}

// cmdAppendOplogNote: oplog_note.cpp.
func cmdAppendOplogNote(*Engine, *request) (bson.D, error) {
	return nil, mongoerr.New(mongoerr.NoReplicationEnabled, `Must have replication set up to run "appendOplogNote"`)
}

// cmdDefaultRWConcern is getDefaultRWConcern and setDefaultRWConcern
// (rwc_defaults_commands.cpp): their strict IDL, then
// assertNotStandaloneOrShardServer.
func cmdDefaultRWConcern(_ *Engine, req *request) (bson.D, error) {
	known := []string{"inMemory"}
	if req.name == "setDefaultRWConcern" {
		known = []string{"defaultReadConcern", "defaultWriteConcern"}
	}
	if err := newArgs(req).checkKnown(true, known...); err != nil {
		return nil, err
	}
	return nil, mongoerr.Newf(mongoerr.ErrRWConcernDefaultsStandalone, "'%s' is not supported on standalone nodes.", req.name)
}

// cmdSetUserWriteBlockMode: set_user_write_block_mode.idl requires the
// boolean global; the command then refuses a standalone.
func cmdSetUserWriteBlockMode(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "global"); err != nil {
		return nil, err
	}
	if _, ok := a.get("global"); !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'setUserWriteBlockMode.global' is missing but a required field")
	}
	if _, err := a.boolean("global", false); err != nil {
		return nil, err
	}
	return nil, mongoerr.New(mongoerr.IllegalOperation, "setUserWriteBlockMode cannot be run on standalones")
}

// cmdEndTransaction is commitTransaction and abortTransaction without a
// transaction number (txn_cmds.cpp): there is no transaction to end. One
// with a transaction number never gets here (refuseTransactionNumber).
func cmdEndTransaction(_ *Engine, req *request) (bson.D, error) {
	known := []string{"recoveryToken"}
	if req.name == "commitTransaction" {
		known = append(known, "commitTimestamp")
	}
	if err := newArgs(req).checkKnown(true, known...); err != nil {
		return nil, err
	}
	return nil, mongoerr.Newf(mongoerr.CommandFailed, "%s must be run within a transaction", req.name)
}

// cmdShardKeyAnalysis is analyzeShardKey and configureQueryAnalyzer
// (src/mongo/db/s/analyze_shard_key_cmd.cpp,
// configure_query_analyzer_cmd.cpp): a namespace string, the required
// key or mode, then the refusal of a standalone.
func cmdShardKeyAnalysis(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	required, known := "key", []string{"key", "keyCharacteristics", "readWriteDistribution", "sampleRate", "sampleSize"}
	if req.name == "configureQueryAnalyzer" {
		required, known = "mode", []string{"mode", "samplesPerSecond"}
	}
	if err := a.checkKnown(true, known...); err != nil {
		return nil, err
	}
	if _, ok := req.cmd[0].Value.(string); !ok {
		return nil, a.wrongType(req.name, req.cmd[0].Value, "type 'string'")
	}
	if _, ok := a.get(required); !ok {
		return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.%s' is missing but a required field", a.prefix, required)
	}
	return nil, mongoerr.Newf(mongoerr.IllegalOperation, "%s command is not supported on a standalone mongod", req.name)
}

// cmdStartSession: start_session_command.cpp gives the client a new
// logical session, which expires after localLogicalSessionTimeoutMinutes
// (30) without use.
func cmdStartSession(_ *Engine, req *request) (bson.D, error) {
	if err := newArgs(req).checkKnown(true); err != nil {
		return nil, err
	}
	return bson.D{
		{Key: "id", Value: bson.D{{Key: "id", Value: catalog.NewUUID()}}},
		{Key: "timeoutMinutes", Value: int32(30)},
	}, nil
}

// cmdRefreshSessions: refresh_sessions_command.cpp keeps the listed
// sessions alive; the sandbox expires none, so there is nothing to do.
func cmdRefreshSessions(_ *Engine, req *request) (bson.D, error) {
	return cmdEndSessions(nil, req)
}

// cmdSetIndexCommitQuorum changes the commit quorum of index builds in
// progress (IndexBuildsCoordinatorMongod::setCommitQuorum); a sandbox
// index build ends within its createIndexes, so none ever is.
func cmdSetIndexCommitQuorum(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "indexNames", "commitQuorum"); err != nil {
		return nil, err
	}
	names, hasNames, err := a.array("indexNames")
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"indexNames", "commitQuorum"} {
		if _, ok := a.get(f); !ok {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field 'setIndexCommitQuorum.%s' is missing but a required field", f)
		}
	}
	namespace := ns(req.db, collName)
	switch {
	case hasNames && len(names) == 0:
		return nil, mongoerr.Newf(mongoerr.IndexNotFound, "Cannot set a new commit quorum on an index build in collection '%s' without providing any indexes.", namespace)
	case e.catalog.Snapshot(req.db, collName) == nil:
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Collection '%s' was not found.", namespace)
	}
	return nil, mongoerr.Newf(mongoerr.IndexNotFound, "Cannot find an index build on collection '%s' with the provided index names", namespace)
}
