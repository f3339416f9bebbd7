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
		if err := refuseUnstableFields(cmd, name); err != nil {
			return p, err
		}
	}
	return p, nil
}

// unstableFields are the fields a command's IDL marks unstable
// (aggregate_command.idl, find_command.idl, collmod.idl's CollModIndex),
// a dotted name standing for a field of a sub-document: with apiStrict:
// true the IDL parser refuses each (throwAPIStrictErrorIfApplicable).
var unstableFields = map[string][]string{
	"aggregate": {"explain", "$queryOptions", "$_requestReshardingResumeToken", "runtimeConstants", "isMapReduceCommand",
		"collectionUUID", "$_passthroughToShard", "encryptionInformation", "$_externalDataSources", "sampleId",
		"$_requestResumeToken", "$_resumeAfter"},
	"find": {"min", "max", "returnKey", "showRecordId", "$queryOptions", "tailable", "oplogReplay", "noCursorTimeout",
		"awaitData", "term", "readOnce", "allowSpeculativeMajorityRead", "$_requestResumeToken", "$_resumeAfter",
		"runtimeConstants", "collectionUUID"},
	"collMod": {"index.prepareUnique"},
}

// refuseUnstableFields is the IDL parser's APIStrictError for the first
// unstable field the command holds, named by its path.
func refuseUnstableFields(cmd bson.D, name string) error {
	for _, f := range cmd[1:] {
		for _, path := range unstableFields[name] {
			parent, child, nested := strings.Cut(path, ".")
			switch {
			case !nested && f.Key == path:
			case nested && f.Key == parent:
				if sub, ok := f.Value.(bson.D); !ok || value.IsMissing(value.Get(sub, child)) {
					continue
				}
			default:
				continue
			}
			return mongoerr.Newf(mongoerr.APIStrictError, "BSON field '%s.%s' is not allowed with apiStrict:true.", idlName(name), path)
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
// 8.1, and distinct, isMaster and the diagnostics are not in it).
func inAPIVersion1(name string) bool {
	switch name {
	case "abortTransaction", "aggregate", "authenticate", "collMod", "commitTransaction", "count",
		"create", "createIndexes", "delete", "drop", "dropDatabase", "dropIndexes", "endSessions",
		"explain", "find", "findAndModify", "getMore", "hello", "insert", "killCursors",
		"listCollections", "listDatabases", "listIndexes", "ping", "refreshSessions", "update":
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
