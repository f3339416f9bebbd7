package engine

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// cmdValidate is mongod 8.0's validate for a standalone (ValidateCmd::run
// in src/mongo/db/commands/validate.cpp): it really checks the engine's
// structures, every record against every index (each key a record should
// have is in the index, each index entry belongs to a record that has that
// key), that each record is BSON within the size limit, and, when the
// collection has a validator, how many documents break it. The reply has
// mongod's fields in mongod's order.
func cmdValidate(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	flag := func(name string) bool {
		v, _ := a.get(name)
		return expr.IsTrue(v)
	}
	background, full, repair, metadata := flag("background"), flag("full"), flag("repair"), flag("metadata")
	enforceFastCount := flag("enforceFastCount")
	rawBSON, hasBSONFlag := a.get("checkBSONConformance")
	checkBSON := expr.IsTrue(rawBSON)
	switch {
	case background && full:
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with both { background: true } and { full: true } is not supported.")
	case background && enforceFastCount:
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with both { background: true } and { enforceFastCount: true } is not supported.")
	case hasBSONFlag && !checkBSON && (full || enforceFastCount):
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Cannot explicitly set 'checkBSONConformance: false' with full validation set.")
	case background && repair:
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with both { background: true } and { repair: true } is not supported.")
	case enforceFastCount && repair:
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with both { enforceFastCount: true } and { repair: true } is not supported.")
	case checkBSON && repair:
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with both { checkBSONConformance: true } and { repair: true } is not supported.")
	case metadata && (background || full || enforceFastCount || checkBSON || repair):
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Running the validate command with { metadata: true } is not supported with any other options")
	case background:
		// The sandbox is a standalone server, as mongod says there.
		return nil, mongoerr.New(mongoerr.CommandNotSupported, "Running the validate command with { background: true } is not supported in standalone mode")
	case repair, metadata:
		return nil, mongoerr.New(mongoerr.NotImplemented,
			"validate with { repair: true } or { metadata: true } is not supported by the schemalab sandbox; run it against a real MongoDB with --uri")
	}
	// A snapshot: validation reads a consistent state however long it
	// takes, and writers carry on meanwhile.
	c := e.catalog.Snapshot(req.db, collName)
	if c == nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Collection '%s' does not exist to validate.", ns(req.db, collName))
	}
	if c.Kind == catalog.KindView {
		// ValidateState refuses a view that is not time-series
		// (validate_state.cpp).
		return nil, mongoerr.New(mongoerr.CommandNotSupportedOnView, "Cannot validate a view")
	}
	var compliant func(bson.D) bool
	if c.Validator != nil {
		compliant = func(d bson.D) bool { return c.Validator.Check(d, req.now) == nil }
	}
	r, err := validateCollection(req, c, compliant)
	if err != nil {
		return nil, err
	}
	return r.reply(c), nil
}

// validateReport collects what validateCollection finds, per index in the
// catalog's order.
type validateReport struct {
	records, invalid, nonCompliant int64
	keys                           []int64 // keys traversed per index
	indexErrors                    [][]string
	errors, warnings               []string
	extra, missing                 bson.A
}

// interruptEvery is how many records or index entries validate checks
// between looks at the command's context, so that a long validation stops
// at maxTimeMS or when the client goes away.
const interruptEvery = 1024

func validateCollection(req *request, c *catalog.Collection, compliant func(bson.D) bool) (*validateReport, error) {
	ixs := c.Indexes()
	v := &validateReport{keys: make([]int64, len(ixs)), indexErrors: make([][]string, len(ixs))}
	missing := make([]int, len(ixs))
	var stop error
	tick := func(n int64) bool {
		if n%interruptEvery == 0 && req.ctx != nil {
			if err := mongoerr.FromContext(req.ctx); err != nil {
				stop = err
			}
		}
		return stop == nil
	}
	c.Scan(0, func(r *catalog.Record) bool {
		v.records++
		if size, err := docSize(r.Doc); err != nil || size > value.MaxUserDocumentSize {
			v.invalid++
		}
		if compliant != nil && !compliant(r.Doc) {
			v.nonCompliant++
		}
		for i, ix := range ixs {
			ks, err := ix.Keys(r.Doc)
			if err != nil {
				v.indexErrors[i] = append(v.indexErrors[i], fmt.Sprintf("cannot compute the keys of record %d: %s", r.ID, mongoerr.As(err).Msg))
				continue
			}
			for _, k := range ks.Keys {
				if !hasEntry(ix, index.Entry{Key: k, RID: r.ID}) {
					missing[i]++
					v.missing = append(v.missing, bson.D{
						{Key: "indexName", Value: ix.Spec.Name}, {Key: "recordId", Value: r.ID},
						{Key: "idKey", Value: bson.D{{Key: "_id", Value: value.Get(r.Doc, "_id")}}},
						{Key: "indexKey", Value: keyDoc(ix, k)},
					})
				}
			}
		}
		return tick(v.records)
	})
	if stop != nil {
		return nil, stop
	}
	extra := make([]int, len(ixs))
	for i, ix := range ixs {
		ix.Ascend(func(en index.Entry) bool {
			v.keys[i]++
			if !recordHasKey(c, ix, en) {
				extra[i]++
				v.extra = append(v.extra, bson.D{
					{Key: "indexName", Value: ix.Spec.Name}, {Key: "recordId", Value: en.RID},
					{Key: "indexKey", Value: keyDoc(ix, en.Key)},
				})
			}
			return tick(v.keys[i])
		})
		if stop != nil {
			return nil, stop
		}
	}
	var totalMissing, totalExtra int
	for i := range ixs {
		totalMissing += missing[i]
		totalExtra += extra[i]
		if missing[i] > 0 || extra[i] > 0 {
			v.indexErrors[i] = append(v.indexErrors[i], fmt.Sprintf("index '%s' is inconsistent with the records", ixs[i].Spec.Name))
		}
	}
	// mongod's IndexConsistency reports the totals as collection errors.
	if totalMissing > 0 {
		v.errors = append(v.errors, fmt.Sprintf("Detected %d missing index entries.", totalMissing))
	}
	if totalExtra > 0 {
		v.errors = append(v.errors, fmt.Sprintf("Detected %d extra index entries.", totalExtra))
	}
	if v.invalid > 0 {
		v.errors = append(v.errors, fmt.Sprintf("Detected %d invalid documents.", v.invalid))
	}
	if v.nonCompliant > 0 {
		v.warnings = append(v.warnings, "Detected one or more documents not compliant with the collection's schema. See logs.")
	}
	return v, nil
}

// hasEntry reports whether ix holds exactly (key, RecordID).
func hasEntry(ix *index.Index, want index.Entry) bool {
	found := false
	ix.AscendFrom(want, func(en index.Entry) bool {
		found = en.RID == want.RID && ix.CompareKeys(en.Key, want.Key) == 0
		return false
	})
	return found
}

// recordHasKey reports whether the record an index entry points at exists
// and has that key.
func recordHasKey(c *catalog.Collection, ix *index.Index, en index.Entry) bool {
	doc, ok := c.Get(en.RID)
	if !ok {
		return false
	}
	ks, err := ix.Keys(doc)
	if err != nil {
		return false
	}
	for _, k := range ks.Keys {
		if ix.CompareKeys(k, en.Key) == 0 {
			return true
		}
	}
	return false
}

// keyDoc renders an index key as {field: value, ...}, as validate lists
// inconsistent entries.
func keyDoc(ix *index.Index, key []any) bson.D {
	out := make(bson.D, 0, len(key))
	for i, f := range ix.KeyFields() {
		if i < len(key) {
			out = append(out, bson.E{Key: f.Path, Value: key[i]})
		}
	}
	return out
}

func docSize(d bson.D) (int, error) {
	b, err := bson.Marshal(d)
	return len(b), err
}

// reply is mongod's validate reply: the collection's figures as
// collection_validation.cpp appends them, then ValidateResults'
// appendToResultObj.
func (v *validateReport) reply(c *catalog.Collection) bson.D {
	keysPerIndex := bson.D{}
	indexDetails := bson.D{}
	valid := len(v.errors) == 0
	for i, ix := range c.Indexes() {
		keysPerIndex = append(keysPerIndex, bson.E{Key: ix.Spec.Name, Value: appendNumberStyle(v.keys[i])})
		detail := bson.D{{Key: "valid", Value: len(v.indexErrors[i]) == 0}}
		if len(v.indexErrors[i]) > 0 {
			valid = false
			errs := bson.A{}
			for _, e := range v.indexErrors[i] {
				errs = append(errs, e)
			}
			detail = append(detail, bson.E{Key: "errors", Value: errs})
		}
		indexDetails = append(indexDetails, bson.E{Key: ix.Spec.Name, Value: detail})
	}
	strs := func(s []string) bson.A {
		out := bson.A{}
		for _, x := range s {
			out = append(out, x)
		}
		return out
	}
	orEmpty := func(a bson.A) bson.A {
		if a == nil {
			return bson.A{}
		}
		return a
	}
	// The figures are BSONObjBuilder::appendNumber's (int32 when small);
	// the recordIds of inconsistent entries stay longs.
	out := bson.D{
		{Key: "ns", Value: c.NS()},
		{Key: "uuid", Value: c.UUID},
		{Key: "nInvalidDocuments", Value: appendNumberStyle(v.invalid)},
		{Key: "nNonCompliantDocuments", Value: appendNumberStyle(v.nonCompliant)},
		{Key: "nrecords", Value: appendNumberStyle(v.records)},
		{Key: "nIndexes", Value: int32(len(c.Indexes()))},
		{Key: "keysPerIndex", Value: keysPerIndex},
		{Key: "indexDetails", Value: indexDetails},
		{Key: "valid", Value: valid},
		{Key: "repaired", Value: false},
		{Key: "warnings", Value: strs(v.warnings)},
		{Key: "errors", Value: strs(v.errors)},
		{Key: "extraIndexEntries", Value: orEmpty(v.extra)},
		{Key: "missingIndexEntries", Value: orEmpty(v.missing)},
		{Key: "corruptRecords", Value: bson.A{}},
	}
	if !valid {
		out = append(out, bson.E{Key: "advice", Value: "A corrupt namespace has been detected. See http://dochub.mongodb.org/core/data-recovery for recovery steps."})
	}
	return out
}
