package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type letVar struct {
	name string
	spec any
	x    expr.Expr
}

type lookupStage struct {
	unwind       *unwindStage // an absorbed $unwind of the "as" field
	from         string
	as           string
	asParts      []string
	localField   string
	localParts   []string
	foreignField string
	let          []letVar
	pipeline     bson.A
	hasPipeline  bool
	scanned      ScanStats // what the foreign reads examined, for explain
}

func parseLookup(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.FailedToParse, "the $lookup specification must be an Object")
	}
	s := &lookupStage{}
	hasLet := false
	var letSpec bson.D
	for _, e := range d {
		switch e.Key {
		case "pipeline":
			arr, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "'pipeline' option must be specified as an array")
			}
			s.pipeline, s.hasPipeline = arr, true
			continue
		case "let":
			ld, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.FailedToParse, "$lookup argument 'let: %s' must be an object, is type %s", docString(e.Value), typeNameOf(e.Value))
			}
			letSpec, hasLet = ld, true
			continue
		case "from":
			switch f := e.Value.(type) {
			case string:
				s.from = f
			case bson.D:
				return nil, mongoerr.Newf(mongoerr.FailedToParse, "$lookup with syntax {from: {db:<>, coll:<>},..} is not supported for db: %s and coll: %s", docString(value.Get(f, "db")), docString(value.Get(f, "coll")))
			default:
				return nil, mongoerr.Newf(mongoerr.FailedToParse, "$lookup 'from' field must be a string, but found %s", typeNameOf(e.Value))
			}
			continue
		}
		str, isStr := e.Value.(string)
		if !isStr {
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "$lookup argument '%s' must be a string, found %s: %s: %s", e.Key, e.Key, valueString(e.Value), typeNameOf(e.Value))
		}
		switch e.Key {
		case "as":
			s.as = str
		case "localField":
			s.localField = str
		case "foreignField":
			s.foreignField = str
		default:
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "unknown argument to $lookup: %s", e.Key)
		}
	}
	if s.from == "" && !(s.hasPipeline && len(s.pipeline) > 0 && firstStageIs(s.pipeline, "$documents")) {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$lookup stage without explicit collection must have a pipeline with $documents as first stage")
	}
	if s.as == "" {
		return nil, mongoerr.New(mongoerr.FailedToParse, "must specify 'as' field for a $lookup")
	}
	if s.hasPipeline {
		if (s.localField == "") != (s.foreignField == "") {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$lookup requires both or neither of 'localField' and 'foreignField' to be specified")
		}
	} else {
		if s.localField == "" || s.foreignField == "" {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified")
		}
		if hasLet {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$lookup with a 'let' argument must also specify 'pipeline'")
		}
	}
	// The constructors build 'as', then localField and foreignField, as
	// FieldPaths, once the options are known to fit together; the
	// pipeline form then checks and parses each let variable in turn
	// (document_source_lookup.cpp).
	if err := projection.ValidateFieldPath(s.as); err != nil {
		return nil, err
	}
	s.asParts = splitPath(s.as)
	if err := p.enterSubPipeline(); err != nil {
		return nil, err
	}
	if s.localField != "" {
		for _, f := range []string{s.localField, s.foreignField} {
			if err := projection.ValidateFieldPath(f); err != nil {
				return nil, err
			}
		}
		s.localParts = splitPath(s.localField)
	}
	var names []string
	for _, e := range letSpec {
		if err := expr.ValidateVarNameForWrite(e.Key); err != nil {
			return nil, err
		}
		x, err := p.compile(e.Value)
		if err != nil {
			return nil, err
		}
		s.let = append(s.let, letVar{name: e.Key, spec: e.Value, x: x})
		names = append(names, e.Key)
	}
	if s.hasPipeline {
		if err := p.parseSubPipeline(s.from, s.pipeline, names, "$lookup"); err != nil {
			return nil, err
		}
	}
	return []Stage{s}, nil
}

func firstStageIs(pipeline bson.A, name string) bool {
	d, ok := pipeline[0].(bson.D)
	return ok && len(d) == 1 && d[0].Key == name
}

func (s *lookupStage) Name() string { return "$lookup" }

func (s *lookupStage) Spec() bson.D {
	body := bson.D{{Key: "from", Value: s.from}, {Key: "as", Value: s.as}}
	if s.localField != "" {
		body = append(body, bson.E{Key: "localField", Value: s.localField}, bson.E{Key: "foreignField", Value: s.foreignField})
	}
	if s.hasPipeline {
		let := bson.D{}
		for _, l := range s.let {
			let = append(let, bson.E{Key: l.name, Value: l.spec})
		}
		body = append(body, bson.E{Key: "let", Value: let}, bson.E{Key: "pipeline", Value: s.pipeline})
	}
	if s.unwind != nil {
		body = append(body, bson.E{Key: "unwinding", Value: s.unwind.unwinding()})
	}
	return stageSpec("$lookup", body)
}

// execStats: DocumentSourceLookUp::appendSpecificExecStats, what the
// foreign reads examined.
func (s *lookupStage) execStats() bson.D {
	used := make(bson.A, len(s.scanned.IndexesUsed))
	for i, ix := range s.scanned.IndexesUsed {
		used[i] = ix
	}
	return bson.D{
		{Key: "totalDocsExamined", Value: s.scanned.DocsExamined},
		{Key: "totalKeysExamined", Value: s.scanned.KeysExamined},
		{Key: "collectionScans", Value: s.scanned.CollectionScans},
		{Key: "indexesUsed", Value: used},
	}
}

// localMatch builds the foreign filter for a local document: every value
// the local path reaches (arrays expanded, as visitAllValuesAtPath does),
// or null when it reaches none, as mongod's makeMatchStageFromInput does.
func (s *lookupStage) localMatch(d bson.D) bson.D {
	vals := getAllValues(d, s.localParts)
	if len(vals) == 0 {
		vals = []any{nil}
	}
	// The same three forms as mongod: $eq for one value, $in for several,
	// and $or of $eq when a regex must match as a value, not a pattern.
	if len(vals) == 1 {
		return bson.D{{Key: s.foreignField, Value: bson.D{{Key: "$eq", Value: vals[0]}}}}
	}
	hasRegex := false
	for _, v := range vals {
		if _, ok := v.(bson.Regex); ok {
			hasRegex = true
		}
	}
	if hasRegex {
		or := make(bson.A, 0, len(vals))
		for _, v := range vals {
			or = append(or, bson.D{{Key: s.foreignField, Value: bson.D{{Key: "$eq", Value: v}}}})
		}
		return bson.D{{Key: "$or", Value: or}}
	}
	return bson.D{{Key: s.foreignField, Value: bson.D{{Key: "$in", Value: bson.A(vals)}}}}
}

func (s *lookupStage) open(in Iterator, rt *runtime) (Iterator, error) {
	if s.unwind != nil {
		it, err := s.join(in, rt)
		if err != nil {
			return nil, err
		}
		return s.unwind.open(it, rt)
	}
	return s.join(in, rt)
}

func (s *lookupStage) join(in Iterator, rt *runtime) (Iterator, error) {
	env := rt.newEnv()
	return funcIterator(func() (bson.D, bool, error) {
		d, ok, err := in.Next()
		if !ok || err != nil {
			return nil, false, err
		}
		var matches []bson.D
		switch {
		case !s.hasPipeline:
			matches, err = rt.query(rt.ctx.DB, s.from, s.localMatch(d), &s.scanned)
		default:
			env.Reset(d)
			let := make(bson.D, 0, len(s.let))
			for _, l := range s.let {
				v, err := l.x.Eval(env)
				if err != nil {
					return nil, false, err
				}
				let = append(let, bson.E{Key: l.name, Value: v})
			}
			pipeline := s.pipeline
			if s.localField != "" {
				// The join's $match goes after a leading $documents, which
				// is the pipeline's source (resolvedPipelineHelper,
				// document_source_lookup.cpp).
				at := 0
				if len(s.pipeline) > 0 && firstStageIs(s.pipeline, "$documents") {
					at = 1
				}
				pipeline = make(bson.A, 0, len(s.pipeline)+1)
				pipeline = append(pipeline, s.pipeline[:at]...)
				pipeline = append(pipeline, bson.D{{Key: "$match", Value: s.localMatch(d)}})
				pipeline = append(pipeline, s.pipeline[at:]...)
			}
			matches, err = rt.runSub(rt.ctx.DB, s.from, pipeline, let, &s.scanned)
		}
		if err != nil {
			return nil, false, err
		}
		// mongod bounds the joined documents of one input document
		// (internalLookupStageIntermediateDocumentMaxSizeBytes), checking
		// the total so far before it adds the next one.
		arr := make(bson.A, len(matches))
		size := 0
		for i, m := range matches {
			if size > value.MemoryLimit {
				return nil, false, mongoerr.Newf(mongoerr.ErrLookupResultTooLarge, "Total size of documents in %s matching pipeline's $lookup stage exceeds %d bytes", s.from, value.MemoryLimit)
			}
			size += value.MemSize(m)
			arr[i] = m
		}
		return setNested(d, s.asParts, arr), true, nil
	}), nil
}
