package validation

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// translateScalarKeywords handles pattern, maxLength, minLength,
// multipleOf, maximum/exclusiveMaximum and minimum/exclusiveMinimum, in
// that order (translateScalarKeywords in json_schema_parser.cpp).
func translateScalarKeywords(path string, kw keywords, typeExpr, and *node, _ *schemaCtx) error {
	if e, ok := kw["pattern"]; ok {
		s, isStr := e.Value.(string)
		if !isStr {
			return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'pattern' must be a string")
		}
		ann := annotate("pattern", bson.D{e})
		if path == "" {
			and.add(&node{kind: kAlwaysTrue, ann: ann})
		} else {
			x, err := leaf(path, "$regex", s, ann)
			if err != nil {
				return err
			}
			and.add(makeRestriction(singleType(value.TypeString), path, x, typeExpr))
		}
	}
	for _, l := range []struct {
		name string
		kind kind
	}{{"maxLength", kMaxLength}, {"minLength", kMinLength}} {
		if err := addLength(path, kw, l.name, l.kind, singleType(value.TypeString), typeExpr, and); err != nil {
			return err
		}
	}
	if e, ok := kw["multipleOf"]; ok {
		if !value.IsNumber(e.Value) {
			return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'multipleOf' must be a number")
		}
		if r, ok := decimalRat(e.Value); !ok || r.Sign() <= 0 {
			return mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'multipleOf' must have a positive value")
		}
		ann := annotate("multipleOf", bson.D{e})
		if path == "" {
			and.add(&node{kind: kAlwaysTrue, ann: ann})
		} else {
			and.add(makeRestriction(numberSet(), path, &node{kind: kFmod, path: path, divisor: e.Value, ann: ann}, typeExpr))
		}
	}
	if err := addBound(path, kw, "maximum", "exclusiveMaximum", "$lte", "$lt", typeExpr, and); err != nil {
		return err
	}
	return addBound(path, kw, "minimum", "exclusiveMinimum", "$gte", "$gt", typeExpr, and)
}

// addBound is parseMaximum/parseMinimum with their exclusive flag.
func addBound(path string, kw keywords, name, exclusiveName, op, exclusiveOp string, typeExpr, and *node) error {
	e, ok := kw[name]
	if !ok {
		if _, hasExclusive := kw[exclusiveName]; hasExclusive {
			return mongoerr.Newf(mongoerr.FailedToParse, "$jsonSchema keyword '%s' must be a present if %s is present", name, exclusiveName)
		}
		return nil
	}
	exclusive := false
	if x, has := kw.get(exclusiveName); has {
		b, isBool := x.(bool)
		if !isBool {
			return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' must be a boolean", exclusiveName)
		}
		exclusive = b
	}
	if !value.IsNumber(e.Value) {
		return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' must be a number", name)
	}
	ann := annotate(name, bson.D{e})
	if exclusive {
		ann = annotate(name, bson.D{e, {Key: exclusiveName, Value: true}})
		op = exclusiveOp
	}
	if path == "" {
		// Only objects are stored: a number bound on the document is moot.
		and.add(&node{kind: kAlwaysTrue, ann: ann})
		return nil
	}
	x, err := leaf(path, op, e.Value, ann)
	if err != nil {
		return err
	}
	x.bound = e.Value
	and.add(makeRestriction(numberSet(), path, x, typeExpr))
	return nil
}

// addLength is parseLength for minLength/maxLength/minItems/maxItems.
func addLength(path string, kw keywords, name string, k kind, restriction typeSet, typeExpr, and *node) error {
	e, ok := kw[name]
	if !ok {
		return nil
	}
	n, err := query.ParseNonNegativeLong(name, e.Value)
	if err != nil {
		return err
	}
	ann := annotate(name, bson.D{e})
	if path == "" {
		and.add(&node{kind: kAlwaysTrue, ann: ann})
		return nil
	}
	and.add(makeRestriction(restriction, path, &node{kind: k, path: path, n: n, ann: ann}, typeExpr))
	return nil
}

func (n *node) add(c *node) { n.children = append(n.children, c) }
