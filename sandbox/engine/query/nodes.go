package query

import "go.mongodb.org/mongo-driver/v2/bson"

// The parsed form of a filter. The planner reads these node types to derive
// index bounds, explain prints them as parsedQuery, and upserts read the
// equality predicates to seed a new document. Every node matches itself
// against a document; Path is always the full dotted path from the root.

// Node is one predicate of a parsed filter.
type Node interface {
	// Matches reports whether doc satisfies the predicate. When it does
	// and the match came from an array element reached through the path,
	// pos.Index records the element's index for the positional $ operator
	// (mongod's "elemMatchKey").
	Matches(doc bson.D, pos *Position) bool
}

// Position carries the array position that satisfied a predicate.
type Position struct {
	Index int  // -1 when no array element was involved
	Set   bool // true once Index has been recorded
}

// And is {$and: [...]} and the implicit AND of a filter's top-level fields.
type And struct{ Children []Node }

// Or is {$or: [...]}.
type Or struct{ Children []Node }

// Nor is {$nor: [...]}.
type Nor struct{ Children []Node }

// Not is {field: {$not: ...}}; Child is the negated predicate on the same
// path.
type Not struct {
	Path  string
	Child Node
}

// Compare is a comparison of the value(s) at Path with Value. Op is one of
// "$eq", "$ne", "$gt", "$gte", "$lt", "$lte". ($ne is matched as the
// negation of $eq, as mongod does.)
type Compare struct {
	Path  string
	Op    string
	Value any
}

// In is {field: {$in: [...]}}; Values holds the non-regex members, Regexes
// the regex ones. Nin is represented as Not{In}.
type In struct {
	Path    string
	Values  []any
	Regexes []bson.Regex
}

// Regex is {field: /re/} or {field: {$regex, $options}}.
type Regex struct {
	Path  string
	Regex bson.Regex
}

// Exists is {field: {$exists: bool}}.
type Exists struct {
	Path   string
	Exists bool
}

// Type is {field: {$type: ...}}; Types holds BSON type numbers, and
// Number is true when the alias "number" was given.
type Type struct {
	Path   string
	Types  []int
	Number bool
}

// Size is {field: {$size: n}}.
type Size struct {
	Path string
	N    int
}

// All is {field: {$all: [...]}}; it is kept as a node for explain, and
// matches as the AND of its members.
type All struct {
	Path    string
	Members []Node
}

// ElemMatchObject is {field: {$elemMatch: {subfield predicates}}}; Filter
// is matched against each array element that is a document.
type ElemMatchObject struct {
	Path   string
	Filter Node
}

// ElemMatchValue is {field: {$elemMatch: {$gt: .., $lt: ..}}}; Predicates
// apply to each element itself (their Path is "").
type ElemMatchValue struct {
	Path       string
	Predicates []Node
}

// Mod is {field: {$mod: [divisor, remainder]}}.
type Mod struct {
	Path      string
	Divisor   int64
	Remainder int64
}

// Expr is {$expr: <aggregation expression>}.
type Expr struct {
	Spec any // the original expression, for explain
	// Eval is the compiled expression; the owner of this package wires it
	// to sandbox/engine/expr.
}

// AlwaysTrue and AlwaysFalse are what an empty filter, $and: [] forms, and
// optimised-away predicates reduce to.
type AlwaysTrue struct{}

// AlwaysFalse never matches.
type AlwaysFalse struct{}
