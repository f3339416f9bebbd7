package engine

import (
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// writeError is one entry of a write command's writeErrors.
type writeError struct {
	index int
	err   *mongoerr.Error
}

// render follows write_ops::WriteError::serialize: index, code, the
// error's extra info (keyPattern/keyValue), then errmsg.
func (w writeError) render() bson.D {
	d := bson.D{{Key: "index", Value: int32(w.index)}, {Key: "code", Value: w.err.Code}}
	d = append(d, w.err.Extra...)
	return append(d, bson.E{Key: "errmsg", Value: w.err.Msg})
}

func renderWriteErrors(errs []writeError) bson.A {
	a := make(bson.A, len(errs))
	for i, w := range errs {
		a[i] = w.render()
	}
	return a
}

// checkMessageDocSize is the check mongod applies while parsing a command
// message: a document above the internal limit fails the whole command.
func checkMessageDocSize(doc bson.D) error {
	if size := value.Size(doc); size > value.MaxInternalDocumentSize {
		return value.ObjectTooLarge(doc, size)
	}
	return nil
}

// shortValue renders a value the way BSONElement::toString does in log
// and error messages (strings quoted, ObjectIds as ObjectId('...')).
func shortValue(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 80 {
			x = x[:80] + "..."
		}
		return fmt.Sprintf("%q", x)
	case bson.ObjectID:
		return "ObjectId('" + x.Hex() + "')"
	case nil:
		return "null"
	case bson.D, bson.A:
		return "{ ... }"
	}
	return fmt.Sprint(v)
}

// prepareInsert applies fixDocumentForInsert: size and depth limits, _id
// validity, and _id generated or moved to the front.
func prepareInsert(doc bson.D) (bson.D, *mongoerr.Error) {
	if size := value.Size(doc); size > value.MaxUserDocumentSize {
		return nil, mongoerr.Newf(mongoerr.BadValue, "object to insert too large. size in bytes: %d, max size: %d", size, value.MaxUserDocumentSize)
	}
	if exceedsDepth(doc, 1) {
		return nil, mongoerr.Newf(mongoerr.Overflow, "cannot insert document because it exceeds %d levels of nesting", value.MaxStorageDepth)
	}
	idAt := -1
	for i, e := range doc {
		if e.Key != "_id" {
			continue
		}
		if idAt >= 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "can't have multiple _id fields in one document")
		}
		if err := validID(e.Value); err != nil {
			return nil, err
		}
		idAt = i
	}
	switch {
	case idAt == 0:
		return doc, nil
	case idAt > 0:
		out := make(bson.D, 0, len(doc))
		out = append(out, doc[idAt])
		out = append(out, doc[:idAt]...)
		return append(out, doc[idAt+1:]...), nil
	}
	out := make(bson.D, 0, len(doc)+1)
	out = append(out, bson.E{Key: "_id", Value: bson.NewObjectID()})
	return append(out, doc...), nil
}

// exceedsDepth reports nesting beyond mongod's storage limit; empty
// sub-documents do not count, as in validateDepth.
func exceedsDepth(v any, depth int) bool {
	switch x := v.(type) {
	case bson.D:
		if len(x) > 0 && depth > value.MaxStorageDepth {
			return true
		}
		for _, e := range x {
			if exceedsDepth(e.Value, depth+1) {
				return true
			}
		}
	case bson.A:
		if len(x) > 0 && depth > value.MaxStorageDepth {
			return true
		}
		for _, e := range x {
			if exceedsDepth(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// validID is storage_validation::storageValidIdField.
func validID(v any) *mongoerr.Error {
	switch x := v.(type) {
	case bson.Regex, bson.A, bson.Undefined:
		return mongoerr.Newf(mongoerr.InvalidIdField, "The '_id' value cannot be of type %s", value.TypeName(v))
	case bson.D:
		if key := dollarPrefixedKey(x); key != "" {
			return mongoerr.Newf(mongoerr.DollarPrefixedFieldName,
				"_id fields may not contain '$'-prefixed fields: %s is not valid for storage.", key)
		}
	}
	return nil
}

// dollarPrefixedKey finds the first '$'-prefixed field name at any depth,
// as BSONObj::storageValidEmbedded does; the DBRef fields $ref, $id and $db
// are storable.
func dollarPrefixedKey(v any) string {
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			if strings.HasPrefix(e.Key, "$") && e.Key != "$ref" && e.Key != "$id" && e.Key != "$db" {
				return e.Key
			}
			if k := dollarPrefixedKey(e.Value); k != "" {
				return k
			}
		}
	case bson.A:
		for _, e := range x {
			if k := dollarPrefixedKey(e); k != "" {
				return k
			}
		}
	}
	return ""
}

func cmdInsert(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "documents", "ordered", "bypassDocumentValidation"); err != nil {
		return nil, err
	}
	docs, ok, err := a.array("documents")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'insert.documents' is missing but a required field")
	}
	if err := checkBatchSize(len(docs)); err != nil {
		return nil, err
	}
	ordered, err := a.boolean("ordered", true)
	if err != nil {
		return nil, err
	}
	for i, d := range docs {
		doc, isDoc := d.(bson.D)
		if !isDoc {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch,
				"BSON field 'insert.documents.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(d))
		}
		if err := checkMessageDocSize(doc); err != nil {
			return nil, err
		}
	}
	if err := catalog.ValidateNamespace(req.db, collName); err != nil {
		return nil, err
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	if ts, ok := e.timeseriesView(req.db, collName); ok {
		return e.insertTimeseries(req, ts, docs, ordered)
	}
	coll, err := e.catalog.EnsureCollection(req.db, collName)
	if err != nil {
		return nil, err
	}
	var werrs []writeError
	n := 0
	for i, d := range docs {
		doc, perr := prepareInsert(d.(bson.D))
		if perr == nil {
			doc = fillZeroTimestamps(doc, req.now, i)
			perr = e.validateWrite(req, coll, nil, doc)
		}
		if perr == nil {
			if _, err := coll.Insert(doc); err != nil {
				perr = mongoerr.As(err)
			}
		}
		if perr != nil {
			werrs = append(werrs, writeError{index: i, err: perr})
			if ordered {
				break
			}
			continue
		}
		n++
	}
	reply := bson.D{{Key: "n", Value: int32(n)}}
	if len(werrs) > 0 {
		reply = append(reply, bson.E{Key: "writeErrors", Value: renderWriteErrors(werrs)})
	}
	return reply, nil
}

// maxWriteBatchSize is write_ops::kMaxWriteBatchSize, also advertised by hello.
const maxWriteBatchSize = 100000

// checkBatchSize is checkOpCountForCommand, applied to insert, update and
// delete alike.
func checkBatchSize(n int) error {
	if n == 0 || n > maxWriteBatchSize {
		return mongoerr.Newf(mongoerr.InvalidLength, "Write batch sizes must be between 1 and %d. Got %d operations.", maxWriteBatchSize, n)
	}
	return nil
}

// fillZeroTimestamps gives top-level Timestamp(0, 0) fields the current
// time, as fixDocumentForInsert does with a tick of the cluster clock
// (nested ones are stored as they are). The increment follows the
// document's position so that one batch's timestamps still ascend.
func fillZeroTimestamps(doc bson.D, now bson.DateTime, i int) bson.D {
	var out bson.D
	for j, e := range doc {
		if ts, ok := e.Value.(bson.Timestamp); ok && ts.T == 0 && ts.I == 0 {
			if out == nil {
				out = append(bson.D(nil), doc...)
			}
			out[j].Value = bson.Timestamp{T: uint32(int64(now) / 1000), I: uint32(i + 1)}
		}
	}
	if out == nil {
		return doc
	}
	return out
}
