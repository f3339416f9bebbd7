package advise

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const (
	unnecessaryIndexesPage = "https://www.mongodb.com/docs/manual/data-modeling/design-antipatterns/unnecessary-indexes/"
	indexStatsPage         = "https://www.mongodb.com/docs/manual/reference/operator/aggregation/indexStats/"
)

// The ages of $indexStats' counters that make an unused index's finding
// medium and high confidence: the counters restart with mongod (and with
// the index), so "no use since an hour ago" says little.
const (
	mediumAge = 24 * time.Hour
	highAge   = 7 * 24 * time.Hour
)

type indexStat struct {
	Name     string `bson:"name"`
	Key      bson.D `bson:"key"`
	Accesses struct {
		Ops   int64     `bson:"ops"`
		Since time.Time `bson:"since"`
	} `bson:"accesses"`
}

// unusedIndexes reports the indexes other than _id that $indexStats
// shows no operation used, with their size from $collStats.
func unusedIndexes(ctx context.Context, r reader, c *collection) ([]Finding, string, error) {
	var stats []indexStat
	if err := r.aggregate(ctx, c.name, bson.A{bson.D{{Key: "$indexStats", Value: bson.D{}}}}, &stats); err != nil {
		return nil, "", err
	}
	var coll struct {
		StorageStats struct {
			IndexSizes map[string]int64 `bson:"indexSizes"`
		} `bson:"storageStats"`
	}
	collStats := bson.A{bson.D{{Key: "$collStats", Value: bson.D{{Key: "storageStats", Value: bson.D{}}}}}}
	if err := r.one(ctx, c.name, collStats, &coll); err != nil {
		return nil, "", err
	}
	now := time.Now()
	var out []Finding
	for _, st := range stats {
		spec := indexSpec(c, st.Name)
		// TTL deletions are not counted as accesses ($indexStats'
		// "Behavior"), so a TTL index looks unused while it works.
		if st.Name == "_id_" || st.Accesses.Ops > 0 || spec.ExpireAfterSeconds != nil {
			continue
		}
		age := now.Sub(st.Accesses.Since)
		conf := Low
		switch {
		case age >= highAge:
			conf = High
		case age >= mediumAge:
			conf = Medium
		}
		since := st.Accesses.Since.UTC().Format(time.RFC3339)
		size := coll.StorageStats.IndexSizes[st.Name]
		summary := fmt.Sprintf("No operation has used index %s since %s (when its counters last restarted); it costs %s and slows every write.",
			st.Name, since, bytesText(r.l, float64(size)))
		if spec.Unique {
			// A unique index enforces a rule even when no query reads it.
			conf = Low
			summary = fmt.Sprintf("No query has used unique index %s since %s; it may still be there to enforce uniqueness, so check before dropping it.", st.Name, since)
		}
		out = append(out, Finding{
			Pattern: PatternUnusedIndex, Collection: c.name, Field: keyFields(st.Key), Lesson: lessonAntiPatterns, Confidence: conf,
			Summary: summary,
			Evidence: Evidence{
				Figures: []Figure{{"index", st.Name}, {"operations", st.Accesses.Ops}, {"counted since", since},
					{"hours counted", round1(age.Hours())}, {"index size (bytes)", size}},
				Threshold: "no access since the counters started; confidence is low under a day of counting, medium under a week, high from a week",
				Reference: unnecessaryIndexesPage + " and " + indexStatsPage,
			},
		})
	}
	return out, "", nil
}

func indexSpec(c *collection, name string) index {
	for _, ix := range c.indexes {
		if ix.Name == name {
			return ix
		}
	}
	return index{}
}

// keyFields names the fields of an index key: "a, b".
func keyFields(key bson.D) string {
	names := make([]string, len(key))
	for i, k := range key {
		names[i] = k.Key
	}
	return strings.Join(names, ", ")
}
