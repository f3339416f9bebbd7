package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// parseTarget reads $merge's into: "coll" or {db, coll}, db defaulting
// to the command's.
func parseTarget(stage string, v any, defaultDB string) (db, coll string, err error) {
	switch x := v.(type) {
	case string:
		return defaultDB, x, nil
	case bson.D:
		db = defaultDB
		for _, e := range x {
			s, ok := e.Value.(string)
			switch e.Key {
			case "db":
				if !ok {
					return "", "", mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.db' is the wrong type '%s', expected type 'string'", stage, typeNameOf(e.Value))
				}
				db = s
			case "coll":
				if !ok {
					return "", "", mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.coll' is the wrong type '%s', expected type 'string'", stage, typeNameOf(e.Value))
				}
				coll = s
			default:
				return "", "", mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '%s.%s' is an unknown field.", stage, e.Key)
			}
		}
		if coll == "" {
			return "", "", mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.coll' is missing but a required field", stage)
		}
		return db, coll, nil
	}
	return "", "", mongoerr.Newf(mongoerr.TypeMismatch, "%s only supports a string or object argument, but found %s", stage, typeNameOf(v))
}

// checkWriteTarget refuses what DocumentSourceOut::create and
// DocumentSourceMerge::create refuse: an invalid namespace, a system
// collection, an internal database (admin, local, config).
func checkWriteTarget(stage, db, coll string, special, internal int32, verb string) error {
	if catalog.ValidateDBName(db) != nil || coll == "" {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid %s target namespace, %s.%s", stage, db, coll)
	}
	if strings.HasPrefix(coll, "system.") {
		return mongoerr.Newf(special, "%s %s to special collection: %s", verb, stage, coll)
	}
	switch db {
	case "admin", "local", "config":
		return mongoerr.Newf(internal, "%s %s to internal database: %s", verb, stage, db)
	}
	return nil
}

// ---- $out (document_source_out.cpp) ----

type outStage struct {
	db, coll   string
	timeseries bson.D // the timeseries option, nil without one
}

func parseOut(spec any, p *parser) ([]Stage, error) {
	var db, coll string
	var tsSpec bson.D
	switch x := spec.(type) {
	case string:
		db, coll = p.ctx.DB, x
	case bson.D:
		args, err := parseIDL("$out", x,
			idlField{name: "coll", types: []string{"string"}, required: true},
			idlField{name: "db", types: []string{"string"}, required: true},
			idlField{name: "timeseries", types: []string{"object"}})
		if err != nil {
			return nil, err
		}
		db, coll = args["db"].(string), args["coll"].(string)
		if ts, ok := args["timeseries"].(bson.D); ok {
			if _, err := timeseries.Parse(ts, db+"."+coll); err != nil {
				// The option is parsed in $out's IDL context.
				me := mongoerr.As(err)
				return nil, mongoerr.New(me.Code, strings.ReplaceAll(me.Msg, "'create.timeseries", "'$out.timeseries"))
			}
			tsSpec = ts
		}
	default:
		return nil, mongoerr.Newf(mongoerr.ErrOutSpecType, "$out only supports a string or object argument, but found %s", typeNameOf(spec))
	}
	if err := checkWriteTarget("$out", db, coll, mongoerr.ErrOutSystemCollection, mongoerr.ErrOutInternalDatabase, "Can't"); err != nil {
		return nil, err
	}
	return []Stage{&outStage{db: db, coll: coll, timeseries: tsSpec}}, nil
}

func (s *outStage) Name() string { return "$out" }
func (s *outStage) Spec() bson.D {
	body := bson.D{{Key: "db", Value: s.db}, {Key: "coll", Value: s.coll}}
	if s.timeseries != nil {
		body = append(body, bson.E{Key: "timeseries", Value: s.timeseries})
	}
	return stageSpec("$out", body)
}

func (s *outStage) open(in Iterator, rt *runtime) (Iterator, error) {
	done := false
	return funcIterator(func() (bson.D, bool, error) {
		if done {
			return nil, false, nil
		}
		done = true
		docs, err := Drain(in)
		if err != nil || rt.ctx.Explain {
			return nil, false, err
		}
		if rt.ctx.ReplaceCollection == nil {
			return nil, false, mongoerr.New(mongoerr.InternalError, "aggregate: no ReplaceCollection function in the context")
		}
		return nil, false, rt.ctx.ReplaceCollection(s.db, s.coll, s.timeseries, docs)
	}), nil
}

// ---- $merge ----

type mergeStage struct {
	db, coll        string
	on              []string
	onGiven         bool
	whenMatched     string // replace, keepExisting, merge, fail, pipeline
	matchedPipeline bson.A
	matchedStages   []transformer
	// matchedParser parses matchedPipeline at the first write; nil once
	// it has.
	matchedParser  *parser
	whenNotMatched string // insert, discard, fail
	let            []letVar
	letGiven       bool
}

func parseMerge(spec any, p *parser) ([]Stage, error) {
	s := &mergeStage{whenMatched: "merge", whenNotMatched: "insert", on: []string{"_id"}}
	var letSpec bson.D
	switch x := spec.(type) {
	case string:
		s.db, s.coll = p.ctx.DB, x
	case bson.D:
		haveInto := false
		for _, e := range x {
			switch e.Key {
			case "into":
				db, coll, err := parseTarget("$merge.into", e.Value, p.ctx.DB)
				if err != nil {
					return nil, err
				}
				s.db, s.coll, haveInto = db, coll, true
			case "on":
				s.on, s.onGiven = nil, true
				switch o := e.Value.(type) {
				case string:
					s.on = []string{o}
				case bson.A:
					for _, f := range o {
						fs, ok := f.(string)
						if !ok {
							return nil, mongoerr.Newf(mongoerr.ErrMergeOnElementNotString, "$merge 'on' array elements must be strings, but found %s", typeNameOf(f))
						}
						s.on = append(s.on, fs)
					}
					if len(s.on) == 0 {
						return nil, mongoerr.New(mongoerr.ErrMergeOnEmpty, "If explicitly specifying $merge 'on', must include at least one field")
					}
				default:
					return nil, mongoerr.Newf(mongoerr.ErrMergeOnType, "$merge 'on' field  must be either a string or an array of strings, but found %s", typeNameOf(e.Value))
				}
			case "whenMatched":
				switch w := e.Value.(type) {
				case string:
					switch w {
					case "replace", "keepExisting", "merge", "fail":
						s.whenMatched = w
					default:
						return nil, mongoerr.Newf(mongoerr.BadValue, "Enumeration value '%s' for field '$merge.whenMatched' is not a valid value.", w)
					}
				case bson.A:
					s.whenMatched, s.matchedPipeline = "pipeline", w
				default:
					return nil, mongoerr.Newf(mongoerr.ErrMergeWhenMatchedType, "BSON field '$merge.whenMatched' must be either a string or array, but found %s", typeNameOf(e.Value))
				}
			case "whenNotMatched":
				w, ok := e.Value.(string)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$merge.whenNotMatched' is the wrong type '%s', expected type 'string'", typeNameOf(e.Value))
				}
				switch w {
				case "insert", "discard", "fail":
					s.whenNotMatched = w
				default:
					return nil, mongoerr.Newf(mongoerr.BadValue, "Enumeration value '%s' for field '$merge.whenNotMatched' is not a valid value.", w)
				}
			case "let":
				// The IDL parser cannot tell an explicit null from an absent
				// optional field (SERVER-41272): a null let is no let.
				if e.Value == nil {
					continue
				}
				ld, ok := e.Value.(bson.D)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$merge.let' is the wrong type '%s', expected type 'object'", typeNameOf(e.Value))
				}
				letSpec, s.letGiven = ld, true
			default:
				return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$merge.%s' is an unknown field.", e.Key)
			}
		}
		if !haveInto {
			return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field '$merge.into' is missing but a required field")
		}
	default:
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$merge requires a string or object argument, but found %s", typeNameOf(spec))
	}
	if !mergeModes[[2]string{s.whenMatched, s.whenNotMatched}] {
		return nil, mongoerr.Newf(mongoerr.ErrMergeModesUnsupported, "Combination of $merge modes 'whenMatched: %s' and 'whenNotMatched: %s' is not supported", s.whenMatched, s.whenNotMatched)
	}
	seen := map[string]bool{}
	for _, f := range s.on {
		if err := projection.ValidateFieldPath(f); err != nil {
			return nil, err
		}
		if seen[f] {
			return nil, mongoerr.Newf(mongoerr.ErrMergeDuplicateOn, "Found a duplicate field '%s'", f)
		}
		seen[f] = true
	}
	if err := s.checkUniqueOn(p.ctx); err != nil {
		return nil, err
	}
	if err := checkWriteTarget("$merge", s.db, s.coll, mongoerr.ErrMergeSystemCollection, mongoerr.ErrMergeInternalDatabase, "Cannot"); err != nil {
		return nil, err
	}
	if s.whenMatched == "pipeline" {
		if v, ok := lookupField(letSpec, "new"); ok && v != "$$ROOT" {
			return nil, mongoerr.New(mongoerr.ErrMergeLetNew, "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'")
		}
	}
	if s.letGiven && s.whenMatched != "pipeline" {
		return nil, mongoerr.New(mongoerr.ErrMergeLetWithoutPipeline, "Cannot use 'let' variables with 'whenMatched: "+s.whenMatched+"' mode")
	}
	if s.whenMatched == "pipeline" {
		// DocumentSourceMerge::create: an absent let defaults to
		// {new: "$$ROOT"}, and a let without "new" still gets it appended
		// when whenNotMatched is insert, since the upsert must carry the
		// new document.
		if _, hasNew := lookupField(letSpec, "new"); !s.letGiven || !hasNew && s.whenNotMatched == "insert" {
			letSpec = append(letSpec[:len(letSpec):len(letSpec)], bson.E{Key: "new", Value: "$$ROOT"})
		}
		names := []string{}
		for _, e := range letSpec {
			// Each name is checked as the stage is built, before any
			// document is merged (validateNameForUserWrite in
			// DocumentSourceMerge's constructor).
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
		// The pipeline itself is parsed by the updates $merge sends, so
		// on an unsharded mongod its errors wait for the first document
		// (jstests/aggregation/sources/merge/pipeline_validation.js).
		s.matchedParser = &parser{ctx: p.ctx, scope: p.scope.With(names...), letVals: p.letVals}
	}
	return []Stage{s}, nil
}

// mergeModes are the whenMatched and whenNotMatched pairs $merge supports
// (getMergeStrategyDescriptors).
var mergeModes = map[[2]string]bool{
	{"replace", "insert"}: true, {"replace", "fail"}: true, {"replace", "discard"}: true,
	{"keepExisting", "insert"}: true,
	{"merge", "insert"}:        true, {"merge", "fail"}: true, {"merge", "discard"}: true,
	{"fail", "insert"}:     true,
	{"pipeline", "insert"}: true, {"pipeline", "fail"}: true, {"pipeline", "discard"}: true,
}

// checkUniqueOn refuses an `on` other than _id unless the target has a
// unique index on exactly those fields, as mongod does when it parses
// $merge: without one, two source documents could match the same target
// document and the outcome would depend on their order.
func (s *mergeStage) checkUniqueOn(ctx *Context) error {
	if len(s.on) == 1 && s.on[0] == "_id" || ctx == nil || ctx.IndexStats == nil {
		return nil
	}
	indexes, err := ctx.IndexStats(s.db, s.coll)
	if err != nil {
		return err
	}
	for _, ix := range indexes {
		if supportsUniqueOn(ix, s.on) {
			return nil
		}
	}
	return mongoerr.New(mongoerr.ErrMergeOnNoUniqueIndex, "Cannot find index to verify that join fields will be unique")
}

// supportsUniqueOn reports whether the $indexStats entry ix describes a
// unique, non-partial index whose key fields are exactly the on fields
// (in any order).
func supportsUniqueOn(ix bson.D, on []string) bool {
	spec, _ := value.Get(ix, "spec").(bson.D)
	key, _ := value.Get(spec, "key").(bson.D)
	if unique, _ := value.Get(spec, "unique").(bool); !unique || len(key) != len(on) {
		return false
	}
	if _, partial := value.Get(spec, "partialFilterExpression").(bson.D); partial {
		return false
	}
	for _, f := range on {
		if _, ok := value.Get(key, f).(value.Missing); ok {
			return false
		}
	}
	return true
}

func (s *mergeStage) Name() string { return "$merge" }

func (s *mergeStage) Spec() bson.D {
	on := any(s.on[0])
	if len(s.on) > 1 || s.onGiven && len(s.on) != 1 {
		arr := bson.A{}
		for _, f := range s.on {
			arr = append(arr, f)
		}
		on = arr
	}
	var wm any = s.whenMatched
	if s.whenMatched == "pipeline" {
		wm = s.matchedPipeline
	}
	body := bson.D{
		{Key: "into", Value: bson.D{{Key: "db", Value: s.db}, {Key: "coll", Value: s.coll}}},
		{Key: "on", Value: on},
		{Key: "whenMatched", Value: wm},
		{Key: "whenNotMatched", Value: s.whenNotMatched},
	}
	return stageSpec("$merge", body)
}

func (s *mergeStage) open(in Iterator, rt *runtime) (Iterator, error) {
	if rt.ctx.MergeLookup == nil || rt.ctx.MergeWrite == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no MergeLookup/MergeWrite functions in the context")
	}
	env := rt.newEnv()
	done := false
	return funcIterator(func() (bson.D, bool, error) {
		if done {
			return nil, false, nil
		}
		done = true
		if rt.ctx.Explain {
			_, err := Drain(in)
			return nil, false, err
		}
		// DocumentSourceWriter::doGetNext buffers documents into batches
		// and spills each batch as one write command, which
		// CommonMongodProcessInterface::buildInsertOp/buildUpdateOp send
		// unordered: every statement of a batch is tried, and only then
		// does the batch's first error fail the stage. An 'on' field error
		// is raised while a document joins the batch (makeBatchObject), so
		// the unspilled batch before it is never written.
		batch := mergeBatch{limit: value.MaxUserDocumentSize - updateHeaderSize(s.coll)}
		var pending []bson.D
		for {
			d, ok, err := in.Next()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				return nil, false, s.spill(pending, rt, env)
			}
			if err := s.checkOnFields(d); err != nil {
				return nil, false, err
			}
			if batch.add(mergeStatementSize(d, s.on)) {
				if err := s.spill(pending, rt, env); err != nil {
					return nil, false, err
				}
				pending = pending[:0]
			}
			pending = append(pending, d)
		}
	}), nil
}

// spill writes one batch as mongod's unordered write command does. A
// strict update (whenNotMatched: "fail", makeStrictUpdateStrategy) sends
// the batch without upsert and fails only after it when nMatched falls
// short, so a write error of the batch comes before that failure.
func (s *mergeStage) spill(batch []bson.D, rt *runtime, env *expr.Env) error {
	var first, unmatched error
	for _, d := range batch {
		err := s.write(d, rt, env)
		switch {
		case err == nil:
		case mongoerr.As(err).Code == mongoerr.MergeStageNoMatchingDocument:
			if unmatched == nil {
				unmatched = err
			}
		case first == nil:
			first = err
		}
	}
	if first != nil {
		return first
	}
	return unmatched
}

// mergeBatch tracks the batch DocumentSourceWriter::doGetNext fills: it
// spills when the estimated statement sizes pass the limit or the batch
// holds write_ops::kMaxWriteBatchSize statements.
type mergeBatch struct {
	limit, bytes, count int
}

// add counts a statement of size bytes and reports whether the statements
// before it were spilled as a batch of their own.
func (b *mergeBatch) add(size int) bool {
	const maxWriteBatchSize = 100000
	b.bytes += size
	spilled := b.count > 0 && (b.bytes > b.limit || b.count >= maxWriteBatchSize)
	if spilled {
		b.bytes, b.count = size, 0
	}
	b.count++
	return spilled
}

// mergeStatementSize is write_ops::getUpdateSizeEstimate for the update
// statement $merge sends for d: its q is the on fields of d and its u the
// document, beside the upsert and multi flags.
func mergeStatementSize(d bson.D, on []string) int {
	const perElement = 2 // a field name's terminator and the type byte
	q := make(bson.D, 0, len(on))
	for _, f := range on {
		if v := getNested(d, splitPath(f)); !value.IsMissing(v) {
			q = append(q, bson.E{Key: f, Value: v})
		}
	}
	size := 5 + len("upsert") + 1 + perElement + len("multi") + 1 + perElement
	size += len("q") + value.Size(q) + perElement
	size += len("u") + value.Size(d) + perElement
	return size
}

// updateHeaderSize estimates the update command around the statements
// (getUpdateHeaderSizeEstimate): its name and namespace, the updates
// array and the ordered flag.
func updateHeaderSize(coll string) int {
	const perElement = 2
	return 5 + len("update") + perElement + len(coll) + 1 +
		len("updates") + perElement + 5 + len("ordered") + 1 + perElement
}

func (s *mergeStage) checkOnFields(d bson.D) error {
	// mongod's extractMergeOnFieldsFromDoc: an array value is 51185; a
	// nullish one (missing, also behind an array on the path) is 51132.
	for _, f := range s.on {
		switch v := getNested(d, splitPath(f)).(type) {
		case bson.A:
			return mongoerr.Newf(mongoerr.ErrMergeOnArray, "$merge write error: 'on' field '%s' is an array", f)
		case nil, value.Missing, bson.Undefined:
			if f == "_id" && value.IsMissing(v) {
				continue // the engine generates an _id for the insert
			}
			return mongoerr.Newf(mongoerr.ErrMergeOnNullish, "$merge write error: 'on' field '%s' cannot be missing, null, undefined or an array", f)
		}
	}
	return nil
}

func (s *mergeStage) write(d bson.D, rt *runtime, env *expr.Env) error {
	if s.matchedParser != nil {
		stages, err := parseUpdateStages(s.matchedPipeline, s.matchedParser)
		if err != nil {
			return err
		}
		s.matchedStages, s.matchedParser = stages, nil
	}
	if s.whenMatched == "fail" {
		// kFailInsertMode writes plain inserts without looking for a
		// match: a document whose on fields match one in the target
		// collides on the unique index behind them.
		return s.duplicateKeyContext(rt.ctx.MergeWrite(s.db, s.coll, nil, d, true))
	}
	existing, found, err := rt.ctx.MergeLookup(s.db, s.coll, s.on, d)
	if err != nil {
		return err
	}
	if !found {
		switch s.whenNotMatched {
		case "discard":
			return nil
		case "fail":
			return mongoerr.New(mongoerr.MergeStageNoMatchingDocument, "$merge could not find a matching document in the target collection for at least one document in the source collection")
		}
		return s.duplicateKeyContext(rt.ctx.MergeWrite(s.db, s.coll, nil, d, true))
	}
	var newDoc bson.D
	switch s.whenMatched {
	case "keepExisting":
		return nil
	case "replace", "merge":
		// mongod applies a replacement, or for "merge" the update
		// {$set: doc} (makeBatchUpdateModification): fields new to the
		// target are added in $set's order, and _id may not change.
		spec := d
		if s.whenMatched == "merge" {
			spec = bson.D{{Key: "$set", Value: d}}
		}
		u, err := update.Compile(spec, update.Options{Now: rt.ctx.Now})
		if err != nil {
			return mergeUpdateError(err)
		}
		if newDoc, _, err = u.Apply(existing, -1, false); err != nil {
			return mergeUpdateError(err)
		}
	case "pipeline":
		env.Reset(d)
		let := make(bson.D, 0, len(s.let)+len(rt.letVals))
		let = append(let, rt.letVals...)
		for _, l := range s.let {
			v, err := l.x.Eval(env)
			if err != nil {
				return err
			}
			let = setInPlace(let, l.name, v)
		}
		// mongod sends the pipeline to the write path as a pipeline-style
		// update with let as its constants.
		sub := &runtime{ctx: rt.ctx, letVals: let, scope: rt.scope}
		u := update.NewPipeline(func(doc bson.D) (bson.D, error) {
			return runTransformers(s.matchedStages, doc, sub.newEnv())
		})
		if newDoc, _, err = u.Apply(existing, -1, false); err != nil {
			return mergeUpdateError(err)
		}
	}
	return s.duplicateKeyContext(rt.ctx.MergeWrite(s.db, s.coll, existing, newDoc, false))
}

// duplicateKeyContext gives a write's DuplicateKey error the context
// DocumentSourceMerge::flush adds: with whenMatched: "fail", a collision on
// an index whose key is exactly the on fields means the document matched
// one already there; any other collision, in any mode, is on some other
// unique index. The reply keeps the error's keyPattern and keyValue.
func (s *mergeStage) duplicateKeyContext(err error) error {
	me := mongoerr.As(err)
	if me == nil || me.Code != mongoerr.DuplicateKey {
		return err
	}
	context := "$merge failed due to a DuplicateKey error"
	if s.whenMatched == "fail" && keyIsExactly(value.Get(me.Extra, "keyPattern"), s.on) {
		context = "$merge with whenMatched: fail found an existing document with the same values for the 'on' fields"
	}
	return &mongoerr.Error{Code: me.Code, Msg: context + " :: caused by :: " + me.Msg, Extra: me.Extra}
}

// keyIsExactly reports whether the key pattern pattern has as many fields
// as fields and a top-level field of each name (BSONObj::hasField, which
// reads a dotted name as one field name).
func keyIsExactly(pattern any, fields []string) bool {
	d, ok := pattern.(bson.D)
	if !ok || len(d) != len(fields) {
		return false
	}
	for _, f := range fields {
		if !slices.ContainsFunc(d, func(e bson.E) bool { return e.Key == f }) {
			return false
		}
	}
	return true
}

// mergeUpdateError gives an update's ImmutableField error the context
// mongod's $merge adds to it.
func mergeUpdateError(err error) error {
	me := mongoerr.As(err)
	if me.Code != mongoerr.ImmutableField {
		return err
	}
	return mongoerr.Newf(me.Code, "$merge failed to update the matching document, did you attempt to modify the _id or the shard key? :: caused by :: %s", me.Msg)
}
