package timeseries

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BucketFilter rewrites a measurement filter into a predicate on bucket
// documents that keeps every bucket that may hold a matching measurement
// (mongod's predicate pushdown for $_internalUnpackBucket): metaField
// predicates become predicates on "meta", and time comparisons become
// bounds on control.min/control.max of the time field, widened by
// bucketMaxSpanSeconds since every measurement of a bucket lies within
// that span of its minimum time. Predicates on other fields are left to
// the event filter. It returns nil when nothing can be pushed down.
func BucketFilter(filter bson.D, o Options) bson.D {
	var clauses bson.A
	var walk func(d bson.D)
	walk = func(d bson.D) {
		for _, e := range d {
			switch {
			case e.Key == "$and":
				if arr, ok := e.Value.(bson.A); ok {
					for _, sub := range arr {
						if sd, ok := sub.(bson.D); ok {
							walk(sd)
						}
					}
				}
			case isMetaPath(o, e.Key):
				path, _ := o.BucketMetaPath(e.Key)
				clauses = append(clauses, bson.D{{Key: path, Value: e.Value}})
			case e.Key == o.TimeField:
				clauses = append(clauses, o.timeBounds(e.Value)...)
			}
		}
	}
	walk(filter)
	if len(clauses) == 0 {
		return nil
	}
	if len(clauses) == 1 {
		return clauses[0].(bson.D)
	}
	return bson.D{{Key: "$and", Value: clauses}}
}

// timeBounds turns comparisons of the time field with dates into bucket
// bounds.
func (o Options) timeBounds(v any) bson.A {
	ops, ok := v.(bson.D)
	if !ok || len(ops) == 0 || !strings.HasPrefix(ops[0].Key, "$") {
		if t, isDate := v.(bson.DateTime); isDate {
			ops = bson.D{{Key: "$eq", Value: t}}
		} else {
			return nil
		}
	}
	minPath, maxPath := "control.min."+o.TimeField, "control.max."+o.TimeField
	span := o.BucketMaxSpanSeconds * 1000
	clause := func(path, op string, t int64) bson.D {
		return bson.D{{Key: path, Value: bson.D{{Key: op, Value: bson.DateTime(t)}}}}
	}
	// A bucket whose times start before 1970 has a control.min rounded
	// up, toward zero (RoundTime), by up to the rounding plus a second:
	// an upper bound on control.min near or before 1970 allows for it, or
	// it would skip buckets holding matches (mongod switches to its
	// extended-range predicates for such collections).
	slack := (o.BucketRoundingSeconds + 1) * 1000
	minAtMost := func(ms int64) int64 {
		if ms < slack {
			return ms + slack
		}
		return ms
	}
	var out bson.A
	for _, op := range ops {
		t, isDate := op.Value.(bson.DateTime)
		if !isDate {
			continue
		}
		ms := int64(t)
		switch op.Key {
		case "$gte", "$gt":
			out = append(out, clause(maxPath, op.Key, ms), clause(minPath, op.Key, ms-span))
		case "$lte", "$lt":
			out = append(out, clause(minPath, op.Key, minAtMost(ms)), clause(maxPath, op.Key, ms+span))
		case "$eq":
			out = append(out, clause(minPath, "$lte", minAtMost(ms)), clause(maxPath, "$gte", ms),
				clause(minPath, "$gte", ms-span), clause(maxPath, "$lte", ms+span))
		}
	}
	return out
}

// EventFilter is what remains of a measurement filter for
// $_internalUnpackBucket once the predicates on the metaField alone have
// moved before it, onto the buckets (splitMatchOnMetaAndRename); nil when
// nothing remains.
func EventFilter(filter bson.D, o Options) bson.D {
	var rest bson.D
	for _, e := range filter {
		if isMetaPath(o, e.Key) {
			continue
		}
		if e.Key == "$and" {
			if arr, ok := e.Value.(bson.A); ok {
				var kept bson.A
				for _, sub := range arr {
					if sd, ok := sub.(bson.D); ok && len(sd) == 1 && isMetaPath(o, sd[0].Key) {
						continue
					}
					kept = append(kept, sub)
				}
				if len(kept) == 0 {
					continue
				}
				e = bson.E{Key: "$and", Value: kept}
			}
		}
		rest = append(rest, e)
	}
	return rest
}

// isMetaPath reports whether field is the metaField or below it.
func isMetaPath(o Options, field string) bool {
	_, ok := o.BucketMetaPath(field)
	return ok
}
