package index

import (
	"fmt"
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// IDIndexName is the name of the index every collection has on _id.
const IDIndexName = "_id_"

// Field is one component of a key pattern.
type Field struct {
	Path string
	Desc bool // -1 direction
	// Hashed is set on the one "hashed" field of a hashed index, whose
	// keys hold the value's HashedIndexKey instead of the value.
	Hashed bool
}

// Spec is a validated index specification, as createIndexes receives it
// and listIndexes returns it.
type Spec struct {
	Name   string
	Key    bson.D // the key pattern as given
	Fields []Field
	Unique bool
	Sparse bool
	Hidden bool
	// PrepareUnique makes a non-unique index refuse new duplicate keys,
	// the first step of converting it to unique with collMod.
	PrepareUnique bool
	Partial       bson.D // partialFilterExpression, nil when absent
	// Wildcard is set for a wildcard index ({"$**": 1}, {"a.$**": 1}).
	Wildcard *Wildcard
	// Clustered is set on the _id index of a collection created
	// clustered by _id: the cluster key, which orders the records. The
	// planner scans it as the collection, never as an index.
	Clustered bool
	// Options holds every option after v/key/name in the order given, so
	// that listIndexes prints them as mongod stores them.
	Options bson.D
}

// IDSpec is the spec of the _id index.
func IDSpec() Spec {
	return Spec{
		Name:   IDIndexName,
		Key:    bson.D{{Key: "_id", Value: int32(1)}},
		Fields: []Field{{Path: "_id"}},
		Unique: true,
	}
}

// IsID reports whether the spec is the _id index.
func (s Spec) IsID() bool { return s.Name == IDIndexName }

// Document is the spec as listIndexes prints it: {v: 2, key, name,
// options...}.
func (s Spec) Document() bson.D {
	d := make(bson.D, 0, 3+len(s.Options))
	d = append(d, bson.E{Key: "v", Value: int32(2)}, bson.E{Key: "key", Value: s.Key}, bson.E{Key: "name", Value: s.Name})
	return append(d, s.Options...)
}

// validOptions are the index options mongod accepts on createIndexes;
// the ones this engine cannot honour are refused in ParseSpec.
var validOptions = map[string]bool{
	"unique": true, "sparse": true, "partialFilterExpression": true,
	"expireAfterSeconds": true, "hidden": true, "background": true,
	"collation": true, "weights": true, "default_language": true,
	"language_override": true, "textIndexVersion": true,
	"2dsphereIndexVersion": true, "bits": true, "min": true, "max": true,
	"bucketSize": true, "wildcardProjection": true, "storageEngine": true,
	"prepareUnique": true, "clustered": true, "coarsestIndexedLevel": true,
	"finestIndexedLevel": true, "dropDups": true, "ns": true, "originalSpec": true,
}

// unsupportedPlugins are index types mongod has but this engine does
// not implement; they fail loudly instead of building a wrong index.
var unsupportedPlugins = map[string]bool{
	"text": true, "2dsphere": true, "2d": true, "2dsphere_bucket": true,
}

// knownPlugins are IndexNames' plugin names, which a key pattern value
// may name.
var knownPlugins = map[string]bool{
	"text": true, "2dsphere": true, "2d": true, "hashed": true, "geoHaystack": true,
	"2dsphere_bucket": true, "wildcard": true, "columnstore": true,
}

// PluginName is IndexNames::findPluginName: the first string value of a
// key pattern, or "wildcard" at a wildcard field met first; "" for a
// btree index.
func PluginName(key bson.D) string {
	for _, e := range key {
		if str, ok := e.Value.(string); ok {
			return str
		}
		if isWildcardKey(e.Key) {
			return "wildcard"
		}
	}
	return ""
}

// InAPIVersion1 is index_key_validate::isIndexAllowedInAPIVersion1: not
// sparse, and no text or geoHaystack plugin.
func (s Spec) InAPIVersion1() bool {
	plugin := PluginName(s.Key)
	return plugin != "text" && plugin != "geoHaystack" && !s.Sparse
}

// WithoutUnknownFields is removeUnknownFields (index_key_validate.cpp):
// doc with only the fields an index specification may hold, as
// createIndexes reads each spec under ignoreUnknownIndexOptions.
func WithoutUnknownFields(doc bson.D) bson.D {
	out := make(bson.D, 0, len(doc))
	for _, e := range doc {
		if e.Key == "key" || e.Key == "name" || e.Key == "v" || validOptions[e.Key] {
			out = append(out, e)
		}
	}
	return out
}

// ParseSpec validates one element of createIndexes' "indexes" array;
// apiStrict is the command's Stable API strictness.
func ParseSpec(doc bson.D, apiStrict bool) (Spec, error) {
	var s Spec
	var haveKey, haveName bool
	var notBuilt error
	// validateIndexSpecFieldNames runs over the whole spec first.
	for _, e := range doc {
		if e.Key != "key" && e.Key != "name" && e.Key != "v" && !validOptions[e.Key] {
			return s, mongoerr.Newf(mongoerr.InvalidIndexSpecificationOption, "The field '%s' is not valid for an index specification. Specification: %s", e.Key, FormatDoc(doc))
		}
	}
	for _, e := range doc {
		switch e.Key {
		case "key":
			k, ok := e.Value.(bson.D)
			if !ok {
				return s, mongoerr.Newf(mongoerr.TypeMismatch, "The field 'key' must be an object, but got %s", value.TypeName(e.Value))
			}
			s.Key, haveKey = k, true
			s.Fields, s.Wildcard, notBuilt = nil, nil, nil
			if plugin := PluginName(k); apiStrict && (plugin == "text" || plugin == "columnstore") {
				return s, mongoerr.Newf(mongoerr.APIStrictError, "%s indexes cannot be created with apiStrict: true", plugin)
			}
			// validateIndexSpec checks the key pattern where it meets it,
			// before it knows whether a name follows. A plugin the sandbox
			// does not build is a valid pattern to mongod: refused later.
			if err := s.parseKey(); err != nil {
				if me, ok := err.(*mongoerr.Error); !ok || me.Code != mongoerr.NotImplemented {
					return s, err
				}
				notBuilt = err
			} else if err := CompoundAllFieldsProblem(k, doc); err != nil {
				return s, err
			}
		case "name":
			n, ok := e.Value.(string)
			if !ok {
				return s, mongoerr.Newf(mongoerr.TypeMismatch, "The field 'name' must be a string, but got %s", value.TypeName(e.Value))
			}
			s.Name, haveName = n, true
		case "v":
			if !value.IsNumber(e.Value) {
				return s, mongoerr.Newf(mongoerr.TypeMismatch, "The field 'v' must be a number, but got %s", value.TypeName(e.Value))
			}
			n, ok := value.WholeNumber(value.ToDouble(e.Value))
			if !ok || n != int64(int32(n)) {
				return s, mongoerr.Newf(mongoerr.BadValue, "Index version must be representable as a 32-bit integer, but got %s", FormatValue(e.Value))
			}
			if n != 1 && n != 2 {
				return s, mongoerr.Newf(mongoerr.CannotCreateIndex, "Invalid index specification %s; cannot create an index with v=%d", FormatDoc(doc), n)
			}
		default:
			if err := s.addOption(e, doc); err != nil {
				return s, err
			}
		}
	}
	if !haveKey {
		return s, mongoerr.New(mongoerr.FailedToParse, "The 'key' field is a required property of an index specification")
	}
	if !haveName {
		return s, mongoerr.New(mongoerr.FailedToParse, "The 'name' field is a required property of an index specification")
	}
	// The checks validateIndexSpec makes once every field is read.
	if s.Unique && s.PrepareUnique {
		return s, mongoerr.Newf(mongoerr.CannotCreateIndex, "Invalid index specification %s; cannot create an index with the 'unique' option and the 'prepareUnique' option", FormatDoc(doc))
	}
	// IndexCatalogImpl::_isSpecOk (index_catalog_impl.cpp) refuses a NUL
	// byte in the name before an empty one (SERVER-16672).
	if strings.IndexByte(s.Name, 0) >= 0 {
		return s, mongoerr.New(mongoerr.CannotCreateIndex, "index name cannot contain NUL bytes")
	}
	if s.Name == "" {
		return s, mongoerr.New(mongoerr.CannotCreateIndex, "index name cannot be empty")
	}
	if notBuilt != nil {
		// mongod builds it, and refuses a wildcardProjection on any key
		// but a single wildcard field.
		if (len(s.Key) == 1 || !hasWildcardKey(s.Key)) && !value.IsMissing(value.Get(doc, "wildcardProjection")) {
			return s, mongoerr.New(mongoerr.BadValue, "The field 'wildcardProjection' is only allowed in an 'wildcard' index")
		}
		return s, notBuilt
	}
	if err := s.finishWildcard(doc); err != nil {
		return s, err
	}
	if s.Name == IDIndexName && !s.IsIDPattern() && !(len(s.Fields) == 1 && s.Fields[0].Path == "_id" && !s.Fields[0].Desc && !s.Fields[0].Hashed) {
		return s, mongoerr.Newf(mongoerr.BadValue, "The index name '_id_' is reserved for the _id index, which must have key pattern {_id: 1}, found key: %s", FormatDoc(s.Key))
	}
	if s.Sparse && s.Partial != nil {
		return s, mongoerr.New(mongoerr.CannotCreateIndex, "cannot mix \"partialFilterExpression\" and \"sparse\" options")
	}
	return s, nil
}

// ValidateIDIndex is index_key_validate::validateIdIndexSpec, which
// parseAndValidateIndexSpecs runs on a spec whose key is the _id index's
// pattern ({_id: 1} or {_id: -1}), and create on its idIndex: only key,
// name, v, collation and ns may be given (unless it is a clustered
// index's spec), and the key must be {_id: 1}. Such a spec is then the _id
// index itself, which IndexCatalogImpl::_fixIndexSpec names "_id_"
// whatever name it was given (jstests/core/index/index_id_options.js).
func ValidateIDIndex(doc bson.D, s *Spec) error {
	// The spec validateIndexSpec returned: without ns, with a v.
	validated := make(bson.D, 0, len(doc)+1)
	for _, e := range doc {
		if e.Key != "ns" {
			validated = append(validated, e)
		}
	}
	if value.IsMissing(value.Get(doc, "v")) {
		validated = append(validated, bson.E{Key: "v", Value: int32(2)})
	}
	// A clustered spec's fields were checked as a clustered index's.
	if value.IsMissing(value.Get(doc, "clustered")) {
		for _, e := range validated {
			switch e.Key {
			case "key", "name", "v", "collation", "_id":
			default:
				return mongoerr.Newf(mongoerr.InvalidIndexSpecificationOption,
					"The field '%s' is not valid for an _id index specification. Specification: %s", e.Key, FormatDoc(validated))
			}
		}
	}
	if value.Compare(s.Key, bson.D{{Key: "_id", Value: int32(1)}}) != 0 {
		return mongoerr.Newf(mongoerr.BadValue, "The field 'key' for an _id index must be {_id: 1}, but got %s", FormatDoc(s.Key))
	}
	s.Name = IDIndexName
	return nil
}

// ValidateOrdering is the check of building the index's descriptor,
// after every check of its spec: its Ordering keeps one direction bit
// per key field in 32 bits (Ordering::verifyCardinality).
func ValidateOrdering(s Spec) error {
	const maxCompoundIndexKeys = 32
	if len(s.Key) > maxCompoundIndexKeys {
		return mongoerr.New(mongoerr.ErrTooManyCompoundKeys, "too many compound keys")
	}
	return nil
}

func (s *Spec) addOption(e bson.E, doc bson.D) error {
	// validateIndexSpec's type checks: the flags are numbers or booleans,
	// but hidden a boolean alone (its message names the field 'name', as
	// index_key_validate.cpp writes it).
	switch e.Key {
	case "unique", "sparse", "prepareUnique", "background", "dropDups", "clustered":
		if _, isBool := e.Value.(bool); !isBool && !value.IsNumber(e.Value) {
			return mongoerr.Newf(mongoerr.TypeMismatch, "The field '%s has value %s: %s, which is not convertible to bool", e.Key, e.Key, FormatValue(e.Value))
		}
	case "hidden":
		if _, isBool := e.Value.(bool); !isBool {
			return mongoerr.Newf(mongoerr.TypeMismatch, "The field 'name' must be a bool, but got %s", value.TypeName(e.Value))
		}
	}
	switch e.Key {
	case "unique", "sparse", "hidden", "prepareUnique":
		b := expr.IsTrue(e.Value)
		switch e.Key {
		case "unique":
			s.Unique = b
		case "sparse":
			s.Sparse = b
		case "prepareUnique":
			s.PrepareUnique = b
		case "hidden":
			s.Hidden = b
			if !b {
				return nil // mongod drops hidden: false from the stored spec
			}
		}
		s.Options = append(s.Options, bson.E{Key: e.Key, Value: b})
		return nil
	case "background", "dropDups", "ns":
		return nil // accepted and ignored, as mongod 8.0 does
	case "originalSpec":
		// The user's spec of a time-series index, which its buckets index
		// keeps (validateIndexSpec).
		orig, ok := e.Value.(bson.D)
		if !ok {
			return mongoerr.Newf(mongoerr.TypeMismatch, "The field 'originalSpec' must be an object, but got %s", value.TypeName(e.Value))
		}
		if len(orig) == 0 {
			return mongoerr.New(mongoerr.BadValue, "The field 'originalSpec' cannot be an empty object.")
		}
	case "partialFilterExpression":
		p, ok := e.Value.(bson.D)
		if !ok {
			return mongoerr.Newf(mongoerr.TypeMismatch, "The field 'partialFilterExpression' must be an object, but got %s", value.TypeName(e.Value))
		}
		s.Partial = p
	case "clustered":
		// validateIndexSpec: only a clustered collection's own cluster
		// key is clustered, and the catalog finds it there or refuses it
		// (catalog.Collection.clusterKeySpec).
		if e.Value != true {
			return mongoerr.Newf(mongoerr.ErrClusteredFalse, "Value '%s' for field 'clustered' is invalid", FormatValue(e.Value))
		}
		if value.Get(doc, "unique") != true {
			return mongoerr.New(mongoerr.CannotCreateIndex, "The 'unique' field is required when 'clustered' is specified")
		}
	case "collation", "weights", "default_language", "language_override", "textIndexVersion",
		"2dsphereIndexVersion", "bits", "min", "max", "bucketSize",
		"coarsestIndexedLevel", "finestIndexedLevel":
		return mongoerr.Newf(mongoerr.NotImplemented, "index option '%s' is not supported by the schemalab sandbox", e.Key)
	}
	s.Options = append(s.Options, e)
	return nil
}

// ValidateTTL is validateIndexSpecTTL (src/mongo/db/catalog/
// index_key_validate.cpp), which createIndexes runs once the rest of the
// spec doc is valid: expireAfterSeconds is a number of seconds, not NaN,
// from 0 to 2^31-1 (manual: core/index-ttl), on a single-field index.
func ValidateTTL(doc bson.D, s Spec) error {
	v := value.Get(doc, "expireAfterSeconds")
	if value.IsMissing(v) {
		return nil
	}
	// The BSONElement form of validateExpireAfterSeconds refuses NaN and
	// a value safeNumberInt would clamp before it checks the seconds.
	reason := ExpireAfterSecondsProblem(v)
	if value.IsNumber(v) {
		if math.IsNaN(value.ToDouble(v)) {
			reason = "TTL index 'expireAfterSeconds' option must not be NaN"
		} else if n := safeNumberLong(v); n != int64(int32(n)) {
			reason = "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer"
		}
	}
	if reason != "" {
		return mongoerr.Newf(mongoerr.CannotCreateIndex, ". Index spec: %s :: caused by :: %s", FormatDoc(doc), reason)
	}
	if len(s.Key) != 1 {
		return mongoerr.Newf(mongoerr.CannotCreateIndex,
			"TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: %s", FormatDoc(doc))
	}
	return nil
}

// ExpireAfterSecondsProblem is validateExpireAfterSeconds: why v cannot be
// a TTL, or "" when it can.
func ExpireAfterSecondsProblem(v any) string {
	if !value.IsNumber(v) {
		return fmt.Sprintf("TTL index 'expireAfterSeconds' option must be numeric, but received a type of '%s'", value.TypeName(v))
	}
	if n := safeNumberLong(v); n < 0 {
		return "TTL index 'expireAfterSeconds' option cannot be less than 0"
	} else if n > math.MaxInt32 {
		return "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number"
	}
	return ""
}

// safeNumberLong is BSONElement::safeNumberLong: NaN is 0, numbers
// beyond the int64 range saturate, others truncate toward zero.
func safeNumberLong(v any) int64 {
	f := value.ToDouble(v)
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	switch n := v.(type) {
	case int32:
		return int64(n)
	case int64:
		return n
	}
	return int64(f)
}

// checkKeyFieldName is validateKeyPattern's check of a key's field name
// (index_key_validate.cpp), read as a FieldRef: not empty, no empty part,
// and no part starting with '$' but a DBRef's $id, $ref or $db after the
// first.
func checkKeyFieldName(name string) error {
	if name == "" {
		return mongoerr.New(mongoerr.CannotCreateIndex, "Index keys cannot be an empty field.")
	}
	for i, part := range strings.Split(name, ".") {
		if part == "" {
			return mongoerr.New(mongoerr.CannotCreateIndex, "Index keys cannot contain an empty field.")
		}
		if part[0] == '$' && (i == 0 || part != "$id" && part != "$ref" && part != "$db") {
			return mongoerr.New(mongoerr.CannotCreateIndex, "Index key contains an illegal field name: field name starts with '$'.")
		}
	}
	return nil
}

func (s *Spec) parseKey() error {
	// validateIndexSpec refuses a field named twice before it validates
	// the pattern (index_key_validate.cpp).
	for i, e := range s.Key {
		for _, prev := range s.Key[:i] {
			if prev.Key == e.Key {
				return mongoerr.Newf(mongoerr.BadValue, "The field '%s' appears multiple times in the index key pattern %s", e.Key, FormatDoc(s.Key))
			}
		}
	}
	if len(s.Key) == 0 {
		return mongoerr.New(mongoerr.CannotCreateIndex, "Index keys cannot be empty.")
	}
	if PluginName(s.Key) == "geoHaystack" {
		return mongoerr.New(mongoerr.CannotCreateIndex, "GeoHaystack indexes cannot be created in version 5.0 and above")
	}
	if hasWildcardKey(s.Key) {
		for _, e := range s.Key {
			if str, ok := e.Value.(string); ok && isWildcardKey(e.Key) && !knownPlugins[str] {
				return mongoerr.Newf(mongoerr.CannotCreateIndex, "Unknown index plugin '%s'", str)
			}
		}
		if err := checkWildcardPlugins(s.Key); err != nil {
			return err
		}
		return s.parseWildcardKey()
	}
	if err := checkOnePlugin(s.Key); err != nil {
		return err
	}
	emptyString := false
	for _, e := range s.Key {
		if err := checkKeyFieldName(e.Key); err != nil {
			return err
		}
		switch v := e.Value.(type) {
		case string:
			if v == hashedPlugin {
				s.Fields = append(s.Fields, Field{Path: e.Key, Hashed: true})
				continue
			}
			// An empty string names no plugin (findPluginName's btree),
			// refused once the whole pattern is otherwise valid.
			if v == "" {
				emptyString = true
				continue
			}
			if unsupportedPlugins[v] {
				return mongoerr.Newf(mongoerr.NotImplemented, "%s indexes are not supported by the schemalab sandbox", v)
			}
			return mongoerr.Newf(mongoerr.CannotCreateIndex, "Unknown index plugin '%s'", v)
		default:
			desc, err := numericKeyValue(v)
			if err != nil {
				return err
			}
			s.Fields = append(s.Fields, Field{Path: e.Key, Desc: desc})
		}
	}
	if emptyString {
		return mongoerr.New(mongoerr.CannotCreateIndex, "Values in the index key pattern cannot be empty strings")
	}
	return nil
}

// numericKeyValue is validateKeyPattern's check of a key pattern value
// that names no plugin, at index version 2 (index_key_validate.cpp): a
// number, neither NaN nor 0; it reports whether the direction is
// descending.
func numericKeyValue(v any) (bool, error) {
	if !value.IsNumber(v) {
		return false, mongoerr.Newf(mongoerr.CannotCreateIndex,
			"Values in v:2 index key pattern cannot be of type %s. Only numbers > 0, numbers < 0, and strings are allowed.", value.TypeName(v))
	}
	f := value.ToDouble(v)
	if math.IsNaN(f) {
		return false, mongoerr.New(mongoerr.CannotCreateIndex, "Values in the index key pattern cannot be NaN.")
	}
	if f == 0 {
		return false, mongoerr.New(mongoerr.CannotCreateIndex, "Values in the index key pattern cannot be 0.")
	}
	return f < 0, nil
}

// DefaultName is the name mongod gives an index when none is given:
// {a: 1, "b.c": -1} → "a_1_b.c_-1".
func DefaultName(key bson.D) string {
	var b strings.Builder
	for i, e := range key {
		if i > 0 {
			b.WriteByte('_')
		}
		b.WriteString(e.Key)
		b.WriteByte('_')
		switch v := e.Value.(type) {
		case string:
			b.WriteString(v)
		case float64:
			b.WriteString(strings.TrimSuffix(value.FormatDouble(v), ".0"))
		default:
			b.WriteString(FormatValue(v))
		}
	}
	return b.String()
}

// Comparison says how a requested spec relates to an existing one, as
// mongod's IndexDescriptor::compareIndexOptions does.
type Comparison int

const (
	// Different: the key or an identifying option (unique, sparse,
	// partialFilterExpression) differs.
	Different Comparison = iota
	// Equivalent: same key and identifying options, other options differ.
	Equivalent
	// Identical: nothing differs.
	Identical
)

// Compare compares a requested spec with an existing one (names aside).
func (s Spec) Compare(existing Spec) Comparison {
	if !sameKey(s.Key, existing.Key) || s.isUnique() != existing.isUnique() || s.Sparse != existing.Sparse ||
		!s.Wildcard.sameProjection(existing.Wildcard) ||
		value.Compare(s.Partial, existing.Partial) != 0 || (s.Partial == nil) != (existing.Partial == nil) {
		return Different
	}
	if s.Hidden != existing.Hidden || s.PrepareUnique != existing.PrepareUnique || value.Compare(value.Get(s.Options, "expireAfterSeconds"), value.Get(existing.Options, "expireAfterSeconds")) != 0 {
		return Equivalent
	}
	return Identical
}

// isUnique is the uniqueness mongod's IndexDescriptor gives a spec:
// "_unique(_isIdIndex || infoObj[kUniqueFieldName].trueValue())"
// (index_descriptor.cpp), so an index on {_id: 1} or {_id: -1} under any
// name is unique and a request for {_id: 1} named "_id_1" is identical to
// the _id index ("Index already exists with a different name: _id_").
func (s Spec) isUnique() bool {
	return s.Unique || s.IsIDPattern()
}

// IsIDPattern is IndexDescriptor::isIdIndexPattern: the key is exactly
// {_id: 1} or {_id: -1}.
func (s Spec) IsIDPattern() bool {
	if len(s.Key) != 1 || s.Key[0].Key != "_id" {
		return false
	}
	// isIdIndexPattern reads the direction with numberInt(), which truncates.
	n := int64(value.ToDouble(s.Key[0].Value))
	return value.IsNumber(s.Key[0].Value) && (n == 1 || n == -1)
}

// SameKey reports whether two key patterns are the same pattern (1 and
// 1.0 are the same direction).
func SameKey(a, b bson.D) bool { return sameKey(a, b) }

func sameKey(a, b bson.D) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || value.Compare(a[i].Value, b[i].Value) != 0 {
			return false
		}
	}
	return true
}
