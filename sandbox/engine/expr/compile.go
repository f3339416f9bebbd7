// Package expr is MongoDB's aggregation expression language: compiling an
// expression specification once per command and evaluating it per document
// with mongod's type rules, results and error codes.
package expr

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Expr is a compiled expression. Eval may return value.Missing{} (a missing
// field, $$REMOVE).
type Expr interface {
	Eval(env *Env) (any, error)
}

// evalFunc adapts a closure to Expr; most operators are closures over their
// compiled arguments.
type evalFunc func(env *Env) (any, error)

func (f evalFunc) Eval(env *Env) (any, error) { return f(env) }

// constant is a literal value.
type constant struct{ v any }

func (c constant) Eval(*Env) (any, error) { return c.v, nil }

// IsConstant reports whether e is a literal and returns its value.
func IsConstant(e Expr) (any, bool) {
	c, ok := e.(constant)
	return c.v, ok
}

// Compile parses an expression specification: "$field.path", "$$var.path",
// a literal, {$op: args}, an array of expressions or an object of
// expressions.
func Compile(spec any, scope *Scope) (Expr, error) {
	if scope == nil {
		scope = NewScope()
	}
	switch s := spec.(type) {
	case string:
		if strings.HasPrefix(s, "$") {
			return compileFieldPath(s, scope)
		}
		return constant{s}, nil
	case bson.D:
		return compileObject(s, scope)
	case bson.A:
		return compileArray(s, scope)
	case int:
		return constant{int64(s)}, nil
	}
	return constant{spec}, nil
}

func compileArray(a bson.A, scope *Scope) (Expr, error) {
	items := make([]Expr, len(a))
	allConst := true
	for i, e := range a {
		x, err := Compile(e, scope)
		if err != nil {
			return nil, err
		}
		items[i] = x
		if _, ok := x.(constant); !ok {
			allConst = false
		}
	}
	if allConst {
		out := make(bson.A, len(items))
		for i, it := range items {
			v := it.(constant).v
			if value.IsMissing(v) {
				v = nil
			}
			out[i] = v
		}
		return constant{out}, nil
	}
	return evalFunc(func(env *Env) (any, error) {
		out := make(bson.A, len(items))
		for i, it := range items {
			v, err := it.Eval(env)
			if err != nil {
				return nil, err
			}
			// A missing value inside an array literal becomes null.
			if value.IsMissing(v) {
				v = nil
			}
			out[i] = v
		}
		return out, checkArray("array literal", out)
	}), nil
}

func compileObject(d bson.D, scope *Scope) (Expr, error) {
	if len(d) == 0 {
		return constant{bson.D{}}, nil
	}
	if strings.HasPrefix(d[0].Key, "$") {
		if len(d) != 1 {
			return nil, mongoerr.Newf(mongoerr.ErrExpressionObjectNotOneField, "An object representing an expression must have exactly one field: %s", FormatValue(d))
		}
		return compileOperator(d[0].Key, d[0].Value, scope)
	}
	type field struct {
		name string
		e    Expr
	}
	fields := make([]field, 0, len(d))
	for _, e := range d {
		if err := ValidateFieldName(e.Key); err != nil {
			return nil, err
		}
		for _, f := range fields {
			if f.name == e.Key {
				return nil, mongoerr.Newf(mongoerr.ErrObjectLiteralDuplicateField, "duplicate field name specified in object literal: %s", FormatValue(d))
			}
		}
		x, err := Compile(e.Value, scope)
		if err != nil {
			return nil, err
		}
		fields = append(fields, field{e.Key, x})
	}
	obj := evalFunc(func(env *Env) (any, error) {
		out := make(bson.D, 0, len(fields))
		for _, f := range fields {
			v, err := f.e.Eval(env)
			if err != nil {
				return nil, err
			}
			// Fields evaluating to missing are left out of the object.
			if !value.IsMissing(v) {
				out = append(out, bson.E{Key: f.name, Value: v})
			}
		}
		return out, checkDoc("object literal", out)
	})
	if !scope.fold || slices.ContainsFunc(fields, func(f field) bool { _, ok := f.e.(constant); return !ok }) {
		return obj, nil
	}
	// ExpressionObject::optimize: an object whose fields are all constants
	// is one constant.
	v, err := obj.Eval(NewEnv(bson.D{}, 0))
	if err != nil {
		return nil, scope.optimizationError(err)
	}
	return constant{v}, nil
}

// ValidateFieldName is FieldPath::uassertValidFieldName
// (src/mongo/db/pipeline/field_path.cpp): one field name, not a dotted
// path, as an object literal's keys and $facet's output names are.
func ValidateFieldName(name string) error {
	if err := validatePathPart(name); err != nil {
		return err
	}
	if strings.Contains(name, ".") {
		return mongoerr.New(mongoerr.ErrObjectLiteralDottedField, "FieldPath field names may not contain '.'. Consider using $getField or $setField.")
	}
	return nil
}

func compileOperator(name string, arg any, scope *Scope) (Expr, error) {
	c, ok := operators[name]
	if !ok {
		if err := Unsupported(name); err != nil {
			return nil, err
		}
		return nil, mongoerr.Newf(mongoerr.InvalidPipelineOperator, "Unrecognized expression '%s'", name)
	}
	x, err := c(name, arg, scope)
	if err != nil || !scope.fold {
		return x, err
	}
	return foldConstant(name, arg, x, scope)
}

// IsOperator reports whether name is a known expression operator.
func IsOperator(name string) bool {
	_, ok := operators[name]
	return ok
}

// compiler builds an operator from its argument.
type compiler func(name string, arg any, scope *Scope) (Expr, error)

// compileArgs is ExpressionNary::parseArguments: an array is the argument
// list, anything else is a single argument.
func compileArgs(arg any, scope *Scope) ([]Expr, error) {
	if a, ok := arg.(bson.A); ok {
		out := make([]Expr, len(a))
		for i, e := range a {
			x, err := Compile(e, scope)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	x, err := Compile(arg, scope)
	if err != nil {
		return nil, err
	}
	return []Expr{x}, nil
}

func compileFixed(name string, arg any, scope *Scope, n int) ([]Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if len(args) != n {
		return nil, mongoerr.Newf(mongoerr.ErrExpressionArgumentCount, "Expression %s takes exactly %d arguments. %d were passed in.", name, n, len(args))
	}
	return args, nil
}

func compileRanged(name string, arg any, scope *Scope, lo, hi int) ([]Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if len(args) < lo || len(args) > hi {
		return nil, mongoerr.Newf(mongoerr.ErrExpressionArgumentRange, "Expression %s takes at least %d arguments, and at most %d, but %d were passed in.", name, lo, hi, len(args))
	}
	return args, nil
}

// evalAll evaluates args into buf (reused when large enough).
func evalAll(env *Env, args []Expr, buf []any) ([]any, error) {
	buf = buf[:0]
	for _, a := range args {
		v, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		buf = append(buf, v)
	}
	return buf, nil
}

// nullish is Value::nullish: null, undefined or missing.
func nullish(v any) bool {
	switch v.(type) {
	case nil, value.Missing, bson.Undefined:
		return true
	}
	return false
}

// IsTrue is mongod's coerceToBool: false, null, undefined, missing and
// numeric zero are false, everything else (including NaN) is true.
func IsTrue(v any) bool {
	switch x := v.(type) {
	case nil, value.Missing, bson.Undefined:
		return false
	case bool:
		return x
	case int32:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case bson.Decimal128:
		return !decIsZero(x)
	}
	return true
}

// typeName is mongod's typeName() used in messages ("missing" for EOO).
func typeName(v any) string { return value.TypeName(v) }

// evalOpt evaluates an optional argument; absent arguments are Missing.
func evalOpt(e Expr, env *Env) (any, error) {
	if e == nil {
		return value.Missing{}, nil
	}
	return e.Eval(env)
}
