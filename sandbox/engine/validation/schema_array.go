package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// translateArrayKeywords handles minItems, maxItems, uniqueItems, items
// and additionalItems (translateArrayKeywords in json_schema_parser.cpp).
func translateArrayKeywords(path string, kw keywords, typeExpr, and *node, sc *schemaCtx) error {
	arrays := singleType(value.TypeArray)
	if err := addLength(path, kw, "minItems", kMinItems, arrays, typeExpr, and); err != nil {
		return err
	}
	if err := addLength(path, kw, "maxItems", kMaxItems, arrays, typeExpr, and); err != nil {
		return err
	}
	if e, ok := kw["uniqueItems"]; ok {
		b, isBool := e.Value.(bool)
		ann := annotate("uniqueItems", bson.D{e})
		switch {
		case !isBool:
			return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'uniqueItems' must be a boolean")
		case path != "" && b:
			and.add(makeRestriction(arrays, path, &node{kind: kUniqueItems, path: path, ann: ann}, typeExpr))
		default:
			and.add(&node{kind: kAlwaysTrue, ann: ann})
		}
	}
	startAdditional := -1
	if e, ok := kw["items"]; ok {
		ann := annotate("items", bson.D{e})
		switch items := e.Value.(type) {
		case bson.A:
			each := &node{kind: kAnd, ann: ann}
			for i, sub := range items {
				d, isDoc := sub.(bson.D)
				if !isDoc {
					return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'items' requires that each element of the array is an object, but found a %s", value.TypeName(sub))
				}
				x, err := parseSchema(placeholderName, d, sc)
				if err != nil {
					return err
				}
				each.add(&node{kind: kMatchIndex, path: path, index: i, ann: annotate("", bson.D{}), children: []*node{x}})
			}
			startAdditional = len(items)
			if path == "" {
				and.add(&node{kind: kAlwaysTrue, ann: ann})
			} else {
				and.add(makeRestriction(arrays, path, each, typeExpr))
			}
		case bson.D:
			x, err := parseSchema(placeholderName, items, sc)
			if err != nil {
				return err
			}
			if path == "" {
				and.add(&node{kind: kAlwaysTrue, ann: ann})
			} else {
				all := &node{kind: kAllElemMatch, path: path, ann: ann, children: []*node{x}}
				and.add(makeRestriction(arrays, path, all, typeExpr))
			}
		default:
			return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'items' must be an array or an object, not %s", value.TypeName(e.Value))
		}
	}
	e, ok := kw["additionalItems"]
	if !ok {
		return nil
	}
	var otherwise *node
	switch x := e.Value.(type) {
	case bool:
		otherwise = &node{kind: kAlwaysFalse, ann: ignored()}
		if x {
			otherwise.kind = kAlwaysTrue
		}
	case bson.D:
		sub, err := parseSchema(placeholderName, x, sc)
		if err != nil {
			return err
		}
		otherwise = sub
	default:
		return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a %s", value.TypeName(e.Value))
	}
	if startAdditional < 0 {
		return nil
	}
	ann := annotate("additionalItems", bson.D{e})
	if path == "" {
		and.add(&node{kind: kAlwaysTrue, ann: ann})
		return nil
	}
	all := &node{kind: kAllElemMatch, path: path, index: startAdditional, ann: ann, children: []*node{otherwise}}
	and.add(makeRestriction(arrays, path, all, typeExpr))
	return nil
}
