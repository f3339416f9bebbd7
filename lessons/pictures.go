package lessons

import (
	"context"
	"math"
	"slices"
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
	// Block indexes Result.Blocks.
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

// ranBlock is a run block's result as the shell returned it and the
// commands it sent, what its pictures are drawn from.
type ranBlock struct {
	out      shell.Result
	commands []Command
}

// pictures computes the pictures of a step that just ran, inside its
// operation: the database is as the step left it. Reads only; a failed
// read leaves out what it was for.
func (p *presenter) pictures(ctx context.Context, run *stepRun) Pictures {
	colls := run.collections()
	pics := Pictures{Tree: p.readTree(ctx, run, colls)}
	for bi := range run.blocks {
		rb, ok := run.ran[bi]
		if !ok {
			continue
		}
		bounds := bucketBoundaries(rb.commands)
		for _, o := range rb.out.Outputs {
			if bars := distribution(o.Value, bounds); bars != nil {
				pics.Charts = append(pics.Charts, Chart{Block: bi, Distribution: bars})
				break
			}
			if s := p.bucketSeries(ctx, colls, o.Value); s != nil {
				pics.Charts = append(pics.Charts, Chart{Block: bi, Bucket: s})
				break
			}
		}
	}
	return pics
}

// collections are the collections the step's run blocks read, then those
// they wrote, in the order they sent them: where a picture's data is.
func (r *stepRun) collections() []string {
	var reads, writes []string
	for bi := range r.blocks {
		for _, c := range r.ran[bi].commands {
			for _, n := range c.Reads {
				reads = appendNew(reads, n)
			}
			if c.Target != "" {
				writes = appendNew(writes, c.Target)
			}
		}
	}
	for _, n := range writes {
		reads = appendNew(reads, n)
	}
	return reads
}

// eachOutput calls f with the value of every output of the step's run
// blocks, in order.
func (r *stepRun) eachOutput(f func(v any)) {
	for bi := range r.blocks {
		for _, o := range r.ran[bi].out.Outputs {
			f(o.Value)
		}
	}
}

// bucketBoundaries are the boundaries of every $bucket stage the
// commands sent, top-level or in a $facet, in order.
func bucketBoundaries(cmds []Command) []bson.A {
	var out []bson.A
	var walk func(pipeline bson.RawArray)
	walk = func(pipeline bson.RawArray) {
		stages, _ := pipeline.Values()
		for _, sv := range stages {
			st, ok := sv.DocumentOK()
			if !ok {
				continue
			}
			first, err := st.IndexErr(0)
			if err != nil {
				continue
			}
			switch first.Key() {
			case "$bucket":
				arg, _ := first.Value().DocumentOK()
				arr, ok := arg.Lookup("boundaries").ArrayOK()
				var bounds bson.A
				if ok && bson.UnmarshalValue(bson.TypeArray, arr, &bounds) == nil && len(bounds) > 1 {
					out = append(out, bounds)
				}
			case "$facet":
				facets, _ := first.Value().DocumentOK()
				elems, _ := facets.Elements()
				for _, e := range elems {
					if sub, ok := e.Value().ArrayOK(); ok {
						walk(sub)
					}
				}
			}
		}
	}
	for _, c := range cmds {
		if c.Name != "aggregate" {
			continue
		}
		if arr, ok := c.raw.Lookup("pipeline").ArrayOK(); ok {
			walk(arr)
		}
	}
	return out
}

// distribution reads [{_id, count}, …]; a $bucket's numeric _id is the
// lower bound, so each bar is labelled with its range. $bucket leaves out
// empty buckets, so a bar ends at the next boundary of the $bucket that
// made it (one of bounds, those the step sent), not at the next bar;
// without its boundaries, at the next bar, and the last one keeps its
// lower bound alone, as $bucket prints it. A default bucket (a number
// outside the boundaries, or a string after the numbers) keeps its _id.
func distribution(v any, bounds []bson.A) []Bar {
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
		// Numeric ids in ascending order, before any other, are lower
		// bounds.
		if low, ok := number(id); ok && len(lows) == i && low > prev {
			lows, prev = append(lows, low), low
		}
	}
	b, nums := boundariesOf(lows, bounds)
	for i, low := range lows {
		if b == nil {
			if i+1 < len(lows) {
				bars[i].Label += "–" + bars[i+1].Label
			}
			continue
		}
		if k := slices.Index(nums, low); k >= 0 && k+1 < len(nums) {
			bars[i].Label += "–" + shell.Format(b[k+1], shell.FormatOptions{})
		}
	}
	return bars
}

// boundariesOf is the first of bounds that the lower bounds lows come
// from, with its boundaries as numbers: each low under its last boundary
// is one of its boundaries (a low at or past it is a default bucket's).
func boundariesOf(lows []float64, bounds []bson.A) (bson.A, []float64) {
	for _, b := range bounds {
		nums := make([]float64, 0, len(b))
		for _, x := range b {
			if n, ok := number(x); ok {
				nums = append(nums, n)
			}
		}
		if len(nums) != len(b) {
			continue
		}
		top := nums[len(nums)-1]
		if !slices.ContainsFunc(lows, func(low float64) bool { return low < top && !slices.Contains(nums, low) }) {
			return b, nums
		}
	}
	return nil, nil
}

// bucketSeries reads one bucket document (or the first of a list): its
// samples, with count, min, max and average.
func (p *presenter) bucketSeries(ctx context.Context, colls []string, v any) *BucketSeries {
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
		if all := p.fullSamples(ctx, colls, d, len(samples), count); all != nil {
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

// fullSamples finds the bucket d was printed from, by its _id or else by
// every scalar field it shows (a projection may have cut the rest), in
// the collections the step used, and returns all its samples.
func (p *presenter) fullSamples(ctx context.Context, colls []string, d bson.D, shown int, count float64) bson.A {
	filter := bucketFilter(d)
	if len(filter) == 0 {
		return nil
	}
	db := p.st.client.Database(p.st.database())
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
func treeShaped(run *stepRun) bool {
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
	run.eachOutput(walk)
	return found
}

// BarCells draws value/maxV in width cells with eighth-cell precision; a
// non-zero value always shows at least a sliver.
func BarCells(value, maxV float64, width int) string {
	if width <= 0 || maxV <= 0 || value <= 0 {
		return ""
	}
	eighths := int(math.Round(value / maxV * float64(width*8)))
	eighths = max(eighths, 1)
	full, part := eighths/8, eighths%8
	s := strings.Repeat("█", full)
	if part > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[part-1])
	}
	return s
}
