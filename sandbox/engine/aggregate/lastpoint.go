package aggregate

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A last-point query asks for the latest (or, through $last, the
// earliest-sorted-last) measurement of each meta value: an unpacking with
// no filter on the measurements, then a $sort on metaField paths ending
// with the time field and a $group on the meta with $first or $last, or
// a $group alone whose one accumulator is a $top, $bottom, or a $topN or
// $bottomN of n 1. mongod puts a $sort and a $group of the buckets before
// the unpacking, so that only the one bucket that holds each group's
// answer is unpacked; the original stages stay after it to pick the
// measurement (DocumentSourceInternalUnpackBucket::optimizeLastpoint,
// createMetadataSortForReorder and createBucketGroupForReorder,
// document_source_internal_unpack_bucket.cpp; src/mongo/db/query/timeseries/README.md,
// "Last-point queries"). The bucket-level pair is a $sort and a $group
// with $first, which a DISTINCT_SCAN can then answer when an index orders
// the buckets that way (distinct_group.go).

// rewriteLastpoint inserts the bucket-level $sort and $group before an
// unpacking that a last-point query follows.
func rewriteLastpoint(stages []Stage, p *parser) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		u, ok := stages[i].(*unpackBucketStage)
		if !ok || u.filter != nil || u.metaField == "" || slices.Contains(u.computedMeta, u.metaField) {
			continue
		}
		q, ok := lastpointOf(stages[i+1:])
		if !ok {
			continue
		}
		bucketSort, bucketGroup, ok := u.lastpointStages(q, p)
		if !ok {
			continue
		}
		return slices.Insert(stages, i, Stage(bucketSort), Stage(bucketGroup))
	}
	return stages
}

// lastpointQuery is what optimizeLastpoint reads of the stages after the
// unpacking: the sort, the path the $group's _id groups on, and which
// document of each group its accumulators take (needFirstInput or
// needLastInput; needAll when it has none, and either will do).
type lastpointQuery struct {
	sort  bson.D
	group string
	needs docsNeeded
}

// lastpointOf finds a last-point $sort and $group at the front of rest.
// A $group alone stands for the $sort of its $top or $bottom's sortBy
// and a $group with $first or $last of the whole document
// (tryCreateBucketLevelSortGroup).
func lastpointOf(rest []Stage) (lastpointQuery, bool) {
	if g, ok := rest[0].(*groupStage); ok {
		if len(g.accs) != 1 || g.accs[0].sortBy == nil || g.distinctKey == "" {
			return lastpointQuery{}, false
		}
		q := lastpointQuery{sort: g.accs[0].sortBy.pattern, group: g.distinctKey}
		switch g.accs[0].needs {
		case needFirstOutput:
			q.needs = needFirstInput
		case needLastOutput:
			q.needs = needLastInput
		default:
			return lastpointQuery{}, false
		}
		return q, true
	}
	s, ok := rest[0].(*sortStage)
	if !ok || s.limit > 0 || len(rest) < 2 {
		return lastpointQuery{}, false
	}
	g, ok := rest[1].(*groupStage)
	if !ok || g.distinctKey == "" {
		return lastpointQuery{}, false
	}
	q := lastpointQuery{sort: s.pattern, group: g.distinctKey, needs: needAll}
	for _, a := range g.accs {
		if a.needs != needFirstInput && a.needs != needLastInput || q.needs != needAll && a.needs != q.needs {
			return lastpointQuery{}, false
		}
		q.needs = a.needs
	}
	return q, true
}

// lastpointStages builds the bucket-level $sort and $group for q, when q
// is a last-point query of this unpacking's collection.
func (u *unpackBucketStage) lastpointStages(q lastpointQuery, p *parser) (*sortStage, *groupStage, bool) {
	if !u.sortsMetaThenTime(q.sort) {
		return nil, nil, false
	}
	bucketPath, onMeta := u.metaPaths().BucketMetaPath(q.group)
	if !onMeta {
		return nil, nil, false
	}
	needs := q.needs
	if needs == needAll {
		needs = needFirstInput
		if !u.sortFitsGroup(q, needs) {
			needs = needLastInput
		}
	}
	if !u.sortFitsGroup(q, needs) {
		return nil, nil, false
	}
	srt, err := parseSortPattern(u.bucketLastpointSort(q.sort, bucketPath, needs == needLastInput))
	if err != nil {
		return nil, nil, false
	}
	spec := bson.D{{Key: "_id", Value: "$" + bucketPath}}
	for _, f := range append([]string{"meta", "control", "data"}, u.computedMeta...) {
		spec = append(spec, bson.E{Key: f, Value: bson.D{{Key: "$first", Value: "$" + f}}})
	}
	g, err := parseGroup(spec, p)
	if err != nil {
		return nil, nil, false
	}
	return &sortStage{sortSpec: srt}, g, true
}

// sortsMetaThenTime is checkMetadataSortReorder for a last point: every
// key is a field direction on the metaField or under it, but for the
// time field, which comes last.
func (u *unpackBucketStage) sortsMetaThenTime(sort bson.D) bool {
	timeFound := false
	for _, k := range sort {
		if _, isNum := value.SafeNumberLong(k.Value); !isNum {
			return false
		}
		if _, onMeta := u.metaPaths().BucketMetaPath(k.Key); !onMeta {
			if k.Key != u.timeField {
				return false
			}
			timeFound = true
			continue
		}
		if timeFound {
			return false
		}
	}
	return timeFound
}

// sortFitsGroup is isSortValidForGroup: $first of each group must come
// from a sort on descending time, $last from one on ascending time (an
// earliest point is not rewritten, as control.min of the time is rounded
// down, so the bucket that holds it is not known), and the sort's other
// keys must be the group's own path.
func (u *unpackBucketStage) sortFitsGroup(q lastpointQuery, needs docsNeeded) bool {
	for _, k := range q.sort {
		if k.Key == u.timeField {
			if ascending(k.Value) == (needs == needFirstInput) {
				return false
			}
		} else if k.Key != q.group {
			return false
		}
	}
	return true
}

// bucketLastpointSort is createMetadataSortForReorder for a last point:
// the sort reversed for $last; each time key becomes control.min then
// control.max of the time when ascending, control.max then control.min
// when descending; meta paths are read from the bucket's meta; and the
// group's path leads, in its own direction, or ascending (descending when
// reversed) when the sort does not name it.
func (u *unpackBucketStage) bucketLastpointSort(sort bson.D, groupPath string, reverse bool) bson.D {
	dir := func(asc bool) int32 {
		if asc {
			return 1
		}
		return -1
	}
	out := make(bson.D, 0, len(sort)+2)
	for _, k := range sort {
		asc := ascending(k.Value) != reverse
		if k.Key == u.timeField {
			first, second := "control.max.", "control.min."
			if asc {
				first, second = second, first
			}
			out = append(out, bson.E{Key: first + u.timeField, Value: dir(asc)}, bson.E{Key: second + u.timeField, Value: dir(asc)})
			continue
		}
		path, _ := u.metaPaths().BucketMetaPath(k.Key)
		out = append(out, bson.E{Key: path, Value: dir(asc)})
	}
	lead := bson.E{Key: groupPath, Value: dir(!reverse)}
	if i := slices.IndexFunc(out, func(e bson.E) bool { return e.Key == groupPath }); i >= 0 {
		lead = out[i]
		out = slices.Delete(out, i, i+1)
	}
	return slices.Insert(out, 0, lead)
}

// ascending says a sort direction is ascending.
func ascending(direction any) bool {
	n, _ := value.SafeNumberLong(direction)
	return n > 0
}

// metaPaths names the unpacking's fields as the collection's options do,
// for their mapping onto the bucket's.
func (u *unpackBucketStage) metaPaths() timeseries.Options {
	return timeseries.Options{TimeField: u.timeField, MetaField: u.metaField}
}
