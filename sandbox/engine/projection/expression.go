package projection

import (
	"context"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// exprContext compiles and evaluates aggregation expressions used as
// computed projection fields.
type exprContext struct {
	now   bson.DateTime
	lets  bson.D
	scope *expr.Scope
}

type compiledExpr = expr.Expr

func newExprContext(opts Options) exprContext {
	scope := opts.Scope
	if scope == nil {
		names := make([]string, 0, len(opts.LetVars))
		for _, v := range opts.LetVars {
			names = append(names, v.Key)
		}
		scope = expr.NewScope(names...)
	}
	if opts.RecordIDs {
		scope = scope.WithRecordIDs()
	}
	if opts.SortKeys {
		scope = scope.WithSortKeys()
	}
	return exprContext{now: opts.Now, lets: opts.LetVars, scope: scope}
}

func (c exprContext) isOperator(name string) bool { return expr.IsOperator(name) }

func (c exprContext) compile(spec any) (compiledExpr, error) { return expr.Compile(spec, c.scope) }

// evaluator evaluates the computed fields of one document in one Env.
type evaluator struct {
	ctx    exprContext
	cmdCtx func() context.Context // the command's context, nil for none
	env    *expr.Env
	// indexKey, recordID and sortKey are the document's metadata, for an
	// env made here.
	indexKey bson.D
	recordID int64
	sortKey  bson.A
}

func (ev *evaluator) eval(e compiledExpr, root bson.D) (any, error) {
	if ev.env == nil {
		ev.env = expr.NewEnv(root, ev.ctx.now)
		ev.env.SetContext(ev.cmdCtx)
		ev.env.SetIndexKey(ev.indexKey)
		ev.env.SetRecordID(ev.recordID)
		ev.env.SetSortKey(ev.sortKey)
		for _, l := range ev.ctx.lets {
			ev.env.SetVar(l.Key, l.Value)
		}
	}
	return e.Eval(ev.env)
}
