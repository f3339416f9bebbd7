package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The encryption keywords of client-side field level encryption, as
// mongod 8.0's JSONSchemaParser translates them (json_schema_parser.cpp
// translateEncryptionKeywords, encrypt_schema.idl): the server never sees
// a key, it only checks that a value is an encrypted BinData (subtype 6)
// whose header names one of the stated original types. encryptMetadata
// adds no check; it is validated and then only guides a client's driver.

// fleAlgorithms is the FleAlgorithm enum of encrypt_schema.idl.
var fleAlgorithms = []string{"AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic", "AEAD_AES_256_CBC_HMAC_SHA_512-Random"}

func translateEncryptionKeywords(path string, kw keywords, _, and *node, sc *schemaCtx) error {
	encrypt, hasEncrypt := kw["encrypt"]
	metadata, hasMetadata := kw["encryptMetadata"]
	if !hasEncrypt && !hasMetadata {
		return nil
	}
	if sc.noEncrypt {
		return mongoerr.New(mongoerr.QueryFeatureNotAllowed, "Encryption-related validator keywords are not allowed in this context")
	}
	if hasEncrypt && hasMetadata {
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'")
	}
	if hasMetadata {
		d, ok := metadata.Value.(bson.D)
		if !ok {
			return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'encryptMetadata' must be an object ")
		}
		if len(d) == 0 {
			return mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'encryptMetadata' cannot be an empty object ")
		}
		_, err := parseEncryptionIDL("encryptMetadata", d, false)
		return err
	}
	d, ok := encrypt.Value.(bson.D)
	if !ok {
		return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'encrypt' must be an object ")
	}
	types, err := parseEncryptionIDL("encrypt", d, true)
	if err != nil {
		return err
	}
	ann := annotate("encrypt", bson.D{})
	and.add(&node{kind: kEncrypted, path: path, ann: ann})
	if types != nil {
		and.add(&node{kind: kEncryptedType, path: path, types: *types, ann: ann})
	}
	return nil
}

// parseEncryptionIDL is the strict IDL parse of EncryptionInfo (encrypt,
// withBSONType) or EncryptionMetadata: algorithm, keyId and, for encrypt,
// bsonType, whose type set it returns when given.
func parseEncryptionIDL(ctx string, d bson.D, withBSONType bool) (*typeSet, error) {
	var types *typeSet
	seen := map[string]bool{}
	for _, f := range d {
		if seen[f.Key] {
			return nil, mongoerr.Newf(mongoerr.IDLDuplicateField, "BSON field '%s.%s' is a duplicate field", ctx, f.Key)
		}
		seen[f.Key] = true
		switch {
		case f.Key == "algorithm":
			s, ok := f.Value.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.algorithm' is the wrong type '%s', expected type 'string'", ctx, value.TypeName(f.Value))
			}
			if s != fleAlgorithms[0] && s != fleAlgorithms[1] {
				return nil, mongoerr.Newf(mongoerr.BadValue, "Enumeration value '%s' for field '%s.algorithm' is not a valid value.", s, ctx)
			}
		case f.Key == "keyId":
			if err := parseEncryptKeyID(f.Value); err != nil {
				return nil, err
			}
		case f.Key == "bsonType" && withBSONType:
			// BSONTypeSet::parseFromBSON: the bsonType keyword's aliases,
			// where, unlike for the keyword, an empty list is no error: it
			// admits no encrypted value.
			if a, ok := f.Value.(bson.A); ok && len(a) == 0 {
				types = &typeSet{}
				continue
			}
			ts, err := parseTypeSet("bsonType", f.Value, true)
			if err != nil {
				return nil, err
			}
			types = &ts
		default:
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '%s.%s' is an unknown field.", ctx, f.Key)
		}
	}
	return types, nil
}

// parseEncryptKeyID is EncryptSchemaKeyId::parseFromBSON: a JSON pointer
// string, or an array of UUIDs.
func parseEncryptKeyID(v any) error {
	switch x := v.(type) {
	case string:
		return nil
	case bson.A:
		for _, e := range x {
			b, ok := e.(bson.Binary)
			if !ok {
				return mongoerr.Newf(51088, "Array elements must have type BinData, found %s", value.TypeName(e))
			}
			if b.Subtype != bson.TypeBinaryUUID {
				return mongoerr.Newf(51084, "Array elements must have bindata type UUID, found %d", b.Subtype)
			}
		}
		return nil
	}
	return mongoerr.Newf(51085, "Expected either string or array of UUID for EncryptSchemaKeyId, found %s", value.TypeName(v))
}

// fleHeaderLen is sizeof(FleBlobHeader): the blob subtype, the key's UUID
// and the original BSON type.
const fleHeaderLen = 18

// encryptedTypeMatches is InternalSchemaBinDataEncryptedTypeExpression:
// an encrypted BinData of the deterministic (1) or random (2) FLE blob
// subtype whose original BSON type is in types.
func encryptedTypeMatches(v any, types typeSet) bool {
	b, ok := v.(bson.Binary)
	if !ok || b.Subtype != bson.TypeBinaryEncrypted || len(b.Data) < fleHeaderLen {
		return false
	}
	if b.Data[0] != 1 && b.Data[0] != 2 {
		return false
	}
	return types.hasType(int(b.Data[fleHeaderLen-1]))
}
