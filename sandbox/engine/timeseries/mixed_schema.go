package timeseries

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// BucketHasMixedSchema is doesTimeseriesBucketsDocContainMixedSchemaData
// (collection_impl.cpp): a field whose control.min and control.max differ
// in canonical type, at any depth of the objects and arrays below them.
func BucketHasMixedSchema(bucket bson.D) bool {
	min, _ := value.Lookup(bucket, "control.min").(bson.D)
	max, _ := value.Lookup(bucket, "control.max").(bson.D)
	return mixedFields(min, max)
}

// mixedFields walks min and max side by side, as doesMinMaxHaveMixedSchemaData
// does, an array read as the object of its positions; the two have the
// same fields in the same order in a well-formed bucket, and a walk stops
// at the end of the shorter.
func mixedFields(min, max bson.D) bool {
	for i := 0; i < len(min) && i < len(max); i++ {
		a, b := min[i].Value, max[i].Value
		if value.CanonicalTypeOrder(a) != value.CanonicalTypeOrder(b) {
			return true
		}
		switch x := a.(type) {
		case bson.D:
			if y, ok := b.(bson.D); ok && mixedFields(x, y) {
				return true
			}
		case bson.A:
			if y, ok := b.(bson.A); ok && mixedFields(value.ArrayAsDoc(x), value.ArrayAsDoc(y)) {
				return true
			}
		}
	}
	return false
}
