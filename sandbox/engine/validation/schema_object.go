package validation

import (
	"regexp"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// pattern is one patternProperties entry: the regex as written and
// compiled.
type pattern struct {
	raw string
	re  *regexp.Regexp
}

// translateObjectKeywords handles properties, patternProperties and
// additionalProperties, required, minProperties, maxProperties and
// dependencies, in json_schema_parser.cpp's order.
func translateObjectKeywords(path string, kw keywords, typeExpr, and *node, sc *schemaCtx) error {
	required := map[string]bool{}
	var requiredNames []string
	if e, ok := kw["required"]; ok {
		arr, isArr := e.Value.(bson.A)
		if !isArr {
			return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'required' must be an array, but found an element of type %s", value.TypeName(e.Value))
		}
		for _, v := range arr {
			s, isStr := v.(string)
			if !isStr {
				return mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'required' must be an array of strings, but found an element of type: %s", value.TypeName(v))
			}
			if required[s] {
				return mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'required' array cannot contain duplicate values")
			}
			required[s] = true
			requiredNames = append(requiredNames, s)
		}
		if len(requiredNames) == 0 {
			return mongoerr.New(mongoerr.FailedToParse, "$jsonSchema keyword 'required' cannot be an empty array")
		}
	}
	propsElt, hasProps := kw["properties"]
	if hasProps {
		props, isDoc := propsElt.Value.(bson.D)
		if !isDoc {
			return mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'properties' must be an object")
		}
		x, err := parseProperties(path, props, required, typeExpr, sc)
		if err != nil {
			return err
		}
		and.add(x)
	}
	_, hasPattern := kw["patternProperties"]
	_, hasAdditional := kw["additionalProperties"]
	if hasPattern || hasAdditional {
		requiredMissingID := path == "" && !required["_id"]
		x, err := parseAllowedProperties(path, kw, typeExpr, requiredMissingID, sc)
		if err != nil {
			return err
		}
		and.add(x)
	}
	if len(requiredNames) > 0 {
		e := kw["required"]
		req := &node{kind: kAnd, ann: annotate("required", bson.D{e})}
		sorted := slices.Clone(requiredNames)
		slices.Sort(sorted)
		for _, name := range sorted {
			req.add(&node{kind: kExists, path: name, ann: annotate("_propertyExists", bson.D{})})
		}
		if path == "" {
			and.add(req)
		} else {
			and.add(objectMatch(path, req, typeExpr))
		}
	}
	for _, p := range []struct {
		name string
		kind kind
	}{{"minProperties", kMinProperties}, {"maxProperties", kMaxProperties}} {
		e, ok := kw[p.name]
		if !ok {
			continue
		}
		n, err := query.ParseNonNegativeLong(p.name, e.Value)
		if err != nil {
			return err
		}
		x := &node{kind: p.kind, n: n, ann: annotate(p.name, bson.D{e})}
		if path == "" {
			and.add(x)
		} else {
			and.add(objectMatch(path, x, typeExpr))
		}
	}
	if e, ok := kw["dependencies"]; ok {
		x, err := parseDependencies(path, e, sc)
		if err != nil {
			return err
		}
		and.add(x)
	}
	return nil
}

// parseProperties is parseProperties: one subschema per property, each
// tagged '_property'; a property not in 'required' may also be absent.
func parseProperties(path string, props bson.D, required map[string]bool, typeExpr *node, sc *schemaCtx) (*node, error) {
	and := &node{kind: kAnd, ann: annotate("properties", bson.D{})}
	for _, p := range props {
		sub, isDoc := p.Value.(bson.D)
		if !isDoc {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Nested schema for $jsonSchema property '%s' must be an object", p.Key)
		}
		x, err := parseSchema(p.Key, sub, sc)
		if err != nil {
			return nil, err
		}
		x.ann = annotate("_property", bson.D{{Key: "propertyName", Value: p.Key}}).withSchema(sub)
		if required[p.Key] {
			and.add(x)
			continue
		}
		exists := &node{kind: kExists, path: p.Key, ann: ignored()}
		not := &node{kind: kNot, ann: ignored(), children: []*node{exists}}
		and.add(&node{kind: kOr, ann: ignoreButDescend(), children: []*node{not, x}})
	}
	if path == "" {
		return and, nil
	}
	return objectMatch(path, and, typeExpr), nil
}

// parseAllowedProperties is parseAllowedProperties: additionalProperties
// and patternProperties as one $_internalSchemaAllowedProperties node.
func parseAllowedProperties(path string, kw keywords, typeExpr *node, requiredMissingID bool, sc *schemaCtx) (*node, error) {
	names := map[string]bool{}
	if p, ok := kw.get("properties"); ok {
		for _, e := range p.(bson.D) {
			names[e.Key] = true
		}
	}
	var patterns []pattern
	var patternSchemas []*node
	if pe, ok := kw["patternProperties"]; ok {
		pp, isDoc := pe.Value.(bson.D)
		if !isDoc {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'patternProperties' must be an object")
		}
		for _, e := range pp {
			sub, isDoc := e.Value.(bson.D)
			if !isDoc {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword 'patternProperties' has property '%s' which is not an object", e.Key)
			}
			x, err := parseSchema(placeholderName, sub, sc)
			if err != nil {
				return nil, err
			}
			re, err := expr.CompileRegex(e.Key, "", "$jsonSchema patternProperties")
			if err != nil {
				return nil, err
			}
			patterns = append(patterns, pattern{raw: e.Key, re: re})
			patternSchemas = append(patternSchemas, x)
			if requiredMissingID {
				if loc := re.FindStringIndex("_id"); loc != nil && loc[0] == 0 && loc[1] == 3 {
					requiredMissingID = false
				}
			}
		}
	}
	var otherwise *node
	ann := annotate("", bson.D{})
	ae, hasAdditional := kw["additionalProperties"]
	switch x := ae.Value.(type) {
	case nil:
		if hasAdditional {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'additionalProperties' must be an object or a boolean")
		}
		otherwise = &node{kind: kAlwaysTrue, ann: ignored()}
	case bool:
		otherwise = &node{kind: kAlwaysTrue, ann: ignored()}
		if !x {
			otherwise.kind = kAlwaysFalse
			if requiredMissingID && sc.warn != nil {
				sc.warn("$jsonSchema validator does not allow '_id' field. This validator will reject all documents, consider adding '_id' to the allowed fields.")
			}
		}
		ann = annotate("", bson.D{ae})
	case bson.D:
		sub, err := parseSchema(placeholderName, x, sc)
		if err != nil {
			return nil, err
		}
		otherwise = sub
		ann = annotate("", bson.D{ae})
	default:
		return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'additionalProperties' must be an object or a boolean")
	}
	allowed := &node{kind: kAllowedProps, properties: names, patterns: patterns, ann: ann,
		children: append([]*node{otherwise}, patternSchemas...)}
	if path == "" {
		return allowed, nil
	}
	return objectMatch(path, allowed, typeExpr), nil
}

// allowedPropertiesMatch is InternalSchemaAllowedPropertiesMatchExpression:
// every field matching a pattern satisfies that pattern's schema; every
// other field not named by properties satisfies additionalProperties.
func (n *node) allowedPropertiesMatch(doc bson.D) bool {
	for _, f := range doc {
		checkOtherwise := true
		for i, p := range n.patterns {
			if p.re.MatchString(f.Key) {
				checkOtherwise = false
				if !n.children[i+1].matches(placeholderDoc(f.Value)) {
					return false
				}
			}
		}
		if checkOtherwise && n.properties[f.Key] {
			checkOtherwise = false
		}
		if checkOtherwise && !n.children[0].matches(placeholderDoc(f.Value)) {
			return false
		}
	}
	return true
}

// parseDependencies is parseDependencies: a schema or a list of
// properties that must hold when a property is present.
func parseDependencies(path string, e bson.E, sc *schemaCtx) (*node, error) {
	deps, isDoc := e.Value.(bson.D)
	if !isDoc {
		return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema keyword 'dependencies' must be an object")
	}
	and := &node{kind: kAnd, ann: annotate("dependencies", bson.D{}).withSchema(deps)}
	for _, d := range deps {
		ifClause := dependencyExists(path, d.Key)
		ignoreTree(ifClause)
		var then *node
		tag := "_schemaDependency"
		switch x := d.Value.(type) {
		case bson.D:
			sub, err := parseSchema(path, x, sc)
			if err != nil {
				return nil, err
			}
			then = sub
		case bson.A:
			tag = "_propertyDependency"
			if len(x) == 0 {
				return nil, mongoerr.Newf(mongoerr.FailedToParse, "property '%s' in $jsonSchema keyword 'dependencies' cannot be an empty array", d.Key)
			}
			then = &node{kind: kAnd, ann: annotate("_propertiesExistList", bson.D{d})}
			seen := map[string]bool{}
			for _, p := range x {
				s, isStr := p.(string)
				if !isStr {
					return nil, mongoerr.Newf(mongoerr.TypeMismatch, "array '%s' in $jsonSchema keyword 'dependencies' can only contain strings, but found element of type: %s", d.Key, value.TypeName(p))
				}
				if seen[s] {
					return nil, mongoerr.Newf(mongoerr.FailedToParse, "array '%s' in $jsonSchema keyword 'dependencies' contains duplicate element: %s", d.Key, s)
				}
				seen[s] = true
				then.add(dependencyExists(path, s))
			}
		default:
			if _, isStr := d.Value.(string); isStr && (d.Key == "title" || d.Key == "description") {
				continue
			}
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "property '%s' in $jsonSchema keyword 'dependencies' must be either an object or an array", d.Key)
		}
		always := &node{kind: kAlwaysTrue, ann: ignored()}
		and.add(&node{kind: kCond, ann: annotate(tag, bson.D{d}), children: []*node{ifClause, then, always}})
	}
	return and, nil
}

// dependencyExists is makeDependencyExistsClause.
func dependencyExists(path, name string) *node {
	exists := &node{kind: kExists, path: name, ann: annotate("_propertyExists", bson.D{})}
	if path == "" {
		return exists
	}
	return &node{kind: kObjectMatch, path: path, ann: ignoreButDescend(), children: []*node{exists}}
}

// ignoreTree is annotateTreeToIgnoreForErrorDetails.
func ignoreTree(n *node) {
	n.ann = ignored()
	for _, c := range n.children {
		ignoreTree(c)
	}
}
