package engine

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func parseCount(req *request) (*findSpec, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "query", "limit", "skip", "hint", "collation", "fields", "let", "readConcern", "mirrored", "sampleId"); err != nil {
		return nil, err
	}
	if err := checkReplicaReadFields(a); err != nil {
		return nil, err
	}
	s := &findSpec{coll: collName}
	if s.filter, _, err = a.document("query"); err != nil {
		return nil, err
	}
	if s.skip, _, err = a.int64Arg("skip"); err != nil {
		return nil, err
	}
	if s.skip < 0 {
		return nil, mongoerr.Newf(51024, "BSON field 'skip' value must be >= 0, actual value '%d'", s.skip)
	}
	if s.limit, err = countLimit(a); err != nil {
		return nil, err
	}
	if s.hint, err = hintArg(a); err != nil {
		return nil, err
	}
	if err := planner.CheckNatural(nil, s.hint); err != nil {
		return nil, err
	}
	if s.let, err = letArg(a, req.now); err != nil {
		return nil, err
	}
	return s, checkCollation(a)
}

// countLimit is count_request.cpp's countParseLimit, the deserializer of
// count_command.idl's countLimit type: the limit must be a number
// (BadValue), an integer (parseIntegerElementToLong's FailedToParse) and
// not the least long, whose absolute value a long cannot hold; a negative
// limit counts as its absolute value.
func countLimit(a args) (int64, error) {
	v, ok := a.get("limit")
	if !ok {
		return 0, nil
	}
	if !value.IsNumber(v) {
		return 0, mongoerr.New(mongoerr.BadValue, "limit value is not a valid number")
	}
	n, reason := value.ParseIntegerElementToLong("limit", v)
	if reason != "" {
		return 0, mongoerr.New(mongoerr.FailedToParse, reason)
	}
	if n == math.MinInt64 {
		return 0, mongoerr.New(mongoerr.BadValue, "limit value for count cannot be min long")
	}
	if n < 0 {
		n = -n
	}
	return n, nil
}

func countQuery(req *request, s *findSpec) (planner.Query, error) {
	q := planner.Query{Skip: s.skip, Limit: s.limit, Hint: s.hint, Count: true, Shape: &planner.Shape{Filter: s.filter}}
	if len(s.filter) > 0 {
		f, err := query.Compile(s.filter, query.Options{Now: req.now, LetVars: s.let, JSONSchema: validation.CompileSchema})
		if err != nil {
			return q, err
		}
		q.Filter = f
	}
	return q, nil
}

func cmdCount(e *Engine, req *request) (bson.D, error) {
	if out, ok, err := e.readCommand(req); ok {
		return out, err
	}
	s, err := parseCount(req)
	if err != nil {
		return nil, err
	}
	q, err := countQuery(req, s)
	if err != nil {
		return nil, err
	}
	q.Ctx = req.ctx
	exec, err := e.plan(e.catalog.Snapshot(req.db, s.coll), ns(req.db, s.coll), q)
	if err != nil {
		return nil, err
	}
	n, err := exec.Count()
	e.planRan(req, exec)
	if err != nil {
		return nil, err
	}
	return bson.D{{Key: "n", Value: int32(n)}}, nil
}

func parseDistinct(req *request) (*findSpec, string, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, "", err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "key", "query", "hint", "collation", "let", "mirrored", "sampleId"); err != nil {
		return nil, "", err
	}
	if err := checkReplicaReadFields(a); err != nil {
		return nil, "", err
	}
	key, ok, err := a.str("key")
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'distinct.key' is missing but a required field")
	}
	s := &findSpec{coll: collName}
	if s.filter, _, err = a.document("query"); err != nil {
		return nil, "", err
	}
	if h, ok := a.get("hint"); ok {
		if hd, isDoc := h.(bson.D); !isDoc || len(hd) > 0 {
			s.hint = h
		}
	}
	if s.let, err = letArg(a, req.now); err != nil {
		return nil, "", err
	}
	if err := checkCollation(a); err != nil {
		return nil, "", err
	}
	// CanonicalDistinct::parse checks the key before building the query
	// from it.
	if strings.Contains(key, "\x00") {
		return nil, "", mongoerr.New(31032, "Key field cannot contain an embedded null byte")
	}
	return s, key, nil
}

func cmdDistinct(e *Engine, req *request) (bson.D, error) {
	if out, ok, err := e.readCommand(req); ok {
		return out, err
	}
	s, key, err := parseDistinct(req)
	if err != nil {
		return nil, err
	}
	q, err := distinctQuery(req, s, key)
	if err != nil {
		return nil, err
	}
	q.Ctx = req.ctx
	const errContext = "Executor error during distinct command"
	exec, err := e.plan(e.catalog.Snapshot(req.db, s.coll), ns(req.db, s.coll), q)
	if err != nil {
		return nil, executorError(errContext, err)
	}
	values, approxBytes, err := distinctValues(executorStream(exec, nil).next, key)
	e.planRan(req, exec)
	if err == nil && approxBytes >= maxDistinctResponse {
		err = errDistinctTooBig(mongoerr.ErrDistinctTooBig)
	}
	if err != nil {
		return nil, executorError(errContext, err)
	}
	reply := bson.D{{Key: "values", Value: values}}
	if value.Size(reply) >= maxDistinctResponse {
		return nil, errDistinctTooBig(mongoerr.ErrDistinctReplyTooBig)
	}
	return reply, nil
}

// maxDistinctResponse is distinct's kMaxResponseSize (distinct.cpp):
// 4 KB short of the 16 MB document limit, leaving room for the rest of
// the reply.
const maxDistinctResponse = value.MaxUserDocumentSize - 4096

// errDistinctTooBig is distinct's refusal of a result past
// maxDistinctResponse: 17217 while it collects the values (the sum of
// each new value's BSON element, an estimate that bounds its memory),
// 31299 for the reply they make.
func errDistinctTooBig(code int32) error {
	return mongoerr.New(code, "distinct too big, 16mb cap")
}

// distinctQuery plans a distinct as getExecutorDistinct does: the query
// projects only the key ({_id: 0, key: 1}; the prefix before a numeric
// path component, which a projection cannot name; src/mongo/db/query/
// canonical_distinct.cpp, getDistinctProjection), so an index led by the
// key answers it with a DISTINCT_SCAN.
func distinctQuery(req *request, s *findSpec, key string) (planner.Query, error) {
	field := key
	if parts := splitDots(key); len(parts) > 1 {
		for i, p := range parts[1:] {
			if _, numeric := value.ArrayIndex(p); numeric {
				field = strings.Join(parts[:i+1], ".")
				break
			}
		}
	}
	// A key under _id (getProjectedDottedField's isID) keeps _id's default
	// inclusion: {_id: 0, "_id.a": 1} would be a path collision.
	s.projection = bson.D{{Key: "_id", Value: int32(0)}, {Key: field, Value: int32(1)}}
	if field == "_id" || strings.HasPrefix(key, "_id.") {
		s.projection = bson.D{{Key: field, Value: int32(1)}}
	}
	q, err := plannerQuery(req, s)
	q.DistinctKey = key
	return q, err
}

// distinctValues collects the distinct values at a dotted path of the
// documents next yields (a plan's or a pipeline's results): arrays
// contribute their elements (one level, as mongod's distinct does), and
// the result is in BSON order. approxBytes sums the BSON element of each
// distinct value as it was first met (its field name the path's last
// part, or its index in the array it came from), as distinct.cpp counts
// them against its limit.
func distinctValues(next func() (bson.D, bool, error), path string) (values bson.A, approxBytes int, err error) {
	var found []distinctValue
	parts := splitDots(path)
	for {
		d, ok, err := next()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			break
		}
		collectPathValues(d, parts, parts[len(parts)-1], &found)
	}
	slices.SortStableFunc(found, func(a, b distinctValue) int { return value.Compare(a.v, b.v) })
	values = bson.A{}
	for i, f := range found {
		if i > 0 && value.Compare(found[i-1].v, f.v) == 0 {
			continue
		}
		values = append(values, f.v)
		approxBytes += value.Size(bson.D{{Key: f.name, Value: f.v}}) - 5 // the element, without the document around it
	}
	return values, approxBytes, nil
}

// distinctValue is a value distinct found and the name of the field it
// was found in.
type distinctValue struct {
	v    any
	name string
}

func collectPathValues(v any, path []string, name string, out *[]distinctValue) {
	if len(path) == 0 {
		if arr, ok := v.(bson.A); ok {
			for i, el := range arr {
				*out = append(*out, distinctValue{v: el, name: strconv.Itoa(i)})
			}
			return
		}
		if !value.IsMissing(v) {
			*out = append(*out, distinctValue{v: v, name: name})
		}
		return
	}
	switch x := v.(type) {
	case bson.D:
		collectPathValues(value.Get(x, path[0]), path[1:], name, out)
	case bson.A:
		if i, ok := value.ArrayIndex(path[0]); ok && i < len(x) {
			collectPathValues(x[i], path[1:], name, out)
			return
		}
		for _, el := range x {
			if d, ok := el.(bson.D); ok {
				collectPathValues(value.Get(d, path[0]), path[1:], name, out)
			}
		}
	}
}
