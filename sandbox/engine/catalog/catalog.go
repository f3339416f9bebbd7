// Package catalog holds the engine's databases and collections: records in
// natural order with stable RecordIDs, their indexes, and the namespace
// rules mongod enforces. It takes no locks: the engine serialises writers
// and shares readers, and stored documents are never mutated after they
// are stored (copy-on-write), so results stay valid once handed out.
package catalog

import (
	"crypto/rand"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
)

// FilterCompiler compiles a partialFilterExpression into a matcher. The
// engine passes one built on query.Compile; keeping it a function keeps
// storage independent of the query language.
type FilterCompiler func(filter bson.D) (func(bson.D) bool, error)

// Catalog is every database of one engine.
type Catalog struct {
	dbs     map[string]*Database
	compile FilterCompiler
}

// Database is a named set of collections.
type Database struct {
	Name  string
	colls map[string]*Collection
}

// New returns an empty catalog.
func New(compile FilterCompiler) *Catalog {
	return &Catalog{dbs: map[string]*Database{}, compile: compile}
}

// Database returns the named database, or nil when it has no collections.
func (c *Catalog) Database(name string) *Database { return c.dbs[name] }

// DatabaseNames lists databases in name order.
func (c *Catalog) DatabaseNames() []string {
	names := make([]string, 0, len(c.dbs))
	for n := range c.dbs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Collection returns db.coll, or nil when it does not exist.
func (c *Catalog) Collection(db, coll string) *Collection {
	if d := c.dbs[db]; d != nil {
		return d.colls[coll]
	}
	return nil
}

// EnsureCollection returns db.coll, creating it as a write to a missing
// collection does.
func (c *Catalog) EnsureCollection(db, coll string) (*Collection, error) {
	if col := c.Collection(db, coll); col != nil {
		return col, nil
	}
	return c.CreateCollection(db, coll, nil)
}

// CreateCollection creates db.coll explicitly; options are stored and
// listed by listCollections as given. It fails with NamespaceExists when
// the collection exists.
func (c *Catalog) CreateCollection(db, coll string, options bson.D) (*Collection, error) {
	if err := ValidateNamespace(db, coll); err != nil {
		return nil, err
	}
	if c.Collection(db, coll) != nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceExists, "Collection %s.%s already exists.", db, coll)
	}
	col := newCollection(db, coll, options, c.compile)
	d := c.dbs[db]
	if d == nil {
		d = &Database{Name: db, colls: map[string]*Collection{}}
		c.dbs[db] = d
	}
	d.colls[coll] = col
	return col, nil
}

// DropCollection removes db.coll and reports whether it existed. A
// database left without collections disappears, as in mongod.
func (c *Catalog) DropCollection(db, coll string) bool {
	d := c.dbs[db]
	if d == nil || d.colls[coll] == nil {
		return false
	}
	delete(d.colls, coll)
	if len(d.colls) == 0 {
		delete(c.dbs, db)
	}
	return true
}

// DropDatabase removes a database and reports whether it existed.
func (c *Catalog) DropDatabase(db string) bool {
	_, ok := c.dbs[db]
	delete(c.dbs, db)
	return ok
}

// RenameCollection moves fromDB.from to toDB.to, keeping records, indexes
// and UUID. With dropTarget an existing target is dropped first.
func (c *Catalog) RenameCollection(fromDB, from, toDB, to string, dropTarget bool) error {
	if err := ValidateNamespace(toDB, to); err != nil {
		return err
	}
	src := c.Collection(fromDB, from)
	if src == nil {
		return mongoerr.Newf(mongoerr.NamespaceNotFound, "Source collection %s.%s does not exist", fromDB, from)
	}
	if fromDB == toDB && from == to {
		return mongoerr.New(mongoerr.IllegalOperation, "Can't rename a collection to itself")
	}
	if c.Collection(toDB, to) != nil {
		if !dropTarget {
			return mongoerr.New(mongoerr.NamespaceExists, "target namespace exists")
		}
		c.DropCollection(toDB, to)
	}
	c.DropCollection(fromDB, from)
	src.DB, src.Name = toDB, to
	d := c.dbs[toDB]
	if d == nil {
		d = &Database{Name: toDB, colls: map[string]*Collection{}}
		c.dbs[toDB] = d
	}
	d.colls[to] = src
	return nil
}

// Collections lists a database's collections in name order.
func (d *Database) Collections() []*Collection {
	out := make([]*Collection, 0, len(d.colls))
	for _, c := range d.colls {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Collection) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ValidateNamespace applies mongod's rules for database and collection
// names.
func ValidateNamespace(db, coll string) error {
	if err := ValidateDBName(db); err != nil {
		return err
	}
	return ValidateCollectionName(db, coll)
}

// ValidateDBName rejects names mongod refuses: empty, too long, or
// containing / \ . space " $ or NUL.
func ValidateDBName(db string) error {
	if db == "" || len(db) >= 64 || strings.ContainsAny(db, "/\\. \"$\x00") {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid database name: '%s'", db)
	}
	return nil
}

// allowedSystemCollections are the system.* names a user may create.
var allowedSystemCollections = map[string]bool{
	"system.js": true, "system.views": true, "system.profile": true,
	"system.buckets": true, "system.users": true, "system.roles": true,
}

// ValidateCollectionName rejects names mongod refuses.
func ValidateCollectionName(db, coll string) error {
	if coll == "" {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s.'", db)
	}
	if strings.ContainsAny(coll, "$\x00") || strings.HasPrefix(coll, ".") {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid collection name: %s", coll)
	}
	if strings.HasPrefix(coll, "system.") && !allowedSystemCollections[coll] && !strings.HasPrefix(coll, "system.buckets.") {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid system namespace: %s.%s", db, coll)
	}
	if len(db)+1+len(coll) > 255 {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Fully qualified namespace is too long. Namespace: %s.%s Max: 255", db, coll)
	}
	return nil
}

func newUUID() bson.Binary {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return bson.Binary{Subtype: 4, Data: b}
}
