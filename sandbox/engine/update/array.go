package update

import (
	"math"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// pushOp is $push with its $each/$slice/$sort/$position clauses.
type pushOp struct {
	values   bson.A
	slice    int64 // math.MaxInt64 when absent
	sort     *sortPattern
	position int64 // math.MaxInt64 (append) when absent
}

// sortPattern is a $push $sort: the whole element (fields == nil) or a
// document pattern.
type sortPattern struct {
	desc   bool
	fields bson.D
}

func parsePush(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	p := pushOp{slice: math.MaxInt64, position: math.MaxInt64}
	d, ok := arg.(bson.D)
	if !ok || value.IsMissing(value.Get(d, "$each")) {
		p.values = bson.A{arg}
		return p, nil
	}
	seen := map[string]bool{}
	for _, clause := range d {
		switch clause.Key {
		case "$each", "$slice", "$sort", "$position":
		default:
			return nil, mongoerr.Newf(mongoerr.BadValue, "Unrecognized clause in $push: %s", clause.Key)
		}
		if seen[clause.Key] {
			return nil, mongoerr.Newf(mongoerr.BadValue, "Only one %s is supported.", clause.Key)
		}
		seen[clause.Key] = true
	}
	each, ok := value.Get(d, "$each").(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.BadValue,
			"The argument to $each in $push must be an array but it was of type: %s", value.TypeName(value.Get(d, "$each")))
	}
	p.values = each
	if s := value.Get(d, "$slice"); !value.IsMissing(s) {
		n, ok := value.IntegralLong(s)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.BadValue,
				"The value for $slice must be an integer value but was given type: %s", value.TypeName(s))
		}
		p.slice = n
	}
	if s := value.Get(d, "$sort"); !value.IsMissing(s) {
		sp, err := parseSortClause(s)
		if err != nil {
			return nil, err
		}
		p.sort = sp
	}
	if s := value.Get(d, "$position"); !value.IsMissing(s) {
		n, ok := value.IntegralLong(s)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.BadValue,
				"The value for $position must be an integer value, not of type: %s", value.TypeName(s))
		}
		p.position = n
	}
	return p, nil
}

func parseSortClause(s any) (*sortPattern, error) {
	switch t := s.(type) {
	case bson.D:
		if len(t) == 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "The $sort pattern is empty when it should be a set of fields.")
		}
		for _, e := range t {
			if o := value.ToDouble(e.Value); !value.IsNumber(e.Value) || (o != 1 && o != -1) {
				return nil, mongoerr.New(mongoerr.BadValue, "The $sort element value must be either 1 or -1")
			}
			if e.Key == "" {
				return nil, mongoerr.New(mongoerr.BadValue, "The $sort field cannot be empty")
			}
			if _, err := splitPath(e.Key); err != nil {
				return nil, mongoerr.Newf(mongoerr.BadValue, "The $sort field is a dotted field but has an empty part: %s", e.Key)
			}
		}
		return &sortPattern{fields: t}, nil
	}
	if value.IsNumber(s) {
		if o := value.ToDouble(s); o == 1 || o == -1 {
			return &sortPattern{desc: o == -1}, nil
		}
		return nil, mongoerr.New(mongoerr.BadValue, "The $sort element value must be either 1 or -1")
	}
	return nil, mongoerr.New(mongoerr.BadValue,
		"The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields")
}

func (s *sortPattern) compare(a, b any) int {
	if s.fields == nil {
		c := value.Compare(a, b)
		if s.desc {
			return -c
		}
		return c
	}
	for _, f := range s.fields {
		c := value.Compare(sortKey(a, f.Key), sortKey(b, f.Key))
		if value.ToDouble(f.Value) < 0 {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sortKey extracts a $sort field from an element; non-documents and
// missing fields sort as null.
func sortKey(v any, path string) any {
	d, ok := v.(bson.D)
	if !ok {
		return nil
	}
	r := value.Lookup(d, path)
	if value.IsMissing(r) {
		return nil
	}
	return r
}

func (p pushOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	var arr bson.A
	if exists {
		a, ok := v.(bson.A)
		if !ok {
			return nil, false, mongoerr.Newf(mongoerr.BadValue,
				"The field '%s' must be an array but is of type %s in document {%s}", c.dotted(), value.TypeName(v), c.idString())
		}
		arr = a
	}
	changed := !exists
	out := make(bson.A, 0, len(arr)+len(p.values))
	if len(p.values) == 0 {
		out = append(out, arr...)
	} else {
		changed = true
		n := int64(len(arr))
		at := n
		switch {
		case n == 0 || p.position > n:
			at = n
		case p.position >= 0:
			at = p.position
		case p.position != math.MinInt64 && -p.position < n:
			at = n + p.position
		default:
			at = 0
		}
		out = append(out, arr[:at]...)
		for _, x := range p.values {
			out = append(out, value.DeepCopy(x))
		}
		out = append(out, arr[at:]...)
	}
	if p.sort != nil {
		changed = true
		slices.SortStableFunc(out, p.sort.compare)
	}
	limit := p.slice
	if limit < 0 {
		limit = -limit
		if limit < 0 { // MinInt64
			limit = math.MaxInt64
		}
	}
	if int64(len(out)) > limit {
		changed = true
		if p.slice >= 0 {
			out = out[:limit]
		} else {
			out = out[int64(len(out))-limit:]
		}
	}
	if !changed {
		return v, false, nil
	}
	return out, true, nil
}

// addToSetOp is $addToSet, with or without $each.
type addToSetOp struct{ values bson.A }

func parseAddToSet(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	values := bson.A{arg}
	if d, ok := arg.(bson.D); ok && len(d) > 0 && d[0].Key == "$each" {
		each, ok := d[0].Value.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch,
				"The argument to $each in $addToSet must be an array but it was of type %s", value.TypeName(d[0].Value))
		}
		if len(d) > 1 {
			return nil, mongoerr.Newf(mongoerr.BadValue, "Found unexpected fields after $each in $addToSet: %s", valueString(d))
		}
		values = values[:0]
		for _, x := range each {
			if !slices.ContainsFunc(values, func(y any) bool { return value.Compare(x, y) == 0 }) {
				values = append(values, x)
			}
		}
	}
	return addToSetOp{values}, nil
}

func (a addToSetOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return value.DeepCopy(a.values), true, nil
	}
	arr, ok := v.(bson.A)
	if !ok {
		return nil, false, mongoerr.Newf(mongoerr.BadValue,
			"Cannot apply $addToSet to non-array field. Field named '%s' has non-array type %s",
			c.path[len(c.path)-1], value.TypeName(v))
	}
	var out bson.A
	for _, x := range a.values {
		if slices.ContainsFunc(arr, func(y any) bool { return value.Compare(x, y) == 0 }) {
			continue
		}
		if out == nil {
			out = append(make(bson.A, 0, len(arr)+len(a.values)), arr...)
		}
		out = append(out, value.DeepCopy(x))
	}
	if out == nil {
		return v, false, nil
	}
	return out, true, nil
}

// popOp is $pop: 1 removes the last element, -1 the first.
type popOp struct{ first bool }

func parsePop(path string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	// PopNode::init: parseIntegerElementToLong's reason as it is.
	n, reason := value.ParseIntegerElementToLong(path, arg)
	if reason != "" {
		return nil, mongoerr.New(mongoerr.FailedToParse, reason)
	}
	if n != 1 && n != -1 {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$pop expects 1 or -1, found: %d", n)
	}
	return popOp{n == -1}, nil
}

func (p popOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return v, false, c.checkViability()
	}
	arr, ok := v.(bson.A)
	if !ok {
		return nil, false, mongoerr.Newf(mongoerr.TypeMismatch,
			"Path '%s' contains an element of non-array type '%s'", c.dotted(), value.TypeName(v))
	}
	if len(arr) == 0 {
		return v, false, nil
	}
	if p.first {
		return slices.Clone(arr[1:]), true, nil
	}
	return slices.Clone(arr[:len(arr)-1]), true, nil
}

// cullOp is $pull and $pullAll: remove the elements that match.
type cullOp struct {
	match func(elem any) (bool, error)
}

func parsePull(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	m, err := compilePullMatcher(arg)
	if err != nil {
		return nil, err
	}
	return cullOp{m}, nil
}

func parsePullAll(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	values, ok := arg.(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.BadValue, "$pullAll requires an array argument but was given a %s", value.TypeName(arg))
	}
	return cullOp{func(elem any) (bool, error) {
		return slices.ContainsFunc(values, func(x any) bool { return value.Compare(elem, x) == 0 }), nil
	}}, nil
}

func (p cullOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return v, false, c.checkViability()
	}
	arr, ok := v.(bson.A)
	if !ok {
		// ArrayCullingNode, which both operators share, names $pull.
		return nil, false, mongoerr.New(mongoerr.BadValue, "Cannot apply $pull to a non-array value")
	}
	var out bson.A
	for i, x := range arr {
		hit, err := p.match(x)
		if err != nil {
			return nil, false, err
		}
		if hit && out == nil {
			out = append(make(bson.A, 0, len(arr)), arr[:i]...)
		} else if !hit && out != nil {
			out = append(out, x)
		}
	}
	if out == nil {
		return v, false, nil
	}
	return out, true, nil
}
