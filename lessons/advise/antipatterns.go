package advise

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

const (
	bloatedPage           = "https://www.mongodb.com/docs/manual/data-modeling/design-antipatterns/bloated-documents/"
	reduceCollectionsPage = "https://www.mongodb.com/docs/manual/data-modeling/design-antipatterns/reduce-collections/"
)

// The thresholds of the anti-pattern detectors. The manual's pages give
// the reasons (working set in RAM; one _id index and more per
// collection) and no numbers, so these are schemalab's:
//   - bloatedMedian: a typical document of 256 KiB fills a 32 KiB-page
//     cache eight pages at a time even when a query needs a few fields;
//   - bloatedMax: half the 16 MiB BSON limit, where the next few appends
//     fail;
//   - seriesCollections: the manual's example is a collection per day;
//     this many collections named as one series (a name plus a number or a
//     date) is such a split;
//   - tooManyCollections: collections in one database, series or not.
const (
	bloatedMedian      = 256 << 10
	bloatedMax         = 8 << 20
	seriesCollections  = 10
	tooManyCollections = 1_000
)

// bloated reports collections whose documents are large: the typical one,
// or any one near the limit.
func bloated(_ context.Context, r reader, c *collection) ([]Finding, string, error) {
	s := c.sizes
	if s.Docs == 0 || s.p50() < bloatedMedian && s.Max < bloatedMax {
		return nil, "", nil
	}
	conf := Medium
	if s.p50() >= bloatedMedian && s.Max >= bloatedMax {
		conf = High
	}
	return []Finding{{
		Pattern: PatternBloatedDocuments, Collection: c.name, Lesson: lessonSubset, Confidence: conf,
		Summary: fmt.Sprintf("Documents are large (median %s, largest %s): keep the fields your frequent queries read in the document, and move the rest to a collection of their own.",
			bytesText(r.l, s.p50()), bytesText(r.l, s.Max)),
		Evidence: Evidence{
			Figures: []Figure{{"documents", s.Docs}, {"median size (bytes)", s.p50()}, {"p95 size (bytes)", at(s.P, 1)},
				{"largest (bytes)", s.Max}, {"largest of the 16 MiB limit", percent(r.l, s.Max/maxBSON)}},
			Threshold: fmt.Sprintf("median ≥ %s or largest ≥ %s", bytesText(r.l, bloatedMedian), bytesText(r.l, bloatedMax)),
			Reference: bloatedPage,
		},
	}}, "", nil
}

// seriesName is a collection name that ends in a number or a date: the
// stem is what the series shares (readings_2024_05_10 → readings).
var seriesName = regexp.MustCompile(`^(.*?)[_\-.]?\d[\d_\-.]*$`)

// manyCollections reports a database with many collections, or with
// collections that split one series by a number or a date.
func manyCollections(infos []collInfo) (Finding, bool) {
	stems := map[string][]string{}
	for _, c := range infos {
		if strings.HasPrefix(c.Name, "system.") {
			continue
		}
		if m := seriesName.FindStringSubmatch(c.Name); m != nil {
			stems[m[1]] = append(stems[m[1]], c.Name)
		}
	}
	stem, largest := "", []string(nil)
	for s, names := range stems {
		if len(names) > len(largest) || len(names) == len(largest) && s < stem {
			stem, largest = s, names
		}
	}
	threshold := fmt.Sprintf("≥ %d collections named as one series (a name plus a number or date), or ≥ %d collections", seriesCollections, tooManyCollections)
	figs := []Figure{{"collections", len(infos)}}
	switch {
	case len(largest) >= seriesCollections:
		slices.Sort(largest)
		figs = append(figs, Figure{"collections in the series " + stem + "…", len(largest)},
			Figure{"first", largest[0]}, Figure{"last", largest[len(largest)-1]})
		return Finding{
			Pattern: PatternManyCollections, Collection: stem + "*", Lesson: lessonAntiPatterns, Confidence: High,
			Summary: fmt.Sprintf("%d collections (%s … %s) split one series by a number or date: keep it in one collection with that value as a field (or as a time series collection's time field).",
				len(largest), largest[0], largest[len(largest)-1]),
			Evidence: Evidence{Figures: figs, Threshold: threshold, Reference: reduceCollectionsPage},
		}, true
	case len(infos) >= tooManyCollections:
		return Finding{
			Pattern: PatternManyCollections, Collection: "*", Lesson: lessonAntiPatterns, Confidence: Medium,
			Summary:  fmt.Sprintf("The database has %d collections, each with at least its _id index: consider consolidating related ones.", len(infos)),
			Evidence: Evidence{Figures: figs, Threshold: threshold, Reference: reduceCollectionsPage},
		}, true
	}
	return Finding{}, false
}
