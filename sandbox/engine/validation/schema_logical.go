package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// translateLogicalKeywords handles allOf, anyOf, oneOf, not and enum
// (translateLogicalKeywords in json_schema_parser.cpp).
func translateLogicalKeywords(path string, kw keywords, _ *node, and *node, sc *schemaCtx) error {
	for _, l := range []struct {
		name string
		kind kind
	}{{"allOf", kAnd}, {"anyOf", kOr}, {"oneOf", kXor}} {
		e, ok := kw[l.name]
		if !ok {
			continue
		}
		arr, isArr := e.Value.(bson.A)
		if !isArr {
			return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' must be an array", l.name)
		}
		if len(arr) == 0 {
			return mongoerr.Newf(mongoerr.BadValue, "$jsonSchema keyword '%s' must be a non-empty array", l.name)
		}
		list := &node{kind: l.kind, ann: annotate(l.name, bson.D{})}
		for _, sub := range arr {
			d, isDoc := sub.(bson.D)
			if !isDoc {
				return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' must be an array of objects, but found an element of type %s", l.name, value.TypeName(sub))
			}
			x, err := parseSchema(path, d, sc)
			if err != nil {
				return err
			}
			list.add(x)
		}
		and.add(list)
	}
	if e, ok := kw["not"]; ok {
		d, isDoc := e.Value.(bson.D)
		if !isDoc {
			return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'not' must be an object, but found an element of type %s", value.TypeName(e.Value))
		}
		x, err := parseSchema(path, d, sc)
		if err != nil {
			return err
		}
		and.add(&node{kind: kNot, ann: annotate("not", bson.D{}), children: []*node{x}})
	}
	if e, ok := kw["enum"]; ok {
		x, err := parseEnum(path, e)
		if err != nil {
			return err
		}
		and.add(x)
	}
	return nil
}

// parseEnum is parseEnum: an OR of equalities, treated as one leaf when
// the error is generated.
func parseEnum(path string, e bson.E) (*node, error) {
	arr, isArr := e.Value.(bson.A)
	if !isArr {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'enum' must be an array, but found an element of type %s", value.TypeName(e.Value))
	}
	if len(arr) == 0 {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'enum' cannot be an empty array")
	}
	or := &node{kind: kOr, ann: annotate("enum", bson.D{e})}
	for i, v := range arr {
		for _, prev := range arr[:i] {
			if equalUnordered(prev, v) {
				return nil, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'enum' array cannot contain duplicate values.")
			}
		}
		if path == "" {
			// Only objects are stored: a top-level enum matches the
			// document itself, and only its object members can.
			if d, isDoc := v.(bson.D); isDoc {
				or.add(&node{kind: kRootDocEq, eq: d, ann: ignored()})
			}
			continue
		}
		or.add(&node{kind: kSchemaEq, path: path, eq: v, ann: ignored()})
	}
	if len(or.children) == 0 {
		return &node{kind: kAlwaysFalse, ann: annotate("enum", bson.D{e})}, nil
	}
	return or, nil
}
