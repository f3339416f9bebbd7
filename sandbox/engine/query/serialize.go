package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/expr"

	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Serialize renders the filter as explain's parsedQuery: the optimized tree
// with $and/$or children in mongod's canonical order (by match type, then
// path, then number of children, then serialized value), $ne and $nin as
// $not, $all expanded into its equalities, and $in lists sorted and
// de-duplicated.
func (f *Filter) Serialize() bson.D {
	if a, ok := f.Root.(*And); ok && len(a.Children) == 0 {
		return bson.D{}
	}
	return serializeNode(f.Root)
}

// matchTypeRank is the order of mongod's MatchExpression::MatchType enum,
// which the canonical sort uses first.
func matchTypeRank(n Node) int {
	switch x := n.(type) {
	case *And, *All:
		return 0
	case *Or:
		return 1
	case *ElemMatchObject:
		return 2
	case *ElemMatchValue:
		return 3
	case *Size:
		return 4
	case *Compare:
		switch x.Op {
		case "$eq":
			return 5
		case "$lte":
			return 6
		case "$lt":
			return 7
		case "$gt":
			return 8
		case "$gte":
			return 9
		}
		return 18 // $ne is a NOT
	case *Regex:
		return 10
	case *Mod:
		return 11
	case *Exists:
		if !x.Exists {
			return 18
		}
		return 12
	case *In:
		return 13
	case *Bits:
		switch x.Op {
		case "$bitsAllSet":
			return 14
		case "$bitsAllClear":
			return 15
		case "$bitsAnySet":
			return 16
		}
		return 17
	case *Not:
		return 18
	case *Nor:
		return 19
	case *Type:
		return 20
	case *Expr:
		return 23
	case *InternalExpr:
		// INTERNAL_EXPR_EQ.. follow GEO_NEAR, TEXT and
		// INTERNAL_2D_POINT_IN_ANNULUS in the enum.
		return map[string]int{"$_internalExprEq": 29, "$_internalExprGt": 30, "$_internalExprGte": 31,
			"$_internalExprLt": 32, "$_internalExprLte": 33}[x.Op]
	case *InternalEqHash:
		// INTERNAL_EQ_HASHED_KEY comes right after them.
		return 34
	case AlwaysFalse:
		return 24
	case AlwaysTrue:
		return 25
	}
	return 30
}

// NodePath is the path of a predicate on one path (MatchExpression::path):
// "" for the logical nodes, $not, $expr and the constants.
func NodePath(n Node) string {
	switch x := n.(type) {
	case *Compare:
		return x.Path
	case *In:
		return x.Path
	case *Regex:
		return x.Path
	case *Exists:
		return x.Path
	case *Type:
		return x.Path
	case *Size:
		return x.Path
	case *Mod:
		return x.Path
	case *ElemMatchObject:
		return x.Path
	case *ElemMatchValue:
		return x.Path
	case *Bits:
		return x.Path
	case *InternalExpr:
		return x.Path
	case *InternalEqHash:
		return x.Path
	}
	return ""
}

// canonicalChildren flattens $all members into the surrounding list (mongod
// parses $all as an $and of equalities) and sorts them as sortTree does.
func canonicalChildren(children []Node, flattenAnd bool) []bson.D {
	flat := make([]Node, 0, len(children))
	for _, c := range children {
		if a, ok := c.(*All); ok && flattenAnd && len(a.Members) > 0 {
			flat = append(flat, a.Members...)
			continue
		}
		if a, ok := c.(*And); ok && flattenAnd {
			flat = append(flat, a.Children...)
			continue
		}
		flat = append(flat, c)
	}
	slices.SortStableFunc(flat, compareNodes)
	out := make([]bson.D, len(flat))
	for i, c := range flat {
		out[i] = serializeNode(c)
	}
	return out
}

// SortedChildren orders the branches of an $or as MatchExpression::sortTree
// does, which is the order mongod plans and runs them in: a stable sort by
// matchExpressionComparator (match type, path, then the sorted children
// pairwise, then their number), so branches equal by these keep their
// order whatever their values.
func SortedChildren(children []Node) []Node {
	out := slices.Clone(children)
	slices.SortStableFunc(out, compareNodes)
	return out
}

func compareNodes(a, b Node) int {
	if r := matchTypeRank(a) - matchTypeRank(b); r != 0 {
		return r
	}
	if c := strings.Compare(NodePath(a), NodePath(b)); c != 0 {
		return c
	}
	ka, kb := SortedChildren(childNodes(a)), SortedChildren(childNodes(b))
	for i := range min(len(ka), len(kb)) {
		if c := compareNodes(ka[i], kb[i]); c != 0 {
			return c
		}
	}
	return len(ka) - len(kb)
}

// childNodes are the children matchExpressionComparator compares: those
// of a logical node, a $not, $all, or an $elemMatch.
func childNodes(n Node) []Node {
	switch x := n.(type) {
	case *And:
		return x.Children
	case *Or:
		return x.Children
	case *Nor:
		return x.Children
	case *Not:
		return []Node{x.Child}
	case *All:
		return x.Members
	case *ElemMatchObject:
		return []Node{x.Filter}
	case *ElemMatchValue:
		return x.Predicates
	}
	return nil
}

func docsToArray(ds []bson.D) bson.A {
	a := make(bson.A, len(ds))
	for i, d := range ds {
		a[i] = d
	}
	return a
}

// SerializeInOrder renders the filter as MatchExpression::optimize leaves
// it, without the canonical sort of a query's normalized form
// (MatchExpression::normalize): the $and, $or and $nor children stay in
// their order, an $and absorbing the $ands among its children. It is how
// mongod explains a filter it optimizes but does not normalize, as a
// time-series unpacking's eventFilter and wholeBucketFilter.
func (f *Filter) SerializeInOrder() bson.D {
	if a, ok := f.Root.(*And); ok && len(a.Children) == 0 {
		return bson.D{}
	}
	return serializeInOrder(f.Root)
}

func serializeInOrder(n Node) bson.D {
	list := func(children []Node) bson.A {
		out := make(bson.A, len(children))
		for i, c := range children {
			out[i] = serializeInOrder(c)
		}
		return out
	}
	switch x := n.(type) {
	case *And:
		var flat []Node
		var absorb func([]Node)
		absorb = func(children []Node) {
			for _, c := range children {
				switch y := c.(type) {
				case *And:
					absorb(y.Children)
				case *All:
					if len(y.Members) > 0 {
						absorb(y.Members)
						continue
					}
					flat = append(flat, c)
				default:
					flat = append(flat, c)
				}
			}
		}
		absorb(x.Children)
		if len(flat) == 1 {
			return serializeInOrder(flat[0])
		}
		return bson.D{{Key: "$and", Value: list(flat)}}
	case *Or:
		return bson.D{{Key: "$or", Value: list(x.Children)}}
	case *Nor:
		return bson.D{{Key: "$nor", Value: list(x.Children)}}
	}
	return serializeNode(n)
}

func serializeNode(n Node) bson.D {
	switch x := n.(type) {
	case *JSONSchema:
		// mongod shows the translated $_internalSchema tree here; the
		// sandbox keeps the schema as written.
		return bson.D{{Key: "$jsonSchema", Value: x.Schema}}
	case *And:
		kids := canonicalChildren(x.Children, true)
		if len(kids) == 1 {
			return kids[0]
		}
		return bson.D{{Key: "$and", Value: docsToArray(kids)}}
	case *All:
		if len(x.Members) == 0 {
			return bson.D{{Key: "$alwaysFalse", Value: int32(1)}}
		}
		return serializeNode(&And{Children: x.Members})
	case *Or:
		return bson.D{{Key: "$or", Value: docsToArray(canonicalChildren(x.Children, false))}}
	case *Nor:
		return bson.D{{Key: "$nor", Value: docsToArray(canonicalChildren(x.Children, false))}}
	case *Not:
		return serializeNot(x)
	case *Expr:
		return bson.D{{Key: "$expr", Value: expr.Serialize(x.Spec, nil)}}
	case AlwaysTrue:
		return bson.D{{Key: "$alwaysTrue", Value: int32(1)}}
	case AlwaysFalse:
		return bson.D{{Key: "$alwaysFalse", Value: int32(1)}}
	}
	return bson.D{{Key: NodePath(n), Value: rightHandSide(n)}}
}

// serializeNot prints {path: {$not: {...}}} when the negated predicate is
// on one path, and {$nor: [...]} otherwise, as mongod 8.0 does.
func serializeNot(x *Not) bson.D {
	switch c := x.Child.(type) {
	case *And, *Or, *Nor, *Not, *Expr, AlwaysTrue, AlwaysFalse:
		return bson.D{{Key: "$nor", Value: bson.A{serializeNode(c)}}}
	case *All:
		if len(c.Members) != 1 {
			return bson.D{{Key: "$nor", Value: bson.A{serializeNode(c)}}}
		}
		return serializeNot(&Not{Path: x.Path, Child: c.Members[0]})
	}
	return bson.D{{Key: NodePath(x.Child), Value: bson.D{{Key: "$not", Value: rightHandSide(x.Child)}}}}
}

// rightHandSide is the {$op: arg} part of a path predicate.
func rightHandSide(n Node) bson.D {
	switch x := n.(type) {
	case *InternalExpr:
		return bson.D{{Key: x.Op, Value: x.Value}}
	case *InternalEqHash:
		// appendSerializedRightHandSide: the long as given.
		return bson.D{{Key: "$_internalEqHash", Value: x.Hash}}
	case *Compare:
		if x.Op == "$ne" {
			return bson.D{{Key: "$not", Value: bson.D{{Key: "$eq", Value: x.Value}}}}
		}
		return bson.D{{Key: x.Op, Value: x.Value}}
	case *In:
		vals := slices.Clone(x.Values)
		slices.SortStableFunc(vals, value.Compare)
		vals = slices.CompactFunc(vals, value.Equal)
		arr := make(bson.A, 0, len(vals)+len(x.Regexes))
		for _, v := range vals {
			arr = append(arr, v)
		}
		for _, r := range x.Regexes {
			arr = append(arr, r)
		}
		return bson.D{{Key: "$in", Value: arr}}
	case *Regex:
		d := bson.D{{Key: "$regex", Value: x.Regex.Pattern}}
		if x.Regex.Options != "" {
			d = append(d, bson.E{Key: "$options", Value: x.Regex.Options})
		}
		return d
	case *Exists:
		if !x.Exists {
			return bson.D{{Key: "$not", Value: bson.D{{Key: "$exists", Value: true}}}}
		}
		return bson.D{{Key: "$exists", Value: true}}
	case *Type:
		arr := bson.A{}
		if x.Number {
			arr = append(arr, "number")
		}
		types := slices.Clone(x.Types)
		slices.Sort(types)
		for _, t := range slices.Compact(types) {
			arr = append(arr, int32(t))
		}
		return bson.D{{Key: "$type", Value: arr}}
	case *Size:
		return bson.D{{Key: "$size", Value: int32(x.N)}}
	case *Mod:
		return bson.D{{Key: "$mod", Value: bson.A{x.Divisor, x.Remainder}}}
	case *Bits:
		arr := make(bson.A, len(x.Positions))
		for i, p := range x.Positions {
			arr[i] = int32(p)
		}
		return bson.D{{Key: x.Op, Value: arr}}
	case *ElemMatchObject:
		return bson.D{{Key: "$elemMatch", Value: serializeNode(x.Filter)}}
	case *ElemMatchValue:
		d := bson.D{}
		for _, p := range x.Predicates {
			d = append(d, rightHandSide(p)...)
		}
		return bson.D{{Key: "$elemMatch", Value: d}}
	case *Not:
		return bson.D{{Key: "$not", Value: rightHandSide(x.Child)}}
	case *And:
		d := bson.D{}
		for _, c := range x.Children {
			d = append(d, rightHandSide(c)...)
		}
		return d
	}
	return bson.D{}
}
