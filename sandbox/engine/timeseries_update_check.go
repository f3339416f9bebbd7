package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// checkTimeseriesUpdate is updateRequestCheckFunction
// (timeseries_write_util.cpp) as MongoDB 8.0 runs it, where arbitrary
// time-series updates (featureFlagTimeseriesUpdatesSupport) are off: an
// update of a time-series collection must be multi, not an upsert, on a
// collection with a metaField, with a query on the metaField alone
// (translateQuery) and an update document that modifies it alone
// (translateUpdate). Every refusal is InvalidOptions.
func checkTimeseriesUpdate(st *updateStatement, metaField string) error {
	switch {
	case !st.multi:
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot perform a non-multi update on a time-series collection")
	case st.upsert:
		return errTimeseriesUpsert()
	case metaField == "":
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot perform an update on a time-series collection that does not have a metaField")
	}
	for _, e := range st.filter {
		if err := checkTimeseriesQueryElement(e.Key, e.Value, metaField, true, false); err != nil {
			return err
		}
	}
	return checkTimeseriesUpdateModification(st.update, metaField)
}

// errTimeseriesUpsert refuses an upsert into a time-series collection.
func errTimeseriesUpsert() error {
	return mongoerr.New(mongoerr.InvalidOptions, "Cannot perform an upsert on a time-series collection")
}

// checkTimeseriesQueryElement walks a query element as
// replaceQueryMetaFieldName does: no $expr or $where anywhere, a
// $jsonSchema whose required and properties name the metaField alone, and
// every field name at the top level of the query, or of an object inside
// an array, under the metaField.
func checkTimeseriesQueryElement(name string, v any, metaField string, topLevel, parentIsArray bool) error {
	switch name {
	case "$expr":
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot use $expr when performing an update or delete on a time-series collection")
	case "$where":
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot use $where when performing an update or delete on a time-series collection")
	case "$jsonSchema":
		schema, _ := v.(bson.D)
		for _, e := range schema {
			switch e.Key {
			case "required":
				required, _ := e.Value.(bson.A)
				for _, r := range required {
					if s, ok := r.(string); !ok || s != metaField {
						return errTimeseriesQueryField(metaField)
					}
				}
			case "properties":
				properties, _ := e.Value.(bson.D)
				for _, p := range properties {
					if p.Key != metaField {
						return errTimeseriesQueryField(metaField)
					}
				}
			}
		}
		return nil
	}
	if topLevel && !strings.HasPrefix(name, "$") && firstPathElement(name) != metaField {
		return errTimeseriesQueryField(metaField)
	}
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			if err := checkTimeseriesQueryElement(e.Key, e.Value, metaField, parentIsArray, false); err != nil {
				return err
			}
		}
	case bson.A:
		for _, item := range x {
			if err := checkTimeseriesQueryElement("", item, metaField, false, true); err != nil {
				return err
			}
		}
	}
	return nil
}

func errTimeseriesQueryField(metaField string) error {
	return mongoerr.Newf(mongoerr.InvalidOptions, "Cannot perform an update or delete on a time-series collection when querying on a field that is not the metaField '%s'", metaField)
}

// checkTimeseriesUpdateModification is translateUpdate's refusals: no
// pipeline, no replacement, and every field an operator names (and a
// $rename's new name) under the metaField.
func checkTimeseriesUpdateModification(u any, metaField string) error {
	doc, ok := u.(bson.D)
	if !ok {
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot perform an update on a time-series collection using a pipeline update")
	}
	if len(doc) == 0 || !strings.HasPrefix(doc[0].Key, "$") {
		return mongoerr.New(mongoerr.InvalidOptions, "Cannot perform an update on a time-series collection using a replacement document")
	}
	notMeta := mongoerr.Newf(mongoerr.InvalidOptions, "Cannot perform an update on a time-series collection which updates a field that is not the metaField '%s'", metaField)
	for _, op := range doc {
		fields, _ := op.Value.(bson.D)
		for _, f := range fields {
			if firstPathElement(f.Key) != metaField {
				return notMeta
			}
			if op.Key == "$rename" {
				if to, ok := f.Value.(string); !ok || firstPathElement(to) != metaField {
					return notMeta
				}
			}
		}
	}
	return nil
}

// firstPathElement is a dotted path's first field name.
func firstPathElement(path string) string {
	first, _, _ := strings.Cut(path, ".")
	return first
}
