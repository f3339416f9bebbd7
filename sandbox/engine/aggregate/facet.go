package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ---- $facet ----

type facet struct {
	name     string
	pipeline bson.A
	stages   []Stage
}

type facetStage struct {
	facets []facet
}

func parseFacet(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok || len(d) == 0 {
		return nil, mongoerr.Newf(mongoerr.ErrFacetNotObject, "the $facet specification must be a non-empty object, but found: $facet: %s", valueString(spec))
	}
	s := &facetStage{}
	// The sub-pipelines read the $facet's input from a buffer, which keeps
	// no metadata (metaState.past).
	sub := &parser{ctx: p.ctx, scope: p.scope, letVals: p.letVals, within: "$facet", depth: p.depth,
		metaIn: metaStates{sortKey: p.stageIn.sortKey.past(), recordID: p.stageIn.recordID.past()}}
	for _, e := range d {
		// extractRawPipelines: each output name is one field name
		// (FieldPath::uassertValidFieldName), so a dotted one is 16412.
		if err := expr.ValidateFieldName(e.Key); err != nil {
			return nil, err
		}
		arr, ok := e.Value.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrFacetNotArray, "arguments to $facet must be arrays, %s is type %s", e.Key, typeNameOf(e.Value))
		}
		for _, st := range arr {
			if _, ok := st.(bson.D); !ok {
				return nil, mongoerr.Newf(mongoerr.ErrFacetStageNotObject, "elements of arrays in $facet spec must be non-empty objects, %s argument contained an element of type %s: %s", e.Key, typeNameOf(st), valueString(st))
			}
		}
		stages, err := parseStages(arr, sub)
		if err != nil {
			return nil, err
		}
		s.facets = append(s.facets, facet{name: e.Key, pipeline: arr, stages: stages})
	}
	return []Stage{s}, nil
}

func (s *facetStage) Name() string { return "$facet" }

func (s *facetStage) Spec() bson.D {
	body := bson.D{}
	for _, f := range s.facets {
		arr := bson.A{}
		for _, st := range f.stages {
			arr = append(arr, st.Spec())
		}
		body = append(body, bson.E{Key: f.name, Value: arr})
	}
	return stageSpec("$facet", body)
}

// open buffers the input once and runs every facet over it. The document
// it builds is bounded like mongod's (internalQueryFacetMaxOutputDocSizeBytes):
// the facets' results may hold value.MemoryLimit in all.
func (s *facetStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return s.openHoled(in, nil, rt), nil
}

// openHoled is open over an input whose documents carry holes (src; nil
// for none), which every facet's stages receive with the documents.
func (s *facetStage) openHoled(in Iterator, src HolesSource, rt *runtime) Iterator {
	done := false
	return funcIterator(func() (bson.D, bool, error) {
		if done {
			return nil, false, nil
		}
		done = true
		docs, holes, err := drainHoled(in, src)
		if err != nil {
			return nil, false, err
		}
		out := make(bson.D, 0, len(s.facets))
		used := 0
		for _, f := range s.facets {
			it := Iterator(NewSliceIterator(docs))
			holesIn, holesOut := holesPlan(f.stages, src != nil)
			if src != nil && holesIn != nil {
				it = &holedSlice{docs: docs, holes: holes}
			}
			for i, st := range f.stages {
				if it, err = openStage(st, it, rt, holesIn, holesOut, i); err != nil {
					return nil, false, err
				}
				if holesOut != nil && !holesOut[i] {
					it = noHoles{it}
				}
			}
			res, err := Drain(it)
			if err != nil {
				return nil, false, err
			}
			arr := make(bson.A, len(res))
			for i, r := range res {
				if used += value.MemSize(r); used > value.MemoryLimit {
					return nil, false, mongoerr.Newf(mongoerr.ErrFacetOutputTooLarge, "document constructed by $facet is %d bytes, which exceeds the limit of %d bytes", used, value.MemoryLimit)
				}
				arr[i] = r
			}
			out = append(out, bson.E{Key: f.name, Value: arr})
		}
		return out, true, nil
	})
}

// drainHoled is Drain that also keeps each document's holes when src
// tells them.
func drainHoled(in Iterator, src HolesSource) ([]bson.D, []*projection.Holes, error) {
	if src == nil {
		docs, err := Drain(in)
		return docs, nil, err
	}
	var docs []bson.D
	var holes []*projection.Holes
	for {
		d, ok, err := in.Next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return docs, holes, nil
		}
		docs = append(docs, d)
		holes = append(holes, src.Holes())
	}
}

// ---- $unionWith ----

type unionWithStage struct {
	coll     string
	pipeline bson.A
}

func parseUnionWith(spec any, p *parser) ([]Stage, error) {
	s := &unionWithStage{}
	switch x := spec.(type) {
	case string:
		s.coll = x
	case bson.D:
		for _, e := range x {
			switch e.Key {
			case "coll":
				c, ok := e.Value.(string)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$unionWith.coll' is the wrong type '%s', expected type 'string'", typeNameOf(e.Value))
				}
				s.coll = c
			case "pipeline":
				arr, ok := e.Value.(bson.A)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$unionWith.pipeline' is the wrong type '%s', expected type 'array'", typeNameOf(e.Value))
				}
				s.pipeline = arr
			default:
				return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$unionWith.%s' is an unknown field.", e.Key)
			}
		}
		if s.coll == "" && !(len(s.pipeline) > 0 && firstStageIs(s.pipeline, "$documents")) {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$unionWith stage without explicit collection must have a pipeline with $documents as first stage")
		}
	default:
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "the $unionWith stage specification must be an object or string, but found %s", typeNameOf(spec))
	}
	if err := p.enterSubPipeline(); err != nil {
		return nil, err
	}
	if err := p.parseSubPipeline(s.coll, s.pipeline, nil, "$unionWith"); err != nil {
		return nil, err
	}
	return []Stage{s}, nil
}

func (s *unionWithStage) Name() string { return "$unionWith" }

func (s *unionWithStage) Spec() bson.D {
	body := bson.D{{Key: "coll", Value: s.coll}}
	if s.pipeline != nil {
		body = append(body, bson.E{Key: "pipeline", Value: s.pipeline})
	} else {
		body = append(body, bson.E{Key: "pipeline", Value: bson.A{}})
	}
	return stageSpec("$unionWith", body)
}

// plannedSpec: DocumentSourceUnionWith::serialize explains the
// sub-pipeline as it runs on the other collection, behind a $cursor of
// its own (preparePipelineAndExplain), with its figures past queryPlanner
// verbosity (jstest core/query/explain/explain_unionwith_view.js).
func (s *unionWithStage) plannedSpec(ctx *Context, verbosity string) (bson.D, error) {
	if s.coll == "" {
		return nil, mongoerr.New(mongoerr.InternalError, "a collectionless $unionWith has no plan")
	}
	stages, err := ctx.ExplainPipeline(ctx.DB, s.coll, s.pipeline, verbosity)
	if err != nil {
		return nil, err
	}
	return stageSpec("$unionWith", bson.D{{Key: "coll", Value: s.coll}, {Key: "pipeline", Value: stages}}), nil
}

// open passes its input through, then the other collection's results.
func (s *unionWithStage) open(in Iterator, rt *runtime) (Iterator, error) {
	var other []bson.D
	inputDone, loaded := false, false
	return unionWithIterator{in: in, inputDone: &inputDone, Iterator: funcIterator(func() (bson.D, bool, error) {
		if !inputDone {
			d, ok, err := in.Next()
			if err != nil {
				return nil, false, err
			}
			if ok {
				return d, true, nil
			}
			inputDone = true
		}
		if !loaded {
			loaded = true
			pipeline := s.pipeline
			if pipeline == nil {
				pipeline = bson.A{}
			}
			var err error
			if other, err = rt.runSub(rt.ctx.DB, s.coll, pipeline, nil, nil); err != nil {
				return nil, false, err
			}
		}
		if len(other) == 0 {
			return nil, false, nil
		}
		d := other[0]
		other = other[1:]
		return d, true, nil
	})}, nil
}

// unionWithIterator is $unionWith's output: its input's documents keep
// their metadata (DocumentSourceUnionWith returns them as they come), the
// sub-pipeline's come without any here (see stateAt).
type unionWithIterator struct {
	Iterator
	in        Iterator
	inputDone *bool
}

func (u unionWithIterator) Meta() Meta {
	if *u.inputDone {
		return Meta{}
	}
	return metaOf(u.in)
}
