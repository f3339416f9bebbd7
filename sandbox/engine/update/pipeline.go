package update

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// pipelineStage is one stage of a pipeline-style update. Only the stages
// mongod allows in updates exist here, implemented directly rather than
// through the aggregate package.
type pipelineStage interface {
	run(env *expr.Env, doc bson.D) (bson.D, error)
}

func compilePipeline(stages bson.A, opts Options) (*Update, error) {
	letNames := make([]string, 0, len(opts.LetVars))
	for _, e := range opts.LetVars {
		letNames = append(letNames, e.Key)
	}
	scope := expr.NewScope(letNames...)
	u := &Update{kind: Pipeline, now: opts.Now, letVars: opts.LetVars}
	for _, s := range stages {
		d, ok := s.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Each element of the 'pipeline' array must be an object")
		}
		if len(d) != 1 {
			return nil, mongoerr.New(40323, "A pipeline stage specification object must contain exactly one field.")
		}
		st, err := compileStage(d[0].Key, d[0].Value, scope)
		if err != nil {
			return nil, err
		}
		u.pipeline = append(u.pipeline, st)
	}
	return u, nil
}

func compileStage(name string, arg any, scope *expr.Scope) (pipelineStage, error) {
	switch name {
	case "$set", "$addFields":
		spec, ok := arg.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(40272, "%s specification stage must be an object, got %s", name, value.TypeName(arg))
		}
		return compileAddFields(name, spec, scope)
	case "$unset":
		return compileUnsetStage(arg)
	case "$project":
		spec, ok := arg.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(15969, "$project specification must be an object")
		}
		return compileProject(spec, scope)
	case "$replaceRoot":
		spec, ok := arg.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(40228, "expected an object as specification for $replaceRoot stage, got %s", value.TypeName(arg))
		}
		nr := value.Get(spec, "newRoot")
		for _, e := range spec {
			if e.Key != "newRoot" {
				return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$replaceRoot.%s' is an unknown field.", e.Key)
			}
		}
		if value.IsMissing(nr) {
			return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field '$replaceRoot.newRoot' is missing but a required field")
		}
		e, err := expr.Compile(nr, scope)
		if err != nil {
			return nil, err
		}
		return replaceRootStage{e, "'newRoot' expression"}, nil
	case "$replaceWith":
		e, err := expr.Compile(arg, scope)
		if err != nil {
			return nil, err
		}
		return replaceRootStage{e, "'replacement document'"}, nil
	}
	if len(name) > 1 && name[0] == '$' && knownAggregateStages[name] {
		return nil, mongoerr.Newf(mongoerr.InvalidOptions, "%s is not allowed to be used within an update", name)
	}
	return nil, mongoerr.Newf(40324, "Unrecognized pipeline stage name: '%s'", name)
}

var knownAggregateStages = map[string]bool{
	"$match": true, "$group": true, "$sort": true, "$limit": true, "$skip": true, "$lookup": true,
	"$unwind": true, "$count": true, "$facet": true, "$bucket": true, "$bucketAuto": true, "$out": true,
	"$merge": true, "$graphLookup": true, "$sample": true, "$sortByCount": true, "$redact": true,
	"$densify": true, "$fill": true, "$setWindowFields": true, "$unionWith": true, "$geoNear": true,
}

func (u *Update) applyPipeline(doc bson.D) (bson.D, bool, error) {
	env := expr.NewEnv(doc, u.now)
	for _, v := range u.letVars {
		env.SetVar(v.Key, v.Value)
	}
	cur := doc
	for _, st := range u.pipeline {
		env.Reset(cur)
		next, err := st.run(env, cur)
		if err != nil {
			return nil, false, err
		}
		cur = next
	}
	return replaceDocument(doc, cur, false)
}

// replaceRootStage is $replaceRoot / $replaceWith.
type replaceRootStage struct {
	e       expr.Expr
	context string // how mongod names the expression in its error
}

func (s replaceRootStage) run(env *expr.Env, doc bson.D) (bson.D, error) {
	v, err := s.e.Eval(env)
	if err != nil {
		return nil, err
	}
	d, ok := v.(bson.D)
	if !ok {
		typ := value.TypeName(v)
		if value.IsMissing(v) {
			typ = "missing"
		}
		return nil, mongoerr.Newf(40228,
			"%s  must evaluate to an object, but resulting value was: %s. Type of resulting value: '%s'. Input document: %s",
			s.context, documentValueString(v), typ, documentValueString(doc))
	}
	return d, nil
}

// fieldSpec is one computed field of $addFields or $project: a dotted path
// and its expression; nested object specs are flattened into paths.
type fieldSpec struct {
	path []string
	e    expr.Expr
}

type addFieldsStage struct{ fields []fieldSpec }

func compileAddFields(name string, spec bson.D, scope *expr.Scope) (pipelineStage, error) {
	if len(spec) == 0 {
		return nil, mongoerr.Newf(40177, "Invalid %s :: caused by :: specification must have at least one field", name)
	}
	var fields []fieldSpec
	if err := flattenSpec(nil, spec, scope, &fields, false); err != nil {
		return nil, err
	}
	return addFieldsStage{fields}, nil
}

// flattenSpec turns {a: {b: expr}, "c.d": expr} into paths a.b and c.d.
// In $project, literal 0/1/true/false are inclusion flags (e == nil).
func flattenSpec(prefix []string, spec bson.D, scope *expr.Scope, out *[]fieldSpec, project bool) error {
	for _, f := range spec {
		if f.Key == "" || strings.HasPrefix(f.Key, "$") {
			return mongoerr.Newf(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.")
		}
		path := append(append([]string(nil), prefix...), strings.Split(f.Key, ".")...)
		if slices.Contains(path, "") {
			return mongoerr.New(15998, "FieldPath field names may not be empty strings.")
		}
		if sub, ok := f.Value.(bson.D); ok && len(sub) > 0 && !strings.HasPrefix(sub[0].Key, "$") {
			if err := flattenSpec(path, sub, scope, out, project); err != nil {
				return err
			}
			continue
		}
		if project {
			switch v := f.Value.(type) {
			case bool, int32, int64, float64:
				flag := value.Compare(v, int32(0)) != 0
				if b, ok := v.(bool); ok {
					flag = b
				}
				*out = append(*out, fieldSpec{path: path, e: flagExpr(flag)})
				continue
			}
		}
		e, err := expr.Compile(f.Value, scope)
		if err != nil {
			return err
		}
		*out = append(*out, fieldSpec{path: path, e: e})
	}
	return nil
}

func (s addFieldsStage) run(env *expr.Env, doc bson.D) (bson.D, error) {
	out := doc
	for _, f := range s.fields {
		v, err := f.e.Eval(env)
		if err != nil {
			return nil, err
		}
		out = setPath(out, f.path, v)
	}
	return out, nil
}

// setPath is $addFields' assignment: it copies along the path, descends into
// every element of an array, replaces non-documents with new documents, and
// removes the field when v is Missing.
func setPath(d bson.D, path []string, v any) bson.D {
	out := append(make(bson.D, 0, len(d)+1), d...)
	for i, e := range out {
		if e.Key != path[0] {
			continue
		}
		if len(path) == 1 {
			if value.IsMissing(v) {
				return append(out[:i], out[i+1:]...)
			}
			out[i].Value = v
			return out
		}
		out[i].Value = setIn(e.Value, path[1:], v)
		return out
	}
	if value.IsMissing(v) {
		return out
	}
	if len(path) == 1 {
		return append(out, bson.E{Key: path[0], Value: v})
	}
	return append(out, bson.E{Key: path[0], Value: setIn(bson.D{}, path[1:], v)})
}

func setIn(cur any, path []string, v any) any {
	switch c := cur.(type) {
	case bson.D:
		return setPath(c, path, v)
	case bson.A:
		arr := make(bson.A, len(c))
		for i, el := range c {
			if _, ok := el.(bson.D); ok || value.IsArray(el) {
				arr[i] = setIn(el, path, v)
			} else {
				arr[i] = setPath(bson.D{}, path, v)
			}
		}
		return arr
	}
	return setPath(bson.D{}, path, v)
}

// flagExpr marks a $project inclusion (true) or exclusion (false).
type flagExpr bool

func (f flagExpr) Eval(*expr.Env) (any, error) { return bool(f), nil }

type projectStage struct {
	exclude  bool
	idIncl   bool
	included [][]string
	computed []fieldSpec
}

func compileUnsetStage(arg any) (pipelineStage, error) {
	var names []string
	switch a := arg.(type) {
	case string:
		names = []string{a}
	case bson.A:
		for _, x := range a {
			s, ok := x.(string)
			if !ok {
				return nil, mongoerr.New(31120, "$unset specification must be a string or an array containing only string values")
			}
			names = append(names, s)
		}
	default:
		return nil, mongoerr.New(31002, "$unset specification must be a string or an array")
	}
	if len(names) == 0 {
		return nil, mongoerr.New(31119, "$unset specification must be a string or an array with at least one field")
	}
	p := projectStage{exclude: true, idIncl: true}
	for _, n := range names {
		p.included = append(p.included, strings.Split(n, "."))
	}
	return p, nil
}

func compileProject(spec bson.D, scope *expr.Scope) (pipelineStage, error) {
	if len(spec) == 0 {
		return nil, mongoerr.New(51272, "Invalid $project :: caused by :: projection specification must have at least one field")
	}
	var fields []fieldSpec
	if err := flattenSpec(nil, spec, scope, &fields, true); err != nil {
		return nil, err
	}
	p := projectStage{idIncl: true}
	sawInclude, sawExclude := false, false
	for _, f := range fields {
		flag, isFlag := f.e.(flagExpr)
		isID := len(f.path) == 1 && f.path[0] == "_id"
		switch {
		case isFlag && isID:
			p.idIncl = bool(flag)
		case isFlag && bool(flag):
			sawInclude = true
			p.included = append(p.included, f.path)
		case isFlag:
			sawExclude = true
			p.included = append(p.included, f.path)
		default:
			sawInclude = true
			p.computed = append(p.computed, f)
		}
	}
	if sawInclude && sawExclude {
		return nil, mongoerr.New(31254, "Invalid $project :: caused by :: Cannot do exclusion on field in inclusion projection")
	}
	p.exclude = !sawInclude
	if p.exclude && !p.idIncl {
		p.included = append(p.included, []string{"_id"})
	}
	return p, nil
}

func (p projectStage) run(env *expr.Env, doc bson.D) (bson.D, error) {
	if p.exclude {
		out := doc
		for _, path := range p.included {
			out = excludePath(out, path)
		}
		return out, nil
	}
	out := includePaths(doc, p.included, p.idIncl)
	for _, f := range p.computed {
		v, err := f.e.Eval(env)
		if err != nil {
			return nil, err
		}
		out = setPath(out, f.path, v)
	}
	return out, nil
}

func excludePath(d bson.D, path []string) bson.D {
	for i, e := range d {
		if e.Key != path[0] {
			continue
		}
		out := append(bson.D(nil), d...)
		if len(path) == 1 {
			return append(out[:i], out[i+1:]...)
		}
		out[i].Value = excludeIn(e.Value, path[1:])
		return out
	}
	return d
}

func excludeIn(v any, path []string) any {
	switch c := v.(type) {
	case bson.D:
		return excludePath(c, path)
	case bson.A:
		arr := make(bson.A, len(c))
		for i, el := range c {
			arr[i] = excludeIn(el, path)
		}
		return arr
	}
	return v
}

// includePaths keeps the listed paths in the document's own field order.
func includePaths(d bson.D, paths [][]string, keepID bool) bson.D {
	out := bson.D{}
	for _, e := range d {
		if e.Key == "_id" && keepID {
			out = append(out, e)
			continue
		}
		var rest [][]string
		whole := false
		for _, p := range paths {
			if p[0] != e.Key {
				continue
			}
			if len(p) == 1 {
				whole = true
			} else {
				rest = append(rest, p[1:])
			}
		}
		switch {
		case whole:
			out = append(out, e)
		case rest != nil:
			if sub, ok := includeIn(e.Value, rest); ok {
				out = append(out, bson.E{Key: e.Key, Value: sub})
			}
		}
	}
	return out
}

func includeIn(v any, paths [][]string) (any, bool) {
	switch c := v.(type) {
	case bson.D:
		return includePaths(c, paths, false), true
	case bson.A:
		arr := bson.A{}
		for _, el := range c {
			if sub, ok := includeIn(el, paths); ok {
				arr = append(arr, sub)
			}
		}
		return arr, true
	}
	return nil, false
}

// documentValueString renders a value like mongod's Document/Value
// toString: {a: 1, b: "x"}, [1, 2], MISSING.
func documentValueString(v any) string {
	var b strings.Builder
	writeDocumentValue(&b, v)
	return b.String()
}

func writeDocumentValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case value.Missing:
		b.WriteString("MISSING")
	case bson.D:
		b.WriteString("{")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e.Key + ": ")
			writeDocumentValue(b, e.Value)
		}
		b.WriteString("}")
	case bson.A:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeDocumentValue(b, e)
		}
		b.WriteString("]")
	case bson.ObjectID:
		b.WriteString(x.Hex())
	default:
		b.WriteString(value.Format(v))
	}
}
