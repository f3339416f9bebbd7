package sandbox

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/stages"
)

// This file is the guard's read-only policy, the one `schemalab advise`
// runs under. It is checked where the prefix policy is, on the command as
// the server will receive it (guardedConn.Write), so nothing advise's code
// does, and no option the driver adds, can make a refused command reach
// the server. Like the prefix policy it is an allow-list: whatever is not
// below is refused.

// readOnlyCommands are the commands a read-only client may send; the
// bounded ones must carry maxTimeMS.
var readOnlyCommands = map[string]readOnlyRule{
	// The driver's handshake, heartbeat, authentication and session
	// bookkeeping, and what the server says about itself.
	"hello": {}, "isMaster": {}, "ismaster": {}, "ping": {},
	"saslStart": {}, "saslContinue": {}, "authenticate": {}, "logout": {},
	"endSessions": {}, "buildInfo": {}, "buildinfo": {}, "serverStatus": {},
	"connectionStatus": {},
	// The next batch of a cursor one of the reads below opened. mongod
	// refuses maxTimeMS on a getMore of an ordinary cursor (the time
	// limit of the command that opened it still applies), and no cursor
	// here can write: $out and $merge, refused below, are the only
	// writes an aggregate has, and mongod runs them to completion before
	// it answers the aggregate, with no cursor left to continue.
	"getMore": {}, "killCursors": {},
	// Reads.
	"find": {bounded: true}, "aggregate": {bounded: true}, "count": {bounded: true}, "distinct": {bounded: true},
	"listDatabases": {bounded: true}, "listCollections": {bounded: true}, "listIndexes": {bounded: true},
	"collStats": {bounded: true}, "dbStats": {bounded: true},
}

type readOnlyRule struct {
	// bounded commands read data, and must say how long they may take.
	bounded bool
}

// Deliberately absent, among everything else: every write (insert,
// update, delete, findAndModify, mapReduce, whose out may be inline but
// need not be, create, drop, createIndexes, collMod, renameCollection,
// bulkWrite, the sandbox's snapshots), explain (its executionStats run
// the explained command), validate (it scans every index and may hold a
// collection's lock), profile (it changes the profiler), and the
// transaction commands.

// readOnlyStage reports whether a read-only pipeline may use a stage:
// one the prefix policy allows (allowedStage) that writes nothing, which
// leaves out $out and $merge.
func readOnlyStage(name string) bool {
	s, ok := stages.Lookup(name)
	return ok && allowedStage(name) && !s.Writes()
}

// checkReadOnly refuses any command of a read-only client that could
// change a database, or that is unbounded.
func (p policy) checkReadOnly(cmd bson.D) error {
	if len(cmd) == 0 {
		return p.refuse("", "an empty command")
	}
	name := cmd[0].Key
	rule, ok := readOnlyCommands[name]
	if !ok {
		return p.refuse(name, "advise only reads, and this command is not one of its reads")
	}
	dbs := 0
	hasMaxTime := false
	for _, e := range cmd {
		switch e.Key {
		case "$db":
			if _, ok := e.Value.(string); !ok {
				return p.refuse(name, "its $db is not a string")
			}
			dbs++
		case "maxTimeMS":
			hasMaxTime = true
		}
	}
	if dbs != 1 {
		return p.refuse(name, "it does not name exactly one $db")
	}
	if rule.bounded && !hasMaxTime {
		return p.refuse(name, "it has no maxTimeMS, and advise bounds every read")
	}
	if name == "aggregate" {
		// Every copy of a duplicated pipeline, whichever one a server reads.
		err := eachKey(cmd, "pipeline", func(v any) error {
			return p.checkStages(name, v, 0, readOnlyStage, "advise only reads, and will not send the stage ")
		})
		if err != nil {
			return err
		}
	}
	// Belt and braces: a writing stage's name anywhere in the command, in
	// a sub-pipeline or in a place no one thought of, refuses it.
	return p.noWriteStage(name, cmd, 0)
}

// noWriteStage walks all of v for a key that names a writing stage.
func (p policy) noWriteStage(name string, v any, depth int) error {
	if depth > maxWalkDepth {
		return p.refuse(name, "it is nested too deeply to check")
	}
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			if s, ok := stages.Lookup(e.Key); ok && s.Writes() {
				return p.refuse(name, "advise only reads, and `"+e.Key+"` writes")
			}
			if err := p.noWriteStage(name, e.Value, depth+1); err != nil {
				return err
			}
		}
	case bson.A:
		for _, e := range x {
			if err := p.noWriteStage(name, e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
