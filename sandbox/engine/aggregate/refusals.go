package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The stages of MongoDB 8.0 the sandbox does not run. Each answers as
// mongod answers where mongod itself refuses (a standalone server has no
// change streams, a community server no Atlas Search, and several stages
// run only on admin or only on {aggregate: 1}); where mongod would run the
// stage, the sandbox says it does not, never that the stage is unknown.

// unsupported is the refusal of a stage mongod would run here.
func unsupported(name string) stageParser {
	return func(any, *parser) ([]Stage, error) {
		return nil, mongoerr.Newf(mongoerr.NotImplemented,
			"%s is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri", name)
	}
}

// refuseInternalOnly is assertAllowedInternalIfRequired
// (allowed_contexts.cpp) for a stage a production mongod registers for its
// own internal clients alone: $_internalBoundedSort, which only its
// optimizer puts in a pipeline (bounded_sort.go).
func refuseInternalOnly(name string) stageParser {
	return func(any, *parser) ([]Stage, error) {
		return nil, errInternalOnly(name)
	}
}

// errInternalOnly is assertLanguageFeatureIsAllowed's refusal of a stage
// registered for internal clients to another client (5491300).
func errInternalOnly(name string) error {
	return mongoerr.Newf(mongoerr.ErrNotAllowedInUserRequests, "%s' is not allowed in user requests", name)
}

// refuseChangeStream: DocumentSourceChangeStream::assertIsLegalSpecification
// (document_source_change_stream.cpp) on a server that is not a replica
// set member.
func refuseChangeStream(any, *parser) ([]Stage, error) {
	return nil, mongoerr.New(mongoerr.ErrChangeStreamNotReplicaSet, "The $changeStream stage is only supported on replica sets")
}

// refuseChangeStreamSplit: validateTopLevelPipeline (pipeline.cpp) refuses
// it outside a change stream, and there is none without a replica set.
func refuseChangeStreamSplit(any, *parser) ([]Stage, error) {
	return nil, mongoerr.New(mongoerr.IllegalOperation, "$changeStreamSplitLargeEvent can only be used in a $changeStream pipeline")
}

// refuseListSampledQueries: DocumentSourceListSampledQueries'
// LiteParsed::parse (document_source_list_sampled_queries.cpp) takes a
// document and refuses a standalone mongod, which records no samples.
func refuseListSampledQueries(spec any, _ *parser) ([]Stage, error) {
	if _, ok := spec.(bson.D); !ok {
		return nil, mongoerr.Newf(mongoerr.ErrListSampledQueriesSpec, "$listSampledQueries must take a nested object but found: $listSampledQueries: %s", value.Format(spec))
	}
	return nil, mongoerr.New(mongoerr.IllegalOperation, "$listSampledQueries is not supported on a standalone mongod")
}

// refuseQueryStats: DocumentSourceQueryStats::createFromBson
// (document_source_query_stats.cpp).
func refuseQueryStats(spec any, p *parser) ([]Stage, error) {
	if p.ctx.DB != "admin" || p.ctx.Coll != "" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$queryStats must be run against the 'admin' database with {aggregate: 1}")
	}
	return unsupported("$queryStats")(spec, p)
}

// refuseListLocalSessions: DocumentSourceListLocalSessions::createFromBson
// (document_source_list_local_sessions.cpp).
func refuseListLocalSessions(spec any, p *parser) ([]Stage, error) {
	if p.ctx.Coll != "" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$listLocalSessions must be run against the database with {aggregate: 1}, not a collection")
	}
	return unsupported("$listLocalSessions")(spec, p)
}

// refuseListSessions: DocumentSourceListSessions::createFromBson
// (document_source_list_sessions.cpp).
func refuseListSessions(spec any, p *parser) ([]Stage, error) {
	if p.ctx.DB != "config" || p.ctx.Coll != "system.sessions" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$listSessions may only be run against config.system.sessions")
	}
	return unsupported("$listSessions")(spec, p)
}

// isMergeCursorsField: AsyncResultsMergerParams' fields
// (async_results_merger_params.idl) and those of the OperationSessionInfo
// it chains.
func isMergeCursorsField(name string) bool {
	switch name {
	case "sort", "compareWholeSortKey", "remotes", "tailableMode", "batchSize", "nss", "allowPartialResults",
		"recordRemoteOpWaitTime", "lsid", "txnNumber", "txnRetryCounter", "autocommit", "startTransaction":
		return true
	}
	return false
}

// refuseMergeCursors: DocumentSourceMergeCursors::createFromBson
// (s/query/document_source_merge_cursors.cpp) parses the spec with the
// IDL; a well-formed one names remote cursors on other hosts, which the
// sandbox has none of, so it is refused as not implemented.
func refuseMergeCursors(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrMergeCursorsNotObject, "$mergeCursors stage expected an object as argument")
	}
	for _, e := range d {
		if !isMergeCursorsField(e.Key) {
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '$mergeCursors.%s' is an unknown field.", e.Key)
		}
		if _, isArr := e.Value.(bson.A); e.Key == "remotes" && !isArr {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$mergeCursors.remotes' is the wrong type '%s', expected type 'array'", typeNameOf(e.Value))
		}
	}
	for _, required := range []string{"remotes", "nss"} {
		if _, has := lookupField(d, required); !has {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '$mergeCursors.%s' is missing but a required field", required)
		}
	}
	return unsupported("$mergeCursors")(spec, p)
}

// refuseSearch is a community server's answer to $search, $searchMeta and
// $vectorSearch without a search process (search_helper.cpp).
func refuseSearch(any, *parser) ([]Stage, error) {
	return nil, mongoerr.New(mongoerr.SearchNotEnabled, "Using $search and $vectorSearch aggregation stages requires additional configuration. "+
		"Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see "+
		"https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.")
}

// refuseSearchIndexes is the same server's answer to $listSearchIndexes
// (search_index_helpers.cpp throwIfNotRunningWithRemoteSearchIndexManagement).
func refuseSearchIndexes(any, *parser) ([]Stage, error) {
	return nil, mongoerr.New(mongoerr.SearchNotEnabled, "Using Atlas Search Database Commands and the $listSearchIndexes aggregation stage "+
		"requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable. For more "+
		"information on how to connect, see https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.")
}

// geoNearStage is a parsed $geoNear. The sandbox builds no 2d or 2dsphere
// index, so the stage never runs: the engine answers as mongod's
// executor builder does for a collection without one.
type geoNearStage struct {
	spec bson.D
	key  string
}

func (s *geoNearStage) Name() string { return "$geoNear" }
func (s *geoNearStage) Spec() bson.D { return stageSpec("$geoNear", s.spec) }
func (s *geoNearStage) open(Iterator, *runtime) (Iterator, error) {
	return nil, mongoerr.New(mongoerr.NotImplemented,
		"$geoNear is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri")
}

// LeadingGeoNear reports a $geoNear at the front of the pipeline and its
// key option ("" when none).
func (p *Pipeline) LeadingGeoNear() (key string, ok bool) {
	if len(p.stages) == 0 {
		return "", false
	}
	g, ok := p.stages[0].(*geoNearStage)
	if !ok {
		return "", false
	}
	return g.key, true
}

// parseGeoNear checks the options as DocumentSourceGeoNear::parseOptions
// (document_source_geo_near.cpp) does, in its order.
func parseGeoNear(spec any, p *parser) ([]Stage, error) {
	var d bson.D
	switch x := spec.(type) {
	case bson.D:
		d = x
	case bson.A:
		// embeddedObjectUserCheck takes an array as an object whose
		// fields are "0", "1"...; none of them is an option.
		if len(x) > 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "Unknown argument to $geoNear: 0")
		}
	default:
		return nil, mongoerr.New(10065, "invalid parameter: expected an object ($geoNear)")
	}
	for _, banned := range []struct {
		name string
		code int32
		msg  string
	}{
		{"collation", 40227, "$geoNear does not accept the 'collation' parameter. Instead, specify a collation for the entire aggregation command."},
		{"limit", 50858, "$geoNear no longer supports the 'limit' parameter. Use a $limit stage instead."},
		{"num", 50857, "$geoNear no longer supports the 'num' parameter. Use a $limit stage instead."},
		{"start", 50856, "$geoNear no longer supports the 'start' argument."},
	} {
		if _, has := lookupField(d, banned.name); has {
			return nil, mongoerr.New(banned.code, banned.msg)
		}
	}
	if _, has := lookupField(d, "near"); !has {
		return nil, mongoerr.New(5860400, "$geoNear requires a 'near' argument")
	}
	g := &geoNearStage{spec: d}
	for _, e := range d {
		switch e.Key {
		case "near", "maxDistance", "minDistance":
			if _, err := p.compile(e.Value); err != nil {
				return nil, err
			}
		case "distanceField":
			if _, ok := e.Value.(string); !ok {
				return nil, mongoerr.New(16606, "$geoNear requires that the 'distanceField' option is a String")
			}
		case "distanceMultiplier":
			if !value.IsNumber(e.Value) {
				return nil, mongoerr.New(mongoerr.TypeMismatch, "distanceMultiplier must be a number")
			}
			if value.ToDouble(e.Value) < 0 {
				return nil, mongoerr.New(mongoerr.BadValue, "distanceMultiplier must be nonnegative")
			}
		case "query":
			q, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.New(mongoerr.TypeMismatch, "query must be an object")
			}
			if _, err := query.Compile(q, query.Options{Now: p.ctx.Now, LetVars: p.letVals}); err != nil {
				return nil, err
			}
		case "spherical", "uniqueDocs":
		case "includeLocs":
			if _, ok := e.Value.(string); !ok {
				return nil, mongoerr.New(16607, "$geoNear requires that 'includeLocs' option is a String")
			}
		case "key":
			k, ok := e.Value.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$geoNear parameter 'key' must be of type string but found type: %s", typeNameOf(e.Value))
			}
			if k == "" {
				return nil, mongoerr.New(mongoerr.BadValue, "$geoNear parameter 'key' cannot be the empty string")
			}
			g.key = k
		default:
			return nil, mongoerr.Newf(mongoerr.BadValue, "Unknown argument to $geoNear: %s", e.Key)
		}
	}
	return []Stage{g}, nil
}
