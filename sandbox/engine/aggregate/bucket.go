package aggregate

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
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
		return nil, mongoerr.Newf(40201, "Argument to $bucket stage must be an object, but found type: %s.", typeNameOf(spec))
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
				return nil, mongoerr.Newf(40202, "The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: %s.", docString(e.Value))
			}
			groupBy = e.Value
		case "boundaries":
			arr, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(40200, "The $bucket 'boundaries' field must be an array, but found type: %s.", typeNameOf(e.Value))
			}
			bounds = bounds[:0]
			for _, b := range arr {
				c, ok, err := constantOf(b, p)
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, mongoerr.Newf(40191, "The $bucket 'boundaries' field must be an array of constant values, but found value: %s.", docString(b))
				}
				bounds = append(bounds, c)
			}
			if len(bounds) < 2 {
				return nil, mongoerr.Newf(40192, "The $bucket 'boundaries' field must have at least 2 values, but found %d value(s).", len(bounds))
			}
			for i := 1; i < len(bounds); i++ {
				lo, hi := bounds[i-1], bounds[i]
				if value.CanonicalTypeOrder(lo) != value.CanonicalTypeOrder(hi) {
					return nil, mongoerr.Newf(40193, "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types %s and %s.", typeNameOf(lo), typeNameOf(hi))
				}
				if value.Compare(lo, hi) >= 0 {
					return nil, mongoerr.Newf(40194, "The 'boundaries' option to $bucket must be sorted, but elements %d and %d are not in ascending order (%s is not less than %s).", i-1, i, docString(lo), docString(hi))
				}
			}
		case "default":
			c, ok, err := constantOf(e.Value, p)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, mongoerr.Newf(40195, "The $bucket 'default' field must be a constant expression, but found: %s.", docString(e.Value))
			}
			def = c
		case "output":
			o, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(40196, "The $bucket 'output' field must be an object, but found type: %s.", typeNameOf(e.Value))
			}
			output, outputGiven = o, true
		default:
			return nil, mongoerr.Newf(40197, "Unrecognized option to $bucket: %s.", e.Key)
		}
	}
	if value.IsMissing(groupBy) || len(bounds) == 0 {
		return nil, mongoerr.New(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.")
	}
	hasDefault := !value.IsMissing(def)
	if hasDefault && value.CanonicalTypeOrder(def) == value.CanonicalTypeOrder(bounds[0]) {
		if !(value.Compare(def, bounds[0]) < 0 || value.Compare(def, bounds[len(bounds)-1]) >= 0) {
			return nil, mongoerr.New(40199, "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.")
		}
	}
	if !outputGiven {
		output = bson.D{{Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}
	}
	by, err := p.compile(groupBy)
	if err != nil {
		return nil, err
	}
	g := &groupStage{idSpec: bucketSwitchSpec(groupBy, bounds, def)}
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
		return nil, mongoerr.New(40066, "$switch could not find a matching branch for an input, and no default was specified.")
	}
	for _, e := range output {
		st, err := parseAccStatement(e.Key, e.Value, p)
		if err != nil {
			return nil, err
		}
		g.accs = append(g.accs, st)
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
	output      bson.D
	granularity string
}

func parseBucketAuto(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(40240, "The argument to $bucketAuto must be an object, but found type: %s.", typeNameOf(spec))
	}
	s := &bucketAutoStage{}
	var groupBy any = value.Missing{}
	haveBuckets := false
	outputGiven := false
	for _, e := range d {
		switch e.Key {
		case "groupBy":
			if !isExprSpec(e.Value) {
				return nil, mongoerr.Newf(40239, "The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: %s.", docString(e.Value))
			}
			groupBy = e.Value
		case "buckets":
			if !value.IsNumber(e.Value) {
				return nil, mongoerr.Newf(40241, "The $bucketAuto 'buckets' field must be a numeric value, but found type: %s.", typeNameOf(e.Value))
			}
			n, ok := toInt64(e.Value)
			if !ok || n > math.MaxInt32 {
				return nil, mongoerr.Newf(40242, "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found %s.", docString(e.Value))
			}
			if n <= 0 {
				return nil, mongoerr.Newf(40243, "The $bucketAuto 'buckets' field must be greater than 0, but found: %d", n)
			}
			s.buckets, haveBuckets = n, true
		case "output":
			o, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(40244, "The $bucketAuto 'output' field must be an object, but found type: %s.", typeNameOf(e.Value))
			}
			s.output, outputGiven = o, true
		case "granularity":
			g, ok := e.Value.(string)
			if !ok {
				return nil, mongoerr.Newf(40261, "The $bucketAuto 'granularity' field must be a string, but found type: %s.", typeNameOf(e.Value))
			}
			if _, ok := granularitySeries(g); !ok {
				return nil, mongoerr.Newf(40257, "Unknown rounding granularity '%s'", g)
			}
			s.granularity = g
		default:
			return nil, mongoerr.Newf(40245, "Unrecognized option to $bucketAuto: %s.", e.Key)
		}
	}
	if value.IsMissing(groupBy) || !haveBuckets {
		return nil, mongoerr.New(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified")
	}
	if !outputGiven {
		s.output = bson.D{{Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}
	}
	var err error
	if s.by, err = p.compile(groupBy); err != nil {
		return nil, err
	}
	s.groupBy = groupBy
	for _, e := range s.output {
		st, err := parseAccStatement(e.Key, e.Value, p)
		if err != nil {
			return nil, err
		}
		s.accs = append(s.accs, st)
	}
	return []Stage{s}, nil
}

func (s *bucketAutoStage) Name() string { return "$bucketAuto" }

func (s *bucketAutoStage) Spec() bson.D {
	body := bson.D{{Key: "groupBy", Value: s.groupBy}, {Key: "buckets", Value: int32(s.buckets)}, {Key: "output", Value: s.output}}
	if s.granularity != "" {
		body = append(body, bson.E{Key: "granularity", Value: s.granularity})
	}
	return stageSpec("$bucketAuto", body)
}

type autoEntry struct {
	key any
	doc bson.D
}

type autoBucket struct {
	min, max any
	accs     []accumulator
}

func (s *bucketAutoStage) open(in Iterator, rt *runtime) (Iterator, error) {
	var out []bson.D
	loaded := false
	return funcIterator(func() (bson.D, bool, error) {
		if !loaded {
			loaded = true
			var err error
			if out, err = s.compute(in, rt); err != nil {
				return nil, false, err
			}
		}
		if len(out) == 0 {
			return nil, false, nil
		}
		d := out[0]
		out = out[1:]
		return d, true, nil
	}), nil
}

// compute follows mongod's DocumentSourceBucketAuto::populateBuckets: fill
// each bucket with about n/buckets documents in groupBy order, keep equal
// values together, and make each bucket's max the next bucket's min.
func (s *bucketAutoStage) compute(in Iterator, rt *runtime) ([]bson.D, error) {
	env := rt.newEnv()
	var entries []autoEntry
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
				return nil, mongoerr.Newf(40258, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: %s", typeNameOf(v))
			}
			if f, _ := toFloat(v); f < 0 {
				return nil, mongoerr.Newf(40260, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a negative value: %s", docString(v))
			}
		}
		entries = append(entries, autoEntry{key: v, doc: d})
	}
	if len(entries) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(entries, func(a, b autoEntry) int { return value.Compare(a.key, b.key) })
	size := int(math.Round(float64(len(entries)) / float64(s.buckets)))
	size = max(size, 1)
	var buckets []*autoBucket
	pos := 0
	add := func(b *autoBucket, e autoEntry) error {
		env.Reset(e.doc)
		b.max = e.key
		for i, st := range s.accs {
			v, err := st.input(env)
			if err != nil {
				return err
			}
			if err := b.accs[i].add(v); err != nil {
				return err
			}
		}
		return nil
	}
	for i := int64(0); i < s.buckets && pos < len(entries); i++ {
		first := entries[pos]
		env.Reset(first.doc)
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
		for ; pos < end; pos++ {
			if err := add(b, entries[pos]); err != nil {
				return nil, err
			}
		}
		buckets = append(buckets, b)
	}
	if s.granularity != "" {
		for i, b := range buckets {
			if i == 0 {
				b.min = roundGranularity(s.granularity, b.min, false)
			}
			b.max = roundGranularity(s.granularity, b.max, true)
			if i > 0 {
				b.min = buckets[i-1].max
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
			d = append(d, bson.E{Key: st.field, Value: b.accs[i].result()})
		}
		out = append(out, d)
	}
	return out, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case bson.Decimal128:
		return decimalToFloat(x)
	}
	return 0, false
}

// Preferred number series for $bucketAuto's granularity (mongod's
// granularity_rounder_preferred_numbers.cpp), within one decade [1, 10).
var preferredSeries = map[string][]float64{
	"R5":        {1.0, 1.6, 2.5, 4.0, 6.3},
	"R10":       {1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0},
	"R20":       {1.0, 1.12, 1.25, 1.4, 1.6, 1.8, 2.0, 2.24, 2.5, 2.8, 3.15, 3.55, 4.0, 4.5, 5.0, 5.6, 6.3, 7.1, 8.0, 9.0},
	"R40":       {1.0, 1.06, 1.12, 1.18, 1.25, 1.32, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.12, 2.24, 2.36, 2.5, 2.65, 2.8, 3.0, 3.15, 3.35, 3.55, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0, 5.3, 5.6, 6.0, 6.3, 6.7, 7.1, 7.5, 8.0, 8.5, 9.0, 9.5},
	"R80":       {1.0, 1.03, 1.06, 1.09, 1.12, 1.15, 1.18, 1.22, 1.25, 1.28, 1.32, 1.36, 1.4, 1.45, 1.5, 1.55, 1.6, 1.65, 1.7, 1.75, 1.8, 1.85, 1.9, 1.95, 2.0, 2.06, 2.12, 2.18, 2.24, 2.3, 2.36, 2.43, 2.5, 2.58, 2.65, 2.72, 2.8, 2.9, 3.0, 3.07, 3.15, 3.25, 3.35, 3.45, 3.55, 3.65, 3.75, 3.87, 4.0, 4.12, 4.25, 4.37, 4.5, 4.62, 4.75, 4.87, 5.0, 5.15, 5.3, 5.45, 5.6, 5.8, 6.0, 6.15, 6.3, 6.5, 6.7, 6.9, 7.1, 7.3, 7.5, 7.75, 8.0, 8.25, 8.5, 8.75, 9.0, 9.25, 9.5, 9.75},
	"1-2-5":     {1.0, 2.0, 5.0},
	"E6":        {1.0, 1.5, 2.2, 3.3, 4.7, 6.8},
	"E12":       {1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2},
	"E24":       {1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1},
	"E48":       {1.0, 1.05, 1.1, 1.15, 1.21, 1.27, 1.33, 1.4, 1.47, 1.54, 1.62, 1.69, 1.78, 1.87, 1.96, 2.05, 2.15, 2.26, 2.37, 2.49, 2.61, 2.74, 2.87, 3.01, 3.16, 3.32, 3.48, 3.65, 3.83, 4.02, 4.22, 4.42, 4.64, 4.87, 5.11, 5.36, 5.62, 5.9, 6.19, 6.49, 6.81, 7.15, 7.5, 7.87, 8.25, 8.66, 9.09, 9.53},
	"E96":       nil, // accepted; rounds like E48 (not yet the full series)
	"E192":      nil,
	"POWERSOF2": nil,
}

func granularitySeries(name string) ([]float64, bool) {
	s, ok := preferredSeries[name]
	if ok && s == nil && name != "POWERSOF2" {
		s = preferredSeries["E48"]
	}
	return s, ok
}

// roundGranularity rounds a non-negative number up (strictly greater when
// the value is already on the series, as mongod does) or down (strictly
// less) to the granularity's series; zero stays zero.
func roundGranularity(name string, v any, up bool) any {
	f, _ := toFloat(v)
	if f == 0 {
		return 0.0
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
	mag := math.Pow(10, math.Floor(math.Log10(f)))
	norm := f / mag
	if up {
		for _, s := range series {
			if s > norm+1e-12 {
				return s * mag
			}
		}
		return 10 * mag
	}
	for i := len(series) - 1; i >= 0; i-- {
		if series[i] < norm-1e-12 {
			return series[i] * mag
		}
	}
	return series[len(series)-1] * mag / 10
}
