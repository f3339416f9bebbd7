package timeseries

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// Stats are the bucket catalog's execution statistics of one collection
// (bucket_catalog::ExecutionStats). The counters the sandbox has no cause
// to move (memory pressure, cache pressure, frozen or failed buckets,
// query-based reopening) stay zero.
type Stats struct {
	NumBucketInserts                         int64
	NumBucketUpdates                         int64
	NumBucketsOpenedDueToMetadata            int64
	NumBucketsClosedDueToCount               int64
	NumBucketsClosedDueToSchemaChange        int64
	NumBucketsClosedDueToSize                int64
	NumBucketsClosedDueToTimeForward         int64
	NumBucketsClosedDueToTimeBackward        int64
	NumBucketsClosedDueToMemoryThreshold     int64
	NumCommits                               int64
	NumMeasurementsGroupCommitted            int64
	NumWaits                                 int64
	NumMeasurementsCommitted                 int64
	NumBucketsClosedDueToReopening           int64
	NumBucketsArchivedDueToMemoryThreshold   int64
	NumBucketsArchivedDueToTimeBackward      int64
	NumBucketsReopened                       int64
	NumBucketsKeptOpenDueToLargeMeasurements int64
}

// Section is collStats' "timeseries" section in mongod 8.0's field order:
// the buckets namespace, their count and average size, then
// appendExecutionStats' counters.
func Section(buckets *catalog.Collection, st Stats) bson.D {
	n := int64(buckets.Count())
	d := bson.D{
		{Key: "bucketsNs", Value: buckets.NS()},
		{Key: "bucketCount", Value: n},
	}
	if n > 0 {
		d = append(d, bson.E{Key: "avgBucketSize", Value: buckets.DataSize() / n})
	}
	d = append(d,
		bson.E{Key: "numBucketInserts", Value: st.NumBucketInserts},
		bson.E{Key: "numBucketUpdates", Value: st.NumBucketUpdates},
		bson.E{Key: "numBucketsOpenedDueToMetadata", Value: st.NumBucketsOpenedDueToMetadata},
		bson.E{Key: "numBucketsClosedDueToCount", Value: st.NumBucketsClosedDueToCount},
		bson.E{Key: "numBucketsClosedDueToSchemaChange", Value: st.NumBucketsClosedDueToSchemaChange},
		bson.E{Key: "numBucketsClosedDueToSize", Value: st.NumBucketsClosedDueToSize},
		bson.E{Key: "numBucketsClosedDueToTimeForward", Value: st.NumBucketsClosedDueToTimeForward},
		bson.E{Key: "numBucketsClosedDueToTimeBackward", Value: st.NumBucketsClosedDueToTimeBackward},
		bson.E{Key: "numBucketsClosedDueToMemoryThreshold", Value: st.NumBucketsClosedDueToMemoryThreshold},
		bson.E{Key: "numCommits", Value: st.NumCommits},
		bson.E{Key: "numMeasurementsGroupCommitted", Value: st.NumMeasurementsGroupCommitted},
		bson.E{Key: "numWaits", Value: st.NumWaits},
		bson.E{Key: "numMeasurementsCommitted", Value: st.NumMeasurementsCommitted},
	)
	if st.NumCommits > 0 {
		d = append(d, bson.E{Key: "avgNumMeasurementsPerCommit", Value: st.NumMeasurementsCommitted / st.NumCommits})
	}
	zero := int64(0)
	return append(d,
		bson.E{Key: "numBucketsClosedDueToReopening", Value: st.NumBucketsClosedDueToReopening},
		bson.E{Key: "numBucketsArchivedDueToMemoryThreshold", Value: st.NumBucketsArchivedDueToMemoryThreshold},
		bson.E{Key: "numBucketsArchivedDueToTimeBackward", Value: st.NumBucketsArchivedDueToTimeBackward},
		bson.E{Key: "numBucketsReopened", Value: st.NumBucketsReopened},
		bson.E{Key: "numBucketsKeptOpenDueToLargeMeasurements", Value: st.NumBucketsKeptOpenDueToLargeMeasurements},
		bson.E{Key: "numBucketsClosedDueToCachePressure", Value: zero},
		bson.E{Key: "numBucketsFrozen", Value: zero},
		bson.E{Key: "numCompressedBucketsConvertedToUnsorted", Value: zero},
		bson.E{Key: "numBucketsFetched", Value: zero},
		bson.E{Key: "numBucketsQueried", Value: zero},
		bson.E{Key: "numBucketFetchesFailed", Value: zero},
		bson.E{Key: "numBucketQueriesFailed", Value: zero},
		bson.E{Key: "numBucketReopeningsFailed", Value: zero},
		bson.E{Key: "numDuplicateBucketsReopened", Value: zero},
	)
}
