package aggregate

import (
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
func (s *redactStage) Spec() bson.D { return stageSpec("$redact", s.spec) }

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
		"$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned %s", valueString(v))
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
