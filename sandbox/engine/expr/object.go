package expr

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// docBuilder sets fields keeping the position of an existing one, as
// MutableDocument::setField does. It indexes the keys, so building a
// document of n fields costs n, not n², whatever the input holds.
type docBuilder struct {
	d   bson.D
	pos map[string]int
}

func (b *docBuilder) set(key string, v any) {
	if i, ok := b.pos[key]; ok {
		b.d[i].Value = v
		return
	}
	if b.pos == nil {
		b.pos = map[string]int{}
	}
	b.pos[key] = len(b.d)
	b.d = append(b.d, bson.E{Key: key, Value: v})
}

// doc returns the document built, {} when nothing was set.
func (b *docBuilder) doc() bson.D {
	if b.d == nil {
		return bson.D{}
	}
	return b.d
}

func compileMergeObjects(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		var out docBuilder
		merge := func(v any) error {
			if nullish(v) {
				return nil
			}
			d, ok := v.(bson.D)
			if !ok {
				return mongoerr.Newf(mongoerr.ErrMergeObjectsNotObject, "$mergeObjects requires object inputs, but input %s is of type %s", formatValue(v), typeName(v))
			}
			for _, e := range d {
				if value.IsMissing(e.Value) {
					continue
				}
				out.set(e.Key, e.Value)
			}
			return nil
		}
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			// $mergeObjects is ExpressionFromAccumulator over
			// AccumulatorMergeObjects: a lone argument that is an array
			// merges its elements.
			if arr, ok := v.(bson.A); ok && len(args) == 1 {
				for _, e := range arr {
					if err := merge(e); err != nil {
						return nil, err
					}
				}
				continue
			}
			if err := merge(v); err != nil {
				return nil, err
			}
		}
		d := out.doc()
		return d, checkDoc(name, d)
	}), nil
}

func objectToArray(_ string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrObjectToArrayNotDocument, "$objectToArray requires a document input, found: %s", typeName(v))
	}
	out := make(bson.A, len(d))
	for i, e := range d {
		out[i] = bson.D{{Key: "k", Value: e.Key}, {Key: "v", Value: e.Value}}
	}
	return out, nil
}

func arrayToObject(_ string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	arr, ok := v.(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectNotArray, "$arrayToObject requires an array input, found: %s", typeName(v))
	}
	var out docBuilder
	if len(arr) == 0 {
		return out.doc(), nil
	}
	_, pairs := arr[0].(bson.A)
	for _, el := range arr {
		var key, val any
		if pairs {
			p, ok := el.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectMixedArray, "$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: %s", typeName(el))
			}
			if len(p) != 2 {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectPairSize, "$arrayToObject requires an array of size 2 arrays,found array of size: %d", len(p))
			}
			if _, ok := p[0].(string); !ok {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectKeyNotString, "$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: %s", typeName(p[0]))
			}
			key, val = p[0], p[1]
		} else {
			d, ok := el.(bson.D)
			if !ok {
				if _, isDoc := arr[0].(bson.D); !isDoc {
					return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectElementType, "Unrecognised input type format for $arrayToObject: %s", typeName(arr[0]))
				}
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectMixedObject, "$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: %s", typeName(el))
			}
			if len(d) != 2 {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectKVFieldCount, "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:%d", len(d))
			}
			k, v := value.Get(d, "k"), value.Get(d, "v")
			if value.IsMissing(k) || value.IsMissing(v) {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectKVMissing, "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: %s", formatValue(d))
			}
			if _, ok := k.(string); !ok {
				return nil, mongoerr.Newf(mongoerr.ErrArrayToObjectKNotString, "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: %s", typeName(k))
			}
			key, val = k, v
		}
		ks := key.(string)
		if strings.IndexByte(ks, 0) >= 0 {
			// The two input forms check the key at their own uassert
			// (jstests/aggregation/expressions/arrayToObject.js).
			code := int32(mongoerr.ErrArrayToObjectKeyNullByte)
			if !pairs {
				code = mongoerr.ErrArrayToObjectKVKeyNullByte
			}
			return nil, mongoerr.New(code, "Key field cannot contain an embedded null byte")
		}
		out.set(ks, val)
	}
	d := out.doc()
	return d, checkDoc("$arrayToObject", d)
}

// compileGetField is ExpressionGetField: 'field' any expression that
// evaluates to a string (a string, or an object led by an operator, is the
// field itself), 'input' $$CURRENT for those short forms.
func compileGetField(name string, arg any, scope *Scope) (Expr, error) {
	var field, input Expr
	current := func() Expr { x, _ := compileFieldPath("$$CURRENT", scope); return x }
	d, isObj := arg.(bson.D)
	if !isObj {
		x, err := Compile(arg, scope)
		if err != nil {
			return nil, err
		}
		field, input = x, current()
	}
	for _, e := range d {
		var err error
		if field == nil && input == nil && strings.HasPrefix(e.Key, "$") {
			// An operator object is the field itself.
			if field, err = Compile(d, scope); err != nil {
				return nil, err
			}
			input = current()
			break
		}
		switch e.Key {
		case "field":
			field, err = Compile(e.Value, scope)
		case "input":
			input, err = Compile(e.Value, scope)
		default:
			return nil, mongoerr.Newf(mongoerr.ErrGetFieldUnknownArgument, "$getField found an unknown argument: %s", e.Key)
		}
		if err != nil {
			return nil, err
		}
	}
	if field == nil {
		return nil, mongoerr.New(mongoerr.ErrGetFieldMissingField, "$getField requires 'field' to be specified")
	}
	if input == nil {
		return nil, mongoerr.New(mongoerr.ErrGetFieldMissingInput, "$getField requires 'input' to be specified")
	}
	return evalFunc(func(env *Env) (any, error) {
		fv, err := field.Eval(env)
		if err != nil {
			return nil, err
		}
		f, ok := fv.(string)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrGetFieldFieldNotString, "$getField requires 'field' to evaluate to type String, but got %s", typeName(fv))
		}
		in, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		switch x := in.(type) {
		case bson.D:
			return value.Get(x, f), nil
		case nil, bson.Undefined:
			return nil, nil
		}
		// Missing input, and any input that is not a document, is missing.
		return value.Missing{}, nil
	}), nil
}

// compileSetField is ExpressionSetField, and $unsetField its form whose
// value is $$REMOVE. 'field' must be a constant string, which may hold
// dots and dollars: it names one field, never a path.
func compileSetField(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSetFieldArgumentNotObject, "%s only supports an object as its argument", name)
	}
	var fieldSpec any
	haveField := false
	var input, val Expr
	for _, e := range d {
		var err error
		switch {
		case e.Key == "field":
			fieldSpec, haveField = e.Value, true
			_, err = Compile(e.Value, scope)
		case e.Key == "input":
			input, err = Compile(e.Value, scope)
		case e.Key == "value" && name == "$setField":
			val, err = Compile(e.Value, scope)
		default:
			return nil, mongoerr.Newf(mongoerr.ErrSetFieldUnknownArgument, "%s found an unknown argument: %s", name, e.Key)
		}
		if err != nil {
			return nil, err
		}
	}
	if name == "$unsetField" {
		val = constant{value.Missing{}}
	}
	if !haveField {
		return nil, mongoerr.Newf(mongoerr.ErrSetFieldMissingField, "%s requires 'field' to be specified", name)
	}
	if val == nil {
		return nil, mongoerr.Newf(mongoerr.ErrSetFieldMissingValue, "%s requires 'value' to be specified", name)
	}
	if input == nil {
		return nil, mongoerr.Newf(mongoerr.ErrSetFieldMissingInput, "%s requires 'input' to be specified", name)
	}
	field, err := setFieldName(fieldSpec)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		in, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(in) {
			return nil, nil
		}
		d, ok := in.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.ErrSetFieldInputNotObject, "$setField requires 'input' to evaluate to type Object")
		}
		nv, err := val.Eval(env)
		if err != nil {
			return nil, err
		}
		out := make(bson.D, 0, len(d)+1)
		found := false
		for _, e := range d {
			if e.Key == field {
				found = true
				if !value.IsMissing(nv) {
					out = append(out, bson.E{Key: field, Value: nv})
				}
				continue
			}
			out = append(out, e)
		}
		if !found && !value.IsMissing(nv) {
			out = append(out, bson.E{Key: field, Value: nv})
		}
		return out, checkDoc(name, out)
	}), nil
}

// setFieldName is ExpressionSetField::getValidFieldName, which looks at
// the parsed, not yet optimized, 'field': a literal string ($literal and
// $const included), never a field path or an operator.
func setFieldName(spec any) (string, error) {
	switch f := spec.(type) {
	case string:
		if strings.HasPrefix(f, "$") {
			// The message shows the parsed ExpressionFieldPath's
			// fullPathWithPrefix: a field is a path under the CURRENT
			// variable, and a variable keeps one '$'.
			path := "$CURRENT." + f[1:]
			if strings.HasPrefix(f, "$$") {
				path = f[1:]
			}
			return "", mongoerr.Newf(mongoerr.ErrSetFieldFieldIsPath, "'%s' is a field path reference which is not allowed in this context. Did you mean {$literal: '%s'}?", path, path)
		}
	case bson.D:
		if len(f) == 1 && (f[0].Key == "$literal" || f[0].Key == "$const") {
			spec = f[0].Value
		} else {
			return "", mongoerr.New(mongoerr.ErrSetFieldFieldNotConstant, "$setField requires 'field' to evaluate to a constant, but got a non-constant argument")
		}
	case bson.A:
		return "", mongoerr.New(mongoerr.ErrSetFieldFieldNotConstant, "$setField requires 'field' to evaluate to a constant, but got a non-constant argument")
	}
	s, ok := spec.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.ErrSetFieldFieldNotString, "$setField requires 'field' to evaluate to type String, but got %s", typeName(spec))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", mongoerr.New(mongoerr.ErrSetFieldFieldNullByte, "$setField: 'field' cannot contain an embedded null byte")
	}
	return s, nil
}
