package timeseries

import (
	"maps"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The bucket catalog is memory beside the data: its open buckets point at
// stored bucket documents and its statistics count the inserts that made
// them. When the data of a database is replaced wholesale (dropped, or
// restored from a schemalabSnapshot) the catalog must follow, or open
// buckets would pile up for collections that no longer exist and
// statistics would count inserts the restore undid. A snapshot therefore
// saves the catalog's state of its database with the data, and a restore
// puts that state back, so that restoring is the same as having replayed
// the steps up to the snapshot.

// Saved is the bucket catalog state of one database's time-series
// collections, by buckets collection name.
type Saved map[string]*collState

// ForgetDatabase drops the state of every time-series collection of db.
func (c *Catalog) ForgetDatabase(db string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, s := range c.colls {
		if s.db == db {
			delete(c.colls, k)
		}
	}
}

// Save copies the state of db's time-series collections.
func (c *Catalog) Save(db string) Saved {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := Saved{}
	for _, s := range c.colls {
		if s.db == db {
			s.mu.Lock()
			out[s.name] = s.clone()
			s.mu.Unlock()
		}
	}
	return out
}

// Restore replaces db's state with a copy of saved, attached to the
// buckets collections of db's restored data (found by name, since a
// restore into another database gives them new UUIDs).
func (c *Catalog) Restore(db string, saved Saved, collection func(name string) *catalog.Collection) {
	c.ForgetDatabase(db)
	// The collections are found before the lock is taken: finding one
	// may wait for its write lock, and a writer holding that asks for its
	// state (Catalog.state) under this lock.
	found := make(map[string]*catalog.Collection, len(saved))
	for name := range saved {
		if buckets := collection(name); buckets != nil {
			found[name] = buckets
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, buckets := range found {
		restored := saved[name].clone()
		restored.db = db
		c.colls[string(buckets.UUID.Data)] = restored
	}
}

func (s *collState) clone() *collState {
	out := &collState{db: s.db, name: s.name, stats: s.stats,
		open: make(map[string]*bucket, len(s.open)), archived: make(map[string][]*bucket, len(s.archived))}
	for k, b := range s.open {
		out.open[k] = b.clone()
	}
	for k, bs := range s.archived {
		cp := make([]*bucket, len(bs))
		for i, b := range bs {
			cp[i] = b.clone()
		}
		out.archived[k] = cp
	}
	return out
}

// clone copies what Insert mutates: the columns it appends to and the
// control min and max it merges into; stored documents are immutable.
func (b *bucket) clone() *bucket {
	cp := *b
	cp.fields = slices.Clone(b.fields)
	cp.columns = maps.Clone(b.columns)
	for k, col := range cp.columns {
		cp.columns[k] = slices.Clone(col)
	}
	cp.min, _ = value.DeepCopy(b.min).(bson.D)
	cp.max, _ = value.DeepCopy(b.max).(bson.D)
	return &cp
}
