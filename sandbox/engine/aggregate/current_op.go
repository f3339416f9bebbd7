package aggregate

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// CurrentOpOptions are the options of a $currentOp stage
// (document_source_current_op.idl, CurrentOpSpec): each an optionalBool,
// absent unless given.
type CurrentOpOptions struct {
	// IdleConnections also lists the connections running nothing.
	IdleConnections bool
	// AllUsers lists every user's operations; without it a user sees his
	// own (on a server without authentication, every operation is).
	AllUsers bool
	// TruncateOps cuts a command over 1000 bytes down to a string.
	TruncateOps bool
	// IdleCursors also lists the cursors no getMore is using.
	IdleCursors bool
}

// currentOpStage is $currentOp: the server's operations, one document
// each, as CurOp::reportCurrentOpForClient reports them.
type currentOpStage struct {
	opts CurrentOpOptions
	// spec is the stage's serialization: the options given, in the IDL's
	// order, as DocumentSourceCurrentOp::serialize writes them.
	spec bson.D
}

// currentOpFields are CurrentOpSpec's fields in its declaration order,
// which serialize follows.
func currentOpFields() []string {
	return []string{"idleConnections", "idleSessions", "allUsers", "localOps", "truncateOps", "idleCursors", "targetAllNodes"}
}

// parseCurrentOp is DocumentSourceCurrentOp::createFromBson: the spec is
// an object parsed as the strict CurrentOpSpec, the namespace admin with
// {aggregate: 1}. idleSessions lists sessions holding a transaction; a
// standalone holds none, so it changes nothing.
func parseCurrentOp(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$currentOp options must be specified in an object, but found: %s", typeNameOf(spec))
	}
	if p.ctx.DB != "admin" || p.ctx.Coll != "" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$currentOp must be run against the 'admin' database with {aggregate: 1}")
	}
	given := map[string]bool{}
	for _, e := range d {
		if !slices.Contains(currentOpFields(), e.Key) {
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$currentOp.%s' is an unknown field.", e.Key)
		}
		if _, dup := given[e.Key]; dup {
			return nil, mongoerr.Newf(mongoerr.IDLDuplicateField, "BSON field '$currentOp.%s' is a duplicate field", e.Key)
		}
		// OptionalBool::parseFromBSON.
		b, isBool := e.Value.(bool)
		if !isBool {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Field '%s' should be a boolean value, but found: %s", e.Key, typeNameOf(e.Value))
		}
		given[e.Key] = b
	}
	if given["localOps"] && given["targetAllNodes"] {
		return nil, mongoerr.New(mongoerr.FailedToParse, "The 'localOps' parameter of the $currentOp stage cannot be true when 'targetAllNodes' is also true")
	}
	if given["targetAllNodes"] {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$currentOp supports targetAllNodes parameter only for sharded clusters")
	}
	s := &currentOpStage{opts: CurrentOpOptions{
		IdleConnections: given["idleConnections"], AllUsers: given["allUsers"], TruncateOps: given["truncateOps"],
		IdleCursors: given["idleCursors"],
	}}
	for _, f := range currentOpFields() {
		if b, ok := given[f]; ok {
			s.spec = append(s.spec, bson.E{Key: f, Value: b})
		}
	}
	return []Stage{s}, nil
}

func (s *currentOpStage) Name() string { return "$currentOp" }
func (s *currentOpStage) Spec() bson.D { return stageSpec("$currentOp", s.spec) }

func (s *currentOpStage) open(_ Iterator, rt *runtime) (Iterator, error) {
	if rt.ctx.CurrentOp == nil {
		return nil, mongoerr.New(mongoerr.InternalError, "aggregate: no CurrentOp function in the context")
	}
	return NewSliceIterator(rt.ctx.CurrentOp(s.opts)), nil
}
