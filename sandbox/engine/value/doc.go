// Package value is the engine's model of BSON values: the Go types a
// document is made of, MongoDB's cross-type comparison order, and a fast
// codec between raw BSON and that model.
//
// A document is a bson.D (field order matters in MongoDB), an array a
// bson.A, and scalars are the driver's own types:
//
//	nil (null), int32, int64, float64, string, bool, bson.ObjectID,
//	bson.DateTime, bson.Decimal128, bson.Binary, bson.Regex,
//	bson.Timestamp, bson.MinKey, bson.MaxKey, bson.Undefined,
//	bson.Symbol, bson.JavaScript, bson.CodeWithScope, bson.DBPointer.
//
// Nothing else (no int, no map, no []any) ever appears inside a document
// handled by the engine; Decode guarantees that for data from the wire.
//
// Stored documents are shared between readers, so they are never mutated in
// place: writers build a new document (see DeepCopy) and swap it in.
package value
