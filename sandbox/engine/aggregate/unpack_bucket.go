package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// unpackBucketStage is $_internalUnpackBucket, the stage of a time-series
// view: it turns each bucket document into its measurements. A $match
// that followed it in the view's query is absorbed as eventFilter, as
// mongod's optimizer does, and applied to each measurement.
type unpackBucketStage struct {
	timeField, metaField string
	spanSeconds          int32
	// assumeClean is assumeNoMixedSchemaData, and extendedRange
	// usesExtendedRange, which explain shows when set.
	assumeClean, extendedRange bool
	// fixedBuckets: every bucket starts at a multiple of the span, which
	// is also the rounding (see bucket_group.go).
	fixedBuckets bool
	// fields are the fields measurements carry (unpack_fields.go);
	// fieldsGiven says the spec listed them.
	fields      unpackFields
	fieldsGiven bool
	eventFilter bson.D
	filter      *query.Filter
	// wholeBucket is the wholeBucketFilter: a bucket it matches has
	// every measurement match filter, which then goes untested.
	wholeBucket *query.Filter
	// computedMeta are computedMetaProjFields: fields of the bucket, which
	// a projection moved before the unpacking computed from the meta,
	// that every measurement carries.
	computedMeta []string
	// includeMinTime and includeMaxTime: the unpacking carries the
	// bucket's minimum or maximum time as metadata, which a bounded sort
	// reads (includeMinTimeAsMetadata, includeMaxTimeAsMetadata).
	includeMinTime, includeMaxTime bool
}

// parseUnpackBucket is DocumentSourceInternalUnpackBucket::createFromBsonInternal
// (document_source_internal_unpack_bucket.cpp), with its checks of each
// parameter's type.
func parseUnpackBucket(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNotObject, "$_internalUnpackBucket specification must be an object, got: "+typeNameOf(spec))
	}
	s := &unpackBucketStage{}
	hasTimeField, hasSpan := false, false
	mustBe := func(code int32, field, want string, ok bool, v any) error {
		if ok {
			return nil
		}
		return mongoerr.Newf(code, "%s field must be %s, got: %s", field, want, typeNameOf(v))
	}
	filter := func(code int32, field string, v any) (bson.D, *query.Filter, error) {
		f, isDoc := v.(bson.D)
		if err := mustBe(code, field, "an object", isDoc, v); err != nil {
			return nil, nil, err
		}
		m, err := query.Compile(f, query.Options{Now: p.ctx.Now, LetVars: p.letVals})
		return f, m, err
	}
	for _, e := range d {
		var err error
		b, isBool := e.Value.(bool)
		switch e.Key {
		case "timeField":
			s.timeField, hasTimeField = e.Value.(string)
			err = mustBe(5346504, "timeField", "a string", hasTimeField, e.Value)
		case "metaField":
			var isStr bool
			s.metaField, isStr = e.Value.(string)
			err = mustBe(5346505, "metaField", "a string", isStr, e.Value)
			if err == nil && strings.Contains(s.metaField, ".") {
				err = mongoerr.New(5545700, "metaField field must be a single-element field path")
			}
		case "bucketMaxSpanSeconds":
			n, isInt := e.Value.(int32)
			err = mustBe(5510600, "bucketMaxSpanSeconds", "an integer", isInt, e.Value)
			if err == nil && n <= 0 {
				err = mongoerr.New(5510601, "bucketMaxSpanSeconds field must be greater than zero")
			}
			s.spanSeconds, hasSpan = n, true
		case "eventFilter":
			s.eventFilter, s.filter, err = filter(7026902, "eventFilter", e.Value)
		case "wholeBucketFilter":
			_, s.wholeBucket, err = filter(7026903, "wholeBucketFilter", e.Value)
		case "assumeNoMixedSchemaData":
			err = mustBe(6067202, "assumeClean", "a bool", isBool, e.Value)
			s.assumeClean = b
		case "usesExtendedRange":
			err = mustBe(6646901, "usesExtendedRange", "a bool", isBool, e.Value)
			s.extendedRange = b
		case "fixedBuckets":
			err = mustBe(7823300, "fixedBuckets", "a bool", isBool, e.Value)
			s.fixedBuckets = b
		case "includeMinTimeAsMetadata":
			err = mustBe(6460208, "includeMinTimeAsMetadata", "a bool", isBool, e.Value)
			s.includeMinTime = b
		case "includeMaxTimeAsMetadata":
			err = mustBe(6460209, "includeMaxTimeAsMetadata", "a bool", isBool, e.Value)
			s.includeMaxTime = b
		case "computedMetaProjFields":
			s.computedMeta, err = computedMetaFields(e.Value)
		case "exclude", "include":
			if s.fieldsGiven {
				return nil, mongoerr.New(5408000, "The $_internalUnpackBucket stage expects at most one of include/exclude parameters to be specified")
			}
			var names []string
			names, err = unpackFieldList(e.Value)
			s.fields, s.fieldsGiven = unpackFields{include: e.Key == "include", names: names}, true
		default:
			err = mongoerr.Newf(mongoerr.ErrUnpackBucketUnknownParameter, "unrecognized parameter to $_internalUnpackBucket: %s", e.Key)
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasTimeField {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNoTimeField, "The $_internalUnpackBucket stage requires a timeField parameter")
	}
	if !hasSpan {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNoMaxSpan, "The $_internalUnpackBucket stage requires a bucketMaxSpanSeconds parameter")
	}
	return []Stage{s}, nil
}

// computedMetaFields reads computedMetaProjFields: top-level field names.
func computedMetaFields(v any) ([]string, error) {
	arr, ok := v.(bson.A)
	if !ok {
		return nil, mongoerr.New(5509900, "computedMetaProjFields field must be an array, got: "+typeNameOf(v))
	}
	names := make([]string, 0, len(arr))
	for _, x := range arr {
		name, isStr := x.(string)
		if !isStr {
			return nil, mongoerr.New(5509901, "computedMetaProjFields field element must be a string, got: "+typeNameOf(x))
		}
		if strings.Contains(name, ".") {
			return nil, mongoerr.New(5509902, "computedMetaProjFields field element must be a single-element field path")
		}
		names = append(names, name)
	}
	return names, nil
}

func (s *unpackBucketStage) Name() string { return "$_internalUnpackBucket" }

// Spec is the stage as mongod 8.0's explain serializes it.
func (s *unpackBucketStage) Spec() bson.D {
	body := bson.D{s.fields.spec(s.metaField), {Key: "timeField", Value: s.timeField}}
	if s.metaField != "" {
		body = append(body, bson.E{Key: "metaField", Value: s.metaField})
	}
	body = append(body, bson.E{Key: "bucketMaxSpanSeconds", Value: s.spanSeconds})
	if s.assumeClean {
		body = append(body, bson.E{Key: "assumeNoMixedSchemaData", Value: true})
	}
	if s.extendedRange {
		body = append(body, bson.E{Key: "usesExtendedRange", Value: true})
	}
	if len(s.computedMeta) > 0 {
		list := make(bson.A, len(s.computedMeta))
		for i, n := range s.computedMeta {
			list[i] = n
		}
		body = append(body, bson.E{Key: "computedMetaProjFields", Value: list})
	}
	if s.includeMinTime {
		body = append(body, bson.E{Key: "includeMinTimeAsMetadata", Value: true})
	}
	if s.includeMaxTime {
		body = append(body, bson.E{Key: "includeMaxTimeAsMetadata", Value: true})
	}
	if s.wholeBucket != nil {
		body = append(body, bson.E{Key: "wholeBucketFilter", Value: s.wholeBucket.SerializeInOrder()})
	}
	if s.filter != nil {
		body = append(body, bson.E{Key: "eventFilter", Value: timeseries.EventFilterDoc(s.filter)})
	}
	if s.fixedBuckets {
		body = append(body, bson.E{Key: "fixedBuckets", Value: true})
	}
	return stageSpec("$_internalUnpackBucket", body)
}

func (s *unpackBucketStage) open(in Iterator, rt *runtime) (Iterator, error) {
	var pending []bson.D
	// whole: the bucket matched wholeBucketFilter, so every measurement
	// of it matches the event filter.
	whole := false
	return funcIterator(func() (bson.D, bool, error) {
		for {
			for len(pending) > 0 {
				m := pending[0]
				pending = pending[1:]
				if s.filter == nil || whole || s.filter.Matches(m) {
					return m, true, nil
				}
			}
			if err := rt.ctx.err(); err != nil {
				return nil, false, err
			}
			b, ok, err := in.Next()
			if err != nil || !ok {
				return nil, false, err
			}
			if err := s.checkBucket(b); err != nil {
				return nil, false, err
			}
			whole = s.wholeBucket != nil && s.wholeBucket.Matches(b)
			pending = timeseries.Unpack(b, s.timeField, s.metaField)
			for i, m := range pending {
				pending[i] = s.withComputedMeta(s.fields.project(m), b)
			}
			if len(pending) == 0 {
				return nil, false, mongoerr.Newf(5346509, "A bucket with _id %s contains an empty data region", value.FormatElem("_id", value.Get(b, "_id")))
			}
		}
	}), nil
}

// withComputedMeta adds the bucket's computedMetaProjFields to a
// measurement (BucketUnpacker::getNext), last; one the bucket lacks stays
// missing.
func (s *unpackBucketStage) withComputedMeta(m, bucket bson.D) bson.D {
	for _, name := range s.computedMeta {
		v := value.Get(bucket, name)
		if value.IsMissing(v) {
			continue
		}
		m = withField(m, name, v)
	}
	return m
}

// checkBucket is BucketUnpacker::reset's refusal of a document that is no
// bucket of this stage's collection (bucket_unpacker.cpp): a client may
// unpack any collection, so each bucket is checked before it is read.
func (s *unpackBucketStage) checkBucket(b bson.D) error {
	if len(b) == 0 {
		return mongoerr.New(5346510, "An empty bucket cannot be unpacked")
	}
	raw := value.Get(b, "data")
	data, ok := raw.(bson.D)
	if arr, isArray := raw.(bson.A); isArray {
		// Obj() takes an array as the object of its positions.
		data, ok = value.ArrayAsDoc(arr), true
	}
	if !ok {
		name := "data"
		if value.IsMissing(raw) {
			// BSONElement::Obj() of a missing field names no field.
			name = ""
		}
		return mongoerr.Newf(10065, "invalid parameter: expected an object (%s)", name)
	}
	if len(data) == 0 {
		return nil
	}
	if value.IsMissing(value.Get(data, s.timeField)) {
		return mongoerr.New(5346700, "The $_internalUnpackBucket stage requires the data region to have a timeField object")
	}
	meta := value.Get(b, "meta")
	if s.metaField != "" {
		if _, undef := meta.(bson.Undefined); undef {
			return mongoerr.New(5369600, "The $_internalUnpackBucket stage allows metadata to be absent or otherwise, it must not be the deprecated undefined bson type")
		}
	} else if !value.IsMissing(meta) {
		return mongoerr.New(5369601, "The $_internalUnpackBucket stage expects buckets to have missing metadata regions if the metaField parameter is not provided")
	}
	control, ok := value.Get(b, "control").(bson.D)
	if !ok {
		return mongoerr.New(5857902, "The $_internalUnpackBucket stage requires 'control' object to be present")
	}
	version := value.Get(control, "version")
	if !value.IsNumber(version) {
		return mongoerr.New(5857903, "The $_internalUnpackBucket stage requires 'control.version' field to be present")
	}
	if v := value.ToDouble(version); v != 1 && v != 2 {
		return mongoerr.New(5857900, "Invalid bucket version")
	}
	return nil
}

// parseUnpackBucketExternal is $_unpackBucket, the form of the stage a
// client may send over a collection of buckets, as
// DocumentSourceInternalUnpackBucket::createFromBsonExternal
// (document_source_internal_unpack_bucket.cpp) reads it: timeField,
// metaField and assumeNoMixedSchemaData only, and the bucket span of the
// "seconds" granularity.
func parseUnpackBucketExternal(spec any, _ *parser) ([]Stage, error) {
	const name = "$_unpackBucket"
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalNotObject, "%s specification must be an object, got: %s", name, typeNameOf(spec))
	}
	s := &unpackBucketStage{spanSeconds: timeseries.MaxSpanSeconds("seconds")}
	hasTimeField := false
	for _, e := range d {
		switch e.Key {
		case "timeField":
			t, isStr := e.Value.(string)
			if !isStr {
				return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalTimeField, "timeField field must be a string, got: %s", typeNameOf(e.Value))
			}
			s.timeField, hasTimeField = t, true
		case "metaField":
			meta, isStr := e.Value.(string)
			if !isStr {
				return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalMetaField, "metaField field must be a string, got: %s", typeNameOf(e.Value))
			}
			if strings.Contains(meta, ".") {
				return nil, mongoerr.New(mongoerr.ErrUnpackBucketExternalMetaPath, "metaField field must be a single-element field path")
			}
			s.metaField = meta
		case "assumeNoMixedSchemaData":
			clean, isBool := e.Value.(bool)
			if !isBool {
				return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalAssumeClean, "assumeClean field must be a bool, got: %s", typeNameOf(e.Value))
			}
			s.assumeClean = clean
		default:
			return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalUnknown, "unrecognized parameter to %s: %s", name, e.Key)
		}
	}
	if !hasTimeField {
		return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketExternalNoTimeField, "The %s stage requires a timeField parameter", name)
	}
	return []Stage{s}, nil
}

// optimizeUnpacking makes the rewrites mongod's optimizer makes around a
// time-series unpacking (DocumentSourceInternalUnpackBucket::doOptimizeAt),
// in its order: a $group the buckets answer replaces the unpacking
// (bucket_group.go); a last-point query gets a $sort and a $group of the
// buckets before it (lastpoint.go); an exclusion of the metaField moves
// before it, the unpacking then builds only the fields read after it
// (unpack_fields.go), and a $limit right after it limits the buckets too.
func optimizeUnpacking(stages []Stage, p *parser) []Stage {
	stages = absorbMatch(stages, p)
	stages = rewriteBucketGroup(stages, p)
	stages = rewriteLastpoint(stages, p)
	stages = pushMetaExclusion(stages, p)
	stages = internalizeUnpackFields(stages)
	return streamGroups(pushLimitAboveUnpack(stages))
}

// pushLimitAboveUnpack copies a $limit that follows an unpacking with no
// filter on the measurements to before it (doOptimizeAt's limit
// pushdown): each bucket holds one measurement or more, so the query
// need read no more buckets than the limit. A $limit already there (a
// metaField sort hoisted with its limit) is left alone.
func pushLimitAboveUnpack(stages []Stage) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		u, ok := stages[i].(*unpackBucketStage)
		if !ok || u.filter != nil {
			continue
		}
		l, ok := stages[i+1].(*limitStage)
		if _, limited := stageAt(stages, i-1).(*limitStage); !ok || limited {
			continue
		}
		stages = slices.Insert(stages, i, Stage(&limitStage{n: l.n}))
		i++
	}
	return stages
}

// absorbMatch is doOptimizeAt's mapping of a $match right after the
// unpacking onto the buckets (timeseries.Options.Pushdown): the
// predicates on the metaField alone, and the loose bucket predicates of
// the rest, go to a $match before the unpacking, which the query then
// answers; the rest becomes (or joins) the unpacking's eventFilter, and
// the tight predicates its wholeBucketFilter. A read whose leading $match
// its command moved already arrives so; this takes the $match the
// optimizer moved up to the unpacking past other stages. A $sort on the
// metaField that went before the unpacking does not stop it: the bucket
// $match goes before that sort, which a $match may always pass (mongod
// swaps them after inserting it between the two).
func absorbMatch(stages []Stage, p *parser) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		u, ok := stages[i].(*unpackBucketStage)
		if !ok {
			continue
		}
		m, ok := stages[i+1].(*matchStage)
		at := i
		for at > 0 && isSort(stages[at-1]) {
			at--
		}
		if !ok || slices.ContainsFunc(stages[:at], func(s Stage) bool { _, isMatch := s.(*matchStage); return !isMatch }) {
			continue
		}
		filter := m.filter
		if u.eventFilter != nil {
			filter = bson.D{{Key: "$and", Value: bson.A{u.eventFilter, filter}}}
		}
		o := timeseries.Options{TimeField: u.timeField, MetaField: u.metaField,
			BucketMaxSpanSeconds: int64(u.spanSeconds), BucketRoundingSeconds: int64(u.spanSeconds)}
		pd := o.Pushdown(filter, timeseries.BucketState{MixedSchema: !u.assumeClean, ExtendedRange: u.extendedRange, FixedBuckets: u.fixedBuckets})
		opts := query.Options{Now: p.ctx.Now, LetVars: p.letVals}
		event, whole := (*query.Filter)(nil), (*query.Filter)(nil)
		var err error
		if pd.Event != nil {
			if event, err = query.Compile(pd.Event, opts); err != nil {
				continue
			}
		}
		if pd.WholeBucket != nil {
			if whole, err = query.Compile(pd.WholeBucket, opts); err != nil {
				continue
			}
		}
		var before *matchStage
		if pd.Buckets != nil {
			if before, err = newMatch(pd.Buckets, p); err != nil {
				continue
			}
		}
		u.eventFilter, u.filter, u.wholeBucket = pd.Event, event, whole
		stages = slices.Delete(stages, i+1, i+2)
		if before == nil {
			continue
		}
		if at > 0 {
			stages[at-1] = stages[at-1].(*matchStage).merged(before)
			continue
		}
		stages = slices.Insert(stages, at, Stage(before))
		i++
	}
	return stages
}

func isSort(s Stage) bool {
	_, ok := s.(*sortStage)
	return ok
}
