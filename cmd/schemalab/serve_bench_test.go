package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// BenchmarkServeRSS40Cursors is issue 10's memory figure for cursors:
//
//	go test ./cmd/schemalab -run '^$' -bench ServeRSS -benchtime 1x
//
// Method: the benchmark builds and starts a real `schemalab serve` process
// and is its client, through the driver. It inserts 2,000,000 small
// documents ({courseId, grade, student}, 100,000 per insertMany), waits a
// second, and reads the server's VmRSS from /proc/PID/status: the RSS of
// the data alone. It then opens 40 cursors, each a find over the whole
// collection with batchSize 1 (each first batch read, the cursors left
// open), waits a second and reads VmRSS again. Target: the second figure
// ≤ 1.1 × the first. A cursor holds a snapshot of the collection (O(1),
// shared with the live data) and its scan position, not its result.
func BenchmarkServeRSS40Cursors(b *testing.B) {
	for b.Loop() {
		cmd, uri := startServe(b)
		client, err := mongo.Connect(options.Client().ApplyURI(uri))
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		coll := client.Database("bench").Collection("e")
		const total, batch = 2_000_000, 100_000
		docs := make([]any, batch)
		for start := 0; start < total; start += batch {
			for i := range docs {
				n := start + i
				docs[i] = bson.D{{Key: "courseId", Value: int32(n % 200)}, {Key: "grade", Value: int32(50 + (n*7919)%51)}, {Key: "student", Value: fmt.Sprintf("s%07d", n)}}
			}
			if _, err := coll.InsertMany(ctx, docs); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(time.Second)
		data := residentKB(b, cmd.Process.Pid)
		var cursors []*mongo.Cursor
		for range 40 {
			cur, err := coll.Find(ctx, bson.D{}, options.Find().SetBatchSize(1))
			if err != nil {
				b.Fatal(err)
			}
			if !cur.Next(ctx) {
				b.Fatal("empty cursor")
			}
			cursors = append(cursors, cur)
		}
		time.Sleep(time.Second)
		with := residentKB(b, cmd.Process.Pid)
		b.ReportMetric(float64(data)/1024, "data-rss-MB")
		b.ReportMetric(float64(with)/1024, "with-cursors-rss-MB")
		b.ReportMetric(float64(with)/float64(data), "ratio")
		for _, cur := range cursors {
			_ = cur.Close(ctx)
		}
		_ = client.Disconnect(ctx)
	}
}

// residentKB reads a process's VmRSS.
func residentKB(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("reading a process's resident set needs /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	b.Fatal("no VmRSS in /proc/PID/status")
	return 0
}
