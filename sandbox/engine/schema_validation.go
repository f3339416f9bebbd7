package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Schema validation of writes: the collection's validator, validationLevel
// and validationAction, and the command's bypassDocumentValidation,
// applied as CollectionImpl::checkValidation and the write paths do.

// validateWrite checks the document a write would store in c, the live
// collection under its write lock, so that the check and the write see the
// same validator whatever collMod does meanwhile. before is
// the document an update replaces (nil for inserts and upserts): under
// validationLevel "moderate" an update of a document that already fails
// the validator is not checked. A failure under validationAction "warn" is
// logged and the write proceeds.
func (e *Engine) validateWrite(req *request, c *catalog.Collection, before, after bson.D) *mongoerr.Error {
	if c == nil || c.Validator == nil || bypassValidation(req.cmd) {
		return nil
	}
	level, _ := value.Get(c.Options, "validationLevel").(string)
	switch level {
	case validation.LevelOff:
		return nil
	case validation.LevelModerate:
		if before != nil && c.Validator.Check(before, req.now) != nil {
			return nil
		}
	}
	err := c.Validator.Check(after, req.now)
	if err == nil {
		return nil
	}
	if action, _ := value.Get(c.Options, "validationAction").(string); action == validation.ActionWarn {
		e.log.documentWouldFailValidation(req, c.NS(), after, err)
		return nil
	}
	return err
}

// bypassValidation reads the generic argument bypassDocumentValidation.
func bypassValidation(cmd bson.D) bool {
	for _, f := range cmd {
		if f.Key == "bypassDocumentValidation" {
			return expr.IsTrue(f.Value)
		}
	}
	return false
}

// compileValidator compiles the validator of a collection's options,
// logging the warnings mongod logs while parsing one. It runs before the
// collection (or its new options) is seen by anyone, so that writers find
// Options and Validator always agreeing.
func (e *Engine) compileValidator(req *request, options bson.D) (*validation.Validator, error) {
	spec, _ := value.Get(options, "validator").(bson.D)
	return validation.Compile(spec, req.now, func(msg string) { e.log.warning(req, 3216000, "QUERY", msg, nil) },
		validation.EncryptAllowed(options))
}

// validatorAllowedOn is checkValidatorCanBeUsedOnNs (collection_impl.cpp):
// a collection with a validator may not be a system collection, nor be
// in the admin, local or config database (config.settings aside, which
// the server creates with one itself). The collection's UUID is in the
// message, so it is checked once the collection has one.
func validatorAllowedOn(options bson.D, c *catalog.Collection) error {
	if spec, _ := value.Get(options, "validator").(bson.D); len(spec) == 0 {
		return nil
	}
	db, coll, _ := strings.Cut(c.NS(), ".")
	switch {
	case strings.HasPrefix(coll, "system."):
		return mongoerr.Newf(mongoerr.InvalidOptions, "Document validators not allowed on system collection %s with UUID %s",
			c.NS(), catalog.UUIDString(c.UUID))
	case (db == "admin" || db == "local" || db == "config") && c.NS() != "config.settings":
		return mongoerr.Newf(mongoerr.InvalidOptions, "Document validators are not allowed on collection %s with UUID %s in the %s internal database",
			c.NS(), catalog.UUIDString(c.UUID), db)
	}
	return nil
}

// validatorOptions checks a create or collMod command's validator,
// validationLevel and validationAction before anything changes.
func validatorOptions(req *request) error {
	for _, f := range req.cmd[1:] {
		var err error
		switch f.Key {
		case "validator":
			spec, ok := f.Value.(bson.D)
			if !ok {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.validator' is the wrong type '%s', expected type 'object'", req.name, value.TypeName(f.Value))
			}
			_, err = validation.Compile(spec, req.now, nil, validation.EncryptAllowed(req.cmd))
		case "validationLevel":
			_, err = validation.ParseLevel(req.name, f.Value)
		case "validationAction":
			_, err = validation.ParseAction(req.name, f.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// createValidationOptions checks create's validator, validationLevel and
// validationAction, and refuses expireAfterSeconds on an ordinary
// collection as mongod does.
func createValidationOptions(req *request) error {
	if err := validatorOptions(req); err != nil {
		return err
	}
	if !value.IsMissing(value.Get(req.cmd, "expireAfterSeconds")) && value.IsMissing(value.Get(req.cmd, "clusteredIndex")) {
		return mongoerr.New(mongoerr.InvalidOptions, "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified")
	}
	return nil
}
