package timeseries

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// Unpack is BucketUnpacker::getNext over a whole bucket: one measurement
// per entry of the time column, with the time field first, then the meta
// field (when the bucket has one), then the other columns in the bucket's
// order.
func Unpack(bucket bson.D, timeField, metaField string) []bson.D {
	data, _ := value.Get(bucket, "data").(bson.D)
	times, _ := value.Get(data, timeField).(bson.D)
	meta := value.Get(bucket, "meta")
	hasMeta := metaField != "" && !value.IsMissing(meta)
	type column struct {
		name string
		vals bson.D
		pos  int
	}
	cols := make([]column, 0, len(data))
	for _, c := range data {
		if c.Key == timeField {
			continue
		}
		vals, _ := c.Value.(bson.D)
		cols = append(cols, column{name: c.Key, vals: vals})
	}
	out := make([]bson.D, 0, len(times))
	for _, t := range times {
		m := make(bson.D, 0, len(cols)+2)
		m = append(m, bson.E{Key: timeField, Value: t.Value})
		if hasMeta {
			m = append(m, bson.E{Key: metaField, Value: meta})
		}
		for i := range cols {
			c := &cols[i]
			if c.pos < len(c.vals) && c.vals[c.pos].Key == t.Key {
				m = append(m, bson.E{Key: c.name, Value: c.vals[c.pos].Value})
				c.pos++
			}
		}
		out = append(out, m)
	}
	return out
}
