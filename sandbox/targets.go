package sandbox

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/stages"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// This file is the guard's policy: which commands a confined client may
// send, and which databases each one acts on. It sees the command document
// exactly as the server will run it (decoded from the final bytes by the
// server's own decoder), so no JavaScript coercion, getter or option can
// make the checked command differ from the one that runs.
//
// The policy is an allow-list: a command it does not know is refused, so a
// command or option added to MongoDB later is not a way around it.

// commandScope says where an allowed command may run.
type commandScope uint8

const (
	// scopeServer commands read no database: the driver's handshake,
	// authentication and session bookkeeping, and the server facts the
	// shell prints. Their $db does not matter.
	scopeServer commandScope = iota + 1
	// scopeDatabase commands act on their $db, which must be in the
	// prefix, and on the namespaces they name.
	scopeDatabase
	// scopeAdmin commands run on admin and act only on the namespaces
	// they name, which must all be in the prefix.
	scopeAdmin
)

var allowedCommands = map[string]commandScope{
	// The driver's connection handshake and heartbeat (also over legacy
	// OP_QUERY), and authentication on a server that asks for it: SCRAM,
	// AWS, OIDC and Kerberos run saslStart/saslContinue on the auth
	// source; X.509 runs authenticate on $external.
	"hello": scopeServer, "isMaster": scopeServer, "ismaster": scopeServer, "ping": scopeServer,
	"saslStart": scopeServer, "saslContinue": scopeServer, "authenticate": scopeServer, "logout": scopeServer,
	// The driver ends its sessions when a client disconnects; a session id
	// is a random UUID, so no one ends another's.
	"endSessions": scopeServer,
	// What the shell shows of the server: db.version(), db.listCommands(),
	// and of the connection: db.runCommand({connectionStatus: 1}), which
	// names only the connection's own user. None reveals anything about
	// any database.
	"buildInfo": scopeServer, "buildinfo": scopeServer, "listCommands": scopeServer,
	"connectionStatus": scopeServer,

	// Reads of the learner's databases.
	"find": scopeDatabase, "getMore": scopeDatabase, "killCursors": scopeDatabase,
	"aggregate": scopeDatabase, "count": scopeDatabase, "distinct": scopeDatabase,
	"listCollections": scopeDatabase, "listIndexes": scopeDatabase,
	"collStats": scopeDatabase, "dbStats": scopeDatabase, "validate": scopeDatabase,
	"explain": scopeDatabase,
	// Writes to them.
	"insert": scopeDatabase, "update": scopeDatabase, "delete": scopeDatabase,
	"findAndModify": scopeDatabase, "findandmodify": scopeDatabase,
	"mapReduce": scopeDatabase, "mapreduce": scopeDatabase,
	"create": scopeDatabase, "collMod": scopeDatabase, "drop": scopeDatabase, "dropDatabase": scopeDatabase,
	"createIndexes": scopeDatabase, "dropIndexes": scopeDatabase, "deleteIndexes": scopeDatabase,
	// The embedded server's snapshots, which the lessons runner saves and
	// restores (sandbox/engine/admin_snapshot.go); they name db and fromDb.
	vocab.SnapshotCommand: scopeDatabase,

	// Admin commands that act only on the namespaces they name.
	"renameCollection": scopeAdmin, "bulkWrite": scopeAdmin,
	// A transaction's commit or abort touches only what its statements,
	// each checked when sent, touched.
	"commitTransaction": scopeAdmin, "abortTransaction": scopeAdmin,
}

// Deliberately absent, among everything else: listDatabases (it reads the
// names and sizes of every database on the server, so `show dbs` is
// refused on a shared server), serverStatus, currentOp, getParameter and
// getLog (server-wide state), profile (its slowms and sampleRate are
// server-wide), applyOps, and every command that changes the server
// (shutdown, setParameter, fsync, user and role management, ...).

// policy confines commands to the databases named <prefix>*.
type policy struct {
	prefix string
	// unlockable: refusals mention --unsafe-any-db, which would lift
	// this policy (it is the backend's own, not one given to NewClient).
	unlockable bool
	// readOnly: only the reads of readonly.go pass, and then the prefix
	// rule only when prefix is set.
	readOnly bool
}

// ConfineCommand is the guard's decision about cmd, a command document as
// a server receives it, for a client confined to the databases named
// prefix*: nil, or the *OutsideSandboxError that refuses it. The embedded
// server makes it for every command of a user with a prefix
// (wire.Options.Confine), so that the server and the client-side guard
// refuse the same commands with the same words.
func ConfineCommand(prefix string, cmd bson.D) error { return policy{prefix: prefix}.check(cmd) }

// check returns nil for a command the policy allows, else an
// *OutsideSandboxError saying why not.
func (p policy) check(cmd bson.D) error {
	if p.readOnly {
		if err := p.checkReadOnly(cmd); err != nil || p.prefix == "" {
			return err
		}
	}
	if len(cmd) == 0 {
		return p.refuse("", "an empty command")
	}
	name := cmd[0].Key
	db, err := p.commandDB(name, cmd)
	if err != nil {
		return err
	}
	switch allowedCommands[name] {
	case scopeServer:
		return nil
	case scopeDatabase:
		if !vocab.InPrefix(db, p.prefix) {
			return p.outside(name, db)
		}
	case scopeAdmin:
		if db != "admin" && !vocab.InPrefix(db, p.prefix) {
			return p.outside(name, db)
		}
	default:
		if !vocab.InPrefix(db, p.prefix) {
			return p.outside(name, db)
		}
		return p.refuse(name, "the sandbox does not allow this command")
	}
	return p.checkNamespaces(name, db, cmd)
}

// commandDB is the command's one $db. The driver always adds its own, so
// a learner's $db makes two; mongod would run the last. Either way the
// command is refused, naming a database outside the prefix if one is.
func (p policy) commandDB(name string, cmd bson.D) (string, error) {
	var dbs []string
	for _, e := range cmd {
		if e.Key != "$db" {
			continue
		}
		s, ok := e.Value.(string)
		if !ok {
			return "", p.refuse(name, "its $db is not a string")
		}
		dbs = append(dbs, s)
	}
	switch len(dbs) {
	case 0:
		return "", p.refuse(name, "it has no $db")
	case 1:
		return dbs[0], nil
	}
	for _, db := range dbs {
		if !vocab.InPrefix(db, p.prefix) {
			return "", p.outside(name, db)
		}
	}
	return "", p.refuse(name, "it has more than one $db")
}

// checkNamespaces checks every database an allowed command names besides
// its $db, in its own fields and in the aggregation stages anywhere in it,
// and that its pipelines use only the stages the policy knows.
func (p policy) checkNamespaces(name, db string, cmd bson.D) error {
	for i, e := range cmd {
		var err error
		switch {
		case i == 0 && name == "explain":
			inner, ok := e.Value.(bson.D)
			if !ok {
				return p.refuse(name, "it explains something other than a command document")
			}
			err = p.checkExplained(db, inner)
		case e.Key == "documents" && name == "insert":
			// Inserted documents are data: a field named $out in one is
			// never run as a stage.
			continue
		case e.Key == "pipeline" && (name == "aggregate" || name == "create" || name == "collMod"):
			err = p.checkPipeline(name, e.Value, 0)
		case (e.Key == "renameCollection" || e.Key == "to") && name == "renameCollection":
			err = p.checkName(name, "`"+e.Key+"`", e.Value, namespaceDB)
		case e.Key == "nsInfo" && name == "bulkWrite":
			err = p.eachDocument(name, "`nsInfo`", e.Value, func(d bson.D) error {
				return eachKey(d, "ns", func(v any) error { return p.checkName(name, "`nsInfo.ns`", v, namespaceDB) })
			})
		case e.Key == "out" && (name == "mapReduce" || name == "mapreduce"):
			if out, ok := e.Value.(bson.D); ok {
				err = eachKey(out, "db", func(v any) error { return p.checkName(name, "`out.db`", v, databaseName) })
			}
		case (e.Key == "db" || e.Key == "fromDb") && name == vocab.SnapshotCommand:
			err = p.checkName(name, "`"+e.Key+"`", e.Value, databaseName)
		}
		if err == nil {
			err = p.checkStageTargets(name, e.Value, 0)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkName checks a field that names a database (parse returns it from
// the field's string).
func (p policy) checkName(cmd, what string, v any, parse func(string) string) error {
	s, ok := v.(string)
	if !ok {
		return p.refuse(cmd, what+" is not a string")
	}
	if target := parse(s); !vocab.InPrefix(target, p.prefix) {
		return p.outside(cmd, target)
	}
	return nil
}

// checkExplained checks the command an explain wraps, which runs on the
// explain's $db (and on its own, if it names one).
func (p policy) checkExplained(db string, inner bson.D) error {
	if len(inner) == 0 {
		return p.refuse("explain", "it explains an empty command")
	}
	name := inner[0].Key
	if allowedCommands[name] != scopeDatabase || name == "explain" {
		return p.refuse("explain", "the sandbox does not allow explaining `"+name+"`")
	}
	err := eachKey(inner, "$db", func(v any) error { return p.checkName("explain", "the explained command's $db", v, databaseName) })
	if err != nil {
		return err
	}
	return p.checkNamespaces(name, db, inner)
}

// allowedStage reports whether a learner's pipeline may use a stage: any
// stage of MongoDB 8.0 (sandbox/stages describes them) except the internal
// ones ($mergeCursors, $_internal*, ...), which a server without
// authentication would run for anyone, and the server-wide ones
// ($currentOp, $listLocalSessions, $listSessions, $queryStats,
// $querySettings, $listSampledQueries, $shardedDataDistribution,
// $listCatalog, $listClusterCatalog).
func allowedStage(name string) bool {
	s, ok := stages.Lookup(name)
	return ok && !s.Internal && !s.ServerWide
}

// checkPipeline refuses stages allowedStage refuses, in pipeline and in
// its sub-pipelines ($facet, $lookup, $unionWith, $merge's whenMatched).
func (p policy) checkPipeline(name string, v any, depth int) error {
	return p.checkStages(name, v, depth, allowedStage, "the sandbox does not allow the stage ")
}

// checkStages refuses the stages allow refuses, saying refusal and the
// stage's name, in pipeline and in its sub-pipelines as the stage
// descriptors find them. A pipeline that is not an array of documents is
// left to the server to refuse.
func (p policy) checkStages(name string, v any, depth int, allow func(string) bool, refusal string) error {
	arr, ok := v.(bson.A)
	if !ok {
		return nil
	}
	if depth > maxWalkDepth {
		return p.refuse(name, "it is nested too deeply to check")
	}
	for _, st := range arr {
		stage, ok := st.(bson.D)
		if !ok {
			continue
		}
		for _, e := range stage {
			if !allow(e.Key) {
				return p.refuse(name, refusal+"`"+e.Key+"`")
			}
			desc, _ := stages.Lookup(e.Key)
			for _, sub := range desc.Pipelines(e.Value) {
				if err := p.checkStages(name, sub, depth+1, allow, refusal); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkStageTargets walks v, all of it, for aggregation stages naming
// another database ($out {db}, $merge {into: {db}}, $lookup and
// $graphLookup {from: {db}}, $unionWith {coll: {db}}, and a bare db beside
// each, as the stage descriptors report them): wherever a pipeline sits
// (aggregate, explain, views, $facet, sub-pipelines, update pipelines,
// $merge's whenMatched, or a place no one thought of), its stages are
// checked. A stage naming no database ($out: "c", from: "c") acts on the
// command's own database, which is already checked.
func (p policy) checkStageTargets(name string, v any, depth int) error {
	if depth > maxWalkDepth {
		return p.refuse(name, "it is nested too deeply to check")
	}
	switch x := v.(type) {
	case bson.A:
		for _, e := range x {
			if err := p.checkStageTargets(name, e, depth+1); err != nil {
				return err
			}
		}
	case bson.D:
		for _, e := range x {
			if desc, ok := stages.Lookup(e.Key); ok {
				var err error
				desc.Refs(e.Value, func(r stages.Ref) {
					if err != nil || !r.HasDB {
						return
					}
					what := "`" + r.Stage + "." + r.Field + "`"
					switch {
					case r.Malformed:
						err = p.refuse(name, what+" is not a string")
					case !vocab.InPrefix(r.DB, p.prefix):
						err = p.outside(name, r.DB)
					}
				})
				if err != nil {
					return err
				}
			}
			if err := p.checkStageTargets(name, e.Value, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxWalkDepth is the decoder's nesting limit, so the walks never meet a
// document they cannot finish.
const maxWalkDepth = value.MaxNestingDepth

func (p policy) eachDocument(name, what string, v any, fn func(bson.D) error) error {
	arr, ok := v.(bson.A)
	if !ok {
		return p.refuse(name, what+" is not an array")
	}
	for _, e := range arr {
		d, ok := e.(bson.D)
		if !ok {
			return p.refuse(name, what+" holds something other than documents")
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

// eachKey calls fn with every value of key in d: a duplicated field is
// checked in each of its copies, whichever one the server reads.
func eachKey(d bson.D, key string, fn func(any) error) error {
	for _, e := range d {
		if e.Key == key {
			if err := fn(e.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p policy) outside(cmd, db string) error {
	return &OutsideSandboxError{Command: cmd, Database: db, Prefix: p.prefix, Unlockable: p.unlockable}
}

func (p policy) refuse(cmd, reason string) error {
	return &OutsideSandboxError{Command: cmd, Prefix: p.prefix, Reason: reason, Unlockable: p.unlockable}
}

func databaseName(db string) string { return db }

func namespaceDB(ns string) string {
	db, _, _ := strings.Cut(ns, ".")
	return db
}
