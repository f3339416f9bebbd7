package query

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// InternalEqHash is mongod's $_internalEqHash (InternalEqHashedKey,
// src/mongo/db/matcher/expression_internal_eq_hashed_key.h): the value at
// Path hashes, as a hashed index hashes it, to Hash. Users do not write
// it; an $expr comparing $toHashedIndexKey of a field with a long
// becomes one (eqHashRewrite), so that a hashed index can look the hash
// up.
type InternalEqHash struct {
	Path string
	Hash int64

	parts []string
}

// newInternalEqHash is MatchExpressionParser's INTERNAL_EQ_HASHED_KEY
// case. The argument is the hash itself, a long: every other type is
// BadValue (jstests/core/query/internal_hash_eq/match_internal_eq_hash.js
// refuses doubles, 0.0 and NaN included, strings, documents, arrays,
// null, binData, ObjectId, booleans, dates, regexes, code, MinKey and
// MaxKey with code 2). 8.0's wording of the refusal is not in the
// sources at hand; the text below is the sandbox's own.
func newInternalEqHash(path string, v any) (Node, error) {
	h, ok := v.(int64)
	if !ok {
		return nil, badValue("$_internalEqHash expects a NumberLong argument, not " + value.TypeName(v))
	}
	return &InternalEqHash{Path: path, Hash: h, parts: splitPath(path)}, nil
}

// Matches implements Node, as mongod matches InternalEqHashedKey (read in
// src/mongo/db/exec/matcher/matcher.cpp, MatchExpressionEvaluator, where
// newer sources moved the node's own matching): a path
// extractElementAtPath cannot reach is matched as a null, the key a
// hashed index stores for a missing field; otherwise the value the path
// leads to is hashed whole. The path is followed through documents;
// a leaf array is not traversed (LeafArrayBehavior::kNoTraversal) and an
// array met before the leaf ends the walk, the array being the value
// hashed (NonLeafArrayBehavior::kMatchSubpath, element_path.h).
func (x *InternalEqHash) Matches(doc bson.D, _ *Position) bool {
	if value.IsMissing(extractElementAtPath(doc, x.Path)) {
		return x.Hash == value.HashedIndexKey(nil)
	}
	var cur any = doc
	for _, p := range pathParts(x.parts, x.Path) {
		d, ok := cur.(bson.D)
		if !ok {
			if _, isArray := cur.(bson.A); !isArray {
				cur = value.Missing{}
			}
			break
		}
		cur = value.Get(d, p)
	}
	return x.matchValue(cur, nil)
}

// matchValue is matchesSingleElement: BSONElementHasher::hash64 of the
// element. An element the walk did not find (EOO) hashes as its
// canonical type 0 with no value, as undefined does (src/mongo/db/
// hasher.cpp); $elemMatch hands it each array element.
func (x *InternalEqHash) matchValue(v any, _ *Position) bool {
	if value.IsMissing(v) {
		v = bson.Undefined{}
	}
	return value.HashedIndexKey(v) == x.Hash
}

// extractElementAtPath is dotted_path_support's (dotted_path_support.cpp):
// a field named by the whole rest of the path first (a document may hold
// a field literally named "a.b"), else the first component, which must be
// a non-empty document or array (an array read as the document of its
// positions), and the rest within it.
func extractElementAtPath(d bson.D, path string) any {
	if v := value.Get(d, path); !value.IsMissing(v) {
		return v
	}
	first, rest, dotted := strings.Cut(path, ".")
	if !dotted {
		return value.Missing{}
	}
	var sub bson.D
	switch x := value.Get(d, first).(type) {
	case bson.D:
		sub = x
	case bson.A:
		sub = value.ArrayAsDoc(x)
	}
	if len(sub) == 0 {
		return value.Missing{}
	}
	return extractElementAtPath(sub, rest)
}

// eqHashRewrite is attemptToRewriteEqHash (src/mongo/db/matcher/
// expression_expr.cpp), which ExprMatchExpression's optimizer tries
// before RewriteExpr: an $expr that is, once optimized, an $eq of
// $toHashedIndexKey of a document field path (not a variable, not $$ROOT
// itself) with a constant long, in that order, becomes $_internalEqHash
// on that path. The $expr is replaced, not kept beside it.
// $toHashedIndexKey takes one operand, so {$toHashedIndexKey: ["$a"]}
// hashes an array and is not rewritten; spec is read as written for that
// operand, and through its serialization (constants folded) for the
// other.
func eqHashRewrite(spec any) Node {
	d, ok := spec.(bson.D)
	if !ok || len(d) != 1 || d[0].Key != "$eq" {
		return nil
	}
	args, ok := d[0].Value.(bson.A)
	if !ok || len(args) != 2 {
		return nil
	}
	h, ok := args[0].(bson.D)
	if !ok || len(h) != 1 || h[0].Key != "$toHashedIndexKey" {
		return nil
	}
	operand, ok := h[0].Value.(string)
	if !ok {
		return nil
	}
	path, ok := CurrentPath(operand)
	if !ok {
		return nil
	}
	v, ok := constantExpr(args[1])
	if !ok {
		return nil
	}
	hash, ok := v.(int64)
	if !ok {
		return nil
	}
	return &InternalEqHash{Path: path, Hash: hash, parts: splitPath(path)}
}
