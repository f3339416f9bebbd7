package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $redact (document_source_redact.cpp) evaluates its expression on the
// document and then, while the answer is $$DESCEND, on each embedded
// document, with $$CURRENT set to it: $$KEEP keeps the (sub)document as
// it is, $$PRUNE leaves it out, $$DESCEND keeps its fields after redacting
// the documents in them, in arrays too.

type redactStage struct {
	spec any
	x    expr.Expr
}

// The values of the variables only $redact's expression sees.
const (
	redactDescend = "descend"
	redactPrune   = "prune"
	redactKeep    = "keep"
)

func parseRedact(spec any, p *parser) ([]Stage, error) {
	x, err := expr.Compile(spec, p.scope.With("DESCEND", "PRUNE", "KEEP"))
	if err != nil {
		return nil, err
	}
	return []Stage{&redactStage{spec: spec, x: x}}, nil
}

func (s *redactStage) Name() string { return "$redact" }

// Spec is DocumentSourceRedact::serialize: the expression as it
// optimizes and serializes (a $cond on a constant is the branch it picks).
func (s *redactStage) Spec() bson.D { return stageSpec("$redact", expr.SerializeExplain(s.spec, nil)) }

func (s *redactStage) open(in Iterator, rt *runtime) (Iterator, error) {
	env := rt.newEnv()
	env.SetVar("DESCEND", redactDescend)
	env.SetVar("PRUNE", redactPrune)
	env.SetVar("KEEP", redactKeep)
	return funcIterator(func() (bson.D, bool, error) {
		for {
			d, ok, err := in.Next()
			if !ok || err != nil {
				return nil, false, err
			}
			env.Reset(d)
			out, keep, err := s.redactObject(d, env)
			if err != nil {
				return nil, false, err
			}
			if keep {
				return out, true, nil
			}
		}
	}), nil
}

// redactObject evaluates the expression with $$CURRENT at doc; keep is
// false when doc is pruned.
func (s *redactStage) redactObject(doc bson.D, env *expr.Env) (bson.D, bool, error) {
	env.SetVar("CURRENT", doc)
	v, err := s.x.Eval(env)
	if err != nil {
		return nil, false, err
	}
	switch v {
	case redactKeep:
		return doc, true, nil
	case redactPrune:
		return nil, false, nil
	case redactDescend:
		out := make(bson.D, 0, len(doc))
		for _, e := range doc {
			rv, keep, err := s.redactValue(e.Value, env)
			if err != nil {
				return nil, false, err
			}
			if keep {
				out = append(out, bson.E{Key: e.Key, Value: rv})
			}
		}
		return out, true, nil
	}
	return nil, false, mongoerr.Newf(mongoerr.ErrRedactBadResult,
		"$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned %s", expr.StreamValue(v))
}

func (s *redactStage) redactValue(v any, env *expr.Env) (any, bool, error) {
	switch x := v.(type) {
	case bson.D:
		return s.redactObject(x, env)
	case bson.A:
		out := make(bson.A, 0, len(x))
		for _, e := range x {
			switch e.(type) {
			case bson.D, bson.A:
				rv, keep, err := s.redactValue(e, env)
				if err != nil {
					return nil, false, err
				}
				if keep {
					out = append(out, rv)
				}
			default:
				out = append(out, e)
			}
		}
		return out, true, nil
	}
	return v, true, nil
}

// redactSafePortion is DocumentSourceMatch::redactSafePortion: the part of
// a $match after a $redact that a document keeps whether or not $redact
// prunes its subdocuments, which mongod copies before the $redact
// (DocumentSourceRedact::doOptimizeAt) so fewer documents reach it. A
// predicate that could hold of a pruned document (on null, a missing
// field, an array or a document, $exists, $ne, $nin, $size, a numeric
// path component) is not safe; an $or is safe only whole.
func redactSafePortion(query bson.D) bson.D {
	var out bson.D
	for _, e := range query {
		if strings.HasPrefix(e.Key, "$") {
			clauses, _ := e.Value.(bson.A)
			switch e.Key {
			case "$or":
				var safe bson.A
				for _, c := range clauses {
					d, _ := c.(bson.D)
					part := redactSafePortion(d)
					if len(part) == 0 {
						safe = nil
						break
					}
					safe = append(safe, part)
				}
				if len(safe) > 0 {
					out = withField(out, "$or", safe)
				}
			case "$and":
				var safe bson.A
				for _, c := range clauses {
					d, _ := c.(bson.D)
					if part := redactSafePortion(d); len(part) > 0 {
						safe = append(safe, part)
					}
				}
				if len(safe) > 0 {
					out = withField(out, "$and", safe)
				}
			}
			continue
		}
		if !redactSafePath(e.Key) {
			continue
		}
		switch v := e.Value.(type) {
		case bson.A, nil, bson.Undefined:
		case bson.D:
			if sub := redactSafeOperators(v); len(sub) > 0 {
				out = withField(out, e.Key, sub)
			}
		default:
			out = withField(out, e.Key, v)
		}
	}
	return out
}

// redactSafeOperators is redactSafePortionDollarOps, for the operators
// of one path.
func redactSafeOperators(ops bson.D) bson.D {
	var out bson.D
	for _, e := range ops {
		switch e.Key {
		case "$type", "$regex", "$options", "$mod", "$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear":
			out = withField(out, e.Key, e.Value)
		case "$eq", "$lte", "$gte", "$lt", "$gt":
			if redactSafeValue(e.Value) {
				out = withField(out, e.Key, e.Value)
			}
		case "$in":
			arr, _ := e.Value.(bson.A)
			safe := true
			for _, x := range arr {
				safe = safe && redactSafeValue(x)
			}
			if safe {
				out = withField(out, e.Key, e.Value)
			}
		case "$all":
			arr, _ := e.Value.(bson.A)
			var safe bson.A
			for _, x := range arr {
				if redactSafeValue(x) {
					safe = append(safe, x)
				}
			}
			if len(safe) > 0 {
				out = withField(out, e.Key, safe)
			}
		case "$elemMatch":
			sub, _ := e.Value.(bson.D)
			var part bson.D
			if len(sub) > 0 && strings.HasPrefix(sub[0].Key, "$") {
				part = redactSafeOperators(sub)
			} else {
				part = redactSafePortion(sub)
			}
			if len(part) > 0 {
				out = withField(out, e.Key, part)
			}
		}
	}
	return out
}

// redactSafeValue is isTypeRedactSafeInComparison.
func redactSafeValue(v any) bool {
	switch v.(type) {
	case bson.A, bson.D, nil, bson.Undefined:
		return false
	}
	return true
}

// redactSafePath is isFieldnameRedactSafe: no all-digit component, which
// could name an array element $redact removes.
func redactSafePath(path string) bool {
	for _, part := range strings.Split(path, ".") {
		if part != "" && strings.Trim(part, "0123456789") == "" {
			return false
		}
	}
	return true
}
