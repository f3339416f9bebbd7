package tui

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/lessons"
)

// outputRef names one statement result of a step: block, then output.
type outputRef struct{ block, output int }

// bucketSamples reads the full samples of every bucket document a step
// printed with fewer samples than its count says it holds (a lesson shows
// three with $slice: 3 to keep the output short, but the picture should
// show the whole hour). The bucket is found again by its _id, or by its
// scalar fields when the projection dropped _id, in the collections the
// step's code names. Reads only; any failure leaves the picture as it was.
func bucketSamples(ctx context.Context, client *mongo.Client, db string, st *lessons.Step, res *lessons.StepResult) map[outputRef]bson.A {
	if client == nil || res == nil {
		return nil
	}
	var found map[outputRef]bson.A
	for bi, b := range res.Blocks {
		if b.Block == nil || b.Block.Kind != lessons.Run {
			continue
		}
		for oi, o := range b.Result.Outputs {
			d, shown, count := partialBucket(o.Value)
			if d == nil {
				continue
			}
			if s := findSamples(ctx, client.Database(db), collectionsOf(st), d, shown, count); s != nil {
				if found == nil {
					found = map[outputRef]bson.A{}
				}
				found[outputRef{bi, oi}] = s
			}
		}
	}
	return found
}

// partialBucket returns the bucket document v shows (as bucketPicture
// finds it) when it holds fewer samples than its count.
func partialBucket(v any) (d bson.D, shown int, count float64) {
	if arr, ok := v.(bson.A); ok && len(arr) > 0 {
		v = arr[0]
	}
	d, ok := v.(bson.D)
	if !ok {
		return nil, 0, 0
	}
	sv, _ := field(d, "samples")
	samples, ok := sv.(bson.A)
	cv, _ := field(d, "count")
	n, ok2 := num(cv)
	if !ok || !ok2 || len(samples) == 0 || n <= float64(len(samples)) || n > 100000 {
		return nil, 0, 0
	}
	return d, len(samples), n
}

func collectionsOf(st *lessons.Step) []string {
	var names []string
	for _, b := range st.Code(lessons.Run) {
		for _, m := range collectionRef.FindAllStringSubmatch(b.Text, -1) {
			n := m[1] + m[2]
			if n != "getCollection" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// bucketFilter matches the document d was printed from: its _id, or else
// every scalar field it shows (arrays and subdocuments are left out, as a
// projection may have cut them).
func bucketFilter(d bson.D) bson.D {
	if id, ok := field(d, "_id"); ok {
		return bson.D{{Key: "_id", Value: id}}
	}
	var f bson.D
	for _, e := range d {
		switch e.Value.(type) {
		case bson.A, bson.D, nil:
			continue
		}
		if _, ok := num(e.Value); ok || isScalar(e.Value) {
			f = append(f, e)
		}
	}
	return f
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, bson.ObjectID, bson.DateTime, bson.Decimal128, bson.Timestamp:
		return true
	}
	return false
}

func findSamples(ctx context.Context, db *mongo.Database, colls []string, d bson.D, shown int, count float64) bson.A {
	filter := bucketFilter(d)
	if len(filter) == 0 {
		return nil
	}
	opts := options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "samples", Value: 1}})
	for _, c := range colls[:min(len(colls), 4)] {
		var got bson.D
		if err := db.Collection(c).FindOne(ctx, filter, opts).Decode(&got); err != nil {
			continue
		}
		sv, _ := field(got, "samples")
		if s, ok := sv.(bson.A); ok && len(s) > shown && float64(len(s)) <= count {
			return s
		}
	}
	return nil
}
