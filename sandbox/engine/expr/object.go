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
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				continue
			}
			d, ok := v.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(40400, "$mergeObjects requires object inputs, but input %s is of type %s", formatValue(v), typeName(v))
			}
			for _, e := range d {
				if value.IsMissing(e.Value) {
					continue
				}
				out.set(e.Key, e.Value)
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
		return nil, mongoerr.Newf(40390, "$objectToArray requires a document input, found: %s", typeName(v))
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
		return nil, mongoerr.Newf(40386, "$arrayToObject requires an array input, found: %s", typeName(v))
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
				return nil, mongoerr.Newf(40396, "$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: %s", typeName(el))
			}
			if len(p) != 2 {
				return nil, mongoerr.Newf(40397, "$arrayToObject requires an array of size 2 arrays,found array of size: %d", len(p))
			}
			if _, ok := p[0].(string); !ok {
				return nil, mongoerr.Newf(40395, "$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: %s", typeName(p[0]))
			}
			key, val = p[0], p[1]
		} else {
			d, ok := el.(bson.D)
			if !ok {
				if _, isDoc := arr[0].(bson.D); !isDoc {
					return nil, mongoerr.Newf(40398, "Unrecognised input type format for $arrayToObject: %s", typeName(arr[0]))
				}
				return nil, mongoerr.Newf(40391, "$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: %s", typeName(el))
			}
			if len(d) != 2 {
				return nil, mongoerr.Newf(40392, "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:%d", len(d))
			}
			k, v := value.Get(d, "k"), value.Get(d, "v")
			if value.IsMissing(k) || value.IsMissing(v) {
				return nil, mongoerr.Newf(40393, "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: %s", formatValue(d))
			}
			if _, ok := k.(string); !ok {
				return nil, mongoerr.Newf(40394, "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: %s", typeName(k))
			}
			key, val = k, v
		}
		ks := key.(string)
		if strings.IndexByte(ks, 0) >= 0 {
			return nil, mongoerr.New(4940400, "Key field cannot contain an embedded null byte")
		}
		out.set(ks, val)
	}
	d := out.doc()
	return d, checkDoc("$arrayToObject", d)
}

// compileFieldOp builds $getField, $setField and $unsetField.
func compileFieldOp(name string, arg any, scope *Scope) (Expr, error) {
	var fieldSpec any
	var input, val Expr
	haveField, haveValue := false, false
	if d, ok := arg.(bson.D); ok && (len(d) == 0 || !strings.HasPrefix(d[0].Key, "$")) {
		for _, e := range d {
			switch e.Key {
			case "field":
				fieldSpec, haveField = e.Value, true
			case "input":
				x, err := Compile(e.Value, scope)
				if err != nil {
					return nil, err
				}
				input = x
			case "value":
				if name != "$setField" {
					return nil, mongoerr.Newf(3041701, "%s found an unknown argument: %s", name, e.Key)
				}
				x, err := Compile(e.Value, scope)
				if err != nil {
					return nil, err
				}
				val, haveValue = x, true
			default:
				return nil, mongoerr.Newf(3041701, "%s found an unknown argument: %s", name, e.Key)
			}
		}
	} else if name == "$getField" {
		fieldSpec, haveField = arg, true
	} else {
		return nil, mongoerr.Newf(4161100, "%s only supports an object as its argument", name)
	}
	if !haveField {
		return nil, mongoerr.Newf(3041702, "%s requires 'field' to be specified", name)
	}
	if input == nil {
		if name != "$getField" {
			return nil, mongoerr.Newf(3041703, "%s requires 'input' to be specified", name)
		}
		input, _ = compileFieldPath("$$CURRENT", scope)
	}
	if name == "$setField" && !haveValue {
		return nil, mongoerr.New(4161102, "$setField requires 'value' to be specified")
	}
	fe, err := Compile(fieldSpec, scope)
	if err != nil {
		return nil, err
	}
	if lit, ok := fieldSpec.(bson.D); ok && len(lit) == 1 && lit[0].Key == "$literal" {
		fe = constant{lit[0].Value}
	}
	fc, ok := fe.(constant)
	if !ok {
		return nil, mongoerr.Newf(5654601, "%s requires 'field' to evaluate to a constant, but got a non-constant argument", name)
	}
	field, ok := fc.v.(string)
	if !ok {
		return nil, mongoerr.Newf(5654602, "%s requires 'field' to evaluate to type String, but got %s", name, typeName(fc.v))
	}
	return evalFunc(func(env *Env) (any, error) {
		in, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if name == "$getField" {
			if value.IsMissing(in) {
				return value.Missing{}, nil
			}
			if nullish(in) {
				return nil, nil
			}
			d, ok := in.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(3041705, "$getField requires 'input' to evaluate to type Object, but got %s", typeName(in))
			}
			return value.Get(d, field), nil
		}
		if nullish(in) {
			return nil, nil
		}
		d, ok := in.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(4161105, "%s requires 'input' to evaluate to type Object", name)
		}
		var nv any = value.Missing{}
		if val != nil {
			if nv, err = val.Eval(env); err != nil {
				return nil, err
			}
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
