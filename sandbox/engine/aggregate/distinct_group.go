package aggregate

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A $group (after a $sort with no $limit, or none) whose output comes from
// one document of each group can run over a DISTINCT_SCAN, which hands on
// the first document of each group key (SERVER-9507, SERVER-84347):
// mongod's tryDistinctGroupRewrite (pipeline_d.cpp) and
// DocumentSourceGroupBase::getRewriteGroupRequirements
// (document_source_group_base.cpp). The $group then becomes
// $groupByDistinctScan, a GroupFromFirstDocumentTransformation of each
// document the scan returns.

// docsNeeded is AccumulatorDocumentsNeeded: which document of its group an
// accumulator's result comes from.
type docsNeeded int

const (
	needAll         docsNeeded = iota
	needFirstInput             // $first
	needLastInput              // $last
	needFirstOutput            // $top: the first in its sortBy order
	needLastOutput             // $bottom
)

// DistinctGroup is what the query layer must provide for the rewrite: a
// DISTINCT_SCAN on Key that visits, in Sort order (the $top/$bottom's
// sortBy; a $sort stage's pattern goes down as usual), the first document
// of each group, or the last when Flip.
type DistinctGroup struct {
	Key  string
	Sort bson.D
	Flip bool
	// stage is the $group's position in the pipeline.
	stage int
}

// LeadingDistinctGroup finds a $group eligible for the rewrite at the
// front of the pipeline, or right after a leading $sort that absorbed no
// $limit.
func (p *Pipeline) LeadingDistinctGroup() (DistinctGroup, bool) {
	i := 0
	if len(p.stages) > 0 {
		if s, isSort := p.stages[0].(*sortStage); isSort {
			if s.limit > 0 {
				return DistinctGroup{}, false
			}
			i = 1
		}
	}
	if i >= len(p.stages) {
		return DistinctGroup{}, false
	}
	g, isGroup := p.stages[i].(*groupStage)
	if !isGroup || g.distinctKey == "" {
		return DistinctGroup{}, false
	}
	needs, sortBy, ok := sameDocNeeded(g.accs)
	if !ok {
		return DistinctGroup{}, false
	}
	var srt bson.D
	if sortBy != nil {
		srt = sortBy.pattern
	}
	return DistinctGroup{
		Key:   g.distinctKey,
		Sort:  srt,
		Flip:  needs == needLastInput || needs == needLastOutput,
		stage: i,
	}, true
}

// sameDocNeeded is allAccsNeedFirstOrLastDoc: every accumulator needs the
// same first or last document ($top and $bottom with one sortBy), and no
// accumulator at all needs the first.
func sameDocNeeded(accs []*accStatement) (docsNeeded, *sortSpec, bool) {
	if len(accs) == 0 {
		return needFirstInput, nil, true
	}
	needs, sortBy := accs[0].needs, accs[0].sortBy
	if needs == needAll {
		return needAll, nil, false
	}
	for _, a := range accs[1:] {
		if a.needs != needs || !sameSortPattern(a.sortBy, sortBy) {
			return needAll, nil, false
		}
	}
	return needs, sortBy, true
}

func sameSortPattern(a, b *sortSpec) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !slices.Equal(a.Desc, b.Desc) || len(a.Paths) != len(b.Paths) {
		return false
	}
	for i := range a.Paths {
		if !slices.Equal(a.Paths[i], b.Paths[i]) {
			return false
		}
	}
	return true
}

// ReplaceDistinctGroup swaps the $group found by LeadingDistinctGroup (and
// the $sort before it, which the query layer now runs) for
// $groupByDistinctScan, once the planner has given the DISTINCT_SCAN.
func (p *Pipeline) ReplaceDistinctGroup(dg DistinctGroup) {
	g := p.stages[dg.stage].(*groupStage)
	p.RemoveLeading(dg.stage)
	p.stages[0] = &groupByDistinctStage{group: g}
	p.stats[0] = &stageStats{}
}

// groupByDistinctStage is GroupFromFirstDocumentTransformation: each
// document in is its group's output, the _id and each accumulator's
// expression evaluated on it, a missing value as null.
type groupByDistinctStage struct {
	group *groupStage
}

func (s *groupByDistinctStage) Name() string { return "$groupByDistinctScan" }

// Spec is serializeTransformation: {newRoot: {_id: ..., field: expr...}}.
func (s *groupByDistinctStage) Spec() bson.D {
	g := s.group
	id := any("$" + g.distinctKey)
	if g.distinctIDField != "" {
		id = bson.D{{Key: g.distinctIDField, Value: "$" + g.distinctKey}}
	}
	root := bson.D{{Key: "_id", Value: id}}
	for _, a := range g.accs {
		root = append(root, bson.E{Key: a.field, Value: expr.SerializeExplain(a.fromDocSpec, nil)})
	}
	return stageSpec(s.Name(), bson.D{{Key: "newRoot", Value: root}})
}

func (s *groupByDistinctStage) open(in Iterator, rt *runtime) (Iterator, error) {
	env := rt.newEnv()
	g := s.group
	return funcIterator(func() (bson.D, bool, error) {
		d, ok, err := in.Next()
		if !ok || err != nil {
			return nil, false, err
		}
		env.Reset(d)
		id, err := g.distinctPath.Eval(env)
		if err != nil {
			return nil, false, err
		}
		if g.distinctIDField != "" {
			// ExpressionObject leaves out a field whose value is missing.
			obj := bson.D{}
			if !value.IsMissing(id) {
				obj = append(obj, bson.E{Key: g.distinctIDField, Value: id})
			}
			id = obj
		}
		out := make(bson.D, 0, 1+len(g.accs))
		out = append(out, bson.E{Key: "_id", Value: missingToNull(id)})
		for _, a := range g.accs {
			v, err := a.fromDoc(env)
			if err != nil {
				return nil, false, err
			}
			out = append(out, bson.E{Key: a.field, Value: missingToNull(v)})
		}
		return out, true, nil
	}), nil
}

// oneInputDoc marks st as taking its result from a single document of
// the group: x evaluated on it, wrapped in an array for the n-accumulators
// with n 1 ($firstN with n: 1 answers as $first would, in an array).
func (st *accStatement) oneInputDoc(needs docsNeeded, x expr.Expr, spec any, wrap bool) {
	st.needs, st.fromDoc, st.fromDocSpec = needs, x.Eval, spec
	if !wrap {
		return
	}
	st.fromDocSpec = bson.A{spec}
	st.fromDoc = func(env *expr.Env) (any, error) {
		v, err := x.Eval(env)
		if err != nil {
			return nil, err
		}
		return bson.A{missingToNull(v)}, nil
	}
}

// isOne: an accumulator's n given as the constant 1.
func isOne(n any) bool {
	return value.IsNumber(n) && value.Compare(n, int32(1)) == 0
}
