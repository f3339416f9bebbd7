package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func splitDots(path string) []string { return strings.Split(path, ".") }

// appendNumber is BSONObjBuilder::appendNumber(long long)
// (src/mongo/bson/bsonobjbuilder.h): an int when the magnitude is below
// 2^30, a double below 2^40, a long beyond.
func appendNumber(n int64) any {
	switch {
	case n > -(1<<30) && n < 1<<30:
		return int32(n)
	case n > -(1<<40) && n < 1<<40:
		return float64(n)
	}
	return n
}

// appendNumberStyle rewrites the int64 figures in v as appendNumber stores
// them. Explain and statistics replies are built that way in mongod,
// which is why mongosh prints `nReturned: 1` rather than `Long('1')`.
func appendNumberStyle(v any) any {
	return mapScalars(v, func(s any) any {
		if x, ok := s.(int64); ok {
			return appendNumber(x)
		}
		return s
	})
}

// mapScalars rebuilds v with f applied to every value in it that is not a
// document or an array, keeping field names and order.
func mapScalars(v any, f func(any) any) any {
	switch x := v.(type) {
	case bson.D:
		out := make(bson.D, len(x))
		for i, e := range x {
			out[i] = bson.E{Key: e.Key, Value: mapScalars(e.Value, f)}
		}
		return out
	case bson.A:
		out := make(bson.A, len(x))
		for i, e := range x {
			out[i] = mapScalars(e, f)
		}
		return out
	}
	return f(v)
}

func appendNumberStyleDoc(d bson.D) bson.D { return appendNumberStyle(d).(bson.D) }

// letArg reads a command's `let` and evaluates each variable's expression
// once, as mongod does before running the command; the query, update and
// projection layers then see plain values.
func letArg(a args, now bson.DateTime) (bson.D, error) {
	let, ok, err := a.document("let")
	if err != nil || !ok {
		return nil, err
	}
	return expr.SeedLetParameters(let, now)
}

// executorError prefixes a runtime failure the way mongod's plan executor
// reports it ("Executor error during find command :: caused by :: ...").
func executorError(prefix string, err error) error {
	if err == nil {
		return nil
	}
	me := mongoerr.As(err)
	out := *me
	out.Msg = prefix + " :: caused by :: " + me.Msg
	return &out
}
