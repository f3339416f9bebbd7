package shell

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// Batch limits of the insert command: mongod's maxWriteBatchSize, and a
// command size comfortably below the 16 MiB BSON limit (plus slack).
const (
	maxWriteBatch      = 100_000
	maxBatchBytes      = 12 << 20
	maxSingleDocOnWire = 16<<20 + 16<<10
)

// insertWriteError is one entry of an insert reply's writeErrors.
type insertWriteError struct {
	Index   int
	Code    int
	Message string
	Details bson.Raw
}

// insertDocs sends already-encoded documents with insert commands.
// The driver's InsertMany re-decodes every document to find its _id,
// which costs more than the whole JS loop that built them, so the shell
// batches the insert commands itself.
func insertDocs(ctx context.Context, db *mongo.Database, coll string, docs [][]byte, ordered bool) (int, []insertWriteError, error) {
	inserted := 0
	var writeErrors []insertWriteError
	for start := 0; start < len(docs); {
		end, size := start, 0
		for end < len(docs) && end-start < maxWriteBatch && (end == start || size+len(docs[end]) <= maxBatchBytes) {
			size += len(docs[end])
			end++
		}
		cmd := buildInsertCommand(coll, docs[start:end], ordered)
		raw, err := db.RunCommand(ctx, bson.Raw(cmd)).Raw()
		var we mongo.WriteException
		if errors.As(err, &we) && len(we.WriteErrors) > 0 && we.WriteConcernError == nil {
			// The driver reports a reply with writeErrors as an error.
			for _, e := range we.WriteErrors {
				writeErrors = append(writeErrors, insertWriteError{Index: start + e.Index, Code: e.Code, Message: e.Message, Details: e.Details})
			}
			if ordered {
				inserted += we.WriteErrors[0].Index
				break
			}
			inserted += end - start - len(we.WriteErrors)
			start = end
			continue
		}
		if err != nil {
			return inserted, writeErrors, err
		}
		if n, ok := raw.Lookup("n").AsInt64OK(); ok {
			inserted += int(n)
		}
		if arr, ok := raw.Lookup("writeErrors").ArrayOK(); ok {
			vals, _ := arr.Values()
			for _, v := range vals {
				d, ok := v.DocumentOK()
				if !ok {
					continue
				}
				we := insertWriteError{}
				if i, ok := d.Lookup("index").AsInt64OK(); ok {
					we.Index = start + int(i)
				}
				if c, ok := d.Lookup("code").AsInt64OK(); ok {
					we.Code = int(c)
				}
				we.Message, _ = d.Lookup("errmsg").StringValueOK()
				if info, ok := d.Lookup("errInfo").DocumentOK(); ok {
					we.Details = info
				}
				writeErrors = append(writeErrors, we)
			}
		}
		if wce, ok := raw.Lookup("writeConcernError").DocumentOK(); ok {
			msg, _ := wce.Lookup("errmsg").StringValueOK()
			code, _ := wce.Lookup("code").AsInt64OK()
			return inserted, writeErrors, mongo.WriteException{WriteConcernError: &mongo.WriteConcernError{Code: int(code), Message: msg}}
		}
		if ordered && len(writeErrors) > 0 {
			break
		}
		start = end
	}
	return inserted, writeErrors, nil
}

func buildInsertCommand(coll string, docs [][]byte, ordered bool) []byte {
	size := 64 + len(coll)
	for _, d := range docs {
		size += len(d) + 8
	}
	idx, cmd := bsoncore.AppendDocumentStart(make([]byte, 0, size))
	cmd = bsoncore.AppendStringElement(cmd, "insert", coll)
	aidx, cmd := bsoncore.AppendArrayElementStart(cmd, "documents")
	for i, d := range docs {
		cmd = bsoncore.AppendDocumentElement(cmd, indexKey(i), d)
	}
	cmd, _ = bsoncore.AppendArrayEnd(cmd, aidx)
	cmd = bsoncore.AppendBooleanElement(cmd, "ordered", ordered)
	cmd, _ = bsoncore.AppendDocumentEnd(cmd, idx)
	return cmd
}
