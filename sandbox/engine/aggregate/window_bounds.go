package aggregate

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A window's bounds, as mongod's WindowBounds
// (window_function/window_bounds.cpp): document-based offsets from the
// current document, or range-based offsets from its sortBy value (a time
// range when a unit is given).

type windowBound struct {
	unbounded bool
	current   bool
	n         any // an int for documents; a number for range
}

type windowBounds struct {
	byRange bool
	unit    string // range-based bounds over dates
	lo, hi  windowBound
}

// wholePartition is the default window, [unbounded, unbounded].
var wholePartition = windowBounds{lo: windowBound{unbounded: true}, hi: windowBound{unbounded: true}}

func (b windowBounds) isWholePartition() bool { return b.lo.unbounded && b.hi.unbounded }

// serialize is WindowBounds::serialize: {documents: [lo, hi]} or
// {range: [lo, hi], unit}, each bound "unbounded", "current" or its
// number.
func (b windowBounds) serialize() bson.D {
	bound := func(w windowBound) any {
		switch {
		case w.unbounded:
			return "unbounded"
		case w.current:
			return "current"
		}
		if n, ok := w.n.(int); ok {
			return int32(n)
		}
		return w.n
	}
	pair := bson.A{bound(b.lo), bound(b.hi)}
	if !b.byRange {
		return bson.D{{Key: "documents", Value: pair}}
	}
	d := bson.D{{Key: "range", Value: pair}}
	if b.unit != "" {
		d = append(d, bson.E{Key: "unit", Value: b.unit})
	}
	return d
}

// parseWindowBounds is WindowBounds::parse.
func parseWindowBounds(w any, sortBy *sortSpec, p *parser) (windowBounds, error) {
	fail := func(msg string) (windowBounds, error) {
		return windowBounds{}, mongoerr.New(mongoerr.FailedToParse, msg)
	}
	d, ok := w.(bson.D)
	if !ok {
		return fail("'window' field must be an object")
	}
	documents, haveDocuments := lookupField(d, "documents")
	rng, haveRange := lookupField(d, "range")
	unit, haveUnit := lookupField(d, "unit")
	if haveDocuments && haveRange {
		return fail("Window bounds can specify either 'documents' or 'unit', not both.")
	}
	if !haveRange && haveUnit {
		return fail("Window bounds can only specify 'unit' with range-based bounds.")
	}
	if !haveRange && !haveDocuments {
		if len(d) != 0 {
			return fail("'window' field can only contain 'documents' as the only argument or 'range' with an optional 'unit' field")
		}
		return wholePartition, nil
	}
	unpack := func(key string, v any) (any, any, error) {
		arr, ok := v.(bson.A)
		if !ok || len(arr) != 2 {
			return nil, nil, mongoerr.New(mongoerr.FailedToParse, "Window bounds must be a 2-element array: "+value.FormatElem(key, v))
		}
		return arr[0], arr[1], nil
	}
	var b windowBounds
	if haveDocuments {
		if len(d) != 1 {
			return fail("'window' field that specifies documents cannot have other fields")
		}
		lo, hi, err := unpack("documents", documents)
		if err != nil {
			return b, err
		}
		integer := func(v any) (any, error) {
			n, ok := value.IntegralLong(v)
			if !value.IsNumber(v) || !ok || n != int64(int32(n)) {
				return nil, mongoerr.New(mongoerr.FailedToParse, "Numeric document-based bounds must be an integer")
			}
			return int(n), nil
		}
		if b.lo, err = parseWindowBound(lo, integer, p); err != nil {
			return b, err
		}
		if b.hi, err = parseWindowBound(hi, integer, p); err != nil {
			return b, err
		}
		if err := b.checkForward(); err != nil {
			return b, err
		}
		if sortBy == nil && !b.isWholePartition() {
			return b, mongoerr.New(mongoerr.ErrWindowDocumentsNeedSortBy, "Document-based bounds require a sortBy")
		}
		return b, nil
	}
	b.byRange = true
	lo, hi, err := unpack("range", rng)
	if err != nil {
		return b, err
	}
	number := func(v any) (any, error) {
		if !value.IsNumber(v) {
			return nil, mongoerr.New(mongoerr.FailedToParse, "Range-based bounds expression must be a number")
		}
		return v, nil
	}
	if haveUnit {
		if len(d) != 2 {
			return fail("'window' field that specifies unit cannot have other fields besides 'range'")
		}
		u, ok := unit.(string)
		if !ok {
			return fail("'unit' must be a string")
		}
		number = func(v any) (any, error) {
			if _, ok := value.IntegralLong(v); !value.IsNumber(v) || !ok {
				return nil, mongoerr.New(mongoerr.FailedToParse, "With 'unit', range-based bounds must be an integer")
			}
			return v, nil
		}
		if b.lo, err = parseWindowBound(lo, number, p); err != nil {
			return b, err
		}
		if b.hi, err = parseWindowBound(hi, number, p); err != nil {
			return b, err
		}
		if err := b.checkForward(); err != nil {
			return b, err
		}
		if b.unit, err = parseTimeUnit(u); err != nil {
			return b, err
		}
	} else {
		if len(d) != 1 {
			return fail("'window' field that specifies range cannot have other fields besides 'unit'")
		}
		if b.lo, err = parseWindowBound(lo, number, p); err != nil {
			return b, err
		}
		if b.hi, err = parseWindowBound(hi, number, p); err != nil {
			return b, err
		}
		if err := b.checkForward(); err != nil {
			return b, err
		}
	}
	if sortBy == nil || len(sortBy.Paths) != 1 {
		return b, mongoerr.New(mongoerr.ErrWindowRangeNeedsOneSortBy, "Range-based bounds require sortBy a single field")
	}
	// PartitionIterator computes range bounds only over an ascending sort
	// (exprFromSort has no expression for a descending one).
	if sortBy.Desc[0] {
		return b, mongoerr.New(mongoerr.ErrWindowRangeNeedsAscending, "Range-based bounds require an ascending sortBy")
	}
	return b, nil
}

// parseWindowBound reads "unbounded", "current" or a constant expression,
// which convert checks.
func parseWindowBound(v any, convert func(any) (any, error), p *parser) (windowBound, error) {
	if s, ok := v.(string); ok {
		switch s {
		case "unbounded":
			return windowBound{unbounded: true}, nil
		case "current":
			return windowBound{current: true}, nil
		}
		return windowBound{}, mongoerr.New(mongoerr.FailedToParse, "Window bounds must be 'unbounded', 'current', or a number.")
	}
	x, err := expr.Compile(v, p.scope.WithConstantFolding())
	if err != nil {
		return windowBound{}, err
	}
	c, ok := expr.IsConstant(x)
	if !ok {
		return windowBound{}, mongoerr.New(mongoerr.FailedToParse, "Window bounds expression must be a constant.")
	}
	n, err := convert(c)
	if err != nil {
		return windowBound{}, err
	}
	return windowBound{n: n}, nil
}

// checkForward requires lower <= upper, "current" counting as 0.
func (b windowBounds) checkForward() error {
	num := func(w windowBound) (any, bool) {
		switch {
		case w.unbounded:
			return nil, false
		case w.current:
			return int32(0), true
		}
		if n, ok := w.n.(int); ok {
			return int32(n), true
		}
		return w.n, true
	}
	lo, okLo := num(b.lo)
	hi, okHi := num(b.hi)
	if okLo && okHi && value.Compare(lo, hi) > 0 {
		return mongoerr.Newf(mongoerr.ErrWindowBoundsBackwards, "Lower bound must not exceed upper bound: [%s, %s]", docString(lo), docString(hi))
	}
	return nil
}

// parseTimeUnit is mongod's parseTimeUnit (date_time_support.cpp).
func parseTimeUnit(u string) (string, error) {
	switch u {
	case "year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond":
		return u, nil
	}
	return "", mongoerr.Newf(mongoerr.FailedToParse, "unknown time unit value: %s", u)
}

// lookupField is BSONObj::operator[]: the first field named key.
func lookupField(d bson.D, key string) (any, bool) {
	for _, e := range d {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// window returns the inclusive index range [lo, hi] of row i's window in
// the partition, or ok false when it holds no document, as
// PartitionIterator::getEndpoints does.
func (b windowBounds) window(part []windowRow, i int, env *expr.Env, ar *arith) (lo, hi int, ok bool, err error) {
	if !b.byRange {
		lo, hi = 0, len(part)-1
		if !b.lo.unbounded {
			lo = i + b.lo.offset()
		}
		if !b.hi.unbounded {
			hi = i + b.hi.offset()
		}
		if lo > len(part)-1 || hi < 0 {
			return 0, 0, false, nil
		}
		return max(lo, 0), min(hi, len(part)-1), true, nil
	}
	base := part[i].sortValue
	if b.unit != "" {
		if _, isDate := base.(bson.DateTime); !isDate {
			return 0, 0, false, mongoerr.Newf(mongoerr.ErrWindowRangeNeedsDate, "Invalid range: Expected the sortBy field to be a Date, but it was %s", typeNameOf(base))
		}
	} else {
		if _, isDate := base.(bson.DateTime); isDate {
			return 0, 0, false, mongoerr.New(mongoerr.ErrWindowRangeDateNeedsUnit, "Invalid range: For windows that involve date or time ranges, a unit must be provided.")
		}
		if !value.IsNumber(base) {
			return 0, 0, false, mongoerr.Newf(mongoerr.ErrWindowRangeNeedsNumber, "Invalid range: Expected the sortBy field to be a number, but it was %s", typeNameOf(base))
		}
	}
	expected := func(v any) bool {
		if b.unit != "" {
			_, isDate := v.(bson.DateTime)
			return isDate
		}
		return value.IsNumber(v)
	}
	threshold := func(delta any) (any, error) {
		if b.unit != "" {
			n, _ := value.IntegralLong(delta)
			ms, err := expr.AddToDate(int64(base.(bson.DateTime)), b.unit, n, time.UTC)
			return bson.DateTime(ms), err
		}
		return ar.Add(base, delta)
	}
	switch {
	case b.lo.current:
		lo = i
	case b.lo.unbounded:
		lo = -1
		for j := range part {
			if err := env.Tick(); err != nil {
				return 0, 0, false, err
			}
			if expected(part[j].sortValue) {
				lo = j
				break
			}
		}
		if lo < 0 {
			return 0, 0, false, nil
		}
	default:
		t, err := threshold(b.lo.n)
		if err != nil {
			return 0, 0, false, err
		}
		lo = -1
		for j := range part {
			if err := env.Tick(); err != nil {
				return 0, 0, false, err
			}
			if value.Compare(part[j].sortValue, t) >= 0 {
				lo = j
				break
			}
		}
		if lo < 0 {
			return 0, 0, false, nil
		}
	}
	start := lo
	switch {
	case b.hi.current:
		hi = i
	case b.hi.unbounded:
		start = max(start, i)
		hi = len(part) - 1
		for j := start; j < len(part); j++ {
			if !expected(part[j].sortValue) {
				hi = j - 1
				break
			}
		}
	default:
		t, err := threshold(b.hi.n)
		if err != nil {
			return 0, 0, false, err
		}
		hi = len(part) - 1
		for j := start; j < len(part); j++ {
			if err := env.Tick(); err != nil {
				return 0, 0, false, err
			}
			if value.Compare(t, part[j].sortValue) < 0 {
				if j == start {
					return 0, 0, false, nil
				}
				hi = j - 1
				break
			}
		}
	}
	if lo > hi {
		return 0, 0, false, nil
	}
	return lo, hi, true, nil
}

func (w windowBound) offset() int {
	if w.current {
		return 0
	}
	return w.n.(int)
}
