package engine_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Schema validation through the driver. The expected errInfo.details are
// mongod 8.0's, from jstests/core/doc_validation/doc_validation_error.js
// and the manual's examples.

// firstWriteError returns the first write error of a write command's reply.
func firstWriteError(t *testing.T, reply bson.D) bson.D {
	t.Helper()
	werrs, _ := field(reply, "writeErrors").(bson.A)
	if len(werrs) == 0 {
		t.Fatalf("no writeErrors in %s", relaxed(reply))
	}
	return werrs[0].(bson.D)
}

// failingDetails inserts doc into a collection created with validator and
// returns the errInfo.details of the DocumentValidationFailure.
func failingDetails(t *testing.T, db *mongo.Database, validator, doc string) bson.D {
	t.Helper()
	okJ(t, db, `{"drop": "v"}`)
	okJ(t, db, `{"create": "v", "validator": `+validator+`}`)
	reply := okJ(t, db, `{"insert": "v", "documents": [`+doc+`]}`)
	we := firstWriteError(t, reply)
	if code, _ := field(we, "code").(int32); code != mongoerr.DocumentValidationFailure {
		t.Fatalf("code %v, want 121: %s", field(we, "code"), relaxed(we))
	}
	if msg := field(we, "errmsg"); msg != "Document failed validation" {
		t.Errorf("errmsg %q", msg)
	}
	info, _ := field(we, "errInfo").(bson.D)
	if got, want := canon(t, field(info, "failingDocumentId")), canon(t, field(j(t, doc), "_id")); got != want {
		t.Errorf("failingDocumentId %s, want %s", got, want)
	}
	details, _ := field(info, "details").(bson.D)
	return details
}

func TestValidationErrorDetails(t *testing.T) {
	db, _ := confColl(t)
	cases := []struct{ name, validator, doc, want string }{
		{"node structure",
			`{"$jsonSchema": {"bsonType": "object", "required": ["_id"], "properties": {
				"parent": {"bsonType": ["string", "null"], "description": "must be a string"},
				"children": {"bsonType": ["array"], "items": {"bsonType": ["string"]}, "minItems": 0, "maxItems": 2,
					"description": "must be an array of string and max is 2"}}}}`,
			`{"_id": "Languages", "children": 2.0, "parent": "Programming"}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties",
				"propertiesNotSatisfied": [{"propertyName": "children", "description": "must be an array of string and max is 2",
				"details": [{"operatorName": "bsonType", "specifiedAs": {"bsonType": ["array"]}, "reason": "type did not match",
				"consideredValue": 2.0, "consideredType": "double"}]}]}]}`},
		{"array of enums",
			`{"$jsonSchema": {"properties": {"values": {"bsonType": "array",
				"items": {"bsonType": "string", "enum": ["one", "two", "three"]}, "minItems": 1, "uniqueItems": true}}}}`,
			`{"_id": 1, "values": ["two", "two"]}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties",
				"propertiesNotSatisfied": [{"propertyName": "values", "details": [{"operatorName": "uniqueItems",
				"specifiedAs": {"uniqueItems": true}, "reason": "found a duplicate item", "consideredValue": ["two", "two"],
				"duplicatedValue": "two"}]}]}]}`},
		{"$expr",
			`{"$expr": {"$eq": [{"$size": "$a.b"}, {"$size": {"$setUnion": "$a.b"}}]}}`,
			`{"_id": 1, "a": [{"b": 1}, {"b": 1}]}`,
			`{"operatorName": "$expr", "specifiedAs": {"$expr": {"$eq": [{"$size": "$a.b"}, {"$size": {"$setUnion": "$a.b"}}]}},
				"reason": "expression did not match", "expressionResult": false}`},
		{"students",
			`{"$jsonSchema": {"bsonType": "object", "required": ["name", "year", "major", "address"], "properties": {
				"name": {"bsonType": "string", "description": "must be a string and is required"},
				"year": {"bsonType": "int", "minimum": 2017, "maximum": 3017, "description": "must be an integer in [ 2017, 3017 ] and is required"},
				"major": {"enum": ["Math", "English", "Computer Science", "History", null], "description": "can only be one of the enum values and is required"},
				"gpa": {"bsonType": ["double"], "description": "must be a double if the field exists"},
				"address": {"bsonType": "object", "required": ["city"], "properties": {
					"street": {"bsonType": "string", "description": "must be a string if the field exists"},
					"city": {"bsonType": "string", "description": "must be a string and is required"}}}}}}`,
			`{"_id": 1, "year": 2020, "major": "Software Engineering", "gpa": 5.0, "address": {"city": "NYC", "street": 5}}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
				{"operatorName": "properties", "propertiesNotSatisfied": [
					{"propertyName": "major", "description": "can only be one of the enum values and is required",
					 "details": [{"operatorName": "enum", "specifiedAs": {"enum": ["Math", "English", "Computer Science", "History", null]},
					 "reason": "value was not found in enum", "consideredValue": "Software Engineering"}]},
					{"propertyName": "address", "details": [{"operatorName": "properties", "propertiesNotSatisfied": [
						{"propertyName": "street", "description": "must be a string if the field exists", "details": [
							{"operatorName": "bsonType", "specifiedAs": {"bsonType": "string"}, "reason": "type did not match",
							 "consideredValue": 5, "consideredType": "int"}]}]}]}]},
				{"operatorName": "required", "specifiedAs": {"required": ["name", "year", "major", "address"]}, "missingProperties": ["name"]}]}`},
		{"contacts $or",
			`{"$or": [{"phone": {"$type": "string"}}, {"email": {"$regex": {"$regularExpression": {"pattern": "@mongodb\\.com$", "options": ""}}}},
				{"status": {"$in": ["Unknown", "Incomplete"]}}]}`,
			`{"_id": 1, "email": "info@mongodb.co"}`,
			`{"operatorName": "$or", "clausesNotSatisfied": [
				{"index": 0, "details": {"operatorName": "$type", "specifiedAs": {"phone": {"$type": "string"}}, "reason": "field was missing"}},
				{"index": 1, "details": {"operatorName": "$regex", "specifiedAs": {"email": {"$regex": {"$regularExpression": {"pattern": "@mongodb\\.com$", "options": ""}}}},
				 "reason": "regular expression did not match", "consideredValue": "info@mongodb.co"}},
				{"index": 2, "details": {"operatorName": "$in", "specifiedAs": {"status": {"$in": ["Unknown", "Incomplete"]}}, "reason": "field was missing"}}]}`},
		{"contacts $jsonSchema",
			`{"$jsonSchema": {"bsonType": "object", "required": ["phone"], "properties": {
				"phone": {"bsonType": "string", "description": "must be a string and is required"},
				"email": {"bsonType": "string", "pattern": "@mongodb\\.com$", "description": "must be a string and match the regular expression pattern"},
				"status": {"enum": ["Unknown", "Incomplete"], "description": "can only be one of the enum values"}}}}`,
			`{"_id": 1, "email": "info@mongodb.com", "status": "Complete"}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
				{"operatorName": "properties", "propertiesNotSatisfied": [{"propertyName": "status", "description": "can only be one of the enum values",
					"details": [{"operatorName": "enum", "specifiedAs": {"enum": ["Unknown", "Incomplete"]}, "reason": "value was not found in enum", "consideredValue": "Complete"}]}]},
				{"operatorName": "required", "specifiedAs": {"required": ["phone"]}, "missingProperties": ["phone"]}]}`},
		{"items, anyOf and required",
			`{"$jsonSchema": {"title": "LLVM compilation database", "type": "object", "properties": {"commands": {"type": "array",
				"items": {"type": "object", "anyOf": [{"required": ["directory", "file", "command"]}, {"required": ["directory", "file", "arguments"]}]}}}}}`,
			`{"_id": 1, "commands": [{"directory": "/etc", "file": "hosts"}, {"directory": "/etc", "arguments": [5]}]}`,
			`{"operatorName": "$jsonSchema", "title": "LLVM compilation database", "schemaRulesNotSatisfied": [{"operatorName": "properties",
				"propertiesNotSatisfied": [{"propertyName": "commands", "details": [{"operatorName": "items",
				"reason": "At least one item did not match the sub-schema", "itemIndex": 0, "details": [{"operatorName": "anyOf",
				"schemasNotSatisfied": [
					{"index": 0, "details": [{"operatorName": "required", "specifiedAs": {"required": ["directory", "file", "command"]}, "missingProperties": ["command"]}]},
					{"index": 1, "details": [{"operatorName": "required", "specifiedAs": {"required": ["directory", "file", "arguments"]}, "missingProperties": ["arguments"]}]}]}]}]}]}]}`},
		{"oneOf and additionalProperties",
			`{"$jsonSchema": {"properties": {"preloads": {"type": "array", "uniqueItems": true, "items": {"oneOf": [{"type": "string"},
				{"type": "object", "properties": {"file": {"type": "string"}, "environment": {"type": "array"}}, "additionalProperties": false}]}}}}}`,
			`{"_id": 1, "preloads": ["PREL1", {"file": "file2", "dir": true}]}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties", "propertiesNotSatisfied": [
				{"propertyName": "preloads", "details": [{"operatorName": "items", "reason": "At least one item did not match the sub-schema",
				"itemIndex": 1, "details": [{"operatorName": "oneOf", "schemasNotSatisfied": [
					{"index": 0, "details": [{"operatorName": "type", "specifiedAs": {"type": "string"}, "reason": "type did not match",
					 "consideredValue": {"file": "file2", "dir": true}, "consideredType": "object"}]},
					{"index": 1, "details": [{"operatorName": "additionalProperties", "specifiedAs": {"additionalProperties": false},
					 "additionalProperties": ["dir"]}]}]}]}]}]}]}`},
		{"query operators and $jsonSchema combined",
			`{"$jsonSchema": {"required": ["a"]}, "b": {"$gt": 5}}`,
			`{"_id": 1, "b": [1, 2]}`,
			`{"operatorName": "$and", "clausesNotSatisfied": [
				{"index": 0, "details": {"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
					{"operatorName": "required", "specifiedAs": {"required": ["a"]}, "missingProperties": ["a"]}]}},
				{"index": 1, "details": {"operatorName": "$gt", "specifiedAs": {"b": {"$gt": 5}}, "reason": "comparison failed", "consideredValues": [1, 2]}}]}`},
		{"$ne and $exists false",
			`{"a": {"$ne": 1}, "b": {"$exists": false}}`,
			`{"_id": 1, "a": 1, "b": 2}`,
			`{"operatorName": "$and", "clausesNotSatisfied": [
				{"index": 0, "details": {"operatorName": "$ne", "specifiedAs": {"a": {"$ne": 1}}, "reason": "comparison succeeded", "consideredValue": 1}},
				{"index": 1, "details": {"operatorName": "$exists", "specifiedAs": {"b": {"$exists": false}}, "reason": "path does exist"}}]}`},
		{"lengths, bounds and multipleOf",
			`{"$jsonSchema": {"properties": {"s": {"bsonType": "string", "minLength": 3}, "n": {"minimum": 0, "exclusiveMinimum": true, "multipleOf": 2}}}}`,
			`{"_id": 1, "s": "ab", "n": -3}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties", "propertiesNotSatisfied": [
				{"propertyName": "s", "details": [{"operatorName": "minLength", "specifiedAs": {"minLength": 3}, "reason": "specified string length was not satisfied", "consideredValue": "ab"}]},
				{"propertyName": "n", "details": [
					{"operatorName": "multipleOf", "specifiedAs": {"multipleOf": 2}, "reason": "considered value is not a multiple of the specified value", "consideredValue": -3},
					{"operatorName": "minimum", "specifiedAs": {"minimum": 0, "exclusiveMinimum": true}, "reason": "comparison failed", "consideredValue": -3}]}]}]}`},
		{"dependencies and minProperties",
			`{"$jsonSchema": {"minProperties": 4, "dependencies": {"card": ["billing"]}}}`,
			`{"_id": 1, "card": 4}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
				{"operatorName": "minProperties", "specifiedAs": {"minProperties": 4}, "reason": "specified number of properties was not satisfied", "numberOfProperties": 2},
				{"operatorName": "dependencies", "failingDependencies": [{"conditionalProperty": "card", "missingProperties": ["billing"]}]}]}`},
		// encrypt (doc_validation_error.cpp, the InternalSchemaBinDataSubType
		// and InternalSchemaBinDataEncryptedType visitors): operatorName and
		// reason only, no specifiedAs.
		{"encrypt on a plain value",
			`{"$jsonSchema": {"properties": {"ssn": {"encrypt": {}}}}}`,
			`{"_id": 1, "ssn": "123"}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties", "propertiesNotSatisfied": [
				{"propertyName": "ssn", "details": [{"operatorName": "encrypt", "reason": "value was not encrypted"}]}]}]}`},
		{"encrypt with the wrong original type",
			`{"$jsonSchema": {"properties": {"ssn": {"encrypt": {"bsonType": "int"}}}}}`,
			`{"_id": 1, "ssn": {"$binary": {"base64": "AQAAAAAAAAAAAAAAAAAAAAAC", "subType": "06"}}}`,
			`{"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [{"operatorName": "properties", "propertiesNotSatisfied": [
				{"propertyName": "ssn", "details": [{"operatorName": "encrypt", "reason": "encrypted value has wrong type"}]}]}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sameJSON(t, "details", failingDetails(t, db, c.validator, c.doc), c.want)
		})
	}
}

func TestValidationPassesValidDocuments(t *testing.T) {
	db, coll := confColl(t)
	okJ(t, db, `{"create": "c", "validator": {"$jsonSchema": {"bsonType": "object", "required": ["name"],
		"properties": {"name": {"bsonType": "string"}, "tags": {"bsonType": "array", "items": {"bsonType": "string"}}}}}}`)
	reply := okJ(t, db, `{"insert": "c", "documents": [{"_id": 1, "name": "a", "tags": ["x"]}, {"_id": 2, "name": "b"}]}`)
	if field(reply, "n") != int32(2) || field(reply, "writeErrors") != nil {
		t.Fatalf("insert: %s", relaxed(reply))
	}
	if n, _ := coll.CountDocuments(ctx, bson.D{}); n != 2 {
		t.Fatalf("count %d", n)
	}
}

func TestValidationParseErrors(t *testing.T) {
	db, _ := confColl(t)
	wantErr(t, db, `{"create": "x", "validator": {"$jsonSchema": {"format": "email"}}}`, 9,
		"Parsing of collection validator failed :: caused by :: $jsonSchema keyword 'format' is not currently supported")
	wantErr(t, db, `{"create": "x", "validator": {"$jsonSchema": {"$ref": "#/a"}}}`, 9,
		"Parsing of collection validator failed :: caused by :: $jsonSchema keyword '$ref' is not currently supported")
	wantErr(t, db, `{"create": "x", "validator": {"$jsonSchema": {"bogus": 1}}}`, 9,
		"Parsing of collection validator failed :: caused by :: Unknown $jsonSchema keyword: bogus")
	wantErr(t, db, `{"create": "x", "validator": {"$jsonSchema": {"type": "integer"}}}`, 9,
		"Parsing of collection validator failed :: caused by :: $jsonSchema type 'integer' is not currently supported.")
	wantErr(t, db, `{"create": "x", "validator": {"$jsonSchema": {"type": "string", "bsonType": "string"}}}`, 9,
		"Parsing of collection validator failed :: caused by :: Cannot specify both $jsonSchema keywords 'type' and 'bsonType'")
	wantErr(t, db, `{"create": "x", "validator": {"a": {"$foo": 1}}}`, 2,
		"Parsing of collection validator failed :: caused by :: unknown operator: $foo")
	wantErr(t, db, `{"create": "x", "validator": {"$where": "true"}}`, 2,
		"Parsing of collection validator failed :: caused by :: $where is not allowed in this context")
	wantErr(t, db, `{"create": "x", "validator": {}, "validationAction": "errorAndLog"}`, 2,
		"Enumeration value 'errorAndLog' for field 'create.validationAction' is not a valid value.")
	wantErr(t, db, `{"create": "x", "validationLevel": "validated"}`, 2,
		"Enumeration value 'validated' for field 'create.validationLevel' is not a valid value.")
	wantErr(t, db, `{"collMod": "missing", "validator": {"a": 1}}`, mongoerr.NamespaceNotFound, "ns does not exist")
}

func TestValidationListCollectionsAndCollMod(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "c", "validator": {"a": {"$exists": true}}, "validationLevel": "moderate"}`)
	infos := firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "c"}}`)
	sameJSON(t, "options", field(infos[0].(bson.D), "options"), `{"validator": {"a": {"$exists": true}}, "validationLevel": "moderate"}`)
	reply := okJ(t, db, `{"collMod": "c", "validator": {"b": {"$type": "string"}}, "validationAction": "warn"}`)
	sameJSON(t, "collMod reply", reply, `{"ok": 1.0}`)
	infos = firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "c"}}`)
	sameJSON(t, "options after collMod", field(infos[0].(bson.D), "options"),
		`{"validator": {"b": {"$type": "string"}}, "validationLevel": "moderate", "validationAction": "warn"}`)
	okJ(t, db, `{"collMod": "c", "validator": {}}`)
	infos = firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "c"}}`)
	sameJSON(t, "options without validator", field(infos[0].(bson.D), "options"),
		`{"validationLevel": "moderate", "validationAction": "warn"}`)
}

func TestValidationLevels(t *testing.T) {
	db, coll := confColl(t, `{"_id": 1, "a": "old, no b"}`, `{"_id": 2, "b": 1}`)
	okJ(t, db, `{"collMod": "c", "validator": {"b": {"$exists": true}}, "validationLevel": "moderate"}`)
	// moderate: an update of a document that already fails is not checked ...
	reply := okJ(t, db, `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"a": "still no b"}}}]}`)
	if field(reply, "writeErrors") != nil {
		t.Fatalf("moderate, invalid document: %s", relaxed(reply))
	}
	// ... but a valid document cannot be made invalid, and inserts are checked.
	reply = okJ(t, db, `{"update": "c", "updates": [{"q": {"_id": 2}, "u": {"$unset": {"b": 1}}}]}`)
	if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.DocumentValidationFailure) {
		t.Fatalf("moderate, valid document: %s", relaxed(reply))
	}
	reply = okJ(t, db, `{"insert": "c", "documents": [{"_id": 3}]}`)
	if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.DocumentValidationFailure) {
		t.Fatalf("moderate insert: %s", relaxed(reply))
	}
	// strict: every update is checked.
	okJ(t, db, `{"collMod": "c", "validationLevel": "strict"}`)
	reply = okJ(t, db, `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"a": "x"}}}]}`)
	if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.DocumentValidationFailure) {
		t.Fatalf("strict: %s", relaxed(reply))
	}
	// off: nothing is checked.
	okJ(t, db, `{"collMod": "c", "validationLevel": "off"}`)
	okJ(t, db, `{"insert": "c", "documents": [{"_id": 4}]}`)
	if n, _ := coll.CountDocuments(ctx, bson.D{{Key: "_id", Value: 4}}); n != 1 {
		t.Fatal("validationLevel off refused an insert")
	}
}

// syncBuffer is a log a test can read while the server writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestValidationActionWarnLogs(t *testing.T) {
	log := &syncBuffer{}
	client, _ := startServerWith(t, engine.Options{Log: log})
	db := client.Database("warn")
	okJ(t, db, `{"create": "c", "validator": {"a": {"$gt": 5}}, "validationAction": "warn"}`)
	reply := okJ(t, db, `{"insert": "c", "documents": [{"_id": 1, "a": 1}]}`)
	if field(reply, "writeErrors") != nil || field(reply, "n") != int32(1) {
		t.Fatalf("warn refused the insert: %s", relaxed(reply))
	}
	line := log.String()
	for _, want := range []string{`"s":"W"`, `"id":20294`, `"msg":"Document would fail validation"`, `"namespace":"warn.c"`,
		`"errInfo":{"failingDocumentId":1,"details":{"operatorName":"$gt"`} {
		if !strings.Contains(line, want) {
			t.Errorf("log lacks %s:\n%s", want, line)
		}
	}
}

// TestBypassDocumentValidation is jstests/core/doc_validation/bypass_doc_validation.js
// (without applyOps and mapReduce, which the sandbox does not have), run
// with a query validator and with the equivalent $jsonSchema.
func TestBypassDocumentValidation(t *testing.T) {
	for _, validator := range []string{`{"a": {"$exists": true}}`, `{"$jsonSchema": {"required": ["a"]}}`} {
		t.Run(validator, func(t *testing.T) {
			db, coll := confColl(t, `{"_id": 1}`, `{"_id": 2}`)
			okJ(t, db, `{"collMod": "c", "validator": `+validator+`}`)

			// $out into a collection that has a validator.
			okJ(t, db, `{"create": "out", "validator": `+validator+`}`)
			pipeline := `[{"$match": {"_id": 1}}, {"$project": {"aggregation": {"$add": [1]}}}, {"$out": "out"}]`
			wantErr(t, db, `{"aggregate": "c", "cursor": {}, "pipeline": `+pipeline+`, "bypassDocumentValidation": false}`, mongoerr.DocumentValidationFailure, "")
			out := db.Collection("out")
			if n, _ := out.CountDocuments(ctx, bson.D{{Key: "aggregation", Value: 1}}); n != 0 {
				t.Fatal("$out wrote an invalid document")
			}
			okJ(t, db, `{"aggregate": "c", "cursor": {}, "pipeline": `+pipeline+`, "bypassDocumentValidation": true}`)
			if n, _ := out.CountDocuments(ctx, bson.D{{Key: "aggregation", Value: 1}}); n != 1 {
				t.Fatal("$out with bypassDocumentValidation wrote nothing")
			}
			infos := firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "out"}}`)
			sameJSON(t, "$out keeps the validator", field(infos[0].(bson.D), "options"), `{"validator": `+validator+`}`)

			// findAndModify.
			wantErr(t, db, `{"findAndModify": "c", "update": {"$set": {"findAndModify": 1}}, "bypassDocumentValidation": false}`, mongoerr.DocumentValidationFailure, "")
			okJ(t, db, `{"findAndModify": "c", "update": {"$set": {"findAndModify": 1}}, "bypassDocumentValidation": true}`)
			if n, _ := coll.CountDocuments(ctx, bson.D{{Key: "findAndModify", Value: 1}}); n != 1 {
				t.Fatal("findAndModify with bypass did not write")
			}

			// insert, also of a document without _id.
			reply := okJ(t, db, `{"insert": "c", "documents": [{}, {"_id": 6}], "bypassDocumentValidation": false}`)
			if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.DocumentValidationFailure) {
				t.Fatalf("insert: %s", relaxed(reply))
			}
			okJ(t, db, `{"insert": "c", "documents": [{}, {"_id": 6}], "bypassDocumentValidation": true}`)

			// update, with an update document and with a pipeline.
			for _, u := range []string{`{"$set": {"update": 1}}`, `[{"$set": {"pipeline": 1}}]`} {
				reply = okJ(t, db, `{"update": "c", "updates": [{"q": {}, "u": `+u+`}], "bypassDocumentValidation": false}`)
				if code := field(firstWriteError(t, reply), "code"); code != int32(mongoerr.DocumentValidationFailure) {
					t.Fatalf("update %s: %s", u, relaxed(reply))
				}
				okJ(t, db, `{"update": "c", "updates": [{"q": {}, "u": `+u+`}], "bypassDocumentValidation": true}`)
			}
			for _, f := range []string{"update", "pipeline"} {
				if n, _ := coll.CountDocuments(ctx, bson.D{{Key: f, Value: 1}}); n != 1 {
					t.Fatalf("update of %s with bypass did not write", f)
				}
			}

			// $merge validates its writes the same way.
			wantErr(t, db, `{"aggregate": "c", "cursor": {}, "pipeline": [{"$match": {"_id": 2}}, {"$merge": {"into": "out"}}]}`, mongoerr.DocumentValidationFailure, "")
			okJ(t, db, `{"aggregate": "c", "cursor": {}, "pipeline": [{"$match": {"_id": 2}}, {"$merge": {"into": "out"}}], "bypassDocumentValidation": true}`)
		})
	}
}

func TestValidationExprSeesNowOfTheWrite(t *testing.T) {
	db, _ := confColl(t)
	okJ(t, db, `{"create": "c", "validator": {"$expr": {"$lte": ["$at", "$$NOW"]}}}`)
	time.Sleep(10 * time.Millisecond)
	past := bson.NewDateTimeFromTime(time.Now().Add(-time.Millisecond))
	future := bson.NewDateTimeFromTime(time.Now().Add(time.Hour))
	var out bson.D
	if err := db.RunCommand(ctx, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "at", Value: past}}}}}).Decode(&out); err != nil || field(out, "writeErrors") != nil {
		t.Fatalf("a time just past failed $$NOW: %v %s", err, relaxed(out))
	}
	_, err := db.Collection("c").InsertOne(ctx, bson.D{{Key: "at", Value: future}})
	var we mongo.WriteException
	if !errorsAs(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != mongoerr.DocumentValidationFailure {
		t.Fatalf("a future time passed: %v", err)
	}
}
