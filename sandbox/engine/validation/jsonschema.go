package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// schemaKeywords are the keywords JSONSchemaParser knows.
var schemaKeywords = map[string]bool{
	"additionalItems": true, "additionalProperties": true, "allOf": true, "anyOf": true,
	"bsonType": true, "dependencies": true, "description": true, "encrypt": true,
	"encryptMetadata": true, "enum": true, "exclusiveMaximum": true, "exclusiveMinimum": true,
	"items": true, "maxItems": true, "maxLength": true, "maxProperties": true, "maximum": true,
	"minItems": true, "minLength": true, "minProperties": true, "minimum": true,
	"multipleOf": true, "not": true, "oneOf": true, "pattern": true, "patternProperties": true,
	"properties": true, "required": true, "title": true, "type": true, "uniqueItems": true,
}

// unsupportedSchemaKeywords are refused with "is not currently supported".
var unsupportedSchemaKeywords = map[string]bool{
	"$ref": true, "$schema": true, "default": true, "definitions": true, "format": true, "id": true,
}

// schemaCtx is what a whole $jsonSchema parse shares: where mongod's
// parser logs its warnings, and whether its AllowedFeatureSet lacks
// kEncryptKeywords (a validator whose action is "warn" or whose level is
// "moderate", lest plaintext that should have been encrypted reach the
// log).
type schemaCtx struct {
	warn      func(string)
	noEncrypt bool
}

// parseJSONSchema is JSONSchemaParser::parse for a collection validator.
func parseJSONSchema(schema bson.D, sc *schemaCtx) (*node, error) {
	n, err := parseSchema("", schema, sc)
	if err != nil {
		return nil, err
	}
	// The top-level subschema is retagged '$jsonSchema', keeping its
	// annotation and taking the schema's title and description.
	if n.kind == kAnd {
		n.ann = annotate("$jsonSchema", n.ann.spec).withSchema(schema)
	}
	return n, nil
}

// keywords is _parse's keywordMap: each known keyword's value, if given.
type keywords map[string]bson.E

func (k keywords) get(name string) (any, bool) {
	e, ok := k[name]
	return e.Value, ok
}

// parseSchema is _parse: the schema for the value at path ("" for the
// document itself).
func parseSchema(path string, schema bson.D, sc *schemaCtx) (*node, error) {
	kw := keywords{}
	for _, e := range schema {
		if !schemaKeywords[e.Key] {
			if unsupportedSchemaKeywords[e.Key] {
				return nil, mongoerr.Newf(mongoerr.FailedToParse, "$jsonSchema keyword '%s' is not currently supported", e.Key)
			}
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "Unknown $jsonSchema keyword: %s", e.Key)
		}
		if _, dup := kw[e.Key]; dup {
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "Duplicate $jsonSchema keyword: %s", e.Key)
		}
		kw[e.Key] = e
	}
	if v, ok := kw.get("description"); ok {
		if _, isStr := v.(string); !isStr {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'description' must be of type string")
		}
	}
	if v, ok := kw.get("title"); ok {
		if _, isStr := v.(string); !isStr {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'title' must be of type string")
		}
	}
	_, hasType := kw["type"]
	_, hasBSONType := kw["bsonType"]
	_, hasEncrypt := kw["encrypt"]
	switch {
	case hasType && hasBSONType:
		return nil, mongoerr.New(mongoerr.FailedToParse, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'")
	case hasType && hasEncrypt:
		return nil, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'type', 'encrypt' implies type 'bsonType::BinData'")
	case hasBSONType && hasEncrypt:
		return nil, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'bsonType', 'encrypt' implies type 'bsonType::BinData'")
	}
	var typeExpr *node
	for _, name := range []string{"type", "bsonType"} {
		e, ok := kw[name]
		if !ok {
			continue
		}
		ts, err := parseTypeSet(name, e.Value, name == "bsonType")
		if err != nil {
			return nil, err
		}
		typeExpr = &node{kind: kSchemaType, path: path, types: ts, ann: annotate(name, bson.D{e})}
	}
	if hasEncrypt && typeExpr == nil {
		// encrypt implies type BinData; the encrypt nodes explain a
		// failure, not this one.
		typeExpr = &node{kind: kSchemaType, path: path, types: singleType(value.TypeBinData), ann: ignored()}
	}

	and := &node{kind: kAnd, ann: annotate("_subschema", bson.D{}).withSchema(schema)}
	for _, translate := range []func(string, keywords, *node, *node, *schemaCtx) error{
		translateScalarKeywords, translateArrayKeywords, translateEncryptionKeywords,
		translateObjectKeywords, translateLogicalKeywords,
	} {
		if err := translate(path, kw, typeExpr, and, sc); err != nil {
			return nil, err
		}
	}
	if path == "" && typeExpr != nil && !typeExpr.types.hasType(3) {
		// Only objects are stored, so a top-level schema of another type
		// matches nothing.
		return &node{kind: kAlwaysFalse, ann: annotate("$jsonSchema", bson.D{{Key: "$jsonSchema", Value: schema}})}, nil
	}
	if path != "" && typeExpr != nil {
		and.children = append(and.children, typeExpr)
	}
	return and, nil
}

// makeRestriction makes a keyword that applies to one type (maxItems to
// arrays, pattern to strings) hold only for values of that type:
// (OR (NOT (type restrictionType)) restriction), or the restriction alone
// when the schema's stated type already is that type, or always-true when
// the stated type is another.
func makeRestriction(restriction typeSet, path string, expr *node, statedType *node) *node {
	if statedType != nil && statedType.types.isSingleType() {
		if restriction.hasType(statedType.types.single()) {
			return expr
		}
		return &node{kind: kAlwaysTrue, ann: ignored()}
	}
	typeExpr := &node{kind: kSchemaType, path: path, types: restriction, ann: ignored()}
	not := &node{kind: kNot, ann: ignored(), children: []*node{typeExpr}}
	return &node{kind: kOr, ann: ignoreButDescend(), children: []*node{not, expr}}
}

// objectMatch applies expr to the embedded document at path, restricted
// to objects.
func objectMatch(path string, expr *node, statedType *node) *node {
	om := &node{kind: kObjectMatch, path: path, ann: ignoreButDescend(), children: []*node{expr}}
	return makeRestriction(singleType(3), path, om, statedType)
}

// leaf compiles a query-operator predicate {path: {op: arg}} that the
// schema translates to (minimum to $gte, pattern to $regex).
func leaf(path, op string, arg any, ann annotation) (*node, error) {
	f, err := query.Compile(bson.D{{Key: path, Value: bson.D{{Key: op, Value: arg}}}}, query.Options{})
	if err != nil {
		return nil, err
	}
	return &node{kind: kLeaf, path: path, op: op, filter: f, ann: ann}, nil
}

// CompileSchema is $jsonSchema in a query filter (find, aggregate $match,
// update and delete filters): the same translation as in a validator, so
// that a filter and a validator never disagree on a document. mongod logs
// the "_id not allowed" warning only for validators.
func CompileSchema(schema bson.D) (query.SchemaMatcher, error) {
	root, err := parseJSONSchema(schema, &schemaCtx{})
	if err != nil {
		return nil, err
	}
	prepare(root)
	return schemaMatcher{root: root}, nil
}

type schemaMatcher struct{ root *node }

func (m schemaMatcher) MatchesDocument(doc bson.D) bool { return m.root.matches(doc) }
