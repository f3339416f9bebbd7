package query

import (
	"regexp"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The parsed form of a filter. The planner reads these node types to derive
// index bounds, explain prints them as parsedQuery, and upserts read the
// equality predicates to seed a new document. Every node matches itself
// against a document; Path is always the full dotted path from the root.
// Compile builds pointer nodes (*Compare, *And, ...), except AlwaysTrue and
// AlwaysFalse, which are values. Bits (bits.go) is the $bits* operators.

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
	Index int   // -1 when no array element was involved
	Set   bool  // true once Index has been recorded
	Err   error // first evaluation error ($expr), when the caller asks for it
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

	parts []string // Path pre-split at compile time
}

// In is {field: {$in: [...]}}; Values holds the non-regex members, Regexes
// the regex ones. Nin is represented as Not{In}.
type In struct {
	Path    string
	Values  []any
	Regexes []bson.Regex

	parts    []string         // Path pre-split at compile time
	compiled []*regexp.Regexp // Regexes, compiled
}

// Regex is {field: /re/} or {field: {$regex, $options}}.
type Regex struct {
	Path  string
	Regex bson.Regex

	parts    []string // Path pre-split at compile time
	compiled *regexp.Regexp
}

// Exists is {field: {$exists: bool}}.
type Exists struct {
	Path   string
	Exists bool

	parts []string // Path pre-split at compile time
}

// Type is {field: {$type: ...}}; Types holds BSON type numbers, and
// Number is true when the alias "number" was given.
type Type struct {
	Path   string
	Types  []int
	Number bool

	parts []string // Path pre-split at compile time
}

// Size is {field: {$size: n}}.
type Size struct {
	Path string
	N    int

	parts []string // Path pre-split at compile time
}

// All is {field: {$all: [...]}}; it is kept as a node for explain, and
// matches as the AND of its members.
type All struct {
	Path    string
	Members []Node

	parts []string
}

// ElemMatchObject is {field: {$elemMatch: {subfield predicates}}}; Filter
// is matched against each array element that is a document.
type ElemMatchObject struct {
	Path   string
	Filter Node

	parts []string // Path pre-split at compile time
}

// ElemMatchValue is {field: {$elemMatch: {$gt: .., $lt: ..}}}; Predicates
// apply to each element itself (their Path is "").
type ElemMatchValue struct {
	Path       string
	Predicates []Node

	parts []string // Path pre-split at compile time
}

// Mod is {field: {$mod: [divisor, remainder]}}.
type Mod struct {
	Path      string
	Divisor   int64
	Remainder int64

	parts []string // Path pre-split at compile time
}

// Expr is {$expr: <aggregation expression>}.
type Expr struct {
	Spec any // the original expression, for explain
	// eval is the compiled expression (sandbox/engine/expr).
	eval exprEvaluator
	// rewritten: optimize has already added its internal comparisons.
	rewritten bool
}

// AlwaysTrue and AlwaysFalse are what an empty filter, $and: [] forms, and
// optimised-away predicates reduce to.
type AlwaysTrue struct{}

// AlwaysFalse never matches.
type AlwaysFalse struct{}
