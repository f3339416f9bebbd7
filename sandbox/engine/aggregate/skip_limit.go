package aggregate

import (
	"math"
	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The rewrites mongod's optimizer makes to $sort, $limit and $skip across
// other stages (pipeline/skip_and_limit.cpp, sort_reorder_helpers.cpp,
// DocumentSourceSort/Unwind/LookUp/GraphLookUp::doOptimizeAt): a $limit
// reaches back past the stages that keep every document and its order,
// into a $sort (a top-k sort) or down into the query layer, and a $sort
// moves ahead of a $lookup, $graphLookup or $unwind whose output it does
// not read, towards the query layer and the index that can provide it.

// swapsWithSkipOrLimit is StageConstraints::canSwapWithSkippingOrLimitingStage:
// the stage turns each document into exactly one, in order. A $lookup or
// $graphLookup that absorbed an $unwind does not.
func swapsWithSkipOrLimit(s Stage) bool {
	switch x := s.(type) {
	case *projectStage, *replaceRootStage:
		// DocumentSourceSingleDocumentTransformation.
		return true
	case *lookupStage:
		return x.unwind == nil
	case *graphLookupStage:
		return x.unwind == nil
	}
	return false
}

// placeLimit appends a $limit to the stages coalesce has built: it merges
// into a $limit before it (DocumentSourceLimit::doOptimizeAt), is copied
// in front of an $unwind that keeps null and empty arrays, so that fewer
// documents reach it (DocumentSourceUnwind::doOptimizeAt, once per smaller
// limit), or joins the $sort it reaches (absorbLimit).
func placeLimit(out []Stage, l *limitStage) []Stage {
	if len(out) > 0 {
		switch p := out[len(out)-1].(type) {
		case *limitStage:
			p.n = min(p.n, l.n)
			return out
		case *unwindStage:
			if p.preserve && (p.limitPushed == 0 || l.n < p.limitPushed) {
				p.limitPushed = l.n
				out = append(placeLimit(out[:len(out)-1], &limitStage{n: l.n}), p)
				return append(out, l)
			}
		}
	}
	if absorbLimit(out, l.n) {
		return out
	}
	return append(out, l)
}

// absorbLimit is DocumentSourceSort::doOptimizeAt's extractLimitForPushdown
// seen from the $limit: walking back past stages that swap with it, and
// past $skip stages (whose sum the sort must keep too), it makes the $sort
// it reaches a top-k sort. It reports whether it found one.
func absorbLimit(out []Stage, n int64) bool {
	skipped := int64(0)
	for i := len(out) - 1; i >= 0; i-- {
		switch s := out[i].(type) {
		case *sortStage:
			if n > math.MaxInt64-skipped {
				return false
			}
			if s.limit == 0 || n+skipped < s.limit {
				s.limit = n + skipped
			}
			return true
		case *skipStage:
			if s.n > math.MaxInt64-skipped {
				return false
			}
			skipped += s.n
		default:
			if !swapsWithSkipOrLimit(s) {
				return false
			}
		}
	}
	return false
}

// placeSort appends a $sort to the stages coalesce has built, moving it
// ahead of the stages it commutes with:
//   - a $lookup or $graphLookup without an absorbed $unwind, when no sort
//     key shares a first field with its "as" (tryReorderingWithSort);
//   - an $unwind whose paths no sort key reads, unless the sort has a limit
//     and the $unwind drops null and empty arrays (canPushSortBack); a
//     top-k sort leaves a $limit after the $unwind.
//
// Where it lands it meets the stage before it as doOptimizeAt does: a
// $sort without a limit before it is dropped, one with a limit on the same
// key merges, and a $densify keeping the order it asks for absorbs it.
func placeSort(out []Stage, s *sortStage) []Stage {
	if len(out) == 0 {
		return append(out, s)
	}
	switch p := out[len(out)-1].(type) {
	case *lookupStage:
		if p.unwind == nil && !sortSharesFirstField(s, p.as) {
			return append(placeSort(out[:len(out)-1], s), p)
		}
	case *graphLookupStage:
		if p.unwind == nil && !sortSharesFirstField(s, p.as) {
			return append(placeSort(out[:len(out)-1], s), p)
		}
	case *unwindStage:
		if (s.limit == 0 || p.preserve) && !sortReadsAny(s, p.modifiedPaths()) {
			limit := s.limit
			out = append(placeSort(out[:len(out)-1], s), p)
			if limit != 0 {
				out = append(out, &limitStage{n: limit})
			}
			return out
		}
	case *sortStage:
		// A $sort followed by another is dropped, as $sort is not
		// stable, unless it has a limit; with a limit and the same key
		// the two merge, keeping the lower limit.
		if p.limit == 0 {
			out[len(out)-1] = s
			return out
		}
		if value.Compare(p.pattern, s.pattern) == 0 {
			if s.limit == 0 || p.limit < s.limit {
				s.limit = p.limit
			}
			out[len(out)-1] = s
			return out
		}
	case *densifyStage:
		// A $sort asking for a prefix of the order $densify keeps is
		// already satisfied.
		if s.limit == 0 && p.keepsOrder() && isPrefixPattern(s.pattern, p.sorted.pattern) {
			return out
		}
	}
	return append(out, s)
}

// sortSharesFirstField is checkModifiedPathsSortReorder for a stage that
// modifies the one path as: a sort key whose first field is as's first
// field reads what the stage wrote (or its parent).
func sortSharesFirstField(s *sortStage, as string) bool {
	asFirst, _, _ := strings.Cut(as, ".")
	for _, parts := range s.Paths {
		if parts[0] == asFirst {
			return true
		}
	}
	return false
}

// sortReadsAny is GetModPathsReturn::canModify over the sort's keys: a
// key is one of paths, a parent of one, or below one.
func sortReadsAny(s *sortStage, paths []string) bool {
	for _, e := range s.pattern {
		key := e.Key
		if slices.ContainsFunc(paths, func(p string) bool {
			return p == key || query.IsPathPrefixOf(p, key) || query.IsPathPrefixOf(key, p)
		}) {
			return true
		}
	}
	return false
}
