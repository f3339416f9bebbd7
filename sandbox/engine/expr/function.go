package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// compileFunction is $function as a mongod started without its
// JavaScript engine (security.javascriptEnabled: false) has it: the
// argument is parsed and checked as ExpressionFunction::parse does, and
// evaluating it fails the way getJsExecWithScope does there. The sandbox
// runs no server-side JavaScript, and this is the refusal a learner would
// meet on such a server, not one of the sandbox's own.
func compileFunction(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrFunctionArgumentNotObject, "%s requires an object as an argument, found: %s", name, typeName(arg))
	}
	field := func(key string) (any, bool) {
		for _, e := range d {
			if e.Key == key {
				return e.Value, true
			}
		}
		return nil, false
	}
	bodySpec, ok := field("body")
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
	argsSpec, ok := field("args")
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrFunctionArgsMissing, "The args field must be specified.")
	}
	if _, err := Compile(argsSpec, scope); err != nil {
		return nil, err
	}
	lang, ok := field("lang")
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
