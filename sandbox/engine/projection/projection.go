// Package projection is mongod 8.0's projection, for find() and for the
// aggregation stages $project, $unset and $addFields/$set: inclusion and
// exclusion with the _id default, dotted paths through arrays, aggregation
// expressions as computed fields, and for find the find-only operators
// $slice, $elemMatch and positional $. As in mongod, find and $project
// share one parser (projection_parser.cpp) under different policies, and
// all of them one executor.
package projection

import (
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Options carries the command context: $$NOW and let variables for
// expressions, and the query filter, which positional $ projections must
// refer to.
type Options struct {
	Now     bson.DateTime
	LetVars bson.D
	Filter  *query.Filter // the find's filter; nil means {}
	// Aggregation selects mongod's aggregateProjectionPolicies: the
	// find-only operators are refused ($slice is the expression), a $meta
	// makes an inclusion, and the parser's own errors carry $project's
	// context "Invalid $project :: caused by :: ".
	Aggregation bool
	// Stage names the aggregation stage in the context of its parse errors
	// ("Invalid $set :: caused by :: ..."); "" is $project for Compile
	// and $addFields for CompileAddFields.
	Stage string
	// Scope is the scope expressions compile in (a pipeline's, with its
	// variables); nil makes one of LetVars.
	Scope *expr.Scope
	// RecordIDs: the projection runs over a plan's documents, so
	// {$meta: "recordId"} reads the record each came from (a find's
	// projection, where showRecordId adds one).
	RecordIDs bool
	// SortKeys: {$meta: "sortKey"} may be compiled, because the command
	// hands each document's sort key to ApplyMeta (find) or refuses the
	// projection before any document is projected (findAndModify).
	SortKeys bool
}

// Projection is a compiled projection; immutable and safe for concurrent
// use.
type Projection struct {
	spec      bson.D
	inclusion bool
	addFields bool // $addFields: the input plus the computed fields
	root      *node
	// idExcluded is a top-level _id: 0; idDefaulted says that the
	// inclusion's _id was added because the spec did not name it.
	idExcluded  bool
	idDefaulted bool
	computes    bool // the tree holds expressions or $elemMatch

	simple        bool
	topLevelOnly  bool // an inclusion of top-level fields and nothing else
	hasPositional bool
	env           exprContext
	// required and needsDocument are what RequiredFields reports.
	required      []string
	needsDocument bool
	// indexKey: some expression reads {$meta: "indexKey"}, so the plan
	// must keep each document's index key for it.
	indexKey bool
	// sortKey: some expression reads {$meta: "sortKey"}, so the plan must
	// keep each document's sort key for it.
	sortKey bool
	// recordID: some expression reads {$meta: "recordId"}.
	recordID bool
}

// kind is what a projection tree node does with its field.
type kind int

const (
	kindInclude kind = iota
	kindExclude
	kindSubtree
	kindExpr
	kindSlice
	kindElemMatch
	kindPositional
)

type node struct {
	children []*child
}

type child struct {
	name string
	kind kind
	sub  *node

	expr      compiledExpr
	spec      any // the expression as given, for explain
	skip      int
	hasSkip   bool
	limit     int
	elemMatch *query.Filter
}

func (n *node) get(name string) *child {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Simple reports whether explain shows PROJECTION_SIMPLE: only inclusions
// or exclusions of top-level fields.
func (p *Projection) Simple() bool { return p.simple }

// NeedsIndexKey reports whether the projection reads the index key
// metadata, which the plan then records (mongod's addKeyMetadata, set
// from the query's metadata dependencies).
func (p *Projection) NeedsIndexKey() bool { return p.indexKey }

// NeedsSortKey reports whether the projection reads {$meta: "sortKey"}
// (the kSortKey bit of projection_ast::Projection::metadataDeps).
func (p *Projection) NeedsSortKey() bool { return p.sortKey }

// NeedsRecordID reports whether the projection reads {$meta: "recordId"}
// (the kRecordId bit of metadataDeps), as showRecordId's does.
func (p *Projection) NeedsRecordID() bool { return p.recordID }

// NeedsPosition reports whether the projection uses the positional $
// operator, so that the caller must pass the matched array index.
func (p *Projection) NeedsPosition() bool { return p.hasPositional }

// Serialize is explain's transformBy: the projection as the user gave it.
func (p *Projection) Serialize() bson.D { return p.spec }

// Inclusion reports whether the projection keeps only the fields it names
// (false for an exclusion and for $addFields).
func (p *Projection) Inclusion() bool { return p.inclusion && !p.addFields }

// ExcludesID reports a top-level _id: 0.
func (p *Projection) ExcludesID() bool { return p.idExcluded }

// Transformation is the projection as an aggregation stage's explain shows
// it: true and false for inclusions and exclusions, expressions as given,
// and mongod's _id rule made explicit: an inclusion starts with _id (true
// unless excluded), an exclusion that does not name _id ends with _id:
// true.
func (p *Projection) Transformation() bson.D {
	switch {
	case p.addFields:
	case p.inclusion && p.idExcluded:
		return append(bson.D{{Key: "_id", Value: false}}, serializeNode(p.root, "_id")...)
	case p.inclusion && p.idDefaulted:
		return append(bson.D{{Key: "_id", Value: true}}, serializeNode(p.root, "_id")...)
	case !p.inclusion && p.root.get("_id") == nil:
		return append(serializeNode(p.root, ""), bson.E{Key: "_id", Value: true})
	}
	return serializeNode(p.root, "")
}

// serializeNode renders n's children but the one named skip.
func serializeNode(n *node, skip string) bson.D {
	out := make(bson.D, 0, len(n.children))
	for _, c := range n.children {
		if c.name == skip {
			continue
		}
		switch c.kind {
		case kindInclude:
			out = append(out, bson.E{Key: c.name, Value: true})
		case kindExclude:
			out = append(out, bson.E{Key: c.name, Value: false})
		case kindExpr:
			out = append(out, bson.E{Key: c.name, Value: c.spec})
		case kindSubtree:
			out = append(out, bson.E{Key: c.name, Value: serializeNode(c.sub, "")})
		}
	}
	return out
}
