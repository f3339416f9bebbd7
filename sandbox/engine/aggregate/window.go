package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $setWindowFields: partitionBy, sortBy, and output fields computed by
// accumulators over document or numeric range windows, or by the rank
// functions ($rank, $denseRank, $documentNumber) and $shift.

type windowBound struct {
	unbounded bool
	current   bool
	n         float64
}

type windowOutput struct {
	field    string
	parts    []string
	op       string
	spec     bson.D
	acc      *accStatement // accumulator functions
	shiftOut expr.Expr
	shiftBy  int
	shiftDef expr.Expr
	byRange  bool
	lo, hi   windowBound
	bounded  bool // a window was given
}

type setWindowFieldsStage struct {
	spec        bson.D
	partitionBy expr.Expr
	sortBy      *sortSpec
	outputs     []*windowOutput
}

var windowAccumulators = map[string]bool{
	"$sum": true, "$avg": true, "$min": true, "$max": true, "$first": true, "$last": true,
	"$push": true, "$addToSet": true, "$count": true, "$stdDevPop": true, "$stdDevSamp": true,
	"$topN": true, "$bottomN": true, "$top": true, "$bottom": true, "$firstN": true, "$lastN": true,
	"$minN": true, "$maxN": true, "$percentile": true, "$median": true,
}

func parseSetWindowFields(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "the $setWindowFields stage specification must be an object, found %s", typeNameOf(spec))
	}
	s := &setWindowFieldsStage{spec: d}
	var output bson.D
	haveOutput := false
	for _, e := range d {
		switch e.Key {
		case "partitionBy":
			x, err := p.compile(e.Value)
			if err != nil {
				return nil, err
			}
			s.partitionBy = x
		case "sortBy":
			srt, err := parseSortPattern(e.Value)
			if err != nil {
				return nil, err
			}
			s.sortBy = srt
		case "output":
			o, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$setWindowFields.output' is the wrong type '%s', expected type 'object'", typeNameOf(e.Value))
			}
			output, haveOutput = o, true
		default:
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$setWindowFields.%s' is an unknown field.", e.Key)
		}
	}
	if !haveOutput {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field '$setWindowFields.output' is missing but a required field")
	}
	for _, e := range output {
		if err := projection.ValidateFieldPath(e.Key); err != nil {
			return nil, err
		}
		o, err := parseWindowOutput(e.Key, e.Value, s.sortBy, p)
		if err != nil {
			return nil, err
		}
		s.outputs = append(s.outputs, o)
	}
	return []Stage{s}, nil
}

func parseWindowOutput(field string, v any, sortBy *sortSpec, p *parser) (*windowOutput, error) {
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "Window function found an unknown argument: %s", field)
	}
	o := &windowOutput{field: field, parts: splitPath(field), spec: d}
	var fn bson.E
	var window any = value.Missing{}
	for _, e := range d {
		if e.Key == "window" {
			window = e.Value
			continue
		}
		if !strings.HasPrefix(e.Key, "$") || fn.Key != "" {
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "Window function found an unknown argument: %s", e.Key)
		}
		fn = e
	}
	if fn.Key == "" {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Expected a $-prefixed window function")
	}
	o.op = fn.Key
	switch {
	case fn.Key == "$rank" || fn.Key == "$denseRank" || fn.Key == "$documentNumber":
		if sortBy == nil || len(sortBy.paths) != 1 {
			return nil, mongoerr.Newf(5371602, "%s must be specified with a top level sortBy expression with exactly one element", fn.Key)
		}
		if !value.IsMissing(window) {
			return nil, mongoerr.Newf(5371601, "Rank style window functions take no other arguments: %s", field)
		}
		if d, ok := fn.Value.(bson.D); !ok || len(d) > 0 {
			return nil, mongoerr.Newf(5371603, "%s must be specified with '{}' as the value", fn.Key)
		}
		return o, nil
	case fn.Key == "$shift":
		// window_function_shift.cpp's parse and parseShiftArgs.
		if !value.IsMissing(window) {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$shift does not accept a 'window' field")
		}
		args, ok := fn.Value.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.FailedToParse, "Argument to $shift must be an object")
		}
		haveBy := false
		for _, a := range args {
			switch a.Key {
			case "output":
				x, err := p.compile(a.Value)
				if err != nil {
					return nil, err
				}
				o.shiftOut = x
			case "by":
				n, ok := value.ParseIntegerElementToLong(a.Value)
				if !value.IsNumber(a.Value) || !ok || n != int64(int32(n)) {
					return nil, mongoerr.New(mongoerr.FailedToParse, "'$shift:by' field must be an integer, but found  by: "+docString(a.Value))
				}
				o.shiftBy, haveBy = int(n), true
			case "default":
				x, err := p.compile(a.Value)
				if err != nil {
					return nil, err
				}
				if _, ok := expr.IsConstant(x); !ok {
					return nil, mongoerr.New(mongoerr.FailedToParse, "'$shift:default' expression must yield a constant value.")
				}
				o.shiftDef = x
			default:
				return nil, mongoerr.New(mongoerr.FailedToParse, "Unknown argument in $shift")
			}
		}
		if o.shiftOut == nil {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$shift requires an 'output' expression.")
		}
		if !haveBy {
			return nil, mongoerr.New(mongoerr.FailedToParse, "$shift requires 'by' as an integer value.")
		}
		if sortBy == nil {
			return nil, mongoerr.New(mongoerr.FailedToParse, "'$shift' requires a sortBy")
		}
		return o, nil
	case windowAccumulators[fn.Key]:
		st, err := parseAccStatement(field, bson.D{fn}, p)
		if err != nil {
			return nil, err
		}
		o.acc = st
	default:
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "Unrecognized window function, %s", fn.Key)
	}
	if !value.IsMissing(window) {
		if err := o.parseWindow(window, sortBy); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func parseBound(v any, byRange bool) (windowBound, bool) {
	switch x := v.(type) {
	case string:
		switch x {
		case "unbounded":
			return windowBound{unbounded: true}, true
		case "current":
			return windowBound{current: true}, true
		}
		return windowBound{}, false
	}
	if byRange {
		f, ok := toFloat(v)
		return windowBound{n: f}, ok
	}
	n, ok := value.ParseIntegerElementToLong(v)
	return windowBound{n: float64(n)}, ok && value.IsNumber(v)
}

func (o *windowOutput) parseWindow(w any, sortBy *sortSpec) error {
	d, ok := w.(bson.D)
	if !ok {
		return mongoerr.New(mongoerr.FailedToParse, "'window' field must be an object")
	}
	for _, e := range d {
		switch e.Key {
		case "documents", "range":
			arr, ok := e.Value.(bson.A)
			if !ok || len(arr) != 2 {
				return mongoerr.Newf(mongoerr.FailedToParse, "Window bounds must be a 2-element array: %s: %s", e.Key, docString(e.Value))
			}
			o.byRange = e.Key == "range"
			lo, ok1 := parseBound(arr[0], o.byRange)
			hi, ok2 := parseBound(arr[1], o.byRange)
			if !ok1 || !ok2 {
				return mongoerr.Newf(mongoerr.FailedToParse, "Numeric document-based bounds must be an integer")
			}
			o.lo, o.hi, o.bounded = lo, hi, true
			if !o.byRange && sortBy == nil && !(lo.unbounded && hi.unbounded) {
				return mongoerr.New(5339901, "Document-based bounds require a sortBy")
			}
			if o.byRange && (sortBy == nil || len(sortBy.paths) != 1) {
				return mongoerr.New(5339902, "Range-based bounds require sortBy a single field")
			}
		case "unit":
			return mongoerr.New(mongoerr.NotImplemented, "$setWindowFields time-unit range windows are not supported by the embedded server")
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "'window' field that is an object must have 'documents' or 'range': %s", e.Key)
		}
	}
	return nil
}

func (s *setWindowFieldsStage) Name() string { return "$setWindowFields" }
func (s *setWindowFieldsStage) Spec() bson.D { return stageSpec("$setWindowFields", s.spec) }

type windowRow struct {
	part []byte
	pval any
	key  []any
	doc  bson.D
	seq  int
}

func (s *setWindowFieldsStage) open(in Iterator, rt *runtime) (Iterator, error) {
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

// compute sorts by partition then sortBy (mongod inserts that $sort) and
// evaluates every output over each partition.
//
// With allowDiskUse: false the documents held count against
// value.MemoryLimit: as the $sort mongod puts in front when there is a
// partitionBy or a sortBy (mongod's sort error), or else as the one
// partition mongod's $setWindowFields caches. With disk use allowed mongod
// spills both; here they stay in memory, and only the window functions'
// own limits ($push, $addToSet, ...) apply.
func (s *setWindowFieldsStage) compute(in Iterator, rt *runtime) ([]bson.D, error) {
	env := rt.newEnv()
	var rows []windowRow
	limited := rt.ctx.NoDiskUse
	mem := 0
	for i := 0; ; i++ {
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		r := windowRow{doc: d, seq: i}
		if s.partitionBy != nil {
			env.Reset(d)
			v, err := s.partitionBy.Eval(env)
			if err != nil {
				return nil, err
			}
			if value.IsMissing(v) {
				v = nil
			}
			r.pval, r.part = v, appendKey(nil, v)
		}
		if s.sortBy != nil {
			r.key = s.sortBy.key(d, nil)
		}
		rows = append(rows, r)
		if limited {
			mem += sortedMem(r.key, d)
			if s.partitionBy != nil {
				mem += value.MemSize(r.pval)
			}
			if mem > value.MemoryLimit {
				if s.partitionBy != nil || s.sortBy != nil {
					return nil, value.SortMemoryExceeded()
				}
				return nil, mongoerr.Newf(5414201, "Exceeded memory limit in DocumentSourceSetWindowFields, used %d bytes but max allowed is %d", mem, value.MemoryLimit)
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b windowRow) int {
		if c := value.Compare(a.pval, b.pval); c != 0 {
			return c
		}
		if s.sortBy != nil {
			return s.sortBy.compare(a.key, b.key)
		}
		return 0
	})
	out := make([]bson.D, 0, len(rows))
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && string(rows[end].part) == string(rows[start].part) {
			end++
		}
		part := rows[start:end]
		docs := make([]bson.D, len(part))
		for i, r := range part {
			docs[i] = r.doc
		}
		for _, o := range s.outputs {
			vals, err := o.evaluate(part, env)
			if err != nil {
				return nil, err
			}
			for i := range docs {
				docs[i] = setNested(docs[i], o.parts, vals[i])
			}
		}
		out = append(out, docs...)
		start = end
	}
	return out, nil
}

func (o *windowOutput) evaluate(part []windowRow, env *expr.Env) ([]any, error) {
	vals := make([]any, len(part))
	switch o.op {
	case "$documentNumber":
		for i := range part {
			vals[i] = int32(i + 1)
		}
		return vals, nil
	case "$rank", "$denseRank":
		rank, dense := 1, 1
		for i := range part {
			if i > 0 && value.Compare(part[i].key[0], part[i-1].key[0]) != 0 {
				rank = i + 1
				dense++
			}
			if o.op == "$rank" {
				vals[i] = int32(rank)
			} else {
				vals[i] = int32(dense)
			}
		}
		return vals, nil
	case "$shift":
		for i := range part {
			j := i + o.shiftBy
			var v any = value.Missing{}
			var err error
			if j >= 0 && j < len(part) {
				env.Reset(part[j].doc)
				v, err = o.shiftOut.Eval(env)
			}
			// Out of the partition, or missing there: the default
			// (shift.js: a missing output gives the default).
			if err == nil && value.IsMissing(v) && o.shiftDef != nil {
				v, err = o.shiftDef.Eval(env)
			}
			if err != nil {
				return nil, err
			}
			vals[i] = missingToNull(v)
		}
		return vals, nil
	}
	// Accumulators. The whole partition (the default window) and
	// [unbounded, current] are computed in one pass; other windows are
	// recomputed per document.
	inputs := make([]any, len(part))
	for i, r := range part {
		env.Reset(r.doc)
		v, err := o.acc.input(env)
		if err != nil {
			return nil, err
		}
		inputs[i] = v
	}
	fold := func(lo, hi int) (any, error) {
		env.Reset(part[max(lo, 0)%len(part)].doc)
		acc, err := o.acc.newAcc(env)
		if err != nil {
			return nil, err
		}
		for k := lo; k <= hi; k++ {
			// Windows recomputed per document cost up to the partition's
			// size squared: let maxTimeMS and a killed command stop them.
			if err := env.Tick(); err != nil {
				return nil, err
			}
			if err := acc.add(inputs[k]); err != nil {
				return nil, err
			}
		}
		return windowResult(acc.result()), nil
	}
	switch {
	case !o.bounded || (o.lo.unbounded && o.hi.unbounded):
		v, err := fold(0, len(part)-1)
		if err != nil {
			return nil, err
		}
		for i := range vals {
			vals[i] = v
		}
	case !o.byRange && o.lo.unbounded && o.hi.current:
		env.Reset(part[0].doc)
		acc, err := o.acc.newAcc(env)
		if err != nil {
			return nil, err
		}
		for i := range part {
			if err := acc.add(inputs[i]); err != nil {
				return nil, err
			}
			vals[i] = windowResult(runningResult(acc))
		}
	default:
		for i := range part {
			if err := env.Tick(); err != nil {
				return nil, err
			}
			lo, hi, err := o.bounds(part, i, env)
			if err != nil {
				return nil, err
			}
			if lo > hi {
				env.Reset(part[i].doc)
				acc, err := o.acc.newAcc(env)
				if err != nil {
					return nil, err
				}
				vals[i] = windowResult(acc.result())
				continue
			}
			v, err := fold(lo, hi)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
	}
	return vals, nil
}

// runningResult freezes a running accumulator's result for one document.
// Values are immutable and $push, $addToSet, $firstN and $lastN only
// append to their arrays, so each document keeps a capacity-clipped prefix:
// a copy per document would make an [unbounded, current] window quadratic
// in memory. $minN and $maxN insert in place, so theirs is copied.
func runningResult(acc accumulator) any {
	r := acc.result()
	a, ok := r.(bson.A)
	if !ok {
		return r
	}
	if _, inPlace := acc.(*minMaxNAcc); inPlace {
		return slices.Clone(a)
	}
	return slices.Clip(a)
}

// windowResult: an empty window gives null for $min/$max-like results
// and keeps arrays and counts as the accumulator produced them.
func windowResult(v any) any { return missingToNull(v) }

// bounds returns the inclusive index range of row i's window. A range
// window scans the partition, so each step ticks env's context check.
func (o *windowOutput) bounds(part []windowRow, i int, env *expr.Env) (int, int, error) {
	if !o.byRange {
		lo, hi := 0, len(part)-1
		if !o.lo.unbounded {
			lo = i + int(o.lo.n)
			if o.lo.current {
				lo = i
			}
		}
		if !o.hi.unbounded {
			hi = i + int(o.hi.n)
			if o.hi.current {
				hi = i
			}
		}
		return max(lo, 0), min(hi, len(part)-1), nil
	}
	cur, _ := toFloat(part[i].key[0])
	in := func(j int, b windowBound, low bool) bool {
		if b.unbounded {
			return true
		}
		v, ok := toFloat(part[j].key[0])
		if !ok {
			return false
		}
		limit := cur + b.n
		if b.current {
			limit = cur
		}
		if low {
			return v >= limit
		}
		return v <= limit
	}
	lo, hi := len(part), -1
	for j := range part {
		if err := env.Tick(); err != nil {
			return 0, 0, err
		}
		if in(j, o.lo, true) && in(j, o.hi, false) {
			lo, hi = min(lo, j), max(hi, j)
		}
	}
	return lo, hi, nil
}
