package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// querySettingsStage is $querySettings (document_source_query_settings.h
// and .cpp): the query shape configurations of the querySettings cluster
// parameter. A standalone mongod, which the sandbox is, can set none
// (setQuerySettings needs a replica set), so the stage lists nothing.
type querySettingsStage struct {
	spec bson.D
}

// parseQuerySettings checks the specification as LiteParsed::parse and
// the strict DocumentSourceQuerySettingsSpec do: a document, whose one
// field is the boolean showDebugQueryShape.
func parseQuerySettings(spec any, _ *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrQuerySettingsSpec, "$querySettings stage expects a document as argument")
	}
	if _, err := parseIDL("$querySettings", d, idlField{name: "showDebugQueryShape", types: []string{"bool"}}); err != nil {
		return nil, err
	}
	return []Stage{&querySettingsStage{spec: d}}, nil
}

func (s *querySettingsStage) Name() string { return "$querySettings" }
func (s *querySettingsStage) Spec() bson.D { return stageSpec("$querySettings", s.spec) }

func (s *querySettingsStage) open(Iterator, *runtime) (Iterator, error) {
	return NewSliceIterator(nil), nil
}
