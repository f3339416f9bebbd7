package query

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// SchemaMatcher is a compiled $jsonSchema: whether a whole document
// satisfies the schema.
type SchemaMatcher interface {
	MatchesDocument(doc bson.D) bool
}

// SchemaCompiler translates a $jsonSchema object the way mongod's
// JSONSchemaParser does. The translation lives in the validation package,
// next to the errInfo annotations validators need, and that package
// imports this one; the caller hands it in through Options.
type SchemaCompiler func(schema bson.D) (SchemaMatcher, error)

// JSONSchema is {$jsonSchema: schema}. It matches the whole document, so
// it never records an array position for the positional $ operator.
type JSONSchema struct {
	Schema  bson.D
	Matcher SchemaMatcher
}

// Matches reports whether doc satisfies the schema.
func (n *JSONSchema) Matches(doc bson.D, _ *Position) bool {
	return n.Matcher.MatchesDocument(doc)
}

// parseJSONSchema is expression_parser.cpp's parseJSONSchema: the feature
// check comes before the type check, then the schema's own parse errors.
func (p *parser) parseJSONSchema(v any) (Node, error) {
	if p.opts.BanSpecialFeatures {
		return nil, mongoerr.New(mongoerr.QueryFeatureNotAllowed, "$jsonSchema is not allowed in this context")
	}
	schema, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema must be an object")
	}
	if p.opts.JSONSchema == nil {
		return nil, mongoerr.New(mongoerr.NotImplemented, "$jsonSchema is not supported by the schemalab sandbox in this context")
	}
	m, err := p.opts.JSONSchema(schema)
	if err != nil {
		return nil, err
	}
	return &JSONSchema{Schema: schema, Matcher: m}, nil
}
