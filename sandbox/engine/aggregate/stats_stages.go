package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ---- $collStats ----

type collStatsStage struct{ spec bson.D }

func parseCollStats(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$collStats must take a nested object but found: %s", docString(spec))
	}
	for _, e := range d {
		switch e.Key {
		case "latencyStats", "storageStats", "count", "queryExecStats":
			if _, ok := e.Value.(bson.D); !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$collStats.%s' is the wrong type '%s', expected type 'object'", e.Key, typeNameOf(e.Value))
			}
		default:
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$collStats.%s' is an unknown field.", e.Key)
		}
	}
	return []Stage{&collStatsStage{spec: d}}, nil
}

func (s *collStatsStage) Name() string { return "$collStats" }
func (s *collStatsStage) Spec() bson.D { return stageSpec("$collStats", s.spec) }

func (s *collStatsStage) open(_ Iterator, rt *runtime) (Iterator, error) {
	if rt.ctx.CollStats == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no CollStats function in the context")
	}
	if rt.ctx.Coll == "" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$collStats must be run against a collection namespace")
	}
	d, err := rt.ctx.CollStats(rt.ctx.DB, rt.ctx.Coll, s.spec)
	if err != nil {
		return nil, err
	}
	return NewSliceIterator([]bson.D{d}), nil
}

// ---- $indexStats ----

type indexStatsStage struct{}

func parseIndexStats(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok || len(d) != 0 {
		return nil, mongoerr.New(28803, "The $indexStats stage specification must be an empty object")
	}
	return []Stage{&indexStatsStage{}}, nil
}

func (s *indexStatsStage) Name() string { return "$indexStats" }
func (s *indexStatsStage) Spec() bson.D { return stageSpec("$indexStats", bson.D{}) }

func (s *indexStatsStage) open(_ Iterator, rt *runtime) (Iterator, error) {
	if rt.ctx.IndexStats == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no IndexStats function in the context")
	}
	docs, err := rt.ctx.IndexStats(rt.ctx.DB, rt.ctx.Coll)
	if err != nil {
		return nil, err
	}
	return NewSliceIterator(docs), nil
}
