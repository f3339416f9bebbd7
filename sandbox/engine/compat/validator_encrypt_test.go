package compat_test

import (
	"context"
	"regexp"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The $jsonSchema keywords of client-side field level encryption. mongod
// holds no key: "encrypt" only requires an encrypted BinData (subtype 6)
// whose FLE header names one of the stated original types, and
// "encryptMetadata" is checked and otherwise ignored. A validator may use
// either only when a failing document is never logged: not with
// validationAction "warn" nor validationLevel "moderate" (the parser then
// lacks kEncryptKeywords and answers QueryFeatureNotAllowed). The 2020
// jstest doc_validation_encrypt_keywords.js and its 8.0 version
// (jstests/core/doc_validation/) expect the same codes.
const (
	encryptParseRef = "src/mongo/db/matcher/schema/json_schema_parser.cpp (translateEncryptionKeywords), src/mongo/db/matcher/schema/encrypt_schema.idl"
	encryptRef      = "src/mongo/db/catalog/collection_impl.cpp (parseValidator: no kEncryptKeywords for warn/moderate), coll_mod.cpp; jstests/core/doc_validation/doc_validation_encrypt_keywords.js"
	encryptMatchRef = "src/mongo/db/matcher/schema/expression_internal_schema_bin_data_encrypted_type.h; jstests/core/query/json_schema/encrypt.js"
	// A deterministic FLE blob (subtype byte 1, a zero key id) of an
	// encrypted string (original type 2), and one of an int (0x10).
	fleString = `{"$binary":{"base64":"AQAAAAAAAAAAAAAAAAAAAAAC","subType":"06"}}`
	fleInt    = `{"$binary":{"base64":"AQAAAAAAAAAAAAAAAAAAAAAQ","subType":"06"}}`
)

func TestValidatorEncryptKeywords(t *testing.T) {
	const encryptSchema = `{"$jsonSchema":{"properties":{"ssn":{"encrypt":{}}}}}`
	const metadataSchema = `{"$jsonSchema":{"encryptMetadata":{"algorithm":"AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic"}}}`
	const notAllowed = "Parsing of collection validator failed :: caused by :: Encryption-related validator keywords are not allowed in this context"
	cov := cover{family: query, op: "$jsonSchema", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "create: encrypt with validationAction warn", ref: encryptRef, cov: cov,
			cmd: `{"create":"v","validator":` + encryptSchema + `,"validationAction":"warn"}`, code: mongoerr.QueryFeatureNotAllowed},
		{name: "create: encryptMetadata with validationLevel moderate", ref: encryptRef, cov: cov,
			cmd: `{"create":"v","validator":` + metadataSchema + `,"validationLevel":"moderate"}`, code: mongoerr.QueryFeatureNotAllowed},
		{name: "create: nested encrypt with validationAction warn", ref: encryptRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"u":{"type":"object","properties":{"ssn":{"encrypt":{}}}}}}},"validationAction":"warn"}`,
			code: mongoerr.QueryFeatureNotAllowed},
		{name: "collMod: an encrypt validator on a warn collection", ref: encryptRef, cov: cov,
			setup: []string{`{"create":"v","validator":{"$jsonSchema":{"required":["_id"]}},"validationAction":"warn"}`},
			cmd:   `{"collMod":"v","validator":` + encryptSchema + `}`, code: mongoerr.QueryFeatureNotAllowed, msg: notAllowed},
		{name: "collMod: validationAction warn under an encrypt validator", ref: encryptRef, cov: cov,
			setup: []string{`{"create":"v","validator":` + encryptSchema + `,"validationAction":"error"}`},
			cmd:   `{"collMod":"v","validationAction":"warn"}`, code: mongoerr.QueryFeatureNotAllowed, msg: notAllowed},
		{name: "collMod: validationLevel moderate under an encryptMetadata validator", ref: encryptRef, cov: cov,
			setup: []string{`{"create":"v","validator":` + metadataSchema + `}`},
			cmd:   `{"collMod":"v","validationLevel":"moderate"}`, code: mongoerr.QueryFeatureNotAllowed, msg: notAllowed},
		{name: "collMod: encrypt validator and warn together", ref: encryptRef, cov: cov, setup: []string{`{"create":"v"}`},
			cmd: `{"collMod":"v","validator":` + encryptSchema + `,"validationAction":"warn"}`, code: mongoerr.QueryFeatureNotAllowed},
		{name: "create: encrypt with error and strict is accepted", ref: encryptRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			cmd: `{"create":"v","validator":` + encryptSchema + `,"validationAction":"error"}`, want: `{}`},
		{name: "an encrypt validator refuses a plain value", ref: encryptRef, cov: cov,
			setup: []string{`{"create":"v","validator":` + encryptSchema + `}`},
			cmd:   `{"insert":"v","documents":[{"_id":1,"ssn":"123-45-6789"}]}`, writeError: true,
			code: mongoerr.DocumentValidationFailure, msg: "Document failed validation"},
		{name: "an encrypt validator takes an encrypted value", ref: encryptRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			setup: []string{`{"create":"v","validator":` + encryptSchema + `}`},
			cmd:   `{"insert":"v","documents":[{"_id":1,"ssn":` + fleString + `},{"_id":2}]}`, want: `{"n":2}`},
		// Parse errors of the keywords themselves (the IDL structs are strict).
		{name: "encrypt and encryptMetadata together", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":{},"encryptMetadata":{"algorithm":"AEAD_AES_256_CBC_HMAC_SHA_512-Random"}}}}}}`,
			code: mongoerr.FailedToParse, msg: "Parsing of collection validator failed :: caused by :: Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'"},
		{name: "encrypt that is no object", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":1}}}}}`,
			code: mongoerr.TypeMismatch, msg: "Parsing of collection validator failed :: caused by :: $jsonSchema keyword 'encrypt' must be an object "},
		{name: "an empty encryptMetadata", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"encryptMetadata":{}}}}`,
			code: mongoerr.FailedToParse, msg: "Parsing of collection validator failed :: caused by :: $jsonSchema keyword 'encryptMetadata' cannot be an empty object "},
		{name: "an unknown field in encrypt", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":{"foo":1}}}}}}`,
			code: mongoerr.IDLUnknownField, msg: "Parsing of collection validator failed :: caused by :: BSON field 'encrypt.foo' is an unknown field."},
		{name: "an unknown encryption algorithm", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"encryptMetadata":{"algorithm":"rot13"}}}}`,
			code: mongoerr.BadValue, msg: "Parsing of collection validator failed :: caused by :: Enumeration value 'rot13' for field 'encryptMetadata.algorithm' is not a valid value."},
		{name: "a keyId of the wrong type", ref: encryptParseRef + ", encrypt_schema_types.cpp", cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":{"keyId":5}}}}}}`,
			code: 51085, msg: "Parsing of collection validator failed :: caused by :: Expected either string or array of UUID for EncryptSchemaKeyId, found int"},
		{name: "a keyId array of non-UUIDs", ref: encryptParseRef + ", encrypt_schema_types.cpp", cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":{"keyId":["k"]}}}}}}`,
			code: 51088, msg: "Parsing of collection validator failed :: caused by :: Array elements must have type BinData, found string"},
		{name: "encrypt with bsonType beside it", ref: encryptParseRef, cov: cov,
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"properties":{"a":{"encrypt":{},"bsonType":"string"}}}}}`,
			code: mongoerr.FailedToParse, msg: "Parsing of collection validator failed :: caused by :: $jsonSchema keyword 'encrypt' cannot be used in conjunction with 'bsonType', 'encrypt' implies type 'bsonType::BinData'"},
	})
}

// In a query filter the encryption keywords are allowed (the find parser
// keeps kEncryptKeywords): encrypt matches an encrypted BinData, and with a
// bsonType only one whose FLE header names that type.
func TestQueryJSONSchemaEncrypt(t *testing.T) {
	docs := `[{"_id":1,"a":` + fleString + `},{"_id":2,"a":` + fleInt + `},{"_id":3,"a":"plain"},
		{"_id":4,"a":{"$binary":{"base64":"AQAAAAAAAAAAAAAAAAAAAAAC","subType":"00"}}},{"_id":5},{"_id":6,"a":[` + fleString + `]}]`
	runFilterTableIn(t, encryptMatchRef, docs, semantics, [][2]string{
		{`{"$jsonSchema":{"properties":{"a":{"encrypt":{}}}}}`, `[1,2,5]`},
		{`{"$jsonSchema":{"properties":{"a":{"encrypt":{"bsonType":"string"}}}}}`, `[1,5]`},
		{`{"$jsonSchema":{"properties":{"a":{"encrypt":{"bsonType":["int","long"]}}}}}`, `[2,5]`},
		{`{"$jsonSchema":{"required":["a"],"properties":{"a":{"encrypt":{"algorithm":"AEAD_AES_256_CBC_HMAC_SHA_512-Random","keyId":"/key"}}}}}`, `[1,2]`},
		{`{"$jsonSchema":{"properties":{"a":{"encrypt":{"bsonType":[]}}}}}`, `[5]`},
		{`{"$jsonSchema":{"encryptMetadata":{"keyId":[{"$binary":{"base64":"AAAAAAAAAAAAAAAAAAAAAA==","subType":"04"}}]}}}`, `[1,2,3,4,5,6]`},
	})
}

// A validator's $expr may not run server-side JavaScript: $function fails
// while a collection validator is parsed (expression_function.cpp,
// ExpressionFunction::parse, isParsingCollectionValidator), in create as in
// collMod (jstests/core/doc_validation/doc_validation_invalid_validators.js).
func TestValidatorRefusesFunction(t *testing.T) {
	const ref = "src/mongo/db/pipeline/expression_function.cpp (uassert 4660800); jstests/core/doc_validation/doc_validation_invalid_validators.js"
	fn := `{"$function":{"body":"function(age) { return age >= 21; }","args":["$age"],"lang":"js"}}`
	cov := cover{family: expression, op: "$function", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "create with $function in the validator", ref: ref, cov: cov, cmd: `{"create":"v","validator":{"$expr":` + fn + `}}`,
			code: 4660800, msg: "Parsing of collection validator failed :: caused by :: $function cannot be used inside a validator."},
		{name: "collMod to $function nested in the validator", ref: ref, cov: cov, setup: []string{`{"create":"v"}`},
			cmd:  `{"collMod":"v","validator":{"$and":[{"a":1},{"$expr":{"$and":[true,` + fn + `]}}]}}`,
			code: 4660800, msg: "Parsing of collection validator failed :: caused by :: $function cannot be used inside a validator."},
	})
}

// checkValidatorCanBeUsedOnNs (collection_impl.cpp): no validator on a
// system collection or in the admin, local or config database, in create
// as in collMod; the message names the collection's UUID
// (jstests/core/query/doc_validation/doc_validation_invalid_validators.js).
func TestValidatorRefusedOnInternalNamespaces(t *testing.T) {
	s := newSuite(t)
	cov := cover{family: commandFam, op: "create", col: errorCol}
	const ref = "src/mongo/db/catalog/collection_impl.cpp (checkValidatorCanBeUsedOnNs); jstests/core/query/doc_validation/doc_validation_invalid_validators.js"
	s.runCase(t, "no validator in the internal databases or on system collections", ref, cov, func(t *testing.T, db *mongo.Database) {
		uuid := `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
		for _, tc := range []struct{ db, cmd, msg string }{
			{"admin", `{"create": "v", "validator": {"a": {"$exists": true}}}`, `^Document validators are not allowed on collection admin\.v with UUID ` + uuid + ` in the admin internal database$`},
			{"local", `{"create": "v", "validator": {"a": {"$exists": true}}}`, `^Document validators are not allowed on collection local\.v with UUID ` + uuid + ` in the local internal database$`},
			{"config", `{"create": "v", "validator": {"a": {"$exists": true}}}`, `^Document validators are not allowed on collection config\.v with UUID ` + uuid + ` in the config internal database$`},
			{db.Name(), `{"create": "system.js", "validator": {"a": {"$exists": true}}}`, `^Document validators not allowed on system collection ` + db.Name() + `\.system\.js with UUID ` + uuid + `$`},
		} {
			target := db.Client().Database(tc.db)
			_, err := command(t, target, ejDoc(t, tc.cmd))
			if err == nil || err.Code != mongoerr.InvalidOptions || !regexp.MustCompile(tc.msg).MatchString(err.Message) {
				t.Errorf("%s on %s: %v", tc.cmd, tc.db, err)
			}
			if names, _ := target.ListCollectionNames(context.Background(), bson.D{{Key: "name", Value: "v"}}); len(names) != 0 {
				t.Errorf("%s on %s left the collection behind", tc.cmd, tc.db)
			}
		}
		admin := db.Client().Database("admin")
		mustCommand(t, admin, `{"create": "plain"}`)
		defer mustCommand(t, admin, `{"drop": "plain"}`)
		_, err := command(t, admin, ejDoc(t, `{"collMod": "plain", "validator": {"a": 1}}`))
		if err == nil || err.Code != mongoerr.InvalidOptions {
			t.Errorf("collMod adding a validator in admin: %v", err)
		}
	})
}
