package index

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// hashedPlugin is IndexNames::HASHED, the key pattern value of the one
// hashed field of a (possibly compound) hashed index.
const hashedPlugin = "hashed"

// checkOnePlugin is validateKeyPattern's plugin rule (src/mongo/db/
// catalog/index_key_validate.cpp): the first string value of a key
// pattern names its plugin, which must be known, and no other field may
// name a different one ({a: "hashed", b: "2d"} is refused, index_plugins.js).
func checkOnePlugin(key bson.D) error {
	plugin, named := "", false
	for _, e := range key {
		str, ok := e.Value.(string)
		if !ok {
			continue
		}
		if !named {
			// An empty string names the btree plugin.
			if str != "" && !knownPlugins[str] {
				return mongoerr.Newf(mongoerr.CannotCreateIndex, "Unknown index plugin '%s'", str)
			}
			plugin, named = str, true
			continue
		}
		if str != plugin {
			return mongoerr.New(mongoerr.CannotCreateIndex, "Can't use more than one index plugin for a single index.")
		}
	}
	return nil
}

// checkWildcardPlugins is the same rule for a key pattern with a "$**"
// field, whose plugin is "wildcard" (or the string it names, as "text"):
// another field naming a different plugin ({"$**": 1, b: "hashed"}) is
// refused (index_plugins.js).
func checkWildcardPlugins(key bson.D) error {
	plugin := "wildcard"
	for _, e := range key {
		if str, ok := e.Value.(string); ok && isWildcardKey(e.Key) {
			plugin = str
		}
	}
	for _, e := range key {
		if str, ok := e.Value.(string); ok && !isWildcardKey(e.Key) && str != plugin {
			return mongoerr.New(mongoerr.CannotCreateIndex, "Can't use more than one index plugin for a single index.")
		}
	}
	return nil
}

// IsHashed reports whether the spec is a hashed index.
func (s Spec) IsHashed() bool {
	for _, f := range s.Fields {
		if f.Hashed {
			return true
		}
	}
	return false
}

// ValidateHashed is what HashAccessMethod's constructor refuses once the
// spec is otherwise valid, reported bare as the build fails (src/mongo/db/index/hash_access_method.cpp,
// ExpressionParams::parseHashParams in expression_params.cpp): a unique
// hashed index (16764), then more than one hashed field (31303).
func ValidateHashed(s Spec) error {
	n := 0
	for _, f := range s.Fields {
		if f.Hashed {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if s.Unique {
		return mongoerr.New(mongoerr.ErrHashedUnique, "Currently hashed indexes cannot guarantee uniqueness. Use a regular index.")
	}
	if n > 1 {
		return mongoerr.Newf(mongoerr.ErrHashedFieldCount, "A maximum of one index field is allowed to be hashed but found %d for 'key' %s", n, FormatDoc(s.Key))
	}
	return nil
}

// hashedKeys is ExpressionKeysPrivate::getHashKeys (src/mongo/db/index/
// expression_keys_private.cpp): one key per document, each field's value
// found without traversing arrays, an array anywhere along any indexed
// path refused with 16766, a missing field keyed as null, and the hashed
// field's value replaced by its hash. A sparse index skips a document
// with none of the fields.
func (ix *Index) hashedKeys(list [][]any, doc bson.D) (KeySet, error) {
	key := make([]any, len(ix.parts))
	found := false
	for i, parts := range ix.parts {
		v, err := hashedPathValue(doc, parts)
		if err != nil {
			return KeySet{}, err
		}
		if value.IsMissing(v) {
			v = nil
		} else {
			found = true
		}
		if ix.Spec.Fields[i].Hashed {
			v = value.HashedIndexKey(v)
		}
		key[i] = v
	}
	if ix.Spec.Sparse && !found {
		return KeySet{}, nil
	}
	return KeySet{Keys: append(list[:0], key)}, nil
}

// hashedPathValue is dps::extractElementAtPathOrArrayAlongPath with
// getHashKeys' refusal of the array it stops at: the error names the
// path up to and including the array.
func hashedPathValue(doc bson.D, parts []string) (any, error) {
	v, arrayAt := pathValueBeforeArray(doc, parts)
	if arrayAt >= 0 {
		return nil, mongoerr.Newf(mongoerr.ErrHashedArray,
			"Error: hashed indexes do not currently support array values. Found array at path: %s", strings.Join(parts[:arrayAt+1], "."))
	}
	return v, nil
}

// pathValueBeforeArray walks doc along parts: the value there (Missing
// when the path ends early), or the position of the first part that holds
// an array, -1 when none does.
func pathValueBeforeArray(doc bson.D, parts []string) (any, int) {
	var cur any = doc
	for i, p := range parts {
		d, ok := cur.(bson.D)
		if !ok {
			return value.Missing{}, -1
		}
		cur = value.Get(d, p)
		if _, isArr := cur.(bson.A); isArr {
			return nil, i
		}
	}
	return cur, -1
}
