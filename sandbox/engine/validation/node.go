// Package validation is collection schema validation as mongod 8.0 does
// it: a validator ($jsonSchema, query operators, or both) is translated
// into the same tree of match expressions mongod's JSONSchemaParser and
// MatchExpressionParser build, each node carrying mongod's error
// annotation, so that a failing document produces the errInfo.details that
// doc_validation_error.cpp walks out of that tree, field for field.
//
// Query-operator leaves ($gt, $in, $regex, $expr, ...) match through the
// engine's query package, so a validator and a find filter never disagree;
// the $jsonSchema-only nodes (types, lengths, properties, items, ...) are
// implemented here, one file per keyword family.
package validation

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// kind is the match expression type of mongod a node stands for.
type kind int

const (
	kAnd kind = iota
	kOr
	kNor
	kNot
	kAlwaysTrue
	kAlwaysFalse
	kLeaf          // a query operator on a path, matched by the query package
	kExists        // ExistsMatchExpression ("required", dependencies)
	kSchemaType    // InternalSchemaTypeExpression (type, bsonType)
	kMinItems      // InternalSchemaMinItemsMatchExpression
	kMaxItems      // InternalSchemaMaxItemsMatchExpression
	kMinLength     // InternalSchemaMinLengthMatchExpression
	kMaxLength     // InternalSchemaMaxLengthMatchExpression
	kFmod          // InternalSchemaFmodMatchExpression (multipleOf)
	kUniqueItems   // InternalSchemaUniqueItemsMatchExpression
	kObjectMatch   // InternalSchemaObjectMatchExpression
	kAllowedProps  // InternalSchemaAllowedPropertiesMatchExpression
	kMinProperties // InternalSchemaMinPropertiesMatchExpression
	kMaxProperties // InternalSchemaMaxPropertiesMatchExpression
	kCond          // InternalSchemaCondMatchExpression (dependencies)
	kXor           // InternalSchemaXorMatchExpression (oneOf)
	kAllElemMatch  // InternalSchemaAllElemMatchFromIndexMatchExpression
	kMatchIndex    // InternalSchemaMatchArrayIndexMatchExpression
	kSchemaEq      // InternalSchemaEqMatchExpression (enum)
	kRootDocEq     // InternalSchemaRootDocEqMatchExpression (top-level enum)
	kEncrypted     // InternalSchemaBinDataSubTypeExpression for subtype 6 (encrypt)
	kEncryptedType // InternalSchemaBinDataEncryptedTypeExpression (encrypt.bsonType)
)

// mode is ErrorAnnotation::Mode.
type mode int

const (
	modeGenerate mode = iota
	modeIgnore
	modeIgnoreButDescend
)

// annotation is MatchExpression::ErrorAnnotation: the tag (the operator
// name the error reports, or an internal "_..." name), the annotation
// (specifiedAs, or fields appended as they are) and the schema's title and
// description.
type annotation struct {
	mode        mode
	tag         string
	spec        bson.D
	title       string
	description string
	hasTitle    bool
	hasDesc     bool
}

func annotate(tag string, spec bson.D) annotation {
	return annotation{mode: modeGenerate, tag: tag, spec: spec}
}

func ignored() annotation { return annotation{mode: modeIgnore} }

func ignoreButDescend() annotation { return annotation{mode: modeIgnoreButDescend} }

// withSchema adds the title and description of schema, as
// ErrorAnnotation::SchemaAnnotations does.
func (a annotation) withSchema(schema bson.D) annotation {
	if s, ok := value.Get(schema, "title").(string); ok {
		a.title, a.hasTitle = s, true
	}
	if s, ok := value.Get(schema, "description").(string); ok {
		a.description, a.hasDesc = s, true
	}
	return a
}

// leafBehavior is ElementPath::LeafArrayBehavior.
type leafBehavior int

const (
	traverse leafBehavior = iota
	traverseOmitArray
	noTraversal
)

// node is one match expression.
type node struct {
	kind     kind
	ann      annotation
	path     string
	children []*node

	// kLeaf: the compiled predicate and mongod's operator name ("$gt").
	filter *query.Filter
	op     string

	// kSchemaType
	types typeSet
	// kMinItems ... kMaxProperties: the bound
	n int64
	// kFmod
	divisor any
	// kAllowedProps: the names under "properties" and the patterns of
	// "patternProperties" (children[0] is additionalProperties, then one
	// child per pattern).
	properties map[string]bool
	patterns   []pattern
	// kAllElemMatch, kMatchIndex: the start index / the index
	index int
	// kSchemaEq, kRootDocEq
	eq any
	// kLeaf for $expr: the aggregation expression, for expressionResult
	expr expr.Expr
	// dotted is set by prepare for paths with more than one component.
	dotted bool
	// bound is the argument of a $jsonSchema minimum or maximum, which
	// matches without going through a compiled filter.
	bound any
}

// prepare marks the nodes whose path needs a walk through embedded
// documents, once the tree is built, so that checking a write does not
// scan every path for dots.
func prepare(n *node) {
	n.dotted = strings.Contains(n.path, ".")
	for _, c := range n.children {
		prepare(c)
	}
}

// valueIn is valueAt for the node's own path.
func (n *node) valueIn(doc bson.D) any {
	if n.dotted || n.path == "" {
		return valueAt(doc, n.path)
	}
	for i := range doc {
		if doc[i].Key == n.path {
			return doc[i].Value
		}
	}
	return value.Missing{}
}

// matches is the node's matchesBSON.
func (n *node) matches(doc bson.D) bool {
	switch n.kind {
	case kAnd:
		for _, c := range n.children {
			if !c.matches(doc) {
				return false
			}
		}
		return true
	case kOr:
		if n.ann.tag == "enum" && len(n.children) > 0 && n.children[0].kind == kSchemaEq {
			// One lookup for all the enum's members, which share the path.
			v := n.children[0].valueIn(doc)
			for _, c := range n.children {
				if c.matchesElement(v) {
					return true
				}
			}
			return false
		}
		for _, c := range n.children {
			if c.matches(doc) {
				return true
			}
		}
		return false
	case kNor:
		for _, c := range n.children {
			if c.matches(doc) {
				return false
			}
		}
		return true
	case kNot:
		return !n.children[0].matches(doc)
	case kAlwaysTrue:
		return true
	case kAlwaysFalse:
		return false
	case kLeaf:
		if n.bound != nil && !n.dotted {
			return compareLeaf(n.op, n.valueIn(doc), n.bound)
		}
		if n.expr != nil {
			ok, _, err := n.filter.Eval(doc)
			return ok && err == nil
		}
		return n.filter.Matches(doc)
	case kExists:
		return !value.IsMissing(n.valueIn(doc))
	case kCond:
		if n.children[0].matches(doc) {
			return n.children[1].matches(doc)
		}
		return n.children[2].matches(doc)
	case kXor:
		found := false
		for _, c := range n.children {
			if c.matches(doc) {
				if found {
					return false
				}
				found = true
			}
		}
		return found
	case kMinProperties:
		return int64(len(doc)) >= n.n
	case kMaxProperties:
		return int64(len(doc)) <= n.n
	case kAllowedProps:
		return n.allowedPropertiesMatch(doc)
	case kRootDocEq:
		return equalUnordered(doc, n.eq)
	}
	return n.matchesElement(n.valueIn(doc))
}

// matchesElement matches the value at the node's path, for the schema
// nodes that do not traverse arrays.
func (n *node) matchesElement(v any) bool {
	switch n.kind {
	case kSchemaType:
		return !value.IsMissing(v) && n.types.has(v)
	case kMinItems, kMaxItems:
		a, ok := v.(bson.A)
		if !ok {
			return false
		}
		if n.kind == kMinItems {
			return int64(len(a)) >= n.n
		}
		return int64(len(a)) <= n.n
	case kMinLength, kMaxLength:
		s, ok := v.(string)
		if !ok {
			return false
		}
		l := int64(len([]rune(s)))
		if n.kind == kMinLength {
			return l >= n.n
		}
		return l <= n.n
	case kFmod:
		return isMultipleOf(v, n.divisor)
	case kUniqueItems:
		a, ok := v.(bson.A)
		return ok && firstDuplicate(a) < 0
	case kObjectMatch:
		d, ok := v.(bson.D)
		return ok && n.children[0].matches(d)
	case kAllElemMatch:
		a, ok := v.(bson.A)
		if !ok {
			return false
		}
		for i := n.index; i < len(a); i++ {
			if !n.children[0].matches(placeholderDoc(a[i])) {
				return false
			}
		}
		return true
	case kMatchIndex:
		a, ok := v.(bson.A)
		if !ok {
			return false
		}
		if n.index >= len(a) {
			return true
		}
		return n.children[0].matches(placeholderDoc(a[n.index]))
	case kSchemaEq:
		return !value.IsMissing(v) && equalUnordered(v, n.eq)
	case kEncrypted:
		b, ok := v.(bson.Binary)
		return ok && b.Subtype == bson.TypeBinaryEncrypted
	case kEncryptedType:
		return encryptedTypeMatches(v, n.types)
	}
	return false
}

// compareLeaf is a comparison at a path's leaf as the query path walk
// does it: an array matches when one of its elements does, or the array
// itself.
func compareLeaf(op string, v, bound any) bool {
	if a, ok := v.(bson.A); ok {
		for _, e := range a {
			if query.CompareValues(op, e, bound) {
				return true
			}
		}
	}
	return query.CompareValues(op, v, bound)
}

// placeholderName is JSONSchemaParser::kNamePlaceholder: subschemas that
// apply to array items and to properties are parsed against this path and
// matched against {i: <value>}.
const placeholderName = "i"

func placeholderDoc(v any) bson.D { return bson.D{{Key: placeholderName, Value: v}} }

// valueAt is the value at a dotted path with no array traversal at all
// (ElementPath with kNoTraversal for leaf and non-leaf arrays); missing
// when the path does not resolve. It walks the documents without boxing
// them, since it runs for every keyword of every validated write.
func valueAt(doc bson.D, path string) any {
	if path == "" {
		return doc
	}
	if strings.IndexByte(path, '.') < 0 {
		for i := range doc {
			if doc[i].Key == path {
				return doc[i].Value
			}
		}
		return value.Missing{}
	}
	d := doc
	for {
		seg, rest, more := strings.Cut(path, ".")
		var v any = value.Missing{}
		for i := range d {
			if d[i].Key == seg {
				v = d[i].Value
				break
			}
		}
		if !more {
			return v
		}
		next, ok := v.(bson.D)
		if !ok {
			return value.Missing{}
		}
		d, path = next, rest
	}
}
