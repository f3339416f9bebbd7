package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// compileFunction is $function as a mongod started without its
// JavaScript engine (security.javascriptEnabled: false) has it: the
// argument is parsed and checked as ExpressionFunction::parse does, and
// evaluating it fails the way getJsExecWithScope does there. The sandbox
// runs no server-side JavaScript, and this is the refusal a learner would
// meet on such a server, not one of the sandbox's own.
func compileFunction(name string, arg any, scope *Scope) (Expr, error) {
	if scope.validator {
		return nil, mongoerr.Newf(mongoerr.ErrFunctionInValidator, "%s cannot be used inside a validator.", name)
	}
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrFunctionArgumentNotObject, "%s requires an object as an argument, found: %s", name, typeName(arg))
	}
	bodySpec, ok := firstField(d, "body")
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrFunctionBodyMissing, "The body function must be specified.")
	}
	// The body is parsed, not optimized: an operator that would fold to
	// a string is still not a constant.
	body, err := Compile(bodySpec, scope.withoutFolding())
	if err != nil {
		return nil, err
	}
	src, ok := IsConstant(body)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrFunctionBodyNotConstant, "The body function must be a constant expression")
	}
	switch src.(type) {
	case string, bson.JavaScript:
	default:
		return nil, mongoerr.New(mongoerr.ErrFunctionBodyNotString, "The body function must evaluate to type string or code")
	}
	argsSpec, ok := firstField(d, "args")
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrFunctionArgsMissing, "The args field must be specified.")
	}
	if _, err := Compile(argsSpec, scope); err != nil {
		return nil, err
	}
	lang, ok := firstField(d, "lang")
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrFunctionLangMissing, "The lang field must be specified.")
	}
	if s, isStr := lang.(string); !isStr || s != "js" {
		return nil, mongoerr.New(mongoerr.ErrFunctionLangNotJS, "Currently the only supported language specifier is 'js'.")
	}
	return evalFunc(func(*Env) (any, error) {
		return nil, mongoerr.New(mongoerr.ErrJavaScriptDisabled, "Cannot run server-side javascript without the javascript engine enabled")
	}), nil
}

// compileInternalJsEmit is $_internalJsEmit, the map half of mapReduce, on
// a mongod without its JavaScript engine: ExpressionInternalJsEmit::parse
// (src/mongo/db/pipeline/expression_js_emit.cpp) checks the argument, and
// evaluation checks that 'this' is an object before it asks for the
// engine (getJsExecWithScope), which such a server does not have.
func compileInternalJsEmit(name string, arg any, scope *Scope) (Expr, error) {
	if scope.validator {
		return nil, mongoerr.Newf(mongoerr.ErrJsEmitInValidator, "%s cannot be used inside a validator.", name)
	}
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrJsEmitArgumentNotObject, "%s requires an object as an argument, found: %s", name, typeName(arg))
	}
	eval, ok := firstField(d, "eval")
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrJsEmitMapMissing, "The map function must be specified.")
	}
	switch eval.(type) {
	case string, bson.JavaScript:
	default:
		return nil, mongoerr.New(mongoerr.ErrJsEmitMapNotString, "The map function must be of type string or code")
	}
	thisSpec, ok := firstField(d, "this")
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrJsEmitThisMissing, "%s requires 'this' to be specified", name)
	}
	this, err := Compile(thisSpec, scope)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := this.Eval(env)
		if err != nil {
			return nil, err
		}
		if _, isDoc := v.(bson.D); !isDoc {
			return nil, mongoerr.New(mongoerr.ErrJsEmitThisNotObject, "'this' must be an object.")
		}
		return nil, mongoerr.New(mongoerr.ErrJavaScriptDisabled, "Cannot run server-side javascript without the javascript engine enabled")
	}), nil
}

// firstField is BSONObj::operator[]: the first field of that name, others
// ignored.
func firstField(d bson.D, key string) (any, bool) {
	v := value.Get(d, key)
	return v, !value.IsMissing(v)
}
