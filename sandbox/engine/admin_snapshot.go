package engine

import (
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// maxSnapshotsPerDB bounds what a client can make the server keep: each
// snapshot pins the versions of the B-tree nodes written since it was
// taken.
const maxSnapshotsPerDB = 256

// maxSnapshotsPerQuota bounds the snapshots of all the databases under one
// storage quota together (a classroom student's): databases cost nothing
// to make, so a bound per database alone would not bound a student.
const maxSnapshotsPerQuota = 256

// snapshotStore holds saved database snapshots by database, then name.
// It is guarded by Engine.snapshotsMu.
type snapshotStore map[string]map[string]*savedDatabase

// savedDatabase is a database's data and the bucket catalog's state of its
// time-series collections, saved together so that a restore leaves them
// consistent.
type savedDatabase struct {
	*catalog.Snapshot
	buckets timeseries.Saved
}

// snapshotsUnder counts the snapshots of the databases named prefix*;
// the caller holds snapshotsMu.
func (e *Engine) snapshotsUnder(prefix string) int {
	n := 0
	for db, byName := range e.snapshots {
		if vocab.InPrefix(db, prefix) {
			n += len(byName)
		}
	}
	return n
}

// cmdSnapshot answers vocab.SnapshotCommand, the embedded server's own
// command for saving and restoring whole databases in O(1):
//
//	{schemalabSnapshot: "save",    db: D, name: N}
//	{schemalabSnapshot: "restore", db: D, name: N [, fromDb: S]}
//	{schemalabSnapshot: "drop",    db: D [, name: N]}
//	{schemalabSnapshot: "list",    db: D}
//	{schemalabSnapshot: "persist", db: D, name: N, file: F}
//	{schemalabSnapshot: "load",    db: D, name: N, file: F}
//
// persist writes snapshot N to the file F of the engine's snapshot
// directory (Options.SnapshotDir), and load reads such a file back as
// snapshot N of D: a learner's course keeps the states its lessons build
// across runs. A server without a snapshot directory refuses both.
//
// db defaults to the command's $db; fromDb (restore) names the database
// the snapshot was taken of and defaults to db, so a classroom can give a
// student a copy of a shared template. mongod has no such command and
// answers CommandNotFound, which is how the lessons runner knows to
// replay steps instead; the name carries our product's prefix so that it
// can never collide with one of mongod's.
func cmdSnapshot(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "db", "name", "fromDb", "file"); err != nil {
		return nil, err
	}
	action, ok := req.cmd[0].Value.(string)
	if !ok {
		return nil, a.wrongType(vocab.SnapshotCommand, req.cmd[0].Value, "string")
	}
	db, hasDB, err := a.str("db")
	if err != nil {
		return nil, err
	}
	if !hasDB {
		db = req.db
	}
	if err := catalog.ValidateDBName(db); err != nil {
		return nil, err
	}
	name, hasName, err := a.str("name")
	if err != nil {
		return nil, err
	}
	if hasName && (name == "" || strings.ContainsRune(name, 0)) {
		return nil, mongoerr.New(mongoerr.BadValue, "snapshot name must be a non-empty string")
	}
	needName := func() error {
		if !hasName {
			return mongoerr.Newf(mongoerr.IDLFailedToParse,
				"BSON field '%s.name' is missing but a required field", vocab.SnapshotCommand)
		}
		return nil
	}

	if action == "persist" || action == "load" {
		// The file's I/O runs outside snapshotsMu: the snapshot itself is
		// immutable, and other databases' commands need not wait.
		if err := needName(); err != nil {
			return nil, err
		}
		file, hasFile, err := a.str("file")
		if err != nil {
			return nil, err
		}
		path, err := e.snapshotFilePath(file, hasFile)
		if err != nil {
			return nil, err
		}
		if action == "persist" {
			e.snapshotsMu.Lock()
			s := e.snapshots[db][name]
			e.snapshotsMu.Unlock()
			if s == nil {
				return nil, mongoerr.Newf(mongoerr.NoSuchKey, "no snapshot named '%s' of database %s", name, db)
			}
			n, err := persistSnapshot(path, s)
			if err != nil {
				return nil, err
			}
			return bson.D{{Key: "persisted", Value: name}, {Key: "db", Value: db}, {Key: "file", Value: file}, {Key: "bytes", Value: n}}, nil
		}
		s, err := e.loadSnapshot(path, db, time.Now())
		if err != nil {
			return nil, err
		}
		e.snapshotsMu.Lock()
		defer e.snapshotsMu.Unlock()
		if err := e.admitSnapshot(db, name); err != nil {
			return nil, err
		}
		e.snapshots[db][name] = s
		return bson.D{
			{Key: "loaded", Value: name},
			{Key: "db", Value: db},
			{Key: "collections", Value: int32(s.Collections())},
			{Key: "documents", Value: int64(s.Documents())},
		}, nil
	}

	e.snapshotsMu.Lock()
	defer e.snapshotsMu.Unlock()
	switch action {
	case "save":
		if err := needName(); err != nil {
			return nil, err
		}
		if err := e.admitSnapshot(db, name); err != nil {
			return nil, err
		}
		s := &savedDatabase{Snapshot: e.catalog.SnapshotDatabase(db, time.Now()), buckets: e.buckets.Save(db)}
		e.snapshots[db][name] = s
		return bson.D{
			{Key: "saved", Value: name},
			{Key: "db", Value: db},
			{Key: "collections", Value: int32(s.Collections())},
			{Key: "documents", Value: int64(s.Documents())},
		}, nil
	case "restore":
		if err := needName(); err != nil {
			return nil, err
		}
		from, hasFrom, err := a.str("fromDb")
		if err != nil {
			return nil, err
		}
		if !hasFrom {
			from = db
		}
		s := e.snapshots[from][name]
		if s == nil {
			return nil, mongoerr.Newf(mongoerr.NoSuchKey, "no snapshot named '%s' of database %s", name, from)
		}
		if err := e.catalog.RestoreDatabase(db, s.Snapshot); err != nil {
			return nil, err
		}
		e.buckets.Restore(db, s.buckets, func(name string) *catalog.Collection { return e.catalog.Snapshot(db, name) })
		e.cursors.killNamespace(db, true)
		return bson.D{{Key: "restored", Value: name}, {Key: "db", Value: db}, {Key: "fromDb", Value: from}}, nil
	case "drop":
		dropped := 0
		if hasName {
			if _, ok := e.snapshots[db][name]; ok {
				delete(e.snapshots[db], name)
				dropped = 1
			}
		} else {
			dropped = len(e.snapshots[db])
			delete(e.snapshots, db)
		}
		if len(e.snapshots[db]) == 0 {
			delete(e.snapshots, db)
		}
		return bson.D{{Key: "dropped", Value: int32(dropped)}}, nil
	case "list":
		names := make([]string, 0, len(e.snapshots[db]))
		for n := range e.snapshots[db] {
			names = append(names, n)
		}
		slices.Sort(names)
		list := make(bson.A, 0, len(names))
		for _, n := range names {
			s := e.snapshots[db][n]
			list = append(list, bson.D{
				{Key: "name", Value: n},
				{Key: "collections", Value: int32(s.Collections())},
				{Key: "documents", Value: int64(s.Documents())},
				{Key: "taken", Value: bson.NewDateTimeFromTime(s.Taken)},
			})
		}
		return bson.D{{Key: "snapshots", Value: list}}, nil
	}
	return nil, mongoerr.Newf(mongoerr.BadValue,
		"%s must be \"save\", \"restore\", \"drop\", \"list\", \"persist\" or \"load\", not \"%s\"", vocab.SnapshotCommand, action)
}

// admitSnapshot makes room for snapshot name of db, within the bounds on
// what one database and one quota may keep; the caller holds
// snapshotsMu.
func (e *Engine) admitSnapshot(db, name string) error {
	byName := e.snapshots[db]
	if _, exists := byName[name]; !exists {
		if len(byName) >= maxSnapshotsPerDB {
			return mongoerr.Newf(mongoerr.IllegalOperation,
				"database %s already has %d snapshots, the most the embedded server keeps; drop some first", db, maxSnapshotsPerDB)
		}
		if q := e.catalog.QuotaFor(db); q != nil && e.snapshotsUnder(q.Prefix) >= maxSnapshotsPerQuota {
			return mongoerr.Newf(mongoerr.IllegalOperation,
				"your databases already have %d snapshots, the most the embedded server keeps for one user; drop some first", maxSnapshotsPerQuota)
		}
	}
	if byName == nil {
		e.snapshots[db] = map[string]*savedDatabase{}
	}
	return nil
}
