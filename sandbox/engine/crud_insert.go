package engine

import (
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
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
// message: a document (of BSON size size) above the internal limit fails
// the whole command.
func checkMessageDocSize(doc bson.D, size int) error {
	if size <= value.MaxInternalDocumentSize {
		return nil
	}
	return value.ObjectTooLarge(doc, size)
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

// prepareInsert applies fixDocumentForInsert to doc, whose BSON size is
// size: size and depth limits, _id validity, and _id generated or moved
// to the front.
func prepareInsert(doc bson.D, size int) (bson.D, *mongoerr.Error) {
	if size > value.MaxUserDocumentSize {
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

// cmdInsert is the hot path of the insertMany figure (200,000 small
// documents through the driver, BenchmarkInsertMany200kMarshal). Profiled
// with go test -cpuprofile, one insertMany cost about 580 ms of CPU on two
// cores (330 ms wall): 30 % the driver's marshalling, 26 % garbage
// collection, 19 % storing (of which the unique _id index's B-tree 10 %,
// the record tree 4 %, key generation 4 %), 14 % decoding the wire
// message, the rest syscalls and the runtime. What changed: each
// document's BSON size is computed once, not three times (message check,
// size limit, record size); key generation reuses one slice of key sets
// and allocates one object per single-field key instead of two; the
// collection's namespace string is built once, not on every index insert;
// and documents are stored in batches of insertBatch under the collection's
// write lock, never under a lock that readers wait for. Storing dropped
// from about 109 to 80 ms of CPU per insertMany, and the whole insertMany
// from 344 to 311 ms on an idle machine. What is left on the server's side
// is mostly the B-tree inserts themselves (about twenty comparisons per
// tree and document); storing the record tree on a second goroutine while
// the indexes are filled did not pay on two cores, whose other one the
// driver and the collector already use. Later (issue 26), the benchmarks'
// server-ms/op split one insertMany into the driver's side and the
// server's: with the collector off, about 165 ms and 170 ms, the driver's
// side alone 1.8x its bare marshalling, so no server change brings the
// whole under 2.5x that floor; with it on, both sides grow with the live
// heap the collector marks, which is why decoded documents are now
// allocated at their exact length (value.Decoder), and why the figure
// swings with when the collector's cycles fall. A later round profiled the
// server's side at about 125 ms of CPU storing (the two B-trees' inserts
// 95 ms of it) and 77 ms decoding per insertMany; the decoder now takes a
// field name from the previous document's same position instead of
// hashing it. Two changes showed no gain that interleaved runs could
// measure and were left out: appending an ascending _id to its index with
// the tree's comparisons made trivial (most of the time is google/btree's
// descent itself, which its API offers no way to skip), and B-trees of
// degree 64 instead of 32.
func cmdInsert(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "documents", "ordered", "bypassDocumentValidation", "stmtId", "stmtIds",
		"bypassEmptyTsReplacement", "collectionUUID"); err != nil {
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
	if err := checkBypassValidation(a); err != nil {
		return nil, err
	}
	bypassEmptyTs, err := a.optionalBool("bypassEmptyTsReplacement")
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(docs))
	for i, d := range docs {
		doc, isDoc := d.(bson.D)
		if !isDoc {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch,
				"BSON field 'insert.documents.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(d))
		}
		sizes[i] = value.Size(doc)
		if err := checkMessageDocSize(doc, sizes[i]); err != nil {
			return nil, err
		}
	}
	if err := checkWriteConcern(req); err != nil {
		return nil, err
	}
	if err := userAllowedWriteNS(req.db, collName); err != nil {
		return nil, err
	}

	n, werrs, err := e.insertDocs(req, collName, docs, sizes, ordered, bypassEmptyTs, 0)
	if req.prof != nil {
		req.prof.inserted(int64(n))
	}
	if err != nil {
		return nil, err
	}
	// Every document attempted counts, failed ones too: all of an
	// unordered insert, an ordered one up to its first failure
	// (insertBatchAndHandleErrors, write_ops_exec.cpp).
	e.metrics.insert.Add(int64(n + len(werrs)))
	e.metrics.docInserted.Add(int64(n))
	reply := bson.D{{Key: "n", Value: int32(n)}}
	if len(werrs) > 0 {
		reply = append(reply, bson.E{Key: "writeErrors", Value: renderWriteErrors(werrs)})
	}
	return reply, nil
}

// insertDocs stores docs[from:] (whose BSON sizes are sizes) in db.coll.
// Documents are prepared without a lock, then stored insertBatch at a
// time, each batch under the collection's write lock: readers never wait
// for more than one batch, and, as on mongod, an insertMany is atomic per
// document only. A time-series collection takes its measurements through
// insertTimeseries; a collection that becomes one between two batches (it
// was dropped and created again) gets the rest of the documents that way.
func (e *Engine) insertDocs(req *request, collName string, docs bson.A, sizes []int, ordered, bypassEmptyTs bool, from int) (int, []writeError, error) {
	if e.isTimeseries(req.db, collName) {
		n, werrs, err := e.insertTimeseries(req, collName, docs, sizes, ordered, from)
		if err != errNotTimeseries {
			return n, werrs, err
		}
	}
	var werrs []writeError
	n := 0
	stop := false
	toTimeseries := -1
	batchDocs := make([]bson.D, min(insertBatch, len(docs)-from))
	batchErrs := make([]*mongoerr.Error, len(batchDocs))
	batchSizes := make([]int, len(batchDocs))
	for i := from; i < len(docs) && !stop && toTimeseries < 0; {
		if err := mongoerr.FromContext(req.ctx); err != nil {
			return 0, nil, err
		}
		end := min(i+insertBatch, len(docs))
		prepared, perrs, psizes := batchDocs[:end-i], batchErrs[:end-i], batchSizes[:end-i]
		for j := range prepared {
			doc, perr := prepareInsert(docs[i+j].(bson.D), sizes[i+j])
			psizes[j] = sizes[i+j]
			if perr == nil {
				if len(doc) > len(docs[i+j].(bson.D)) {
					psizes[j] += generatedIDSize
				}
				if !bypassEmptyTs {
					doc = fillZeroTimestamps(doc, req.now, &e.clock)
				}
			}
			prepared[j], perrs[j] = doc, perr
		}
		if perrs[0] != nil && (ordered || !slices.ContainsFunc(perrs, func(e *mongoerr.Error) bool { return e == nil })) {
			// No document of the batch reaches the collection: mongod
			// reports fixDocumentForInsert's errors without creating it
			// (performInserts makes the collection only for a batch to
			// insert).
			for j, perr := range perrs {
				if perr == nil {
					continue
				}
				werrs = append(werrs, writeError{index: i + j, err: perr})
				if ordered {
					stop = true
					break
				}
			}
			i = end
			continue
		}
		err := e.catalog.Write(req.db, collName, true, func(coll *catalog.Collection) error {
			if coll.Kind == catalog.KindTimeseries {
				toTimeseries = i
				return nil
			}
			if coll.Kind == catalog.KindView {
				werrs = append(werrs, writeError{index: i, err: mongoerr.As(errViewNotCollection(req.db, collName))})
				stop = true
				return nil
			}
			if req.prof != nil {
				defer req.prof.keyWrites(coll, coll.KeyWrites())
			}
			for j, doc := range prepared {
				perr := perrs[j]
				if perr == nil {
					if err := checkDirectBucketWrite(coll, doc, false); err != nil {
						perr = mongoerr.As(err)
					}
				}
				if perr == nil {
					perr = e.validateWrite(req, coll, nil, doc)
				}
				if perr == nil {
					if _, err := coll.InsertSized(doc, psizes[j]); err != nil {
						perr = mongoerr.As(err)
					}
				}
				if perr != nil {
					werrs = append(werrs, writeError{index: i + j, err: perr})
					if ordered {
						stop = true
						return nil
					}
					continue
				}
				n++
			}
			return nil
		})
		if err != nil {
			return 0, nil, err
		}
		i = end
	}
	if toTimeseries >= 0 {
		tn, twerrs, err := e.insertTimeseries(req, collName, docs, sizes, ordered, toTimeseries)
		if err == errNotTimeseries {
			// A time-series view whose buckets collection was dropped on
			// its own.
			err = errViewNotCollection(req.db, collName)
		}
		if err != nil {
			return 0, nil, err
		}
		n += tn
		werrs = append(werrs, twerrs...)
	}
	return n, werrs, nil
}

// insertBatch is how many documents an insert stores per hold of the
// collection's write lock (mongod's internalInsertMaxBatchSize is 64; the
// embedded server's inserts are cheaper, so a larger batch costs readers
// no more time).
const insertBatch = 256

// generatedIDSize is the BSON size of an _id element holding an ObjectId:
// type byte, "_id\x00", 12 bytes.
const generatedIDSize = 1 + 4 + 12

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
// each (nested ones, and the _id, which it copies first, are stored as
// they are).
func fillZeroTimestamps(doc bson.D, now bson.DateTime, clock *update.ClusterClock) bson.D {
	var out bson.D
	for j, e := range doc {
		if ts, ok := e.Value.(bson.Timestamp); ok && ts.T == 0 && ts.I == 0 && e.Key != "_id" {
			if out == nil {
				out = append(bson.D(nil), doc...)
			}
			out[j].Value = clock.Tick(now)
		}
	}
	if out == nil {
		return doc
	}
	return out
}
