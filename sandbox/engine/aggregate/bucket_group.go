package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A $group right after the unpacking of a time-series collection's
// buckets, with no filter on the measurements, is rewritten to group the
// buckets themselves when the bucket documents already hold what it
// computes (DocumentSourceInternalUnpackBucket::rewriteGroupStage,
// document_source_internal_unpack_bucket.cpp, MongoDB 7.1 and later):
//
//   - each part of its _id is a constant, an expression that reads only
//     the metaField (read as the bucket's "meta"), or, when the buckets
//     are fixed, a $dateTrunc of the time field whose unit aligns with
//     the bucket boundaries (read from control.min of the time);
//   - each accumulator is a $min or $max of a field path (the meta, or
//     the buckets' control.min and control.max; not a $min of the time,
//     whose control.min is rounded down), or {$sum: 1} and $count, which
//     add up each bucket's count.
//
// The unpacking then goes, and explain shows the $group on the buckets.

// rewriteBucketGroup replaces an unpacking followed by a $group that the
// buckets can answer with the $group on the buckets.
func rewriteBucketGroup(stages []Stage, p *parser) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		unpack, ok := stages[i].(*unpackBucketStage)
		if !ok || unpack.filter != nil {
			continue
		}
		g, ok := stages[i+1].(*groupStage)
		if !ok {
			continue
		}
		spec, ok := unpack.bucketGroupSpec(g, p)
		if !ok {
			continue
		}
		bucketGroup, err := parseGroup(spec, p)
		if err != nil {
			continue
		}
		out := append(stages[:i:i], bucketGroup)
		return append(out, stages[i+2:]...)
	}
	return stages
}

// bucketGroupSpec is g as a $group of the buckets, when it can be one.
func (s *unpackBucketStage) bucketGroupSpec(g *groupStage, p *parser) (bson.D, bool) {
	id, ok := s.bucketGroupID(g.idSpec, p)
	if !ok {
		return nil, false
	}
	spec := bson.D{{Key: "_id", Value: id}}
	for _, a := range g.accs {
		acc, ok := s.bucketAccumulator(a, p)
		if !ok {
			return nil, false
		}
		spec = append(spec, bson.E{Key: a.field, Value: acc})
	}
	return spec, true
}

// bucketGroupID is rewriteGroupByField: an _id object's fields are
// rewritten one by one, any other _id as one expression.
func (s *unpackBucketStage) bucketGroupID(id any, p *parser) (any, bool) {
	d, isDoc := id.(bson.D)
	if !isDoc || len(d) == 0 || strings.HasPrefix(d[0].Key, "$") {
		return s.bucketGroupKey(id, p)
	}
	out := make(bson.D, 0, len(d))
	for _, f := range d {
		v, ok := s.bucketGroupKey(f.Value, p)
		if !ok {
			return nil, false
		}
		out = append(out, bson.E{Key: f.Key, Value: v})
	}
	return out, true
}

// bucketGroupKey is rewriteGroupByElement.
func (s *unpackBucketStage) bucketGroupKey(spec any, p *parser) (any, bool) {
	if x, err := p.compile(spec); err == nil {
		if _, constant := expr.IsConstant(x); constant {
			return spec, true
		}
	}
	if deps := expr.Dependencies(spec); !deps.Whole {
		onMeta := true
		for _, path := range deps.Paths {
			first, _, _ := strings.Cut(path, ".")
			onMeta = onMeta && s.metaField != "" && first == s.metaField
		}
		if onMeta {
			return query.RenameFieldPaths(spec, map[string]string{s.metaField: "meta"}), true
		}
	}
	if s.fixedBuckets && !s.extendedRange {
		return s.bucketDateTrunc(spec, p)
	}
	return nil, false
}

// bucketDateTrunc is handleDateTruncRewrite: a $dateTrunc of the time
// field gives the same value for every measurement of a fixed bucket when
// its unit (times binSize) is a multiple of the bucket span, the span is
// at most a day, and a timezone, if any, is offset from UTC by whole
// spans of at most an hour (its offset now, for a zone with daylight
// saving). It then truncates the bucket's control.min of the time.
func (s *unpackBucketStage) bucketDateTrunc(spec any, p *parser) (any, bool) {
	d, ok := spec.(bson.D)
	if !ok || len(d) != 1 || d[0].Key != "$dateTrunc" || s.spanSeconds > 86400 {
		return nil, false
	}
	args, ok := d[0].Value.(bson.D)
	if !ok || !isPathTo(value.Get(args, "date"), s.timeField) {
		return nil, false
	}
	unit, ok := constantArg(value.Get(args, "unit"), p).(string)
	seconds, known := unitSeconds(unit)
	if !ok || !known {
		return nil, false
	}
	if binSize, given := argument(args, "binSize"); given {
		n, ok := value.SafeNumberLong(constantArg(binSize, p))
		if !ok {
			return nil, false
		}
		seconds *= n
	}
	if seconds%int64(s.spanSeconds) != 0 {
		return nil, false
	}
	if tz, given := argument(args, "timezone"); given {
		name, ok := constantArg(tz, p).(string)
		if !ok || s.spanSeconds > 3600 {
			return nil, false
		}
		loc, err := expr.ParseTimezone(name)
		if err != nil {
			return nil, false
		}
		_, offset := p.ctx.Now.Time().In(loc).Zone()
		if offset%int(s.spanSeconds) != 0 {
			return nil, false
		}
	}
	out := make(bson.D, 0, len(args))
	for _, a := range args {
		if a.Key == "date" {
			a.Value = "$control.min." + s.timeField
		}
		out = append(out, a)
	}
	return bson.D{{Key: "$dateTrunc", Value: out}}, true
}

// unitSeconds is timeUnitValueInSeconds, with a month as 30 days, a
// quarter as 90 and a year as 365. A millisecond is no unit a bucket
// boundary can align with.
func unitSeconds(unit string) (int64, bool) {
	switch unit {
	case "second":
		return 1, true
	case "minute":
		return 60, true
	case "hour":
		return 3600, true
	case "day":
		return 86400, true
	case "week":
		return 7 * 86400, true
	case "month":
		return 30 * 86400, true
	case "quarter":
		return 90 * 86400, true
	case "year":
		return 365 * 86400, true
	}
	return 0, false
}

// bucketAccumulator is rewriteMinMaxGroupAccm and rewriteCountGroupAccm.
func (s *unpackBucketStage) bucketAccumulator(a *accStatement, p *parser) (bson.D, bool) {
	switch a.op {
	case "$min", "$max":
		path, ok := fieldPath(a.spec)
		if !ok {
			return nil, false
		}
		first, rest, _ := strings.Cut(path, ".")
		switch {
		case s.metaField != "" && first == s.metaField:
			path = "meta" + strings.TrimPrefix(path, first)
		case a.op == "$min" && first == s.timeField:
			return nil, false
		case a.op == "$min":
			path = "control.min." + first + dotted(rest)
		default:
			path = "control.max." + first + dotted(rest)
		}
		return bson.D{{Key: a.op, Value: "$" + path}}, true
	case "$sum", "$count":
		// $count is {$sum: 1}; a $sum of any other value is not a count.
		if a.op == "$sum" {
			if n := constantArg(a.spec, p); !value.IsNumber(n) || value.Compare(n, int32(1)) != 0 {
				return nil, false
			}
		}
		// A compressed bucket (control version 2 and later) keeps its
		// count in control.count; an uncompressed one has as many
		// measurements as time values.
		count := bson.D{{Key: "$cond", Value: bson.A{
			bson.D{{Key: "$gte", Value: bson.A{"$control.version", bson.D{{Key: "$const", Value: int32(2)}}}}},
			"$control.count",
			bson.D{{Key: "$size", Value: bson.A{bson.D{{Key: "$objectToArray", Value: bson.A{"$data." + s.timeField}}}}}},
		}}}
		return bson.D{{Key: "$sum", Value: count}}, true
	}
	return nil, false
}

func dotted(rest string) string {
	if rest == "" {
		return ""
	}
	return "." + rest
}

// fieldPath is the document path a field path expression reads ("$a.b",
// "$$CURRENT.a.b" or "$$ROOT.a.b" read a.b); ok is false for anything
// else, the whole document included.
func fieldPath(spec any) (string, bool) {
	s, isString := spec.(string)
	if !isString {
		return "", false
	}
	path, ok := query.CurrentPath(s)
	return path, ok && path != ""
}

// isPathTo reports whether spec is the field path of field itself.
func isPathTo(spec any, field string) bool {
	path, ok := fieldPath(spec)
	return ok && path == field
}

// argument is a named argument and whether it was given.
func argument(args bson.D, name string) (any, bool) {
	for _, a := range args {
		if a.Key == name {
			return a.Value, true
		}
	}
	return nil, false
}

// constantArg is spec's value when it is a constant once optimized, nil
// otherwise.
func constantArg(spec any, p *parser) any {
	x, err := p.compile(spec)
	if err != nil {
		return nil
	}
	v, _ := expr.IsConstant(x)
	return v
}
