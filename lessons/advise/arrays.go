package advise

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
)

// The thresholds of the array detectors. The manual's pages name none,
// so these are schemalab's, stated in every finding:
//   - longTailRatio: the outlier lesson's rule of thumb, an outlier sits an
//     order of magnitude beyond the top of the normal range, so a max/p95
//     ratio below it is "uniform" and never flagged;
//   - minArrayDocs: fewer documents with the array say nothing of a
//     distribution;
//   - unboundedMedian and unboundedMax: arrays that are large in the
//     typical document (a median of 1,000 elements), or anywhere (10,000),
//     grow with the data rather than with the entity.
const (
	longTailRatio   = 10
	minArrayDocs    = 20
	unboundedMedian = 1_000
	unboundedMax    = 10_000
)

const (
	outlierPage   = "https://www.mongodb.com/docs/manual/data-modeling/design-patterns/group-data/outlier-pattern/"
	unboundedPage = "https://www.mongodb.com/docs/manual/data-modeling/design-antipatterns/unbounded-arrays/"
)

// arrayStats are the lengths of one array field over the analysed
// documents.
type arrayStats struct {
	Stats []struct {
		Docs  int64     `bson:"docs"`
		P     []float64 `bson:"p"`
		Max   float64   `bson:"max"`
		Total float64   `bson:"total"`
	} `bson:"stats"`
	Top []struct {
		Total float64 `bson:"total"`
	} `bson:"top"`
	// Hist's _id is a bucket's lower bound, a double as the boundaries
	// are, or "more" past the last.
	Hist []struct {
		ID    any   `bson:"_id"`
		Count int64 `bson:"count"`
	} `bson:"hist"`
}

// arrays measures every top-level array field: the outlier pattern's
// long tail, and the unbounded-array anti-pattern.
func arrays(ctx context.Context, r reader, c *collection) ([]Finding, string, error) {
	var out []Finding
	for _, f := range c.fields {
		if f.types["array"] == 0 || !referable(f.name) {
			continue
		}
		var st arrayStats
		if err := r.one(ctx, c.name, arrayPipeline(c, f.name), &st); err != nil {
			return nil, "", err
		}
		if len(st.Stats) == 0 || st.Stats[0].Docs < minArrayDocs {
			continue
		}
		s := st.Stats[0]
		p50, p95, p99 := at(s.P, 0), at(s.P, 1), at(s.P, 2)
		hist := histogram(r.l, st)
		topShare := 0.0
		if len(st.Top) > 0 && s.Total > 0 {
			topShare = st.Top[0].Total / s.Total
		}
		figs := []Figure{
			{"documents with the array", s.Docs}, {"p50 length", p50}, {"p95 length", p95},
			{"p99 length", p99}, {"max length", s.Max}, {"max/p95", round1(s.Max / math.Max(p95, 1))},
		}
		share := "share of its elements in the top 1 % of documents"
		if ix := multikeyIndex(c, f.name); ix != "" {
			share = "share of index " + ix + "'s entries in the top 1 % of documents"
		}
		figs = append(figs, Figure{share, percent(r.l, topShare)},
			Figure{"largest document", bytesText(r.l, c.sizes.Max)}, Figure{"of the 16 MiB limit", percent(r.l, c.sizes.Max/maxBSON)})

		ratio := s.Max / math.Max(p95, 1)
		if ratio >= longTailRatio {
			threshold := niceCeil(p99)
			if p99*longTailRatio > s.Max {
				threshold = niceCeil(p95)
			}
			above := countAbove(st, threshold)
			conf := Medium
			if ratio >= 10*longTailRatio {
				conf = High
			}
			out = append(out, Finding{
				Pattern: PatternOutlier, Collection: c.name, Field: f.name, Lesson: lessonOutlier, Confidence: conf,
				Summary: fmt.Sprintf("A few documents' %s arrays are far longer than the rest (max %s, p95 %s): keep the first %s elements in the document and move the rest of %d outliers to an overflow collection.",
					f.name, r.l.Figure(s.Max), r.l.Figure(p95), r.l.Figure(threshold), above),
				Evidence: Evidence{
					Figures:   append(figs, Figure{"proposed threshold", threshold}, Figure{"documents above it", above}),
					Histogram: hist, Reference: outlierPage,
					Threshold: fmt.Sprintf("max/p95 ≥ %d (a long tail); below it sizes count as uniform", longTailRatio),
				},
			})
		}
		if p50 >= unboundedMedian || s.Max >= unboundedMax {
			conf := Medium
			if s.Max >= unboundedMax && p50 >= unboundedMedian {
				conf = High
			}
			out = append(out, Finding{
				Pattern: PatternUnboundedArray, Collection: c.name, Field: f.name, Lesson: lessonAntiPatterns, Confidence: conf,
				Summary: fmt.Sprintf("The %s arrays grow with the data (median %s, max %s elements): bound them, or keep the elements in their own collection.",
					f.name, r.l.Figure(p50), r.l.Figure(s.Max)),
				Evidence: Evidence{Figures: figs, Histogram: hist, Reference: unboundedPage,
					Threshold: fmt.Sprintf("median length ≥ %s or max length ≥ %s", r.l.Figure(unboundedMedian), r.l.Figure(unboundedMax))},
			})
		}
	}
	return out, "", nil
}

// referable reports whether a field name can be written as "$name" in
// an expression: not with a dot (a path) or a leading $.
func referable(name string) bool {
	return name != "" && !strings.ContainsAny(name, ".") && !strings.HasPrefix(name, "$")
}

// lengthBoundaries are the histogram's bucket bounds, 1-2-5 steps: a
// long tail spans orders of magnitude, and each gets three bars.
func lengthBoundaries() []float64 {
	b := []float64{0}
	for m := 1.0; m <= 1e7; m *= 10 {
		b = append(b, m, 2*m, 5*m)
	}
	return b[:len(b)-2] // ends at 10,000,000
}

func arrayPipeline(c *collection, name string) bson.A {
	size := bson.D{{Key: "$cond", Value: bson.A{bson.D{{Key: "$isArray", Value: "$" + name}}, bson.D{{Key: "$size", Value: "$" + name}}, nil}}}
	isArray := bson.D{{Key: "$match", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$ne", Value: nil}}}}}}
	top := max(1, int64(math.Ceil(float64(c.analysed)/100)))
	return append(slices.Clone(c.base),
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "n", Value: size}}}},
		bson.D{{Key: "$facet", Value: bson.D{
			{Key: "stats", Value: bson.A{isArray, bson.D{{Key: "$group", Value: bson.D{
				{Key: "_id", Value: nil}, {Key: "docs", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "p", Value: percentiles("$n")},
				{Key: "max", Value: bson.D{{Key: "$max", Value: "$n"}}}, {Key: "total", Value: bson.D{{Key: "$sum", Value: "$n"}}},
			}}}}},
			{Key: "top", Value: bson.A{
				bson.D{{Key: "$sort", Value: bson.D{{Key: "n", Value: -1}}}}, bson.D{{Key: "$limit", Value: top}},
				bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "total", Value: bson.D{{Key: "$sum", Value: "$n"}}}}}},
			}},
			{Key: "hist", Value: bson.A{isArray, bson.D{{Key: "$bucket", Value: bson.D{
				{Key: "groupBy", Value: "$n"}, {Key: "boundaries", Value: lengthBoundaries()}, {Key: "default", Value: "more"},
			}}}}},
		}}})
}

// histogram labels each $bucket by the lengths it holds.
func histogram(l *locale.Localizer, st arrayStats) []lessons.Bar {
	bounds := lengthBoundaries()
	var bars []lessons.Bar
	for _, h := range st.Hist {
		lo, ok := h.ID.(float64)
		label := "≥ " + l.Figure(1e7)
		if ok {
			label = l.Figure(lo)
			if i := slices.Index(bounds, lo); i >= 0 && i+1 < len(bounds) {
				hi := bounds[i+1]
				if hi-1 > lo {
					label = l.Figure(lo) + "–" + l.Figure(hi-1)
				}
			}
		}
		bars = append(bars, lessons.Bar{Label: label, Count: float64(h.Count)})
	}
	return bars
}

// countAbove counts the documents whose length is above threshold, from
// the histogram: threshold is a 1-2-5 number, so it is a bucket bound.
func countAbove(st arrayStats, threshold float64) int64 {
	var n int64
	for _, h := range st.Hist {
		lo, ok := h.ID.(float64)
		if !ok || lo > threshold {
			n += h.Count
		}
	}
	return n
}

// niceCeil is the smallest 1-2-5 number at or above x (at least 1).
func niceCeil(x float64) float64 {
	for m := 1.0; ; m *= 10 {
		for _, k := range []float64{1, 2, 5} {
			if k*m >= x {
				return k * m
			}
		}
	}
}

// multikeyIndex is the name of an index on the array field (a multikey
// index, one entry per element), or "".
func multikeyIndex(c *collection, name string) string {
	for _, ix := range c.indexes {
		for _, k := range ix.Key {
			if k.Key == name || strings.HasPrefix(k.Key, name+".") {
				return ix.Name
			}
		}
	}
	return ""
}

// maxBSON is the BSON document size limit, 16 MiB.
const maxBSON = 16 * 1024 * 1024

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// percent is a share as a figure: 0.4567 → "45.7 %".
func percent(l *locale.Localizer, x float64) string { return l.Decimal(100*x, 1) + " %" }

// bytesText writes a size in the unit that reads best.
func bytesText(l *locale.Localizer, n float64) string {
	switch {
	case n >= 1<<20:
		return l.Decimal(n/(1<<20), 1) + " MiB"
	case n >= 1<<10:
		return l.Decimal(n/(1<<10), 1) + " KiB"
	}
	return l.Figure(n) + " B"
}
