package expr

import (
	"math"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $percentile and $median (MongoDB 7.0+), as accumulator_percentile.cpp
// parses them and percentile_algo_tdigest.cpp computes them. In 8.0 the
// only method is 'approximate': as a $group accumulator it is a t-digest
// (delta 1000, k2 scaling, a 5,000-value buffer) ported below, which is
// exact while every centroid holds one value — up to several hundred
// values, depending on their spread; as an expression over an array mongod
// computes the exact discrete percentile, and so does this code.

// Quantile is a parsed {input, p, method} ({input, method} for $median).
type Quantile struct {
	Input  Expr
	Ps     []float64
	Median bool
}

// ParseQuantile parses the argument of $percentile or $median (op), used
// as an accumulator or as an expression; the IDL's errors name the field
// by op.
func ParseQuantile(op string, arg any, scope *Scope) (*Quantile, error) {
	d, ok := arg.(bson.D)
	if !ok {
		code := map[string]int32{"$percentile": mongoerr.ErrPercentileNotObject, "$median": mongoerr.ErrMedianNotObject}[op]
		return nil, mongoerr.Newf(code, "specification must be an object; found %s: %s", op, FormatValue(arg))
	}
	q := &Quantile{Median: op == "$median"}
	var pSpec any
	haveInput, haveP, haveMethod := false, false, false
	for _, e := range d {
		// The IDL parser refuses a field it has already seen.
		if (e.Key == "input" && haveInput) || (e.Key == "p" && haveP) || (e.Key == "method" && haveMethod) {
			return nil, mongoerr.Newf(mongoerr.IDLDuplicateField, "BSON field '%s.%s' is a duplicate field", op, e.Key)
		}
		switch {
		case e.Key == "input":
			x, err := Compile(e.Value, scope)
			if err != nil {
				return nil, err
			}
			q.Input, haveInput = x, true
		case e.Key == "p" && !q.Median:
			pSpec, haveP = e.Value, true
		case e.Key == "method":
			m, isString := e.Value.(string)
			if !isString {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.method' is the wrong type '%s', expected type 'string'", op, value.TypeName(e.Value))
			}
			if m != "approximate" {
				return nil, mongoerr.New(mongoerr.BadValue, "Currently only 'approximate' can be used as percentile 'method'.")
			}
			haveMethod = true
		default:
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '%s.%s' is an unknown field.", op, e.Key)
		}
	}
	for _, f := range []struct {
		name string
		have bool
	}{{"input", haveInput}, {"p", haveP || q.Median}, {"method", haveMethod}} {
		if !f.have {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.%s' is missing but a required field", op, f.name)
		}
	}
	if q.Median {
		q.Ps = []float64{0.5}
		return q, nil
	}
	ps, err := parsePercentiles(pSpec, scope)
	if err != nil {
		return nil, err
	}
	q.Ps = ps
	return q, nil
}

// parsePercentiles is parseP: a constant array of numbers in [0, 1].
func parsePercentiles(spec any, scope *Scope) ([]float64, error) {
	x, err := Compile(spec, scope)
	if err != nil {
		return nil, err
	}
	v, isConst := IsConstant(x)
	if !isConst {
		return nil, mongoerr.Newf(mongoerr.ErrPercentilePNotConstant, "The $percentile 'p' field must be an array of constant values, but found value: %s.", FormatValue(spec))
	}
	const msg = "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: "
	arr, isArr := v.(bson.A)
	if !isArr || len(arr) == 0 {
		return nil, mongoerr.New(mongoerr.ErrPercentilePNotArray, msg+formatValue(v))
	}
	ps := make([]float64, 0, len(arr))
	for _, e := range arr {
		if !value.IsNumber(e) {
			return nil, mongoerr.New(mongoerr.ErrPercentilePNotNumbers, msg+formatValue(e))
		}
		p := value.ToDouble(e)
		if p < 0 || p > 1 {
			return nil, mongoerr.New(mongoerr.ErrPercentilePOutOfRange, msg+strconv.FormatFloat(p, 'g', -1, 64))
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// Result formats computed percentiles as mongod does: an array of doubles
// for $percentile (of nulls when no input was numeric), one double (or
// null) for $median.
func (q *Quantile) Result(pctls []float64, ok bool) any {
	if q.Median {
		if !ok {
			return nil
		}
		return pctls[0]
	}
	out := make(bson.A, len(q.Ps))
	for i := range out {
		if ok {
			out[i] = pctls[i]
		} else {
			out[i] = nil
		}
	}
	return out
}

// TrueRank is mongod's computeTrueRank: the 0-based rank of percentile p
// among n values, resolving ties towards the lower rank.
func TrueRank(n int, p float64) int {
	if p >= 1 {
		return n - 1
	}
	return max(0, int(math.Ceil(float64(n)*p))-1)
}

// DiscretePercentiles returns the percentiles of vals (NaN skipped), each
// one of the values; ok is false when there is none. vals is sorted in
// place.
func DiscretePercentiles(vals []float64, ps []float64) ([]float64, bool) {
	vals = slices.DeleteFunc(vals, math.IsNaN)
	if len(vals) == 0 {
		return nil, false
	}
	slices.Sort(vals)
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = vals[TrueRank(len(vals), p)]
	}
	return out, true
}

func compileQuantile(name string, arg any, scope *Scope) (Expr, error) {
	if _, ok := arg.(bson.D); !ok {
		code := map[string]int32{"$percentile": mongoerr.ErrPercentileExpressionNotObject, "$median": mongoerr.ErrMedianExpressionNotObject}[name]
		return nil, mongoerr.Newf(code, "specification must be an object; found %s: %s", name, FormatValue(arg))
	}
	q, err := ParseQuantile(name, arg, scope)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := q.Input.Eval(env)
		if err != nil {
			return nil, err
		}
		var vals []float64
		switch x := v.(type) {
		case bson.A:
			for _, e := range x {
				if value.IsNumber(e) {
					vals = append(vals, value.ToDouble(e))
				}
			}
		default:
			if value.IsNumber(v) {
				vals = append(vals, value.ToDouble(v))
			}
		}
		return q.Result(DiscretePercentiles(vals, q.Ps)), nil
	}), nil
}

// TDigest is mongod's t-digest (TDigest with k2_limit and delta 1000).
type TDigest struct {
	buffer         []float64
	centroids      []centroid
	n              int64
	negInf, posInf int64
	min, max       float64
}

type centroid struct{ weight, mean float64 }

const (
	tdigestDelta  = 1000
	tdigestBuffer = 5 * tdigestDelta
)

// NewTDigest returns an empty digest.
func NewTDigest() *TDigest {
	return &TDigest{min: math.MaxFloat64, max: -math.MaxFloat64}
}

func (c *centroid) addCentroid(o centroid) {
	if o.weight < c.weight {
		c.weight += o.weight
		c.mean += (o.mean - c.mean) * (o.weight / c.weight)
		return
	}
	w := c.weight + o.weight
	c.mean = o.mean + (c.mean-o.mean)*(c.weight/w)
	c.weight = w
}

func (c *centroid) addValue(v float64) {
	c.weight++
	c.mean += (v - c.mean) / c.weight
}

func k2(q, delta float64) float64 {
	if q <= 0.5 {
		return delta / math.Sqrt2 * math.Sqrt(q)
	}
	return delta - delta/math.Sqrt2*math.Sqrt(1-q)
}

func k2Inverse(s, delta float64) float64 {
	r := s / delta
	if r <= 0.5 {
		return 2 * r * r
	}
	b := 1 - r
	return 1 - 2*b*b
}

func k2Limit(q, delta float64) float64 { return k2Inverse(1+k2(q, delta), delta) }

// Incorporate adds one value; NaN is ignored and infinities counted.
func (t *TDigest) Incorporate(v float64) {
	switch {
	case math.IsNaN(v):
		return
	case math.IsInf(v, -1):
		t.negInf++
		return
	case math.IsInf(v, 1):
		t.posInf++
		return
	}
	t.buffer = append(t.buffer, v)
	if len(t.buffer) >= tdigestBuffer {
		t.flush()
	}
}

func (t *TDigest) flush() {
	if len(t.buffer) == 0 {
		return
	}
	slices.Sort(t.buffer)
	t.merge(t.buffer)
	t.buffer = t.buffer[:0]
}

// merge merges sorted values into the centroids, compacting adjacent
// centroids as far as the scaling function allows.
func (t *TDigest) merge(sorted []float64) {
	t.n += int64(len(sorted))
	t.min = min(t.min, sorted[0])
	t.max = max(t.max, sorted[len(sorted)-1])
	n := float64(t.n)
	temp := make([]centroid, 0, min(2*tdigestDelta, len(t.centroids)+len(sorted)))
	ci, si := 0, 0
	w := 0.0
	limit := func() float64 { return n * k2Limit(w/n, tdigestDelta) }
	for ci < len(t.centroids) && si < len(sorted) {
		var cur centroid
		if t.centroids[ci].mean > sorted[si] {
			cur = centroid{1, sorted[si]}
			si++
		} else {
			cur = t.centroids[ci]
			ci++
		}
		q := limit()
		for ci < len(t.centroids) && si < len(sorted) {
			if t.centroids[ci].mean > sorted[si] {
				if w+cur.weight+1 > q {
					break
				}
				cur.addValue(sorted[si])
				si++
			} else {
				if w+cur.weight+t.centroids[ci].weight > q {
					break
				}
				cur.addCentroid(t.centroids[ci])
				ci++
			}
		}
		temp = append(temp, cur)
		w += cur.weight
	}
	for ci < len(t.centroids) {
		cur := t.centroids[ci]
		ci++
		q := limit()
		for ci < len(t.centroids) && w+cur.weight+t.centroids[ci].weight <= q {
			cur.addCentroid(t.centroids[ci])
			ci++
		}
		temp = append(temp, cur)
		w += cur.weight
	}
	for si < len(sorted) {
		cur := centroid{1, sorted[si]}
		si++
		q := limit()
		for si < len(sorted) && w+cur.weight+1 <= q {
			cur.addValue(sorted[si])
			si++
		}
		temp = append(temp, cur)
		w += cur.weight
	}
	t.centroids = temp
}

func (t *TDigest) lowest() float64 {
	if t.negInf > 0 {
		return math.Inf(-1)
	}
	return t.min
}

func (t *TDigest) highest() float64 {
	if t.posInf > 0 {
		return math.Inf(1)
	}
	return t.max
}

// Percentiles computes each p; ok is false when nothing was incorporated.
func (t *TDigest) Percentiles(ps []float64) ([]float64, bool) {
	t.flush()
	if len(t.centroids) == 0 && t.negInf == 0 && t.posInf == 0 {
		return nil, false
	}
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = t.percentile(p)
	}
	return out, true
}

func (t *TDigest) percentile(p float64) float64 {
	if p >= 1 {
		return t.highest()
	}
	if p <= 0 {
		return t.lowest()
	}
	rank := int64(TrueRank(int(t.n+t.posInf+t.negInf), p))
	if t.negInf > 0 && rank < t.negInf {
		return math.Inf(-1)
	}
	if t.posInf > 0 && rank >= t.n+t.negInf {
		return math.Inf(1)
	}
	rank -= t.negInf
	fr := float64(rank)
	i, r := 0, 0.0
	for ; i < len(t.centroids); i++ {
		r += t.centroids[i].weight
		if r > fr {
			break
		}
	}
	cur := t.centroids[i]
	if cur.weight == 1 {
		return cur.mean
	}
	var left, right, wLeft, wRight, doubledInnerRank float64
	if r-fr >= cur.weight/2 {
		left, wLeft = t.min, 0
		if i > 0 {
			left, wLeft = t.centroids[i-1].mean, t.centroids[i-1].weight
		}
		right, wRight = cur.mean, cur.weight
		doubledInnerRank = wLeft + 2*wRight - 2*(r-1-fr)
	} else {
		left, wLeft = cur.mean, cur.weight
		right, wRight = t.max, 0
		if i < len(t.centroids)-1 {
			right, wRight = t.centroids[i+1].mean, t.centroids[i+1].weight
		}
		doubledInnerRank = wLeft - 2*(r-1-fr)
	}
	res := left + (right-left)*(doubledInnerRank/(wLeft+wRight))
	return min(res, right)
}
