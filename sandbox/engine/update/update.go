// Package update implements MongoDB 8.0 update semantics: operator updates
// ($set, $inc, $push, ... with positional and array-filter paths),
// replacement documents, and what a pipeline-style update does with the
// document its pipeline returns (the aggregate package runs the stages).
//
// Operator updates are parsed into a tree shaped like mongod's UpdateNode
// tree (src/mongo/db/update): one internal node per path component and a
// leaf per modifier. Applying the tree walks the document once, in the
// tree's sorted child order, which is what gives new fields mongod's order.
package update

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Kind tells which of mongod's three update styles an Update is.
type Kind int

// The update styles.
const (
	Operators Kind = iota
	Replacement
	Pipeline
)

// Options carries the update command's per-statement options.
type Options struct {
	// ArrayFilters are the statement's arrayFilters; the command's
	// parser has checked that each is a document (an IDL array<object>).
	ArrayFilters []bson.D
	// Now is the statement's clock reading, used by $currentDate and $$NOW.
	Now bson.DateTime
	// Clock gives the timestamps $currentDate and a replacement's
	// Timestamp(0, 0) values take (nil: a clock of the update's own).
	Clock *ClusterClock
	// LetVars are the statement's let variables, evaluated; only a
	// pipeline reads them.
	LetVars bson.D
	// BypassEmptyTsReplacement is the write command's option of that
	// name: a replacement keeps its top-level Timestamp(0, 0) values
	// instead of having them set to the current time.
	BypassEmptyTsReplacement bool
}

// Update is a compiled update; it is immutable and safe for concurrent use.
type Update struct {
	kind        Kind
	root        *objectNode
	filters     map[string]*arrayFilter
	replacement bson.D
	pipeline    func(doc bson.D) (bson.D, error)
	now         bson.DateTime
	clock       *ClusterClock
}

// Kind reports the update style.
func (u *Update) Kind() Kind { return u.kind }

// Compile parses an update document: update operators or a replacement.
// A pipeline-style update is compiled by aggregate.CompileUpdate.
func Compile(spec bson.D, opts Options) (*Update, error) {
	if len(spec) == 0 || !strings.HasPrefix(spec[0].Key, "$") {
		return compileReplacement(spec, opts)
	}
	return compileOperators(spec, opts)
}

// NewPipeline makes a pipeline-style update of run, which maps a document
// to the pipeline's output. Applying it replaces the document with that
// output as mongod's PipelineExecutor does (through ObjectReplaceExecutor):
// the _id is kept when the output has none and may not change. run must be
// safe for concurrent use.
func NewPipeline(run func(doc bson.D) (bson.D, error)) *Update {
	return &Update{kind: Pipeline, pipeline: run}
}

func (u *Update) applyPipeline(doc bson.D) (bson.D, bool, error) {
	out, err := u.pipeline(doc)
	if err != nil {
		return nil, false, err
	}
	return replaceDocument(doc, out, false)
}

// Apply returns the updated document without mutating doc. positional is
// the array index the query matched for the positional $ operator (-1 if
// none); insert is true when doc is a freshly seeded upsert document, so
// that $setOnInsert applies. modified is false for a no-op update.
func (u *Update) Apply(doc bson.D, positional int, insert bool) (bson.D, bool, error) {
	var out bson.D
	var modified bool
	var err error
	switch u.kind {
	case Replacement:
		out, modified, err = u.applyReplacement(doc)
	case Pipeline:
		out, modified, err = u.applyPipeline(doc)
	default:
		out, modified, err = u.applyOperators(doc, positional, insert)
	}
	if err != nil || !modified {
		return out, modified, err
	}
	// mongod's update stage stores _id first whatever the update did
	// (update::ensureIdFieldIsFirst).
	if len(out) > 0 && out[0].Key != "_id" && !value.IsMissing(value.Get(out, "_id")) {
		out = idFirst(out)
	}
	return out, true, nil
}

// Upsert builds the document an upsert inserts. seed holds the filter's
// equality fields. A replacement keeps only the seed's _id; an operator
// update is applied to the seed with insert semantics. The _id is always
// first and is generated when absent.
func (u *Update) Upsert(seed bson.D) (bson.D, error) {
	var doc bson.D
	switch u.kind {
	case Replacement:
		// Only the filter's _id seeds a replacement upsert.
		if err := u.checkReplacementFields(); err != nil {
			return nil, err
		}
		var base bson.D
		if id := value.Get(seed, "_id"); !value.IsMissing(id) {
			base = bson.D{{Key: "_id", Value: id}}
		}
		d, changed, err := replaceDocument(base, u.replacement, true)
		if err != nil {
			return nil, err
		}
		doc = d
		if !changed {
			doc = value.CopyDoc(d)
		}
	case Pipeline:
		d, changed, err := u.applyPipeline(seed)
		if err != nil {
			return nil, err
		}
		doc = d
		if !changed {
			doc = value.CopyDoc(d)
		}
	default:
		d, changed, err := u.applyOperators(seed, -1, true)
		if err != nil {
			return nil, err
		}
		doc = d
		if !changed {
			doc = value.CopyDoc(d)
		}
	}
	if err := validateID(doc); err != nil {
		return nil, err
	}
	return idFirst(doc), nil
}

// idFirst moves _id to the front, generating an ObjectId when there is
// none, as mongod does for every inserted document.
func idFirst(doc bson.D) bson.D {
	for i, e := range doc {
		if e.Key != "_id" {
			continue
		}
		if i == 0 {
			return doc
		}
		out := make(bson.D, 0, len(doc))
		out = append(out, e)
		out = append(out, doc[:i]...)
		return append(out, doc[i+1:]...)
	}
	out := make(bson.D, 0, len(doc)+1)
	out = append(out, bson.E{Key: "_id", Value: bson.NewObjectID()})
	return append(out, doc...)
}

// validateID applies mongod's storage rules for _id to an updated document.
func validateID(doc bson.D) error {
	id := value.Get(doc, "_id")
	switch v := id.(type) {
	case bson.A:
		return mongoerr.New(mongoerr.InvalidIdField, "The '_id' value cannot be of type array")
	case bson.Regex:
		return mongoerr.New(mongoerr.InvalidIdField, "The '_id' value cannot be of type regex")
	case bson.Undefined:
		return mongoerr.New(mongoerr.InvalidIdField, "The '_id' value cannot be of type undefined")
	case bson.D:
		if name := dollarFieldIn(v, 0); name != "" {
			return mongoerr.Newf(mongoerr.DollarPrefixedFieldName,
				"_id fields may not contain '$'-prefixed fields: %s is not valid for storage.", name)
		}
	}
	return nil
}

// dollarFieldIn finds a $-prefixed field name anywhere in an _id value,
// through documents and arrays, as the storage validation of _id does at
// every depth (storageValidEmbedded; SERVER-75880,
// jstests/core/write/field_name_validation_id_nested.js). It stops at
// mongod's nesting limit, which storage refuses anyway.
func dollarFieldIn(v any, depth int) string {
	if depth > 200 {
		return ""
	}
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			if strings.HasPrefix(e.Key, "$") {
				return e.Key
			}
			if name := dollarFieldIn(e.Value, depth+1); name != "" {
				return name
			}
		}
	case bson.A:
		for _, e := range x {
			if name := dollarFieldIn(e, depth+1); name != "" {
				return name
			}
		}
	}
	return ""
}
