package engine_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Figures of issue 15, through the driver:
//
//	go test ./sandbox/engine -run '^$' -bench 'LessonReadings|TwelveHour|Insert200k|Ratio' -benchtime 5x
//
// The Ratio benchmarks alternate the two variants in one loop and report
// the ratio of their fastest runs, which a machine shared with other work
// disturbs far less than two separate benchmarks.

// lessonDocs are the bucket lesson's 144,000 readings: sensor s7, one a
// minute for 100 days from 2026-05-25T08:00Z.
func lessonDocs() []any {
	start := time.Date(2026, 5, 25, 8, 0, 0, 0, time.UTC)
	docs := make([]any, 144_000)
	for i := range docs {
		docs[i] = bson.D{{Key: "sensorId", Value: "s7"}, {Key: "at", Value: bson.NewDateTimeFromTime(start.Add(time.Duration(i) * time.Minute))},
			{Key: "temp", Value: 21 + float64(i%50)/10}}
	}
	return docs
}

// benchInsert times inserting docs into a collection that setup creates
// afresh for every iteration.
func benchInsert(b *testing.B, docs []any, setup func(db *mongo.Database)) {
	client := startServer(b)
	db := client.Database("bench")
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if err := db.Drop(ctx); err != nil {
			b.Fatal(err)
		}
		setup(db)
		b.StartTimer()
		if _, err := db.Collection("readings").InsertMany(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
}

// timedInsert drops the database, runs setup, and times inserting docs
// into bench.readings.
func timedInsert(b *testing.B, db *mongo.Database, docs []any, setup func(db *mongo.Database)) time.Duration {
	if err := db.Drop(ctx); err != nil {
		b.Fatal(err)
	}
	setup(db)
	start := time.Now()
	if _, err := db.Collection("readings").InsertMany(ctx, docs); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// benchRatio alternates two insert variants, each going first in turn,
// and reports the ratio of the second's fastest run to the first's, in wall time and in the CPU time
// of the whole process (the embedded server and the driver), which other
// work on a shared machine disturbs less.
func benchRatio(b *testing.B, docs []any, first, second func(db *mongo.Database), unit string) {
	client := startServer(b)
	db := client.Database("bench")
	var best, bestCPU [2]time.Duration
	variants := []func(*mongo.Database){first, second}
	for n := range b.N {
		// Alternate which variant runs first: the run after another big
		// insert pays for its garbage.
		for k := range 2 {
			i := k ^ n%2
			setup := variants[i]
			cpu := processCPU()
			d := timedInsert(b, db, docs, setup)
			c := processCPU() - cpu
			if best[i] == 0 || d < best[i] {
				best[i] = d
			}
			if bestCPU[i] == 0 || c < bestCPU[i] {
				bestCPU[i] = c
			}
		}
	}
	b.ReportMetric(float64(best[0].Milliseconds()), "first-ms")
	b.ReportMetric(float64(best[1].Milliseconds()), "second-ms")
	b.ReportMetric(float64(best[1])/float64(best[0]), unit)
	b.ReportMetric(float64(bestCPU[0].Milliseconds()), "first-cpu-ms")
	b.ReportMetric(float64(bestCPU[1].Milliseconds()), "second-cpu-ms")
	b.ReportMetric(float64(bestCPU[1])/float64(bestCPU[0]), unit+"-cpu")
}

// processCPU is the user and system CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func createPlainReadings(b *testing.B) func(db *mongo.Database) {
	return func(db *mongo.Database) {
		if _, err := db.Collection("readings").Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "sensorId", Value: 1}, {Key: "at", Value: 1}}}); err != nil {
			b.Fatal(err)
		}
	}
}

func createTimeseriesReadings(b *testing.B) func(db *mongo.Database) {
	return func(db *mongo.Database) {
		if err := db.CreateCollection(ctx, "readings", options.CreateCollection().SetTimeSeriesOptions(
			options.TimeSeries().SetTimeField("at").SetMetaField("sensorId"))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRatioTimeseriesInsert reports time-series / plain for the
// lesson's 144,000 readings (the issue asks for at most 1.5).
func BenchmarkRatioTimeseriesInsert(b *testing.B) {
	benchRatio(b, lessonDocs(), createPlainReadings(b), createTimeseriesReadings(b), "ts/plain")
}

// BenchmarkRatioValidationInsert reports with / without a five-property
// $jsonSchema for 200,000 inserts (the issue asks for at most 1.10).
func BenchmarkRatioValidationInsert(b *testing.B) {
	benchRatio(b, students(200_000), func(db *mongo.Database) {
		if err := db.CreateCollection(ctx, "readings"); err != nil {
			b.Fatal(err)
		}
	}, func(db *mongo.Database) {
		if err := db.CreateCollection(ctx, "readings", options.CreateCollection().SetValidator(studentSchema)); err != nil {
			b.Fatal(err)
		}
	}, "validated/plain")
}

// BenchmarkInsertLessonReadingsPlain is the flat collection of the lesson,
// with its {sensorId: 1, at: 1} index.
func BenchmarkInsertLessonReadingsPlain(b *testing.B) {
	benchInsert(b, lessonDocs(), createPlainReadings(b))
}

// BenchmarkInsertLessonReadingsTimeseries is the same data into a
// time-series collection (metaField sensorId, timeField at), which has
// the default sensorId_1_at_1 index.
func BenchmarkInsertLessonReadingsTimeseries(b *testing.B) {
	benchInsert(b, lessonDocs(), createTimeseriesReadings(b))
}

func BenchmarkTimeseriesTwelveHourQuery(b *testing.B) {
	client := startServer(b)
	db := client.Database("bench")
	createTimeseriesReadings(b)(db)
	coll := db.Collection("readings")
	if _, err := coll.InsertMany(ctx, lessonDocs()); err != nil {
		b.Fatal(err)
	}
	filter := twelveHours()
	b.ResetTimer()
	for range b.N {
		cur, err := coll.Find(ctx, filter, options.Find().SetBatchSize(1000))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for cur.Next(ctx) {
			n++
		}
		if err := cur.Err(); err != nil || n != 720 {
			b.Fatalf("got %d readings: %v", n, err)
		}
		_ = cur.Close(ctx)
	}
}

func students(n int) []any {
	docs := make([]any, n)
	for i := range docs {
		docs[i] = bson.D{{Key: "name", Value: fmt.Sprintf("student %06d", i)}, {Key: "year", Value: int32(2017 + i%10)},
			{Key: "major", Value: []string{"Math", "English", "History"}[i%3]}, {Key: "gpa", Value: float64(i%40) / 10},
			{Key: "address", Value: bson.D{{Key: "city", Value: "NYC"}}}}
	}
	return docs
}

func BenchmarkInsert200kNoValidator(b *testing.B) {
	benchInsert(b, students(200_000), func(db *mongo.Database) {
		if err := db.CreateCollection(ctx, "readings"); err != nil {
			b.Fatal(err)
		}
	})
}

// studentSchema is a five-property $jsonSchema.
var studentSchema = bson.D{{Key: "$jsonSchema", Value: bson.D{
	{Key: "bsonType", Value: "object"},
	{Key: "required", Value: bson.A{"name", "year", "major", "address"}},
	{Key: "properties", Value: bson.D{
		{Key: "name", Value: bson.D{{Key: "bsonType", Value: "string"}}},
		{Key: "year", Value: bson.D{{Key: "bsonType", Value: "int"}, {Key: "minimum", Value: 2017}, {Key: "maximum", Value: 3017}}},
		{Key: "major", Value: bson.D{{Key: "enum", Value: bson.A{"Math", "English", "History", "Computer Science"}}}},
		{Key: "gpa", Value: bson.D{{Key: "bsonType", Value: "double"}}},
		{Key: "address", Value: bson.D{{Key: "bsonType", Value: "object"}, {Key: "required", Value: bson.A{"city"}}}},
	}},
}}}

// BenchmarkInsert200kJSONSchema5 validates every document against
// studentSchema.
func BenchmarkInsert200kJSONSchema5(b *testing.B) {
	benchInsert(b, students(200_000), func(db *mongo.Database) {
		if err := db.CreateCollection(ctx, "readings", options.CreateCollection().SetValidator(studentSchema)); err != nil {
			b.Fatal(err)
		}
	})
}
