package catalog

import "time"

// Snapshot is a whole database frozen at one moment. It shares its records
// and index entries with the live database copy-on-write, so taking one,
// restoring one and keeping one cost O(1) until either side is written.
type Snapshot struct {
	// DB is the database the snapshot was taken of.
	DB string
	// Taken is when it was taken.
	Taken time.Time
	colls map[string]*Collection
}

// Collections is how many collections the snapshot holds.
func (s *Snapshot) Collections() int { return len(s.colls) }

// Documents is how many documents the snapshot holds.
func (s *Snapshot) Documents() int {
	n := 0
	for _, c := range s.colls {
		n += c.Count()
	}
	return n
}

// SnapshotDatabase freezes db as it is now, every collection at the same
// instant. A database without collections gives an empty snapshot, which
// restores to "no database".
func (c *Catalog) SnapshotDatabase(db string, now time.Time) *Snapshot {
	s := &Snapshot{DB: db, Taken: now, colls: map[string]*Collection{}}
	if d := c.Database(db); d != nil {
		s.colls = d.colls
	}
	return s
}

// RestoreDatabase replaces db's collections with the snapshot's, which
// stays usable for further restores. Restoring into the database the
// snapshot was taken of keeps collection UUIDs, as a restore does; into
// another database (a classroom template copied for a student) every
// collection gets a new UUID, as a new collection would. A restore that
// would grow the data of a database under a quota past it fails, and
// changes nothing.
func (c *Catalog) RestoreDatabase(db string, s *Snapshot) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.quotaFor(db); q != nil {
		var grow int64
		for _, col := range s.colls {
			grow += col.dataSize
		}
		if old := c.dbs[db]; old != nil {
			for _, col := range old.colls {
				col.live.mu.Lock()
				grow -= col.dataSize
				col.live.mu.Unlock()
			}
		}
		if grow > 0 {
			if err := q.Admit(grow); err != nil {
				return err
			}
		}
	}
	if old := c.dbs[db]; old != nil {
		for _, col := range old.colls {
			retire(col)
		}
	}
	delete(c.dbs, db)
	for _, col := range s.colls {
		// Snapshots are cloned only here, under the exclusive namespace
		// lock, so no two clones of one snapshot ever overlap.
		restored := col.clone(true)
		restored.DB, restored.ns = db, db+"."+col.Name
		if db != s.DB {
			restored.UUID = NewUUID()
		}
		c.install(restored)
	}
	return nil
}
