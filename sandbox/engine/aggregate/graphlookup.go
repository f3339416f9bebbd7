package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type graphLookupStage struct {
	unwind         *unwindStage // an absorbed $unwind of the "as" field
	from           string
	as             string
	asParts        []string
	startWithSpec  any
	startWith      expr.Expr
	connectFrom    string
	connectFromPts []string
	connectTo      string
	depthField     string
	depthParts     []string
	maxDepth       int64 // -1: unlimited
	restrict       bson.D
}

func parseGraphLookup(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "the $graphLookup stage specification must be an object, but found %s", typeNameOf(spec))
	}
	// DocumentSourceGraphLookUp::LiteParsed::parse resolves 'from' before
	// the stage itself is parsed (parseGraphLookupFromAndResolveNamespace).
	from, found := value.Get(d, "from"), false
	for _, e := range d {
		found = found || e.Key == "from"
	}
	if !found {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "missing 'from' option to $graphLookup stage specification: %s", docString(d))
	}
	if fromStr, isStr := from.(string); !isStr {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$graphLookup 'from' field must be a string, but found %s", typeNameOf(from))
	} else if fromStr == "" {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "invalid $graphLookup namespace: %s.", p.ctx.DB)
	}
	s := &graphLookupStage{maxDepth: -1}
	for _, e := range d {
		switch e.Key {
		case "startWith":
			x, err := p.compile(e.Value)
			if err != nil {
				return nil, err
			}
			s.startWithSpec, s.startWith = e.Value, x
			continue
		case "maxDepth":
			if !value.IsNumber(e.Value) {
				return nil, mongoerr.Newf(mongoerr.ErrGraphLookupMaxDepthNotNumber, "maxDepth must be numeric, found type: %s", typeNameOf(e.Value))
			}
			f := value.ToDouble(e.Value)
			n := int64(f)
			if n < 0 {
				return nil, mongoerr.Newf(mongoerr.ErrGraphLookupMaxDepthNegative, "maxDepth requires a nonnegative argument, found: %d", n)
			}
			if float64(n) != f {
				return nil, mongoerr.Newf(mongoerr.ErrGraphLookupMaxDepthTooLarge, "maxDepth could not be represented as a long long: %d", n)
			}
			s.maxDepth = n
			continue
		case "restrictSearchWithMatch":
			m, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrGraphLookupRestrictNotObject, "restrictSearchWithMatch must be an object, found %s", typeNameOf(e.Value))
			}
			if _, err := query.Compile(m, query.Options{Now: p.ctx.Now, LetVars: p.letVals, JSONSchema: validation.CompileSchema}); err != nil {
				me := mongoerr.As(err)
				return nil, mongoerr.Newf(me.Code, "Failed to parse 'restrictSearchWithMatch' option to $graphLookup :: caused by :: %s", me.Msg)
			}
			s.restrict = m
			continue
		case "from", "as", "connectFromField", "connectToField", "depthField":
		default:
			return nil, mongoerr.Newf(mongoerr.ErrGraphLookupUnknownArgument, "Unknown argument to $graphLookup: %s", e.Key)
		}
		str, isStr := e.Value.(string)
		if !isStr {
			return nil, mongoerr.Newf(mongoerr.ErrGraphLookupArgumentNotString, "expected string as argument for %s, found: %s", e.Key, typeNameOf(e.Value))
		}
		switch e.Key {
		case "from":
			s.from = str
		case "as":
			s.as = str
		case "connectFromField":
			s.connectFrom = str
		case "connectToField":
			s.connectTo = str
		case "depthField":
			if err := projection.ValidateFieldPath(str); err != nil {
				return nil, err
			}
			s.depthField = str
		}
	}
	if s.from == "" || s.as == "" || s.startWith == nil || s.connectFrom == "" || s.connectTo == "" {
		return nil, mongoerr.New(mongoerr.ErrGraphLookupMissingArguments, "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified.")
	}
	for _, f := range []string{s.as, s.connectFrom, s.connectTo} {
		if err := projection.ValidateFieldPath(f); err != nil {
			return nil, err
		}
	}
	s.asParts = splitPath(s.as)
	s.connectFromPts = splitPath(s.connectFrom)
	if s.depthField != "" {
		s.depthParts = splitPath(s.depthField)
	}
	// DocumentSourceGraphLookUp's constructor, once the specification is
	// parsed, copies the context for its foreign collection with
	// copyForSubPipeline, which counts the stage towards the depth limit.
	if err := p.enterSubPipeline(); err != nil {
		return nil, err
	}
	return []Stage{s}, nil
}

func (s *graphLookupStage) Name() string { return "$graphLookup" }

func (s *graphLookupStage) Spec() bson.D {
	body := bson.D{
		{Key: "from", Value: s.from}, {Key: "as", Value: s.as},
		{Key: "connectToField", Value: s.connectTo}, {Key: "connectFromField", Value: s.connectFrom},
		{Key: "startWith", Value: s.startWithSpec},
	}
	if s.depthField != "" {
		body = append(body, bson.E{Key: "depthField", Value: s.depthField})
	}
	if s.maxDepth >= 0 {
		body = append(body, bson.E{Key: "maxDepth", Value: s.maxDepth})
	}
	if s.restrict != nil {
		body = append(body, bson.E{Key: "restrictSearchWithMatch", Value: s.restrict})
	}
	if s.unwind != nil {
		body = append(body, bson.E{Key: "unwinding", Value: s.unwind.unwinding()})
	}
	return stageSpec("$graphLookup", body)
}

func (s *graphLookupStage) open(in Iterator, rt *runtime) (Iterator, error) {
	if s.unwind != nil {
		it, err := s.join(in, rt)
		if err != nil {
			return nil, err
		}
		return s.unwind.open(it, rt)
	}
	return s.join(in, rt)
}

func (s *graphLookupStage) join(in Iterator, rt *runtime) (Iterator, error) {
	env := rt.newEnv()
	return funcIterator(func() (bson.D, bool, error) {
		d, ok, err := in.Next()
		if !ok || err != nil {
			return nil, false, err
		}
		env.Reset(d)
		start, err := s.startWith.Eval(env)
		if err != nil {
			return nil, false, err
		}
		found, err := s.search(start, rt)
		if err != nil {
			return nil, false, err
		}
		return setNested(d, s.asParts, found), true, nil
	}), nil
}

// search is a breadth-first traversal: each depth level is one query,
// {connectToField: {$in: frontier}} (plus restrictSearchWithMatch), so an
// index on connectToField serves it. Documents are visited once, by _id,
// which makes cycles harmless; values already queried are not queried
// again; a document without connectFromField ends its branch.
//
// Like mongod it holds at most value.MemoryLimit of visited documents and
// frontier values (internalDocumentSourceGraphLookupMaxMemoryBytes), and
// cannot spill past it whatever allowDiskUse says.
func (s *graphLookupStage) search(start any, rt *runtime) (bson.A, error) {
	var frontier bson.A
	queried := map[string]struct{}{}
	var key []byte
	visitedBytes, frontierBytes := 0, 0
	addValue := func(v any) {
		if value.IsMissing(v) {
			return
		}
		key = appendKey(key[:0], v)
		if _, done := queried[string(key)]; done {
			return
		}
		queried[string(key)] = struct{}{}
		frontier = append(frontier, v)
		frontierBytes += value.MemSize(v)
	}
	if arr, ok := start.(bson.A); ok {
		for _, v := range arr {
			addValue(v)
		}
	} else {
		addValue(start)
	}
	visited := map[string]struct{}{}
	results := bson.A{}
	for depth := int64(0); len(frontier) > 0 && (s.maxDepth < 0 || depth <= s.maxDepth); depth++ {
		if err := rt.ctx.err(); err != nil {
			return nil, err
		}
		docs, err := s.queryFrontier(frontier, rt)
		if err != nil {
			return nil, err
		}
		frontier, frontierBytes = nil, 0
		for _, doc := range docs {
			key = appendKey(key[:0], value.Get(doc, "_id"))
			if _, seen := visited[string(key)]; seen {
				continue
			}
			visited[string(key)] = struct{}{}
			out := doc
			if s.depthParts != nil {
				out = setNested(doc, s.depthParts, depth)
			}
			results = append(results, out)
			visitedBytes += value.MemSize(out)
			next := getAllValues(doc, s.connectFromPts)
			for _, v := range next {
				addValue(v)
			}
			if visitedBytes+frontierBytes >= value.MemoryLimit {
				return nil, mongoerr.New(mongoerr.ErrGraphLookupMemoryExceeded, "$graphLookup reached maximum memory consumption")
			}
		}
	}
	return results, nil
}

// frontierBatch bounds the $in list of one lookup query. Matching a
// document against {$in: list} and checking an index key against the
// list's intervals both cost time in the list's length, so one query with
// a whole wide level (thousands of values) is quadratic; batches keep
// each query's cost linear in the documents it returns.
const frontierBatch = 64

// queryFrontier finds the documents whose connectToField matches one of
// the frontier's values (and restrictSearchWithMatch), batch by batch.
func (s *graphLookupStage) queryFrontier(frontier bson.A, rt *runtime) ([]bson.D, error) {
	var docs []bson.D
	for start := 0; start < len(frontier); start += frontierBatch {
		if err := rt.ctx.err(); err != nil {
			return nil, err
		}
		batch := frontier[start:min(start+frontierBatch, len(frontier))]
		filter := s.frontierFilter(batch)
		var found []bson.D
		var err error
		if s.restrict != nil && len(rt.letVals) > 0 {
			// restrictSearchWithMatch may read variables ($expr with
			// $$name): the command's let and, inside a $lookup, its let.
			// A sub-pipeline sees them, as mongod copies the variables into
			// the expression context of its own query. Without variables
			// in scope the plain query is the same and cheaper.
			found, err = rt.runSub(rt.ctx.DB, s.from, bson.A{bson.D{{Key: "$match", Value: filter}}}, nil, nil)
		} else {
			found, err = rt.query(rt.ctx.DB, s.from, filter, nil)
		}
		if err != nil {
			return nil, err
		}
		if docs == nil {
			docs = found
		} else {
			docs = append(docs, found...)
		}
	}
	return docs, nil
}

// frontierFilter is mongod's makeMatchStageFromFrontier:
// {$and: [restrictSearchWithMatch, {connectToField: {$in: values}}]}, and,
// because $in conflates null, undefined and missing, when the values hold
// null or undefined also {connectToField: {$exists: true}} and a $not
// $type excluding whichever of the two is not among them.
func (s *graphLookupStage) frontierFilter(values bson.A) bson.D {
	and := make(bson.A, 0, 4)
	if s.restrict != nil {
		and = append(and, s.restrict)
	}
	and = append(and, bson.D{{Key: s.connectTo, Value: bson.D{{Key: "$in", Value: values}}}})
	hasNull, hasUndefined := false, false
	for _, v := range values {
		switch v.(type) {
		case nil:
			hasNull = true
		case bson.Undefined:
			hasUndefined = true
		}
	}
	if hasNull || hasUndefined {
		and = append(and, bson.D{{Key: s.connectTo, Value: bson.D{{Key: "$exists", Value: true}}}})
		exclude := ""
		switch {
		case !hasUndefined:
			exclude = "undefined"
		case !hasNull:
			exclude = "null"
		}
		if exclude != "" {
			and = append(and, bson.D{{Key: s.connectTo, Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$type", Value: exclude}}}}}})
		}
	}
	return bson.D{{Key: "$and", Value: and}}
}

// getAllValues returns every value a path reaches, as mongod's
// document_path_support::visitAllValuesAtPath does: arrays are expanded
// along the way (documents only: an array inside an array is not entered)
// and at the end, a numeric component after an array value is a position
// in it ("a.0.x"), and a missing path yields nothing.
func getAllValues(d bson.D, parts []string) []any {
	var out []any
	trailing := func(v any) {
		if a, ok := v.(bson.A); ok {
			for _, e := range a {
				if !value.IsMissing(e) {
					out = append(out, e)
				}
			}
			return
		}
		if !value.IsMissing(v) {
			out = append(out, v)
		}
	}
	var walk func(d bson.D, i int)
	walk = func(d bson.D, i int) {
		// The first component is a field name even when it is numeric.
		v := value.Get(d, parts[i])
		i++
		for i < len(parts) {
			a, isArray := v.(bson.A)
			if !isArray {
				break
			}
			pos, isPos := value.ParseUnsignedBase10(parts[i])
			if !isPos {
				break
			}
			v = value.Missing{}
			if pos < len(a) {
				v = a[pos]
			}
			i++
		}
		if i == len(parts) {
			trailing(v)
			return
		}
		switch x := v.(type) {
		case bson.D:
			walk(x, i)
		case bson.A:
			for _, e := range x {
				if sub, ok := e.(bson.D); ok {
					walk(sub, i)
				}
			}
		}
	}
	walk(d, 0)
	return out
}
