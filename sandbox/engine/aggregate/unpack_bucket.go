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
	// boundTime is "min" or "max" when a bounded sort reads the bucket's
	// minimum or maximum time, which explain then shows the unpacking
	// carries as metadata (includeMinTimeAsMetadata).
	boundTime string
}

func parseUnpackBucket(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNotObject, "$_internalUnpackBucket specification must be an object, got: "+typeNameOf(spec))
	}
	s := &unpackBucketStage{}
	for _, e := range d {
		switch e.Key {
		case "timeField":
			s.timeField, _ = e.Value.(string)
		case "metaField":
			s.metaField, _ = e.Value.(string)
		case "bucketMaxSpanSeconds":
			switch n := e.Value.(type) {
			case int32:
				s.spanSeconds = n
			case int64:
				s.spanSeconds = int32(n)
			}
		case "eventFilter":
			f, isDoc := e.Value.(bson.D)
			if !isDoc {
				return nil, mongoerr.New(mongoerr.TypeMismatch, "eventFilter must be an object")
			}
			m, err := query.Compile(f, query.Options{Now: p.ctx.Now, LetVars: p.letVals})
			if err != nil {
				return nil, err
			}
			s.eventFilter, s.filter = f, m
		case "assumeNoMixedSchemaData":
			s.assumeClean, _ = e.Value.(bool)
		case "usesExtendedRange":
			s.extendedRange, _ = e.Value.(bool)
		case "fixedBuckets":
			s.fixedBuckets, _ = e.Value.(bool)
		case "exclude", "include":
			if s.fieldsGiven {
				return nil, mongoerr.New(5408000, "The $_internalUnpackBucket stage expects at most one of include/exclude parameters to be specified")
			}
			names, err := unpackFieldList(e.Value)
			if err != nil {
				return nil, err
			}
			s.fields, s.fieldsGiven = unpackFields{include: e.Key == "include", names: names}, true
		default:
			return nil, mongoerr.Newf(mongoerr.ErrUnpackBucketUnknownParameter, "unrecognized parameter to $_internalUnpackBucket: %s", e.Key)
		}
	}
	if s.timeField == "" {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNoTimeField, "The $_internalUnpackBucket stage requires a timeField parameter")
	}
	if s.spanSeconds == 0 {
		return nil, mongoerr.New(mongoerr.ErrUnpackBucketNoMaxSpan, "The $_internalUnpackBucket stage requires a bucketMaxSpanSeconds parameter")
	}
	return []Stage{s}, nil
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
	switch s.boundTime {
	case "min":
		body = append(body, bson.E{Key: "includeMinTimeAsMetadata", Value: true})
	case "max":
		body = append(body, bson.E{Key: "includeMaxTimeAsMetadata", Value: true})
	}
	if s.filter != nil {
		body = append(body, bson.E{Key: "eventFilter", Value: s.filter.Serialize()})
	}
	if s.fixedBuckets {
		body = append(body, bson.E{Key: "fixedBuckets", Value: true})
	}
	return stageSpec("$_internalUnpackBucket", body)
}

func (s *unpackBucketStage) open(in Iterator, rt *runtime) (Iterator, error) {
	var pending []bson.D
	return funcIterator(func() (bson.D, bool, error) {
		for {
			for len(pending) > 0 {
				m := pending[0]
				pending = pending[1:]
				if s.filter == nil || s.filter.Matches(m) {
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
			pending = timeseries.Unpack(b, s.timeField, s.metaField)
			for i, m := range pending {
				pending[i] = s.fields.project(m)
			}
			if len(pending) == 0 {
				return nil, false, mongoerr.Newf(5346509, "A bucket with _id %s contains an empty data region", value.FormatElem("_id", value.Get(b, "_id")))
			}
		}
	}), nil
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
// (bucket_group.go); an exclusion of the metaField moves before it, the
// unpacking then builds only the fields read after it
// (unpack_fields.go), and a $limit right after it limits the buckets too.
func optimizeUnpacking(stages []Stage, p *parser) []Stage {
	stages = rewriteBucketGroup(stages, p)
	stages = pushMetaExclusion(stages, p)
	stages = internalizeUnpackFields(stages)
	return pushLimitAboveUnpack(stages)
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
