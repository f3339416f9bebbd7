package planner

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// tightness is mongod's IndexBoundsBuilder::BoundsTightness: how much of
// a predicate the index bounds built from it answer.
//   - exact: the bounds decide the predicate; nothing is left to check.
//   - inexactCovered: the bounds are wider, but the predicate can be
//     tested on the index key itself (an unanchored regex, $mod), so the
//     IXSCAN filters keys before any document is fetched.
//   - inexactFetch: only the document can decide (arrays, $elemMatch,
//     $exists on a non-sparse index), so FETCH filters.
//   - exactMaybeCovered: a null equality, whose point [null, null] holds
//     null and missing alike: exact when nothing downstream reads the
//     field's value, else only the document can decide (resolved per
//     query by resolveMaybeCovered). inexactMaybeCovered is such a null
//     in an $in with a regex, which is tested on the key when covered.
//
// The values are ordered loosest first, as mongod's enum is.
type tightness int

const (
	inexactFetch tightness = iota
	inexactMaybeCovered
	exactMaybeCovered
	inexactCovered
	exact
)

// mergeTightness is IndexBoundsBuilder::_mergeTightness: the looser of
// two, except that a maybe-covered null with a regex tested on the key is
// inexactMaybeCovered.
func mergeTightness(a, b tightness) tightness {
	if a == exactMaybeCovered && b == inexactCovered || a == inexactCovered && b == exactMaybeCovered {
		return inexactMaybeCovered
	}
	return min(a, b)
}

// resolveMaybeCovered is refineTightnessForMaybeCoveredQuery
// (planner_access.cpp): once the query says whether its projection needs
// the document, a maybe-covered tightness becomes exact or inexactCovered
// if it does not, inexactFetch if it does.
func resolveMaybeCovered(t tightness, projNeedsFetch bool) tightness {
	switch {
	case t != exactMaybeCovered && t != inexactMaybeCovered:
		return t
	case projNeedsFetch:
		return inexactFetch
	case t == exactMaybeCovered:
		return exact
	}
	return inexactCovered
}

// nullTightness is updateTightnessForNullQuery (index_bounds_builder.cpp):
// the null point holds the documents whose field is null or missing, and
// on a multikey index also those with null in an array, all of which
// {path: null} matches; so the bounds are exact unless the document must
// tell null from missing (exactMaybeCovered). A sparse or hashed index
// leaves documents out or hashes the values, and on a multikey index a
// dotted path gets a null key from {a: [1, 2]}, which {"a.b": null} does
// not match: then FETCH decides.
func nullTightness(path string, ix *index.Index) tightness {
	if ix.Spec.Sparse || ix.Spec.IsHashed() || ix.IsMultiKey() && strings.Contains(path, ".") {
		return inexactFetch
	}
	return exactMaybeCovered
}

// predicateTightness follows IndexBoundsBuilder::translate for the
// predicates this planner builds bounds for.
func predicateTightness(n query.Node, ix *index.Index) tightness {
	switch x := n.(type) {
	case *query.Compare:
		if x.Value == nil && (x.Op == "$eq" || x.Op == "$gte" || x.Op == "$lte") {
			return nullTightness(x.Path, ix)
		}
		return compareTightness(x, ix.IsMultiKey())
	case *query.In:
		// Each member is translated as its equality and the tightnesses
		// merged (translate's MATCH_IN).
		t := exact
		for _, v := range x.Values {
			switch {
			case v == nil:
				t = mergeTightness(nullTightness(x.Path, ix), t)
			case !exactValue(v) && !isObject(v):
				return inexactFetch
			}
		}
		for _, re := range x.Regexes {
			t = mergeTightness(regexTightness(re), t)
		}
		return t
	case *query.Regex:
		return regexTightness(x.Regex)
	case *query.Mod:
		return inexactCovered
	case *query.InternalExpr:
		return internalExprTightness(x)
	case *query.Type:
		return typeTightness(x)
	case *query.Not:
		return notTightness(x, ix)
	case *query.Exists:
		// A sparse single-field index holds exactly the documents that
		// have the field; any other index stores a missing field as null.
		if x.Exists && ix.Spec.Sparse && len(ix.Spec.Fields) == 1 {
			return exact
		}
		return inexactFetch
	}
	return inexactFetch
}

// compareTightness follows translate's comparisons
// (index_bounds_builder.cpp): an equality is exact but for null and an
// array operand; an inequality is exact when its bounds are empty, when
// it is $lt MaxKey or $gt MinKey on an index that is not multikey, and
// otherwise when its operand is of a type that generates exact bounds
// (Indexability::isExactBoundsGenerating: not null, undefined, an array,
// a symbol, a regex or a DBPointer).
func compareTightness(x *query.Compare, multikey bool) tightness {
	switch v := x.Value.(type) {
	case nil, bson.A:
		if b, _ := compareBounds(x.Op, v, multikey); len(b) == 0 {
			return exact
		}
		return inexactFetch
	case bson.MinKey, bson.MaxKey:
		if multikey && (x.Op == "$lt" && isMaxKey(v) || x.Op == "$gt" && isMinKey(v)) {
			return inexactFetch
		}
		return exact
	case bson.D:
		return exact
	case bson.Symbol, bson.DBPointer:
		return inexactFetch
	}
	if exactValue(x.Value) {
		return exact
	}
	return inexactFetch
}

// notTightness follows translate's NOT: {$exists: false} needs the
// document (null and missing share their keys); the complement of exact
// bounds is exact, as is that of the null point (the bounds of $ne null
// leave out both null and missing); on a path that held an array FETCH
// decides ({$ne: 3} must not match [1, 2, 3], whose keys 1 and 2 are in
// the bounds).
func notTightness(x *query.Not, ix *index.Index) tightness {
	if _, ok := x.Child.(*query.Exists); ok {
		return inexactFetch
	}
	for i, f := range ix.Spec.Fields {
		if f.Path == x.Path && ix.FieldIsMultiKey(i) {
			return inexactFetch
		}
	}
	if negatesNull(x) || predicateTightness(x.Child, ix) == exact {
		return exact
	}
	return inexactFetch
}

// isObject reports an embedded document, whose equality (and $in)
// translateEquality gives EXACT point bounds: an index key holds the whole
// document, or each array element that could equal it.
func isObject(v any) bool {
	_, ok := v.(bson.D)
	return ok
}

// regexTightness: a pattern that is nothing but an anchored literal
// prefix is decided by its range; any other is tested on the key
// (simpleRegex's INEXACT_COVERED).
func regexTightness(re bson.Regex) tightness {
	if pre, whole, ok := regexPrefix(re); ok && whole && pre != "" {
		return exact
	}
	return inexactCovered
}

// modBounds are the bounds of $mod: every number, NaN first, as
// appendMinForType/appendMaxForType(NumberDouble) give them.
func modBounds() oil {
	return oil{{lo: math.NaN(), hi: math.Inf(1), loInc: true, hiInc: true}}
}

// existsBounds: $exists: true scans every key; $exists: false the null
// keys, where a missing field is stored.
func existsBounds(exists bool) oil {
	if exists {
		return oil{fullInterval()}
	}
	return oil{point(nil)}
}

// rehydrate builds the document an index key stands for, fields nested
// along their dotted paths in key-pattern order, as mongod's
// rehydrateIndexKey does for covered plans and key filters. A missing
// field comes back as null: the index cannot tell them apart.
func rehydrate(fields []index.Field, key []any) bson.D {
	var out bson.D
	for i, f := range fields {
		out = value.SetPath(out, strings.Split(f.Path, "."), key[i])
	}
	return out
}

// typeTightness is computeTightnessForTypeSet (index_bounds_builder.cpp):
// "array" scans the whole index for FETCH to decide; null and undefined
// share their keys with a missing field and []; a bracket that holds
// other types than asked (some number types but not all, string without
// symbol or symbol without string) is tested on the key.
func typeTightness(x *query.Type) tightness {
	has := func(t int) bool { return slices.Contains(x.Types, t) }
	if has(4) || has(10) || has(6) {
		return inexactFetch
	}
	numbers := 0
	for _, t := range []int{1, 16, 18, 19} {
		if has(t) {
			numbers++
		}
	}
	if numbers > 0 && numbers < 4 && !x.Number {
		return inexactCovered
	}
	if has(2) != has(14) {
		return inexactCovered
	}
	return exact
}

// internalExprTightness: the bounds of an $expr comparison decide it
// for a scalar operand (the index is not multikey on the path, or the
// comparison would not use it); null and missing share their keys, so
// $_internalExprLt null needs the document to drop literal nulls, while
// $_internalExprLte and $_internalExprGt null are exact
// (index_bounds_builder.cpp); documents and arrays need the document.
func internalExprTightness(x *query.InternalExpr) tightness {
	switch x.Value.(type) {
	case nil:
		if x.Op == "$_internalExprLte" || x.Op == "$_internalExprGt" {
			return exact
		}
		return inexactFetch
	case bson.D, bson.A, bson.MinKey, bson.MaxKey, bson.Undefined:
		return inexactFetch
	}
	return exact
}
