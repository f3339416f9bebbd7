package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Validation levels and actions of mongod 8.0 (errorAndLog arrives in 8.1,
// the "validated" level later still).
const (
	LevelOff      = "off"
	LevelStrict   = "strict"
	LevelModerate = "moderate"
	ActionError   = "error"
	ActionWarn    = "warn"
)

// Validator is a collection's compiled validator.
type Validator struct {
	root *node
	// spec is kept for a validator with $expr, which is compiled again
	// for each check so that $$NOW is the time of the write.
	spec     bson.D
	usesExpr bool
	// noEncrypt is kept for the recompilation of a validator with $expr.
	noEncrypt bool
}

type compiler struct {
	now       bson.DateTime
	warn      func(string)
	usesExpr  bool
	noEncrypt bool
}

// Compile parses a validator document as a collection validator: query
// operators, $jsonSchema, or both. now is $$NOW for $expr; warn receives
// the warnings mongod logs while parsing (a schema that forbids _id).
// encrypt says whether the $jsonSchema encryption keywords are allowed
// (EncryptAllowed). An empty validator compiles to nil: nothing to check.
func Compile(spec bson.D, now bson.DateTime, warn func(string), encrypt bool) (*Validator, error) {
	if len(spec) == 0 {
		return nil, nil
	}
	c := &compiler{now: now, warn: warn, noEncrypt: !encrypt}
	root, err := c.parseFilter(spec)
	if err != nil {
		me := mongoerr.As(err)
		return nil, &mongoerr.Error{Code: me.Code, Msg: "Parsing of collection validator failed :: caused by :: " + me.Msg}
	}
	prepare(root)
	return &Validator{root: root, spec: spec, usesExpr: c.usesExpr, noEncrypt: c.noEncrypt}, nil
}

// EncryptAllowed is whether a collection with these options may have the
// encrypt and encryptMetadata keywords in its validator: not when its
// validationAction is "warn" or its validationLevel "moderate"
// (CollectionImpl::parseValidator, and create's check in
// database_impl.cpp), since a warning would log the unencrypted value.
func EncryptAllowed(options bson.D) bool {
	return value.Get(options, "validationAction") != ActionWarn &&
		value.Get(options, "validationLevel") != LevelModerate
}

// Check validates doc. A failure is mongod's DocumentValidationFailure,
// "Document failed validation", with errInfo {failingDocumentId, details}.
func (v *Validator) Check(doc bson.D, now bson.DateTime) *mongoerr.Error {
	if v == nil {
		return nil
	}
	if v.usesExpr {
		if fresh, err := Compile(v.spec, now, nil, !v.noEncrypt); err == nil {
			v = fresh
		}
	}
	if ok, failed := v.root.evaluate(doc); ok && !failed {
		return nil
	}
	errInfo := bson.D{{Key: "failingDocumentId", Value: value.Get(doc, "_id")}}
	errInfo = append(errInfo, bson.E{Key: "details", Value: generateDetails(v.root, doc, now)})
	return &mongoerr.Error{Code: mongoerr.DocumentValidationFailure, Msg: "Document failed validation",
		Extra: bson.D{{Key: "errInfo", Value: errInfo}}}
}

// ParseLevel checks a validationLevel option of command cmd ("create",
// "collMod") the way the IDL enum parser does.
func ParseLevel(cmd string, v any) (string, error) {
	return parseOptionEnum(cmd, "validationLevel", v, LevelOff, LevelStrict, LevelModerate)
}

// ParseAction checks a validationAction option.
func ParseAction(cmd string, v any) (string, error) {
	return parseOptionEnum(cmd, "validationAction", v, ActionError, ActionWarn)
}

func parseOptionEnum(cmd, field string, v any, allowed ...string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.%s' is the wrong type '%s', expected type 'string'", cmd, field, value.TypeName(v))
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", mongoerr.Newf(mongoerr.BadValue, "Enumeration value '%s' for field '%s.%s' is not a valid value.", s, cmd, field)
}
