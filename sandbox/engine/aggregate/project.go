package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $project, $unset and $addFields/$set are the projection package's, as in
// mongod, where $project parses with find's projection parser under the
// aggregation policies, $unset is the exclusion $project of its fields,
// and all three run on one projection executor.

type projMode uint8

const (
	modeInclusion projMode = iota
	modeExclusion
	modeAddFields
)

type projectStage struct {
	name     string // "$project", "$addFields", "$set", "$unset"
	mode     projMode
	proj     *projection.Projection
	userSpec any
}

func newProjectStage(name string, proj *projection.Projection, userSpec any) []Stage {
	s := &projectStage{name: name, mode: modeExclusion, proj: proj, userSpec: userSpec}
	switch {
	case name == "$addFields" || name == "$set":
		s.mode = modeAddFields
	case proj.Inclusion():
		s.mode = modeInclusion
	}
	return []Stage{s}
}

// projectionOptions compiles a stage's projection in the pipeline's scope.
func (p *parser) projectionOptions() projection.Options {
	return projection.Options{Now: p.ctx.Now, LetVars: p.letVals, Aggregation: true, Scope: p.scope}
}

func parseProject(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrProjectNotObject, "$project specification must be an object")
	}
	if len(d) == 0 {
		return nil, mongoerr.New(mongoerr.ErrProjectEmpty, "Invalid $project :: caused by :: projection specification must have at least one field")
	}
	proj, err := projection.Compile(d, p.projectionOptions())
	if err != nil {
		return nil, err
	}
	return newProjectStage("$project", proj, d), nil
}

func parseAddFields(name string) stageParser {
	return func(spec any, p *parser) ([]Stage, error) {
		d, ok := spec.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrAddFieldsNotObject, "%s specification stage must be an object, got %s", name, typeNameOf(spec))
		}
		// An empty specification adds nothing: mongod's
		// ProjectionSpecValidator stopped refusing it (40177) long before
		// 8.0, and a $lookup pipeline may hold one (SERVER-57000).
		opts := p.projectionOptions()
		opts.Stage = name
		proj, err := projection.CompileAddFields(d, opts)
		if err != nil {
			return nil, err
		}
		return newProjectStage(name, proj, d), nil
	}
}

func parseUnset(spec any, p *parser) ([]Stage, error) {
	var fields []string
	switch x := spec.(type) {
	case string:
		fields = []string{x}
	case bson.A:
		if len(x) == 0 {
			return nil, mongoerr.New(mongoerr.ErrUnsetEmpty, "$unset specification must be a string or an array with at least one field")
		}
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, mongoerr.New(mongoerr.ErrUnsetNotStrings, "$unset specification must be a string or an array containing only string values")
			}
			fields = append(fields, s)
		}
	default:
		return nil, mongoerr.New(mongoerr.ErrUnsetType, "$unset specification must be a string or an array")
	}
	exclusion := make(bson.D, len(fields))
	for i, f := range fields {
		exclusion[i] = bson.E{Key: f, Value: int32(0)}
	}
	// DocumentSourceProject::create adds the name the user wrote to the
	// parse's errors: "Invalid $unset :: caused by :: ...".
	opts := p.projectionOptions()
	opts.Stage = "$unset"
	proj, err := projection.Compile(exclusion, opts)
	if err != nil {
		return nil, err
	}
	return newProjectStage("$unset", proj, spec), nil
}

func (s *projectStage) Name() string {
	if s.name == "$unset" {
		return "$project"
	}
	return s.name
}

// Spec renders the stage as mongod's explain does: inclusions and
// exclusions as true/false, _id made explicit for $project.
func (s *projectStage) Spec() bson.D {
	return stageSpec(s.Name(), TransformationSpec(s.proj))
}

// TransformationSpec is a $project's projection as the stage serializes
// it for explain, also when the query layer runs it.
func TransformationSpec(p *projection.Projection) bson.D {
	return explainTransformation(p.Transformation())
}

// explainTransformation shows a transformation's computed fields as
// their expressions serialize (ExpressionConstant::serialize writes a
// literal as {$const: v}); inclusions, exclusions and nested field specs
// keep their form.
func explainTransformation(t bson.D) bson.D {
	out := make(bson.D, len(t))
	for i, e := range t {
		switch v := e.Value.(type) {
		case bool:
		case bson.D:
			if len(v) > 0 && !strings.HasPrefix(v[0].Key, "$") {
				e.Value = explainTransformation(v)
			} else {
				e.Value = expr.SerializeExplain(v, nil)
			}
		default:
			e.Value = expr.SerializeExplain(v, nil)
		}
		out[i] = e
	}
	return out
}

func (s *projectStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return openTransformer(s, in, rt), nil
}

func (s *projectStage) transform(d bson.D, env *expr.Env) (bson.D, error) {
	env.Reset(d)
	return s.proj.ApplyEnv(d, env)
}

// setInPlace sets key in a document the caller owns.
func setInPlace(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			if value.IsMissing(v) {
				return append(d[:i], d[i+1:]...)
			}
			d[i].Value = v
			return d
		}
	}
	if value.IsMissing(v) {
		return d
	}
	return append(d, bson.E{Key: key, Value: v})
}
