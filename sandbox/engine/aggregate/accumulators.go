package aggregate

import (
	"math"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// accumulator folds the values of one group.
type accumulator interface {
	add(v any) error
	result() any
}

// memAccumulator is an accumulator whose memory grows with what it is
// given; mem is value.MemSize of what it holds. $group counts it against
// its own limit when disk use is not allowed; the others hold a fixed
// amount (accumulatorBaseMem).
type memAccumulator interface {
	mem() int
}

// accumulatorBaseMem stands for the fixed state of an accumulator
// (mongod counts sizeof(*this)).
const accumulatorBaseMem = 64

// noSpillError is mongod's error for an accumulator past its 100 MB
// (internalQueryMaxPushBytes, internalQueryMaxAddToSetBytes), which no
// allowDiskUse can lift.
func noSpillError(op string) error {
	return mongoerr.Newf(mongoerr.ExceededMemoryLimit,
		"%s used too much memory and cannot spill to disk. Memory limit: %d bytes", op, value.MemoryLimit)
}

// nMemoryError is AccumulatorN::updateAndCheckMemUsage's error
// (internalQueryTopNAccumulatorBytes) for $firstN, $topN and the like.
func nMemoryError(op string) error {
	return mongoerr.Newf(mongoerr.ExceededMemoryLimit,
		"%s used too much memory and spilling to disk cannot reduce memory consumption any further. Memory limit: %d bytes", op, value.MemoryLimit)
}

// accStatement is one output field of $group: {field: {$op: arg}}.
type accStatement struct {
	field string
	op    string
	spec  any // the argument as given, for explain
	// input computes what add receives for the current document.
	input func(env *expr.Env) (any, error)
	// newAcc makes the accumulator of a new group; env is positioned on the
	// group's first document ($topN's n may depend on the group key).
	newAcc func(env *expr.Env) (accumulator, error)
	// initN is the n of the accumulators that take one (mongod's
	// initializer expression), which the group key may compute.
	initN expr.Expr

	// needs is which one document of the group the result comes from
	// (needAll when it takes them all), sortBy the $top/$bottom(N)'s order;
	// fromDoc computes the result from that document alone, shown as
	// fromDocSpec, for $groupByDistinctScan (see distinct_group.go).
	needs       docsNeeded
	sortBy      *sortSpec
	fromDoc     func(env *expr.Env) (any, error)
	fromDocSpec any
	// explain is the argument as the accumulator serializes it for
	// explain when it cannot be told from spec alone (nil otherwise).
	explain bson.D
}

func parseAccStatement(field string, v any, p *parser) (*accStatement, error) {
	d, ok := v.(bson.D)
	if !ok || len(d) == 0 || len(d[0].Key) == 0 || d[0].Key[0] != '$' {
		return nil, mongoerr.Newf(mongoerr.ErrGroupFieldNotAccumulator, "The field '%s' must be an accumulator object", field)
	}
	for i := 0; i < len(field); i++ {
		if field[i] == '.' {
			return nil, mongoerr.Newf(mongoerr.ErrGroupFieldDotted, "The field name '%s' cannot contain '.'", field)
		}
	}
	if field[0] == '$' {
		return nil, mongoerr.Newf(mongoerr.ErrGroupFieldOperator, "The field name '%s' cannot be an operator name", field)
	}
	if len(d) != 1 {
		return nil, mongoerr.Newf(mongoerr.ErrGroupFieldTwoAccumulators, "The field '%s' must specify one accumulator", field)
	}
	op, arg := d[0].Key, d[0].Value
	// accumulation_statement.cpp refuses an array argument before it looks
	// the accumulator up.
	if _, isArr := arg.(bson.A); isArr {
		return nil, mongoerr.Newf(mongoerr.ErrAccumulatorArrayArgument, "The %s accumulator is a unary operator", op)
	}
	st := &accStatement{field: field, op: op, spec: arg}
	switch op {
	case "$top", "$bottom", "$topN", "$bottomN":
		return st, parseTopBottom(st, arg, p)
	case "$firstN", "$lastN", "$minN", "$maxN":
		return st, parseNAcc(st, arg, p)
	case "$percentile", "$median":
		q, err := expr.ParseQuantile(op, arg, p.scope)
		if err != nil {
			return nil, err
		}
		st.input = q.Input.Eval
		st.newAcc = func(*expr.Env) (accumulator, error) { return &percentileAcc{q: q, digest: expr.NewTDigest()}, nil }
		st.explain = quantileExplain(arg, q, p.scope)
		return st, nil
	case "$_internalJsReduce":
		return nil, parseInternalJsReduce(op, arg, p)
	case "$count":
		if ad, ok := arg.(bson.D); !ok || len(ad) != 0 {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$count takes no arguments, i.e. $count:{}")
		}
		st.input = func(*expr.Env) (any, error) { return int32(1), nil }
		st.newAcc = func(*expr.Env) (accumulator, error) { return &sumAcc{}, nil }
		return st, nil
	}
	mk, ok := simpleAccumulators[op]
	if !ok {
		if err := expr.Unsupported(op); err != nil {
			return nil, err
		}
		return nil, mongoerr.Newf(mongoerr.ErrAccumulatorUnknown, "unknown group operator '%s'", op)
	}
	x, err := p.compile(arg)
	if err != nil {
		return nil, err
	}
	st.input = x.Eval
	st.newAcc = func(*expr.Env) (accumulator, error) { return mk(), nil }
	switch op {
	case "$first":
		st.oneInputDoc(needFirstInput, x, arg, false)
	case "$last":
		st.oneInputDoc(needLastInput, x, arg, false)
	}
	return st, nil
}

var simpleAccumulators = map[string]func() accumulator{
	"$sum":          func() accumulator { return &sumAcc{} },
	"$avg":          func() accumulator { return &avgAcc{} },
	"$min":          func() accumulator { return &minMaxAcc{sign: 1} },
	"$max":          func() accumulator { return &minMaxAcc{sign: -1} },
	"$first":        func() accumulator { return &firstAcc{} },
	"$last":         func() accumulator { return &lastAcc{} },
	"$push":         func() accumulator { return &pushAcc{arr: bson.A{}} },
	"$addToSet":     func() accumulator { return &addToSetAcc{arr: bson.A{}, seen: map[string]struct{}{}} },
	"$mergeObjects": func() accumulator { return &mergeObjectsAcc{out: bson.D{}} },
	"$stdDevPop":    func() accumulator { return &stdDevAcc{} },
	"$stdDevSamp":   func() accumulator { return &stdDevAcc{sample: true} },
}

// ---- $percentile / $median: mongod's t-digest (expr.TDigest) ----

type percentileAcc struct {
	q      *expr.Quantile
	digest *expr.TDigest
}

func (a *percentileAcc) add(v any) error {
	if value.IsNumber(v) {
		a.digest.Incorporate(value.ToDouble(v))
	}
	return nil
}

func (a *percentileAcc) result() any { return a.q.Result(a.digest.Percentiles(a.q.Ps)) }

// ---- $sum / $avg: the expression package's widening summation ----

type sumAcc struct{ s expr.Sum }

func (a *sumAcc) add(v any) error {
	if value.IsNumber(v) {
		a.s.Add(v)
	}
	return nil
}
func (a *sumAcc) result() any { return a.s.Result() }

type avgAcc struct{ s expr.Sum }

func (a *avgAcc) add(v any) error {
	if value.IsNumber(v) {
		a.s.Add(v)
	}
	return nil
}
func (a *avgAcc) result() any { return a.s.Avg() }

// ---- $min / $max ignore null, undefined and missing ----

type minMaxAcc struct {
	sign int // 1 for $min, -1 for $max
	// latestTie makes a value equal to the one held replace it.
	latestTie bool
	v         any
	set       bool
}

func (a *minMaxAcc) add(v any) error {
	switch v.(type) {
	case nil, value.Missing, bson.Undefined:
		return nil
	}
	if !a.set {
		a.v, a.set = v, true
		return nil
	}
	if c := value.Compare(v, a.v) * a.sign; c < 0 || (c == 0 && a.latestTie) {
		a.v = v
	}
	return nil
}

func (a *minMaxAcc) result() any {
	if !a.set {
		return nil
	}
	return a.v
}

func (a *minMaxAcc) mem() int { return value.MemSize(a.v) }

// ---- $first / $last: a missing value counts, as null ----

type firstAcc struct {
	v   any
	set bool
}

func (a *firstAcc) add(v any) error {
	if !a.set {
		a.v, a.set = missingToNull(v), true
	}
	return nil
}
func (a *firstAcc) result() any { return a.v }
func (a *firstAcc) mem() int    { return value.MemSize(a.v) }

type lastAcc struct{ v any }

func (a *lastAcc) add(v any) error { a.v = missingToNull(v); return nil }
func (a *lastAcc) result() any     { return a.v }
func (a *lastAcc) mem() int        { return value.MemSize(a.v) }

func missingToNull(v any) any {
	if value.IsMissing(v) {
		return nil
	}
	return v
}

// ---- $push / $addToSet skip missing values; each stops at 100 MB ----

type pushAcc struct {
	arr   bson.A
	bytes int
}

func (a *pushAcc) add(v any) error {
	if value.IsMissing(v) {
		return nil
	}
	a.bytes += value.MemSize(v)
	if a.bytes > value.MemoryLimit {
		return noSpillError("$push")
	}
	a.arr = append(a.arr, v)
	return nil
}
func (a *pushAcc) result() any { return a.arr }
func (a *pushAcc) mem() int    { return a.bytes }

type addToSetAcc struct {
	arr   bson.A
	seen  map[string]struct{}
	buf   []byte
	bytes int
}

func (a *addToSetAcc) add(v any) error {
	if value.IsMissing(v) {
		return nil
	}
	a.buf = appendKey(a.buf[:0], v)
	if _, dup := a.seen[string(a.buf)]; dup {
		return nil
	}
	a.bytes += value.MemSize(v)
	if a.bytes > value.MemoryLimit {
		return noSpillError("$addToSet")
	}
	a.seen[string(a.buf)] = struct{}{}
	a.arr = append(a.arr, v)
	return nil
}
func (a *addToSetAcc) result() any { return a.arr }
func (a *addToSetAcc) mem() int    { return a.bytes }

// ---- $mergeObjects skips null, undefined and missing (Value::nullish) ----

type mergeObjectsAcc struct{ out bson.D }

func (a *mergeObjectsAcc) add(v any) error {
	if nullish(v) {
		return nil
	}
	if x, ok := v.(bson.D); ok {
		for _, e := range x {
			a.out = setInPlace(a.out, e.Key, e.Value)
		}
		return nil
	}
	return mongoerr.Newf(mongoerr.ErrMergeObjectsNotObject, "$mergeObjects requires object inputs, but input %s is of type %s", docString(v), typeNameOf(v))
}
func (a *mergeObjectsAcc) result() any { return a.out }
func (a *mergeObjectsAcc) mem() int    { return value.MemSize(a.out) }

// ---- $stdDevPop / $stdDevSamp: Welford's algorithm over the numbers ----

type stdDevAcc struct {
	sample bool
	n      int64
	mean   float64
	m2     float64
}

func (a *stdDevAcc) add(v any) error {
	if !value.IsNumber(v) {
		return nil
	}
	f := value.ToDouble(v)
	a.n++
	d := f - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (f - a.mean)
	return nil
}

func (a *stdDevAcc) result() any {
	if a.sample {
		if a.n < 2 {
			return nil
		}
		return math.Sqrt(a.m2 / float64(a.n-1))
	}
	if a.n == 0 {
		return nil
	}
	return math.Sqrt(a.m2 / float64(a.n))
}

// ---- $firstN / $lastN / $minN / $maxN (accumulator_multi.cpp) ----

// nArgs is AccumulatorN::parseArgs: {input, n}, both required. parse,
// when given, parses each where it stands, before the fields after it are
// read (the last of a repeated one counts).
func nArgs(op string, arg any, parse func(key string, v any) error) (input, n any, err error) {
	d, ok := arg.(bson.D)
	if !ok {
		code := int32(mongoerr.ErrAccNSpecNotObject)
		if op == "$minN" || op == "$maxN" {
			code = mongoerr.ErrAccMinMaxNSpecNotObject
		}
		return nil, nil, mongoerr.Newf(code, "specification must be an object; found %s", value.FormatElem(op, arg))
	}
	input, n = value.Missing{}, value.Missing{}
	for _, e := range d {
		switch e.Key {
		case "input":
			input = e.Value
		case "n":
			n = e.Value
		default:
			return nil, nil, mongoerr.Newf(mongoerr.ErrAccNUnknownArgument, "Unknown argument for 'n' operator: %s", e.Key)
		}
		if parse != nil {
			if err := parse(e.Key, e.Value); err != nil {
				return nil, nil, err
			}
		}
	}
	if value.IsMissing(n) {
		return nil, nil, mongoerr.New(mongoerr.ErrAccNMissingN, "Missing value for 'n'")
	}
	if value.IsMissing(input) {
		return nil, nil, mongoerr.New(mongoerr.ErrAccNMissingInput, "Missing value for 'input'")
	}
	return input, n, nil
}

// evalN evaluates and validates n like mongod's AccumulatorN::validateN.
func evalN(x expr.Expr, env *expr.Env) (int64, error) {
	v, err := x.Eval(env)
	if err != nil {
		return 0, err
	}
	if !value.IsNumber(v) {
		return 0, mongoerr.Newf(mongoerr.ErrAccNNotNumber, "Value for 'n' must be of integral type, but found %s", expr.StreamValue(v))
	}
	n, ok := value.IntegralLong(v)
	if !ok {
		return 0, mongoerr.Newf(mongoerr.ErrAccNNotIntegral, "Value for 'n' must be of integral type, but found %s", expr.StreamValue(v))
	}
	if n <= 0 {
		return 0, mongoerr.Newf(mongoerr.ErrAccNNotPositive, "'n' must be greater than 0, found %d", n)
	}
	return n, nil
}

func parseNAcc(st *accStatement, arg any, p *parser) error {
	var in, nx expr.Expr
	inputSpec, nSpec, err := nArgs(st.op, arg, func(key string, v any) error {
		x, err := p.compile(v)
		if key == "input" {
			in = x
		} else {
			nx = x
		}
		return err
	})
	if err != nil {
		return err
	}
	st.initN = nx
	st.input = in.Eval
	op := st.op
	// With n: 1 they answer as $first and $last do, in an array
	// (group_with_acc_n_to_distinct_scan.js).
	if isOne(nSpec) && op == "$firstN" {
		st.oneInputDoc(needFirstInput, in, inputSpec, true)
	} else if isOne(nSpec) && op == "$lastN" {
		st.oneInputDoc(needLastInput, in, inputSpec, true)
	}
	st.newAcc = func(env *expr.Env) (accumulator, error) {
		n, err := evalN(nx, env)
		if err != nil {
			return nil, err
		}
		switch op {
		case "$firstN":
			return &firstNAcc{nMem: nMem{op: op}, n: n, arr: bson.A{}}, nil
		case "$lastN":
			return &lastNAcc{nMem: nMem{op: op}, n: n, arr: bson.A{}}, nil
		}
		return &minMaxNAcc{nMem: nMem{op: op}, n: n, max: op == "$maxN"}, nil
	}
	return nil
}

// nMem is the memory account of the accumulators that keep n values:
// the MemSize of the values kept, at most 100 MB.
type nMem struct {
	op    string
	bytes int
}

func (m *nMem) grow(n int) error {
	m.bytes += n
	if m.bytes > value.MemoryLimit {
		return nMemoryError(m.op)
	}
	return nil
}

func (m *nMem) mem() int { return m.bytes }

type firstNAcc struct {
	nMem
	n   int64
	arr bson.A
}

func (a *firstNAcc) add(v any) error {
	if int64(len(a.arr)) < a.n {
		v = missingToNull(v)
		if err := a.grow(value.MemSize(v)); err != nil {
			return err
		}
		a.arr = append(a.arr, v)
	}
	return nil
}
func (a *firstNAcc) result() any { return a.arr }

type lastNAcc struct {
	nMem
	n   int64
	arr bson.A
}

func (a *lastNAcc) add(v any) error {
	v = missingToNull(v)
	if err := a.grow(value.MemSize(v)); err != nil {
		return err
	}
	a.arr = append(a.arr, v)
	if int64(len(a.arr)) > a.n {
		a.bytes -= value.MemSize(a.arr[0])
		a.arr = a.arr[1:]
	}
	return nil
}
func (a *lastNAcc) result() any { return a.arr }

// minMaxNAcc is AccumulatorMinMaxN: the non-null values kept in ascending
// order, equal values in the order they came (a multiset); when it holds
// n, $minN replaces its largest with a smaller value and $maxN its
// smallest with a larger one. $minN answers in ascending order, $maxN in
// descending order (the multiset reversed).
type minMaxNAcc struct {
	nMem
	n   int64
	max bool
	asc bson.A
}

func (a *minMaxNAcc) add(v any) error {
	if nullish(v) {
		return nil
	}
	if int64(len(a.asc)) == a.n {
		switch {
		case !a.max && value.Compare(a.asc[len(a.asc)-1], v) > 0:
			a.bytes -= value.MemSize(a.asc[len(a.asc)-1])
			a.asc = a.asc[:len(a.asc)-1]
		case a.max && value.Compare(a.asc[0], v) < 0:
			a.bytes -= value.MemSize(a.asc[0])
			a.asc = a.asc[1:]
		default:
			return nil
		}
	}
	if err := a.grow(value.MemSize(v)); err != nil {
		return err
	}
	i := upperBound(len(a.asc), func(i int) int { return value.Compare(a.asc[i], v) })
	a.asc = slices.Insert(a.asc, i, v)
	return nil
}

func (a *minMaxNAcc) result() any {
	out := slices.Clone(a.asc)
	if out == nil {
		out = bson.A{}
	}
	if a.max {
		slices.Reverse(out)
	}
	return out
}

// upperBound is the first index whose element compares greater than the
// sought value (cmp(i) > 0), where a multiset inserts after its equals.
func upperBound(n int, cmp func(i int) int) int {
	lo, hi := 0, n
	for lo < hi {
		m := (lo + hi) / 2
		if cmp(m) > 0 {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// ---- $top / $bottom / $topN / $bottomN ----

type rankedValue struct {
	key []any
	out any
}

// topBottomArgs is accumulatorNParseArgs: {n, output, sortBy}, without n
// for $top and $bottom.
func topBottomArgs(op string, arg any, single bool) (n, output, sortBy any, err error) {
	return topBottomArgsParsingN(op, arg, single, nil)
}

// topBottomArgsParsingN is topBottomArgs that also parses n where it
// stands (parseN, when given), before the fields after it are read.
func topBottomArgsParsingN(op string, arg any, single bool, parseN func(v any) error) (n, output, sortBy any, err error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, nil, nil, mongoerr.Newf(mongoerr.ErrAccTopSpecNotObject, "specification must be an object; found %s", value.FormatElem(op, arg))
	}
	n, output, sortBy = value.Missing{}, value.Missing{}, value.Missing{}
	for _, e := range d {
		switch {
		case e.Key == "n" && !single:
			n = e.Value
			if parseN != nil {
				if err := parseN(n); err != nil {
					return nil, nil, nil, err
				}
			}
		case e.Key == "output":
			output = e.Value
		case e.Key == "sortBy":
			// BSONElement::Obj takes an array as the object of its indexes.
			switch x := e.Value.(type) {
			case bson.D:
				sortBy = x
			case bson.A:
				sortBy = value.ArrayAsDoc(x)
			default:
				return nil, nil, nil, mongoerr.New(mongoerr.ErrRandArgumentNotObject, "invalid parameter: expected an object (sortBy)")
			}
		default:
			return nil, nil, nil, mongoerr.Newf(mongoerr.ErrAccTopUnknownArgument, "Unknown argument to %s '%s'", op, e.Key)
		}
	}
	switch {
	case single:
		n = int32(1)
	case value.IsMissing(n):
		return nil, nil, nil, mongoerr.New(mongoerr.ErrAccTopMissingN, "Missing value for 'n'")
	}
	if value.IsMissing(output) {
		return nil, nil, nil, mongoerr.New(mongoerr.ErrAccTopMissingOutput, "Missing value for 'output'")
	}
	if value.IsMissing(sortBy) {
		return nil, nil, nil, mongoerr.New(mongoerr.ErrAccTopMissingSortBy, "Missing value for 'sortBy'")
	}
	return n, output, sortBy, nil
}

func parseTopBottom(st *accStatement, arg any, p *parser) error {
	single := st.op == "$top" || st.op == "$bottom"
	var nx expr.Expr
	nSpec, outSpec, sortSpec, err := topBottomArgsParsingN(st.op, arg, single, func(v any) (err error) {
		nx, err = p.compile(v)
		return err
	})
	if err != nil {
		return err
	}
	srt, err := parseSortPattern(sortSpec)
	if err != nil {
		return err
	}
	out, err := p.compile(outSpec)
	if err != nil {
		return err
	}
	st.input = func(env *expr.Env) (any, error) {
		v, err := out.Eval(env)
		if err != nil {
			return nil, err
		}
		key, err := srt.Key(env.Root(), nil)
		if err != nil {
			return nil, err
		}
		return rankedValue{key: key, out: missingToNull(v)}, nil
	}
	if single {
		// $top and $bottom take n as the constant 1.
		if nx, err = p.compile(nSpec); err != nil {
			return err
		}
	} else {
		st.initN = nx
	}
	bottom := st.op == "$bottom" || st.op == "$bottomN"
	if single || isOne(nSpec) {
		needs := needFirstOutput
		if bottom {
			needs = needLastOutput
		}
		st.oneInputDoc(needs, out, outSpec, !single)
	}
	st.sortBy = srt
	st.newAcc = func(env *expr.Env) (accumulator, error) {
		n, err := evalN(nx, env)
		if err != nil {
			return nil, err
		}
		return &topAcc{nMem: nMem{op: st.op}, n: n, spec: srt, bottom: bottom, single: single}, nil
	}
	return nil
}

// topAcc is AccumulatorTopBottomN: the values kept in ascending sortBy
// order, ties in the order they came (a multimap); when it holds n, $top
// replaces its last with a value that sorts before it and $bottom its
// first with one that sorts after it, so a tie keeps the value seen
// first. Both answer in ascending sortBy order.
type topAcc struct {
	nMem
	n      int64
	spec   *sortSpec
	bottom bool
	single bool
	// removable is WindowFunctionTopBottomN, the accumulator of a window
	// whose lower bound is not unbounded: it keeps every value and answers
	// the first n (top) or the last n (bottom), so there a tie at the
	// bottom keeps the values seen last.
	removable bool
	vals      []rankedValue
}

func (a *topAcc) add(v any) error {
	r := v.(rankedValue)
	if int64(len(a.vals)) == a.n && !a.removable {
		switch {
		case !a.bottom && a.spec.compare(a.vals[len(a.vals)-1].key, r.key) > 0:
			a.bytes -= rankedMem(a.vals[len(a.vals)-1])
			a.vals = a.vals[:len(a.vals)-1]
		case a.bottom && a.spec.compare(r.key, a.vals[0].key) > 0:
			a.bytes -= rankedMem(a.vals[0])
			a.vals = a.vals[1:]
		default:
			return nil
		}
	}
	if err := a.grow(rankedMem(r)); err != nil {
		return err
	}
	i := upperBound(len(a.vals), func(i int) int { return a.spec.compare(a.vals[i].key, r.key) })
	a.vals = slices.Insert(a.vals, i, r)
	return nil
}

// rankedMem counts a kept value with its sort key.
func rankedMem(r rankedValue) int {
	n := value.MemSize(r.out)
	for _, k := range r.key {
		n += value.MemSize(k)
	}
	return n
}

func (a *topAcc) result() any {
	vals := a.vals
	if extra := int64(len(vals)) - a.n; extra > 0 && a.bottom {
		vals = vals[extra:]
	} else if extra > 0 {
		vals = vals[:a.n]
	}
	if a.single {
		if len(vals) == 0 {
			return nil
		}
		return vals[0].out
	}
	out := make(bson.A, len(vals))
	for i, r := range vals {
		out[i] = r.out
	}
	return out
}

// quantileExplain is AccumulatorPercentile::serializeHelper (and
// AccumulatorMedian's): the input as it serializes, the percentiles as the
// numbers p evaluated to ($median has none) and the method.
func quantileExplain(arg any, q *expr.Quantile, scope *expr.Scope) bson.D {
	d, _ := arg.(bson.D)
	out := bson.D{{Key: "input", Value: expr.SerializeExplain(value.Get(d, "input"), scope)}}
	if !q.Median {
		ps := make(bson.A, len(q.Ps))
		for i, v := range q.Ps {
			ps[i] = v
		}
		out = append(out, bson.E{Key: "p", Value: ps})
	}
	return append(out, bson.E{Key: "method", Value: "approximate"})
}

// nExplain is AccumulatorN::serializeHelper: n, then input, each as its
// expression serializes; ok is false when arg is no {input, n}.
func nExplain(op string, arg any, scope *expr.Scope) (bson.D, bool) {
	input, n, err := nArgs(op, arg, nil)
	if err != nil {
		return nil, false
	}
	return bson.D{{Key: "n", Value: expr.SerializeExplain(n, scope)}, {Key: "input", Value: expr.SerializeExplain(input, scope)}}, true
}
