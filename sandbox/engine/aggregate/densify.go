package aggregate

import (
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $densify (document_source_densify.cpp) expands, as mongod does, into a
// $sort on the partition fields and the field, and $_internalDensify,
// which adds documents where the sequence of the field's values has gaps:
// values step apart, from the lower bound of an explicit range, from the
// lowest value of all ("full"), or from each partition's own lowest value
// ("partition").

// maxDensifyDocs is internalQueryMaxAllowedDensifyDocs.
const maxDensifyDocs = 500_000

type densifyMode int

const (
	densifyExplicit densifyMode = iota
	densifyFull
	densifyPartition
)

type densifyStage struct {
	field      string
	fieldParts []string
	partitions []string
	partKey    expr.Expr // {p: "$p", a: {b: "$a.b"}} for partitionByFields p, a.b
	step       any
	unit       string
	mode       densifyMode
	lo, hi     any // the explicit bounds
	rangeSpec  bson.D
	// sorted is the $sort put in front of the stage, whose order the
	// output keeps unless partitions are densified over the full range.
	sorted *sortSpec
}

// keepsOrder reports whether the stage's output is still in the order of
// the $sort in front of it: with no partitions, or partitions densified
// over their own or an explicit range (DocumentSourceInternalDensify,
// which then absorbs a following $sort that asks for no more).
func (s *densifyStage) keepsOrder() bool {
	return len(s.partitions) == 0 || s.mode != densifyFull
}

func parseDensify(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "The $densify stage specification must be an object, found %s", typeNameOf(spec))
	}
	args, err := parseIDL("$densify", d,
		idlField{name: "field", types: []string{"string"}, required: true},
		idlField{name: "partitionByFields", types: []string{"array"}},
		idlField{name: "range", types: []string{"object"}, required: true})
	if err != nil {
		return nil, err
	}
	var partitions []string
	if arr, ok := args["partitionByFields"].(bson.A); ok {
		for i, v := range arr {
			s, ok := v.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$densify.partitionByFields.%d' is the wrong type '%s', expected type 'string'", i, typeNameOf(v))
			}
			partitions = append(partitions, s)
		}
	}
	rangeSpec := args["range"].(bson.D)
	r, err := parseIDL("$densify.range", rangeSpec,
		idlField{name: "step", types: idlNumber, required: true},
		idlField{name: "unit", types: []string{"string"}},
		idlField{name: "bounds", required: true})
	if err != nil {
		return nil, err
	}
	s := &densifyStage{field: args["field"].(string), partitions: partitions, step: r["step"], rangeSpec: rangeSpec}
	if err := s.parseRange(r); err != nil {
		return nil, err
	}
	for _, f := range partitions {
		if err := projection.ValidateFieldPath(f); err != nil {
			return nil, err
		}
	}
	if err := projection.ValidateFieldPath(s.field); err != nil {
		return nil, err
	}
	for _, f := range partitions {
		switch {
		case f == s.field || strings.HasPrefix(f, s.field+"."):
			return nil, mongoerr.New(mongoerr.ErrDensifyPartitionHasField, "BSON field '$densify.partitionByFields' contains the field that is being densified")
		case strings.HasPrefix(s.field, f+"."):
			return nil, mongoerr.New(mongoerr.ErrDensifyFieldHasPartition, "The field that is being densified contains the BSON field '$densify.partitionByFields'")
		}
	}
	if s.mode == densifyPartition && len(partitions) == 0 {
		return nil, mongoerr.New(mongoerr.ErrDensifyPartitionNeedsFields, "One cannot specify the bounds as 'partition' without specifying a non-empty array of partitionByFields. You may have meant to specify 'full' bounds.")
	}
	s.fieldParts = splitPath(s.field)
	if len(partitions) > 0 {
		keySpec := bson.D{}
		for _, f := range partitions {
			keySpec = setNested(keySpec, splitPath(f), "$"+f)
		}
		if s.partKey, err = p.compile(keySpec); err != nil {
			return nil, err
		}
	}
	sortBy := bson.D{}
	if s.mode != densifyFull {
		for _, f := range partitions {
			sortBy = append(sortBy, bson.E{Key: f, Value: int32(1)})
		}
	}
	sortBy = append(sortBy, bson.E{Key: s.field, Value: int32(1)})
	srt, err := parseSortPattern(sortBy)
	if err != nil {
		return nil, err
	}
	s.sorted = srt
	return []Stage{&sortStage{sortSpec: srt}, s}, nil
}

// parseInternalDensify is $_internalDensify as an internal client sends
// it (REGISTER_INTERNAL_DOCUMENT_SOURCE): $densify without the $sort in
// front, which the sender has arranged, and refused to any other client
// (5491300).
func parseInternalDensify(spec any, p *parser) ([]Stage, error) {
	if !p.ctx.InternalClient {
		return refuseInternalOnly("$_internalDensify")(spec, p)
	}
	stages, err := parseDensify(spec, p)
	if err != nil {
		return nil, err
	}
	return stages[1:], nil
}

// parseRange is RangeStatement::parse.
func (s *densifyStage) parseRange(r map[string]any) error {
	if !value.IsNumber(s.step) || value.Compare(s.step, int32(0)) <= 0 {
		return mongoerr.New(mongoerr.ErrDensifyStepNotPositive, "The step parameter in a range statement must be a strictly positive numeric value")
	}
	if u, ok := r["unit"].(string); ok {
		if _, whole := value.IntegralLong(s.step); !whole {
			return mongoerr.New(mongoerr.ErrDensifyDateStepNotWhole, "The step parameter in a range statement must be a whole number when densifying a date range")
		}
		unit, err := parseTimeUnit(u)
		if err != nil {
			return err
		}
		s.unit = unit
	}
	switch b := r["bounds"].(type) {
	case bson.A:
		if len(b) != 2 {
			return mongoerr.New(mongoerr.ErrDensifyBoundsNotTwo, "A bounding array in a range statement must have exactly two elements")
		}
		if value.Compare(b[0], b[1]) > 0 {
			return mongoerr.New(mongoerr.ErrDensifyBoundsDescending, "A bounding array must be an ascending array of either two dates or two numbers")
		}
		_, lowDate := b[0].(bson.DateTime)
		_, highDate := b[1].(bson.DateTime)
		switch {
		case value.IsNumber(b[0]):
			if s.unit != "" {
				return mongoerr.New(mongoerr.ErrDensifyNumericBoundsUnit, "Numeric bounds may not have unit parameter")
			}
			if !value.IsNumber(b[1]) {
				return mongoerr.New(mongoerr.ErrDensifyNumericBoundsMixed, "A bounding array must contain either both dates or both numeric types")
			}
		case lowDate:
			if !highDate {
				return mongoerr.New(mongoerr.ErrDensifyDateBoundsMixed, "A bounding array must contain either both dates or both numeric types")
			}
			if s.unit == "" {
				return mongoerr.New(mongoerr.ErrDensifyDateBoundsNoUnit, "A bounding array of dates must specify a unit")
			}
		default:
			return mongoerr.New(mongoerr.ErrDensifyBoundsType, "Explicit bounds must be numeric or dates")
		}
		s.mode, s.lo, s.hi = densifyExplicit, b[0], b[1]
	case string:
		switch b {
		case "full":
			s.mode = densifyFull
		case "partition":
			s.mode = densifyPartition
		default:
			return mongoerr.New(mongoerr.ErrDensifyBoundsString, "Bounds string must either be 'full' or 'partition'")
		}
	default:
		return mongoerr.New(mongoerr.ErrDensifyBoundsInvalid, "The bounds in a range statement must be the string 'full', 'partition', or an ascending array of two numbers or two dates")
	}
	return nil
}

func (s *densifyStage) Name() string { return "$_internalDensify" }

func (s *densifyStage) Spec() bson.D {
	parts := bson.A{}
	for _, f := range s.partitions {
		parts = append(parts, f)
	}
	rng := bson.D{{Key: "step", Value: s.step}, {Key: "bounds", Value: value.Get(s.rangeSpec, "bounds")}}
	if s.unit != "" {
		rng = append(rng, bson.E{Key: "unit", Value: s.unit})
	}
	return stageSpec("$_internalDensify", bson.D{{Key: "field", Value: s.field}, {Key: "partitionByFields", Value: parts}, {Key: "range", Value: rng}})
}

// densePart is what $densify remembers of one partition: the key its
// generated documents carry, and the last value on the step it has output
// (none yet: nil).
type densePart struct {
	key  bson.D
	last any
}

// denseGen generates values from next while they are below end (or equal
// to it when inclusive), then hands on the document that prompted it,
// which becomes the partition's last value when it is the next on the
// step.
type denseGen struct {
	part      *densePart
	next, end any
	inclusive bool
	then      bson.D
	thenVal   any
}

type densifyIter struct {
	s      *densifyStage
	in     Iterator
	rt     *runtime
	env    *expr.Env
	ar     *arith
	parts  map[string]*densePart
	order  []*densePart
	single *densePart // the partition of unpartitioned input
	gen    *denseGen
	eof    bool
	done   int // partitions finished after the end of input
	// globalMin and globalMax are the lowest and highest values of all
	// partitions, for "full".
	globalMin, globalMax any
	generated            int
	mem                  int
	key                  []byte
}

func (s *densifyStage) open(in Iterator, rt *runtime) (Iterator, error) {
	it := &densifyIter{s: s, in: in, rt: rt, env: rt.newEnv(), ar: newArith(), parts: map[string]*densePart{}}
	return it, nil
}

func (it *densifyIter) Next() (bson.D, bool, error) {
	for {
		// DocumentSourceInternalDensify::doGetNext checks the count of
		// generated documents before each output.
		if it.generated > maxDensifyDocs {
			return nil, false, mongoerr.Newf(mongoerr.ErrDensifyTooManyDocs, "Generated %d documents in $densify, which is over the limit of %d. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents", it.generated, maxDensifyDocs)
		}
		if g := it.gen; g != nil {
			if c := value.Compare(g.next, g.end); c < 0 || (c == 0 && g.inclusive) {
				v := g.next
				next, err := it.increment(v)
				if err != nil {
					return nil, false, err
				}
				g.next, g.part.last = next, v
				it.generated++
				out := setNested(append(bson.D{}, g.part.key...), it.s.fieldParts, v)
				return out, true, nil
			}
			it.gen = nil
			if g.then != nil {
				if g.thenVal != nil && value.Compare(g.next, g.thenVal) == 0 {
					g.part.last = g.thenVal
				}
				return g.then, true, nil
			}
			continue
		}
		if it.eof {
			more, err := it.finishPartition()
			if err != nil || !more {
				return nil, false, err
			}
			continue
		}
		d, ok, err := it.in.Next()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			it.eof = true
			if err := it.startFinish(); err != nil {
				return nil, false, err
			}
			continue
		}
		if err := it.process(d); err != nil {
			return nil, false, err
		}
	}
}

// process starts a generator for the gap before d, which it hands on
// afterwards.
func (it *densifyIter) process(d bson.D) error {
	s := it.s
	val := getNested(d, s.fieldParts)
	if nullish(val) {
		// Documents without the field pass through as they are.
		it.gen = &denseGen{then: d, next: int32(0), end: int32(0)}
		return nil
	}
	_, isDate := val.(bson.DateTime)
	switch {
	case !value.IsNumber(val) && !isDate:
		return mongoerr.New(mongoerr.ErrDensifyValueType, "Densify field type must be numeric or a date")
	case s.unit != "" && !isDate:
		return mongoerr.New(mongoerr.ErrDensifyValueUnitMismatch, "Encountered numeric densify value in collection when step has a date unit.")
	case s.unit == "" && isDate:
		return mongoerr.New(mongoerr.ErrDensifyValueUnitMismatch, "Encountered date densify value in collection when step does not have a date unit.")
	}
	if it.globalMin == nil {
		it.globalMin = val
	}
	it.globalMax = val
	part, err := it.partition(d)
	if err != nil {
		return err
	}
	// The next value on the step: after the partition's last one, else
	// the lower bound, the lowest value of all ("full"), or d's own
	// ("partition").
	var next any
	switch {
	case part.last != nil:
		if next, err = it.increment(part.last); err != nil {
			return err
		}
	case s.mode == densifyExplicit:
		next = s.lo
	case s.mode == densifyFull:
		next = it.globalMin
	default:
		next = val
	}
	end := val
	if s.mode == densifyExplicit && value.Compare(s.hi, end) < 0 {
		end = s.hi
	}
	it.gen = &denseGen{part: part, next: next, end: end, then: d, thenVal: val}
	return nil
}

// partition finds or creates d's partition.
func (it *densifyIter) partition(d bson.D) (*densePart, error) {
	if it.s.partKey == nil {
		if it.single == nil {
			it.single = &densePart{key: bson.D{}}
			it.order = append(it.order, it.single)
		}
		return it.single, nil
	}
	it.env.Reset(d)
	k, err := it.s.partKey.Eval(it.env)
	if err != nil {
		return nil, err
	}
	key, _ := k.(bson.D)
	it.key = appendKey(it.key[:0], key)
	part, ok := it.parts[string(it.key)]
	if !ok {
		part = &densePart{key: key}
		it.parts[string(it.key)] = part
		it.order = append(it.order, part)
		if it.mem += value.MemSize(key) + 64; it.mem > value.MemoryLimit {
			return nil, mongoerr.Newf(mongoerr.ErrDensifyMemoryExceeded, "$densify exceeded memory limit of %d", value.MemoryLimit)
		}
	}
	return part, nil
}

// startFinish prepares what remains after the last document: an explicit
// range is filled up to its upper bound in every partition (or, with no
// document at all, from its lower bound); "full" fills every partition up
// to the highest value of all.
func (it *densifyIter) startFinish() error {
	s := it.s
	if s.mode == densifyExplicit && s.partKey == nil && it.single == nil {
		it.single = &densePart{key: bson.D{}}
		it.order = append(it.order, it.single)
	}
	if s.mode == densifyPartition || (s.mode == densifyFull && s.partKey == nil) {
		it.order = nil
	}
	return nil
}

// finishPartition starts the generator of the next partition to finish,
// or reports that none is left.
func (it *densifyIter) finishPartition() (bool, error) {
	if it.done >= len(it.order) {
		return false, nil
	}
	part := it.order[it.done]
	it.done++
	g := &denseGen{part: part}
	switch {
	case part.last != nil:
		next, err := it.increment(part.last)
		if err != nil {
			return false, err
		}
		g.next = next
	case it.s.mode == densifyExplicit:
		g.next = it.s.lo
	default:
		g.next = it.globalMin
	}
	if it.s.mode == densifyExplicit {
		g.end = it.s.hi
		if value.Compare(g.next, it.s.lo) < 0 {
			g.next = it.s.lo
		}
	} else {
		g.end, g.inclusive = it.globalMax, true
	}
	it.gen = g
	return true, nil
}

// increment adds the step: $add for numbers, $dateAdd in UTC for dates.
func (it *densifyIter) increment(v any) (any, error) {
	if dt, ok := v.(bson.DateTime); ok {
		n, _ := value.IntegralLong(it.s.step)
		ms, err := expr.AddToDate(int64(dt), it.s.unit, n, time.UTC)
		return bson.DateTime(ms), err
	}
	return it.ar.Add(v, it.s.step)
}
