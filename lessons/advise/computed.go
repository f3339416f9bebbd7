package advise

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const (
	computedPage = "https://www.mongodb.com/docs/manual/data-modeling/design-patterns/handle-computed-values/"
	profilerPage = "https://www.mongodb.com/docs/manual/tutorial/manage-the-database-profiler/"
)

// The thresholds of the computed detector: an aggregation the profiler
// saw at least minRuns times, taking on average at least slowMillis (the
// profiler's own default slowms, 100 ms), is one whose result is worth
// storing. The manual's page gives the reason (reads far outnumber
// writes), not a number.
const (
	minRuns    = 10
	slowMillis = 100
)

// computed looks in the profiler's record (system.profile) for an
// aggregation run again and again at a cost: the computed pattern's case.
// Without a profile it can see nothing, and says so.
func computed(ctx context.Context, r reader, infos []collInfo) (string, []Finding, error) {
	if !slices.ContainsFunc(infos, func(c collInfo) bool { return c.Name == "system.profile" }) {
		return fmt.Sprintf("computed: repeated expensive aggregations can only be seen in the profiler's record (system.profile), and %s has none; see %s",
			r.db.Name(), profilerPage), nil, nil
	}
	shape := bson.D{{Key: "$ifNull", Value: bson.A{"$queryShapeHash", "$planCacheShapeHash", "$queryHash", "$command.pipeline"}}}
	pipeline := bson.A{
		bson.D{{Key: "$match", Value: bson.D{{Key: "op", Value: "command"}, {Key: "command.aggregate", Value: bson.D{{Key: "$exists", Value: true}}}}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "ns", Value: "$ns"}, {Key: "shape", Value: shape}}},
			{Key: "runs", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "millis", Value: bson.D{{Key: "$avg", Value: "$millis"}}},
			{Key: "examined", Value: bson.D{{Key: "$avg", Value: "$docsExamined"}}}}}},
		bson.D{{Key: "$match", Value: bson.D{{Key: "runs", Value: bson.D{{Key: "$gte", Value: minRuns}}}, {Key: "millis", Value: bson.D{{Key: "$gte", Value: slowMillis}}}}}},
		bson.D{{Key: "$sort", Value: bson.D{{Key: "runs", Value: -1}}}},
		bson.D{{Key: "$limit", Value: 10}},
	}
	var rows []struct {
		ID struct {
			NS string `bson:"ns"`
		} `bson:"_id"`
		Runs     int64   `bson:"runs"`
		Millis   float64 `bson:"millis"`
		Examined float64 `bson:"examined"`
	}
	if err := r.aggregate(ctx, "system.profile", pipeline, &rows); err != nil {
		return "", nil, err
	}
	var out []Finding
	for _, row := range rows {
		_, coll, _ := strings.Cut(row.ID.NS, ".")
		out = append(out, Finding{
			Pattern: PatternComputed, Collection: coll, Lesson: lessonComputed, Confidence: Medium,
			Summary: fmt.Sprintf("The same aggregation ran %d times, %s ms each on average: store its result and update it on write or on a schedule.",
				row.Runs, r.l.Figure(row.Millis)),
			Evidence: Evidence{
				Figures:   []Figure{{"runs", row.Runs}, {"average ms", round1(row.Millis)}, {"average documents examined", round1(row.Examined)}},
				Threshold: fmt.Sprintf("≥ %d runs of one aggregation shape in system.profile, averaging ≥ %d ms", minRuns, slowMillis),
				Reference: computedPage + " and " + profilerPage,
			},
		})
	}
	return "", out, nil
}
