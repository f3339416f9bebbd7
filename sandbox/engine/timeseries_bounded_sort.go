package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The bucket-unpacking-with-sort rewrite of a time-series read
// (PipelineD::buildInnerQueryExecutorGeneric, pipeline_d.cpp, MongoDB
// 8.0): when the pipeline on the buckets sorts on the time field (after
// the metaField's fields, if any), the planner is asked to read the
// buckets in the order the sort wants, and if the plan it picks reads
// them by their minimum or maximum time (a collection scan, or an index
// on the metaField and the time), the $sort becomes $_internalBoundedSort.

// boundedSortCandidate is the sort of a pipeline on target that the
// rewrite could bound (the zero UnpackSort, not Boundable, when there is
// none), and the traversal preference the planner is given for it (createTimeSeriesTraversalPreference: the sort on the buckets'
// fields, reversed).
func boundedSortCandidate(target *catalog.Collection, p *aggregate.Pipeline) (aggregate.UnpackSort, *planner.TraversalPreference) {
	if target == nil {
		return aggregate.UnpackSort{}, nil
	}
	if _, isBuckets := value.Get(target.Options, "timeseries").(bson.D); !isBuckets {
		return aggregate.UnpackSort{}, nil
	}
	u, ok := p.UnpackSort()
	if !ok {
		return aggregate.UnpackSort{}, nil
	}
	minField, maxField := "control.min."+u.TimeField, "control.max."+u.TimeField
	pref := &planner.TraversalPreference{ClusterField: minField}
	for _, part := range u.Sort {
		rev := int32(1)
		if part.Ascending {
			rev = -1
		}
		switch {
		case part.Path == u.TimeField && rev == 1:
			pref.Pattern = append(pref.Pattern, bson.E{Key: minField, Value: int32(1)})
		case part.Path == u.TimeField:
			pref.Pattern = append(pref.Pattern, bson.E{Key: maxField, Value: int32(-1)})
		case u.OnMeta(part.Path):
			pref.Pattern = append(pref.Pattern, bson.E{Key: "meta" + strings.TrimPrefix(part.Path, u.MetaField), Value: rev})
		default:
			// A sort on a measurement field gives the scan no preference.
			return u, nil
		}
	}
	return u, pref
}

// boundSort bounds the sort if the plan's scan gives the buckets in an
// order that allows it (supportsSort): precise when they come in the
// order of the bound's base, else offset by a bucket span.
func boundSort(p *aggregate.Pipeline, u aggregate.UnpackSort, leaf planner.ScanLeaf) error {
	agree, byMin, ok := scanSupportsSort(u, leaf)
	if !ok {
		return nil
	}
	base, offset := "max", -int64(u.SpanSeconds)
	if byMin {
		base, offset = "min", int64(u.SpanSeconds)
	}
	if agree {
		offset = 0
	}
	return p.BoundSort(u, base, offset, agree)
}

// scanSupportsSort is supportsSort: whether the scan yields buckets in an
// order the sort can be bounded by, whether that order agrees with the
// sort's direction, and whether it is by the buckets' minimum time.
func scanSupportsSort(u aggregate.UnpackSort, leaf planner.ScanLeaf) (agree, byMin, ok bool) {
	last := u.Sort[len(u.Sort)-1]
	if !leaf.IndexScan {
		// The buckets of a collection scan come in _id order, their
		// minimum time's (unless some hold times an _id cannot): a
		// single ascending sort forward, or descending backward.
		if len(u.Sort) != 1 || u.ExtendedRange || leaf.Forward != last.Ascending {
			return false, false, false
		}
		return last.Ascending, true, true
	}
	if leaf.MultiKey {
		return false, false, false
	}
	minField, maxField := "control.min."+u.TimeField, "control.max."+u.TimeField
	at := 0
	for i, kp := range leaf.KeyPattern {
		if at == len(u.Sort) {
			return false, false, false
		}
		part := u.Sort[at]
		if onSameMetaPath(kp.Key, part.Path, u.MetaField) {
			if !directionCompatible(kp.Value, part.Ascending, leaf.Forward) {
				return false, false, false
			}
			at++
			continue
		}
		if leaf.Point[i] {
			continue
		}
		if part.Path != u.TimeField || at != len(u.Sort)-1 || (kp.Key != minField && kp.Key != maxField) ||
			(kp.Key == minField && u.ExtendedRange) || !directionCompatible(kp.Value, part.Ascending, leaf.Forward) {
			return false, false, false
		}
		byMin = kp.Key != maxField
		return byMin == part.Ascending, byMin, true
	}
	return false, false, false
}

// onSameMetaPath is sortAndKeyPatternPartAgreeAndOnMeta: an index field
// on the buckets' meta and a sort field on the metaField name the same
// path below them.
func onSameMetaPath(keyField, sortPath, metaField string) bool {
	if metaField == "" {
		return false
	}
	k, s := strings.Split(keyField, "."), strings.Split(sortPath, ".")
	return len(k) == len(s) && k[0] == "meta" && s[0] == metaField && strings.Join(k[1:], ".") == strings.Join(s[1:], ".")
}

// directionCompatible: the index field is ascending or descending, and
// the scan, in its direction, orders it as the sort field wants.
func directionCompatible(keyValue any, ascending, forward bool) bool {
	if !value.IsNumber(keyValue) {
		return false
	}
	v := value.ToDouble(keyValue)
	if v != 1 && v != -1 {
		return false
	}
	return (forward == (v == 1)) == ascending
}
