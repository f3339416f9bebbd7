package update

import (
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// setOp is $set: a no-op only when the value is binary identical (so 1 ->
// 1.0 is a change of type and is applied).
type setOp struct{ val any }

func parseSet(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return setOp{arg}, nil
}

func (s setOp) modify(_ *applyCtx, v any, exists bool) (any, bool, error) {
	if exists && identical(v, s.val) {
		return v, false, nil
	}
	return value.DeepCopy(s.val), true, nil
}

// setOnInsertOp is $setOnInsert: $set, but only when the update inserts.
type setOnInsertOp struct{ set setOp }

func parseSetOnInsert(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return setOnInsertOp{setOp{arg}}, nil
}

func (s setOnInsertOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !c.insert {
		return v, false, nil
	}
	return s.set.modify(c, v, exists)
}

type unsetOp struct{}

func parseUnset(string, any, map[string]*arrayFilter) (leaf, error) { return unsetOp{}, nil }

func (unsetOp) modify(_ *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return v, false, nil
	}
	return value.Missing{}, true, nil
}

// arithmeticOp is $inc (mul=false) and $mul.
type arithmeticOp struct {
	mul bool
	val any
}

func parseInc(path string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return parseArithmetic(path, arg, false)
}

func parseMul(path string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return parseArithmetic(path, arg, true)
}

func parseArithmetic(path string, arg any, mul bool) (leaf, error) {
	if !value.IsNumber(arg) {
		verb := "increment"
		if mul {
			verb = "multiply"
		}
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Cannot %s with non-numeric argument: {%s}", verb, elemString(path, arg))
	}
	return arithmeticOp{mul, arg}, nil
}

func (a arithmeticOp) name() string {
	if a.mul {
		return "$mul"
	}
	return "$inc"
}

func (a arithmeticOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		if a.mul {
			// mongod multiplies the operand by int32 0: the new field has
			// the operand's type (or wider) and the value zero.
			r, _ := multiply(a.val, int32(0))
			return r, true, nil
		}
		return a.val, true, nil
	}
	if !value.IsNumber(v) {
		return nil, false, mongoerr.Newf(mongoerr.TypeMismatch,
			"Cannot apply %s to a value of non-numeric type. {%s} has the field '%s' of non-numeric type %s",
			a.name(), c.idString(), c.path[len(c.path)-1], value.TypeName(v))
	}
	var r any
	var ok bool
	if a.mul {
		r, ok = multiply(v, a.val)
	} else {
		r, ok = add(v, a.val)
	}
	if !ok {
		return nil, false, mongoerr.Newf(mongoerr.BadValue,
			"Failed to apply %s operations to current value (%s) for document {%s}", a.name(), debugNumber(v), c.idString())
	}
	if sameNumber(r, v) {
		return v, false, nil
	}
	return r, true, nil
}

// sameNumber is SafeNum::isIdentical, which decides that $inc and $mul
// did nothing: the same type and an equal value, compared as numbers (so a
// NaN result is a change, -0 for 0 is not, nor decimal 1.00 for 1.0).
func sameNumber(a, b any) bool {
	if value.TypeNumber(a) != value.TypeNumber(b) {
		return false
	}
	switch x := a.(type) {
	case float64:
		return x == b.(float64)
	case bson.Decimal128:
		if x.IsNaN() || b.(bson.Decimal128).IsNaN() {
			return false
		}
	}
	return value.Compare(a, b) == 0
}

// add and multiply follow mongod's SafeNum: int32 overflow widens to
// int64, int64 overflow is an error (ok=false), doubles and decimals win.
func add(a, b any) (any, bool) {
	switch {
	case isDecimal(a) || isDecimal(b):
		return expr.DecimalAdd(a, b), true
	case isDouble(a) || isDouble(b):
		return value.ToDouble(a) + value.ToDouble(b), true
	}
	x, _ := value.SafeNumberLong(a)
	y, _ := value.SafeNumberLong(b)
	s := x + y
	if (s > x) != (y > 0) {
		return nil, false
	}
	return narrowInt(a, b, s), true
}

func multiply(a, b any) (any, bool) {
	switch {
	case isDecimal(a) || isDecimal(b):
		return expr.DecimalMultiply(a, b), true
	case isDouble(a) || isDouble(b):
		return value.ToDouble(a) * value.ToDouble(b), true
	}
	x, _ := value.SafeNumberLong(a)
	y, _ := value.SafeNumberLong(b)
	if x != 0 && y != 0 {
		p := x * y
		if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return nil, false
		}
		return narrowInt(a, b, p), true
	}
	return narrowInt(a, b, 0), true
}

// narrowInt keeps an int32 result when both operands were int32 and the
// result fits.
func narrowInt(a, b any, r int64) any {
	_, a32 := a.(int32)
	_, b32 := b.(int32)
	if a32 && b32 && r >= math.MinInt32 && r <= math.MaxInt32 {
		return int32(r)
	}
	return r
}

func isDecimal(v any) bool { _, ok := v.(bson.Decimal128); return ok }
func isDouble(v any) bool  { _, ok := v.(float64); return ok }

// debugNumber is SafeNum::debugString.
func debugNumber(v any) string {
	switch x := v.(type) {
	case int32:
		return "(NumberInt)" + valueString(v)
	case int64:
		return "(NumberLong)" + valueString(v)
	case float64:
		return "(NumberDouble)" + valueString(v)
	case bson.Decimal128:
		return "(NumberDecimal)" + x.String()
	}
	return "(EOO)"
}

// compareOp is $min (max=false) and $max.
type compareOp struct {
	max bool
	val any
}

func parseMin(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return compareOp{false, arg}, nil
}

func parseMax(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	return compareOp{true, arg}, nil
}

func (m compareOp) modify(_ *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return value.DeepCopy(m.val), true, nil
	}
	cmp := value.Compare(v, m.val)
	if cmp == 0 || (m.max && cmp > 0) || (!m.max && cmp < 0) {
		return v, false, nil
	}
	return value.DeepCopy(m.val), true, nil
}

type currentDateOp struct{ timestamp bool }

func parseCurrentDate(_ string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	switch a := arg.(type) {
	case bool:
		return currentDateOp{}, nil
	case bson.D:
		found, ts := false, false
		for _, e := range a {
			if e.Key != "$type" {
				return nil, mongoerr.Newf(mongoerr.BadValue, "Unrecognized $currentDate option: %s", e.Key)
			}
			switch e.Value {
			case "date":
				found, ts = true, false
			case "timestamp":
				found, ts = true, true
			}
		}
		if !found {
			return nil, mongoerr.New(mongoerr.BadValue,
				"The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}")
		}
		return currentDateOp{ts}, nil
	}
	return nil, mongoerr.Newf(mongoerr.BadValue,
		"%s is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).",
		value.TypeName(arg))
}

func (d currentDateOp) modify(c *applyCtx, _ any, _ bool) (any, bool, error) {
	if d.timestamp {
		return c.clock.Tick(c.now), true, nil
	}
	return c.now, true, nil
}

// renameOp sits at the target path of a $rename; the source is removed
// after the walk (no other modifier can touch it: a placeholder holds it).
type renameOp struct {
	from []string
	to   string
}

func newRename(from, to string) (leaf, error) {
	if strings.IndexByte(to, 0) >= 0 {
		return nil, mongoerr.New(mongoerr.BadValue, "The 'to' field for $rename cannot contain an embedded null byte")
	}
	fromParts, toParts := strings.Split(from, "."), strings.Split(to, ".")
	spec := elemString(from, to)
	if from == to {
		return nil, mongoerr.Newf(mongoerr.BadValue, "The source and target field for $rename must differ: %s", spec)
	}
	if isPrefix(fromParts, toParts) || isPrefix(toParts, fromParts) {
		return nil, mongoerr.Newf(mongoerr.BadValue, "The source and target field for $rename must not be on the same path: %s", spec)
	}
	if dynamic(fromParts) {
		return nil, mongoerr.Newf(mongoerr.BadValue, "The source field for $rename may not be dynamic: %s", from)
	}
	if dynamic(toParts) {
		return nil, mongoerr.Newf(mongoerr.BadValue, "The destination field for $rename may not be dynamic: %s", to)
	}
	return renameOp{from: fromParts, to: to}, nil
}

func isPrefix(a, b []string) bool {
	if len(a) >= len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func dynamic(parts []string) bool {
	for _, p := range parts {
		if p == "$" || isArrayFilterIdentifier(p) {
			return true
		}
	}
	return false
}

func (r renameOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	src, found, err := r.source(c)
	if err != nil || !found {
		return v, false, err
	}
	for i, idx := range c.inArray {
		if idx && (i < c.taken || (i == c.taken && !exists)) {
			return nil, false, mongoerr.Newf(mongoerr.BadValue,
				"The destination field cannot be an array element, '%s' in doc with %s has an array field called '%s'",
				r.to, c.idString(), c.path[i-1])
		}
	}
	// RenameNode::apply sets the target (SetElementNode), then removes
	// the source with an UnsetNode: each checks the immutable paths, in
	// that order (modifier_node.cpp).
	if err := c.checkIDUnchanged(exists); err != nil {
		return nil, false, err
	}
	if r.from[0] == "_id" {
		return nil, false, mongoerr.Newf(mongoerr.ImmutableField,
			"Performing an update on the path '%s' would modify the immutable field '_id'", strings.Join(r.from, "."))
	}
	c.renames = append(c.renames, r.from)
	// RenameNode's SetElementNode never checks for a no-op: the target is
	// always written, so renaming onto an _id that holds the same value
	// still modifies the immutable field.
	return value.DeepCopy(src), true, nil
}

// source finds the value to rename, mongod's findLongestPrefix: a path
// through a scalar is an error, a missing field is a no-op, and the source
// may not sit inside an array.
func (r renameOp) source(c *applyCtx) (any, bool, error) {
	var cur any = c.doc
	for i, part := range r.from {
		switch t := cur.(type) {
		case bson.D:
			next := value.Get(t, part)
			if value.IsMissing(next) {
				return nil, false, nil
			}
			cur = next
		case bson.A:
			idx, ok := arrayIndex(part)
			if !ok {
				return nil, false, notViable(r.from, i, cur)
			}
			if idx >= len(t) {
				return nil, false, nil
			}
			return nil, false, mongoerr.Newf(mongoerr.BadValue,
				"The source field cannot be an array element, '%s' in doc with %s has an array field called '%s'",
				strings.Join(r.from, "."), c.idString(), r.from[i-1])
		default:
			return nil, false, notViable(r.from, i, cur)
		}
	}
	return cur, true, nil
}

func notViable(parts []string, i int, in any) error {
	return mongoerr.Newf(mongoerr.PathNotViable, "cannot use the part (%s of %s) to traverse the element ({%s})",
		parts[i], strings.Join(parts, "."), elemString(parts[i-1], in))
}

// bitOp is $bit with and/or/xor on integers.
type bitOp struct {
	ops []bson.E
}

func parseBit(path string, arg any, _ map[string]*arrayFilter) (leaf, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.BadValue,
			"The $bit modifier is not compatible with a %s. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}",
			value.TypeName(arg))
	}
	for _, e := range d {
		if e.Key != "and" && e.Key != "or" && e.Key != "xor" {
			return nil, mongoerr.Newf(mongoerr.BadValue,
				"The $bit modifier only supports 'and', 'or', and 'xor', not '%s' which is an unknown operator: {%s}",
				e.Key, elemString(e.Key, e.Value))
		}
		switch e.Value.(type) {
		case int32, int64:
		default:
			return nil, mongoerr.Newf(mongoerr.BadValue,
				"The $bit modifier field must be an Integer(32/64 bit); a '%s' is not supported here: {%s}",
				value.TypeName(e.Value), elemString(e.Key, e.Value))
		}
	}
	if len(d) == 0 {
		return nil, mongoerr.New(mongoerr.BadValue,
			"You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}")
	}
	return bitOp{d}, nil
}

func (b bitOp) modify(c *applyCtx, v any, exists bool) (any, bool, error) {
	cur := v
	if !exists {
		cur = int32(0)
	}
	switch cur.(type) {
	case int32, int64:
	default:
		return nil, false, mongoerr.Newf(mongoerr.BadValue,
			"Cannot apply $bit to a value of non-integral type.{%s} has the field %s of non-integer type %s",
			c.idString(), c.path[len(c.path)-1], value.TypeName(cur))
	}
	for _, e := range b.ops {
		x, _ := value.SafeNumberLong(cur)
		y, _ := value.SafeNumberLong(e.Value)
		var r int64
		switch e.Key {
		case "and":
			r = x & y
		case "or":
			r = x | y
		default:
			r = x ^ y
		}
		cur = narrowInt(cur, e.Value, r)
	}
	if exists && identical(cur, v) {
		return v, false, nil
	}
	return cur, true, nil
}

// identical is mongod's binaryEqualValues: same types, same values, same
// field names and order.
func identical(a, b any) bool {
	switch x := a.(type) {
	case bson.D:
		y, ok := b.(bson.D)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Key != y[i].Key || !identical(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	case bson.A:
		y, ok := b.(bson.A)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !identical(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case bson.Decimal128:
		y, ok := b.(bson.Decimal128)
		if !ok {
			return false
		}
		xh, xl := x.GetBytes()
		yh, yl := y.GetBytes()
		return xh == yh && xl == yl
	}
	if value.TypeNumber(a) != value.TypeNumber(b) {
		return false
	}
	return value.Compare(a, b) == 0
}

// parseRename only registers $rename as a known modifier; merge builds the
// rename itself because it places two nodes in the tree.
func parseRename(string, any, map[string]*arrayFilter) (leaf, error) { return nil, nil }
