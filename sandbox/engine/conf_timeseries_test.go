package engine_test

import (
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Time-series collections through the driver: mongod 8.0's options,
// catalog entries, bucket documents, bucketing rules, reads through the
// view, explain and collStats.

func TestTimeseriesCreateErrors(t *testing.T) {
	db, _ := confColl(t)
	wantErr(t, db, `{"create": "t", "timeseries": {"metaField": "m"}}`, 40414,
		"BSON field 'create.timeseries.timeField' is missing but a required field")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "metaField": "_id"}}`, mongoerr.InvalidOptions, `'metaField' cannot be "_id"`)
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "metaField": "t"}}`, mongoerr.InvalidOptions, "'metaField' cannot be the same as 'timeField'")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "a.b"}}`, mongoerr.InvalidOptions, "conf.t: 'timeField' must be a top-level field and not contain a '.'")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "granularity": "days"}}`, 2,
		"Enumeration value 'days' for field 'create.timeseries.granularity' is not a valid value.")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "granularity": "minutes", "bucketMaxSpanSeconds": 100}}`, 72,
		"Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of 86400 for the provided granularity")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "bucketMaxSpanSeconds": 3600}}`, 72,
		"Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "bucketMaxSpanSeconds": 100, "bucketRoundingSeconds": 50}}`, 72,
		"Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t"}, "validator": {"a": 1}}`, 72,
		"conf.t: 'timeseries' is not allowed with 'validator'")
	wantErr(t, db, `{"create": "t", "timeseries": {"timeField": "t", "other": 1}}`, 40415,
		"BSON field 'create.timeseries.other' is an unknown field.")
	wantErr(t, db, `{"create": "t", "expireAfterSeconds": 10}`, 72,
		"'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified")
	if names := firstBatch(t, db, `{"listCollections": 1, "nameOnly": true}`); len(names) != 0 {
		t.Fatalf("a failed create left collections: %s", relaxed(names))
	}
}

func TestTimeseriesListCollections(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "w", "timeseries": {"timeField": "time", "metaField": "meta", "granularity": "minutes"}, "expireAfterSeconds": {"$numberLong": "100"}}`)
	okJ(t, db, `{"create": "f", "timeseries": {"timeField": "time", "bucketMaxSpanSeconds": 4000, "bucketRoundingSeconds": 4000}}`)
	// create is idempotent with the same options.
	okJ(t, db, `{"create": "w", "timeseries": {"timeField": "time", "metaField": "meta", "granularity": "minutes"}, "expireAfterSeconds": {"$numberLong": "100"}}`)
	wantErr(t, db, `{"create": "w", "timeseries": {"timeField": "time"}}`, mongoerr.NamespaceExists, "")
	entries := map[string]bson.D{}
	for _, e := range firstBatch(t, db, `{"listCollections": 1}`) {
		d := e.(bson.D)
		entries[field(d, "name").(string)] = d
	}
	for _, name := range []string{"w", "f", "system.buckets.w", "system.buckets.f", "system.views"} {
		if entries[name] == nil {
			t.Fatalf("listCollections lacks %s: %v", name, entries)
		}
	}
	sameJSON(t, "view", entries["w"], `{"name": "w", "type": "timeseries", "options": {"timeseries": {"timeField": "time",
		"metaField": "meta", "granularity": "minutes", "bucketMaxSpanSeconds": 86400}, "expireAfterSeconds": {"$numberLong": "100"}},
		"info": {"readOnly": false}}`)
	sameJSON(t, "custom bucketing", field(entries["f"], "options"), `{"timeseries": {"timeField": "time",
		"bucketRoundingSeconds": 4000, "bucketMaxSpanSeconds": 4000}}`)
	sameJSON(t, "buckets options", field(entries["system.buckets.w"], "options"), `{"clusteredIndex": true, "timeseries": {"timeField": "time",
		"metaField": "meta", "granularity": "minutes", "bucketMaxSpanSeconds": 86400}, "expireAfterSeconds": {"$numberLong": "100"}}`)
	if typ := field(entries["system.buckets.w"], "type"); typ != "collection" {
		t.Errorf("buckets type %v", typ)
	}
	views := findAll(t, db.Collection("system.views"), bson.D{{Key: "_id", Value: "conf.w"}})
	sameJSON(t, "system.views", views, `[{"_id": "conf.w", "viewOn": "system.buckets.w",
		"pipeline": [{"$_internalUnpackBucket": {"timeField": "time", "metaField": "meta", "bucketMaxSpanSeconds": 86400}}]}]`)
	// collMod raises the granularity, never lowers it.
	okJ(t, db, `{"collMod": "w", "timeseries": {"granularity": "hours"}}`)
	wantErr(t, db, `{"collMod": "w", "timeseries": {"granularity": "minutes"}}`, 72,
		"Invalid transition for timeseries.granularity. Can only transition from 'seconds' to 'minutes' or 'minutes' to 'hours'.")
	sameJSON(t, "after collMod", field(firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "w"}}`)[0].(bson.D), "options"),
		`{"timeseries": {"timeField": "time", "metaField": "meta", "granularity": "hours", "bucketMaxSpanSeconds": 2592000},
		"expireAfterSeconds": {"$numberLong": "100"}}`)
	okJ(t, db, `{"drop": "w"}`)
	if len(firstBatch(t, db, `{"listCollections": 1, "filter": {"name": {"$in": ["w", "system.buckets.w"]}}}`)) != 0 {
		t.Error("drop left the view or its buckets")
	}
}

// lessonReadings inserts the bucket lesson's data into coll: sensor s7, one
// temperature a minute for 100 days from 2026-05-25T08:00Z.
func lessonReadings(t testing.TB, coll *mongo.Collection, n int) {
	t.Helper()
	start := time.Date(2026, 5, 25, 8, 0, 0, 0, time.UTC)
	batch := make([]any, 0, 10000)
	for i := range n {
		batch = append(batch, bson.D{
			{Key: "sensorId", Value: "s7"},
			{Key: "at", Value: bson.NewDateTimeFromTime(start.Add(time.Duration(i) * time.Minute))},
			{Key: "temp", Value: 21 + float64(i%50)/10},
		})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := coll.InsertMany(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

func twelveHours() bson.D {
	lo := bson.NewDateTimeFromTime(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))
	hi := bson.NewDateTimeFromTime(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	return bson.D{{Key: "sensorId", Value: "s7"}, {Key: "at", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: hi}}}}
}

func TestTimeseriesLessonReadings(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "readings", "timeseries": {"timeField": "at", "metaField": "sensorId"}}`)
	coll := db.Collection("readings")
	lessonReadings(t, coll, 144000)

	if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != 144000 {
		t.Fatalf("count %d %v", n, err)
	}
	got := findAll(t, coll, twelveHours())
	if len(got) != 720 {
		t.Fatalf("12-hour window: %d readings, want 720", len(got))
	}
	// A measurement comes back as mongod's unpacker builds it: time field,
	// meta field, then the other fields in bucket order.
	first := got[0]
	keys := []string{}
	for _, f := range first {
		keys = append(keys, f.Key)
	}
	if strings.Join(keys, ",") != "at,sensorId,_id,temp" {
		t.Errorf("measurement fields %v", keys)
	}
	if at := field(first, "at").(bson.DateTime); at.Time().UTC() != time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC) {
		t.Errorf("first reading at %v", at.Time())
	}

	// The buckets: one per hour (granularity seconds: a one-hour span, rounded to the minute).
	buckets := db.Collection("system.buckets.readings")
	if n, _ := buckets.CountDocuments(ctx, bson.D{}); n != 2400 {
		t.Fatalf("%d buckets, want 2400", n)
	}
	var b bson.D
	if err := buckets.FindOne(ctx, bson.D{}).Decode(&b); err != nil {
		t.Fatal(err)
	}
	id := field(b, "_id").(bson.ObjectID)
	if id.Timestamp().UTC() != time.Date(2026, 5, 25, 8, 0, 0, 0, time.UTC) {
		t.Errorf("bucket _id time %v", id.Timestamp())
	}
	control := field(b, "control").(bson.D)
	sameJSON(t, "control.version", field(control, "version"), `1`)
	sameJSON(t, "control.min.at", field(field(control, "min").(bson.D), "at"), `{"$date": "2026-05-25T08:00:00Z"}`)
	sameJSON(t, "control.max.at", field(field(control, "max").(bson.D), "at"), `{"$date": "2026-05-25T08:59:00Z"}`)
	sameJSON(t, "control.min.temp", field(field(control, "min").(bson.D), "temp"), `21.0`)
	sameJSON(t, "meta", field(b, "meta"), `"s7"`)
	data := field(b, "data").(bson.D)
	if len(data) != 3 || data[0].Key != "_id" || data[1].Key != "at" || data[2].Key != "temp" {
		t.Errorf("data columns %s", relaxed(data))
	}
	at := data[1].Value.(bson.D)
	if len(at) != 60 || at[0].Key != "0" || at[59].Key != "59" {
		t.Errorf("time column has %d entries", len(at))
	}

	// Indexes: the default metaField + timeField index, in each schema.
	sameJSON(t, "listIndexes on the collection", firstBatch(t, db, `{"listIndexes": "readings"}`),
		`[{"v": 2, "key": {"sensorId": 1, "at": 1}, "name": "sensorId_1_at_1"}]`)
	sameJSON(t, "listIndexes on the buckets", firstBatch(t, db, `{"listIndexes": "system.buckets.readings"}`),
		`[{"v": 2, "key": {"meta": 1, "control.min.at": 1, "control.max.at": 1}, "name": "sensorId_1_at_1"}]`)

	// collStats' timeseries section.
	stats := okJ(t, db, `{"collStats": "readings"}`)
	if field(stats, "ns") != "conf.readings" || field(stats, "count") != nil {
		t.Errorf("collStats ns %v count %v", field(stats, "ns"), field(stats, "count"))
	}
	ts := field(stats, "timeseries").(bson.D)
	keys = keys[:0]
	for _, f := range ts {
		keys = append(keys, f.Key)
	}
	wantKeys := "bucketsNs,bucketCount,avgBucketSize,numBucketInserts,numBucketUpdates,numBucketsOpenedDueToMetadata," +
		"numBucketsClosedDueToCount,numBucketsClosedDueToSchemaChange,numBucketsClosedDueToSize,numBucketsClosedDueToTimeForward," +
		"numBucketsClosedDueToTimeBackward,numBucketsClosedDueToMemoryThreshold,numCommits,numMeasurementsGroupCommitted,numWaits," +
		"numMeasurementsCommitted,avgNumMeasurementsPerCommit,numBucketsClosedDueToReopening,numBucketsArchivedDueToMemoryThreshold," +
		"numBucketsArchivedDueToTimeBackward,numBucketsReopened,numBucketsKeptOpenDueToLargeMeasurements," +
		"numBucketsClosedDueToCachePressure,numBucketsFrozen,numCompressedBucketsConvertedToUnsorted,numBucketsFetched," +
		"numBucketsQueried,numBucketFetchesFailed,numBucketQueriesFailed,numBucketReopeningsFailed,numDuplicateBucketsReopened"
	if strings.Join(keys, ",") != wantKeys {
		t.Errorf("timeseries section fields:\n got %s\nwant %s", strings.Join(keys, ","), wantKeys)
	}
	for name, want := range map[string]int32{"bucketCount": 2400, "numBucketInserts": 2400, "numBucketsOpenedDueToMetadata": 1,
		"numBucketsClosedDueToTimeForward": 2399, "numMeasurementsCommitted": 144000} {
		if got := field(ts, name); got != want {
			t.Errorf("timeseries.%s = %v, want %d", name, got, want)
		}
	}
	if field(ts, "bucketsNs") != "conf.system.buckets.readings" {
		t.Errorf("bucketsNs %v", field(ts, "bucketsNs"))
	}

	// $collStats (which mongosh's stats() runs) has the same section.
	cs := firstBatch(t, db, `{"aggregate": "readings", "cursor": {}, "pipeline": [{"$collStats": {"storageStats": {}}}]}`)
	storage := field(cs[0].(bson.D), "storageStats").(bson.D)
	if got := field(field(storage, "timeseries").(bson.D), "bucketCount"); got != int32(2400) {
		t.Errorf("$collStats storageStats.timeseries.bucketCount = %v", got)
	}

	// explain: the view's aggregate, with the bucket filter on the index
	// and $_internalUnpackBucket holding the event filter.
	ex := mustRun(t, db, bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "readings"}, {Key: "filter", Value: twelveHours()}}},
		{Key: "verbosity", Value: "executionStats"}})
	stages, _ := field(ex, "stages").(bson.A)
	if len(stages) != 2 {
		t.Fatalf("explain stages: %s", relaxed(ex))
	}
	cursor := field(stages[0].(bson.D), "$cursor").(bson.D)
	qp := field(cursor, "queryPlanner").(bson.D)
	if field(qp, "namespace") != "conf.system.buckets.readings" {
		t.Errorf("namespace %v", field(qp, "namespace"))
	}
	// The buckets are clustered by _id, which starts with their minimum
	// time: the window's _id range is scanned directly, and its plan ties
	// with the index's in the trial and wins by fetching nothing.
	if plan := relaxed(field(qp, "winningPlan")); !strings.Contains(plan, `"stage":"CLUSTERED_IXSCAN"`) || !strings.Contains(plan, `"maxRecord"`) {
		t.Errorf("winning plan %s", plan)
	}
	if rejected := relaxed(field(qp, "rejectedPlans")); !strings.Contains(rejected, `"indexName":"sensorId_1_at_1"`) {
		t.Errorf("rejected plans %s", rejected)
	}
	es := field(cursor, "executionStats").(bson.D)
	if docsExamined := field(es, "totalDocsExamined").(int32); docsExamined > 15 {
		t.Errorf("the 12-hour window examined %d buckets", docsExamined)
	}
	unpack := field(stages[1].(bson.D), "$_internalUnpackBucket").(bson.D)
	sameJSON(t, "unpack stage head", unpack[:5], `{"exclude": [], "timeField": "at", "metaField": "sensorId",
		"bucketMaxSpanSeconds": 3600, "assumeNoMixedSchemaData": true}`)
	if field(unpack, "eventFilter") == nil {
		t.Error("no eventFilter in the unpack stage")
	}
	if n := field(stages[1].(bson.D), "nReturned"); n != int64(720) && n != int32(720) {
		t.Errorf("unpack nReturned %v", n)
	}

	// aggregate and distinct through the view.
	avg := firstBatch(t, db, `{"aggregate": "readings", "cursor": {}, "pipeline": [{"$match": {"sensorId": "s7"}},
		{"$group": {"_id": "$sensorId", "n": {"$sum": 1}}}]}`)
	sameJSON(t, "aggregate", avg, `[{"_id": "s7", "n": 144000}]`)
	sameJSON(t, "distinct", field(okJ(t, db, `{"distinct": "readings", "key": "sensorId"}`), "values"), `["s7"]`)
}

func TestTimeseriesBucketingRules(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "k"}}`)
	coll := db.Collection("m")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var docs []any
	// 1001 measurements a second apart: the count cap closes the first bucket at 1000.
	for i := range 1001 {
		docs = append(docs, bson.D{{Key: "t", Value: bson.NewDateTimeFromTime(start.Add(time.Duration(i) * time.Second))}, {Key: "k", Value: "a"}})
	}
	// Another meta value opens its own bucket.
	docs = append(docs, bson.D{{Key: "t", Value: bson.NewDateTimeFromTime(start)}, {Key: "k", Value: "b"}})
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	// Twelve 20 KB measurements: past 125 KB a bucket with fewer than ten
	// measurements is kept open for large measurements, then closed at ten.
	big := strings.Repeat("x", 20*1024)
	docs = docs[:0]
	for i := range 12 {
		docs = append(docs, bson.D{{Key: "t", Value: bson.NewDateTimeFromTime(start.Add(time.Duration(i) * time.Second))}, {Key: "k", Value: "big"}, {Key: "s", Value: big}})
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	counts := firstBatch(t, db, `{"aggregate": "system.buckets.m", "cursor": {}, "pipeline": [
		{"$project": {"_id": 0, "meta": 1, "n": {"$size": {"$objectToArray": "$data.t"}}}}]}`)
	// The buckets are clustered by _id, which starts with their minimum
	// time: the second "a" bucket, opened 1000 seconds in, comes last.
	sameJSON(t, "bucket sizes", counts, `[{"meta": "a", "n": 1000}, {"meta": "b", "n": 1},
		{"meta": "big", "n": 10}, {"meta": "big", "n": 2}, {"meta": "a", "n": 1}]`)
	ts := field(okJ(t, db, `{"collStats": "m"}`), "timeseries").(bson.D)
	for name, want := range map[string]int32{"numBucketsClosedDueToCount": 1, "numBucketsOpenedDueToMetadata": 3,
		"numBucketsKeptOpenDueToLargeMeasurements": 1, "numBucketsClosedDueToSize": 1, "numBucketInserts": 5, "numCommits": 5} {
		if got := field(ts, name); got != want {
			t.Errorf("%s = %v, want %d", name, got, want)
		}
	}
	// A measurement without its time field is refused with mongod's error.
	reply := okJ(t, db, `{"insert": "m", "documents": [{"k": "a"}]}`)
	we := firstWriteError(t, reply)
	sameJSON(t, "write error", bson.D{{Key: "code", Value: field(we, "code")}, {Key: "errmsg", Value: field(we, "errmsg")}},
		`{"code": 2, "errmsg": "'t' must be present and contain a valid BSON UTC datetime value"}`)
}

func TestTimeseriesUpdateAndDelete(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "k"}}`)
	okJ(t, db, `{"insert": "m", "documents": [
		{"_id": 1, "t": {"$date": "2026-01-01T00:00:00Z"}, "k": "a", "v": 1},
		{"_id": 2, "t": {"$date": "2026-01-01T00:01:00Z"}, "k": "a", "v": 2},
		{"_id": 3, "t": {"$date": "2026-01-01T00:02:00Z"}, "k": "b", "v": 3}]}`)
	reply := okJ(t, db, `{"delete": "m", "deletes": [{"q": {"v": {"$gte": 2}}, "limit": 0}]}`)
	sameJSON(t, "delete", reply, `{"n": 2, "ok": 1.0}`)
	sameJSON(t, "left", firstBatch(t, db, `{"find": "m", "projection": {"_id": 1, "v": 1}}`), `[{"_id": 1, "v": 1}]`)
	if n := len(firstBatch(t, db, `{"find": "system.buckets.m"}`)); n != 1 {
		t.Errorf("%d buckets after the delete, want 1 (the emptied one is removed)", n)
	}
	// MongoDB 8.0 updates a time-series collection's metaField alone, in
	// a multi update selecting by it (timeseries_write_util.cpp).
	reply = okJ(t, db, `{"update": "m", "updates": [{"q": {"k": "a"}, "u": {"$set": {"k": "c"}}, "multi": true}]}`)
	sameJSON(t, "update", reply, `{"n": 1, "nModified": 1, "ok": 1.0}`)
	sameJSON(t, "updated", firstBatch(t, db, `{"find": "m"}`), `[{"t": {"$date": "2026-01-01T00:00:00Z"}, "k": "c", "_id": 1, "v": 1}]`)
	for _, refused := range []string{
		`{"q": {"_id": 1}, "u": {"$set": {"k": "d"}}}`,
		`{"q": {"_id": 1}, "u": {"$set": {"k": "d"}}, "multi": true}`,
		`{"q": {"k": "c"}, "u": {"$set": {"v": 10}}, "multi": true}`,
		`{"q": {"k": "z"}, "u": {"$set": {"k": "d"}}, "multi": true, "upsert": true}`,
	} {
		reply = okJ(t, db, `{"update": "m", "updates": [`+refused+`]}`)
		if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.InvalidOptions) {
			t.Errorf("%s: %s", refused, relaxed(reply))
		}
	}
}

// A restore puts the bucket catalog back as it was when the snapshot was
// taken: the statistics count the inserts the data holds, and the next
// insert fills the bucket that was open then (restoring is replaying).
// Dropping the database forgets the catalog's state.
func TestTimeseriesBucketCatalogFollowsRestoreAndDrop(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "k"}}`)
	insert := func(sec int) {
		t.Helper()
		at := bson.NewDateTimeFromTime(time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC))
		if _, err := db.Collection("m").InsertOne(ctx, bson.D{{Key: "t", Value: at}, {Key: "k", Value: "a"}}); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(name string) any {
		t.Helper()
		return field(field(okJ(t, db, `{"collStats": "m"}`), "timeseries").(bson.D), name)
	}
	insert(0)
	mustRun(t, db, snapshotCmd("save", db.Name(), "one"))
	insert(1)
	insert(2)
	if got := stat("numMeasurementsCommitted"); got != int32(3) {
		t.Fatalf("before the restore numMeasurementsCommitted = %v, want 3", got)
	}
	mustRun(t, db, snapshotCmd("restore", db.Name(), "one"))
	for name, want := range map[string]int32{"numMeasurementsCommitted": 1, "numBucketInserts": 1, "numCommits": 1, "bucketCount": 1} {
		if got := stat(name); got != want {
			t.Errorf("after the restore %s = %v, want %d", name, got, want)
		}
	}
	insert(1)
	for name, want := range map[string]int32{"numBucketUpdates": 1, "bucketCount": 1, "numMeasurementsCommitted": 2} {
		if got := stat(name); got != want {
			t.Errorf("after the next insert %s = %v, want %d", name, got, want)
		}
	}
	// Restored into another database, the state follows the data there.
	other := db.Client().Database(db.Name() + "_copy")
	t.Cleanup(func() { _ = other.Drop(ctx) })
	mustRun(t, db, snapshotCmd("restore", other.Name(), "one", bson.E{Key: "fromDb", Value: db.Name()}))
	if got := field(field(okJ(t, other, `{"collStats": "m"}`), "timeseries").(bson.D), "numMeasurementsCommitted"); got != int32(1) {
		t.Errorf("in the copy numMeasurementsCommitted = %v, want 1", got)
	}
	okJ(t, other, `{"dropDatabase": 1}`)
	okJ(t, other, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "k"}}`)
	if got := field(field(okJ(t, other, `{"collStats": "m"}`), "timeseries").(bson.D), "numBucketInserts"); got != int32(0) {
		t.Errorf("after dropDatabase numBucketInserts = %v, want 0", got)
	}
}

// $out into an existing time-series collection without the timeseries
// option replaces its measurements and keeps it a time-series collection
// with its own options, as 8.0's DocumentSourceOut::validateTimeseries
// takes them from the catalog (document_source_out.cpp).
func TestTimeseriesOutTargetKeepsItsOptions(t *testing.T) {
	db, _ := confColl(t, `{"_id": 1, "t": {"$date": "2026-05-25T08:00:00Z"}}`)
	mustRun(t, db, j(t, `{"create": "ts2", "timeseries": {"timeField": "t"}}`))
	mustRun(t, db, j(t, `{"aggregate": "c", "pipeline": [{"$out": "ts2"}], "cursor": {}}`))
	if names := firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "ts2"}}`); len(names) != 1 || field(names[0].(bson.D), "type") != "timeseries" {
		t.Fatalf("$out changed ts2's kind: %s", relaxed(names))
	}
	if got := firstBatch(t, db, `{"find": "ts2"}`); len(got) != 1 {
		t.Fatalf("ts2 after $out: %s", relaxed(got))
	}
}

// Measurements before 1970 are found by their time: their bucket's
// control.min is rounded toward zero, past the measurement, and the
// bucket bounds a query pushes down must not skip it (jstest
// core/timeseries/query/timeseries_filter_extended_range.js).
func TestTimeseriesTimesBefore1970(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t"}}`)
	okJ(t, db, `{"insert": "m", "documents": [{"t": {"$date": {"$numberLong": "-999"}}, "v": 1},
		{"t": {"$date": {"$numberLong": "-61500"}}, "v": 2}, {"t": {"$date": {"$numberLong": "5000"}}, "v": 3}]}`)
	for filter, want := range map[string]string{
		`{"t": {"$date": {"$numberLong": "-999"}}}`:            `[{"v": 1}]`,
		`{"t": {"$date": {"$numberLong": "-61500"}}}`:          `[{"v": 2}]`,
		`{"t": {"$lte": {"$date": {"$numberLong": "-999"}}}}`:  `[{"v": 1}, {"v": 2}]`,
		`{"t": {"$lt": {"$date": {"$numberLong": "-60000"}}}}`: `[{"v": 2}]`,
		`{"t": {"$gte": {"$date": {"$numberLong": "-999"}}}}`:  `[{"v": 1}, {"v": 3}]`,
	} {
		got := firstBatch(t, db, `{"find": "m", "filter": `+filter+`, "projection": {"_id": 0, "v": 1}, "sort": {"v": 1}}`)
		sameJSON(t, filter, got, want)
	}
}
