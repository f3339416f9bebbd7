package planner

import (
	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
)

// A "contained" $or is one below the filter's top-level $and, such as
// {a: 1, $or: [{b: 1}, {c: 1}]}. mongod's enumerator indexes it as a
// subnode of the $and (plan_enumerator.cpp: prepMemo gives the $and an
// AndAssignment whose first choices each index one $or, an OrAssignment
// needing an index for every branch; the index choices for the $and's own
// predicates follow). With the $or chosen, the access planner builds an OR
// of the branches' scans (planner_access.cpp buildIndexedOr), and
// buildIndexedAnd hangs the $and's other predicates on a FETCH above it:
// FETCH (filter a: 1) over OR of IXSCAN b and IXSCAN c. The multi-planner
// races that plan against the $and's index plans (IXSCAN a under FETCH
// filter $or).
//
// A branch may also use an index whose leading field the $and constrains
// outside the $or ("OR pushdown", enumerateOneIndex with outside
// predicates, index_tag.cpp resolveOrPushdowns): with {a: 1, b: 1} and
// {a: 1, c: 1}, the branch {b: 1} scans {a: 1, b: 1} with bounds a [1, 1]
// and b [1, 1]. An outside predicate pushed into every branch is trimmed
// from the FETCH above (processOrPushdownNode).

// maxOrSolutions is internalQueryEnumerationMaxOrSolutions: how many
// combinations of branch assignments the enumerator gives one $or.
const maxOrSolutions = 10

// branchChoice is one index assignment for a branch of a contained $or.
type branchChoice struct {
	scan *candidate
	// pushed are the outside predicates the scan's bounds use.
	pushed []query.Node
	// rank is the index's position in the catalog, which orders the
	// branches (sortUsingTags); pos is the key position of the branch's tag.
	rank, pos int
	path      string
}

// containedOrCandidates plans each $or among the filter's top-level
// conjuncts whose every branch has an index among those admit accepts;
// each combination of branch assignments, up to maxOrSolutions an $or,
// is a candidate, in the enumerator's order (the first branch's choice
// varying fastest, OrAssignment's nextMemo).
func containedOrCandidates(coll *catalog.Collection, q Query, admit func(*index.Index) bool) []*candidate {
	if q.Filter == nil {
		return nil
	}
	top, ok := q.Filter.Root.(*query.And)
	if !ok {
		return nil
	}
	// The $and's indexable predicates, which may be pushed into a branch.
	// One inside an $elemMatch is not: its path would need rewriting.
	outside := map[string][]indexedPred{}
	isOutside := map[query.Node]bool{}
	for path, ps := range predicatesByPath(top.Children) {
		for _, p := range ps {
			if p.em == nil {
				outside[path] = append(outside[path], p)
				isOutside[p.node] = true
			}
		}
	}
	var out []*candidate
	for _, n := range query.SortedChildren(top.Children) {
		or, ok := n.(*query.Or)
		if !ok || len(or.Children) == 0 {
			continue
		}
		branches := query.SortedChildren(or.Children)
		choices := make([][]branchChoice, len(branches))
		indexed := true
		for i, b := range branches {
			choices[i] = branchChoices(coll, q, b, outside, isOutside, admit)
			if len(choices[i]) == 0 {
				indexed = false
				break
			}
		}
		if !indexed {
			continue
		}
		at := make([]int, len(branches))
		first := len(out)
		for n := 1; ; n++ {
			out = append(out, containedOrCandidate(q, top, or, choices, at))
			if n >= maxOrSolutions {
				// OrAssignment's counter reaches the limit on the call
				// after the last plan it lets out, even when no other
				// combination is left: explain reports the limit reached.
				for _, c := range out[first:] {
					c.hitOrLimit = true
				}
				break
			}
			i := 0
			for ; i < len(at); i++ {
				if at[i]++; at[i] < len(choices[i]) {
					break
				}
				at[i] = 0
			}
			if i == len(at) {
				break
			}
		}
	}
	return out
}

// anyHitOrLimit is the enumerator's hitIndexedOrLimit, which explain
// reports as maxIndexedOrSolutionsReached.
func anyHitOrLimit(cands []*candidate) bool {
	return slices.ContainsFunc(cands, func(c *candidate) bool { return c.hitOrLimit })
}

// branchChoices lists the index assignments of one branch, in index order:
// an index qualifies when the branch has a predicate on one of its fields
// and the branch or the $and one on its leading field; the $and's
// predicates then compound with the branch's, and an assignment made of
// outside predicates alone is not one (enumerateOneIndex).
func branchChoices(coll *catalog.Collection, q Query, branch query.Node, outside map[string][]indexedPred,
	isOutside map[query.Node]bool, admit func(*index.Index) bool) []branchChoice {
	var nodes []query.Node
	if a, ok := branch.(*query.And); ok {
		nodes = a.Children
	} else {
		nodes = []query.Node{branch}
	}
	own := predicatesByPath(nodes)
	var out []branchChoice
	for rank, ix := range coll.Indexes() {
		if !admit(ix) {
			continue
		}
		if ix.Wildcard() != nil {
			for _, c := range wildcardCandidates(ix, own, nodes, nil, false) {
				if usableInBranch(c.ix, c, q, branch) {
					c.orBranch = branch
					out = append(out, branchChoice{scan: c, rank: rank, pos: tagPos(branch, c), path: query.NodePath(branch)})
				}
			}
			continue
		}
		relevant := false
		for i, f := range ix.Spec.Fields {
			if slices.ContainsFunc(own[f.Path], func(p indexedPred) bool { return compatible(p, ix, i) }) {
				relevant = true
				break
			}
		}
		if !relevant {
			continue
		}
		preds := map[string][]indexedPred{}
		for path, ps := range own {
			preds[path] = slices.Clone(ps)
		}
		for _, f := range ix.Spec.Fields {
			if ps, ok := outside[f.Path]; ok && !slices.ContainsFunc(preds[f.Path], func(p indexedPred) bool { return isOutside[p.node] }) {
				preds[f.Path] = append(preds[f.Path], ps...)
				slices.SortStableFunc(preds[f.Path], func(a, b indexedPred) int { return matchRank(a.node) - matchRank(b.node) })
			}
		}
		c := indexCandidate(ix, preds, nil, false)
		if c == nil {
			continue
		}
		var pushed []query.Node
		ownUsed := false
		for _, u := range c.used {
			if isOutside[u.node] {
				if !slices.Contains(pushed, u.node) {
					pushed = append(pushed, u.node)
				}
			} else {
				ownUsed = true
			}
		}
		if !ownUsed {
			continue
		}
		filter := branch
		if len(pushed) > 0 {
			// attachNode: the pushed predicates join the branch, whose
			// scan (or FETCH) now answers them.
			filter = &query.And{Children: append(slices.Clone(nodes), pushed...)}
		}
		if !usableInBranch(ix, c, q, filter) {
			continue
		}
		c.orBranch = filter
		ch := branchChoice{scan: c, pushed: pushed, rank: rank, pos: tagPos(branch, c), path: query.NodePath(branch)}
		if len(pushed) > 0 {
			// The branch became an $and tagged with the index alone.
			ch.pos, ch.path = 0, ""
		}
		out = append(out, ch)
	}
	return out
}

// tagPos is the key position of the tag a branch sorts by: a predicate's
// own, or for an $and the first of its children's (tagForSort).
func tagPos(branch query.Node, c *candidate) int {
	if a, ok := branch.(*query.And); ok {
		for _, n := range a.Children {
			for _, u := range c.used {
				if u.node == n {
					return u.field
				}
			}
		}
		return 0
	}
	for _, u := range c.used {
		if u.node == branch {
			return u.field
		}
	}
	return 0
}

// usableInBranch applies the sparse and partial index rules to a branch:
// a partial index serves it when the branch implies the index's filter,
// or the whole query does (stripInvalidAssignmentsToPartialIndices keeps
// the assignments below a node that implies it).
func usableInBranch(ix *index.Index, c *candidate, q Query, branch query.Node) bool {
	if usable(ix, c, Query{Filter: &query.Filter{Root: branch}}) {
		return true
	}
	return ix.Spec.Partial != nil && usable(ix, c, q)
}

// containedOrCandidate is the plan of one combination of branch
// assignments: the branches ordered by their index tags (sortUsingTags,
// which prepareForAccessPlanning applies before access planning), and the
// $and's predicates other than the $or and those pushed into every branch
// left for the FETCH above the OR.
func containedOrCandidate(q Query, top *query.And, or *query.Or, choices [][]branchChoice, at []int) *candidate {
	c := &candidate{dir: 1, contained: true}
	picked := make([]branchChoice, len(choices))
	pushedTo := map[query.Node]int{}
	for i := range choices {
		picked[i] = choices[i][at[i]]
		for _, p := range picked[i].pushed {
			pushedTo[p]++
		}
	}
	c.branches = orScans(q, picked)
	for _, n := range top.Children {
		if n == query.Node(or) || pushedTo[n] == len(choices) {
			continue
		}
		c.outer = append(c.outer, n)
	}
	if len(q.Sort) > 0 {
		c.mergeSort(q.Sort)
	}
	return c
}

// orScans are the scans of an indexed $or's branches, given their index
// assignments in the canonical query's order, as the access planner builds
// them: prepareForAccessPlanning sorts the $or's children on their index
// tags (index_tag.cpp sortUsingTags, a stable sort on the index's number,
// then the tag's key position, then the path), so the branches run in
// that order, the canonical order breaking ties; processIndexScans then
// adds each predicate branch to the scan being built when it uses the same
// index at the same key position (shouldMergeWithLeaf unions the bounds of
// an OR's leaves), so runs of such branches become one scan each, and an
// $and branch is a scan of its own (processIndexScansSubnode).
func orScans(q Query, picked []branchChoice) []*candidate {
	slices.SortStableFunc(picked, func(a, b branchChoice) int {
		switch {
		case a.rank != b.rank:
			return a.rank - b.rank
		case a.pos != b.pos:
			return a.pos - b.pos
		}
		return strings.Compare(a.path, b.path)
	})
	var groups [][]branchChoice
	for _, ch := range picked {
		if n := len(groups); n > 0 && leafBranch(ch) && leafBranch(groups[n-1][0]) &&
			groups[n-1][0].scan.ix == ch.scan.ix && groups[n-1][0].pos == ch.pos {
			groups[n-1] = append(groups[n-1], ch)
			continue
		}
		groups = append(groups, []branchChoice{ch})
	}
	var out []*candidate
	for _, g := range groups {
		b := *g[0].scan
		if leafBranch(g[0]) {
			b = curOr(g, q)
		}
		out = append(out, &b)
	}
	return out
}

// leafBranch: the branch is one predicate, which the access planner adds
// to the scan being built for the $or (processIndexScans, handleFilterOr),
// not an $and planned as a subnode. Adjacent such branches tagged with the
// same index at the same key position share one scan, their bounds
// unioned (shouldMergeWithLeaf).
func leafBranch(ch branchChoice) bool {
	switch ch.scan.orBranch.(type) {
	case *query.And, *query.ElemMatchObject:
		// An object $elemMatch is planned on its children, as an $and is
		// (arrayUsesIndexOnChildren).
		return false
	}
	return len(ch.pushed) == 0 && ch.scan.ix.Wildcard() == nil && !ch.scan.wildcardSubpaths
}

// curOr is the scan of a run of predicate branches: the bounds of their
// field unioned, and their $or (the access planner's curOr, an $or even
// of one predicate) tested on the keys or on the fetched document as the
// loosest of their tightnesses needs (finishAndOutputLeaf, orNeedsFetch).
func curOr(g []branchChoice, q Query) candidate {
	c := *g[0].scan
	pos := g[0].pos
	c.bounds = slices.Clone(c.bounds)
	var leaves []query.Node
	c.used = nil
	for _, ch := range g {
		if ch.scan != g[0].scan {
			c.bounds[pos] = normalize(append(slices.Clone(c.bounds[pos]), ch.scan.bounds[pos]...))
		}
		leaves = append(leaves, ch.scan.orBranch)
		c.used = append(c.used, ch.scan.used...)
	}
	loosest := exact
	for _, n := range leaves {
		loosest = min(loosest, resolveMaybeCovered(c.tightnessOf(n), q.projNeedsFetch()))
	}
	or := &query.Or{Children: leaves}
	c.used = append(c.used, usedPredicate{node: or, field: pos, tight: loosest})
	c.orBranch = or
	return c
}

// buildContainedOr builds a contained $or's plan: with no predicate left
// outside the $or, as a rooted one's (buildOr, buildMergeSort); otherwise
// the OR or SORT_MERGE of the branches' plans under a FETCH filtering on
// those predicates (buildIndexedAnd), which tests the documents a branch
// already fetched too (FetchStage's alreadyHasObj path filters them).
func buildContainedOr(coll *catalog.Collection, q Query, c *candidate) stage {
	if len(c.branches) == 1 {
		return buildOneScan(coll, q, c)
	}
	if len(c.outer) == 0 {
		if c.merged {
			return buildMergeSort(coll, q, c)
		}
		return buildOr(coll, q, c)
	}
	var children []stage
	for _, b := range c.branches {
		s, ixs, fetched := c.branchPlan(coll, q, b)
		if c.merged && !fetched {
			// The merge orders the scan's results by their keys.
			ixs.keyDocs = true
		}
		children = append(children, s)
	}
	var s stage
	if c.merged {
		s = newMergeSortStage(children, q.Sort)
	} else {
		s = &orStage{children: children}
	}
	c.fetch = &fetch{child: s, coll: coll, filter: q.Filter, shown: andOf(c.outer).Serialize()}
	return c.fetch
}

// buildOneScan builds an indexed $or whose branches all went into one
// scan: an OR of one scan is that scan (buildIndexedOr), under the FETCH
// buildIndexedAnd hangs a contained $or's other predicates on, or else the
// one analyzeDataAccess adds when the scan did not fetch and the query
// needs the documents (not a count, nor a projection the keys cover).
func buildOneScan(coll *catalog.Collection, q Query, c *candidate) stage {
	b := c.branches[0]
	s, ixs, fetched := c.branchPlan(coll, q, b)
	switch {
	case len(c.outer) > 0:
		c.fetch = &fetch{child: s, coll: coll, filter: q.Filter, shown: andOf(c.outer).Serialize()}
		return c.fetch
	case !fetched && ixs.filter == nil && ixs.single && !q.subplanned() &&
		(q.Count || q.NoContent && (len(q.Sort) == 0 || c.sorted)):
		// The fast count (turnIxscanIntoCount), which prepareExecutor
		// tries on the planner's solutions but not on a subplanned one.
		return &countScan{ixScan: ixs}
	case fetched || q.Count || q.NoContent:
		return s
	case coversProjection(q, b):
		ixs.keyDocs = true
		c.covered = true
		return s
	}
	c.fetch = &fetch{child: s, coll: coll}
	return c.fetch
}
