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
	return mixedValues(docValues(min), docValues(max))
}

func docValues(d bson.D) []any {
	out := make([]any, len(d))
	for i, e := range d {
		out[i] = e.Value
	}
	return out
}

// mixedValues walks min and max side by side, as doesMinMaxHaveMixedSchemaData
// does; the two have the same fields in the same order in a well-formed
// bucket, and a walk stops at the end of the shorter.
func mixedValues(min, max []any) bool {
	for i := 0; i < len(min) && i < len(max); i++ {
		a, b := min[i], max[i]
		if value.CanonicalTypeOrder(a) != value.CanonicalTypeOrder(b) {
			return true
		}
		switch x := a.(type) {
		case bson.D:
			if y, ok := b.(bson.D); ok && mixedValues(docValues(x), docValues(y)) {
				return true
			}
		case bson.A:
			if y, ok := b.(bson.A); ok && mixedValues(x, y) {
				return true
			}
		}
	}
	return false
}
