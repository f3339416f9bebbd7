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

// $setWindowFields (document_source_set_window_fields.cpp): partitionBy,
// sortBy, and output fields, each a window function
// (window_function/window_function_expression.h) over a window of the
// sorted partition.

type setWindowFieldsStage struct {
	partitionBy expr.Expr
	// partitionPath is the field the input is sorted on first ("" for
	// no partitioning).
	partitionPath string
	sortBy        *sortSpec
	outputs       []*windowOutput

	// The model of the memory mongod's tracker reports for explain
	// (maxFunctionMemoryUsageBytes, maxTotalMemoryUsageBytes), in
	// value.MemSize bytes: per output, the most its window held at once,
	// the input values of the documents inside it for the accumulator-style
	// functions and the largest value returned for the others, which keep
	// a few values; in all, the largest partition's documents, which the
	// stage caches, with its functions' peaks.
	fnBytes    []int64
	totalBytes int64
}

// execStats is what DocumentSourceInternalSetWindowFields::serialize adds
// at executionStats verbosity: each function's peak memory, the stage's,
// and whether it spilled, which the sandbox never does.
func (s *setWindowFieldsStage) execStats() bson.D {
	fns := bson.D{}
	for i, o := range s.outputs {
		var n int64
		if i < len(s.fnBytes) {
			n = s.fnBytes[i]
		}
		fns = append(fns, bson.E{Key: o.field, Value: n})
	}
	return bson.D{
		{Key: "maxFunctionMemoryUsageBytes", Value: fns},
		{Key: "maxTotalMemoryUsageBytes", Value: s.totalBytes},
		{Key: "usedDisk", Value: false},
	}
}

// windowOutput is one output field and the window function computing it.
type windowOutput struct {
	field  string
	parts  []string
	op     string
	bounds windowBounds
	// serialized is the function as explain shows it.
	serialized bson.D
	// acc computes the accumulator-style functions ($sum, $push, $topN,
	// $percentile, $covariancePop, ...) over each document's window.
	acc *accStatement
	// fn computes the other functions over the whole partition at once.
	fn func(part []windowRow, env *expr.Env, ar *arith) ([]any, error)
}

// windowAccumulators are the accumulator-style window functions whose
// input is one expression; the n-functions, $top/$bottom and the
// quantiles parse their own arguments.
var windowAccumulators = map[string]func() accumulator{
	"$sum":           func() accumulator { return &sumAcc{} },
	"$avg":           func() accumulator { return &avgAcc{} },
	"$min":           func() accumulator { return &minMaxAcc{sign: 1} },
	"$max":           func() accumulator { return &minMaxAcc{sign: -1} },
	"$push":          func() accumulator { return &pushAcc{arr: bson.A{}} },
	"$addToSet":      func() accumulator { return &addToSetAcc{arr: bson.A{}, seen: map[string]struct{}{}} },
	"$stdDevPop":     func() accumulator { return &stdDevAcc{} },
	"$stdDevSamp":    func() accumulator { return &stdDevAcc{sample: true} },
	"$covariancePop": func() accumulator { return &covarianceAcc{} },
	"$covarianceSamp": func() accumulator {
		return &covarianceAcc{sample: true}
	},
}

// removableAccumulators stand in for windowAccumulators when the window's
// lower bound is not unbounded: mongod then runs the function's removable
// WindowFunctionState (window_function_exec.cpp translateDocumentWindow and
// the range executor) rather than its $group accumulator, and these answer
// differently (window_funcs.go).
var removableAccumulators = map[string]func() accumulator{
	"$addToSet": func() accumulator {
		return &sortedSetAcc{addToSetAcc{arr: bson.A{}, seen: map[string]struct{}{}}}
	},
	"$max":        func() accumulator { return &minMaxAcc{sign: -1, latestTie: true} },
	"$sum":        func() accumulator { return &removableSumAcc{} },
	"$avg":        func() accumulator { return &removableAvgAcc{} },
	"$stdDevPop":  func() accumulator { return &removableStdDevAcc{} },
	"$stdDevSamp": func() accumulator { return &removableStdDevAcc{sample: true} },
}

// windowFunctions are the names mongod 8.0 registers as window functions;
// an output naming another $-prefixed function is "Unrecognized".
var windowFunctions = map[string]bool{
	"$addToSet": true, "$avg": true, "$bottom": true, "$bottomN": true, "$count": true,
	"$covariancePop": true, "$covarianceSamp": true, "$denseRank": true, "$derivative": true,
	"$documentNumber": true, "$expMovingAvg": true, "$first": true, "$firstN": true,
	"$integral": true, "$last": true, "$lastN": true, "$linearFill": true, "$locf": true,
	"$max": true, "$maxN": true, "$median": true, "$min": true, "$minN": true,
	"$percentile": true, "$push": true, "$rank": true, "$shift": true, "$stdDevPop": true,
	"$stdDevSamp": true, "$sum": true, "$top": true, "$topN": true,
}

func parseSetWindowFields(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "the $setWindowFields stage specification must be an object, found %s", typeNameOf(spec))
	}
	s := &setWindowFieldsStage{}
	// SetWindowFieldsSpec (document_source_set_window_fields.idl): each
	// field once, sortBy and output objects, output required.
	fields, err := parseIDL("$setWindowFields", d,
		idlField{name: "partitionBy"},
		idlField{name: "sortBy", types: []string{"object"}},
		idlField{name: "output", types: []string{"object"}, required: true})
	if err != nil {
		return nil, err
	}
	output := fields["output"].(bson.D)
	partitionBy, ok := fields["partitionBy"]
	if !ok {
		partitionBy = value.Missing{}
	}
	// document_source_set_window_fields.cpp create(): a constant
	// partitionBy is no partitioning; a field path is sorted on directly;
	// any other expression is first bound to a temporary field, which the
	// stages sort and partition on and then remove.
	var partitionPath string
	var bindPartition bson.D
	var partitionIsArray bool
	if !value.IsMissing(partitionBy) {
		x, err := p.compile(partitionBy)
		if err != nil {
			return nil, err
		}
		c, constant := expr.IsConstant(x)
		// create() refuses a constant array only after createFromBson has
		// parsed sortBy and every output, whose errors come first.
		partitionIsArray = constant && value.IsArray(c)
		if !constant {
			if path, ok := partitionBy.(string); ok && strings.HasPrefix(path, "$") && !strings.HasPrefix(path, "$$") {
				partitionPath = path[1:]
			} else {
				partitionPath = windowPartitionKey
				bindPartition = bson.D{{Key: windowPartitionKey, Value: partitionBy}}
				if x, err = p.compile("$" + windowPartitionKey); err != nil {
					return nil, err
				}
			}
			s.partitionBy, s.partitionPath = x, partitionPath
		}
	}
	var sortBy bson.D
	if sb, ok := lookupField(d, "sortBy"); ok {
		srt, err := parseSortPattern(sb)
		if err != nil {
			return nil, err
		}
		s.sortBy, sortBy = srt, sb.(bson.D)
	}
	var seen []string
	for _, e := range output {
		for _, prev := range seen {
			if pathsConflict(prev, e.Key) {
				return nil, mongoerr.New(mongoerr.ErrWindowOutputConflict, "$setWindowFields 'output' specification contains two conflicting paths")
			}
		}
		seen = append(seen, e.Key)
		o, err := parseWindowOutput(e.Key, e.Value, s.sortBy, p)
		if err != nil {
			return nil, err
		}
		s.outputs = append(s.outputs, o)
	}
	if partitionIsArray {
		return nil, mongoerr.New(mongoerr.TypeMismatch, "An expression used to partition cannot evaluate to value of type array")
	}
	// The output names become FieldPaths only when the pipeline takes the
	// stage's dependencies (WindowFunctionStatement::addDependencies),
	// after every output has parsed.
	for _, e := range output {
		if err := projection.ValidateFieldPath(e.Key); err != nil {
			return nil, err
		}
	}
	var stages []Stage
	if bindPartition != nil {
		bind, err := parseAddFields("$addFields")(bindPartition, p)
		if err != nil {
			return nil, err
		}
		stages = append(stages, bind...)
	}
	if partitionPath != "" || sortBy != nil {
		// The sort key: the partition, then sortBy without it.
		key := bson.D{}
		if partitionPath != "" {
			key = append(key, bson.E{Key: partitionPath, Value: int32(1)})
		}
		for _, e := range sortBy {
			if e.Key != partitionPath {
				key = append(key, e)
			}
		}
		srt, err := parseSortPattern(key)
		if err != nil {
			return nil, err
		}
		stages = append(stages, &sortStage{sortSpec: srt, outputSortKeyMetadata: true})
	}
	stages = append(stages, s)
	if bindPartition != nil {
		unbind, err := parseUnset(windowPartitionKey, p)
		if err != nil {
			return nil, err
		}
		stages = append(stages, unbind...)
	}
	return stages, nil
}

// windowPartitionKey is the temporary field a partitionBy expression is
// bound to; mongod names it so that a collision is unlikely in practice.
const windowPartitionKey = "__internal_setWindowFields_partition_key"

// serialize is the window function's serialize (window_function_expression.h)
// for arg, the function's own argument: its input expression as explain
// shows expressions, then the window it runs over. $count is the $sum of
// 1 it parses into. Functions whose argument names other arguments
// ($shift, the n-functions, the quantiles, ...) show the argument as
// given.
func (o *windowOutput) serialize(arg any, scope *expr.Scope) bson.D {
	switch o.op {
	case "$rank", "$denseRank", "$documentNumber":
		return bson.D{{Key: o.op, Value: bson.D{}}}
	case "$shift":
		return bson.D{{Key: o.op, Value: shiftExplain(arg, scope)}}
	case "$expMovingAvg":
		return bson.D{{Key: o.op, Value: expMovingAvgExplain(arg, scope)}}
	case "$locf", "$linearFill":
		return bson.D{{Key: o.op, Value: expr.SerializeExplain(arg, scope)}}
	case "$count":
		return bson.D{{Key: "$sum", Value: bson.D{{Key: "$const", Value: int32(1)}}}, {Key: "window", Value: o.bounds.serialize()}}
	case "$derivative", "$integral":
		args := bson.D{}
		if d, ok := arg.(bson.D); ok {
			args = append(args, bson.E{Key: "input", Value: expr.SerializeExplain(value.Get(d, "input"), scope)})
			if unit := value.Get(d, "unit"); !value.IsMissing(unit) {
				args = append(args, bson.E{Key: "unit", Value: unit})
			}
		}
		return bson.D{{Key: o.op, Value: args}, {Key: "window", Value: o.bounds.serialize()}}
	case "$firstN", "$lastN", "$minN", "$maxN":
		// ExpressionMinMaxN::serialize and its $firstN/$lastN sibling
		// write AccumulatorN::serializeHelper's {n, input}.
		if nd, ok := nExplain(o.op, arg, scope); ok {
			return bson.D{{Key: o.op, Value: nd}, {Key: "window", Value: o.bounds.serialize()}}
		}
		return bson.D{{Key: o.op, Value: arg}, {Key: "window", Value: o.bounds.serialize()}}
	case "$topN", "$bottomN", "$top", "$bottom", "$percentile", "$median":
		return bson.D{{Key: o.op, Value: arg}, {Key: "window", Value: o.bounds.serialize()}}
	}
	return bson.D{{Key: o.op, Value: expr.SerializeExplain(arg, scope)}, {Key: "window", Value: o.bounds.serialize()}}
}

// shiftExplain is ExpressionShift::serialize for an argument that parsed:
// by as an int, the output expression, the default's constant value (null
// when none), in that order, the last of a field given twice winning.
func shiftExplain(arg any, scope *expr.Scope) bson.D {
	var by int64
	var out, def any
	a, _ := arg.(bson.D)
	for _, e := range a {
		switch e.Key {
		case "by":
			by, _ = value.IntegralLong(e.Value)
		case "output":
			out = expr.SerializeExplain(e.Value, scope)
		case "default":
			if x, err := expr.Compile(e.Value, scope); err == nil {
				def, _ = expr.IsConstant(x)
			}
		}
	}
	return bson.D{{Key: "by", Value: int32(by)}, {Key: "output", Value: out}, {Key: "default", Value: def}}
}

// expMovingAvgExplain is ExpressionExpMovingAvg::serialize for an argument
// that parsed: N as the long it was read as, or alpha as the decimal it
// was read as, then the input.
func expMovingAvgExplain(arg any, scope *expr.Scope) bson.D {
	a, _ := arg.(bson.D)
	out := bson.D{}
	if n, ok := lookupField(a, "N"); ok {
		l, _ := value.SafeNumberLong(n)
		out = append(out, bson.E{Key: "N", Value: l})
	} else if alpha, ok := lookupField(a, "alpha"); ok {
		out = append(out, bson.E{Key: "alpha", Value: decimalOfValue(alpha)})
	}
	input, _ := lookupField(a, "input")
	return append(out, bson.E{Key: "input", Value: expr.SerializeExplain(input, scope)})
}

// pathsConflict: one path equals the other or is a prefix of it.
func pathsConflict(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

// parseWindowOutput is WindowFunctionStatement::parse and
// window_function::Expression::parse: the first $-prefixed field names the
// function, whose own parser reads the rest.
func parseWindowOutput(field string, v any, sortBy *sortSpec, p *parser) (*windowOutput, error) {
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "The field '%s' must be an object", field)
	}
	o := &windowOutput{field: field, parts: splitPath(field), bounds: wholePartition}
	for _, e := range d {
		if !strings.HasPrefix(e.Key, "$") {
			continue
		}
		if !windowFunctions[e.Key] {
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "Unrecognized window function, %s", e.Key)
		}
		o.op = e.Key
		if err := o.parse(d, sortBy, p); err != nil {
			return nil, err
		}
		o.serialized = o.serialize(e.Value, p.scope)
		return o, nil
	}
	msg := "Expected a $-prefixed window function"
	if len(d) > 0 && d[0].Key != "" {
		msg += ", " + d[0].Key
	}
	return nil, mongoerr.New(mongoerr.FailedToParse, msg)
}

func (o *windowOutput) parse(d bson.D, sortBy *sortSpec, p *parser) error {
	switch o.op {
	case "$rank", "$denseRank", "$documentNumber":
		return o.parseRank(d, sortBy)
	case "$shift":
		return o.parseShift(d, sortBy, p)
	case "$derivative", "$integral":
		return o.parseWithUnit(d, sortBy, p)
	case "$expMovingAvg":
		return o.parseExpMovingAvg(d, sortBy, p)
	case "$locf", "$linearFill":
		return o.parseFill(d, sortBy, p)
	case "$first", "$last", "$firstN", "$lastN", "$minN", "$maxN", "$topN", "$bottomN", "$top", "$bottom", "$percentile", "$median":
		return o.parseNamedArgs(d, sortBy, p)
	}
	return o.parseRemovable(d, sortBy, p)
}

// parseRemovable is ExpressionRemovable::parse, for the functions whose
// argument is one expression ($sum, $push, $covariancePop, $count...).
func (o *windowOutput) parseRemovable(d bson.D, sortBy *sortSpec, p *parser) error {
	var fn *bson.E
	var x expr.Expr
	for i, e := range d {
		switch {
		case e.Key == "window":
			b, err := parseWindowBounds(e.Value, sortBy, p)
			if err != nil {
				return err
			}
			o.bounds = b
		case windowFunctions[e.Key] && o.op == "$count":
			// window_function_count.cpp has its own loop and words.
			if fn != nil {
				return mongoerr.New(mongoerr.FailedToParse, "Cannot specify multiple functions in window function spec")
			}
			if a, ok := e.Value.(bson.D); !ok || len(a) != 0 {
				return mongoerr.New(mongoerr.FailedToParse, "$count only accepts an empty object as input")
			}
			fn = &d[i]
		case windowFunctions[e.Key]:
			if fn != nil {
				return mongoerr.New(mongoerr.FailedToParse, "Cannot specify two functions in window function spec")
			}
			// The input parses where it stands, before any field after it.
			var err error
			if x, err = p.compile(e.Value); err != nil {
				return err
			}
			fn = &d[i]
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "Window function found an unknown argument: %s", e.Key)
		}
	}
	st := &accStatement{field: o.field, op: o.op, spec: fn.Value}
	if o.op == "$count" {
		st.input = func(*expr.Env) (any, error) { return int32(1), nil }
		st.newAcc = func(*expr.Env) (accumulator, error) { return &sumAcc{}, nil }
		o.acc = st
		return nil
	}
	mk := windowAccumulators[o.op]
	if r, ok := removableAccumulators[o.op]; ok && !o.bounds.lo.unbounded {
		mk = r
	}
	st.input = x.Eval
	st.newAcc = func(*expr.Env) (accumulator, error) { return mk(), nil }
	o.acc = st
	return nil
}

// parseNamedArgs reads the functions that take {name: args, window}:
// $first/$last (ExpressionFirstLast), the n-functions and $top/$bottom
// (ExpressionN), and the quantiles (ExpressionQuantile). Each field parses
// where it stands, so the first bad one is refused; which state runs is
// known once the window is.
func (o *windowOutput) parseNamedArgs(d bson.D, sortBy *sortSpec, p *parser) error {
	st := &accStatement{field: o.field, op: o.op}
	var q *expr.Quantile
	parseArg := func(arg any) error {
		st.spec = arg
		switch o.op {
		case "$first", "$last":
			x, err := p.compile(arg)
			if err != nil {
				return err
			}
			st.input = x.Eval
			st.newAcc = func(*expr.Env) (accumulator, error) { return &windowFirstLast{last: o.op == "$last"}, nil }
			return nil
		case "$top", "$bottom", "$topN", "$bottomN":
			return parseTopBottom(st, arg, p)
		case "$firstN", "$lastN", "$minN", "$maxN":
			return parseNAcc(st, arg, p)
		}
		var err error
		if q, err = expr.ParseQuantile(o.op, arg, p.scope); err != nil {
			return err
		}
		st.input = q.Input.Eval
		return nil
	}
	haveArg, haveWindow := false, false
	for _, e := range d {
		switch e.Key {
		case "window":
			if haveWindow && o.op != "$percentile" && o.op != "$median" {
				return mongoerr.Newf(mongoerr.FailedToParse, "saw multiple 'window' fields in '%s' expression", o.op)
			}
			b, err := parseWindowBounds(e.Value, sortBy, p)
			if err != nil {
				return err
			}
			o.bounds, haveWindow = b, true
		case o.op:
			switch {
			case !haveArg, o.op == "$first", o.op == "$last":
			case o.op == "$percentile", o.op == "$median":
				// ExpressionQuantile::parse words it without the closing
				// quote and space.
				return mongoerr.Newf(mongoerr.FailedToParse, "saw multiple specifications for '%sexpression ", o.op)
			default:
				return mongoerr.Newf(mongoerr.FailedToParse, "saw multiple specifications for '%s' expression", o.op)
			}
			if err := parseArg(e.Value); err != nil {
				return err
			}
			haveArg = true
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "%s got unexpected argument: %s", o.op, e.Key)
		}
	}
	switch {
	case q != nil && o.bounds.lo.unbounded:
		st.newAcc = func(*expr.Env) (accumulator, error) { return &percentileAcc{q: q, digest: expr.NewTDigest()}, nil }
	case q != nil:
		st.newAcc = func(*expr.Env) (accumulator, error) { return &discreteQuantileAcc{q: q}, nil }
	case st.sortBy != nil && !o.bounds.lo.unbounded: // $top, $bottom, $topN, $bottomN
		mk := st.newAcc
		st.newAcc = func(env *expr.Env) (accumulator, error) {
			acc, err := mk(env)
			if t, ok := acc.(*topAcc); ok {
				t.removable = true
			}
			return acc, err
		}
	}
	o.acc = st
	return nil
}

// $setWindowFields runs as the $_internalSetWindowFields it desugars to,
// after the $sort the parse put in front of it.
func (s *setWindowFieldsStage) Name() string { return "$_internalSetWindowFields" }

// Spec is DocumentSourceInternalSetWindowFields::serialize: partitionBy
// (the field path), sortBy, and each output as its window function
// serializes it.
func (s *setWindowFieldsStage) Spec() bson.D {
	body := bson.D{}
	if s.partitionPath != "" {
		body = append(body, bson.E{Key: "partitionBy", Value: "$" + s.partitionPath})
	}
	if s.sortBy != nil {
		body = append(body, bson.E{Key: "sortBy", Value: s.sortBy.pattern})
	}
	output := bson.D{}
	for _, o := range s.outputs {
		output = append(output, bson.E{Key: o.field, Value: o.serialized})
	}
	return stageSpec("$_internalSetWindowFields", append(body, bson.E{Key: "output", Value: output}))
}

// windowRow is one document of the input with what the window functions
// read of it: its partition key, its sort key, and the value of its single
// sortBy field (what range windows, ranks and $derivative measure).
type windowRow struct {
	part      []byte
	pval      any
	key       []any
	sortValue any
	doc       bson.D
}

func (s *setWindowFieldsStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return blockingIterator(func() ([]bson.D, error) { return s.compute(in, rt) }, asIs), nil
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
	for {
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		r := windowRow{doc: d}
		if s.partitionBy != nil {
			env.Reset(d)
			v, err := s.partitionBy.Eval(env)
			if err != nil {
				return nil, err
			}
			if value.IsArray(v) {
				return nil, mongoerr.New(mongoerr.TypeMismatch, "An expression used to partition cannot evaluate to value of type array")
			}
			if value.IsMissing(v) {
				v = nil
			}
			r.pval, r.part = v, appendKey(nil, v)
		}
		if s.sortBy != nil {
			key, err := s.sortBy.Key(d, nil)
			if err != nil {
				return nil, err
			}
			r.key = key
			if len(s.sortBy.Paths) == 1 {
				r.sortValue = getNested(d, s.sortBy.Paths[0])
			}
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
				return nil, mongoerr.Newf(mongoerr.ErrWindowMemoryExceeded, "Exceeded memory limit in DocumentSourceSetWindowFields, used %d bytes but max allowed is %d", mem, value.MemoryLimit)
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
	ar := newArith()
	out := make([]bson.D, 0, len(rows))
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && string(rows[end].part) == string(rows[start].part) {
			end++
		}
		part := rows[start:end]
		docs := make([]bson.D, len(part))
		partBytes := int64(0)
		for i, r := range part {
			docs[i] = r.doc
			partBytes += int64(value.MemSize(r.doc))
		}
		if s.fnBytes == nil {
			s.fnBytes = make([]int64, len(s.outputs))
		}
		for j, o := range s.outputs {
			var vals []any
			var peak int64
			var err error
			if o.fn != nil {
				if vals, err = o.fn(part, env, ar); err == nil {
					for _, v := range vals {
						peak = max(peak, int64(value.MemSize(v)))
					}
				}
			} else {
				vals, peak, err = o.accumulate(part, env, ar)
			}
			if err != nil {
				return nil, err
			}
			s.fnBytes[j] = max(s.fnBytes[j], peak)
			partBytes += peak
			// A missing result leaves the field out, as
			// MutableDocument::setNestedField does with a missing value.
			for i := range docs {
				docs[i] = setNested(docs[i], o.parts, vals[i])
			}
		}
		s.totalBytes = max(s.totalBytes, partBytes)
		out = append(out, docs...)
		start = end
	}
	return out, nil
}

// accumulate evaluates an accumulator-style function over each document's
// window. The whole partition and [unbounded, current] windows are
// computed in one pass; other windows are recomputed per document. peak
// is the most bytes of input values one window held (the memory model
// of setWindowFieldsStage).
func (o *windowOutput) accumulate(part []windowRow, env *expr.Env, ar *arith) (vals []any, peak int64, err error) {
	vals = make([]any, len(part))
	inputs := make([]any, len(part))
	// held[i] is the bytes of the inputs before document i.
	held := make([]int64, len(part)+1)
	for i, r := range part {
		env.Reset(r.doc)
		v, err := o.acc.input(env)
		if err != nil {
			return nil, 0, err
		}
		inputs[i] = v
		held[i+1] = held[i] + int64(value.MemSize(v))
	}
	// The n of $firstN and the like is evaluated against no document
	// (ExpressionN::buildRemovable): a field path in it is missing.
	newAcc := func() (accumulator, error) {
		env.Reset(bson.D{})
		acc, err := o.acc.newAcc(env)
		// The covariances compute in the stage's value arithmetic.
		if c, ok := acc.(*covarianceAcc); ok {
			c.ar = ar
		}
		return acc, err
	}
	fold := func(lo, hi int) (any, error) {
		acc, err := newAcc()
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
		return acc.result(), nil
	}
	b := o.bounds
	switch {
	case b.isWholePartition() && !b.byRange:
		v, err := fold(0, len(part)-1)
		if err != nil {
			return nil, 0, err
		}
		for i := range vals {
			vals[i] = v
		}
		peak = held[len(part)]
	case !b.byRange && b.lo.unbounded && b.hi.current:
		acc, err := newAcc()
		if err != nil {
			return nil, 0, err
		}
		for i := range part {
			if err := acc.add(inputs[i]); err != nil {
				return nil, 0, err
			}
			vals[i] = runningResult(acc)
		}
		peak = held[len(part)]
	default:
		acc, err := newAcc()
		if err != nil {
			return nil, 0, err
		}
		if r, ok := acc.(removableAccumulator); ok {
			return slideWindow(r, part, inputs, held, env, ar, b)
		}
		for i := range part {
			if err := env.Tick(); err != nil {
				return nil, 0, err
			}
			lo, hi, ok, err := b.window(part, i, env, ar)
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				acc, err := newAcc()
				if err != nil {
					return nil, 0, err
				}
				vals[i] = acc.result()
				continue
			}
			if vals[i], err = fold(lo, hi); err != nil {
				return nil, 0, err
			}
			peak = max(peak, held[hi+1]-held[lo])
		}
	}
	return vals, peak, nil
}

// removableAccumulator is a removable window state whose answer depends
// on the order of its adds and removes (WindowFunctionState::remove), not
// only on the values of the window: a sliding window feeds it as mongod
// does rather than recomputing each window.
type removableAccumulator interface {
	accumulator
	remove(v any) error
}

// slideWindow feeds a removable state as WindowFunctionExecRemovableRange
// does (window_function_exec_removable_range.cpp), which for a
// document-based window comes to what WindowFunctionExecRemovableDocument
// does: each document adds the inputs past the previous window's end up
// to its own (its whole window after an empty one), then removes as many
// of the oldest as its start moved on (every one when its window is
// empty). peak is as in accumulate.
func slideWindow(acc removableAccumulator, part []windowRow, inputs []any, held []int64, env *expr.Env, ar *arith, b windowBounds) (vals []any, peak int64, err error) {
	vals = make([]any, len(part))
	// The inputs held are those from first to next-1, as mongod's queue.
	first, next := 0, 0
	for i := range part {
		if err := env.Tick(); err != nil {
			return nil, 0, err
		}
		lo, hi, ok, err := b.window(part, i, env, ar)
		if err != nil {
			return nil, 0, err
		}
		removeTo := next // an empty window removes all it held
		if ok {
			if first == next {
				first, next = lo, lo
			}
			for ; next <= hi; next++ {
				if err := acc.add(inputs[next]); err != nil {
					return nil, 0, err
				}
			}
			removeTo = lo
		}
		for ; first < removeTo; first++ {
			if err := acc.remove(inputs[first]); err != nil {
				return nil, 0, err
			}
		}
		vals[i] = acc.result()
		peak = max(peak, held[next]-held[first])
	}
	return vals, peak, nil
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

// windowFirstLast is the $first and $last window functions: the value of
// the window's first or last document as it is (a missing value leaves
// the output field out), null for an empty window.
type windowFirstLast struct {
	last bool
	v    any
	set  bool
}

func (a *windowFirstLast) add(v any) error {
	if !a.set || a.last {
		a.v, a.set = v, true
	}
	return nil
}

func (a *windowFirstLast) result() any {
	if !a.set {
		return nil
	}
	return a.v
}
