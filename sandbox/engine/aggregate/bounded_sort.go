package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A time-series pipeline that sorts on the time field has its $sort
// replaced by $_internalBoundedSort once its query is planned (PipelineD's
// bucket-unpacking-with-sort rewrite, pipeline_d.cpp; document_source_sort
// serializeForBoundedSort): buckets read in the order of their minimum (or
// maximum) time let a sorter release each measurement as soon as no later
// bucket can hold an earlier one. The engine decides whether the plan
// allows it (UnpackSort, then the plan's scan); the pipeline then takes
// the bounded sort (BoundSort).
//
// The bounded sort returns what the $sort would, in the same order. The
// sandbox still sorts all the measurements at once to produce it, where
// MongoDB releases them bucket by bucket, holding only those within a
// bucket span of each other: so allowDiskUse: false, which limits what a
// blocking sort may hold, does not limit it.

// UnpackSort is a pipeline whose first stage unpacks buckets and which
// sorts after it: what the rewrite needs to know of its first $sort.
type UnpackSort struct {
	TimeField, MetaField string
	// Sort is the $sort's pattern.
	Sort        []SortPart
	SpanSeconds int32
	// ExtendedRange: the buckets may hold times their _id cannot, so
	// their _id order and control.min are no order to bound by.
	ExtendedRange bool
	// Boundable: nothing stands between the unpacking and the sort but
	// $match stages and projections that cannot change the sort's
	// fields, and the sort's last field is the time, any before it on
	// the metaField. Otherwise the sort only steers the scan's direction.
	Boundable bool
	// unpack and sort are the stages found; the query layer may take
	// stages before them off the pipeline before BoundSort runs.
	unpack *unpackBucketStage
	sort   *sortStage
}

// SortPart is one field of a sort and its direction.
type SortPart struct {
	Path      string
	Ascending bool
}

// UnpackSort finds the first $sort after a leading
// $_internalUnpackBucket (findUnpackAndSort), and whether a bounded sort
// could replace it (the stage walk after supportsSort). A first sort on
// metadata ($meta) is no field sort: there is none to find then.
func (p *Pipeline) UnpackSort() (UnpackSort, bool) {
	// A $limit pushed above the unpacking, and a $project of the
	// buckets' meta moved there, go to the query layer.
	first, limited := 0, false
	// metaDropped are the bucket paths a projection moved onto the
	// buckets removed ("meta", "meta.a"): the measurements lack them.
	var metaDropped []string
leading:
	for ; first < len(p.stages); first++ {
		switch s := p.stages[first].(type) {
		case *limitStage:
			limited = true
		case *projectStage:
			_, paths, _ := s.proj.ModifiedPaths()
			metaDropped = append(metaDropped, paths...)
		default:
			break leading
		}
	}
	if len(p.stages) < first+2 {
		return UnpackSort{}, false
	}
	unpack, ok := p.stages[first].(*unpackBucketStage)
	if !ok {
		return UnpackSort{}, false
	}
	for i, s := range p.stages[first+1:] {
		if s.Name() != "$sort" {
			continue
		}
		sort, ok := s.(*sortStage)
		if !ok {
			return UnpackSort{}, false
		}
		u := UnpackSort{TimeField: unpack.timeField, MetaField: unpack.metaField, SpanSeconds: unpack.spanSeconds,
			ExtendedRange: unpack.extendedRange, unpack: unpack, sort: sort}
		for j, path := range sort.Paths {
			u.Sort = append(u.Sort, SortPart{Path: strings.Join(path, "."), Ascending: !sort.Desc[j]})
		}
		// A limit above the unpacking is one below it too, which no
		// bounded sort passes.
		u.Boundable = !limited && u.eligible(p.stages[first+1:first+1+i]) && u.preserved(unpack.fields, metaDropped)
		return u, true
	}
	return UnpackSort{}, false
}

// OnMeta says whether path is the metaField or a field within it.
func (u UnpackSort) OnMeta(path string) bool {
	return u.MetaField != "" && (path == u.MetaField || strings.HasPrefix(path, u.MetaField+"."))
}

// preserved: the measurements carry the sort's time and meta fields,
// which an unpacking that builds only some fields, or buckets whose meta
// (or part of it, metaDropped) a projection removed, may leave out.
func (u UnpackSort) preserved(fields unpackFields, metaDropped []string) bool {
	if !fields.keeps(u.TimeField) {
		return false
	}
	dropped := func(path string) bool {
		onBucket := "meta" + strings.TrimPrefix(path, u.MetaField)
		return slices.ContainsFunc(metaDropped, func(d string) bool {
			return query.IsPathPrefixOf(d, onBucket) || query.IsPathPrefixOf(onBucket, d) || d == onBucket
		})
	}
	for _, part := range u.Sort {
		if u.OnMeta(part.Path) && (dropped(part.Path) || !fields.keeps(u.MetaField)) {
			return false
		}
	}
	return true
}

// eligible checks the sort's fields and the stages before it.
func (u UnpackSort) eligible(between []Stage) bool {
	if u.Sort[len(u.Sort)-1].Path != u.TimeField {
		return false
	}
	for _, part := range u.Sort[:len(u.Sort)-1] {
		if !u.OnMeta(part.Path) {
			return false
		}
	}
	for _, s := range between {
		if _, isMatch := s.(*matchStage); isMatch {
			continue
		}
		proj, ok := s.(*projectStage)
		if !ok {
			return false
		}
		allExcept, paths, renames := proj.proj.ModifiedPaths()
		if !allExcept {
			// A field renamed onto a sort field hides it as surely as a
			// computed one (jstests/core/timeseries/
			// bucket_unpacking_with_sort_negative.js: {$addFields: {t: "$a"}}).
			for to := range renames {
				paths = append(paths, to)
			}
		}
		for _, part := range u.Sort {
			if canModify(allExcept, paths, part.Path) {
				return false
			}
		}
	}
	return true
}

// canModify is ModifiedPaths::canModify: whether a stage that modifies
// paths (or all but paths) may change path.
func canModify(allExcept bool, paths []string, path string) bool {
	related := func(p string) bool {
		return p == path || strings.HasPrefix(path, p+".") || strings.HasPrefix(p, path+".")
	}
	if allExcept {
		for _, p := range paths {
			if p == path || strings.HasPrefix(path, p+".") {
				return false
			}
		}
		return true
	}
	for _, p := range paths {
		if related(p) {
			return true
		}
	}
	return false
}

// BoundSort replaces the sort u found with $_internalBoundedSort, bounded
// by each bucket's minimum time (base "min") or maximum, plus offset
// seconds, and has the unpacking carry that time as metadata. A bound
// that is not precise, because the buckets arrive in the opposite order
// of their base, is offset by a bucket span, and the buckets wider than a
// span are filtered out first, with a $match before the unpacking.
func (p *Pipeline) BoundSort(u UnpackSort, base string, offsetSeconds int64, precise bool) error {
	at, unpackAt := slices.Index(p.stages, Stage(u.sort)), slices.Index(p.stages, Stage(u.unpack))
	if at < 0 || unpackAt < 0 {
		return nil
	}
	u.unpack.includeMinTime, u.unpack.includeMaxTime = base == "min", base == "max"
	stages := append([]Stage(nil), p.stages...)
	stages[at] = &boundedSortStage{sortStage: u.sort, base: base, offsetSeconds: offsetSeconds}
	if !precise {
		spec := bson.D{{Key: "$expr", Value: bson.D{{Key: "$lte", Value: bson.A{
			bson.D{{Key: "$subtract", Value: bson.A{"$control.max." + u.TimeField, "$control.min." + u.TimeField}}},
			bson.D{{Key: "$const", Value: int64(u.SpanSeconds) * 1000}},
		}}}}}
		m, err := query.Compile(spec, query.Options{})
		if err != nil {
			return err
		}
		stages = slices.Insert(stages, unpackAt, Stage(&matchStage{filter: spec, m: m}))
	}
	p.setStages(stages)
	return nil
}

// boundedSortStage is $_internalBoundedSort: a $sort on the time field
// bounded by the buckets it reads (see the package comment above for how
// the sandbox runs it).
type boundedSortStage struct {
	*sortStage
	base          string // "min" or "max"
	offsetSeconds int64
}

func (s *boundedSortStage) Name() string { return "$_internalBoundedSort" }

// Spec is serializeForBoundedSort: the sort key with integer directions,
// the bound, and the limit (0 for none), both longs.
func (s *boundedSortStage) Spec() bson.D {
	key := make(bson.D, len(s.pattern))
	for i, e := range s.pattern {
		dir := int32(1)
		if value.ToDouble(e.Value) < 0 {
			dir = -1
		}
		key[i] = bson.E{Key: e.Key, Value: dir}
	}
	return stageSpec("$_internalBoundedSort", bson.D{
		{Key: "sortKey", Value: key},
		{Key: "bound", Value: bson.D{{Key: "base", Value: s.base}, {Key: "offsetSeconds", Value: s.offsetSeconds}}},
		{Key: "limit", Value: s.limit},
	})
}

func (s *boundedSortStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return s.sortStage.openSorting(in, rt, false)
}
