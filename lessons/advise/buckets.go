package advise

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const (
	bucketPage     = "https://www.mongodb.com/docs/manual/data-modeling/design-patterns/group-data/bucket-pattern/"
	timeSeriesPage = "https://www.mongodb.com/docs/manual/core/timeseries-collections/"
)

// The thresholds of the bucket detector (schemalab's; the manual says
// when the pattern fits, a series of measurements from one source, and
// that a time series collection applies it for you):
//   - bucketMinDocs: fewer documents are not "many";
//   - bucketSmallDoc: a median document this small is one measurement;
//   - presence: the share of documents a date, source or measurement
//     field must appear in;
//   - sourceShare: a source has at most this many distinct values per
//     document (1 %), so that each sends a series;
//   - minReduction: buckets must hold this many documents on average to
//     be worth it: fewer are a collection with dates, not a series;
//   - maxSourceCandidates bounds the fields tried as the source.
const (
	bucketMinDocs       = 1000
	bucketSmallDoc      = 2 << 10
	presence            = 0.9
	sourceShare         = 0.01
	minReduction        = 10
	maxSourceCandidates = 8
)

// bucketStats are the documents per (source, time unit).
type bucketStats struct {
	Buckets int64     `bson:"buckets"`
	Docs    int64     `bson:"docs"`
	P       []float64 `bson:"p"`
	Max     float64   `bson:"max"`
}

func (b bucketStats) perBucket() float64 {
	if b.Buckets == 0 {
		return 0
	}
	return float64(b.Docs) / float64(b.Buckets)
}

// buckets looks for many small documents, each a measurement at a date
// from one of a few sources: the bucket pattern's case.
func buckets(ctx context.Context, r reader, c *collection) ([]Finding, string, error) {
	if c.timeseries || c.analysed < bucketMinDocs || c.sizes.p50() > bucketSmallDoc {
		return nil, "", nil
	}
	var dates, numbers, sources []string
	for _, f := range c.fields {
		if f.name == "_id" || !referable(f.name) {
			continue
		}
		switch {
		case c.share(f, "date") >= presence:
			dates = append(dates, f.name)
		case c.share(f, "int", "long") >= presence:
			// A whole number may be a sensor's id or a measurement.
			numbers = append(numbers, f.name)
			sources = append(sources, f.name)
		case c.share(f, "double", "decimal", "int", "long") >= presence:
			numbers = append(numbers, f.name)
		case c.share(f, "string", "objectId") >= presence:
			sources = append(sources, f.name)
		}
	}
	if len(dates) == 0 || len(numbers) == 0 || len(sources) == 0 {
		return nil, "", nil
	}
	date := dates[0]
	source, distinct, err := pickSource(ctx, r, c, sources[:min(len(sources), maxSourceCandidates)], numbers)
	if err != nil || source == "" {
		return nil, "", err
	}
	span, err := window(ctx, r, c, date)
	if err != nil {
		return nil, "", err
	}
	hourly, err := perUnit(ctx, r, c, span, source, date, "hour")
	if err != nil {
		return nil, "", err
	}
	// The data's natural bucket: an hour, unless that holds too few
	// readings (a day) or too many to read as one (a minute).
	unit, st := "hour", hourly
	switch {
	case hourly.perBucket() < minReduction:
		unit = "day"
	case hourly.perBucket() > 1000:
		unit = "minute"
	}
	if unit != "hour" {
		if st, err = perUnit(ctx, r, c, span, source, date, unit); err != nil {
			return nil, "", err
		}
	}
	reduction := st.perBucket()
	if reduction < minReduction {
		return nil, "", nil
	}
	conf := Medium
	if reduction >= 5*minReduction {
		conf = High
	}
	// Over the whole collection: the same reduction, documents to buckets.
	after := int64(math.Ceil(float64(c.count) / reduction))
	keys := int64(len(c.indexes))
	figs := []Figure{
		{"documents", c.count}, {"source field", source}, {"distinct sources", distinct}, {"date field", date},
		{"measurements", numbers},
		{"documents per source per hour (p50)", at(hourly.P, 0)}, {"documents per source per hour (max)", hourly.Max},
		{"bucket unit", unit}, {"documents per bucket", round1(reduction)},
		{"documents after bucketing", after}, {"index keys before", keys * c.count}, {"index keys after", keys * after},
	}
	if span != nil {
		from, to := span.aligned(unit)
		figs = append(figs, Figure{"measured on every document from", from.Format(time.RFC3339)},
			Figure{"until", to.Format(time.RFC3339)})
	}
	return []Finding{{
		Pattern: PatternBucket, Collection: c.name, Field: date, Lesson: lessonBucket, Confidence: conf,
		Summary: fmt.Sprintf("Each %s sends a series of small readings (median %s per hour): a time series collection (timeField %q, metaField %q) buckets them for you; by hand, %s buckets would cut %s documents and %s index keys to %s and %s.",
			source, r.l.Figure(at(hourly.P, 0)), date, source, unit,
			r.l.Figure(float64(c.count)), r.l.Figure(float64(keys*c.count)), r.l.Figure(float64(after)), r.l.Figure(float64(keys*after))),
		Evidence: Evidence{Figures: figs, Reference: timeSeriesPage + " and " + bucketPage,
			Threshold: fmt.Sprintf("≥ %s documents of median ≤ %s, a date, numbers, a source with ≤ %g %% distinct values, and ≥ %d documents per bucket",
				r.l.Figure(bucketMinDocs), bytesText(r.l, bucketSmallDoc), sourceShare*100, minReduction)},
	}}, "", nil
}

// pickSource counts the distinct values of each candidate on the server
// and picks the one with the most that is still low-cardinality, and that
// leaves a measurement besides itself.
func pickSource(ctx context.Context, r reader, c *collection, candidates, numbers []string) (string, int64, error) {
	facets := bson.D{}
	for i, f := range candidates {
		facets = append(facets, bson.E{Key: fmt.Sprint("f", i), Value: bson.A{
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$" + f}}}}, bson.D{{Key: "$count", Value: "n"}},
		}})
	}
	var res map[string][]struct {
		N int64 `bson:"n"`
	}
	if err := r.one(ctx, c.name, append(slices.Clone(c.base), bson.D{{Key: "$facet", Value: facets}}), &res); err != nil {
		return "", 0, err
	}
	best, bestN := "", int64(0)
	for i, f := range candidates {
		var n int64
		if counts := res[fmt.Sprint("f", i)]; len(counts) > 0 {
			n = counts[0].N
		}
		if n < 2 || float64(n) > sourceShare*float64(c.analysed) || n <= bestN {
			continue
		}
		if len(numbers) == 1 && numbers[0] == f {
			continue
		}
		best, bestN = f, n
	}
	return best, bestN, nil
}

// timeSpan is a stretch of time [from, to).
type timeSpan struct{ from, to time.Time }

// window is, for a sampled collection, the dates around the sample's
// middle that hold about as many documents as the sample: counting per
// hour on a sample would thin every hour out, so the figures come from
// every document of a stretch of time instead. It is nil for a collection
// analysed whole.
func window(ctx context.Context, r reader, c *collection, date string) (*timeSpan, error) {
	if !c.sampled {
		return nil, nil
	}
	var span struct {
		Min time.Time `bson:"min"`
		Max time.Time `bson:"max"`
	}
	pipeline := append(slices.Clone(c.base), bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil},
		{Key: "min", Value: bson.D{{Key: "$min", Value: "$" + date}}}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$" + date}}}}}})
	if err := r.one(ctx, c.name, pipeline, &span); err != nil {
		return nil, err
	}
	whole := span.Max.Sub(span.Min)
	width := time.Duration(float64(whole) * float64(c.analysed) / float64(c.count))
	mid := span.Min.Add(whole / 2)
	return &timeSpan{mid.Add(-width / 2), mid.Add(width / 2)}, nil
}

// aligned is the span cut to whole buckets of unit, at least one.
func (s timeSpan) aligned(unit string) (from, to time.Time) {
	u := unitLength(unit)
	from, to = s.from.UTC().Truncate(u), s.to.UTC().Truncate(u)
	if !to.After(from) {
		to = from.Add(u)
	}
	return from, to
}

// unitLength is the length of the buckets $dateTrunc makes, for aligning a
// window on whole buckets (UTC, as $dateTrunc's default timezone).
func unitLength(unit string) time.Duration {
	switch unit {
	case "minute":
		return time.Minute
	case "day":
		return 24 * time.Hour
	}
	return time.Hour
}

// perUnit counts the documents per (source, unit of time) on the server.
func perUnit(ctx context.Context, r reader, c *collection, span *timeSpan, source, date, unit string) (bucketStats, error) {
	pipeline := bson.A{}
	if span != nil {
		// Whole buckets only: a bucket cut by the window's edge would
		// count as a small one.
		from, to := span.aligned(unit)
		pipeline = append(pipeline, bson.D{{Key: "$match", Value: bson.D{{Key: date, Value: bson.D{
			{Key: "$gte", Value: from}, {Key: "$lt", Value: to}}}}}})
	}
	pipeline = append(pipeline,
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "s", Value: "$" + source},
			{Key: "t", Value: bson.D{{Key: "$dateTrunc", Value: bson.D{{Key: "date", Value: "$" + date}, {Key: "unit", Value: unit}}}}}}},
			{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "buckets", Value: bson.D{{Key: "$sum", Value: 1}}},
			{Key: "docs", Value: bson.D{{Key: "$sum", Value: "$n"}}}, {Key: "p", Value: percentiles("$n")},
			{Key: "max", Value: bson.D{{Key: "$max", Value: "$n"}}}}}})
	var st bucketStats
	return st, r.one(ctx, c.name, pipeline, &st)
}
