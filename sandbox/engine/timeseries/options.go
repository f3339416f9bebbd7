// Package timeseries holds time-series collections as mongod 8.0 builds
// them: the timeseries options and their validation, the bucketing rules
// that group measurements into system.buckets documents, the bucket
// document shape, unpacking buckets back into measurements, the rewrite of
// a measurement predicate into a bucket predicate, and the statistics
// collStats reports.
//
// Out of scope, on purpose: mongod 8.0 writes compressed buckets (control
// version 2, data columns as BSONColumn binaries). The sandbox stores
// uncompressed buckets, control version 1, with each data column a
// document keyed "0", "1", ... — a shape mongod also reads and writes for
// uncompressed buckets. Sizes are therefore the uncompressed bucket BSON,
// which the storage model (storagestats) then compresses with snappy like
// any other collection file.
package timeseries

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Granularities and their bucketing (getMaxSpanSecondsFromGranularity,
// getBucketRoundingSecondsFromGranularity).
var granularities = map[string]struct{ span, rounding int64 }{
	"seconds": {60 * 60, 60},
	"minutes": {60 * 60 * 24, 60 * 60},
	"hours":   {60 * 60 * 24 * 30, 60 * 60 * 24},
}

// MaxSpanSeconds is getMaxSpanSecondsFromGranularity: the bucket span of
// a granularity ("seconds", "minutes" or "hours").
func MaxSpanSeconds(granularity string) int32 { return int32(granularities[granularity].span) }

// Bucketing limits (timeseries.idl server parameters, bucket.h).
const (
	BucketMaxCount = 1000       // timeseriesBucketMaxCount
	BucketMaxSize  = 125 * 1024 // timeseriesBucketMaxSize: 128000 bytes
	BucketMinCount = 10         // timeseriesBucketMinCount
	// LargeMeasurementsMaxBucketSize is Bucket::kLargeMeasurementsMaxBucketSize:
	// a bucket kept open for large measurements stops at 12 MB.
	LargeMeasurementsMaxBucketSize = value.MaxUserDocumentSize - 4*1024*1024
	// maxBucketingSeconds is the largest bucketMaxSpanSeconds and
	// bucketRoundingSeconds accepted: one year.
	maxBucketingSeconds = 86400 * 365
)

// Options are a collection's timeseries options after
// validateAndSetBucketingParameters.
type Options struct {
	TimeField   string
	MetaField   string // "" when there is none
	Granularity string // "" when custom bucketing seconds were given
	// BucketMaxSpanSeconds and BucketRoundingSeconds are always set.
	BucketMaxSpanSeconds  int64
	BucketRoundingSeconds int64
}

// Parse reads the create command's timeseries option with the IDL
// parser's errors and mongod's checks of the fields, then fills in the
// bucketing defaults as validateAndSetBucketingParameters does. ns is the
// view's namespace for the messages that name it.
func Parse(v any, ns string) (Options, error) {
	var o Options
	spec, ok := v.(bson.D)
	if !ok {
		return o, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'create.timeseries' is the wrong type '%s', expected type 'object'", value.TypeName(v))
	}
	var hasSpan, hasRounding, hasTime, hasEmptyMeta bool
	for _, e := range spec {
		field := "create.timeseries." + e.Key
		switch e.Key {
		case "timeField", "metaField":
			s, err := stringField(field, e.Value)
			if err != nil {
				return o, err
			}
			if e.Key == "timeField" {
				o.TimeField, hasTime = s, true
			} else {
				o.MetaField, hasEmptyMeta = s, s == ""
			}
		case "granularity":
			g, err := granularityField(field, e.Value)
			if err != nil {
				return o, err
			}
			o.Granularity = g
		case "bucketMaxSpanSeconds", "bucketRoundingSeconds":
			n, err := bucketingSeconds(field, e)
			if err != nil {
				return o, err
			}
			if e.Key == "bucketMaxSpanSeconds" {
				o.BucketMaxSpanSeconds, hasSpan = n, true
			} else {
				o.BucketRoundingSeconds, hasRounding = n, true
			}
		default:
			return o, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field 'create.timeseries.%s' is an unknown field.", e.Key)
		}
	}
	if !hasTime {
		return o, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'create.timeseries.timeField' is missing but a required field")
	}
	if hasEmptyMeta {
		// mongod takes "" as a metaField, whose values every path-based
		// stage then fails to reach; the sandbox's options read "" as no
		// metaField, so it refuses rather than drop it.
		return o, mongoerr.New(mongoerr.NotImplemented, `a time-series metaField of "" is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it`)
	}
	mustBeTopLevel := func(field string) error {
		return mongoerr.Newf(mongoerr.InvalidOptions, "%s: '%s' must be a top-level field and not contain a '.'", ns, field)
	}
	if strings.Contains(o.TimeField, ".") {
		return o, mustBeTopLevel("timeField")
	}
	if o.MetaField != "" {
		switch {
		case o.MetaField == "_id":
			return o, mongoerr.New(mongoerr.InvalidOptions, `'metaField' cannot be "_id"`)
		case o.MetaField == o.TimeField:
			return o, mongoerr.New(mongoerr.InvalidOptions, "'metaField' cannot be the same as 'timeField'")
		case strings.Contains(o.MetaField, "."):
			return o, mustBeTopLevel("metaField")
		}
	}
	return o, o.setBucketing(hasSpan, hasRounding)
}

// setBucketing is 8.0's validateAndSetBucketingParameters: a granularity
// takes at most its own span and never a rounding, even the one it
// implies; without one, the span and the rounding come as an equal pair
// (one alone differs from the missing other, held as 0).
func (o *Options) setBucketing(hasSpan, hasRounding bool) error {
	g := o.Granularity
	if g == "" {
		g = "seconds"
	}
	def := granularities[g]
	if o.Granularity != "" {
		if hasSpan && o.BucketMaxSpanSeconds != def.span {
			return mongoerr.Newf(mongoerr.InvalidOptions, "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of %d for the provided granularity", def.span)
		}
		if hasRounding {
			return mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketRoundingSeconds' is not configurable alongside the granularity parameter")
		}
		o.BucketMaxSpanSeconds, o.BucketRoundingSeconds = def.span, def.rounding
		return nil
	}
	if o.BucketRoundingSeconds != o.BucketMaxSpanSeconds {
		return mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'")
	}
	if !hasSpan {
		o.Granularity = "seconds"
		o.BucketMaxSpanSeconds, o.BucketRoundingSeconds = def.span, def.rounding
	}
	return nil
}

func safeInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	}
	return 0, false
}

// Document is the timeseries option as listCollections shows it on the
// view and on the buckets collection: with a granularity, the rounding it
// implies is not listed.
func (o Options) Document() bson.D {
	d := bson.D{{Key: "timeField", Value: o.TimeField}}
	if o.MetaField != "" {
		d = append(d, bson.E{Key: "metaField", Value: o.MetaField})
	}
	if o.Granularity != "" {
		d = append(d, bson.E{Key: "granularity", Value: o.Granularity})
	} else {
		d = append(d, bson.E{Key: "bucketRoundingSeconds", Value: int32(o.BucketRoundingSeconds)})
	}
	return append(d, bson.E{Key: "bucketMaxSpanSeconds", Value: int32(o.BucketMaxSpanSeconds)})
}

// FromDocument reads options back from Document's form.
func FromDocument(d bson.D) Options {
	o := Options{}
	o.TimeField, _ = value.Get(d, "timeField").(string)
	o.MetaField, _ = value.Get(d, "metaField").(string)
	o.Granularity, _ = value.Get(d, "granularity").(string)
	span, _ := safeInt(value.Get(d, "bucketMaxSpanSeconds"))
	o.BucketMaxSpanSeconds = span
	if r, ok := safeInt(value.Get(d, "bucketRoundingSeconds")); ok {
		o.BucketRoundingSeconds = r
	} else {
		o.BucketRoundingSeconds = granularities[o.Granularity].rounding
	}
	return o
}

// BucketMetaPath is field's path in a bucket document when field is the
// metaField or below it ("meta", "meta.<rest>"); ok is false otherwise.
func (o Options) BucketMetaPath(field string) (path string, ok bool) {
	if o.MetaField == "" || (field != o.MetaField && !strings.HasPrefix(field, o.MetaField+".")) {
		return "", false
	}
	return "meta" + strings.TrimPrefix(field, o.MetaField), true
}

// UnpackSpec is the $_internalUnpackBucket specification of the view
// (generateViewPipeline).
func (o Options) UnpackSpec() bson.D {
	d := bson.D{{Key: "timeField", Value: o.TimeField}}
	if o.MetaField != "" {
		d = append(d, bson.E{Key: "metaField", Value: o.MetaField})
	}
	return append(d, bson.E{Key: "bucketMaxSpanSeconds", Value: int32(o.BucketMaxSpanSeconds)})
}

// FixedBuckets is areTimeseriesBucketsFixed for options that never
// changed: custom bucketing whose rounding is the span, so that every
// bucket starts at a multiple of the span.
func (o Options) FixedBuckets() bool {
	return o.Granularity == "" && o.BucketMaxSpanSeconds == o.BucketRoundingSeconds
}

// OutsideStandardRange is dateOutsideStandardRange: a time before 1970
// or past 2^31-1 seconds, which a bucket's ObjectId cannot hold.
func OutsideStandardRange(t bson.DateTime) bool {
	secs := int64(t) / 1000
	return secs < 0 || secs > 1<<31-1
}

// RoundTime is roundTimestampToGranularity: a bucket's minimum time. Its
// seconds and remainder truncate toward zero, as C++'s do, so times before
// 1970 round up to the rounding boundary.
func (o Options) RoundTime(t bson.DateTime) bson.DateTime {
	secs := int64(t) / 1000
	secs -= secs % o.BucketRoundingSeconds
	return bson.DateTime(secs * 1000)
}

// stringField reads an IDL string field (field is its path).
func stringField(field string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s' is the wrong type '%s', expected type 'string'", field, value.TypeName(v))
	}
	return s, nil
}

// granularityField reads the granularity enumeration (field is its path).
func granularityField(field string, v any) (string, error) {
	s, err := stringField(field, v)
	if err != nil {
		return "", err
	}
	if _, known := granularities[s]; !known {
		return "", mongoerr.Newf(mongoerr.BadValue, "Enumeration value '%s' for field '%s' is not a valid value.", s, field)
	}
	return s, nil
}

// bucketingSeconds reads bucketMaxSpanSeconds or bucketRoundingSeconds
// (field is its path) as the IDL does: a whole number, from 1 second to
// one year (the validator's comparison errors).
func bucketingSeconds(field string, e bson.E) (int64, error) {
	n, isInt := safeInt(e.Value)
	if !isInt {
		return 0, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s' is the wrong type '%s', expected types '[long, int, decimal, double']", field, value.TypeName(e.Value))
	}
	if n < 1 {
		return 0, mongoerr.Newf(51024, "BSON field '%s' value must be >= 1, actual value '%d'", e.Key, n)
	}
	if n > maxBucketingSeconds {
		return 0, mongoerr.Newf(51024, "BSON field '%s' value must be <= %d, actual value '%d'", e.Key, maxBucketingSeconds, n)
	}
	return n, nil
}

// Modification is collMod's timeseries option (CollModTimeseries), as
// parsed: each field is zero when absent.
type Modification struct {
	Granularity    string
	Span, Rounding int64
}

// ParseModification reads collMod's timeseries option with the IDL
// parser's errors.
func ParseModification(mod bson.D) (Modification, error) {
	var m Modification
	for _, e := range mod {
		field := "collMod.timeseries." + e.Key
		switch e.Key {
		case "granularity":
			g, err := granularityField(field, e.Value)
			if err != nil {
				return m, err
			}
			m.Granularity = g
		case "bucketMaxSpanSeconds", "bucketRoundingSeconds":
			n, err := bucketingSeconds(field, e)
			if err != nil {
				return m, err
			}
			if e.Key == "bucketMaxSpanSeconds" {
				m.Span = n
			} else {
				m.Rounding = n
			}
		default:
			return m, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '%s' is an unknown field.", field)
		}
	}
	return m, nil
}

// Modify applies collMod's timeseries option as
// applyTimeseriesOptionsModifications does (timeseries_options.cpp,
// isTimeseriesGranularityValidAndUnchanged): a granularity only rises
// (seconds to minutes to hours) and takes its default span; custom
// bucketing seconds come as an equal pair that is no smaller than the
// span and rounding in force, and drop the granularity. changed is false
// for an empty option and for one that restates what is in force.
func (o Options) Modify(m Modification) (next Options, changed bool, err error) {
	granularity, span, rounding := m.Granularity, m.Span, m.Rounding
	if granularity == "" && span == 0 && rounding == 0 {
		return o, false, nil
	}
	var targetSpan, targetRounding int64
	if granularity != "" {
		def := granularities[granularity]
		if span != 0 && span != def.span {
			return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default for the provided granularity")
		}
		if rounding != 0 {
			return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketRoundingSeconds' is not configurable alongside the granularity parameter")
		}
		if o.Granularity != "" {
			if o.Granularity == granularity {
				return o, false, nil
			}
			if o.Granularity == "hours" || (o.Granularity == "minutes" && granularity != "hours") {
				return o, false, mongoerr.New(mongoerr.InvalidOptions, "Invalid transition for timeseries.granularity. Can only transition from 'seconds' to 'minutes' or 'minutes' to 'hours'.")
			}
			o.Granularity, o.BucketMaxSpanSeconds, o.BucketRoundingSeconds = granularity, def.span, def.rounding
			return o, true, nil
		}
		targetSpan, targetRounding = def.span, def.rounding
	} else {
		if span == 0 || rounding == 0 {
			return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other")
		}
		if span != rounding {
			return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'")
		}
		targetSpan, targetRounding = span, rounding
	}
	if o.BucketMaxSpanSeconds == targetSpan && o.BucketRoundingSeconds == targetRounding {
		return o, false, nil
	}
	if o.BucketMaxSpanSeconds > targetSpan {
		return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketMaxSpanSeconds' needs to be equal or greater to transition")
	}
	if o.BucketRoundingSeconds > targetRounding {
		return o, false, mongoerr.New(mongoerr.InvalidOptions, "Timeseries 'bucketRoundingSeconds' needs to be equal or greater to transition")
	}
	o.Granularity, o.BucketMaxSpanSeconds, o.BucketRoundingSeconds = granularity, targetSpan, targetRounding
	return o, true, nil
}

// ErrTarget refuses $merge into a time-series collection, which would
// need the bucket catalog behind the stage.
func ErrTarget(stage string) error {
	return mongoerr.Newf(mongoerr.NotImplemented, "%s into a time-series collection is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", stage)
}
