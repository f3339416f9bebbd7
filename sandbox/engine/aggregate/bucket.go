package aggregate

import (
	"math"
	"slices"
	"sort"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ---- $bucket: mongod expands it into $group (with a $switch _id) + $sort ----

func isExprSpec(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.HasPrefix(x, "$")
	case bson.D:
		return len(x) > 0 && strings.HasPrefix(x[0].Key, "$")
	}
	return false
}

func constantOf(v any, p *parser) (any, bool, error) {
	x, err := p.compile(v)
	if err != nil {
		return nil, false, err
	}
	c, ok := expr.IsConstant(x)
	return c, ok, nil
}

func parseBucket(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrBucketNotObject, "Argument to $bucket stage must be an object, but found type: %s.", typeNameOf(spec))
	}
	var groupBy any = value.Missing{}
	var bounds []any
	var def any = value.Missing{}
	var output bson.D
	outputGiven := false
	for _, e := range d {
		switch e.Key {
		case "groupBy":
			if !isExprSpec(e.Value) {
				return nil, mongoerr.Newf(mongoerr.ErrBucketGroupByNotExpression, "The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: %s.", expr.FormatValue(e.Value))
			}
			groupBy = e.Value
		case "boundaries":
			arr, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrBucketBoundariesNotArray, "The $bucket 'boundaries' field must be an array, but found type: %s.", typeNameOf(e.Value))
			}
			bounds = bounds[:0]
			for _, b := range arr {
				c, ok, err := constantOf(b, p)
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrBucketBoundaryNotConstant, "The $bucket 'boundaries' field must be an array of constant values, but found value: %s.", expr.FormatValue(b))
				}
				bounds = append(bounds, c)
			}
			if len(bounds) < 2 {
				return nil, mongoerr.Newf(mongoerr.ErrBucketTooFewBoundaries, "The $bucket 'boundaries' field must have at least 2 values, but found %d value(s).", len(bounds))
			}
			for i := 1; i < len(bounds); i++ {
				lo, hi := bounds[i-1], bounds[i]
				if value.CanonicalTypeOrder(lo) != value.CanonicalTypeOrder(hi) {
					return nil, mongoerr.Newf(mongoerr.ErrBucketBoundariesMixedTypes, "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types %s and %s.", typeNameOf(lo), typeNameOf(hi))
				}
				if value.Compare(lo, hi) >= 0 {
					return nil, mongoerr.Newf(mongoerr.ErrBucketBoundariesUnsorted, "The 'boundaries' option to $bucket must be sorted, but elements %d and %d are not in ascending order (%s is not less than %s).", i-1, i, expr.StreamValue(lo), expr.StreamValue(hi))
				}
			}
		case "default":
			c, ok, err := constantOf(e.Value, p)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrBucketDefaultNotConstant, "The $bucket 'default' field must be a constant expression, but found: %s.", expr.FormatValue(e.Value))
			}
			def = c
		case "output":
			o, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrBucketOutputNotObject, "The $bucket 'output' field must be an object, but found type: %s.", typeNameOf(e.Value))
			}
			output, outputGiven = o, true
		default:
			return nil, mongoerr.Newf(mongoerr.ErrBucketUnknownOption, "Unrecognized option to $bucket: %s.", e.Key)
		}
	}
	if value.IsMissing(groupBy) || len(bounds) == 0 {
		return nil, mongoerr.New(mongoerr.ErrBucketMissingArguments, "$bucket requires 'groupBy' and 'boundaries' to be specified.")
	}
	hasDefault := !value.IsMissing(def)
	if hasDefault && value.CanonicalTypeOrder(def) == value.CanonicalTypeOrder(bounds[0]) {
		if !(value.Compare(def, bounds[0]) < 0 || value.Compare(def, bounds[len(bounds)-1]) >= 0) {
			return nil, mongoerr.New(mongoerr.ErrBucketDefaultInRange, "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.")
		}
	}
	if !outputGiven {
		output = bson.D{{Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}
	}
	// mongod hands $group the output's fields ahead of the _id it builds, so
	// they parse first, and an _id among them is a second _id (15948) once
	// it parses as a group key (document_source_bucket.cpp createFromBson).
	g := &groupStage{idSpec: bucketSwitchSpec(groupBy, bounds, def)}
	outputID := false
	for _, e := range output {
		if e.Key == "_id" {
			if _, err := parseGroupID(e.Value, p); err != nil {
				return nil, err
			}
			outputID = true
			continue
		}
		st, err := parseAccStatement(e.Key, e.Value, p)
		if err != nil {
			return nil, err
		}
		g.accs = append(g.accs, st)
	}
	if outputID {
		return nil, mongoerr.New(mongoerr.ErrGroupDuplicateID, "a group's _id may only be specified once")
	}
	by, err := p.compile(groupBy)
	if err != nil {
		return nil, err
	}
	// Numeric boundaries (the common case) are searched as float64s, which
	// is exact for int32, double and longs below 2^53.
	var boundsF []float64
	for _, b := range bounds {
		f, ok := exactFloat(b)
		if !ok {
			boundsF = nil
			break
		}
		boundsF = append(boundsF, f)
	}
	g.id = func(env *expr.Env) (any, error) {
		v, err := by.Eval(env)
		if err != nil {
			return nil, err
		}
		if f, ok := exactFloat(v); ok && boundsF != nil {
			if f >= boundsF[0] && f < boundsF[len(boundsF)-1] {
				i, found := slices.BinarySearch(boundsF, f)
				if !found {
					i--
				}
				return bounds[i], nil
			}
		} else if value.Compare(v, bounds[0]) >= 0 && value.Compare(v, bounds[len(bounds)-1]) < 0 {
			// bounds[i] <= v < bounds[i+1]
			i, found := slices.BinarySearchFunc(bounds, v, value.Compare)
			if !found {
				i--
			}
			return bounds[i], nil
		}
		if hasDefault {
			return def, nil
		}
		return nil, mongoerr.New(mongoerr.ErrSwitchNoMatch, "$switch could not find a matching branch for an input, and no default was specified.")
	}
	srt, _ := parseSortPattern(bson.D{{Key: "_id", Value: int32(1)}})
	return []Stage{g, &sortStage{sortSpec: srt}}, nil
}

// exactFloat converts numbers that a float64 holds exactly (not NaN).
func exactFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		if x > -(1<<53) && x < 1<<53 {
			return float64(x), true
		}
	case float64:
		if x == x {
			return x, true
		}
	}
	return 0, false
}

// bucketSwitchSpec is the $switch mongod builds for $bucket, as explain
// shows it.
func bucketSwitchSpec(groupBy any, bounds []any, def any) bson.D {
	branches := bson.A{}
	for i := 1; i < len(bounds); i++ {
		branches = append(branches, bson.D{
			{Key: "case", Value: bson.D{{Key: "$and", Value: bson.A{
				bson.D{{Key: "$gte", Value: bson.A{groupBy, bson.D{{Key: "$const", Value: bounds[i-1]}}}}},
				bson.D{{Key: "$lt", Value: bson.A{groupBy, bson.D{{Key: "$const", Value: bounds[i]}}}}},
			}}}},
			{Key: "then", Value: bson.D{{Key: "$const", Value: bounds[i-1]}}},
		})
	}
	sw := bson.D{{Key: "branches", Value: branches}}
	if !value.IsMissing(def) {
		sw = append(sw, bson.E{Key: "default", Value: bson.D{{Key: "$const", Value: def}}})
	}
	return bson.D{{Key: "$switch", Value: sw}}
}

// ---- $bucketAuto ----

type bucketAutoStage struct {
	groupBy     any
	by          expr.Expr
	buckets     int64
	accs        []*accStatement
	granularity string
}

func parseBucketAuto(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrBucketAutoNotObject, "The argument to $bucketAuto must be an object, but found type: %s", typeNameOf(spec))
	}
	// DocumentSourceBucketAuto::createFromBson parses each argument in its
	// turn (groupBy and output's accumulators included); the missing
	// arguments, then the bucket count's sign, are checked after them all
	// (create), and no accumulator at all means the default count.
	s := &bucketAutoStage{}
	haveBuckets := false
	for _, e := range d {
		switch e.Key {
		case "groupBy":
			// parseGroupByExpression takes a path of a name at least: "$"
			// alone is refused here, not by the field path parser.
			if !isExprSpec(e.Value) || e.Value == "$" {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoGroupByNotExpression, "The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: %s", expr.FormatValue(e.Value))
			}
			by, err := p.compile(e.Value)
			if err != nil {
				return nil, err
			}
			s.by, s.groupBy = by, e.Value
		case "buckets":
			if !value.IsNumber(e.Value) {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoBucketsNotNumber, "The $bucketAuto 'buckets' field must be a numeric value, but found type: %s", typeNameOf(e.Value))
			}
			// Value::integral: an int32 exactly; the message streams the
			// number as a double.
			if !value.Integral(e.Value) {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoBucketsNotInt32, "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found %s",
					value.FormatStreamDouble(value.ToDouble(e.Value)))
			}
			s.buckets, _ = value.IntegralLong(e.Value)
			haveBuckets = true
		case "output":
			o, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoOutputNotObject, "The $bucketAuto 'output' field must be an object, but found type: %s", typeNameOf(e.Value))
			}
			if err := s.addOutput(o, p); err != nil {
				return nil, err
			}
		case "granularity":
			g, ok := e.Value.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoGranularityNotString, "The $bucketAuto 'granularity' field must be a string, but found type: %s", typeNameOf(e.Value))
			}
			if _, ok := granularitySeries(g); !ok {
				return nil, mongoerr.Newf(mongoerr.ErrGranularityUnknown, "Unknown rounding granularity '%s'", g)
			}
			s.granularity = g
		default:
			return nil, mongoerr.Newf(mongoerr.ErrBucketAutoUnknownOption, "Unrecognized option to $bucketAuto: %s", e.Key)
		}
	}
	if s.by == nil || !haveBuckets {
		return nil, mongoerr.New(mongoerr.ErrBucketAutoMissingArguments, "$bucketAuto requires 'groupBy' and 'buckets' to be specified")
	}
	if s.buckets <= 0 {
		return nil, mongoerr.Newf(mongoerr.ErrBucketAutoBucketsNotPositive, "The $bucketAuto 'buckets' field must be greater than 0, but found: %d", s.buckets)
	}
	if len(s.accs) == 0 {
		if err := s.addOutput(bson.D{{Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}, p); err != nil {
			return nil, err
		}
	}
	return []Stage{s}, nil
}

// addOutput parses output's accumulators after any parsed before.
func (s *bucketAutoStage) addOutput(output bson.D, p *parser) error {
	for _, e := range output {
		st, err := parseAccStatement(e.Key, e.Value, p)
		if err != nil {
			return err
		}
		// $bucketAuto has no group key to compute an n from
		// (DocumentSourceBucketAuto::createFromBson): n must optimize to
		// a constant.
		if st.initN != nil {
			if _, ok := expr.IsConstant(st.initN); !ok {
				return mongoerr.New(4544714, "Can't refer to the group key in $bucketAuto")
			}
		}
		s.accs = append(s.accs, st)
	}
	return nil
}

func (s *bucketAutoStage) Name() string { return "$bucketAuto" }

// Spec is DocumentSourceBucketAuto::serialize: groupBy as it serializes,
// buckets, the granularity when there is one, then the output's
// accumulators as $group writes them.
func (s *bucketAutoStage) Spec() bson.D {
	body := bson.D{{Key: "groupBy", Value: expr.SerializeExplain(s.groupBy, nil)}, {Key: "buckets", Value: int32(s.buckets)}}
	if s.granularity != "" {
		body = append(body, bson.E{Key: "granularity", Value: s.granularity})
	}
	output := make(bson.D, len(s.accs))
	for i, a := range s.accs {
		output[i] = bson.E{Key: a.field, Value: a.explainSpec()}
	}
	return stageSpec("$bucketAuto", append(body, bson.E{Key: "output", Value: output}))
}

type autoEntry struct {
	key any
	doc bson.D
	pos int // the document's place in the stage's input
}

// inputOrdered reports whether mongod 8.0 feeds the accumulator a
// bucket's documents in input order rather than in groupBy order
// (SERVER-85337 for $first, $last, $firstN and $lastN; SERVER-90597,
// backported to 8.0, for $push): accumulator_for_bucket_auto.cpp replaces
// them with versions that keep each document's input position.
func inputOrdered(op string) bool {
	switch op {
	case "$first", "$last", "$firstN", "$lastN", "$push":
		return true
	}
	return false
}

type autoBucket struct {
	min, max any
	accs     []accumulator
}

func (s *bucketAutoStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return blockingIterator(func() ([]bson.D, error) { return s.compute(in, rt) }, asIs), nil
}

// compute follows mongod's DocumentSourceBucketAuto::populateBuckets: fill
// each bucket with about n/buckets documents in groupBy order, keep equal
// values together, and make each bucket's max the next bucket's min.
//
// The entries are sorted the way mongod's bucketAuto sorter holds them:
// with allowDiskUse: false, past value.MemoryLimit it fails with the
// sorter's error; with disk use allowed mongod spills, and they stay in
// memory here.
func (s *bucketAutoStage) compute(in Iterator, rt *runtime) ([]bson.D, error) {
	env := rt.newEnv()
	var entries []autoEntry
	limited := rt.ctx.NoDiskUse
	mem := 0
	for {
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		env.Reset(d)
		v, err := s.by.Eval(env)
		if err != nil {
			return nil, err
		}
		if value.IsMissing(v) {
			v = nil
		}
		if s.granularity != "" {
			if !value.IsNumber(v) {
				return nil, mongoerr.Newf(mongoerr.ErrBucketAutoGranularityNotNumber, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: %s", typeNameOf(v))
			}
			f := value.ToDouble(v)
			switch {
			case math.IsNaN(f):
				return nil, mongoerr.New(mongoerr.ErrBucketAutoGranularityNaN, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN")
			case f < 0:
				return nil, mongoerr.New(mongoerr.ErrBucketAutoGranularityNegative, "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number")
			case math.IsInf(f, 1):
				// mongod 8.0's rounders loop forever on an infinite value;
				// later versions refuse it with this error (11785400).
				return nil, mongoerr.New(mongoerr.ErrGranularityInfinite, "A granularity rounder can only round finite numbers")
			}
		}
		entries = append(entries, autoEntry{key: v, doc: d, pos: len(entries)})
		if limited {
			if mem += value.MemSize(v) + value.MemSize(d); mem > value.MemoryLimit {
				return nil, value.SortMemoryExceeded()
			}
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(entries, func(a, b autoEntry) int { return value.Compare(a.key, b.key) })
	size := int(math.Round(float64(len(entries)) / float64(s.buckets)))
	size = max(size, 1)
	var buckets []*autoBucket
	pos := 0
	// fill feeds a bucket's entries to its accumulators in groupBy order,
	// as mongod evaluates them; the values of inputOrdered accumulators are
	// held with their input positions and added in that order.
	type held struct {
		pos int
		v   any
	}
	fill := func(b *autoBucket, in []autoEntry) error {
		b.max = in[len(in)-1].key
		var later [][]held
		for _, e := range in {
			env.Reset(e.doc)
			for i, st := range s.accs {
				v, err := st.input(env)
				if err != nil {
					return err
				}
				if !inputOrdered(st.op) {
					if err := b.accs[i].add(v); err != nil {
						return err
					}
					continue
				}
				if later == nil {
					later = make([][]held, len(s.accs))
				}
				later[i] = append(later[i], held{e.pos, v})
			}
		}
		for i, vs := range later {
			slices.SortFunc(vs, func(a, b held) int { return a.pos - b.pos })
			for _, h := range vs {
				if err := b.accs[i].add(h.v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i := int64(0); i < s.buckets && pos < len(entries); i++ {
		first := entries[pos]
		// mongod evaluates each accumulator's n against an empty
		// document: a bucket has no single group key.
		env.Reset(bson.D{})
		b := &autoBucket{min: first.key, max: first.key, accs: make([]accumulator, len(s.accs))}
		for j, st := range s.accs {
			acc, err := st.newAcc(env)
			if err != nil {
				return nil, err
			}
			b.accs[j] = acc
		}
		last := i == s.buckets-1
		end := len(entries)
		if !last {
			end = min(pos+size, len(entries))
			for end < len(entries) && value.Compare(entries[end].key, entries[end-1].key) == 0 {
				end++
			}
			if s.granularity != "" && end < len(entries) {
				bound := roundGranularity(s.granularity, entries[end-1].key, true)
				for end < len(entries) && value.Compare(bound, entries[end].key) > 0 {
					end++
				}
			}
		}
		if err := fill(b, entries[pos:end]); err != nil {
			return nil, err
		}
		pos = end
		buckets = append(buckets, b)
	}
	if s.granularity != "" {
		// adjustBoundariesAndGetMinForNextBucket: a bucket ends at its
		// largest value rounded up, except that a bucket whose values
		// round up to 0 ends where the next bucket's first value rounds
		// down to; each later bucket starts where the previous one ends.
		firsts := make([]any, len(buckets))
		for i, b := range buckets {
			firsts[i] = b.min
		}
		for i, b := range buckets {
			if i == 0 {
				b.min = roundGranularity(s.granularity, b.min, false)
			} else {
				b.min = buckets[i-1].max
			}
			b.max = roundGranularity(s.granularity, b.max, true)
			if value.ToDouble(b.max) == 0 && i+1 < len(buckets) {
				b.max = roundGranularity(s.granularity, firsts[i+1], false)
			}
		}
	} else {
		for i := 0; i+1 < len(buckets); i++ {
			buckets[i].max = buckets[i+1].min
		}
	}
	out := make([]bson.D, 0, len(buckets))
	for _, b := range buckets {
		d := bson.D{{Key: "_id", Value: bson.D{{Key: "min", Value: b.min}, {Key: "max", Value: b.max}}}}
		for i, st := range s.accs {
			d = append(d, bson.E{Key: st.field, Value: missingToNull(b.accs[i].result())})
		}
		out = append(out, d)
	}
	return out, nil
}

// Preferred number series for $bucketAuto's granularity, exactly as
// mongod's granularity_rounder_preferred_numbers.cpp lists them (in its
// own decades: R80 there is the "least rounded" 40-value series). The
// values, not a normalised copy, are scaled by powers of ten, so results
// match mongod's doubles bit for bit (16 * 10 is 160, 1.6 * 100 is not).
var preferredSeries = map[string][]float64{
	"R5":  {10, 16, 25, 40, 63},
	"R10": {100, 125, 160, 200, 250, 315, 400, 500, 630, 800},
	"R20": {100, 112, 125, 140, 160, 180, 200, 224, 250, 280, 315, 355, 400, 450, 500, 560, 630, 710, 800, 900},
	"R40": {100, 106, 112, 118, 125, 132, 140, 150, 160, 170, 180, 190, 200, 212, 224, 236, 250, 265, 280, 300,
		315, 355, 375, 400, 425, 450, 475, 500, 530, 560, 600, 630, 670, 710, 750, 800, 850, 900, 950},
	"R80": {103, 109, 115, 122, 128, 136, 145, 155, 165, 175, 185, 195, 206, 218, 230, 243, 258, 272, 290, 307,
		325, 345, 365, 387, 412, 437, 462, 487, 515, 545, 575, 615, 650, 690, 730, 775, 825, 875, 925, 975},
	"1-2-5": {10, 20, 50},
	"E6":    {10, 15, 22, 33, 47, 68},
	"E12":   {10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82},
	"E24":   {10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75, 82, 91},
	"E48": {100, 105, 110, 115, 121, 127, 133, 140, 147, 154, 162, 169, 178, 187, 196, 205, 215, 226, 237, 249,
		261, 274, 287, 301, 316, 332, 348, 365, 383, 402, 422, 442, 464, 487, 511, 536, 562, 590, 619, 649,
		681, 715, 750, 787, 825, 866, 909, 953},
	"E96": {100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137, 140, 143, 147, 150, 154, 158,
		162, 165, 169, 174, 178, 182, 187, 191, 196, 200, 205, 210, 215, 221, 226, 232, 237, 243, 249, 255,
		261, 267, 274, 280, 287, 294, 301, 309, 316, 324, 332, 340, 348, 357, 365, 374, 383, 392, 402, 412,
		422, 432, 442, 453, 464, 475, 487, 499, 511, 523, 536, 549, 562, 576, 590, 604, 619, 634, 649, 665,
		681, 698, 715, 732, 750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976},
	"E192": {100, 101, 102, 104, 105, 106, 107, 109, 110, 111, 113, 114, 115, 117, 118, 120, 121, 123, 124, 126,
		127, 129, 130, 132, 133, 135, 137, 138, 140, 142, 143, 145, 147, 149, 150, 152, 154, 156, 158, 160,
		162, 164, 165, 167, 169, 172, 174, 176, 178, 180, 182, 184, 187, 189, 191, 193, 196, 198, 200, 203,
		205, 208, 210, 213, 215, 218, 221, 223, 226, 229, 232, 234, 237, 240, 243, 246, 249, 252, 255, 258,
		261, 264, 267, 271, 274, 277, 280, 284, 287, 291, 294, 298, 301, 305, 309, 312, 316, 320, 324, 328,
		332, 336, 340, 344, 348, 352, 357, 361, 365, 370, 374, 379, 383, 388, 392, 397, 402, 407, 412, 417,
		422, 427, 432, 437, 442, 448, 453, 459, 464, 470, 475, 481, 487, 493, 499, 505, 511, 517, 523, 530,
		536, 542, 549, 556, 562, 569, 576, 583, 590, 597, 604, 612, 619, 626, 634, 642, 649, 657, 665, 673,
		681, 690, 698, 706, 715, 723, 732, 741, 750, 759, 768, 777, 787, 796, 806, 816, 825, 835, 845, 856,
		866, 876, 887, 898, 909, 920, 931, 942, 953, 965, 976, 988},
	"POWERSOF2": nil,
}

func granularitySeries(name string) ([]float64, bool) {
	s, ok := preferredSeries[name]
	return s, ok
}

// roundGranularity rounds a non-negative number up (strictly greater when
// the value is already on the series, as mongod does) or down (strictly
// less) to the granularity's series; zero stays zero.
func roundGranularity(name string, v any, up bool) any {
	f := value.ToDouble(v)
	if f == 0 {
		return v // mongod returns a zero unchanged, type included
	}
	if name == "POWERSOF2" {
		e := math.Floor(math.Log2(f))
		p := math.Pow(2, e)
		if up {
			return p * 2
		}
		if p == f {
			return p / 2
		}
		return p
	}
	series, _ := granularitySeries(name)
	if up {
		return roundUpPreferred(series, f)
	}
	return roundDownPreferred(series, f)
}

// roundUpPreferred is GranularityRounderPreferredNumbers::roundUp for
// doubles: scale the series by powers of ten until it spans the number,
// then take the first value strictly greater.
func roundUpPreferred(series []float64, number float64) float64 {
	multiplier := 1.0
	for number >= series[len(series)-1]*multiplier {
		multiplier *= 10
	}
	for number < series[0]*multiplier {
		previousMin := series[0] * multiplier
		multiplier /= 10
		if number >= series[len(series)-1]*multiplier {
			return previousMin
		}
	}
	i := sort.Search(len(series), func(i int) bool { return number < series[i]*multiplier })
	return series[i] * multiplier
}

// roundDownPreferred is GranularityRounderPreferredNumbers::roundDown for
// doubles: the last series value strictly less than the number.
func roundDownPreferred(series []float64, number float64) float64 {
	multiplier := 1.0
	for number <= series[0]*multiplier {
		multiplier /= 10
	}
	if multiplier == 0 {
		// A denormal below every scaled series value: the scale underflowed,
		// and scaling back up would never end. Nothing representable lies
		// below it on the series but 0, which is mongod's answer
		// (jstests/aggregation/bugs/server57091.js, SERVER-57091).
		return 0
	}
	for number > series[len(series)-1]*multiplier {
		previousMax := series[len(series)-1] * multiplier
		multiplier *= 10
		if number <= series[0]*multiplier {
			return previousMax
		}
	}
	i := sort.Search(len(series), func(i int) bool { return !(series[i]*multiplier < number) })
	return series[i-1] * multiplier
}
