package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func bsonSize(_ string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrBsonSizeNotDocument, "$bsonSize requires a document input, found: %s", typeName(v))
	}
	return int32(value.Size(d)), nil
}

func binarySize(_ string, v any) (any, error) {
	switch x := v.(type) {
	case nil, value.Missing, bson.Undefined:
		return nil, nil
	case string:
		return int32(len(x)), nil
	case bson.Binary:
		return int32(len(x.Data)), nil
	}
	return nil, mongoerr.Newf(mongoerr.ErrBinarySizeWrongType, "$binarySize requires a string or BinData argument, found: %s", typeName(v))
}
