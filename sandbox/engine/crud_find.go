package engine

import (
	"context"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// findSpec is a parsed find command (also built by explain and by count,
// distinct and findAndModify for their query part).
type findSpec struct {
	coll        string
	filter      bson.D
	sort        bson.D
	projection  bson.D
	hint        any
	skip        int64
	limit       int64
	batchSize   int64
	hasBatch    bool
	singleBatch bool
	let         bson.D
	// tailable and awaitData ask for a tailable cursor (tailable.go).
	tailable, awaitData bool
	// min and max are index bounds, checked by the planner (minmax.go).
	min, max bson.D
	// returnKey answers each document's index key instead of the document.
	returnKey bool
	// showRecordId adds each document's record id as $recordId.
	showRecordId bool
}

var findFields = []string{"filter", "projection", "sort", "hint", "skip", "limit", "batchSize",
	"singleBatch", "let", "collation", "allowDiskUse", "noCursorTimeout", "returnKey",
	"showRecordId", "min", "max", "tailable", "awaitData", "allowPartialResults", "oplogReplay",
	"readOnce", "$_requestResumeToken", "$_resumeAfter", "term", "ntoreturn",
	"allowSpeculativeMajorityRead", "includeQueryStatsMetrics", "collectionUUID", "mirrored", "sampleId"}

// checkReplicaReadFields type-checks the fields find, count and distinct
// take for what a replica set does with a read and a single node ignores
// (find_command.idl, count_command.idl, distinct_command.idl): mirrored,
// an optionalBool that marks a read a primary mirrors to its secondaries
// (mirror_maestro.cpp appends mirrored: true), and sampleId, the UUID
// analyzeShardKey's query sampling gives a sampled read.
func checkReplicaReadFields(a args) error {
	if _, err := a.boolean("mirrored", false); err != nil {
		return err
	}
	_, _, err := a.uuid("sampleId")
	return err
}

func parseFind(req *request) (*findSpec, error) {
	coll, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, findFields...); err != nil {
		return nil, err
	}
	if err := checkReplicaReadFields(a); err != nil {
		return nil, err
	}
	s := &findSpec{coll: coll}
	if s.filter, _, err = a.document("filter"); err != nil {
		return nil, err
	}
	if s.projection, _, err = a.document("projection"); err != nil {
		return nil, err
	}
	if s.sort, _, err = a.document("sort"); err != nil {
		return nil, err
	}
	if s.let, err = letArg(a, req.now); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	if s.hint, err = hintArg(a); err != nil {
		return nil, err
	}
	if s.skip, _, err = a.int64Arg("skip"); err != nil {
		return nil, err
	}
	if s.skip < 0 {
		return nil, mongoerr.Newf(51024, "BSON field 'skip' value must be >= 0, actual value '%d'", s.skip)
	}
	if s.limit, _, err = a.int64Arg("limit"); err != nil {
		return nil, err
	}
	if s.limit < 0 {
		return nil, mongoerr.Newf(51024, "BSON field 'limit' value must be >= 0, actual value '%d'", s.limit)
	}
	if s.batchSize, s.hasBatch, err = a.int64Arg("batchSize"); err != nil {
		return nil, err
	}
	if s.batchSize < 0 {
		return nil, mongoerr.Newf(51024, "BSON field 'batchSize' value must be >= 0, actual value '%d'", s.batchSize)
	}
	if s.singleBatch, err = a.boolean("singleBatch", false); err != nil {
		return nil, err
	}
	if err := parseAllowDiskUse(req, a); err != nil {
		return nil, err
	}
	if s.min, s.max, err = parseMinMax(a); err != nil {
		return nil, err
	}
	if s.returnKey, err = a.boolean("returnKey", false); err != nil {
		return nil, err
	}
	if s.showRecordId, err = a.boolean("showRecordId", false); err != nil {
		return nil, err
	}
	if err := refuseUnsupportedFindOptions(a); err != nil {
		return nil, err
	}
	if s.tailable, err = a.boolean("tailable", false); err != nil {
		return nil, err
	}
	if s.awaitData, err = a.boolean("awaitData", false); err != nil {
		return nil, err
	}
	if err := planner.CheckNatural(s.sort, s.hint); err != nil {
		return nil, err
	}
	if err := checkTailable(s); err != nil {
		return nil, err
	}
	return s, nil
}

// parseMinMax reads find's min and max; they must name the same fields in
// the same order (query_request_helper.cpp, code 51176). The planner
// checks them against the hinted index.
func parseMinMax(a args) (bson.D, bson.D, error) {
	lo, _, err := a.document("min")
	if err != nil {
		return nil, nil, err
	}
	hi, _, err := a.document("max")
	if err != nil {
		return nil, nil, err
	}
	if len(lo) > 0 && len(hi) > 0 {
		same := len(lo) == len(hi)
		for i := 0; same && i < len(lo); i++ {
			same = lo[i].Key == hi[i].Key
		}
		if !same {
			return nil, nil, mongoerr.New(mongoerr.ErrMinMaxFieldNames, "min and max must have the same field names")
		}
	}
	return lo, hi, nil
}

// refuseUnsupportedFindOptions fails the find options the sandbox cannot
// honour rather than ignore them: $_requestResumeToken and $_resumeAfter
// (a postBatchResumeToken of record ids), allowSpeculativeMajorityRead (a
// replica set's majority read) and includeQueryStatsMetrics (the cursor's
// metrics). Their types are checked first, as the IDL parser does.
func refuseUnsupportedFindOptions(a args) error {
	for _, name := range []string{"$_requestResumeToken", "allowSpeculativeMajorityRead", "includeQueryStatsMetrics"} {
		if on, err := a.boolean(name, false); err != nil {
			return err
		} else if on {
			return unsupportedFindOption(name)
		}
	}
	if after, _, err := a.document("$_resumeAfter"); err != nil {
		return err
	} else if len(after) > 0 {
		return unsupportedFindOption("$_resumeAfter")
	}
	return nil
}

func unsupportedFindOption(name string) error {
	return mongoerr.Newf(mongoerr.NotImplemented, "find option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", name)
}

// checkCollation accepts the simple collation only: the sandbox compares
// strings by code point, and a locale collation would silently give
// different answers, so it is refused with mongod's not-implemented code.
// An empty collation is none, as ExpressionContext builds its collator
// only from a non-empty one (expression_context_builder.cpp), so a
// command given {} uses the default.
func checkCollation(a args) error {
	c, ok, err := a.document("collation")
	if err != nil || !ok || len(c) == 0 {
		return err
	}
	return simpleCollationOnly(c)
}

// checkDefaultCollation is checkCollation for a collection's or view's
// default collation, where create refuses an empty one rather than
// reading it as none (create.idl's validateCollationNotEmpty).
func checkDefaultCollation(a args) error {
	c, ok, err := a.document("collation")
	if err != nil || !ok {
		return err
	}
	return simpleCollationOnly(c)
}

func simpleCollationOnly(c bson.D) error {
	if loc, _ := lookupString(c, "locale"); loc == "simple" && len(c) == 1 {
		return nil
	}
	return mongoerr.New(mongoerr.NotImplemented, "collation other than {locale: 'simple'} is not supported by the schemalab sandbox")
}

// plannerQuery compiles the query part of a find-like command.
func plannerQuery(req *request, s *findSpec) (planner.Query, error) {
	q := planner.Query{Sort: s.sort, Skip: s.skip, Limit: s.limit, Hint: s.hint, NoDiskUse: req.noDiskUse, Min: s.min, Max: s.max,
		BatchSize: s.hasBatch, Tailable: s.tailable, Shape: &planner.Shape{Filter: s.filter, Sort: s.sort, Projection: s.projection}}
	if len(s.filter) > 0 {
		f, err := query.Compile(s.filter, query.Options{Now: req.now, LetVars: s.let, JSONSchema: validation.CompileSchema})
		if err != nil {
			return q, err
		}
		q.Filter = f
	}
	if err := validateSort(s.sort); err != nil {
		return q, err
	}
	spec := s.projection
	if s.showRecordId && value.IsMissing(value.Get(spec, "$recordId")) {
		// query_request_helper::addShowRecordIdMetaProj: the record id
		// comes as a projected $meta, after the projection's own fields,
		// unless the projection already says what $recordId is.
		spec = append(append(bson.D{}, spec...), bson.E{Key: "$recordId", Value: bson.D{{Key: "$meta", Value: "recordId"}}})
		q.ShowRecordID = true
	}
	if len(spec) > 0 {
		p, err := projection.Compile(spec, projection.Options{Now: req.now, LetVars: s.let, Filter: q.Filter, RecordIDs: true, SortKeys: true})
		if err != nil {
			return q, err
		}
		if err := checkSortKeyProjection(p, s); err != nil {
			return q, err
		}
		q.Projection = projector(p)
	}
	if s.returnKey {
		q.Projection = returnKeyProjector(sortKeyMetaFields(s.projection, nil, ""))
	}
	return q, nil
}

// checkSortKeyProjection refuses a {$meta: "sortKey"} projection the
// find cannot answer: without a sort there is no key
// (CanonicalQuery::init); a $natural sort is not modelled by the sandbox.
func checkSortKeyProjection(p *projection.Projection, s *findSpec) error {
	if !p.NeedsSortKey() {
		return nil
	}
	if len(s.sort) == 0 {
		return mongoerr.New(mongoerr.BadValue, "cannot use sortKey $meta projection without a sort")
	}
	if s.sort[0].Key == "$natural" {
		return mongoerr.New(mongoerr.NotImplemented,
			`{$meta: "sortKey"} with a $natural sort is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri`)
	}
	return nil
}

// sortKeyMetaFields appends the paths the projection spec sets to
// {$meta: "sortKey"}, in its order, nested documents spelled as dotted
// paths: what a RETURN_KEY stage writes the sort key to.
func sortKeyMetaFields(spec bson.D, out []string, prefix string) []string {
	for _, e := range spec {
		sub, ok := e.Value.(bson.D)
		if !ok || len(sub) == 0 {
			continue
		}
		switch {
		case len(sub) == 1 && sub[0].Key == "$meta" && sub[0].Value == "sortKey":
			out = append(out, prefix+e.Key)
		case !strings.HasPrefix(sub[0].Key, "$"):
			out = sortKeyMetaFields(sub, out, prefix+e.Key+".")
		}
	}
	return out
}

// returnKeyProjector is mongod's RETURN_KEY stage (ReturnKeyStage,
// QueryPlannerAnalysis::analyzeDataAccess): it stands where a projection
// would, the projection itself being ignored once parsed, and answers the
// index key metadata of each document, field by field of the key pattern;
// a document no index scan produced gets an empty document. The
// projection's sortKey fields are the exception: each gets the sort key,
// after the index key (return_key.cpp, setNestedField). It reads no field
// of the document, so an index scan needs no FETCH for it.
func returnKeyProjector(sortKeyFields []string) *planner.Projector {
	return &planner.Projector{
		Stage:     "RETURN_KEY",
		IndexKey:  true,
		SortKey:   len(sortKeyFields) > 0,
		Coverable: true,
		Apply: func(_ func() context.Context, _ bson.D, _ int, indexKey bson.D, _ int64, sortKey bson.A) (bson.D, error) {
			if len(sortKeyFields) == 0 || sortKey == nil {
				if indexKey == nil {
					return bson.D{}, nil
				}
				return indexKey, nil
			}
			out := append(bson.D{}, indexKey...)
			for _, f := range sortKeyFields {
				out = value.SetPath(out, strings.Split(f, "."), sortKey)
			}
			return out, nil
		},
	}
}

// projector is a compiled projection as the planner runs it.
func projector(p *projection.Projection) *planner.Projector {
	stage := "PROJECTION_DEFAULT"
	if p.Simple() {
		stage = "PROJECTION_SIMPLE"
	}
	pr := &planner.Projector{Stage: stage, Spec: p.Serialize(), Apply: p.ApplyMeta, IndexKey: p.NeedsIndexKey(), SortKey: p.NeedsSortKey(), RecordID: p.NeedsRecordID()}
	pr.Required, pr.Coverable = p.RequiredFields()
	return pr
}

// validateSort applies the $sort key rules of find and aggregate.
func validateSort(sort bson.D) error {
	for _, e := range sort {
		if e.Key == "" {
			return mongoerr.New(15998, "FieldPath cannot be constructed with empty string")
		}
		switch v := e.Value.(type) {
		case int32, int64, float64, bson.Decimal128:
			n, _ := value.SafeNumberLong(v)
			if n != 1 && n != -1 {
				return mongoerr.New(15975, "$sort key ordering must be 1 (for ascending) or -1 (for descending)")
			}
		case bson.D:
			return aggregate.CheckMetaSort(v)
		default:
			return mongoerr.New(15974, "Illegal key in $sort specification: "+e.Key+": "+shortValue(e.Value))
		}
	}
	return nil
}

// runPlan executes a find-like query to the end and returns its results.
func runPlan(exec *planner.Executor) ([]bson.D, error) {
	var out []bson.D
	for {
		r, ok, err := exec.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, r.Doc)
	}
}

// executorStream reads a plan's results as a cursor does.
func executorStream(exec *planner.Executor, coll *catalog.Collection) resultStream {
	var uuid string
	if coll != nil {
		uuid = catalog.UUIDString(coll.UUID)
	}
	return resultStream{
		next: func() (bson.D, bool, error) {
			r, ok, err := exec.Next()
			return r.Doc, ok, err
		},
		bind:    exec.SetContext,
		indexes: exec.IndexesRead,
		uuid:    uuid,
		exec:    exec,
	}
}

func cmdFind(e *Engine, req *request) (bson.D, error) {
	if out, ok, err := e.readCommand(req); ok {
		return out, err
	}
	s, err := parseFind(req)
	if err != nil {
		return nil, err
	}
	q, err := plannerQuery(req, s)
	if err != nil {
		return nil, err
	}
	const errContext = "Executor error during find command"
	q.Ctx = req.ctx
	coll := e.catalog.Snapshot(req.db, s.coll)
	if s.tailable {
		return e.tailableFind(req, s, q, coll)
	}
	// A bad hint, min and max fail in QueryPlanner::plan, before anything
	// runs: their errors are the command's, not an executor's.
	if coll != nil && (len(q.Min) > 0 || len(q.Max) > 0) {
		if err := planner.CheckMinMax(coll, q); err != nil {
			return nil, err
		}
	}
	if coll != nil {
		if err := planner.CheckHint(coll, q); err != nil {
			return nil, err
		}
	}
	exec, err := e.plan(coll, ns(req.db, s.coll), q)
	if err != nil {
		return nil, executorError(errContext, err)
	}
	return e.firstBatch(req, ns(req.db, s.coll), executorStream(exec, coll), s.batchSize, s.hasBatch, s.singleBatch, errContext)
}

// hintArg is the hint of find and count, of hint.idl's indexHint type:
// hint_parser.cpp's parseHint takes an index name or a key pattern (an
// empty one naming none) and refuses any other value, null included, with
// its own FailedToParse message, not the write commands' IndexHint one.
func hintArg(a args) (any, error) {
	h, err := indexHint(a)
	if err != nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Hint must be a string or an object")
	}
	return h, nil
}

func cmdGetMore(e *Engine, req *request) (bson.D, error) {
	id, ok := req.cmd[0].Value.(int64)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'getMore.getMore' is the wrong type '%s', expected type 'long'", value.TypeName(req.cmd[0].Value))
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "collection", "batchSize", "maxTimeMS", "term", "lastKnownCommittedOpTime", "includeQueryStatsMetrics"); err != nil {
		return nil, err
	}
	coll, ok, err := a.str("collection")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'getMore.collection' is missing but a required field")
	}
	batch, _, err := a.int64Arg("batchSize")
	if err != nil {
		return nil, err
	}
	// getmore_cmd.cpp's Invocation checks the namespace once the request
	// is parsed, before any cursor is looked up.
	if err := catalog.CheckNUL(coll); err != nil {
		return nil, err
	}
	if coll == "" {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace for getMore: %s.", req.db)
	}
	return e.getMore(req, id, ns(req.db, coll), batch)
}

func cmdKillCursors(e *Engine, req *request) (bson.D, error) {
	coll, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "cursors"); err != nil {
		return nil, err
	}
	arr, ok, err := a.array("cursors")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'killCursors.cursors' is missing but a required field")
	}
	// kill_cursors.idl: cursors is array<long>.
	var ids []int64
	for i, v := range arr {
		id, ok := v.(int64)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch,
				"BSON field 'killCursors.cursors.%d' is the wrong type '%s', expected type 'long'", i, value.TypeName(v))
		}
		ids = append(ids, id)
	}
	killed, notFound, err := e.cursors.kill(ids, ns(req.db, coll), req.conn)
	if err != nil {
		return nil, err
	}
	toArr := func(xs []int64) bson.A {
		a := bson.A{}
		for _, x := range xs {
			a = append(a, x)
		}
		return a
	}
	return bson.D{
		{Key: "cursorsKilled", Value: toArr(killed)},
		{Key: "cursorsNotFound", Value: toArr(notFound)},
		{Key: "cursorsAlive", Value: bson.A{}},
		{Key: "cursorsUnknown", Value: bson.A{}},
	}, nil
}

// stagesAfterFilter are the stages a find over an aggregation (a view, a
// time series collection) runs after its $match, in
// query_request_conversion.cpp's order: sort, skip, limit, projection.
func (s *findSpec) stagesAfterFilter() bson.A {
	var p bson.A
	if len(s.sort) > 0 {
		p = append(p, bson.D{{Key: "$sort", Value: s.sort}})
	}
	if s.skip > 0 {
		p = append(p, bson.D{{Key: "$skip", Value: s.skip}})
	}
	if s.limit > 0 {
		p = append(p, bson.D{{Key: "$limit", Value: s.limit}})
	}
	if len(s.projection) > 0 {
		p = append(p, bson.D{{Key: "$project", Value: s.projection}})
	}
	return p
}
