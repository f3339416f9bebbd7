package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// writeBatch is what the update and delete commands share: the
// collection, the array of statements, ordered and let.
type writeBatch struct {
	coll       string
	statements bson.A
	ordered    bool
	let        bson.D
	// bypassEmptyTs is bypassEmptyTsReplacement, which every write
	// command's WriteCommandRequestBase has (write_ops.idl) and only
	// inserts and replacements read.
	bypassEmptyTs bool
}

// parseWriteBatch reads a write command whose statements are under field
// ("updates", "deletes"); known lists the command's other fields.
func parseWriteBatch(req *request, field string, known ...string) (*writeBatch, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, append([]string{field, "ordered", "let", "stmtIds", "stmtId", "bypassEmptyTsReplacement", "collectionUUID"}, known...)...); err != nil {
		return nil, err
	}
	stmts, ok, err := a.array(field)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.%s' is missing but a required field", req.name, field)
	}
	if err := checkBatchSize(len(stmts)); err != nil {
		return nil, err
	}
	b := &writeBatch{coll: collName, statements: stmts}
	if b.ordered, err = a.boolean("ordered", true); err != nil {
		return nil, err
	}
	if err := checkBypassValidation(a); err != nil {
		return nil, err
	}
	if b.let, err = letArg(a, req.now); err != nil {
		return nil, err
	}
	if b.bypassEmptyTs, err = a.optionalBool("bypassEmptyTsReplacement"); err != nil {
		return nil, err
	}
	return b, nil
}

// checkBypassValidation checks the type of bypassDocumentValidation, a
// safeBool of every write command (WriteCommandRequestBase in
// write_ops.idl, findAndModify's own field): a boolean or a number, read
// later by bypassValidation.
func checkBypassValidation(a args) error {
	_, err := a.boolean("bypassDocumentValidation", false)
	return err
}
