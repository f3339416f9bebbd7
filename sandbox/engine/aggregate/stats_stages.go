package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ---- $collStats ----

type collStatsStage struct{ spec bson.D }

// parseCollStats is DocumentSourceCollStats::createFromBson and its IDL
// (document_source_coll_stats.idl): every option is an object, and
// storageStats.scale is validated here, when the stage is parsed.
func parseCollStats(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrCollStatsNotObject, "$collStats must take a nested object but found: %s", value.FormatElem("$collStats", spec))
	}
	object := []string{"object"}
	latency := func(v any) error {
		_, err := parseIDL("$collStats.latencyStats", v.(bson.D), idlField{name: "histograms", types: []string{"bool"}})
		return err
	}
	storage := func(v any) error {
		boolean := []string{"bool"}
		st, err := parseIDL("$collStats.storageStats", v.(bson.D),
			idlField{name: "scale", types: []string{"long", "int", "decimal", "double"}},
			idlField{name: "verbose", types: boolean}, idlField{name: "waitForLock", types: boolean},
			idlField{name: "numericOnly", types: boolean})
		if err != nil {
			return err
		}
		if v, ok := st["scale"]; ok {
			n, whole := value.IntegralLong(v)
			if !whole {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$collStats.storageStats.scale' is the wrong type '%s', expected types '[long, int, decimal, double']", typeNameOf(v))
			}
			if n < 1 {
				return mongoerr.Newf(mongoerr.ErrIDLValueOutOfRange, "BSON field 'scale' value must be >= 1, actual value '%d'", n)
			}
		}
		return nil
	}
	// count and queryExecStats take {} alone: validateObjectIsEmpty
	// (document_source_parsing_validators.cpp) is their IDL validator.
	empty := func(v any) error {
		if d := v.(bson.D); len(d) > 0 {
			return mongoerr.Newf(mongoerr.ErrCollStatsNotEmpty, "expected an empty object, but got %s", value.FormatDoc(d))
		}
		return nil
	}
	if _, err := parseIDL("$collStats", d,
		idlField{name: "latencyStats", types: object, check: latency}, idlField{name: "storageStats", types: object, check: storage},
		idlField{name: "count", types: object, check: empty}, idlField{name: "queryExecStats", types: object, check: empty}); err != nil {
		return nil, err
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
		return nil, mongoerr.New(mongoerr.ErrIndexStatsNotEmpty, "The $indexStats stage specification must be an empty object")
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

// ---- $planCacheStats ----

type planCacheStatsStage struct{}

// parsePlanCacheStats is DocumentSourcePlanCacheStats::createFromBson: an
// object that may hold allHosts alone, a bool (BSONElement::Bool, whose
// chk fails 13111 on another type), and true only where a router sent
// the stage, which a standalone mongod never is.
func parsePlanCacheStats(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$planCacheStats value must be an object. Found: %s", typeNameOf(spec))
	}
	if len(d) == 0 {
		return []Stage{&planCacheStatsStage{}}, nil
	}
	if d[0].Key != "allHosts" {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$planCacheStats parameters object may contain only 'allHosts' field. Found: %s", d[0].Key)
	}
	allHosts, isBool := d[0].Value.(bool)
	if !isBool {
		return nil, mongoerr.Newf(13111, "wrong type for field (allHosts) %s != bool", typeNameOf(d[0].Value))
	}
	if len(d) > 1 {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$planCacheStats parameters object may contain at most one field.")
	}
	if allHosts {
		return nil, mongoerr.New(mongoerr.ErrPlanCacheStatsAllHosts, "$planCacheStats stage supports allHosts parameter only for sharded clusters")
	}
	return []Stage{&planCacheStatsStage{}}, nil
}

func (s *planCacheStatsStage) Name() string { return "$planCacheStats" }
func (s *planCacheStatsStage) Spec() bson.D { return stageSpec("$planCacheStats", bson.D{}) }

func (s *planCacheStatsStage) open(_ Iterator, rt *runtime) (Iterator, error) {
	if rt.ctx.PlanCacheStats == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no PlanCacheStats function in the context")
	}
	docs, err := rt.ctx.PlanCacheStats(rt.ctx.DB, rt.ctx.Coll)
	if err != nil {
		return nil, err
	}
	return NewSliceIterator(docs), nil
}
