package expr

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Env is the runtime state for evaluating compiled expressions against one
// document. Variables live on a small stack so that $let, $map, $filter and
// $reduce bind and unbind names without allocating per document.
type Env struct {
	root bson.D
	// current is $$CURRENT when rebound; while it is the root, rootCurrent
	// is set instead, because boxing a bson.D into an interface would cost
	// an allocation per document.
	current     any
	rootCurrent bool
	now         bson.DateTime
	vars        []binding
	// ctx gives the context of the command evaluating now; ticks counts
	// loop steps between looks at it (see Tick).
	ctx   func() context.Context
	ticks uint64
	// indexKey is the document's index key metadata ({$meta: "indexKey"}):
	// the key the plan's index scan produced it from, nil when none did.
	indexKey bson.D
	// recordID is the document's record id ({$meta: "recordId"}), 0 when
	// it came from no collection record.
	recordID int64
	// sortKey is the document's sort key ({$meta: "sortKey"}), one part
	// per sort field, nil when no sort produced it.
	sortKey bson.A
}

type binding struct {
	name string
	val  any
}

// NewEnv prepares evaluation against root; now is $$NOW for the whole
// command, so every document of one command sees the same instant.
func NewEnv(root bson.D, now bson.DateTime) *Env {
	return &Env{root: root, rootCurrent: true, now: now}
}

// Reset points the environment at the next document, keeping command-level
// variables (those set with SetVar) and the stack's capacity.
func (e *Env) Reset(root bson.D) {
	e.root = root
	e.current = nil
	e.rootCurrent = true
}

// SetVar binds a command-level `let` variable or a stage-defined variable
// ($$DESCEND for $redact, $lookup's let). A later SetVar of the same name
// replaces the value.
func (e *Env) SetVar(name string, v any) {
	if name == "CURRENT" {
		e.setCurrent(v)
		return
	}
	for i := range e.vars {
		if e.vars[i].name == name {
			e.vars[i].val = v
			return
		}
	}
	e.vars = append(e.vars, binding{name, v})
}

// SetContext makes evaluations whose work depends on the data ($map over a
// $range, $reduce, window recomputation) stop when the context ctx gives
// ends: maxTimeMS, a killed command, a stopping server. It is a function
// because an Env lives as long as its pipeline, and a cursor's later
// batches run under the contexts of later commands (getMore).
func (e *Env) SetContext(ctx func() context.Context) { e.ctx = ctx }

// SetIndexKey gives the next document's index key metadata (nil for
// none), as the IXSCAN that produced it recorded it
// (IndexScan::doWork, index_scan.cpp).
func (e *Env) SetIndexKey(key bson.D) { e.indexKey = key }

// SetRecordID gives the next document's record id (0 for none): the
// collection's record the plan read it from.
func (e *Env) SetRecordID(rid int64) { e.recordID = rid }

// SetSortKey gives the next document's sort key (nil for none), as the
// plan's SORT or SORT_KEY_GENERATOR computed it.
func (e *Env) SetSortKey(key bson.A) { e.sortKey = key }

// tickEvery is how many loop steps pass between looks at the context: a
// look costs a mutex, a step a few nanoseconds.
const tickEvery = 4096

// Tick counts one step of a data-dependent loop; every tickEvery steps it
// reports an ended context as mongod reports an interrupted operation.
func (e *Env) Tick() error { return e.TickN(1) }

// TickN counts n steps at once, for a step that itself costs work in
// proportion to n (a regex search over n bytes).
func (e *Env) TickN(n int) error {
	before := e.ticks
	e.ticks += uint64(n)
	if e.ticks/tickEvery == before/tickEvery || e.ctx == nil {
		return nil
	}
	if ctx := e.ctx(); ctx != nil {
		if err := mongoerr.FromContext(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Root returns $$ROOT.
func (e *Env) Root() bson.D { return e.root }

// Now returns $$NOW.
func (e *Env) Now() bson.DateTime { return e.now }

// currentValue returns $$CURRENT.
func (e *Env) currentValue() any {
	if e.rootCurrent {
		return e.root
	}
	return e.current
}

// setCurrent rebinds $$CURRENT.
func (e *Env) setCurrent(v any) {
	e.current = v
	e.rootCurrent = false
}

func (e *Env) push(name string, v any) { e.vars = append(e.vars, binding{name, v}) }

// loopVar is the variable $map and $filter bind to each element in turn.
// "CURRENT" is the one system variable a user may rebind (as: "CURRENT"
// makes "$a" read each element), so it rebinds $$CURRENT itself.
type loopVar struct {
	env                 *Env
	slot                int // index in env.vars; -1 for CURRENT
	oldCurrent          any
	oldCurrentIsTheRoot bool
}

func (e *Env) bindLoopVar(name string) loopVar {
	if name == "CURRENT" {
		return loopVar{env: e, slot: -1, oldCurrent: e.current, oldCurrentIsTheRoot: e.rootCurrent}
	}
	e.push(name, nil)
	return loopVar{env: e, slot: len(e.vars) - 1}
}

func (l loopVar) set(v any) {
	if l.slot < 0 {
		l.env.setCurrent(v)
		return
	}
	l.env.vars[l.slot].val = v
}

func (l loopVar) release() {
	if l.slot < 0 {
		l.env.current, l.env.rootCurrent = l.oldCurrent, l.oldCurrentIsTheRoot
		return
	}
	l.env.pop(1)
}

func (e *Env) pop(n int) { e.vars = e.vars[:len(e.vars)-n] }

// lookup finds the innermost binding; Missing when unbound at runtime
// (which compile-time scoping makes impossible for user variables).
func (e *Env) lookup(name string) any {
	switch name {
	case "ROOT":
		return e.root
	case "CURRENT":
		return e.currentValue()
	case "REMOVE":
		return value.Missing{}
	case "NOW":
		return e.now
	}
	for i := len(e.vars) - 1; i >= 0; i-- {
		if e.vars[i].name == name {
			return e.vars[i].val
		}
	}
	return value.Missing{}
}

// Scope is the compile-time set of defined variable names, so that an
// undefined variable fails when the pipeline is parsed, as in mongod.
type Scope struct {
	parent *Scope
	names  []string
	fold   bool // see WithConstantFolding (expr/fold.go)
	// validator is ExpressionContext::isParsingCollectionValidator: the
	// expressions that run JavaScript refuse to be parsed there.
	validator bool
	// recordIDs: the expressions run over a plan's documents, which carry
	// their record ids (a find's projection), so {$meta: "recordId"} may
	// be read.
	recordIDs bool
	// sortKeys: the expressions run where a sort key is known or the
	// command refuses it before any document is seen (find, findAndModify),
	// so {$meta: "sortKey"} may be compiled.
	sortKeys bool
	// letValues are the command-level let variables, evaluated once
	// before the pipeline is parsed (seedVariablesWithLetParameters): in
	// the top-level scope they are constants.
	letValues bson.D
}

// systemVars are the names a pipeline may read without defining them:
// CURRENT and mongod's builtin variables (Variables::kBuiltinVarNameToId).
var systemVars = []string{"ROOT", "CURRENT", "REMOVE", "NOW", "CLUSTER_TIME", "JS_SCOPE", "IS_MR", "USER_ROLES", "SEARCH_META"}

// NewScope returns the top-level scope: the system variables plus the
// command's `let` variables.
func NewScope(userVars ...string) *Scope {
	return &Scope{names: append(append([]string{}, systemVars...), userVars...)}
}

// With returns a child scope defining names ($let vars, $map's `as`...).
func (s *Scope) With(names ...string) *Scope {
	return &Scope{parent: s, names: names, fold: s != nil && s.fold, validator: s != nil && s.validator,
		recordIDs: s != nil && s.recordIDs, sortKeys: s != nil && s.sortKeys}
}

// WithRecordIDs returns a copy of s whose expressions read record ids.
func (s *Scope) WithRecordIDs() *Scope {
	out := *s
	out.recordIDs = true
	return &out
}

// WithSortKeys returns a copy of s whose expressions read sort keys.
func (s *Scope) WithSortKeys() *Scope {
	out := *s
	out.sortKeys = true
	return &out
}

// WithMeta returns a copy of s whose expressions read record ids and sort
// keys as the flags say, whatever s allowed: a pipeline decides it for
// each stage from the stages before it.
func (s *Scope) WithMeta(recordIDs, sortKeys bool) *Scope {
	out := *s
	out.recordIDs, out.sortKeys = recordIDs, sortKeys
	return &out
}

// InValidator returns a copy of s for a collection validator's $expr.
func (s *Scope) InValidator() *Scope {
	out := *s
	out.validator = true
	return &out
}

// WithLetValues returns a copy of s, a top-level scope, in which the
// command-level let variables have the values vals.
func (s *Scope) WithLetValues(vals bson.D) *Scope {
	out := *s
	out.letValues = vals
	return &out
}

// letConstant is the value of the command-level let variable name when
// no inner scope redefines it: Variables::hasConstantValue, which lets
// ExpressionFieldPath::optimize replace the reference by a constant.
func (s *Scope) letConstant(name string) (any, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.parent != nil {
			if slices.Contains(sc.names, name) {
				return nil, false
			}
			continue
		}
		for _, e := range sc.letValues {
			if e.Key == name {
				return e.Value, true
			}
		}
	}
	return nil, false
}

func (s *Scope) defined(name string) bool {
	for sc := s; sc != nil; sc = sc.parent {
		for _, n := range sc.names {
			if n == name {
				return true
			}
		}
	}
	return false
}
