package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

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

// refuseCurrentOp: DocumentSourceCurrentOp::createFromBson
// (document_source_current_op.cpp) checks the spec and the namespace.
func refuseCurrentOp(spec any, p *parser) ([]Stage, error) {
	if _, ok := spec.(bson.D); !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$currentOp options must be specified in an object, but found: %s", typeNameOf(spec))
	}
	if p.ctx.DB != "admin" || p.ctx.Coll != "" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$currentOp must be run against the 'admin' database with {aggregate: 1}")
	}
	return unsupported("$currentOp")(spec, p)
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
