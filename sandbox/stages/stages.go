// Package stages describes the aggregation stages of MongoDB 8.0: where
// each may stand in a pipeline, and which collections it reads and writes.
// It is a leaf: the embedded engine binds every descriptor to its parser,
// and the guard and lessons walk pipelines with it without linking the
// engine, so a stage's facts live in one place.
package stages

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Stage is what is known of one stage before parsing it: mongod's
// StageConstraints (src/mongo/db/pipeline/stage_constraints.h) and the
// namespaces its specification names.
type Stage struct {
	Name string
	// FirstOnly: PositionRequirement::kFirst, "... is only valid as the
	// first stage in a pipeline".
	FirstOnly bool
	// LastOnly: PositionRequirement::kLast, "... can only be the final
	// stage in the pipeline".
	LastOnly bool
	// NotInFacet, NotInLookup and NotInUnionWith are the Facet-, Lookup-
	// and UnionRequirement::kNotAllowed of the stage: refused inside
	// $facet, and inside $lookup's and $unionWith's sub-pipelines.
	NotInFacet     bool
	NotInLookup    bool
	NotInUnionWith bool
	// Collectionless: isIndependentOfAnyCollection, the stages that run
	// as {aggregate: 1}.
	Collectionless bool
	// NoInput: requiresInputDocSource false, a first stage that makes its
	// own documents from the collection's statistics, so the pipeline
	// reads no documents of it (PipelineD::buildInnerQueryExecutor builds
	// no $cursor before it).
	NoInput bool
	// ServerWide stages read the server's state rather than a database's
	// (operations, sessions, query statistics, the catalog of every
	// database).
	ServerWide bool
	// Internal stages are the server's own plumbing, which clients do not
	// send.
	Internal bool
	// InternalClientOnly stages are registered for internal clients alone
	// (REGISTER_INTERNAL_DOCUMENT_SOURCE, AllowedWithClientType::kInternal):
	// any other client is refused them before anything else is checked.
	InternalClientOnly bool
	// API is how the stage is allowed under apiStrict: true in API
	// Version 1: the AllowedWithApiStrict its registration gives
	// (allowed_contexts.h; document_source_*.cpp).
	API APIStrict

	// target says where the stage names a collection: the key of its
	// specification ("from", "coll", "into"), or "" for a stage that
	// names none; self is true when the specification may be the bare
	// collection name ($out: "c", $unionWith: "c", $merge: "c").
	target string
	self   bool
	write  bool
	// pipelines lists the keys of the specification that hold
	// sub-pipelines ("*" for every key, as $facet has).
	pipelines []string
}

// APIStrict is a stage's AllowedWithApiStrict.
type APIStrict int

const (
	// APIAlways: allowed.
	APIAlways APIStrict = iota
	// APINeverInVersion1: refused, "... is not allowed with 'apiStrict:
	// true' in API Version 1".
	APINeverInVersion1
	// APIInternal: refused to clients, "... cannot be specified with
	// 'apiStrict: true' in API Version 1".
	APIInternal
	// APIConditionally: the stage's own check decides, from its
	// specification ($collStats, $changeStream, $lookup).
	APIConditionally
)

// Ref is one collection a stage's specification names.
type Ref struct {
	Stage string // "$lookup"
	// Field is where in the specification the database was named ("db",
	// "from.db", "into.db"), or where the collection was when no database
	// was.
	Field string
	// DB is the database named; HasDB is false when there is none (the
	// command's own database is meant).
	DB    string
	HasDB bool
	// Malformed: the database is named by something other than a string,
	// which servers refuse.
	Malformed bool
	Coll      string
	// Write: the stage writes the collection ($out, $merge); it reads it
	// otherwise.
	Write bool
}

var all = []*Stage{
	// The internal stages clients may send to mongod: time series reads
	// are rewritten into $_internalUnpackBucket, and tests keep a
	// pipeline from being pushed into the query layer with
	// $_internalInhibitOptimization.
	{Name: "$_internalBoundedSort", Internal: true, InternalClientOnly: true, API: APIInternal},
	{Name: "$_internalDensify", Internal: true, InternalClientOnly: true, API: APIInternal},
	{Name: "$_internalInhibitOptimization", Internal: true, API: APINeverInVersion1},
	{Name: "$_internalSplitPipeline", Internal: true, API: APINeverInVersion1},
	{Name: "$_internalStreamingGroup", Internal: true},
	{Name: "$_internalUnpackBucket", Internal: true},
	{Name: "$_unpackBucket", Internal: true},
	{Name: "$addFields"},
	{Name: "$bucket"},
	{Name: "$bucketAuto"},
	{Name: "$changeStream", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, API: APIConditionally},
	{Name: "$changeStreamSplitLargeEvent", LastOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, API: APINeverInVersion1},
	{Name: "$collStats", FirstOnly: true, NoInput: true, NotInFacet: true, API: APIConditionally},
	{Name: "$count"},
	{Name: "$currentOp", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$densify"},
	{Name: "$documents", FirstOnly: true, NotInFacet: true, Collectionless: true},
	{Name: "$facet", NotInFacet: true, pipelines: []string{"*"}},
	{Name: "$fill", API: APINeverInVersion1},
	{Name: "$geoNear", FirstOnly: true, NotInFacet: true},
	{Name: "$graphLookup", target: "from"},
	{Name: "$group"},
	{Name: "$indexStats", FirstOnly: true, NoInput: true, NotInFacet: true, API: APINeverInVersion1},
	{Name: "$limit"},
	{Name: "$listCatalog", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$listClusterCatalog", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$listLocalSessions", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$listSampledQueries", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$listSearchIndexes", FirstOnly: true, NoInput: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, API: APINeverInVersion1},
	{Name: "$listSessions", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$lookup", target: "from", pipelines: []string{"pipeline"}, API: APIConditionally},
	{Name: "$match"},
	{Name: "$merge", LastOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, target: "into", self: true, write: true, pipelines: []string{"whenMatched"}},
	// $mergeCursors is how mongos and shards merge remote cursors
	// (document_source_merge_cursors.h: kFirst, not in $facet, $lookup or
	// $unionWith).
	{Name: "$mergeCursors", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Internal: true, API: APIInternal},
	{Name: "$out", LastOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, target: "coll", self: true, write: true},
	{Name: "$planCacheStats", FirstOnly: true, NoInput: true, NotInFacet: true, API: APINeverInVersion1},
	{Name: "$project"},
	{Name: "$querySettings", FirstOnly: true, NotInFacet: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$queryStats", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true, API: APINeverInVersion1},
	{Name: "$redact"},
	{Name: "$replaceRoot"},
	{Name: "$replaceWith"},
	{Name: "$sample"},
	{Name: "$search", FirstOnly: true, NotInFacet: true, API: APINeverInVersion1},
	{Name: "$searchMeta", FirstOnly: true, NotInFacet: true, API: APINeverInVersion1},
	{Name: "$set"},
	{Name: "$setWindowFields"},
	{Name: "$shardedDataDistribution", FirstOnly: true, NotInFacet: true, NotInLookup: true, NotInUnionWith: true, Collectionless: true, ServerWide: true},
	{Name: "$skip"},
	{Name: "$sort"},
	{Name: "$sortByCount"},
	{Name: "$unionWith", target: "coll", self: true, pipelines: []string{"pipeline"}},
	{Name: "$unset"},
	{Name: "$unwind"},
	{Name: "$vectorSearch", FirstOnly: true, NotInFacet: true, API: APINeverInVersion1},
}

// byName indexes all; it is built once and never changed.
var byName = func() map[string]*Stage {
	m := make(map[string]*Stage, len(all))
	for _, s := range all {
		m[s.Name] = s
	}
	return m
}()

// Lookup returns the descriptor of the stage name.
func Lookup(name string) (*Stage, bool) {
	s, ok := byName[name]
	return s, ok
}

// All returns every descriptor, sorted by name.
func All() []*Stage { return slices.Clone(all) }

// Refs calls emit with every collection spec names, this stage's own and
// not those of its sub-pipelines. A database named twice (a duplicated
// field) is reported in each of its copies, whichever a server would
// read; a database beside the collection ({db, coll} as $out has) and one
// inside the collection's field ({from: {db, coll}}) both count.
func (s *Stage) Refs(spec any, emit func(Ref)) {
	if s.target == "" {
		return
	}
	ref := Ref{Stage: s.Name, Write: s.write}
	switch x := spec.(type) {
	case string:
		if s.self {
			ref.Field, ref.Coll = s.target, x
			emit(ref)
		}
	case bson.D:
		var coll string
		var sibling []any // "db" beside the collection
		inner := false
		for _, e := range x {
			switch e.Key {
			case "db":
				sibling = append(sibling, e.Value)
			case s.target:
				switch t := e.Value.(type) {
				case string:
					coll = t
				case bson.D:
					inner = true
					refsOf(ref, s.target+".db", t, emit)
				}
			}
		}
		if len(sibling) == 0 && !inner {
			if coll != "" {
				ref.Field, ref.Coll = s.target, coll
				emit(ref)
			}
			return
		}
		for _, db := range sibling {
			r := ref
			r.Field, r.Coll = "db", coll
			emit(withDB(r, db))
		}
	}
}

// refsOf reports a {db, coll} document: one Ref per copy of db, or one
// without a database when it names none.
func refsOf(ref Ref, field string, d bson.D, emit func(Ref)) {
	var dbs []any
	for _, e := range d {
		switch e.Key {
		case "db":
			dbs = append(dbs, e.Value)
		case "coll":
			ref.Coll, _ = e.Value.(string)
		}
	}
	if len(dbs) == 0 {
		ref.Field = field[:len(field)-len(".db")]
		emit(ref)
		return
	}
	ref.Field = field
	for _, db := range dbs {
		emit(withDB(ref, db))
	}
}

func withDB(r Ref, db any) Ref {
	r.HasDB = true
	if s, ok := db.(string); ok {
		r.DB = s
	} else {
		r.Malformed = true
	}
	return r
}

// Writes reports whether the stage writes a collection ($out, $merge),
// which makes an aggregate that ends with it a write.
func (s *Stage) Writes() bool { return s.write }

// Pipelines returns the sub-pipelines in spec, as given (a server refuses
// the ones that are not arrays of documents).
func (s *Stage) Pipelines(spec any) []any {
	d, ok := spec.(bson.D)
	if !ok || len(s.pipelines) == 0 {
		return nil
	}
	var out []any
	for _, e := range d {
		if s.pipelines[0] == "*" || slices.Contains(s.pipelines, e.Key) {
			out = append(out, e.Value)
		}
	}
	return out
}

// maxDepth bounds Walk's recursion; a decoded document is never nested
// this deeply (BSON allows 100 levels of the command around it too).
const maxDepth = 200

// Walk calls emit with every collection pipeline names, at any depth of
// its sub-pipelines ($facet, $lookup, $unionWith, $merge's whenMatched).
// Elements that are not stage documents are skipped: a server refuses
// them.
func Walk(pipeline any, emit func(Ref)) { walk(pipeline, emit, 0) }

func walk(pipeline any, emit func(Ref), depth int) {
	arr, ok := pipeline.(bson.A)
	if !ok || depth > maxDepth {
		return
	}
	for _, st := range arr {
		d, ok := st.(bson.D)
		if !ok {
			continue
		}
		for _, e := range d {
			s, ok := Lookup(e.Key)
			if !ok {
				continue
			}
			s.Refs(e.Value, emit)
			for _, sub := range s.Pipelines(e.Value) {
				walk(sub, emit, depth+1)
			}
		}
	}
}
