package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// literalLet wraps evaluated variables as {$literal: v}, so that the
// sub-pipeline's Parse, which evaluates its let as expressions, sees the
// values unchanged (a string "$x" stays a string).
func literalLet(vars ...bson.D) bson.D {
	var out bson.D
	for _, vs := range vars {
		for _, e := range vs {
			out = setInPlace(out, e.Key, bson.D{{Key: "$literal", Value: e.Value}})
		}
	}
	return out
}

// runSub runs a sub-pipeline on db.coll with variables let (values). The
// engine's Pipeline function plans it against the collection's indexes;
// without one, the collection is read through Query and the pipeline runs
// here.
func (rt *runtime) runSub(db, coll string, pipeline bson.A, let bson.D, scanned *ScanStats) ([]bson.D, error) {
	wrapped := literalLet(rt.letVals, let)
	if rt.ctx.Pipeline != nil {
		return rt.ctx.Pipeline(db, coll, pipeline, wrapped, scanned)
	}
	var docs []bson.D
	if coll != "" {
		if rt.ctx.Query == nil {
			return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no Query function in the context")
		}
		var err error
		if docs, err = rt.ctx.Query(db, coll, bson.D{}, nil, 0, scanned); err != nil {
			return nil, err
		}
	}
	child := *rt.ctx
	child.DB, child.Coll, child.Let = db, coll, wrapped
	p, err := Parse(pipeline, &child)
	if err != nil {
		return nil, err
	}
	it, err := p.Run(NewSliceIterator(docs))
	if err != nil {
		return nil, err
	}
	return Drain(it)
}

// maxSubPipelineDepth is mongod's internalMaxSubPipelineViewDepth knob
// as a default server has it: max_subpipeline_depth.js, run against
// one, expects 20.
const maxSubPipelineDepth = 20

// enterSubPipeline is the check of ExpressionContext::copyForSubPipeline
// (expression_context.h), which $lookup and $unionWith call for their
// foreign collection whether or not they have a pipeline: twenty nested
// stages parse, a twenty-first fails (max_subpipeline_depth.js).
func (p *parser) enterSubPipeline() error {
	if p.depth >= maxSubPipelineDepth {
		return mongoerr.Newf(mongoerr.MaxSubPipelineDepthExceeded, "Maximum number of nested sub-pipelines exceeded. Limit is %d", maxSubPipelineDepth)
	}
	return nil
}

// parseSubPipeline validates the sub-pipeline of the stage within
// ($lookup, $unionWith) on coll at parse time, with extra variable names
// in scope ($lookup's let). When coll is a view, its definition comes
// first, as in the resolved pipeline DocumentSourceLookUp and
// DocumentSourceUnionWith parse at construction: the views' own
// sub-pipelines count towards the depth limit
// (jstests/aggregation/sources/lookup/lookup_subpipeline.js).
func (p *parser) parseSubPipeline(coll string, pipeline bson.A, vars []string, within string) error {
	if p.ctx != nil && p.ctx.ViewPipeline != nil && coll != "" {
		view, err := p.ctx.ViewPipeline(p.ctx.DB, coll)
		if err != nil {
			return err
		}
		if view != nil {
			pipeline = append(append(bson.A{}, view...), pipeline...)
		}
	}
	// $match compiles $expr against let values; placeholders let it
	// validate variable names here, the real values come at run time.
	letVals := append(bson.D{}, p.letVals...)
	for _, v := range vars {
		letVals = setInPlace(letVals, v, nil)
	}
	sub := &parser{ctx: p.ctx, scope: p.scope.With(vars...), letVals: letVals, within: within, depth: p.depth + 1, fromCollection: true}
	_, err := parseStages(pipeline, sub)
	return err
}

func (rt *runtime) query(db, coll string, filter bson.D, scanned *ScanStats) ([]bson.D, error) {
	if rt.ctx.Query == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no Query function in the context")
	}
	return rt.ctx.Query(db, coll, filter, nil, 0, scanned)
}
