package planner

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A wildcard index is planned as mongod 8.0 plans it
// (src/mongo/db/query/planner_wildcard_helpers.cpp, planner_ixselect.cpp):
// the index is expanded into one view per queried path it indexes, its
// wildcard field replaced by {$_path: 1, path: 1}, each a sparse index
// whose "$_path" bounds are the path (and, when the value bounds reach
// into objects, every subpath of it). A compound wildcard index keeps its
// regular fields around the pair, and has one more view, "$_path", for
// queries on its regular fields before the wildcard.

// wildcardCandidates are the candidate plans of wildcard index ix for the
// predicates preds: one per path with a predicate the index can answer,
// in path order (expandWildcardIndexEntry walks a sorted set), then the
// regular-prefix view of a compound wildcard index. Like any compound
// index, a view is a candidate only when its first field has a predicate,
// unless hinted.
//
// nodes are the conjuncts the predicates came from: {$ne: null} among
// them, which no other index here answers, is the one negation a
// wildcard index (always sparse) can use, on a path that held no array
// (notEqualsNullCanUseIndex).
func wildcardCandidates(ix *index.Index, preds map[string][]indexedPred, nodes []query.Node, sortSpec bson.D, hinted bool) []*candidate {
	pos := ix.Wildcard().Pos()
	neNull := map[string]query.Node{}
	for _, n := range nodes {
		if isNotEqualNull(n) {
			neNull[n.(*query.Not).Path] = n
		}
	}
	paths := make([]string, 0, len(preds)+len(neNull))
	for p := range preds {
		paths = append(paths, p)
	}
	for p := range neNull {
		if _, dup := preds[p]; !dup {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []*candidate
	for _, path := range paths {
		if path == index.WildcardPathField || !ix.Wildcard().Indexes(path) {
			continue
		}
		exp, comps, ok := ix.Expand(path)
		if !ok {
			continue
		}
		var usable []indexedPred
		for _, p := range preds[path] {
			if wildcardCompatible(p.node, exp) {
				usable = append(usable, p)
			}
		}
		ne := neNull[path]
		if ne != nil && exp.IsMultiKey() {
			ne = nil
		}
		if len(usable) == 0 && ne == nil {
			continue
		}
		viewPreds := regularPreds(exp, preds)
		viewPreds[path] = usable
		if !hinted && pos > 0 && len(viewPreds[exp.Spec.Fields[0].Path]) == 0 {
			continue
		}
		c := indexCandidate(exp, viewPreds, nil, true)
		if ne != nil {
			// [MinKey, undefined) and (null, MaxKey], which finish widens
			// (they reach into objects) to every value of every subpath.
			neBounds := oil{{lo: bson.MinKey{}, hi: bson.Undefined{}, loInc: true}, {lo: nil, hi: bson.MaxKey{}, hiInc: true}}
			if len(usable) == 0 {
				c.bounds[pos+1] = neBounds
			} else {
				c.bounds[pos+1] = intersect(c.bounds[pos+1], neBounds)
			}
			c.used = append(c.used, usedPredicate{node: ne, field: pos + 1, tight: inexactFetch})
		}
		finishWildcardCandidate(c, path, comps)
		out = append(out, sortedCandidate(c, sortSpec))
	}
	if c := regularPrefixCandidate(ix, preds, hinted); c != nil {
		out = append(out, sortedCandidate(c, sortSpec))
	}
	return out
}

// regularPrefixCandidate is the "$_path" view of a compound wildcard
// index, for predicates on its regular fields before the wildcard: the
// wildcard part is scanned whole, "$_path" over [MinKey, MinKey] (a
// document with no wildcard leaf) and every path, deduplicating the
// several keys of one document (finalizeWildcardIndexScanConfiguration).
func regularPrefixCandidate(ix *index.Index, preds map[string][]indexedPred, hinted bool) *candidate {
	pos := ix.Wildcard().Pos()
	if pos == 0 || !slices.ContainsFunc(ix.Spec.Fields[:pos], func(f index.Field) bool { return len(preds[f.Path]) > 0 }) {
		return nil
	}
	exp, _, _ := ix.Expand(index.WildcardPathField)
	viewPreds := regularPreds(exp, preds)
	if !hinted && len(viewPreds[exp.Spec.Fields[0].Path]) == 0 {
		return nil
	}
	c := indexCandidate(exp, viewPreds, nil, true)
	c.bounds[pos] = oil{point(bson.MinKey{}), {lo: "", hi: bson.D{}, loInc: true}}
	c.bounds[pos+1] = oil{fullInterval()}
	c.wildcardSubpaths = true
	return c
}

// regularPreds are the predicates on a compound wildcard view's regular
// fields that it can answer: the view is sparse, so none that a missing
// field matches (nodeIsSupportedBySparseIndex).
func regularPreds(exp *index.Index, preds map[string][]indexedPred) map[string][]indexedPred {
	pos := exp.Wildcard().Pos()
	out := map[string][]indexedPred{}
	for i, f := range exp.Spec.Fields {
		if i == pos || i == pos+1 {
			continue
		}
		for _, p := range preds[f.Path] {
			if sparseCompatible(p.node) {
				out[f.Path] = append(out[f.Path], p)
			}
		}
	}
	return out
}

// sparseCompatible: a predicate a document missing the field cannot
// match.
func sparseCompatible(n query.Node) bool {
	switch x := n.(type) {
	case *query.Compare:
		return x.Value != nil || x.Op != "$eq" && x.Op != "$lte" && x.Op != "$gte"
	case *query.In:
		return !slices.Contains(x.Values, nil)
	case *query.Exists:
		return x.Exists
	case *query.Not:
		return false
	}
	return true
}

// sortedCandidate records whether candidate c's scan yields sortSpec's
// order.
func sortedCandidate(c *candidate, sortSpec bson.D) *candidate {
	if len(sortSpec) > 0 {
		c.sorted, c.dir = providesSort(c.ix, c.bounds, nil, sortSpec)
		if !c.sorted {
			c.dir = 1
		}
	}
	return c
}

// wildcardCompatible is _compatible for a wildcard view: the index is
// sparse (no equality to null, no negation, no {$exists: false}), and
// holds no whole objects or arrays, so a comparison with one can use it
// only for {} ($eq and $lte) and [] ($eq) (nodeIsSupportedByWildcardIndex,
// nodeIsSupportedBySparseIndex).
func wildcardCompatible(n query.Node, exp *index.Index) bool {
	switch x := n.(type) {
	case *query.Compare:
		if x.Op == "$eq" && x.Value == nil {
			return false
		}
		return wildcardComparable(x.Value, x.Op)
	case *query.In:
		for _, v := range x.Values {
			if v == nil || !wildcardComparable(v, "$eq") {
				return false
			}
		}
		return true
	case *query.Exists:
		return x.Exists
	case *query.ElemMatchValue:
		for _, p := range x.Predicates {
			if !wildcardCompatible(p, exp) {
				return false
			}
		}
		return true
	case *query.All:
		return len(x.Members) > 0 && wildcardCompatible(x.Members[0], exp)
	case *query.InternalExpr:
		return !exp.FieldIsMultiKey(1)
	case *query.InternalEqHash:
		// A wildcard index holds values, not their hashes.
		return false
	case *query.Not:
		// {$ne: null}, the one negation a wildcard index answers, is
		// planned apart (wildcardCandidates).
		return false
	}
	return true
}

// isNotEqualNull is isQueryNegatingEqualToNull: {$ne: null} or
// {$not: {$eq: null}}.
func isNotEqualNull(n query.Node) bool {
	not, ok := n.(*query.Not)
	if !ok {
		return false
	}
	c, ok := not.Child.(*query.Compare)
	return ok && c.Op == "$eq" && c.Value == nil
}

// wildcardComparable is canUseWildcardIndex.
func wildcardComparable(v any, op string) bool {
	switch x := v.(type) {
	case bson.D:
		return len(x) == 0 && (op == "$eq" || op == "$lte")
	case bson.A:
		return len(x) == 0 && op == "$eq"
	}
	return true
}

// finishWildcardCandidate is translateWildcardIndexBoundsAndTightness and
// finalizeWildcardIndexScanConfiguration: value bounds that reach into
// objects (other than {}) widen to [MinKey, MaxKey] and need FETCH, since
// an object is indexed by its leaves under longer paths; such bounds, or
// a path with no value bounds, scan the subpaths ["path.", "path/") too;
// a path that may step through an array index scans every reading of it
// and needs FETCH.
func finishWildcardCandidate(c *candidate, path string, comps []int) {
	parts := strings.Split(path, ".")
	pos := c.ix.Wildcard().Pos()
	have := slices.ContainsFunc(c.used, func(u usedPredicate) bool { return u.field == pos+1 })
	vals := c.bounds[pos+1]
	overlaps := overlapsObjectBracket(vals)
	if overlaps && !vals.isFull() {
		c.bounds[pos+1] = oil{fullInterval()}
		c.setPathTightness(pos+1, inexactFetch)
	}
	for i, u := range c.used {
		// The view is a sparse index of the path: it holds exactly the
		// documents that have it (translate's EXISTS).
		if ex, ok := u.node.(*query.Exists); ok && ex.Exists && u.field == pos+1 {
			c.used[i].tight = exact
		}
	}
	arrayIdx := index.ArrayIndexComponents(comps, parts)
	if len(arrayIdx) > 0 {
		c.setPathTightness(pos+1, inexactFetch)
	}
	subpaths := !have || overlaps
	var pathBounds oil
	for _, p := range pathReadings(parts, arrayIdx, subpaths) {
		pathBounds = append(pathBounds, point(p))
		if subpaths {
			pathBounds = append(pathBounds, interval{lo: p + ".", hi: p + "/", loInc: true})
		}
	}
	c.bounds[pos] = normalize(pathBounds)
	c.wildcardSubpaths = subpaths
}

// setPathTightness lowers to t the tightness of the predicates bounding
// key field i.
func (c *candidate) setPathTightness(i int, t tightness) {
	for j := range c.used {
		if c.used[j].field == i {
			c.used[j].tight = min(c.used[j].tight, t)
		}
	}
}

// overlapsObjectBracket is boundsOverlapObjectTypeBracket: some interval
// meets the open range ({}, []), the non-empty objects.
func overlapsObjectBracket(o oil) bool {
	for _, iv := range o {
		if value.Compare(iv.hi, bson.D{}) > 0 && value.Compare(iv.lo, bson.A{}) < 0 {
			return true
		}
	}
	return false
}

// pathReadings is generateFieldNameOrArrayIndexPathSet: the path with
// every subset of its possible array indexes left out; with subpath
// bounds a path that another prefixes is dropped, the shorter one's
// subpath interval covering it.
func pathReadings(parts []string, arrayIdx []int, subpaths bool) []string {
	var out []string
	for mask := 0; mask < 1<<len(arrayIdx); mask++ {
		var kept []string
		for i, p := range parts {
			skip := false
			for b, ai := range arrayIdx {
				if ai == i && mask&(1<<b) != 0 {
					skip = true
				}
			}
			if !skip {
				kept = append(kept, p)
			}
		}
		out = append(out, strings.Join(kept, "."))
	}
	slices.SortFunc(out, index.ComparePaths)
	out = slices.Compact(out)
	if subpaths {
		var pruned []string
		for _, p := range out {
			if len(pruned) > 0 && strings.HasPrefix(p, pruned[len(pruned)-1]+".") {
				continue
			}
			pruned = append(pruned, p)
		}
		out = pruned
	}
	return out
}
