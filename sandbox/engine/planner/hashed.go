package planner

import (
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// hashedCompatible is QueryPlannerIXSelect::_compatible's rule for a
// hashed key field (src/mongo/db/query/planner_ixselect.cpp,
// nodeIsSupportedByHashedIndex): an equality, a $in without regexes,
// $exists or $_internalEqHash can be looked up; a range, a regex or any
// other negation cannot (hashed_index_queries.js: a range on the hashed
// prefix is a COLLSCAN; hashed_index_queries_with_logical_operators.js:
// {$not: {$eq: 12}} is too, {$exists: false} is an IXSCAN;
// not_index_tagging.js: {$not: {$_internalEqHash: ...}} scans the
// collection).
func hashedCompatible(n query.Node) bool {
	switch x := n.(type) {
	case *query.Compare:
		return x.Op == "$eq"
	case *query.In:
		return len(x.Regexes) == 0
	case *query.Exists, *query.InternalEqHash:
		return true
	case *query.Not:
		return isExistsFalse(x)
	}
	return false
}

// isExistsFalse reports {$exists: false}, the negation of {$exists:
// true}: a missing field, which an index stores as null.
func isExistsFalse(n *query.Not) bool {
	e, ok := n.Child.(*query.Exists)
	return ok && e.Exists
}

// hashedBounds is IndexBoundsBuilder::translate on a hashed field
// (index_bounds_builder.cpp): each value an equality or $in names becomes
// a point on its hash, in hash order; {$exists: true} is every key and
// {$exists: false} the hash of null; $_internalEqHash names the hash
// itself, its point. The bounds are always INEXACT_FETCH: distinct
// values may share a hash, so FETCH checks the predicate (for
// $_internalEqHash mongod says it could be exact, but is not).
func hashedBounds(n query.Node) oil {
	var vals []any
	switch x := n.(type) {
	case *query.InternalEqHash:
		return oil{point(x.Hash)}
	case *query.Compare:
		vals = []any{x.Value}
	case *query.In:
		vals = x.Values
	case *query.Exists:
		return oil{fullInterval()}
	case *query.Not:
		vals = []any{nil}
	}
	o := make(oil, len(vals))
	for i, v := range vals {
		o[i] = point(value.HashedIndexKey(v))
	}
	return normalize(o)
}

// onlyHashedBounds: $_internalEqHash has bounds on a hashed field alone,
// where predicateBounds, which bounds values, finds none.
func onlyHashedBounds(n query.Node) bool {
	_, ok := n.(*query.InternalEqHash)
	return ok
}

// hashedNullOnSparse: a sparse hashed index holds no entry for a
// document missing its fields, so an equality to null, a $in holding
// null or {$exists: false} on its hashed field cannot be answered from it
// (hashed_partial_and_sparse_index.js).
func hashedNullOnSparse(ix *index.Index, c *candidate) bool {
	if !ix.Spec.Sparse {
		return false
	}
	for _, u := range c.used {
		if u.field >= len(ix.Spec.Fields) || !ix.Spec.Fields[u.field].Hashed {
			continue
		}
		switch x := u.node.(type) {
		case *query.Compare:
			if x.Value == nil {
				return true
			}
		case *query.In:
			for _, v := range x.Values {
				if v == nil {
					return true
				}
			}
		case *query.Not:
			if isExistsFalse(x) {
				return true
			}
		}
	}
	return false
}
