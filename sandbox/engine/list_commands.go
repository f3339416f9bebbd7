package engine

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// secondaryAllowed is mongod's Command::AllowedOnSecondary, which
// listCommands reports: secondaryOk is kAlways, and kOptIn adds
// secondaryOverrideOk. The zero value is kNever.
type secondaryAllowed int

const (
	secondaryNever secondaryAllowed = iota
	secondaryOptIn
	secondaryAlways
)

// defaultHelp is Command::help()'s, for the commands that do not
// override it (src/mongo/db/commands.h).
const defaultHelp = "no help defined"

// cmdListCommands is ListCommandsCmd (src/mongo/db/commands/generic.cpp,
// mongod 8.0): every command the server registers, once under its own
// name (Command::getName, so no alias), sorted by name, each with its
// help, requiresAuth, secondaryAllowed, adminOnly and API versions. It
// reads no argument, runs on any database and needs no authentication.
func cmdListCommands(e *Engine, _ *request) (bson.D, error) {
	seen := make(map[*command]bool, len(e.commands))
	cmds := make([]*command, 0, len(e.commands))
	for _, c := range e.commands {
		if !seen[c] {
			seen[c] = true
			cmds = append(cmds, c)
		}
	}
	slices.SortFunc(cmds, func(a, b *command) int { return strings.Compare(a.name, b.name) })
	list := make(bson.D, 0, len(cmds))
	for _, c := range cmds {
		help := c.help
		if help == "" {
			help = defaultHelp
		}
		entry := bson.D{
			{Key: "help", Value: help},
			{Key: "requiresAuth", Value: !c.noAuth},
			{Key: "secondaryOk", Value: c.secondary == secondaryAlways},
			{Key: "adminOnly", Value: c.adminOnly},
		}
		if c.secondary == secondaryOptIn {
			entry = append(entry, bson.E{Key: "secondaryOverrideOk", Value: true})
		}
		versions := bson.A{}
		if inAPIVersion1(c.name) {
			versions = bson.A{"1"}
		}
		// No command the sandbox answers is deprecated in an API version
		// (only the test-only testDeprecation is, in mongod 8.0).
		entry = append(entry, bson.E{Key: "apiVersions", Value: versions},
			bson.E{Key: "deprecatedApiVersions", Value: bson.A{}})
		list = append(list, bson.E{Key: c.name, Value: entry})
	}
	return bson.D{{Key: "commands", Value: list}}, nil
}

// RequiresAuth reports whether mongod runs the command a client calls
// name only for an authenticated client (Command::requiresAuth); a name
// the engine does not know requires it, so that it fails as mongod's
// unknown commands do once authorization is checked.
func (e *Engine) RequiresAuth(name string) bool {
	c, ok := e.commands[name]
	return !ok || !c.noAuth
}

// parameterHelp is appendParameterNames (src/mongo/db/commands/
// parameters.cpp): "supported:" and the server parameters, one a line,
// in the order of the parameter map (by name).
func parameterHelp() string {
	var names []string
	for _, p := range serverParameters() {
		names = append(names, p.name)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("supported:\n")
	for _, n := range names {
		b.WriteString("  " + n + "\n")
	}
	return b.String()
}

// getParameterHelp and setParameterHelp are CmdGet::help and
// CmdSet::help (src/mongo/db/commands/parameters.cpp).
func getParameterHelp() string {
	return "get administrative option(s)\nexample:\n" +
		"{ getParameter:1, notablescan:1 }\n" +
		"pass a document as the value for getParameter to request options\nexample:\n" +
		"{ getParameter:{showDetails: true}, notablescan:1}\n" +
		parameterHelp() +
		"{ getParameter:'*' } or { getParameter:{allParameters: true} } to get everything\n"
}

func setParameterHelp() string {
	return "set administrative option(s)\n{ setParameter:1, <param>:<value> }\n" + parameterHelp()
}

// The longer help texts, each as the command's help() returns it in
// mongod 8.0 (the file it is in is named).
const (
	// src/mongo/db/commands/create_command.cpp (kCreateCommandHelp).
	createHelp = "explicitly creates a collection or view\n" +
		"{\n" +
		"  create: <string: collection or view name> [,\n" +
		"  capped: <bool: capped collection>,\n" +
		"  autoIndexId: <bool: automatic creation of _id index>,\n" +
		"  idIndex: <document: _id index specification>,\n" +
		"  size: <int: size in bytes of the capped collection>,\n" +
		"  max: <int: max number of documents in the capped collection>,\n" +
		"  storageEngine: <document: storage engine configuration>,\n" +
		"  validator: <document: validation rules>,\n" +
		"  validationLevel: <string: validation level>,\n" +
		"  validationAction: <string: validation action>,\n" +
		"  indexOptionDefaults: <document: default configuration for indexes>,\n" +
		"  viewOn: <string: name of source collection or view>,\n" +
		"  pipeline: <array<object>: aggregation pipeline stage>,\n" +
		"  collation: <document: default collation for the collection or view>,\n" +
		"  changeStreamPreAndPostImages: <document: pre- and post-images options for change streams>,\n" +
		"  writeConcern: <document: write concern expression for the operation>]\n" +
		"}"
	// src/mongo/db/commands/find_and_modify.cpp.
	findAndModifyHelp = "{ findAndModify: \"collection\", query: {processed:false}, update: {$set: " +
		"{processed:true}}, new: true}\n" +
		"{ findAndModify: \"collection\", query: {processed:false}, remove: true, sort: " +
		"{priority:-1}}\n" +
		"Either update or remove is required, all other fields have default values.\n" +
		"Output is in the \"value\" field\n"
	// src/mongo/db/commands/dbcommands.cpp (CollectionModCommand).
	collModHelp = "Sets collection options.\n" +
		"Example: { collMod: 'foo', viewOn: 'bar'} " +
		"Example: { collMod: 'foo', index: {keyPattern: {a: 1}, expireAfterSeconds: 600} " +
		"Example: { collMod: 'foo', index: {name: 'bar', expireAfterSeconds: 600} }\n"
	// src/mongo/db/commands/dbcommands.cpp: dataSize, collStats and
	// dbStats answer their IDL description (dbcommands.idl,
	// Request::kCommandDescription).
	dataSizeHelp = "Determine data size for a set of data in a certain range. Example: " +
		"{ dataSize:\"blog.posts\", keyPattern:{x:1}, min:{x:10}, max:{x:55} } {min} and {max} " +
		"parameters are optional. They must either both be included or both omitted. {keyPattern} " +
		"is an optional parameter indicating an index pattern that would be useful for iterating " +
		"over the min/max bounds. If keyPattern is omitted, it is inferred from the structure of " +
		"min. Note: This command may take a while to run."
	collStatsHelp = "{ collStats:\"blog.posts\" , scale : 1 } scale divides sizes e.g. for KB use 1024. " +
		"avgObjSize - in bytes"
	dbStatsHelp = "Get stats on a database. Not instantaneous. Slower for databases with large .ns " +
		"files. Example: { dbStats:1, scale:1 }"
	// src/mongo/db/commands/validate.cpp.
	validateHelp = "Validate contents of a namespace by scanning its data structures " +
		"for correctness.\nThis is a slow operation.\n" +
		"\tAdd {full: true} option to do a more thorough check.\n" +
		"\tAdd {background: true} to validate in the background.\n" +
		"\tAdd {repair: true} to run repair mode.\n" +
		"\tAdd {checkBSONConformance: true} to validate BSON documents more thoroughly.\n" +
		"\tAdd {metadata: true} to only check collection metadata.\n" +
		"Cannot specify both {full: true, background: true}."
	// src/mongo/db/commands/profile_common.h.
	profileHelp = "controls the behaviour of the performance profiler, the fraction of eligible " +
		"operations which are sampled for logging/profiling, and the threshold duration at " +
		"which ops become eligible. See http://docs.mongodb.org/manual/reference/command/profile"
	// src/mongo/db/commands/set_index_commit_quorum_command.cpp.
	setIndexCommitQuorumHelp = "Resets the commitQuorum for the given index builds in a collection. Usage:\n" +
		"{\n" +
		"    setIndexCommitQuorum: <string> collection name,\n" +
		"    indexNames: array<string> list of index names,\n" +
		"    commitQuorum: <string|number|object> option to define the required quorum for\n" +
		"                  the index builds to commit\n" +
		"}\n" +
		"This command is useful if the commitQuorum of an active index build is no longer " +
		"possible or desirable (replica set membership has changed), or potential secondary " +
		"replication lag has become a greater concern"
	// src/mongo/db/commands/compact.cpp.
	compactHelp = "compact collection\n" +
		"warning: this operation locks the database and is slow. you can cancel with killOp()\n" +
		"{ compact : <collection_name>, [force:<bool>] }\n" +
		"  force - allows to run on a replica set primary\n"
	// src/mongo/db/commands/map_reduce_command_base.h.
	mapReduceHelp = "Run a map/reduce operation on the server.\n" +
		"Note this is used for aggregation, not querying, in MongoDB.\n" +
		"http://dochub.mongodb.org/core/mapreduce"
	// src/mongo/db/repl/repl_set_commands.cpp,
	// repl_set_get_status_cmd.cpp.
	replSetGetStatusHelp = "Report status of a replica set from the POV of this server\n" +
		"{ replSetGetStatus : 1 }\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetGetConfigHelp = "Returns the current replica set configuration" +
		"{ replSetGetConfig : 1 }\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetInitiateHelp = "Initiate/christen a replica set.\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetReconfigHelp = "Adjust configuration of a replica set\n" +
		"{ replSetReconfig : config_object }\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetFreezeHelp = "{ replSetFreeze : <seconds> }\n" +
		"'freeze' state of member to the extent we can do that.  What this really means is that\n" +
		"this node will not attempt to become primary until the time period specified expires.\n" +
		"You can call again with {replSetFreeze:0} to unfreeze sooner.\n" +
		"A process restart unfreezes the member also.\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetStepDownHelp = "{ replSetStepDown : <seconds> }\n" +
		"Step down as primary.  Will not try to reelect self for the specified time period " +
		"(1 minute if no numeric secs value specified, or secs is 0).\n" +
		"(If another member with same priority takes over in the meantime, it will stay primary.)\n" +
		"http://dochub.mongodb.org/core/replicasetcommands"
	replSetMaintenanceHelp = "{ replSetMaintenance : bool }\n" +
		"Enable or disable maintenance mode."
	replSetSyncFromHelp = "{ replSetSyncFrom : \"host:port\" }\n" +
		"Change who this member is syncing from. Note: This will interrupt and restart an " +
		"in-progress initial sync."
	replSetAbortPrimaryCatchUpHelp = "{ CmdReplSetAbortPrimaryCatchUp : 1 }\n" +
		"Abort primary catch-up mode; immediately finish the transition to primary " +
		"without fetching any further unreplicated writes from any other online nodes"
)
