package lessons

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// Pictures are what a step's results are easier to look at than to
// read, as data for the app to draw. The shapes are recognized from the
// values, not from lesson ids, so an instructor's own lesson gets them
// too.
type Pictures struct {
	// Tree is a category tree the step's code queried, with the nodes its
	// outputs returned; nil when the step is not about a tree.
	Tree *Tree
	// Charts are the run blocks' pictures, in block order.
	Charts []Chart
}

// Chart is the picture of one run block's result: a distribution or a
// bucket document.
type Chart struct {
	// Block indexes StepResult.Blocks.
	Block int
	// Distribution is set for [{_id, count}, …], as $bucket and
	// $sortByCount return; the bars are in the result's order.
	Distribution []Bar
	// Bucket is set for a bucket document (samples with count, min, max).
	Bucket *BucketSeries
}

// Bar is one bar of a distribution: its label (a $bucket's range) and
// count.
type Bar struct {
	Label string
	Count float64
}

// BucketSeries is a bucket's readings and rolled-up figures. Values hold
// every sample of the bucket, read from the database when the step
// printed only a few ($slice: 3 keeps outputs short).
type BucketSeries struct {
	Values               []float64
	Count, Min, Max, Avg float64
}

// Pictures computes the pictures of step i's result; it reads the
// database as the step left it, so call it right after RunStep. Reads
// only; a failed read leaves out what it was for.
func (r *Runner) Pictures(ctx context.Context, i int, res *StepResult) *Pictures {
	if res == nil || i < 0 || i >= len(r.lesson.Steps) || r.client == nil {
		return &Pictures{}
	}
	st := &r.lesson.Steps[i]
	p := &Pictures{Tree: r.readTree(ctx, st, res)}
	for bi, b := range res.Blocks {
		if b.Block == nil || b.Block.Kind != Run {
			continue
		}
		for _, o := range b.Result.Outputs {
			if bars := distribution(o.Value, bucketBounds(b.Block.Text, o.Span)); bars != nil {
				p.Charts = append(p.Charts, Chart{Block: bi, Distribution: bars})
				break
			}
			if s := r.bucketSeries(ctx, st, o.Value); s != nil {
				p.Charts = append(p.Charts, Chart{Block: bi, Bucket: s})
				break
			}
		}
	}
	return p
}

// boundaries finds a $bucket's boundaries array in code.
var boundaries = regexp.MustCompile(`boundaries\s*:\s*\[([^\]]*)\]`)

// bucketBounds are the $bucket boundaries written in the statement at
// span of src, or nil if it names none or one is not a number literal.
func bucketBounds(src string, span shell.Span) []float64 {
	if span.Start < 0 || span.End > len(src) || span.Start >= span.End {
		return nil
	}
	m := boundaries.FindStringSubmatch(src[span.Start:span.End])
	if m == nil {
		return nil
	}
	var bounds []float64
	for _, part := range strings.Split(m[1], ",") {
		b, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil
		}
		bounds = append(bounds, b)
	}
	return bounds
}

// distribution reads [{_id, count}, …]; a $bucket's numeric _id is the
// lower bound, so each bar is labelled with its range. $bucket leaves
// out empty buckets, so a bucket ends at the next of the boundaries the
// code gives, not at the next bar; without them, at the next bar, and the
// last bucket keeps its lower bound alone, as $bucket prints it. A default
// bucket (a number outside the boundaries, or a string after the numbers)
// keeps its _id.
func distribution(v any, bounds []float64) []Bar {
	arr, ok := v.(bson.A)
	if !ok || len(arr) < 2 {
		return nil
	}
	bars := make([]Bar, len(arr))
	lows := make([]float64, 0, len(arr))
	prev := math.Inf(-1)
	for i, e := range arr {
		d, ok := e.(bson.D)
		if !ok || len(d) != 2 {
			return nil
		}
		id, ok1 := field(d, "_id")
		c, ok2 := field(d, "count")
		n, ok3 := number(c)
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		bars[i] = Bar{Label: shell.Format(id, shell.FormatOptions{}), Count: n}
		// Numeric ids in ascending order, before any other, are bucket
		// boundaries.
		if low, ok := number(id); ok && len(lows) == i && low > prev {
			lows, prev = append(lows, low), low
		}
	}
	for i, low := range lows {
		if bounds == nil {
			if i+1 < len(lows) {
				bars[i].Label += "–" + bars[i+1].Label
			}
			continue
		}
		if k := slices.Index(bounds, low); k >= 0 && k+1 < len(bounds) {
			bars[i].Label += "–" + strconv.FormatFloat(bounds[k+1], 'f', -1, 64)
		}
	}
	return bars
}

// bucketSeries reads one bucket document (or the first of a list): its
// samples, with count, min, max and average.
func (r *Runner) bucketSeries(ctx context.Context, st *Step, v any) *BucketSeries {
	if arr, ok := v.(bson.A); ok && len(arr) > 0 {
		v = arr[0]
	}
	d, ok := v.(bson.D)
	if !ok {
		return nil
	}
	sv, _ := field(d, "samples")
	samples, ok := sv.(bson.A)
	if !ok || len(samples) == 0 {
		return nil
	}
	stat := func(k string) (float64, bool) {
		x, ok := field(d, k)
		if !ok {
			return 0, false
		}
		return number(x)
	}
	if count, ok := stat("count"); ok && count > float64(len(samples)) && count <= 100000 {
		if all := r.fullSamples(ctx, st, d, len(samples), count); all != nil {
			samples = all
		}
	}
	var vals []float64
	for _, s := range samples {
		sd, ok := s.(bson.D)
		if !ok {
			if n, ok := number(s); ok {
				vals = append(vals, n)
			}
			continue
		}
		// The measurement is the last numeric field (t in {m, t}).
		for i := len(sd) - 1; i >= 0; i-- {
			if n, ok := number(sd[i].Value); ok {
				vals = append(vals, n)
				break
			}
		}
	}
	if len(vals) < 2 {
		return nil // one reading is no line; the document says it all
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, x := range vals {
		lo, hi, sum = min(lo, x), max(hi, x), sum+x
	}
	s := &BucketSeries{Values: vals, Count: float64(len(vals)), Min: lo, Max: hi, Avg: sum / float64(len(vals))}
	if n, ok := stat("count"); ok {
		s.Count = n
	}
	if n, ok := stat("min"); ok {
		s.Min = n
	}
	if n, ok := stat("max"); ok {
		s.Max = n
	}
	if n, ok := stat("sum"); ok && s.Count > 0 {
		s.Avg = n / s.Count
	}
	return s
}

// collectionRef finds the collections a step's code names (db.x. and
// db.getCollection('x').), to know where to look for a picture's data.
// Missing one only leaves a picture as the output showed it.
var collectionRef = regexp.MustCompile(`db\.(?:getCollection\(\s*['"]([^'"]+)['"]\s*\)|([A-Za-z_][\w]*))\.`)

func collectionsOf(st *Step) []string {
	var names []string
	for _, b := range st.Code(Run) {
		for _, m := range collectionRef.FindAllStringSubmatch(b.Text, -1) {
			if n := m[1] + m[2]; n != "getCollection" {
				names = appendNew(names, n)
			}
		}
	}
	return names
}

// fullSamples finds the bucket d was printed from, by its _id or else by
// every scalar field it shows (a projection may have cut the rest), in
// the collections the step's code names, and returns all its samples.
func (r *Runner) fullSamples(ctx context.Context, st *Step, d bson.D, shown int, count float64) bson.A {
	filter := bucketFilter(d)
	if len(filter) == 0 {
		return nil
	}
	db := r.client.Database(r.Database())
	opts := options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "samples", Value: 1}})
	colls := collectionsOf(st)
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

// bucketFilter matches the document d was printed from: its _id, or else
// every scalar field it shows.
func bucketFilter(d bson.D) bson.D {
	if id, ok := field(d, "_id"); ok {
		return bson.D{{Key: "_id", Value: id}}
	}
	var f bson.D
	for _, e := range d {
		switch e.Value.(type) {
		case string, bool, bson.ObjectID, bson.DateTime, bson.Decimal128, bson.Timestamp:
			f = append(f, e)
		default:
			if _, ok := number(e.Value); ok {
				f = append(f, e)
			}
		}
	}
	return f
}

// treeShaped reports whether a step's outputs look like tree nodes, so
// that the tree is only read for steps about trees.
func treeShaped(res *StepResult) bool {
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case bson.D:
			for _, e := range x {
				switch e.Key {
				case "parent", "path", "ancestors", "children", "depth":
					found = true
				}
				walk(e.Value)
			}
		case bson.A:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, b := range res.Blocks {
		if b.Block != nil && b.Block.Kind == Run {
			for _, o := range b.Result.Outputs {
				walk(o.Value)
			}
		}
	}
	return found
}
