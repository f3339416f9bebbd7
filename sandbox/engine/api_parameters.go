package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// apiParameters is mongod's APIParameters: the Stable API fields a command
// was sent with (api_parameters.idl, APIParametersFromClient), each unset
// when absent. A cursor keeps those of the command that opened it, and
// every getMore must send the same.
type apiParameters struct {
	version           *string
	strict            *bool
	deprecationErrors *bool
}

// apiStrict reports whether the command was sent with apiStrict: true.
func (r *request) apiStrict() bool { return r.api.strict != nil && *r.api.strict }

// parseAPIParameters is initializeAPIParameters
// (src/mongo/db/initialize_api_parameters.cpp): the three fields' types
// (as the IDL parser reads them, null and undefined counting as absent),
// apiStrict or apiDeprecationErrors only with an apiVersion, which must
// be "1", and with apiStrict: true only a command of API Version 1. No
// command the sandbox answers is deprecated in API Version 1, so
// apiDeprecationErrors: true refuses none.
func parseAPIParameters(cmd bson.D, name string) (apiParameters, error) {
	var p apiParameters
	for _, f := range cmd[1:] {
		switch f.Key {
		case "apiVersion":
			switch v := f.Value.(type) {
			case nil, bson.Undefined:
			case string:
				p.version = &v
			default:
				return p, apiParameterType(f.Key, v, "string")
			}
		case "apiStrict", "apiDeprecationErrors":
			switch v := f.Value.(type) {
			case nil, bson.Undefined:
			case bool:
				if f.Key == "apiStrict" {
					p.strict = &v
				} else {
					p.deprecationErrors = &v
				}
			default:
				return p, apiParameterType(f.Key, v, "bool")
			}
		}
	}
	if (p.strict != nil || p.deprecationErrors != nil) && p.version == nil {
		return p, mongoerr.New(4886600, "Provided apiStrict and/or apiDeprecationErrors without passing apiVersion")
	}
	switch {
	case p.version == nil || *p.version == "1":
	case *p.version == "2":
		// Version 2 exists only for tests (acceptApiVersion2).
		return p, mongoerr.New(mongoerr.APIVersionError, "Cannot accept API version 2")
	default:
		return p, mongoerr.New(mongoerr.APIVersionError, `API version must be "1"`)
	}
	if p.strict != nil && *p.strict {
		if !inAPIVersion1(name) {
			return p, mongoerr.Newf(mongoerr.APIStrictError,
				"Provided apiStrict:true, but the command %s is not in API Version 1. Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api",
				name)
		}
		// TypedCommand's _parseRequest (commands.h): a command of API
		// Version 1 run under apiStrict by one of its aliases
		// (findandmodify, deleteIndexes) is refused before its fields.
		if cmd[0].Key != name {
			return p, mongoerr.Newf(mongoerr.APIStrictError,
				"Command invocation with name '%s' is not allowed in 'apiStrict' mode, use '%s' instead", cmd[0].Key, name)
		}
		if err := refuseUnstableFields(cmd, name); err != nil {
			return p, err
		}
	}
	return p, nil
}

// unstableFields are, for each command of API Version 1 whose IDL parser
// is given the request's apiStrict, the fields its IDL marks
// `stability: unstable`: with apiStrict: true the generated parser
// refuses each one it meets (buildscripts/idl/idl/generator.py emits
// ctxt.checkAndthrowAPIStrictErrorIfApplicable only for
// field.stability == 'unstable'; `internal` fields, such as aggregate's
// needsMerge and fromMongos or a write's isTimeseriesNamespace, which
// mongos sends to shards under the client's apiStrict, are accepted).
// A dotted name is a field of a sub-document ("index.prepareUnique"),
// and "x[].y" the field y of every document in the array x. The IDL
// texts are mongodb/mongo's; the commit each was read at is named, a
// field being listed when it is unstable both in a version before 8.0
// and in one after it, or when it came in 8.0 and is unstable after it.
//
// Commands of API Version 1 with no entry: count, whose BasicCommand
// in the 8.0-era count_cmd.cpp parses CountCommandRequest with
// IDLParserContext("count", false /* apiStrict */) (only the later
// query_cmd/count_cmd.cpp, a CountCmdVersion1Gen TypedCommand, applies
// it), so its unstable fields (fields, encryptionInformation,
// mirrored, sampleId) pass; getMore, parsed with
// IDLParserContext{"getMore"} and no apiStrict (term and
// lastKnownCommittedOpTime pass); killCursors, dropDatabase,
// endSessions (LogicalSessionFromClient's fields are all stable) and
// explain (query_cmd/explain.idl has only verbosity), which have no
// unstable field. createIndexes' index specs are array<object> (the
// comment in create_indexes.idl: "array<NewIndexSpec> but respect
// ignoreUnknownIndexOptions"), checked by index_key_validate.cpp's
// validateIndexSpec, which under apiStrict refuses only text and
// columnstore indexes: NewIndexSpec's unstable background, sparse,
// storageEngine, bucketSize, dropDups, prepareUnique and
// columnstoreProjection are accepted there.
var unstableFields = map[string][]string{
	// src/mongo/db/pipeline/aggregate_command.idl (b584db7 and 0c5e8cc).
	"aggregate": {"explain", "$queryOptions", "$_requestReshardingResumeToken", "runtimeConstants", "isMapReduceCommand",
		"collectionUUID", "$_passthroughToShard", "encryptionInformation", "$_externalDataSources", "sampleId",
		"$_requestResumeToken", "$_resumeAfter"},
	// src/mongo/db/query/find_command.idl (0c95add; f20d8d6 and 73612fe
	// add sampleId).
	"find": {"min", "max", "returnKey", "showRecordId", "$queryOptions", "tailable", "oplogReplay", "noCursorTimeout",
		"awaitData", "term", "readOnce", "allowSpeculativeMajorityRead", "$_requestResumeToken", "$_resumeAfter",
		"runtimeConstants", "collectionUUID", "encryptionInformation", "mirrored", "sampleId"},
	// src/mongo/db/coll_mod.idl (0c95add; local_catalog/ddl/coll_mod.idl
	// at b24ea20 adds timeseriesBucketsMayHaveMixedSchemaData and
	// recordIdsReplicated), CollModIndex's fields under index.
	"collMod": {"index.unique", "index.prepareUnique", "index.forceNonUnique", "changeStreamPreAndPostImages",
		"timeseriesBucketsMayHaveMixedSchemaData", "dryRun", "collectionUUID", "recordIdsReplicated"},
	// src/mongo/db/commands/create.idl (160e9ba; f20d8d6's
	// CreateCollectionRequest, chained inline so its fields are the
	// command's), and Collation's version (basic_types.idl), create's
	// collation being a Collation struct. temp is stable since 7.0 (the
	// $out stage creates its temporary collection under the client's
	// apiStrict); autoIndexId, unstable where create.idl has it, is
	// listed because the sandbox accepts it.
	"create": {"autoIndexId", "size", "max", "storageEngine", "indexOptionDefaults", "collation.version",
		"changeStreamPreAndPostImages", "recordIdsReplicated", "flags"},
	// src/mongo/db/create_indexes.idl (0c95add).
	"createIndexes": {"ignoreUnknownIndexOptions", "collectionUUID"},
	// src/mongo/db/drop.idl (160e9ba), src/mongo/db/drop_indexes.idl
	// (0c95add; DropIndexesRequest chained inline).
	"drop":        {"collectionUUID"},
	"dropIndexes": {"collectionUUID"},
	// src/mongo/db/list_collections.idl (160e9ba), src/mongo/db/list_indexes.idl
	// (0c95add).
	"listCollections": {"includePendingDrops"},
	"listIndexes":     {"includeBuildUUIDs", "includeIndexBuildInfo"},
	// src/mongo/db/ops/write_ops.idl (17e0097) and
	// src/mongo/db/query/write_ops/write_ops.idl (83ff3fe):
	// WriteCommandRequestBase's fields, chained into each write command,
	// then the statements' (UpdateOpEntry, DeleteOpEntry), and
	// findAndModify's own. An update statement's sort came in 8.0.
	"insert": {"collectionUUID", "encryptionInformation", "bypassEmptyTsReplacement"},
	"update": {"collectionUUID", "encryptionInformation", "bypassEmptyTsReplacement",
		"updates[].sort", "updates[].sampleId"},
	"delete": {"collectionUUID", "encryptionInformation", "bypassEmptyTsReplacement",
		"deletes[].sampleId"},
	"findAndModify": {"encryptionInformation", "bypassEmptyTsReplacement", "sampleId"},
}

// refuseUnstableFields is the IDL parser's APIStrictError for the first
// unstable field it meets, walking the command's fields in order and a
// sub-document or an array of documents where it meets one (a nested
// struct is parsed as its field is reached). The field is named by its
// IDLParserContext path (idl_parser.cpp getElementPath): the command's
// parser context, then for a nested struct the field holding it, and
// for the elements of an array of structs the array field alone, with
// no index (generator.py: each element's tempContext is the array
// field's name under the command's context), so "update.updates.sort".
// An explain's inner command is parsed with the explain's API
// parameters, and refused alike.
func refuseUnstableFields(cmd bson.D, name string) error {
	if name == "explain" {
		if inner, ok := cmd[0].Value.(bson.D); ok && len(inner) > 0 {
			if err := refuseUnstableFields(inner, inner[0].Key); err != nil {
				return err
			}
		}
	}
	paths := unstableFields[name]
	if len(paths) == 0 {
		return nil
	}
	return refuseUnstableIn(cmd[1:], "", paths, idlName(name))
}

// refuseUnstableIn walks doc, found at prefix ("", "index.",
// "updates[].") in the command, against the unstable paths.
func refuseUnstableIn(doc bson.D, prefix string, paths []string, context string) error {
	for _, f := range doc {
		path := prefix + f.Key
		inDoc, inArray := false, false
		for _, u := range paths {
			if u == path {
				return mongoerr.Newf(mongoerr.APIStrictError, "BSON field '%s.%s' is not allowed with apiStrict:true.",
					context, strings.ReplaceAll(path, "[]", ""))
			}
			inDoc = inDoc || strings.HasPrefix(u, path+".")
			inArray = inArray || strings.HasPrefix(u, path+"[].")
		}
		switch v := f.Value.(type) {
		case bson.D:
			if inDoc {
				if err := refuseUnstableIn(v, path+".", paths, context); err != nil {
					return err
				}
			}
		case bson.A:
			if !inArray {
				continue
			}
			for _, el := range v {
				if sub, ok := el.(bson.D); ok {
					if err := refuseUnstableIn(sub, path+"[].", paths, context); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func apiParameterType(field string, v any, expected string) error {
	return mongoerr.Newf(mongoerr.TypeMismatch,
		"BSON field 'APIParametersFromClient.%s' is the wrong type '%s', expected type '%s'", field, value.TypeName(v), expected)
}

// inAPIVersion1 reports the commands whose IDL declares api_version "1"
// in mongod 8.0 (the manual's Stable API changelog; bulkWrite joins in
// 8.1, and distinct, isMaster and the diagnostics are not in it), which
// listCommands reports as their apiVersions. saslStart and saslContinue
// are not in the changelog's table but are in the API: their IDL
// (src/mongo/db/auth/sasl_commands.idl) declares api_version "1", so
// that a driver authenticates under apiStrict.
func inAPIVersion1(name string) bool {
	switch name {
	case "abortTransaction", "aggregate", "authenticate", "collMod", "commitTransaction", "count",
		"create", "createIndexes", "delete", "drop", "dropDatabase", "dropIndexes", "endSessions",
		"explain", "find", "findAndModify", "getMore", "hello", "insert", "killCursors",
		"listCollections", "listDatabases", "listIndexes", "ping", "refreshSessions", "saslContinue",
		"saslStart", "update":
		return true
	}
	return false
}

// equal is APIParameters' ==: each field set alike, to the same value.
func (p apiParameters) equal(q apiParameters) bool {
	return sameOptional(p.version, q.version) && sameOptional(p.strict, q.strict) &&
		sameOptional(p.deprecationErrors, q.deprecationErrors)
}

func sameOptional[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// String is APIParameters::toBSON().toString().
func (p apiParameters) String() string {
	var d bson.D
	if p.version != nil {
		d = append(d, bson.E{Key: "apiVersion", Value: *p.version})
	}
	if p.strict != nil {
		d = append(d, bson.E{Key: "apiStrict", Value: *p.strict})
	}
	if p.deprecationErrors != nil {
		d = append(d, bson.E{Key: "apiDeprecationErrors", Value: *p.deprecationErrors})
	}
	return value.FormatDoc(d)
}

// checkCursorAPIParameters is setUpOperationContextStateForGetMore's
// check (getmore_cmd.cpp): a getMore carries the API parameters of the
// command that opened its cursor, no more and no fewer.
func checkCursorAPIParameters(c *cursor, req *request) error {
	if req.api.equal(c.api) {
		return nil
	}
	return mongoerr.New(mongoerr.APIMismatchError, "API parameter mismatch: getMore used params "+req.api.String()+
		", the cursor-creating command used "+c.api.String())
}
