// Package query compiles MongoDB query filters into a tree of match nodes
// and evaluates them against documents with mongod's semantics (implicit
// array traversal, type brackets, null matching missing fields).
package query

import (
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Options carries the command-level context a filter may need.
type Options struct {
	Now     bson.DateTime // $$NOW for $expr
	LetVars bson.D        // command-level let variables, visible to $expr
	// BanSpecialFeatures is MatchExpressionParser::kBanAllSpecialFeatures,
	// with which mongod parses arrayFilters: $expr, $where, $text,
	// $jsonSchema and the $near family fail as "not allowed in this
	// context".
	BanSpecialFeatures bool
	// JSONSchema compiles a $jsonSchema (validation.CompileSchema). The
	// places that do not set it are those that reach no user filter with
	// a $jsonSchema in it, where it stays refused.
	JSONSchema SchemaCompiler
	// Validator parses a collection validator: $expr's expressions are
	// parsed as isParsingCollectionValidator has them.
	Validator bool
}

// Filter is a compiled query filter. It is immutable and safe for
// concurrent use.
type Filter struct {
	Root Node
	opts Options
	// positions recycles the Position that MatchPosition and Eval hand
	// to Root: passed through an interface, it would otherwise be a heap
	// allocation per document a scan tests.
	positions sync.Pool
}

// match runs Root with a recycled Position and returns what it recorded.
func (f *Filter) match(doc bson.D) (bool, Position) {
	pos, _ := f.positions.Get().(*Position)
	if pos == nil {
		pos = new(Position)
	}
	*pos = Position{Index: -1}
	ok := f.Root.Matches(doc, pos)
	out := *pos
	f.positions.Put(pos)
	return ok, out
}

// Compile parses a filter document the way mongod's MatchExpressionParser
// does, then applies the same rewrites mongod's optimizer makes (flattened
// $and, single-element $in as $eq, canonical child order), so that the
// planner and explain see the tree mongod would.
func Compile(filter bson.D, opts Options) (*Filter, error) {
	p := parser{opts: opts}
	root, err := p.parseDoc(filter, levelPredicateTop)
	if err != nil {
		return nil, err
	}
	return &Filter{Root: optimize(root), opts: opts}, nil
}

// Matches reports whether doc satisfies the filter.
func (f *Filter) Matches(doc bson.D) bool {
	return f.Root.Matches(doc, nil)
}

// MatchPosition reports whether doc matches and, when it does, the index of
// the array element that satisfied the query for the positional $ operator
// (-1 when no array was involved).
func (f *Filter) MatchPosition(doc bson.D) (matched bool, arrayIndex int) {
	ok, pos := f.match(doc)
	if !ok {
		return false, -1
	}
	if !pos.Set {
		return true, -1
	}
	return true, pos.Index
}

// Eval is MatchPosition that also reports a $expr evaluation error, which
// mongod turns into a failed command.
func (f *Filter) Eval(doc bson.D) (matched bool, arrayIndex int, err error) {
	ok, pos := f.match(doc)
	if pos.Err != nil {
		return false, -1, pos.Err
	}
	if !ok {
		return false, -1, nil
	}
	if !pos.Set {
		return true, -1, nil
	}
	return true, pos.Index, nil
}

// IsEmpty reports whether the filter matches every document without
// looking at it ({} or only $comment).
func (f *Filter) IsEmpty() bool {
	a, ok := f.Root.(*And)
	return ok && len(a.Children) == 0
}
