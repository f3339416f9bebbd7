package aggregate

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The top/bottom common sort key optimization of mongod 8.0
// (DocumentSourceGroup's optimization, covered by
// document_source_group_test's CommonSortKeyOptimizationTest and
// jstests/aggregation/sources/group/top_bottom_common_sort_key_optimization.js):
// two or more $top, $bottom, $topN or $bottomN of one $group, of the same
// accumulator, the same sortBy and (for the N forms) the same n, become
// one accumulator whose output is an object of theirs, so each document's
// sort key is computed once. A $project after the $group takes each
// original field out of that object and keeps every other field.

// mergedTopBottomPrefix names the accumulator the members of a set
// become, with the position of the set's first member after it; "" for
// an accumulator the optimization does not take.
func mergedTopBottomPrefix(op string) string {
	switch op {
	case "$top":
		return "ts"
	case "$bottom":
		return "bs"
	case "$topN":
		return "tns"
	case "$bottomN":
		return "bns"
	}
	return ""
}

// topBottomMember is what decides which set an accumulator joins.
type topBottomMember struct {
	op      string
	n       any // serialized; missing for $top and $bottom
	output  any
	pattern bson.D
}

func topBottomMemberOf(a *accStatement) (topBottomMember, bool) {
	if mergedTopBottomPrefix(a.op) == "" || a.sortBy == nil {
		return topBottomMember{}, false
	}
	single := a.op == "$top" || a.op == "$bottom"
	n, output, _, err := topBottomArgs(a.op, a.spec, single)
	if err != nil {
		return topBottomMember{}, false
	}
	m := topBottomMember{op: a.op, output: output, pattern: a.sortBy.pattern, n: value.Missing{}}
	if !single {
		m.n = expr.Serialize(n, nil)
	}
	return m, true
}

// serialize is AccumulatorTopBottomN::serialize (accumulator_multi.cpp):
// n (for the N forms) and output as the expressions they parse to, then
// the sort pattern. ser is expr.SerializeExplain for an explain,
// expr.Serialize for a specification parsed again.
func (m topBottomMember) serialize(ser func(any, *expr.Scope) any) bson.D {
	args := bson.D{}
	if !value.IsMissing(m.n) {
		args = append(args, bson.E{Key: "n", Value: m.n})
	}
	return append(args, bson.E{Key: "output", Value: ser(m.output, nil)}, bson.E{Key: "sortBy", Value: m.pattern})
}

func (m topBottomMember) sameSet(o topBottomMember) bool {
	return m.op == o.op && value.Compare(m.pattern, o.pattern) == 0 &&
		value.IsMissing(m.n) == value.IsMissing(o.n) && (value.IsMissing(m.n) || value.Compare(m.n, o.n) == 0)
}

// withCommonSortKeys is the $group, rewritten when it has such a set, and
// the $project that restores its fields. A missing output must stay a
// null in the merged object (as the member alone would give), hence the
// $ifNull around each output. Should the rewritten stages not parse (a
// field of the group already has the merged accumulator's name), the
// group stays as it is.
func (g *groupStage) withCommonSortKeys(p *parser) []Stage {
	members := make([]topBottomMember, len(g.accs))
	setOf := make([]int, len(g.accs)) // index of the set's first member, or -1
	size := map[int]int{}
	for i, a := range g.accs {
		setOf[i] = -1
		m, ok := topBottomMemberOf(a)
		if !ok {
			continue
		}
		members[i] = m
		setOf[i] = i
		for j := 0; j < i; j++ {
			if setOf[j] == j && members[j].sameSet(m) {
				setOf[i] = j
				break
			}
		}
		size[setOf[i]]++
	}
	spec := bson.D{{Key: "_id", Value: g.idSpec}}
	project := bson.D{{Key: "_id", Value: true}}
	merged := false
	for i, a := range g.accs {
		first := setOf[i]
		if first < 0 || size[first] < 2 {
			spec = append(spec, bson.E{Key: a.field, Value: bson.D{{Key: a.op, Value: a.spec}}})
			project = append(project, bson.E{Key: a.field, Value: true})
			continue
		}
		merged = true
		name := mergedTopBottomPrefix(a.op) + "_" + strconv.Itoa(first)
		project = append(project, bson.E{Key: a.field, Value: "$" + name + "." + a.field})
		if first != i {
			continue
		}
		output := bson.D{}
		for j := i; j < len(g.accs); j++ {
			if setOf[j] == first {
				output = append(output, bson.E{Key: g.accs[j].field, Value: bson.D{{Key: "$ifNull", Value: bson.A{members[j].output, nil}}}})
			}
		}
		set := members[i]
		set.output = output
		spec = append(spec, bson.E{Key: name, Value: bson.D{{Key: a.op, Value: set.serialize(expr.Serialize)}}})
	}
	if !merged {
		return []Stage{g}
	}
	ng, err := parseGroup(spec, p)
	if err != nil {
		return []Stage{g}
	}
	proj, err := parseProject(project, p)
	if err != nil {
		return []Stage{g}
	}
	return append([]Stage{ng}, proj...)
}
