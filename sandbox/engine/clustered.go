package engine

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Clustered collections: create's clusteredIndex option (manual:
// core/clustered-collections). The records are kept in _id order and the
// _id index is the cluster key itself (catalog.Collection.ClusteredIndex);
// the planner's side is planner/clustered.go.

// clusteredByID reports a collection clustered by _id: one created with
// clusteredIndex, or a time-series collection's buckets. Neither has an
// _id index to list, count, name, drop or hide.
func clusteredByID(c *catalog.Collection) bool {
	return c.IsClustered() || strings.HasPrefix(c.Name, bucketsPrefix)
}

// clusteredCreateChecks are create_command.cpp's checks of a create that
// names clusteredIndex at all (false included, as mongod tests only its
// presence; clustered_util::checkCreationOptions): a clustered
// collection is capped only by age, and only with test commands enabled,
// which the sandbox, answering as a production mongod, never has.
func clusteredCreateChecks(a args) error {
	if _, ok := a.get("clusteredIndex"); !ok {
		return nil
	}
	if _, ok := a.get("size"); ok {
		return mongoerr.New(mongoerr.ErrClusteredCappedSize, "'size' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?")
	}
	if _, ok := a.get("max"); ok {
		return mongoerr.New(mongoerr.ErrClusteredCappedMax, "'max' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?")
	}
	if capped, _ := a.get("capped"); capped == true {
		return mongoerr.New(mongoerr.ErrClusteredCappedTesting, "Clustered capped collection only available with 'enableTestCommands' server parameter")
	}
	return nil
}

// parseClusteredIndex reads create's clusteredIndex as the command's IDL
// parses it (a bool, or a strict ClusteredIndexSpec {v, key, name,
// unique}, clustered_collection_options.idl) and returns the spec as
// listCollections shows it, with the default name and version filled in
// (ensureClusteredIndexName); nil when the option is absent or false.
// Its semantic checks are validateClusteredOptions'.
func parseClusteredIndex(a args) (any, error) {
	v, ok := a.get("clusteredIndex")
	if !ok {
		return nil, nil
	}
	switch x := v.(type) {
	case bool:
		if !x {
			return nil, nil
		}
		return true, nil
	case bson.D:
		s := args{prefix: a.prefix + ".clusteredIndex", doc: x}
		if err := s.checkKnown(false, "v", "key", "name", "unique"); err != nil {
			return nil, err
		}
		// v is a safeInt: a number past the int range is clamped to it,
		// as BSONElement::safeNumberInt reads it.
		version := int64(2)
		if n, ok, err := s.int64Arg("v"); err != nil {
			return nil, err
		} else if ok {
			version = min(max(n, math.MinInt32), math.MaxInt32)
		}
		key, hasKey, err := s.document("key")
		if err != nil {
			return nil, err
		}
		name, hasName, err := s.str("name")
		if err != nil {
			return nil, err
		}
		_, hasUnique := s.get("unique")
		unique, err := s.boolean("unique", false)
		if err != nil {
			return nil, err
		}
		if !hasKey {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.key' is missing but a required field", s.prefix)
		}
		if !hasUnique {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.unique' is missing but a required field", s.prefix)
		}
		if !hasName {
			name = "_id_"
			if len(key) > 0 && key[0].Key != "_id" {
				name = key[0].Key + "_1"
			}
		}
		return bson.D{
			{Key: "v", Value: int32(version)},
			{Key: "key", Value: key},
			{Key: "name", Value: name},
			{Key: "unique", Value: unique},
		}, nil
	}
	return nil, a.wrongType("clusteredIndex", v, "types '[bool, object']")
}

// validateClusteredOptions is validateCollectionOptions'
// (create_collection.cpp) checks of a clustered collection's options,
// in its order: the legacy boolean form belongs to time-series buckets
// (system.buckets.*) and they take no other, there is no _id index to
// describe or turn off, and the spec is unique on {_id: 1}, version 2
// (validateClusteredIndexSpec), with an expireAfterSeconds in range.
func validateClusteredOptions(a args, collName string, spec any, expire *int64, now bson.DateTime) error {
	d, isSpec := spec.(bson.D)
	if isSpec == strings.HasPrefix(collName, bucketsPrefix) {
		return mongoerr.New(mongoerr.ErrClusteredLegacy, "The 'clusteredIndex' legacy format {clusteredIndex: <bool>} is only supported for specific internal collections and vice versa")
	}
	if !isSpec {
		return nil
	}
	if _, ok := a.get("idIndex"); ok {
		return mongoerr.New(mongoerr.InvalidOptions, "The 'clusteredIndex' option is not supported with the 'idIndex' option")
	}
	if auto, ok := a.get("autoIndexId"); ok && !expr.IsTrue(auto) {
		return mongoerr.New(mongoerr.ErrClusteredAutoIndexID, "The 'clusteredIndex' option does not support {autoIndexId: false}")
	}
	if value.Get(d, "unique") != true {
		return mongoerr.New(mongoerr.ErrClusteredNotUnique, "The clusteredIndex option requires unique: true to be specified")
	}
	if value.Compare(value.Get(d, "key"), bson.D{{Key: "_id", Value: int32(1)}}) != 0 {
		return mongoerr.New(mongoerr.InvalidIndexSpecificationOption, "The clusteredIndex option is only supported for key: {_id: 1}")
	}
	if expire != nil {
		if err := clusteredTTLProblem(*expire, now); err != nil {
			return err
		}
	}
	if v := value.Get(d, "v").(int32); v != 2 {
		return mongoerr.Newf(mongoerr.ErrClusteredVersion, "Invalid clusteredIndex specification %s; cannot create a clusteredIndex with v=%d", value.FormatDoc(d), v)
	}
	return nil
}

// clusteredTTLProblem is validateExpireAfterSeconds for a clustered
// collection (index_key_validate.cpp): not negative, and not so large
// that the expiry would lie before the epoch.
func clusteredTTLProblem(seconds int64, now bson.DateTime) error {
	if seconds < 0 {
		return mongoerr.New(mongoerr.InvalidOptions, "TTL index 'expireAfterSeconds' option cannot be less than 0")
	}
	if seconds > math.MaxInt64/1000 || seconds*1000 > int64(now) {
		return mongoerr.New(mongoerr.InvalidOptions, "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number")
	}
	return nil
}

// clusteredIndexEntry is a clustered collection's cluster key as
// listIndexes lists it, first (formatClusterKeyForListIndexes): its spec,
// the collection's TTL, and clustered: true.
func clusteredIndexEntry(c *catalog.Collection) bson.D {
	d := slices.Clip(c.ClusteredIndex())
	if ttl := value.Get(c.Options, "expireAfterSeconds"); !value.IsMissing(ttl) {
		d = append(d, bson.E{Key: "expireAfterSeconds", Value: ttl})
	}
	return append(d, bson.E{Key: "clustered", Value: true})
}

// namesClusterKey reports a dropIndexes target that names a clustered
// collection's cluster key: by its name, alone or in a list, or by its
// key pattern (drop_indexes.cpp).
func namesClusterKey(c *catalog.Collection, target any) bool {
	spec := c.ClusteredIndex()
	if spec == nil {
		return false
	}
	name := value.Get(spec, "name")
	switch t := target.(type) {
	case string:
		return t == name
	case bson.A:
		return slices.Contains(t, name)
	case bson.D:
		return value.Compare(t, value.Get(spec, "key")) == 0
	}
	return false
}

// clusteredTTLChange reads collMod's expireAfterSeconds for a clustered
// collection (coll_mod.cpp): "off" removes the TTL, a number of seconds
// sets it, stored as a long.
func clusteredTTLChange(a args, v any, now bson.DateTime) (any, error) {
	if s, ok := v.(string); ok {
		if s != "off" {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions, "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got: '%s'. Accepted value is 'off'", s)
		}
		return s, nil
	}
	n, ok := value.SafeNumberLong(v)
	if !ok {
		return nil, a.wrongType("expireAfterSeconds", v, "types '[string, long, int, decimal, double']")
	}
	if err := clusteredTTLProblem(n, now); err != nil {
		return nil, err
	}
	return n, nil
}
