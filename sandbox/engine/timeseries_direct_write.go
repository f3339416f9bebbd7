package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// checkDirectBucketWrite is the check TimeSeriesOpObserver makes of a
// bucket written straight to a time-series buckets collection
// (timeseries_op_observer.cpp, aboutToInsert and onUpdate): a bucket with
// mixed schema data is refused unless collMod has set
// timeseriesBucketsMayHaveMixedSchemaData. It holds whatever
// bypassDocumentValidation says. The bucket catalog's own writes never
// come here (it closes a bucket rather than mix schemas in it).
func checkDirectBucketWrite(coll *catalog.Collection, doc bson.D, update bool) error {
	if _, ok := value.Get(coll.Options, "timeseries").(bson.D); !ok || coll.MayHaveMixedSchema || !timeseries.BucketHasMixedSchema(doc) {
		return nil
	}
	verb := "insert"
	if update {
		verb = "update"
	}
	return mongoerr.Newf(mongoerr.CannotInsertTimeseriesBucketsWithMixedSchema,
		"Cannot write time-series bucket containing mixed schema data, please run collMod with timeseriesBucketsMayHaveMixedSchemaData and retry your %s", verb)
}
