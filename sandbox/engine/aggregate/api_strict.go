package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/stages"
)

// CheckAPIStrict refuses the stages a command under apiStrict: true may
// not use in API Version 1, as LiteParsedPipeline::validate does before
// the pipeline is parsed in full (lite_parsed_pipeline.cpp): each stage's
// AllowedWithApiStrict (assertLanguageFeatureIsAllowed,
// allowed_contexts.cpp), then its sub-pipelines', depth first. A stage
// the sandbox does not know is left to the parser, which refuses it.
// assertLanguageFeatureIsAllowed first refuses a stage registered for
// internal clients to any other client (assertAllowedInternalIfRequired),
// and lets an internal client use the stages kept for the deployment's
// own requests (AllowedWithApiStrict::kInternal).
func CheckAPIStrict(pipeline bson.A, internalClient bool) error {
	for _, st := range pipeline {
		d, ok := st.(bson.D)
		if !ok || len(d) == 0 {
			continue
		}
		name, spec := d[0].Key, d[0].Value
		s, ok := stages.Lookup(name)
		if !ok {
			continue
		}
		if s.InternalClientOnly && !internalClient {
			return errInternalOnly(name)
		}
		switch s.API {
		case stages.APINeverInVersion1:
			return mongoerr.Newf(mongoerr.APIStrictError, "%s is not allowed with 'apiStrict: true' in API Version 1", name)
		case stages.APIInternal:
			if !internalClient {
				return mongoerr.Newf(mongoerr.APIStrictError, "%s cannot be specified with 'apiStrict: true' in API Version 1", name)
			}
		case stages.APIConditionally:
			if err := permittedInAPIVersion1(name, spec); err != nil {
				return err
			}
		}
		for _, sub := range s.Pipelines(spec) {
			if arr, ok := sub.(bson.A); ok {
				if err := CheckAPIStrict(arr, internalClient); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// permittedInAPIVersion1 is the assertPermittedInAPIVersion of the stages
// whose options decide: $collStats allows only count
// (document_source_coll_stats.cpp), $changeStream refuses its three
// unstable parameters (document_source_change_stream.h) and $lookup its
// _internalCollation (document_source_lookup.h).
func permittedInAPIVersion1(name string, spec any) error {
	d, _ := spec.(bson.D)
	has := func(field string) bool { return !value.IsMissing(value.Get(d, field)) }
	switch name {
	case "$collStats":
		if has("latencyStats") || has("storageStats") || has("queryExecStats") {
			return mongoerr.New(mongoerr.APIStrictError, "only the 'count' option to $collStats is supported in API Version 1")
		}
	case "$changeStream":
		for _, f := range []string{"showExpandedEvents", "showRawUpdateDescription", "showSystemEvents"} {
			if has(f) {
				return mongoerr.Newf(mongoerr.APIStrictError, "The '%s' parameter to $changeStream is not supported in API Version 1", f)
			}
		}
	case "$lookup":
		if has("_internalCollation") {
			return mongoerr.New(mongoerr.APIStrictError, "The _internalCollation argument to $lookup is not supported in API Version 1")
		}
	}
	return nil
}
