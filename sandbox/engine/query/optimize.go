package query

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// optimize applies the rewrites of mongod's MatchExpression::optimize that
// change the tree's shape (ListOfMatchExpression::getOptimizer and its
// kin): nested $and/$or are flattened, an $and drops its trivially true
// children and is false when one is trivially false, an $or drops its
// trivially false children and is $alwaysFalse when none is left,
// single-child $and/$or are replaced by their child, a $in with a single
// equality becomes $eq, and an $expr of a truthy constant is the empty
// $and (ExprMatchExpression::getOptimizer). The planner and explain rely
// on that shape: an empty $and is no filter at all.
func optimize(n Node) Node {
	switch x := n.(type) {
	case *And:
		out := make([]Node, 0, len(x.Children))
		for _, c := range x.Children {
			c = optimize(c)
			if a, ok := c.(*And); ok {
				out = append(out, a.Children...)
				continue
			}
			if _, ok := c.(AlwaysTrue); ok {
				continue
			}
			out = append(out, c)
		}
		out = dropRepeatedInternal(out)
		if len(out) == 1 {
			return out[0]
		}
		for _, c := range out {
			if isTriviallyFalse(c) {
				return AlwaysFalse{}
			}
		}
		x.Children = out
	case *Or:
		out := make([]Node, 0, len(x.Children))
		for _, c := range x.Children {
			c = optimize(c)
			if o, ok := c.(*Or); ok {
				out = append(out, o.Children...)
				continue
			}
			if isTriviallyFalse(c) {
				continue
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			return AlwaysFalse{}
		}
		out = orToIn(out)
		if len(out) == 1 {
			return out[0]
		}
		x.Children = out
	case *Expr:
		return optimizeExpr(x)
	case *Nor:
		for i, c := range x.Children {
			x.Children[i] = optimize(c)
		}
		if len(x.Children) == 1 {
			// A $nor of one operand is its negation.
			return &Not{Path: NodePath(x.Children[0]), Child: x.Children[0]}
		}
	case *Not:
		x.Child = optimize(x.Child)
	case *In:
		if len(x.Values) == 1 && len(x.Regexes) == 0 {
			return &Compare{Path: x.Path, Op: "$eq", Value: x.Values[0], parts: x.parts}
		}
		if len(x.Values) == 0 && len(x.Regexes) == 1 {
			return &Regex{Path: x.Path, Regex: x.Regexes[0], parts: x.parts, compiled: x.compiled[0]}
		}
	case *All:
		for i, c := range x.Members {
			x.Members[i] = optimize(c)
		}
	case *ElemMatchValue:
		for i, c := range x.Predicates {
			x.Predicates[i] = optimize(c)
		}
	}
	return n
}

// orToIn is mongod 8.0's rewrite of $or branches that are equalities or
// regexes on one path into a single $in (jstests/core/query/or/or_to_in.js).
// An {$eq: /re/} is an equality to a regex value, not a pattern match, so it
// is left alone.
func orToIn(children []Node) []Node {
	type group struct {
		first int
		in    *In
		count int
	}
	groups := map[string]*group{}
	var order []string
	for i, c := range children {
		path, ok := inCandidatePath(c)
		if !ok {
			continue
		}
		g := groups[path]
		if g == nil {
			g = &group{first: i, in: &In{Path: path, parts: splitPath(path)}}
			groups[path] = g
			order = append(order, path)
		}
		g.count++
		switch x := c.(type) {
		case *Compare:
			g.in.Values = append(g.in.Values, x.Value)
		case *Regex:
			g.in.Regexes = append(g.in.Regexes, x.Regex)
			g.in.compiled = append(g.in.compiled, x.compiled)
		case *In:
			g.in.Values = append(g.in.Values, x.Values...)
			g.in.Regexes = append(g.in.Regexes, x.Regexes...)
			g.in.compiled = append(g.in.compiled, x.compiled...)
		}
	}
	rewrite := false
	for _, p := range order {
		if groups[p].count > 1 {
			rewrite = true
		}
	}
	if !rewrite {
		return children
	}
	out := make([]Node, 0, len(children))
	for i, c := range children {
		path, ok := inCandidatePath(c)
		if !ok || groups[path].count == 1 {
			out = append(out, c)
			continue
		}
		if groups[path].first == i {
			out = append(out, optimize(dedupIn(groups[path].in)))
		}
	}
	return out
}

func inCandidatePath(n Node) (string, bool) {
	switch x := n.(type) {
	case *Compare:
		if _, isRegex := x.Value.(bson.Regex); x.Op == "$eq" && !isRegex {
			return x.Path, true
		}
	case *Regex:
		return x.Path, x.compiled != nil
	case *In:
		return x.Path, len(x.compiled) == len(x.Regexes)
	}
	return "", false
}

// dedupIn removes repeated equalities, so that {$or: [{a: 1}, {a: 1}]}
// becomes {a: {$eq: 1}} as in mongod.
func dedupIn(in *In) *In {
	vals := make([]any, 0, len(in.Values))
	for _, v := range in.Values {
		dup := false
		for _, w := range vals {
			if value.Compare(v, w) == 0 {
				dup = true
				break
			}
		}
		if !dup {
			vals = append(vals, v)
		}
	}
	in.Values = vals
	return in
}

// isTriviallyFalse is MatchExpression::isTriviallyFalse: $alwaysFalse. (An
// $expr of a falsy constant is not, in 8.0.)
func isTriviallyFalse(n Node) bool {
	_, ok := n.(AlwaysFalse)
	return ok
}

// constantExpr is the value an $expr's expression optimizes to when it
// reads no document and no variable: explain's serialization already
// folds it into {$const: v}.
func constantExpr(spec any) (any, bool) {
	if d, ok := expr.Serialize(spec, nil).(bson.D); ok && len(d) == 1 && d[0].Key == "$const" {
		return d[0].Value, true
	}
	return nil, false
}
