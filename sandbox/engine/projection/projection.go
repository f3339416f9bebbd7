// Package projection applies find() projections with mongod 8.0's rules:
// inclusion and exclusion with the _id default, dotted paths through
// arrays, the find-only operators $slice, $elemMatch and positional $, and
// aggregation expressions as computed fields.
package projection

import (
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
}

// Projection is a compiled projection; immutable and safe for concurrent
// use.
type Projection struct {
	spec      bson.D
	inclusion bool
	root      *node

	simple        bool
	topLevelOnly  bool // an inclusion of top-level fields and nothing else
	hasPositional bool
	env           exprContext
	// required and needsDocument are what RequiredFields reports.
	required      []string
	needsDocument bool
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

func (n *node) remove(name string) {
	for i, c := range n.children {
		if c.name == name {
			n.children = append(n.children[:i], n.children[i+1:]...)
			return
		}
	}
}

// Simple reports whether explain shows PROJECTION_SIMPLE: only inclusions
// or exclusions of top-level fields.
func (p *Projection) Simple() bool { return p.simple }

// NeedsPosition reports whether the projection uses the positional $
// operator, so that the caller must pass the matched array index.
func (p *Projection) NeedsPosition() bool { return p.hasPositional }

// IsInclusion reports whether this is an inclusion projection.
func (p *Projection) IsInclusion() bool { return p.inclusion }

// Serialize is explain's transformBy: the projection as the user gave it.
func (p *Projection) Serialize() bson.D { return p.spec }
