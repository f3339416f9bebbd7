package engine

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Command arguments are read the way mongod's IDL-generated parsers read
// them, so that a wrong type or an unknown field fails with the same code
// and message ("BSON field 'find.limit' is the wrong type 'string',
// expected types '[long, int, decimal, double']").

// genericArguments are accepted by every command and ignored here: they
// concern sessions, replication, auth and routing, none of which a
// single-node sandbox acts on.
var genericArguments = map[string]bool{
	"$db": true, "lsid": true, "$clusterTime": true, "txnNumber": true,
	"autocommit": true, "startTransaction": true, "readConcern": true,
	"writeConcern": true, "$readPreference": true, "apiVersion": true,
	"apiStrict": true, "apiDeprecationErrors": true, "comment": true,
	"maxTimeMS": true, "$audit": true, "$client": true,
	"mayBypassWriteBlocking": true, "$configServerState": true,
	"$topologyTime": true, "$configTime": true, "$readPreferenceMode": true,
	"databaseVersion": true, "shardVersion": true, "tracking_info": true,
	"$queryOptions": true, "bypassDocumentValidation": true,
	"maxTimeMSOpOnly": true, "clientOperationKey": true, "$oplogQueryData": true,
	"$replData": true, "versionContext": true, "rawData": true,
}

// idlNames maps a command to the struct name mongod's IDL parser uses in
// its error messages.
var idlNames = map[string]string{
	"find": "FindCommandRequest",
}

// idlName is the name the command's IDL parser puts in front of its
// fields in errors.
func idlName(command string) string {
	if n, ok := idlNames[command]; ok {
		return n
	}
	return command
}

// args reads the fields of one command (or of a nested spec such as one
// update statement) with mongod's errors.
type args struct {
	prefix string // "find", "update.updates", ...
	doc    bson.D
}

func newArgs(req *request) args {
	return args{prefix: idlName(req.name), doc: req.cmd}
}

// checkKnown fails with mongod's unknown-field error for any field not in
// known (the command name itself, generic arguments and known fields).
// skipFirst says a is a command, whose first field is its name; generic
// arguments belong to commands alone, and a nested struct (a write
// statement, a cursor option) knows only its own fields.
func (a args) checkKnown(skipFirst bool, known ...string) error {
	for i, e := range a.doc {
		if i == 0 && skipFirst {
			continue
		}
		if skipFirst && genericArguments[e.Key] {
			continue
		}
		found := false
		for _, k := range known {
			if k == e.Key {
				found = true
				break
			}
		}
		if !found {
			return mongoerr.Newf(mongoerr.IDLUnknownField,
				"BSON field '%s.%s' is an unknown field.", a.prefix, e.Key)
		}
	}
	return nil
}

func (a args) get(name string) (any, bool) {
	v := value.Get(a.doc, name)
	if value.IsMissing(v) {
		return nil, false
	}
	return v, true
}

func (a args) wrongType(name string, v any, expected string) error {
	return mongoerr.Newf(mongoerr.TypeMismatch,
		"BSON field '%s.%s' is the wrong type '%s', expected %s", a.prefix, name, value.TypeName(v), expected)
}

// document reads an optional sub-document; null counts as absent where
// mongod's IDL allows it (optional fields).
func (a args) document(name string) (bson.D, bool, error) {
	v, ok := a.get(name)
	if !ok || v == nil {
		return nil, false, nil
	}
	d, isDoc := v.(bson.D)
	if !isDoc {
		return nil, false, a.wrongType(name, v, "type 'object'")
	}
	return d, true, nil
}

// uuidSubtype is BSON's binary subtype 4, the one a UUID field takes.
const uuidSubtype = 4

// uuid reads an optional IDL uuid field: binData of the UUID subtype.
func (a args) uuid(name string) (bson.Binary, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return bson.Binary{}, false, nil
	}
	id, isBin := v.(bson.Binary)
	if !isBin {
		return bson.Binary{}, false, a.wrongType(name, v, "type 'binData'")
	}
	if id.Subtype != uuidSubtype {
		return bson.Binary{}, false, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.%s' is the wrong binData type '%s', expected type 'UUID'",
			a.prefix, name, binDataTypeName(id.Subtype))
	}
	return id, true, nil
}

func (a args) array(name string) (bson.A, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return nil, false, nil
	}
	arr, isArr := v.(bson.A)
	if !isArr {
		return nil, false, a.wrongType(name, v, "type 'array'")
	}
	return arr, true, nil
}

// documentArray reads an optional array of documents (an IDL
// array<object>), naming a wrong element by its index as the IDL does:
// 'update.updates.arrayFilters.0'.
func (a args) documentArray(name string) ([]bson.D, error) {
	arr, _, err := a.array(name)
	if err != nil {
		return nil, err
	}
	var docs []bson.D
	for i, v := range arr {
		d, ok := v.(bson.D)
		if !ok {
			return nil, a.wrongType(name+"."+strconv.Itoa(i), v, "type 'object'")
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// updateModification reads an update statement's modification as the
// IDL's update_modification type does while the command is parsed
// (src/mongo/db/ops/write_ops_parsers.cpp, UpdateModification and
// parsePipelineFromBSON): a document, or a pipeline whose every stage is
// a document; the command fails otherwise.
func updateModification(v any) (any, error) {
	switch u := v.(type) {
	case bson.D:
		return u, nil
	case bson.A:
		for _, stage := range u {
			if _, ok := stage.(bson.D); !ok {
				return nil, mongoerr.New(mongoerr.TypeMismatch, "Each element of the 'pipeline' array must be an object")
			}
		}
		return u, nil
	}
	return nil, mongoerr.New(mongoerr.FailedToParse, "Update argument must be either an object or an array")
}

func (a args) boolean(name string, def bool) (bool, error) {
	v, ok := a.get(name)
	if !ok || v == nil {
		return def, nil
	}
	switch b := v.(type) {
	case bool:
		return b, nil
	case int32, int64, float64, bson.Decimal128:
		// IDL "safeBool" accepts numbers, as mongod does for options
		// like `multi: 1` sent by old shells.
		return expr.IsTrue(b), nil
	}
	return false, a.wrongType(name, v, "types '[bool, long, int, decimal, double']")
}

// optionalBool reads an IDL optionalBool field, which takes a boolean and
// nothing else (OptionalBool::parseFromBSON in src/mongo/idl/basic_types.h).
func (a args) optionalBool(name string) (bool, error) {
	v, ok := a.get(name)
	if !ok {
		return false, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, mongoerr.Newf(mongoerr.TypeMismatch, "Field '%s' should be a boolean value, but found: %s", name, value.TypeName(v))
	}
	return b, nil
}

func (a args) str(name string) (string, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, a.wrongType(name, v, "type 'string'")
	}
	return s, true, nil
}

// int64Arg reads a "safeInt64" field: any number, truncated toward zero.
func (a args) int64Arg(name string) (int64, bool, error) {
	v, ok := a.get(name)
	if !ok || v == nil {
		return 0, false, nil
	}
	n, isNum := value.SafeNumberLong(v)
	if !isNum {
		return 0, false, a.wrongType(name, v, "types '[long, int, decimal, double']")
	}
	return n, true, nil
}

// namespaceArg reads the collection name that is the command's first
// field, with mongod's message for a wrong type.
func collectionName(req *request) (string, error) {
	v := req.cmd[0].Value
	s, ok := v.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.InvalidNamespace,
			"collection name has invalid type %s", value.TypeName(v))
	}
	if err := catalog.CheckNUL(s); err != nil {
		return "", err
	}
	if s == "" {
		return "", mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s.'", req.db)
	}
	return s, nil
}

func ns(db, coll string) string { return db + "." + coll }

// checkWriteConcern refuses what a standalone cannot acknowledge
// (src/mongo/db/write_concern.cpp, validateWriteConcern): waiting for more
// than one member, or for a tag set, which only a replica set has. Other
// write concerns, "majority" among them, are accepted and, on one node,
// mean what w: 1 means.
func checkWriteConcern(req *request) error {
	wc, ok := value.Get(req.cmd, "writeConcern").(bson.D)
	if !ok {
		return nil
	}
	w := value.Get(wc, "w")
	if n, isNum := value.SafeNumberLong(w); isNum && n > 1 {
		return mongoerr.New(mongoerr.BadValue, "cannot use 'w' > 1 when a host is not replicated")
	}
	if mode, isStr := w.(string); isStr && mode != "majority" {
		return mongoerr.Newf(mongoerr.BadValue, "cannot use non-majority 'w' mode %s when a host is not a member of a replica set", mode)
	}
	return nil
}

// cursorOptions reads a command's cursor option, the IDL struct
// SimpleCursorOptions (src/mongo/idl/basic_types.idl) of aggregate,
// listCollections and listIndexes: strict, with one field, batchSize, a
// safeInt64 of at least 0. prefix is the path its errors name.
func (a args) cursorOptions(prefix string) (hasCursor bool, batch int64, hasBatch bool, err error) {
	cur, hasCursor, err := a.document("cursor")
	if err != nil {
		return false, 0, false, err
	}
	ca := args{prefix: prefix, doc: cur}
	if err := ca.checkKnown(false, "batchSize"); err != nil {
		return false, 0, false, err
	}
	if batch, hasBatch, err = ca.int64Arg("batchSize"); err != nil {
		return false, 0, false, err
	}
	if batch < 0 {
		return false, 0, false, mongoerr.Newf(mongoerr.ErrIDLValueOutOfRange, "BSON field 'batchSize' value must be >= 0, actual value '%d'", batch)
	}
	return hasCursor, batch, hasBatch, nil
}
