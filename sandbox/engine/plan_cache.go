package engine

import (
	"os"
	"slices"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// planCaches holds each collection's plan cache and index filters. mongod
// hangs them on the collection (CollectionQueryInfo, a QuerySettings
// decoration), so a drop loses them and a re-created collection starts
// empty: here they are keyed by namespace and belong to one UUID, which a
// drop and a re-creation change.
type planCaches struct {
	mu   sync.Mutex
	byNS map[string]*nsPlanCache
}

type nsPlanCache struct {
	uuid  string
	cache *planner.Cache
}

// maxPlanCacheCollections is how many collections' caches are kept before
// those of collections no longer in the catalog are let go.
const maxPlanCacheCollections = 256

func newPlanCaches() *planCaches { return &planCaches{byNS: map[string]*nsPlanCache{}} }

// of returns coll's cache, a new one if its collection is new.
func (e *Engine) planCacheOf(coll *catalog.Collection) *planner.Cache {
	p := e.planCaches
	p.mu.Lock()
	defer p.mu.Unlock()
	uuid := string(coll.UUID.Data)
	if c, ok := p.byNS[coll.NS()]; ok && c.uuid == uuid {
		return c.cache
	}
	if len(p.byNS) >= maxPlanCacheCollections {
		for name, c := range p.byNS {
			db, collName, _ := strings.Cut(name, ".")
			live := e.catalog.Snapshot(db, collName)
			if live == nil || string(live.UUID.Data) != c.uuid {
				delete(p.byNS, name)
			}
		}
		if len(p.byNS) >= maxPlanCacheCollections {
			// Every cached collection still exists: one loses its cache,
			// as mongod's size-bounded cache loses entries.
			for name := range p.byNS {
				delete(p.byNS, name)
				break
			}
		}
	}
	c := &nsPlanCache{uuid: uuid, cache: planner.NewCache()}
	p.byNS[coll.NS()] = c
	return c.cache
}

// planCacheCollection resolves a plan cache command's collection: views
// are refused as AutoGetCollectionForReadCommand refuses them; nil when
// the collection does not exist.
func (e *Engine) planCacheCollection(req *request) (*catalog.Collection, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	if e.isView(req.db, collName) {
		return nil, viewCommandRefusal(req.name, ns(req.db, collName))
	}
	return e.catalog.Snapshot(req.db, collName), nil
}

// planCacheShape is plan_cache_commands::canonicalize: query is required,
// sort, projection and collation optional, each an object; the filter is
// parsed as a find's would be.
func planCacheShape(req *request, coll *catalog.Collection) (string, planner.Shape, error) {
	a := newArgs(req)
	var shape planner.Shape
	qv, ok := a.get("query")
	if !ok {
		return "", shape, mongoerr.New(mongoerr.BadValue, "required field query missing")
	}
	filter, ok := qv.(bson.D)
	if !ok {
		return "", shape, mongoerr.New(mongoerr.BadValue, "required field query must be an object")
	}
	shape.Filter = filter
	for _, opt := range []struct {
		name string
		dst  *bson.D
	}{{"sort", &shape.Sort}, {"projection", &shape.Projection}, {"collation", nil}} {
		v, ok := a.get(opt.name)
		if !ok {
			continue
		}
		d, isDoc := v.(bson.D)
		if !isDoc {
			return "", shape, mongoerr.Newf(mongoerr.BadValue, "optional field %s must be an object", opt.name)
		}
		if opt.dst != nil {
			*opt.dst = d
		}
	}
	if err := checkCollation(a); err != nil {
		return "", shape, err
	}
	var f *query.Filter
	if len(filter) > 0 {
		var err error
		if f, err = query.Compile(filter, query.Options{Now: req.now, JSONSchema: validation.CompileSchema}); err != nil {
			return "", shape, err
		}
	}
	if err := validateSort(shape.Sort); err != nil {
		return "", shape, err
	}
	shape.Filter, shape.Sort, shape.Projection = orEmptyDoc(shape.Filter), orEmptyDoc(shape.Sort), orEmptyDoc(shape.Projection)
	return planner.ShapeHash(coll.NS(), f, shape.Sort, shape.Projection), shape, nil
}

func orEmptyDoc(d bson.D) bson.D {
	if d == nil {
		return bson.D{}
	}
	return d
}

// cmdPlanCacheSetFilter is SetFilter::set (index_filter_commands.cpp):
// indexes, a non-empty array of key patterns and index names, restricts
// the planner to those indexes for one query shape.
func cmdPlanCacheSetFilter(e *Engine, req *request) (bson.D, error) {
	coll, err := e.planCacheCollection(req)
	if err != nil {
		return nil, err
	}
	if coll == nil {
		return nil, mongoerr.New(mongoerr.BadValue, "no such collection")
	}
	a := newArgs(req)
	raw, ok := a.get("indexes")
	if !ok {
		return nil, mongoerr.New(mongoerr.BadValue, "required field indexes missing")
	}
	list, ok := raw.(bson.A)
	if !ok {
		return nil, mongoerr.New(mongoerr.BadValue, "required field indexes must be an array")
	}
	if len(list) == 0 {
		return nil, mongoerr.New(mongoerr.BadValue, "required field indexes must contain at least one index")
	}
	var keys []bson.D
	var names []string
	for _, v := range list {
		switch x := v.(type) {
		case bson.D:
			if len(x) == 0 {
				return nil, mongoerr.New(mongoerr.BadValue, "index specification cannot be empty")
			}
			keys = appendKeyPattern(keys, x)
		case string:
			if !slices.Contains(names, x) {
				names = append(names, x)
			}
		default:
			return nil, mongoerr.New(mongoerr.BadValue, "each item in indexes must be an object or string")
		}
	}
	hash, shape, err := planCacheShape(req, coll)
	if err != nil {
		return nil, err
	}
	if err := e.planCacheOf(coll).SetFilter(hash, shape, keys, names); err != nil {
		return nil, err
	}
	return bson.D{{Key: "ok", Value: 1.0}}, nil
}

// cmdPlanCacheListFilters is ListFilters::list: no collection has no
// filters.
func cmdPlanCacheListFilters(e *Engine, req *request) (bson.D, error) {
	coll, err := e.planCacheCollection(req)
	if err != nil {
		return nil, err
	}
	filters := bson.A{}
	if coll != nil {
		filters = e.planCacheOf(coll).ListFilters()
	}
	return bson.D{{Key: "filters", Value: filters}, {Key: "ok", Value: 1.0}}, nil
}

// cmdPlanCacheClearFilters is ClearFilters::clear: one shape's filter, or
// (with no query, and then no sort, projection or collation either) all
// of them; a missing collection has nothing to clear.
func cmdPlanCacheClearFilters(e *Engine, req *request) (bson.D, error) {
	return e.clearByShape(req, func(c *planner.Cache, hash string, all bool) { c.ClearFilters(hash, all) })
}

// cmdPlanCacheClear is plan_cache_clear_command.cpp's clear: one shape's
// entries, or the collection's whole cache.
func cmdPlanCacheClear(e *Engine, req *request) (bson.D, error) {
	return e.clearByShape(req, func(c *planner.Cache, hash string, all bool) { c.Clear(hash, all) })
}

func (e *Engine) clearByShape(req *request, clear func(c *planner.Cache, hash string, all bool)) (bson.D, error) {
	coll, err := e.planCacheCollection(req)
	if err != nil {
		return nil, err
	}
	ok := bson.D{{Key: "ok", Value: 1.0}}
	if coll == nil {
		return ok, nil
	}
	a := newArgs(req)
	if _, has := a.get("query"); has {
		hash, _, err := planCacheShape(req, coll)
		if err != nil {
			return nil, err
		}
		clear(e.planCacheOf(coll), hash, false)
		return ok, nil
	}
	for _, f := range []string{"sort", "projection", "collation"} {
		if _, has := a.get(f); has {
			return nil, mongoerr.New(mongoerr.BadValue, "sort, projection, or collation provided without query")
		}
	}
	clear(e.planCacheOf(coll), "", true)
	return ok, nil
}

// appendKeyPattern adds k unless an equal pattern is there, keeping them
// in BSON order, as the BSONObjSet mongod stores them in does.
func appendKeyPattern(keys []bson.D, k bson.D) []bson.D {
	for i, have := range keys {
		switch c := value.Compare(have, k); {
		case c == 0:
			return keys
		case c > 0:
			return append(keys[:i], append([]bson.D{k}, keys[i:]...)...)
		}
	}
	return append(keys, k)
}

// planCacheStats is $planCacheStats' source: the collection's entries
// (getMatchingPlanCacheEntryStats), each with the host that holds them.
func (e *Engine) planCacheStats(db, coll string) ([]bson.D, error) {
	c := e.catalog.Snapshot(db, coll)
	if c == nil {
		return nil, mongoerr.Newf(mongoerr.ErrPlanCacheStatsNoCollection, "collection '%s' does not exist", ns(db, coll))
	}
	host, _ := os.Hostname()
	return e.planCacheOf(c).Stats(c, host), nil
}
