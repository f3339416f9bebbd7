package catalog

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// errIndexedArray is what mongod raises when a bucket would put an array
// measurement under an index on control.min/control.max.
const errIndexedArray = 5930501

// arrayDecision is timeseries::dotted_path_support::Decision: what the
// control summaries of a bucket tell about arrays under a field.
type arrayDecision int

const (
	arraysNo arrayDecision = iota
	arraysMaybe
	arraysYes
	arraysUndecided
)

// bucketTimeField is the time field of c's time-series options, which
// only a time-series collection's buckets have; ok is false for any other
// collection.
func (c *Collection) bucketTimeField() (timeField string, ok bool) {
	ts, ok := value.Get(c.Options, "timeseries").(bson.D)
	if !ok {
		return "", false
	}
	timeField, _ = value.Get(ts, "timeField").(string)
	return timeField, true
}

// checkIndexedArrays is ExpressionKeysPrivate::validateDocumentCommon
// (expression_keys_private.cpp), which mongod's index access methods run
// on every document of a collection with time-series options (its
// buckets) before they compute its keys, whether it comes from the bucket
// catalog, a direct write or an index build: for each ascending or
// descending field of key on control.min.<f> or control.max.<f> (f not
// the time field), a bucket whose summaries show, or may hide, an array
// under f, and whose data column f does hold one, is refused with
// 5930501. The buckets of the sandbox are uncompressed (version 1)
// documents.
func checkIndexedArrays(bucket, key bson.D, timeField string) error {
	checked := map[string]bool{}
	for _, k := range key {
		if !value.IsNumber(k.Value) {
			continue
		}
		field, ok := strings.CutPrefix(k.Key, "control.max.")
		if !ok {
			field, ok = strings.CutPrefix(k.Key, "control.min.")
		}
		if !ok || field == "" || field == timeField || checked[field] {
			continue
		}
		checked[field] = true
		d := fieldContainsArrayData(bucket, field)
		if d != arraysNo && (d != arraysMaybe || dataHasArray(bucket, field)) {
			return mongoerr.New(errIndexedArray, "Indexed measurement field contains an array value")
		}
	}
	return nil
}

// fieldContainsArrayData reads control.min and control.max along the
// user field's path (fieldContainsArrayData, timeseries_dotted_path_support
// .cpp). A bucket without those summaries, which mongod asserts against,
// is left to the rest of the write.
func fieldContainsArrayData(bucket bson.D, field string) arrayDecision {
	control, _ := value.Get(bucket, "control").(bson.D)
	min, okMin := value.Get(control, "min").(bson.D)
	max, okMax := value.Get(control, "max").(bson.D)
	if !okMin || !okMax {
		return arraysNo
	}
	return summariesContainArray(min, max, field)
}

// summariesContainArray is _fieldContainsArrayData(min, max, field): min
// and max are the summaries' objects at the field's parent.
func summariesContainArray(min, max bson.D, field string) arrayDecision {
	terminal := !strings.Contains(field, ".")
	// The field name is first tried literally, dots and all.
	if lit := value.Get(min, field); !value.IsMissing(lit) {
		return controlTypesIndicateArrays(lit, value.Get(max, field), terminal)
	}
	if terminal {
		// Missing from both summaries: from every measurement.
		return arraysNo
	}
	left, next, _ := strings.Cut(field, ".")
	minEl, maxEl := value.Get(min, left), value.Get(max, left)
	if d := controlTypesIndicateArrays(minEl, maxEl, false); d != arraysUndecided {
		return d
	}
	maxObj, ok := maxEl.(bson.D)
	if minObj, isObj := minEl.(bson.D); isObj && ok {
		return summariesContainArray(minObj, maxObj, next)
	}
	if !ok {
		return arraysNo
	}
	return maxContainsArray(maxObj, next)
}

// controlTypesIndicateArrays is _controlTypesIndicateArrayData. It
// compares BSON type numbers, as mongod does: an array (4) lies between
// types at or below it and at or above it.
func controlTypesIndicateArrays(min, max any, terminal bool) arrayDecision {
	tmin, tmax := value.TypeNumber(min), value.TypeNumber(max)
	if tmin <= value.TypeArray && tmax >= value.TypeArray {
		if tmin == value.TypeArray || tmax == value.TypeArray {
			return arraysYes
		}
		return arraysMaybe
	}
	if !terminal && (tmin == value.TypeObject || tmax == value.TypeObject) {
		return arraysUndecided
	}
	return arraysNo
}

// maxContainsArray is _fieldContainsArrayData(maxObj, field): the min
// path held a non-object below Object, so control.max alone decides.
func maxContainsArray(maxObj bson.D, field string) arrayDecision {
	if e := value.Get(maxObj, field); !value.IsMissing(e) {
		switch t := value.TypeNumber(e); {
		case t == value.TypeArray:
			return arraysYes
		case t > value.TypeArray:
			return arraysMaybe
		}
		return arraysNo
	}
	left, next, ok := strings.Cut(field, ".")
	if !ok {
		return arraysNo
	}
	e := value.Get(maxObj, left)
	switch t := value.TypeNumber(e); {
	case t == value.TypeArray:
		return arraysYes
	case t > value.TypeArray:
		return arraysMaybe
	case t < value.TypeObject:
		return arraysNo
	}
	sub, _ := e.(bson.D)
	return maxContainsArray(sub, next)
}

// dataHasArray is haveArrayAlongBucketDataPath(bucket, "data."+field) for
// an uncompressed bucket: whether any measurement's value of the field,
// or of an object on its path, is an array.
func dataHasArray(bucket bson.D, field string) bool {
	data, _ := value.Get(bucket, "data").(bson.D)
	top, rest, nested := strings.Cut(field, ".")
	if !nested {
		top = field
	}
	column, _ := value.Get(data, top).(bson.D)
	for _, m := range column {
		if !nested {
			if value.IsArray(m.Value) {
				return true
			}
			continue
		}
		if pathHasArray(m.Value, rest) {
			return true
		}
	}
	return false
}

// pathHasArray is _handleIntermediateElementForHaveArrayAlongBucketDataPath
// on one measurement's value: an array met before the path ends counts,
// and so does one at its end; a dotted name is tried literally first.
func pathHasArray(v any, path string) bool {
	switch x := v.(type) {
	case bson.A:
		return true
	case bson.D:
		if e := value.Get(x, path); !value.IsMissing(e) {
			return value.IsArray(e)
		}
		left, next, ok := strings.Cut(path, ".")
		if !ok {
			return false
		}
		return pathHasArray(value.Get(x, left), next)
	}
	return false
}
