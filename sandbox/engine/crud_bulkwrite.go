package engine

import (
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// bulkWrite is mongod 8.0's cross-collection write command
// (src/mongo/db/commands/bulk_write.idl, bulk_write_common.cpp's
// validateRequest, bulk_write.cpp): inserts, updates and deletes on the
// namespaces of nsInfo, run in order, with one reply item per operation in
// a cursor on admin.$cmd.bulkWrite and the totals beside it.

// bulkOp is one parsed entry of ops.
type bulkOp struct {
	kind   string // "insert", "update" or "delete"
	nsIdx  int
	doc    bson.D // insert
	size   int    // insert: the document's BSON size
	update *updateStatement
	del    *deleteStatement
}

// bulkWriteRequest is the parsed command.
type bulkWriteRequest struct {
	ops        []bulkOp
	nsInfo     []string // "db.coll"
	ordered    bool
	errorsOnly bool
	batchSize  int64
	hasBatch   bool
	let        bson.D
}

func cmdBulkWrite(e *Engine, req *request) (bson.D, error) {
	bw, err := parseBulkWrite(req)
	if err != nil {
		return nil, err
	}
	if err := checkWriteConcern(req); err != nil {
		return nil, err
	}
	var nErrors, nInserted, nMatched, nModified, nUpserted, nDeleted int32
	var items []bson.D
	for i, op := range bw.ops {
		item, counts, err := e.runBulkOp(req, bw.nsInfo[op.nsIdx], op)
		if err != nil {
			if isInterruption(err) {
				return nil, err
			}
			nErrors++
			me := mongoerr.As(err)
			item = bson.D{{Key: "ok", Value: 0.0}, {Key: "idx", Value: int32(i)},
				{Key: "code", Value: me.Code}, {Key: "errmsg", Value: me.Msg}}
			item = append(item, me.Extra...)
			item = append(item, bson.E{Key: "n", Value: int32(0)})
			if op.kind == "update" {
				item = append(item, bson.E{Key: "nModified", Value: int32(0)})
			}
			items = append(items, item)
			if bw.ordered {
				break
			}
			continue
		}
		nInserted += counts.inserted
		nMatched += counts.matched
		nModified += counts.modified
		nUpserted += counts.upserted
		nDeleted += counts.deleted
		item = append(bson.D{{Key: "ok", Value: 1.0}, {Key: "idx", Value: int32(i)}}, item...)
		if !bw.errorsOnly {
			items = append(items, item)
		}
	}
	batch := int64(math.MaxInt32)
	if bw.hasBatch {
		batch = bw.batchSize
	}
	reply, err := e.firstBatch(req, "admin.$cmd.bulkWrite", sliceStream(items), batch, true, false, "")
	if err != nil {
		return nil, err
	}
	// BulkWriteCommandResponseCursor declares id, firstBatch, ns.
	cur := reply[0].Value.(bson.D)
	reply[0].Value = bson.D{cur[1], cur[0], cur[2]}
	return append(reply,
		bson.E{Key: "nErrors", Value: nErrors},
		bson.E{Key: "nInserted", Value: nInserted},
		bson.E{Key: "nMatched", Value: nMatched},
		bson.E{Key: "nModified", Value: nModified},
		bson.E{Key: "nUpserted", Value: nUpserted},
		bson.E{Key: "nDeleted", Value: nDeleted}), nil
}

// bulkCounts is what one successful operation adds to the totals.
type bulkCounts struct{ inserted, matched, modified, upserted, deleted int32 }

// runBulkOp runs one operation on namespace, returning its reply item's
// fields after ok and idx.
func (e *Engine) runBulkOp(req *request, namespace string, op bulkOp) (bson.D, bulkCounts, error) {
	var c bulkCounts
	db, coll, _ := strings.Cut(namespace, ".")
	if err := userAllowedWriteNS(db, coll); err != nil {
		return nil, c, err
	}
	sub := *req
	sub.db = db
	// bulk_write.cpp counts each operation attempted in its opcounter,
	// as the insert, update and delete commands count their statements.
	switch op.kind {
	case "insert":
		e.metrics.insert.Add(1)
		n, werrs, err := e.insertDocs(&sub, coll, bson.A{op.doc}, []int{op.size}, true, false, 0)
		if err != nil {
			return nil, c, err
		}
		e.metrics.docInserted.Add(int64(n))
		if len(werrs) > 0 {
			return nil, c, werrs[0].err
		}
		c.inserted = int32(n)
		return bson.D{{Key: "n", Value: int32(n)}}, c, nil
	case "update":
		e.metrics.update.Add(1)
		out, err := e.applyUpdateRetrying(&sub, coll, op.update, false)
		e.metrics.updated(out)
		if err != nil {
			return nil, c, err
		}
		n := int32(out.matched)
		c.matched, c.modified = int32(out.matched), int32(out.modified)
		item := bson.D{{Key: "n", Value: n}, {Key: "nModified", Value: int32(out.modified)}}
		if out.upsertedID != nil {
			c.upserted = 1
			item[0].Value = n + 1
			item = append(item, bson.E{Key: "upserted", Value: bson.D{{Key: "_id", Value: out.upsertedID}}})
		}
		return item, c, nil
	}
	e.metrics.delete.Add(1)
	out, err := e.applyDelete(&sub, coll, op.del)
	e.metrics.docDeleted.Add(out.removed)
	if err != nil {
		return nil, c, err
	}
	c.deleted = int32(out.removed)
	return bson.D{{Key: "n", Value: int32(out.removed)}}, c, nil
}

// userAllowedWriteNS is mongod's check that a user may write to a
// namespace (document_validation.cpp, 8.0): never to system.profile or
// system.views, and only to names a create accepts.
func userAllowedWriteNS(db, coll string) error {
	if coll == "system.profile" || coll == "system.views" {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "cannot write to %s.%s", db, coll)
	}
	return catalog.ValidateNamespace(db, coll)
}

// parseBulkWrite reads the command the way its IDL parser does, field by
// field in the order given (so the first bad field is the one reported),
// then applies validateRequest's checks.
func parseBulkWrite(req *request) (*bulkWriteRequest, error) {
	a := args{prefix: "bulkWrite", doc: req.cmd}
	if err := a.checkKnown(true, "ops", "nsInfo", "cursor", "bypassDocumentValidation", "ordered",
		"errorsOnly", "let", "stmtId", "stmtIds"); err != nil {
		return nil, err
	}
	bw := &bulkWriteRequest{ordered: true}
	var opsSeen, nsSeen bool
	var rawOps bson.A
	for _, f := range req.cmd[1:] {
		var err error
		switch f.Key {
		case "ops":
			if f.Value == nil {
				continue
			}
			arr, ok := f.Value.(bson.A)
			if !ok {
				return nil, a.wrongType("ops", f.Value, "type 'array'")
			}
			opsSeen, rawOps = true, arr
			bw.ops = make([]bulkOp, len(arr))
			for i, v := range arr {
				if bw.ops[i], err = parseBulkOp(i, v); err != nil {
					return nil, err
				}
			}
		case "nsInfo":
			if f.Value == nil {
				continue
			}
			arr, ok := f.Value.(bson.A)
			if !ok {
				return nil, a.wrongType("nsInfo", f.Value, "type 'array'")
			}
			nsSeen = true
			bw.nsInfo = make([]string, len(arr))
			for i, v := range arr {
				if bw.nsInfo[i], err = parseNSInfo(i, v); err != nil {
					return nil, err
				}
			}
		case "cursor":
			cur, ok := f.Value.(bson.D)
			if !ok {
				return nil, a.wrongType("cursor", f.Value, "type 'object'")
			}
			ca := args{prefix: "bulkWrite.cursor", doc: cur}
			if err := ca.checkKnown(false, "batchSize"); err != nil {
				return nil, err
			}
			if bw.batchSize, bw.hasBatch, err = ca.int64Arg("batchSize"); err != nil {
				return nil, err
			}
			if bw.hasBatch && bw.batchSize < 0 {
				return nil, mongoerr.Newf(mongoerr.BadValue, "BSON field 'batchSize' value must be >= 0, actual value '%d'", bw.batchSize)
			}
		case "ordered":
			if bw.ordered, err = strictBool(a, "ordered", f.Value); err != nil {
				return nil, err
			}
		case "errorsOnly":
			if bw.errorsOnly, err = strictBool(a, "errorsOnly", f.Value); err != nil {
				return nil, err
			}
		case "bypassDocumentValidation":
			if _, err := a.boolean("bypassDocumentValidation", false); err != nil {
				return nil, err
			}
		case "let":
			if bw.let, err = letArg(a, req.now); err != nil {
				return nil, err
			}
		}
	}
	if !opsSeen {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'bulkWrite.ops' is missing but a required field")
	}
	if !nsSeen {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'bulkWrite.nsInfo' is missing but a required field")
	}
	if err := checkBatchSize(len(bw.ops)); err != nil {
		return nil, err
	}
	for _, namespace := range bw.nsInfo {
		if db, coll, ok := strings.Cut(namespace, "."); !ok || catalog.ValidateDBName(db) != nil || coll == "" {
			return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified for bulkWrite: '%s'", db)
		}
	}
	for i, op := range bw.ops {
		if op.nsIdx >= len(bw.nsInfo) {
			return nil, mongoerr.Newf(mongoerr.BadValue, "BulkWrite ops entry %s has an invalid nsInfo index.", value.Format(rawOps[i]))
		}
		// The command's let reaches every statement, under the update's
		// own constants.
		switch op.kind {
		case "update":
			op.update.let = append(append(bson.D{}, bw.let...), op.update.let...)
		case "delete":
			op.del.let = bw.let
		}
	}
	return bw, nil
}

// strictBool reads an IDL "bool" field: only a boolean is accepted.
func strictBool(a args, name string, v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, a.wrongType(name, v, "type 'bool'")
	}
	return b, nil
}

// parseNSInfo reads one NamespaceInfoEntry.
func parseNSInfo(i int, v any) (string, error) {
	d, ok := v.(bson.D)
	if !ok {
		return "", mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'bulkWrite.nsInfo.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(v))
	}
	a := args{prefix: "bulkWrite.nsInfo", doc: d}
	if err := a.checkKnown(false, "ns", "collectionUUID", "encryptionInformation", "isTimeseriesNamespace",
		"shardVersion", "databaseVersion"); err != nil {
		return "", err
	}
	for _, f := range d {
		switch f.Key {
		case "collectionUUID", "encryptionInformation", "shardVersion", "databaseVersion":
			return "", mongoerr.Newf(mongoerr.NotImplemented,
				"bulkWrite nsInfo option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
		}
	}
	ns, ok, err := a.str("ns")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'bulkWrite.nsInfo.ns' is missing but a required field")
	}
	return ns, nil
}

// bulkOpFields are the fields of each kind of operation
// (BulkWriteInsertOp, BulkWriteUpdateOp, BulkWriteDeleteOp), the kind's
// own name first.
var bulkOpFields = map[string][]string{
	"insert": {"insert", "document"},
	"update": {"update", "filter", "multi", "updateMods", "upsert", "upsertSupplied", "arrayFilters", "hint",
		"constants", "collation", "sort"},
	"delete": {"delete", "filter", "multi", "hint", "collation"},
}

// parseBulkOp reads one entry of ops; its first field names its kind, as
// the IDL's variant of structs decides.
func parseBulkOp(i int, v any) (bulkOp, error) {
	var op bulkOp
	d, ok := v.(bson.D)
	if !ok {
		return op, mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'bulkWrite.ops.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(v))
	}
	if len(d) == 0 || bulkOpFields[d[0].Key] == nil {
		name := ""
		if len(d) > 0 {
			name = d[0].Key
		}
		return op, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field 'bulkWrite.%s' is an unknown field.", name)
	}
	op.kind = d[0].Key
	a := args{prefix: "bulkWrite.ops", doc: d}
	if err := a.checkKnown(false, bulkOpFields[op.kind]...); err != nil {
		return op, err
	}
	idx, _, err := a.int64Arg(op.kind)
	if err != nil {
		return op, err
	}
	if idx < 0 {
		return op, mongoerr.Newf(mongoerr.BadValue, "BSON field '%s' value must be >= 0, actual value '%d'", op.kind, idx)
	}
	op.nsIdx = int(min(idx, math.MaxInt32))
	required := func(name string) error {
		return mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field 'bulkWrite.ops.%s' is missing but a required field", name)
	}
	switch op.kind {
	case "insert":
		doc, ok, err := a.document("document")
		if err != nil {
			return op, err
		}
		if !ok {
			return op, required("document")
		}
		op.doc, op.size = doc, value.Size(doc)
		return op, checkMessageDocSize(doc, op.size)
	case "update":
		st, err := parseBulkUpdate(a, required)
		op.update = st
		return op, err
	}
	filter, ok, err := a.document("filter")
	if err != nil {
		return op, err
	}
	if !ok {
		return op, required("filter")
	}
	op.del = &deleteStatement{filter: filter}
	for _, f := range d {
		if f.Key == "multi" {
			if op.del.multi, err = strictBool(a, "multi", f.Value); err != nil {
				return op, err
			}
		}
	}
	if op.del.hint, err = indexHint(a); err != nil {
		return op, err
	}
	return op, checkCollation(a)
}

func parseBulkUpdate(a args, required func(string) error) (*updateStatement, error) {
	st := &updateStatement{}
	filter, ok, err := a.document("filter")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, required("filter")
	}
	st.filter = filter
	u, ok := a.get("updateMods")
	if !ok {
		return nil, required("updateMods")
	}
	if st.update, err = updateModification(u); err != nil {
		return nil, err
	}
	for _, f := range a.doc {
		switch f.Key {
		case "multi":
			st.multi, err = strictBool(a, "multi", f.Value)
		case "upsert":
			st.upsert, err = strictBool(a, "upsert", f.Value)
		case "upsertSupplied":
			st.suppliedAsked, err = strictBool(a, "upsertSupplied", f.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := st.readSharedOptions(a); err != nil {
		return nil, err
	}
	if c, ok, err := a.document("constants"); err != nil {
		return nil, err
	} else if ok {
		st.let = c
		st.constants = true
		st.supplied = value.Get(c, "new")
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	return st, nil
}

// indexHint reads a write statement's hint, IDL type indexHint
// (src/mongo/db/query/index_hint.cpp): an index name or key pattern, {}
// meaning none.
func indexHint(a args) (any, error) {
	h, ok := a.get("hint")
	if !ok {
		return nil, nil
	}
	switch x := h.(type) {
	case string:
		return x, nil
	case bson.D:
		if len(x) == 0 {
			return nil, nil
		}
		return x, nil
	}
	return nil, mongoerr.New(mongoerr.FailedToParse, "Hint must be a string or an object")
}
