package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// transformer is a stage that maps every document to exactly one
// document, as mongod's DocumentSourceSingleDocumentTransformation does:
// $project, $unset, $addFields/$set and $replaceRoot/$replaceWith. They
// are the stages mongod allows in an update pipeline
// (isAllowedWithinUpdatePipeline).
type transformer interface {
	Stage
	// transform maps d; env is the caller's, reset by the stage when it
	// evaluates expressions.
	transform(d bson.D, env *expr.Env) (bson.D, error)
}

// openTransformer is the open of every transformer; an input that carries
// metadata hands each document's to the expressions.
func openTransformer(t transformer, in Iterator, rt *runtime) Iterator {
	env := rt.newEnv()
	src, _ := in.(MetaSource)
	return funcIterator(func() (bson.D, bool, error) {
		d, ok, err := in.Next()
		if !ok || err != nil {
			return nil, false, err
		}
		if src != nil {
			m := src.Meta()
			env.SetIndexKey(m.IndexKey)
			env.SetSortKey(m.SortKey)
			env.SetRecordID(m.RecordID)
		}
		out, err := t.transform(d, env)
		if err != nil {
			return nil, false, err
		}
		return out, true, nil
	})
}

// CompileUpdate compiles an update statement's u: a document (update
// operators or a replacement, compiled by the update package) or a
// pipeline. The pipeline is parsed as an aggregation pipeline, then every
// stage must be one the update may run, as in mongod's PipelineExecutor.
func CompileUpdate(spec any, opts update.Options) (*update.Update, error) {
	switch s := spec.(type) {
	case bson.D:
		return update.Compile(s, opts)
	case bson.A:
		if len(opts.ArrayFilters) > 0 {
			return nil, mongoerr.New(mongoerr.FailedToParse, "arrayFilters may not be specified for pipeline-style updates")
		}
		names := make([]string, 0, len(opts.LetVars))
		for _, e := range opts.LetVars {
			names = append(names, e.Key)
		}
		// No constant folding: mongod parses an update pipeline but does
		// not optimize it, so a constant expression that fails fails only
		// on a document.
		p := &parser{ctx: &Context{Now: opts.Now}, scope: expr.NewScope(names...), letVals: opts.LetVars}
		stages, err := parseUpdateStages(s, p)
		if err != nil {
			return nil, err
		}
		rt := &runtime{ctx: p.ctx, letVals: opts.LetVars, scope: p.scope}
		run := runTransformers
		if _, out := holesPlan(stages, false); out != nil {
			run = runTransformersHoled
		}
		return update.NewPipeline(func(doc bson.D) (bson.D, error) {
			return run(stages, doc, rt.newEnv())
		}), nil
	}
	return nil, mongoerr.New(mongoerr.FailedToParse, "Update argument must be either an object or an array")
}

// parseUpdateStages parses an update pipeline (an update's u, or
// $merge's whenMatched): all of it first, as Pipeline::parse does, then
// each stage must be a transformer.
func parseUpdateStages(pipeline bson.A, p *parser) ([]transformer, error) {
	stages, err := parseStages(pipeline, p)
	if err != nil {
		return nil, err
	}
	out := make([]transformer, 0, len(stages))
	for _, s := range stages {
		t, ok := s.(transformer)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions, "%s is not allowed to be used within an update", s.Name())
		}
		out = append(out, t)
	}
	return out, nil
}

// runTransformers runs an update pipeline over one document.
func runTransformers(stages []transformer, doc bson.D, env *expr.Env) (bson.D, error) {
	for _, s := range stages {
		var err error
		if doc, err = s.transform(doc, env); err != nil {
			return nil, err
		}
	}
	return doc, nil
}
