package compat_test

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The Stable API parameters every command takes (apiVersion, apiStrict,
// apiDeprecationErrors): initializeAPIParameters validates them before
// the command runs (src/mongo/db/initialize_api_parameters.cpp), and a
// getMore must send those of the command that opened its cursor
// (src/mongo/db/commands/getmore_cmd.cpp; jstests/core/query/
// getmore_cmd_api_parameters.js, jstests/core/version_api_v1_command_coverage.js).
func TestAPIParameters(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/initialize_api_parameters.cpp initializeAPIParameters"
	refusals := []struct {
		name, cmd string
		code      int32
		msg       string
	}{
		{"apiStrict without apiVersion", `{"ping": 1, "apiStrict": false}`, 4886600, "Provided apiStrict and/or apiDeprecationErrors without passing apiVersion"},
		{"apiDeprecationErrors without apiVersion", `{"ping": 1, "apiDeprecationErrors": true}`, 4886600, "Provided apiStrict and/or apiDeprecationErrors without passing apiVersion"},
		{"an apiVersion other than 1", `{"ping": 1, "apiVersion": "3"}`, 322, `API version must be "1"`},
		{"API version 2 is for tests only", `{"ping": 1, "apiVersion": "2"}`, 322, "Cannot accept API version 2"},
		{"apiVersion is a string", `{"ping": 1, "apiVersion": 1}`, 14, "BSON field 'APIParametersFromClient.apiVersion' is the wrong type 'int', expected type 'string'"},
		{"apiStrict is a bool", `{"ping": 1, "apiVersion": "1", "apiStrict": 1}`, 14, "BSON field 'APIParametersFromClient.apiStrict' is the wrong type 'int', expected type 'bool'"},
		{"apiStrict refuses a command outside API Version 1", `{"buildInfo": 1, "apiVersion": "1", "apiStrict": true}`, 323,
			"Provided apiStrict:true, but the command buildInfo is not in API Version 1. Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api"},
		{"distinct is not in API Version 1", `{"distinct": "c", "key": "a", "apiVersion": "1", "apiStrict": true}`, 323,
			"Provided apiStrict:true, but the command distinct is not in API Version 1. Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api"},
		// The IDL parser refuses a field its IDL marks unstable
		// (IDLParserContext::throwAPIStrictErrorIfApplicable;
		// jstests/core/api/api_version_unstable_fields.js).
		{"apiStrict refuses aggregate's unstable explain", `{"aggregate": "c", "pipeline": [], "cursor": {}, "explain": true, "apiVersion": "1", "apiStrict": true}`, 323,
			"BSON field 'aggregate.explain' is not allowed with apiStrict:true."},
		{"apiStrict refuses find's unstable min", `{"find": "c", "min": {"a": 1}, "apiVersion": "1", "apiStrict": true}`, 323,
			"BSON field 'FindCommandRequest.min' is not allowed with apiStrict:true."},
		{"apiStrict refuses collMod's unstable index.prepareUnique", `{"collMod": "c", "index": {"name": "a_1", "prepareUnique": true}, "apiVersion": "1", "apiStrict": true}`, 323,
			"BSON field 'collMod.index.prepareUnique' is not allowed with apiStrict:true."},
	}
	for _, tc := range refusals {
		s.runCase(t, "API parameters: "+tc.name, ref, cover{family: commandFam, op: ejDoc(t, tc.cmd)[0].Key, col: errorCol},
			func(t *testing.T, db *mongo.Database) {
				_, err := command(t, db, ejDoc(t, tc.cmd))
				sameError(t, tc.name, err, tc.code, tc.msg)
			})
	}
	s.runCase(t, "API parameters: commands of API Version 1 run under apiStrict", ref, cover{family: commandFam, op: "find", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
			for _, cmd := range []string{
				`{"find": "c", "apiVersion": "1", "apiStrict": true, "apiDeprecationErrors": true}`,
				`{"count": "c", "apiVersion": "1", "apiStrict": true}`,
				`{"aggregate": "c", "pipeline": [], "cursor": {}, "apiVersion": "1", "apiStrict": true}`,
				`{"insert": "c", "documents": [{"_id": 2}], "apiVersion": "1", "apiStrict": true}`,
				`{"ping": 1, "apiVersion": "1", "apiStrict": null}`,
			} {
				if _, err := command(t, db, ejDoc(t, cmd)); err != nil {
					t.Errorf("%s: %v", cmd, err)
				}
			}
		})
	const unstableIndexes = "jstests/core/query/api/api_version_unstable_indexes.js; src/mongo/db/catalog/index_key_validate.cpp isIndexAllowedInAPIVersion1"
	s.runCase(t, "API parameters: apiStrict plans see no sparse index", unstableIndexes, cover{family: commandFam, op: "find", col: explain},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "views": 50}, {"_id": 2, "views": 5}, {"_id": 3}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"views": 1}, "name": "views_1", "sparse": true}]}`)
			for _, tc := range []struct{ api, want string }{{``, "FETCH>IXSCAN"}, {`, "apiVersion": "1", "apiStrict": false`, "FETCH>IXSCAN"}, {`, "apiVersion": "1", "apiStrict": true`, "COLLSCAN"}} {
				reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"views": 50}}`+tc.api+`}`)
				if got := stageChain(winningPlan(t, reply)); got != tc.want {
					t.Errorf("explain%s: plan %s, want %s", tc.api, got, tc.want)
				}
			}
			// Hinted, the sparse index is a hint to no index; its documents
			// are still found without it.
			_, err := command(t, db, ejDoc(t, `{"find": "c", "filter": {"views": 50}, "hint": {"views": 1}, "apiVersion": "1", "apiStrict": true}`))
			sameError(t, "hint of a sparse index", err, mongoerr.BadValue,
				"error processing query: ns="+db.Name()+".cTree: views $eq 50\nSort: {}\nProj: {}\n planner returned error :: caused by :: hint provided does not correspond to an existing index")
			docs, cerr := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"views": 50}, "apiVersion": "1", "apiStrict": true}`))
			if cerr != nil || len(docs) != 1 {
				t.Errorf("find under apiStrict: %v, want the one document", docs)
			}
		})
	combos := []string{``, `, "apiVersion": "1"`, `, "apiVersion": "1", "apiStrict": true`, `, "apiVersion": "1", "apiStrict": false, "apiDeprecationErrors": false`}
	s.runCase(t, "API parameters: getMore sends those of its cursor", "src/mongo/db/commands/getmore_cmd.cpp setUpOperationContextStateForGetMore",
		cover{family: commandFam, op: "getMore", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1}, {"_id": 2}]`)
			for i, opened := range combos {
				for j, continued := range combos {
					first := mustCommand(t, db, `{"find": "c", "batchSize": 1`+opened+`}`)
					id := field(field(first, "cursor").(bson.D), "id").(int64)
					cmd := ejDoc(t, `{"collection": "c"`+continued+`}`)
					cmd = append(bson.D{{Key: "getMore", Value: id}}, cmd...)
					err := getMoreNoDeadline(db, cmd)
					if i == j {
						if err != nil {
							t.Errorf("getMore%s of a cursor opened with the same: %v", continued, err)
						}
						continue
					}
					if err == nil || err.Code != 347 {
						t.Errorf("getMore%s of a cursor opened with%s: %v, want APIMismatchError", continued, opened, err)
					}
				}
			}
			first := mustCommand(t, db, `{"find": "c", "batchSize": 1, "apiVersion": "1", "apiStrict": true}`)
			id := field(field(first, "cursor").(bson.D), "id").(int64)
			err := getMoreNoDeadline(db, bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}})
			sameError(t, "getMore without the cursor's parameters", err, 347,
				`API parameter mismatch: getMore used params {}, the cursor-creating command used { apiVersion: "1", apiStrict: true }`)
		})
}

// getMoreNoDeadline runs a getMore without the harness's deadline, which
// would make the driver send a maxTimeMS that getMore refuses here.
func getMoreNoDeadline(db *mongo.Database, cmd bson.D) *mongo.CommandError {
	err := db.RunCommand(context.Background(), cmd).Err()
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		return &ce
	}
	return nil
}
