package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// An index on a time-series collection is built on its buckets, its spec
// translated as makeTimeseriesCreateIndexesCommand translates it
// (src/mongo/db/timeseries/timeseries_commands_conversion_helper.cpp),
// the key by createBucketsSpecFromTimeseriesSpec
// (timeseries_index_schema_conversion_functions.cpp).

// bucketIndexKey converts a time-series index key to the buckets
// collection's schema: metaField paths become "meta", the time field and
// measurement fields become their control.min/control.max bounds (max
// first for a descending field), a 2dsphere measurement index becomes a
// 2dsphere_bucket index on its data. The error is the conversion's
// BadValue: a time field that is not a number, a measurement field that
// is neither a number nor 2dsphere.
func bucketIndexKey(o timeseries.Options, key bson.D) (bson.D, error) {
	if len(key) == 0 {
		return nil, mongoerr.New(mongoerr.BadValue, "Empty object is not a valid index spec")
	}
	if key[0].Key == "$hint" || key[0].Key == "$natural" {
		return nil, mongoerr.Newf(mongoerr.BadValue, "Invalid index spec (perhaps it's a valid hint, that was incorrectly passed to createBucketsSpecFromTimeseriesSpec): %s", value.FormatDoc(key))
	}
	out := bson.D{}
	for _, k := range key {
		if path, onMeta := o.BucketMetaPath(k.Key); onMeta {
			out = append(out, bson.E{Key: path, Value: k.Value})
			continue
		}
		if k.Key != o.TimeField && k.Value == "2dsphere" {
			out = append(out, bson.E{Key: "data." + k.Key, Value: "2dsphere_bucket"})
			continue
		}
		if !value.IsNumber(k.Value) {
			what := "the time field must be ascending or descending (numbers only)"
			if k.Key != o.TimeField {
				what = "measurement fields must be ascending or descending (numbers only), or '2dsphere'"
			}
			return nil, mongoerr.Newf(mongoerr.BadValue, "Invalid index spec for time-series collection: %s. Indexes on %s: %s",
				value.FormatDoc(key), what, value.FormatElem(k.Key, k.Value))
		}
		minK, maxK := "control.min."+k.Key, "control.max."+k.Key
		if value.ToDouble(k.Value) < 0 {
			out = append(out, bson.E{Key: maxK, Value: k.Value}, bson.E{Key: minK, Value: k.Value})
		} else {
			out = append(out, bson.E{Key: minK, Value: k.Value}, bson.E{Key: maxK, Value: k.Value})
		}
	}
	return out, nil
}

// bucketIndexSpec translates one index spec of createIndexes on a
// time-series collection (translateIndexSpecFromLogicalToBuckets), field
// by field as mongod meets them: a partialFilterExpression becomes the
// buckets' predicate (and no collation may come with it), sparse is only
// for the time and meta fields, unique is refused, text is refused, the
// key is converted; a TTL index needs a partialFilterExpression on the
// metaField alone and a key on the time field alone. An index with a
// partialFilterExpression, or on a measurement, keeps the user's spec as
// its originalSpec, which listIndexes then shows. cmd is the command,
// which the key's conversion error quotes.
func bucketIndexSpec(o timeseries.Options, spec bson.D, cmd bson.D) (bson.D, error) {
	out := make(bson.D, 0, len(spec)+2)
	var origKey, key bson.D
	ttl, partialOnMetaOnly, keepOriginal := false, false, false
	for _, f := range spec {
		switch f.Key {
		case "partialFilterExpression":
			filter, ok := f.Value.(bson.D)
			if !ok {
				out = append(out, f)
				continue
			}
			keepOriginal = true
			if !value.IsMissing(value.Get(spec, "collation")) {
				return nil, mongoerr.New(mongoerr.IndexOptionsConflict, "On a time-series collection, partialFilterExpression and collation arguments are incompatible")
			}
			onBuckets, metric, err := o.IndexFilter(filter)
			if err != nil {
				return nil, err
			}
			partialOnMetaOnly = !metric
			out = append(out, bson.E{Key: f.Key, Value: onBuckets})
			continue
		case "sparse":
			key, _ := value.Get(spec, "key").(bson.D)
			for _, k := range key {
				if _, onMeta := o.BucketMetaPath(k.Key); k.Key != o.TimeField && !onMeta {
					return nil, mongoerr.New(mongoerr.InvalidOptions, "Sparse indexes are not supported on time-series measurements")
				}
			}
		case "expireAfterSeconds":
			ttl = true
			out = append(out, f)
			continue
		case "unique":
			if expr.IsTrue(f.Value) {
				return nil, mongoerr.New(mongoerr.InvalidOptions, "Unique indexes are not supported on time-series collections")
			}
		case "key":
			k, ok := f.Value.(bson.D)
			if !ok {
				out = append(out, f)
				continue
			}
			if index.PluginName(k) == "text" {
				return nil, mongoerr.New(mongoerr.InvalidOptions, "Text indexes are not supported on time-series collections")
			}
			converted, err := bucketIndexKey(o, k)
			if err != nil {
				return nil, conversionError(mongoerr.CannotCreateIndex, err, cmd)
			}
			origKey, key = k, converted
			keepOriginal = keepOriginal || onMeasurement(o, converted)
			continue
		}
		out = append(out, f)
	}
	if ttl {
		if !partialOnMetaOnly {
			return nil, mongoerr.New(mongoerr.InvalidOptions, "TTL indexes on time-series collections require a partialFilterExpression on the metaField")
		}
		if len(origKey) != 1 {
			return nil, mongoerr.Newf(mongoerr.CannotCreateIndex, "TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: %s", value.FormatDoc(origKey))
		}
		if origKey[0].Key != o.TimeField {
			return nil, mongoerr.New(mongoerr.InvalidOptions, "TTL indexes on non-time fields are not supported on time-series collections")
		}
		// mongod then expires whole buckets by their time bounds, which
		// the sandbox does not do.
		return nil, mongoerr.New(mongoerr.NotImplemented,
			"a TTL index on a time-series collection is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it")
	}
	if key != nil {
		out = append(out, bson.E{Key: "key", Value: key})
	}
	if keepOriginal {
		out = append(out, bson.E{Key: "originalSpec", Value: originalIndexSpec(spec)})
	}
	return out, nil
}

// onMeasurement is shouldIncludeOriginalSpec: a buckets key with a field
// other than the time's control bounds and the meta.
func onMeasurement(o timeseries.Options, bucketsKey bson.D) bool {
	for _, k := range bucketsKey {
		if k.Key != "control.min."+o.TimeField && k.Key != "control.max."+o.TimeField &&
			(o.MetaField == "" || k.Key != "meta" && !strings.HasPrefix(k.Key, "meta.")) {
			return true
		}
	}
	return false
}

// originalIndexSpec is the user's index spec as the catalog keeps it:
// {v, key, name, ...its options}.
func originalIndexSpec(spec bson.D) bson.D {
	out := bson.D{{Key: "v", Value: int32(2)}, {Key: "key", Value: value.Get(spec, "key")}, {Key: "name", Value: value.Get(spec, "name")}}
	for _, f := range spec {
		switch f.Key {
		case "v", "key", "name", "background", "ns":
		default:
			out = append(out, f)
		}
	}
	return out
}

// viewFilter renames a buckets index's filter on "meta" onto the
// metaField, for listing in the collection's schema an index built on the
// buckets directly (one built through the collection lists its
// originalSpec); ok is false for a filter on anything else.
func viewFilter(o timeseries.Options, filter bson.D) (bson.D, bool) {
	return renameFilterPaths(filter, func(path string) (string, bool) {
		if path != "meta" && !strings.HasPrefix(path, "meta.") || o.MetaField == "" {
			return "", false
		}
		return o.MetaField + strings.TrimPrefix(path, "meta"), true
	})
}

// renameFilterPaths renames every path of a filter made of field
// predicates under $and, $or and $nor; ok is false when rename refuses a
// path or the filter has any other top-level operator.
func renameFilterPaths(filter bson.D, rename func(string) (string, bool)) (bson.D, bool) {
	out := make(bson.D, 0, len(filter))
	for _, e := range filter {
		switch e.Key {
		case "$and", "$or", "$nor":
			arr, ok := e.Value.(bson.A)
			if !ok {
				return nil, false
			}
			conv := make(bson.A, len(arr))
			for i, sub := range arr {
				d, ok := sub.(bson.D)
				if !ok {
					return nil, false
				}
				if conv[i], ok = renameFilterPaths(d, rename); !ok {
					return nil, false
				}
			}
			out = append(out, bson.E{Key: e.Key, Value: conv})
		default:
			path, ok := rename(e.Key)
			if !ok || strings.HasPrefix(e.Key, "$") {
				return nil, false
			}
			out = append(out, bson.E{Key: path, Value: e.Value})
		}
	}
	return out, true
}

// conversionError is the error a command on a time-series collection
// reports when its key does not convert: the conversion's status, then
// the command as its IDL serializes it, its own fields and $db last
// (uassert with code, "<status> Command request: <cmd>").
func conversionError(code int32, err error, cmd bson.D) error {
	me := err.(*mongoerr.Error)
	own := bson.D{}
	var db any
	for _, e := range cmd {
		switch {
		case e.Key == "$db":
			db = e.Value
		case !genericArguments[e.Key]:
			own = append(own, e)
		}
	}
	if db != nil {
		own = append(own, bson.E{Key: "$db", Value: db})
	}
	return mongoerr.Newf(code, "%s: %s Command request: %s", mongoerr.CodeName(me.Code), me.Msg, value.FormatDoc(own))
}

// timeseriesKeyNotFound is dropIndexes' and collMod's answer to a key
// that does not convert (makeTimeseriesDropIndexesCommand,
// makeTimeseriesCollModCommand): IndexNotFound.
func timeseriesKeyNotFound(err error, cmd bson.D) error {
	return conversionError(mongoerr.IndexNotFound, err, cmd)
}
