package query

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// InternalExpr is one of mongod's $_internalExprEq/Gt/Gte/Lt/Lte
// (expression_internal_expr_comparison.h): the index-friendly half of an
// $expr comparison of a field path with a constant, which
// RewriteExpr::rewrite (rewrite_expr.cpp) adds beside the $expr. It
// compares without type bracketing (missing and null sort below numbers)
// and matches any document with an array along its path, so it selects a
// superset of what the $expr selects; the $expr, kept beside it, decides.
type InternalExpr struct {
	Path  string
	Op    string // "$_internalExprEq", "$_internalExprGt", ...
	Value any

	parts []string
	// generated: made by rewriting an $expr, not written by the user.
	generated bool
}

// internalExprOps maps an aggregation comparison to its internal match
// operator.
var internalExprOps = map[string]string{
	"$eq": "$_internalExprEq", "$gt": "$_internalExprGt", "$gte": "$_internalExprGte",
	"$lt": "$_internalExprLt", "$lte": "$_internalExprLte",
}

// newInternalExpr is MatchExpressionParser's INTERNAL_EXPR_* case.
func newInternalExpr(path, op string, v any) (Node, error) {
	switch v.(type) {
	case bson.Undefined, bson.A:
		return nil, badValue(op + " cannot be used to compare to type: " + value.TypeName(v))
	}
	return &InternalExpr{Path: path, Op: op, Value: v, parts: splitPath(path)}, nil
}

// Matches implements Node.
func (x *InternalExpr) Matches(doc bson.D, _ *Position) bool {
	var cur any = doc
	for _, p := range x.parts {
		switch c := cur.(type) {
		case bson.D:
			cur = value.Get(c, p)
		case bson.A:
			return true
		default:
			cur = value.Missing{}
		}
	}
	if _, ok := cur.(bson.A); ok {
		return true
	}
	c := value.Compare(cur, x.Value)
	switch x.Op {
	case "$_internalExprGt":
		return c > 0
	case "$_internalExprGte":
		return c >= 0
	case "$_internalExprLt":
		return c < 0
	case "$_internalExprLte":
		return c <= 0
	}
	return c == 0
}

// rewriteExpr is RewriteExpr::_rewriteExpression over an $expr's
// optimized expression: an $and keeps the children it can rewrite, an $or
// only if it can rewrite them all, and a comparison of one field path
// with one constant becomes an internal comparison, the field path on the
// left (the operator flipped when it was on the right).
func rewriteExpr(spec any) Node {
	d, ok := spec.(bson.D)
	if !ok || len(d) != 1 {
		return nil
	}
	args, _ := d[0].Value.(bson.A)
	switch d[0].Key {
	case "$and":
		var out []Node
		for _, a := range args {
			if n := rewriteExpr(a); n != nil {
				out = append(out, n)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return &And{Children: out}
	case "$or":
		out := make([]Node, 0, len(args))
		for _, a := range args {
			n := rewriteExpr(a)
			if n == nil {
				return nil
			}
			out = append(out, n)
		}
		if len(out) == 0 {
			return nil
		}
		return &Or{Children: out}
	}
	op, ok := internalExprOps[d[0].Key]
	if !ok || len(args) != 2 {
		return nil
	}
	path, pathFirst := fieldPathOperand(args[0])
	constant := args[1]
	if !pathFirst {
		var ok bool
		if path, ok = fieldPathOperand(args[1]); !ok {
			return nil
		}
		constant = args[0]
		op = map[string]string{
			"$_internalExprGt": "$_internalExprLt", "$_internalExprGte": "$_internalExprLte",
			"$_internalExprLt": "$_internalExprGt", "$_internalExprLte": "$_internalExprGte",
			"$_internalExprEq": "$_internalExprEq",
		}[op]
	}
	v, ok := constantExpr(constant)
	if !ok {
		return nil
	}
	// _canRewriteComparison: an array, missing or undefined constant
	// has no match-language equivalent.
	switch v.(type) {
	case bson.A, bson.Undefined, value.Missing:
		return nil
	}
	return &InternalExpr{Path: path, Op: op, Value: v, parts: splitPath(path), generated: true}
}

// withoutGenerated removes the internal comparisons an $expr rewrite
// added. Splitting a $match moves each part as a new $match that
// rewrites its own $expr again; a comparison moved apart from its $expr
// would come back with every re-parse of the part left behind.
func withoutGenerated(n Node) Node {
	switch x := n.(type) {
	case *And:
		out := x.Children[:0]
		for _, c := range x.Children {
			if IsGenerated(c) {
				continue
			}
			out = append(out, withoutGenerated(c))
		}
		x.Children = out
	case *Or:
		for i, c := range x.Children {
			x.Children[i] = withoutGenerated(c)
		}
	case *Nor:
		for i, c := range x.Children {
			x.Children[i] = withoutGenerated(c)
		}
	case *Not:
		x.Child = withoutGenerated(x.Child)
	}
	return n
}

// IsGenerated reports whether n is an internal comparison an $expr
// rewrite made (or an $or of them), not one the filter spelled out.
func IsGenerated(n Node) bool {
	switch x := n.(type) {
	case *InternalExpr:
		return x.generated
	case *Or:
		for _, c := range x.Children {
			if !IsGenerated(c) {
				return false
			}
		}
		return len(x.Children) > 0
	}
	return false
}

// fieldPathOperand: "$a.b" is the document's field a.b; "$$var..." (a
// variable, $$ROOT or $$CURRENT) is not one the match language can name.
func fieldPathOperand(v any) (string, bool) {
	s, ok := v.(string)
	if !ok || !strings.HasPrefix(s, "$") || strings.HasPrefix(s, "$$") || len(s) < 2 {
		return "", false
	}
	return s[1:], true
}

// optimizeExpr is ExprMatchExpression's optimizer: a truthy constant is
// no filter at all, an equality of a field's hashed key with a long is
// replaced by $_internalEqHash, and another rewritable expression is
// ANDed with its rewrite (once: a filter re-parsed from its own
// serialization already holds the internal comparisons, and those are
// not added again).
func optimizeExpr(x *Expr) Node {
	if v, ok := constantExpr(x.Spec); ok && expr.IsTrue(v) {
		return &And{}
	}
	if x.rewritten {
		return x
	}
	x.rewritten = true
	if h := eqHashRewrite(x.Spec); h != nil {
		return h
	}
	r := rewriteExpr(expr.Serialize(x.Spec, nil))
	if r == nil {
		return x
	}
	// The new $and absorbs an $and the rewrite made.
	if a, ok := r.(*And); ok {
		return &And{Children: append([]Node{x}, a.Children...)}
	}
	return &And{Children: []Node{x, r}}
}

// dropRepeatedInternal removes an internal comparison equal to one before
// it in the same $and when either was made by an $expr rewrite, which
// re-optimizing a re-parsed filter would otherwise add twice. Two written
// ones are both kept, as mongod's optimizer keeps them (a time-series
// wholeBucketFilter can hold the same comparison twice).
func dropRepeatedInternal(children []Node) []Node {
	out := children[:0]
	var seen []*InternalExpr
next:
	for _, c := range children {
		if ie, ok := c.(*InternalExpr); ok {
			for _, s := range seen {
				if (s.generated || ie.generated) && s.Path == ie.Path && s.Op == ie.Op && value.Compare(s.Value, ie.Value) == 0 {
					continue next
				}
			}
			seen = append(seen, ie)
		}
		out = append(out, c)
	}
	return out
}
