package aggregate

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ---- $match ----

type matchStage struct {
	filter bson.D
	m      *query.Filter
	next   []*matchStage // merged adjacent $match stages, all must match
}

func (s *matchStage) matches(d bson.D) bool {
	if !s.m.Matches(d) {
		return false
	}
	for _, n := range s.next {
		if !n.m.Matches(d) {
			return false
		}
	}
	return true
}

func parseMatch(spec any, p *parser) ([]Stage, error) {
	filter, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrMatchNotObject, "the match filter must be an expression in an object")
	}
	return oneStage(newMatch(filter, p))
}

func newMatch(filter bson.D, p *parser) (*matchStage, error) {
	m, err := query.Compile(filter, p.matchOptions())
	if err != nil {
		return nil, err
	}
	return &matchStage{filter: filter, m: m}, nil
}

// merged is DocumentSourceMatch::joinMatchWith: one stage for s and
// then cur, whose filter is both filters' $and.
func (s *matchStage) merged(cur *matchStage) *matchStage {
	return &matchStage{
		filter: bson.D{{Key: "$and", Value: bson.A{s.filter, cur.filter}}},
		m:      s.m,
		next:   append(append([]*matchStage{}, s.next...), cur),
	}
}

func (s *matchStage) Name() string { return "$match" }

// Spec is the filter as its MatchExpression serializes
// (DocumentSourceMatch::serialize): an equality as {$eq: v}, merged
// $match stages as one $and.
func (s *matchStage) Spec() bson.D {
	if m, err := query.Compile(s.filter, query.Options{}); err == nil {
		return stageSpec("$match", m.Serialize())
	}
	return stageSpec("$match", s.filter)
}

func (s *matchStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return funcIterator(func() (bson.D, bool, error) {
		for {
			d, ok, err := in.Next()
			if !ok || err != nil {
				return nil, false, err
			}
			if s.matches(d) {
				return d, true, nil
			}
		}
	}), nil
}

// ---- $limit / $skip ----

// parseCount64 reads $limit and $skip arguments as
// DocumentSourceLimit/DocumentSourceSkip::createFromBson do, through
// parseIntegerElementToNonNegativeLong: its reason follows "invalid
// argument to $skip stage: " (a double of 2^63 or more is refused, not
// clamped).
func parseCount64(name string, code int32, spec any) (int64, error) {
	n, reason := value.ParseIntegerElementToNonNegativeLong(name, spec)
	if reason != "" {
		return 0, mongoerr.Newf(code, "invalid argument to %s stage: %s", name, reason)
	}
	return n, nil
}

type limitStage struct{ n int64 }

func parseLimit(spec any, _ *parser) ([]Stage, error) {
	n, err := parseCount64("$limit", mongoerr.ErrLimitBadArgument, spec)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, mongoerr.New(mongoerr.ErrLimitNotPositive, "the limit must be positive")
	}
	return []Stage{&limitStage{n: n}}, nil
}

func (s *limitStage) Name() string { return "$limit" }
func (s *limitStage) Spec() bson.D { return stageSpec("$limit", s.n) }

func (s *limitStage) open(in Iterator, _ *runtime) (Iterator, error) {
	var seen int64
	return funcIterator(func() (bson.D, bool, error) {
		if seen >= s.n {
			return nil, false, nil
		}
		d, ok, err := in.Next()
		if ok {
			seen++
		}
		return d, ok, err
	}), nil
}

type skipStage struct{ n int64 }

func parseSkip(spec any, _ *parser) ([]Stage, error) {
	n, err := parseCount64("$skip", mongoerr.ErrSkipBadArgument, spec)
	if err != nil {
		return nil, err
	}
	return []Stage{&skipStage{n: n}}, nil
}

func (s *skipStage) Name() string { return "$skip" }
func (s *skipStage) Spec() bson.D { return stageSpec("$skip", s.n) }

func (s *skipStage) open(in Iterator, _ *runtime) (Iterator, error) {
	skipped := int64(0)
	return funcIterator(func() (bson.D, bool, error) {
		for skipped < s.n {
			_, ok, err := in.Next()
			if !ok || err != nil {
				return nil, false, err
			}
			skipped++
		}
		return in.Next()
	}), nil
}

// ---- $count: an alias for $group {_id: null, n: {$sum: 1}} + $project {_id: 0} ----

func parseCount(spec any, p *parser) ([]Stage, error) {
	field, ok := spec.(string)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrCountFieldNotString, "the count field must be a non-empty string")
	}
	if field == "" {
		return nil, mongoerr.New(mongoerr.ErrCountFieldEmpty, "the count field must be a non-empty string")
	}
	if field[0] == '$' {
		return nil, mongoerr.New(mongoerr.ErrCountFieldDollar, "the count field cannot be a $-prefixed path")
	}
	for i := 0; i < len(field); i++ {
		if field[i] == 0 {
			return nil, mongoerr.New(mongoerr.ErrCountFieldNullByte, "the count field cannot contain a null byte")
		}
	}
	for i := 0; i < len(field); i++ {
		if field[i] == '.' {
			return nil, mongoerr.New(mongoerr.ErrCountFieldDotted, "the count field cannot contain '.'")
		}
	}
	group, err := parseGroup(bson.D{{Key: "_id", Value: nil}, {Key: field, Value: bson.D{{Key: "$sum", Value: int32(1)}}}}, p)
	if err != nil {
		return nil, err
	}
	proj, err := parseProject(bson.D{{Key: "_id", Value: int32(0)}, {Key: field, Value: int32(1)}}, p)
	if err != nil {
		return nil, err
	}
	return append([]Stage{group}, proj...), nil
}

// ---- $sample ----

type sampleStage struct{ size int64 }

func parseSample(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrSampleNotObject, "the $sample stage specification must be an object")
	}
	var size int64
	sizeGiven := false
	for _, e := range d {
		if e.Key != "size" {
			return nil, mongoerr.Newf(mongoerr.ErrSampleUnknownOption, "unrecognized option to $sample: %s", e.Key)
		}
		if !value.IsNumber(e.Value) {
			return nil, mongoerr.New(mongoerr.ErrSampleSizeNotNumber, "size argument to $sample must be a number")
		}
		// DocumentSourceSample::createFromBson reads it with
		// safeNumberLong: truncated, NaN is 0, and a value beyond the long
		// range saturates (1e20 is the largest long, not negative).
		size, _ = value.SafeNumberLong(e.Value)
		sizeGiven = true
	}
	if !sizeGiven {
		return nil, mongoerr.New(mongoerr.ErrSampleNoSize, "$sample stage must specify a size")
	}
	if size < 0 {
		return nil, mongoerr.New(mongoerr.ErrSampleSizeNegative, "size argument to $sample must not be negative")
	}
	return []Stage{&sampleStage{size: size}}, nil
}

func (s *sampleStage) Name() string { return "$sample" }
func (s *sampleStage) Spec() bson.D {
	return stageSpec("$sample", bson.D{{Key: "size", Value: s.size}})
}

// open keeps a reservoir of size documents, so memory is bounded by the
// sample rather than the input, then yields them in random order.
func (s *sampleStage) open(in Iterator, _ *runtime) (Iterator, error) {
	return blockingIterator(func() ([]bson.D, error) {
		var res []bson.D
		seen := int64(0)
		for {
			d, ok, err := in.Next()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			seen++
			if int64(len(res)) < s.size {
				res = append(res, d)
			} else if j := rand.Int64N(seen); j < s.size {
				res[j] = d
			}
		}
		rand.Shuffle(len(res), func(i, j int) { res[i], res[j] = res[j], res[i] })
		return res, nil
	}, asIs), nil
}

// LeadingSample is the size of the pipeline's first stage when it is a
// $sample, which the query layer may serve from a random cursor.
func (p *Pipeline) LeadingSample() (int64, bool) {
	if len(p.stages) == 0 {
		return 0, false
	}
	s, ok := p.stages[0].(*sampleStage)
	if !ok {
		return 0, false
	}
	return s.size, true
}

// ReplaceLeadingSample turns the leading $sample into
// $sampleFromRandomCursor, once the query layer reads the collection
// through a random cursor (PipelineD::buildInnerQueryExecutorSample,
// pipeline_d.cpp).
func (p *Pipeline) ReplaceLeadingSample() {
	size, _ := p.LeadingSample()
	p.stages[0] = &sampleFromRandomCursorStage{size: size}
	p.stats[0] = &stageStats{}
}

// sampleFromRandomCursorStage is DocumentSourceSampleFromRandomCursor:
// it takes the first size documents of a random cursor. The sandbox's
// random cursor never returns a record twice, so mongod's check for
// duplicate _ids never finds one.
type sampleFromRandomCursorStage struct{ size int64 }

func (s *sampleFromRandomCursorStage) Name() string { return "$sampleFromRandomCursor" }
func (s *sampleFromRandomCursorStage) Spec() bson.D {
	return stageSpec(s.Name(), bson.D{{Key: "size", Value: s.size}})
}

func (s *sampleFromRandomCursorStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return (&limitStage{n: s.size}).open(in, rt)
}

// ---- $documents ----

// documentsStage is $documents, which mongod desugars
// (document_source_documents.cpp) into a $queue of one empty document, a
// $project of the specification into _tempDocumentsField (made by
// DocumentSourceProject::create under the name "$documents"), a strict
// $unwind of that field and a $replaceWith of it.
type documentsStage struct {
	spec any
	proj *projection.Projection
}

// documentsField is the field $documents' desugared stages pass the
// documents through (DocumentSourceDocuments::kGenFieldName).
const documentsField = "_tempDocumentsField"

func parseDocuments(spec any, p *parser) ([]Stage, error) {
	// The specification is parsed as that projection's value: an object
	// that is no expression is a sub-projection ({} fails with 51270), and
	// every parse error reads "Invalid $documents :: caused by :: ...".
	opts := p.projectionOptions()
	opts.Stage = "$documents"
	proj, err := projection.Compile(bson.D{{Key: documentsField, Value: spec}}, opts)
	if err != nil {
		return nil, err
	}
	return []Stage{&documentsStage{spec: spec, proj: proj}}, nil
}

func (s *documentsStage) Name() string { return "$documents" }
func (s *documentsStage) Spec() bson.D { return stageSpec("$documents", s.spec) }

func (s *documentsStage) open(_ Iterator, rt *runtime) (Iterator, error) {
	env := rt.newEnv()
	env.Reset(bson.D{})
	projected, err := s.proj.ApplyEnv(bson.D{}, env)
	if err != nil {
		return nil, err
	}
	// The strict $unwind refuses anything but an array, missing and null
	// included (UnwindProcessor::getNext).
	arr, ok := value.Get(projected, documentsField).(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrDocumentsNotArray, "an array is expected")
	}
	docs := make([]bson.D, 0, len(arr))
	for _, e := range arr {
		d, ok := e.(bson.D)
		if !ok {
			// mongod desugars $documents into $queue, $project into
			// _tempDocumentsField, $unwind and $replaceWith
			// (document_source_documents.cpp): a value that is no
			// object fails the $replaceWith.
			return nil, mongoerr.Newf(mongoerr.ErrReplaceRootResultNotObject,
				"'replacement document' must evaluate to an object, but resulting value was: %s. Type of resulting value: '%s'. Input document: %s",
				expr.StreamValue(e), typeNameOf(e), expr.StreamValue(bson.D{{Key: documentsField, Value: e}}))
		}
		docs = append(docs, d)
	}
	return NewSliceIterator(docs), nil
}

// ---- $replaceRoot / $replaceWith ----

type replaceRootStage struct {
	// name is how the error names the value, with the trailing space
	// mongod's context has before its template's " must evaluate".
	name    string
	newRoot any
	x       expr.Expr
}

func parseReplaceRoot(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrReplaceRootNotObject, "expected an object as specification for $replaceRoot stage, got %s", typeNameOf(spec))
	}
	var newRoot any = value.Missing{}
	for _, e := range d {
		if e.Key != "newRoot" {
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$replaceRoot.%s' is an unknown field.", e.Key)
		}
		newRoot = e.Value
	}
	if value.IsMissing(newRoot) {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field '$replaceRoot.newRoot' is missing but a required field")
	}
	x, err := p.compile(newRoot)
	if err != nil {
		return nil, err
	}
	return []Stage{&replaceRootStage{name: "'newRoot' expression ", newRoot: newRoot, x: x}}, nil
}

func parseReplaceWith(spec any, p *parser) ([]Stage, error) {
	x, err := p.compile(spec)
	if err != nil {
		return nil, err
	}
	return []Stage{&replaceRootStage{name: "'replacement document' ", newRoot: spec, x: x}}, nil
}

func (s *replaceRootStage) Name() string { return "$replaceRoot" }

// Spec: mongod serializes $replaceWith as $replaceRoot {newRoot: ...}, the
// expression as it optimized (ReplaceRootTransformation::
// serializeTransformation): literals as {$const: ...}, an object of
// constants as one.
func (s *replaceRootStage) Spec() bson.D {
	return stageSpec("$replaceRoot", bson.D{{Key: "newRoot", Value: expr.SerializeExplain(s.newRoot, nil)}})
}

func (s *replaceRootStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return openTransformer(s, in, rt), nil
}

func (s *replaceRootStage) transform(d bson.D, env *expr.Env) (bson.D, error) {
	env.Reset(d)
	v, err := s.x.Eval(env)
	if err != nil {
		return nil, err
	}
	nd, isDoc := v.(bson.D)
	if !isDoc {
		return nil, mongoerr.Newf(mongoerr.ErrReplaceRootResultNotObject,
			"%s must evaluate to an object, but resulting value was: %s. Type of resulting value: '%s'. Input document: %s",
			s.name, expr.StreamValue(v), typeNameOf(v), expr.StreamValue(d))
	}
	return nd, nil
}

// valueString renders a value in error messages as mongod does:
// {a: 1, b: "x"}, [1, 2], MISSING.
func valueString(v any) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case value.Missing:
		b.WriteString("MISSING")
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(x))
	case bson.D:
		b.WriteString("{")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e.Key)
			b.WriteString(": ")
			writeValue(b, e.Value)
		}
		b.WriteString("}")
	case bson.A:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteString("]")
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case bson.ObjectID:
		b.WriteString("ObjectId('" + x.Hex() + "')")
	case bson.DateTime:
		b.WriteString(x.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
	default:
		fmt.Fprint(b, v)
	}
}

// ---- $_internalInhibitOptimization ----

// inhibitStage passes documents through; standing first, it keeps a
// following $match or $sort from being pushed into the query
// (document_source_internal_inhibit_optimization.cpp), as MongoDB's own
// tests use it.
type inhibitStage struct{}

func parseInhibitOptimization(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$_internalInhibitOptimization must take a nested object but found: %s", value.FormatElem("$_internalInhibitOptimization", spec))
	}
	if len(d) != 0 {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$_internalInhibitOptimization must take an empty object but found: %s", value.Format(d))
	}
	return []Stage{inhibitStage{}}, nil
}

func (inhibitStage) Name() string                                   { return "$_internalInhibitOptimization" }
func (inhibitStage) Spec() bson.D                                   { return stageSpec("$_internalInhibitOptimization", bson.D{}) }
func (inhibitStage) open(in Iterator, _ *runtime) (Iterator, error) { return in, nil }

// ---- $_internalSplitPipeline ----

// splitPipelineStage is $_internalSplitPipeline on a mongod that is not
// part of a sharded cluster: its specification is parsed as
// DocumentSourceInternalSplitPipeline::createFromBson
// (document_source_internal_split_pipeline.cpp) does, and the stage passes
// its input through (doGetNext), where a shard would split the pipeline
// there. jstests/aggregation/sources/sort/collation_sort_japanese.js uses it.
type splitPipelineStage struct {
	mergeType string // "" when the specification names none
}

func parseSplitPipeline(spec any, _ *parser) ([]Stage, error) {
	const name = "$_internalSplitPipeline"
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "%s must take a nested object but found: %s", name, value.FormatElem(name, spec))
	}
	s := &splitPipelineStage{}
	for _, e := range d {
		if e.Key != "mergeType" {
			return nil, mongoerr.Newf(mongoerr.BadValue, "unrecognized field while parsing %s: '%s'", name, e.Key)
		}
		switch x := e.Value.(type) {
		case string:
			switch x {
			case "localOnly", "anyShard", "mongos":
				s.mergeType = x
			default:
				return nil, mongoerr.Newf(mongoerr.BadValue, "unrecognized field while parsing mergeType: '%s'", x)
			}
		case bson.D:
			if len(x) != 1 || x[0].Key != "specificShard" {
				return nil, mongoerr.New(mongoerr.ErrSplitPipelineSpecificShard, "Object argument to $_internalSplitPipeline must contain a single string field named 'specificShard'")
			}
			if _, isStr := x[0].Value.(string); !isStr {
				return nil, mongoerr.New(mongoerr.ErrSplitPipelineSpecificShard, "Object argument to $_internalSplitPipeline must contain a single string field named 'specificShard'")
			}
			return nil, mongoerr.New(mongoerr.ErrSplitPipelineNoSharding, "Cannot specify 'mergeType' of 'specificShard' and not have sharding enabled")
		default:
			return nil, mongoerr.Newf(mongoerr.BadValue, "'mergeType' must be a string value or an object but found: %s", typeNameOf(e.Value))
		}
	}
	return []Stage{s}, nil
}

func (s *splitPipelineStage) Name() string { return "$_internalSplitPipeline" }

// Spec: serialize writes mergeType only when the specification set one.
func (s *splitPipelineStage) Spec() bson.D {
	body := bson.D{}
	if s.mergeType != "" {
		body = append(body, bson.E{Key: "mergeType", Value: s.mergeType})
	}
	return stageSpec("$_internalSplitPipeline", body)
}

func (s *splitPipelineStage) open(in Iterator, _ *runtime) (Iterator, error) { return in, nil }
