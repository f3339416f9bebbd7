package validation

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// parseFilter is MatchExpressionParser's parse() of a validator document:
// an $and of its fields (the single child when there is one), each leaf
// annotated with its operator and the clause as specifiedAs.
func (c *compiler) parseFilter(obj bson.D) (*node, error) {
	root := &node{kind: kAnd, ann: annotate("$and", bson.D{})}
	for _, e := range obj {
		if strings.HasPrefix(e.Key, "$") {
			x, err := c.parseTopLevel(e)
			if err != nil {
				return nil, err
			}
			if x != nil {
				root.add(x)
			}
			continue
		}
		if isExpressionDocument(e.Value) {
			if err := c.parseSub(e.Key, e.Value.(bson.D), root); err != nil {
				return nil, err
			}
			continue
		}
		if re, ok := e.Value.(bson.Regex); ok {
			x, err := c.leafFilter(e.Key, "$regex", bson.D{{Key: e.Key, Value: re}}, annotate("$regex", bson.D{e}))
			if err != nil {
				return nil, err
			}
			root.add(x)
			continue
		}
		x, err := c.leafFilter(e.Key, "$eq", bson.D{e}, annotate("$eq", bson.D{e}))
		if err != nil {
			return nil, err
		}
		root.add(x)
	}
	if len(root.children) == 1 {
		return root.children[0], nil
	}
	return root, nil
}

// isExpressionDocument: an object whose first field is an operator (and
// that is not a DBRef).
func isExpressionDocument(v any) bool {
	d, ok := v.(bson.D)
	if !ok || len(d) == 0 || !strings.HasPrefix(d[0].Key, "$") {
		return false
	}
	hasRef, hasID := false, false
	for _, e := range d {
		hasRef = hasRef || e.Key == "$ref"
		hasID = hasID || e.Key == "$id"
	}
	return !(hasRef && hasID)
}

func (c *compiler) parseTopLevel(e bson.E) (*node, error) {
	switch e.Key {
	case "$and", "$or", "$nor":
		arr, ok := e.Value.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.BadValue, "%s must be an array", e.Key)
		}
		if len(arr) == 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "$and/$or/$nor must be a nonempty array")
		}
		k := map[string]kind{"$and": kAnd, "$or": kOr, "$nor": kNor}[e.Key]
		list := &node{kind: k, ann: annotate(e.Key, bson.D{})}
		for _, sub := range arr {
			d, ok := sub.(bson.D)
			if !ok {
				return nil, mongoerr.New(mongoerr.BadValue, "$or/$and/$nor entries need to be full objects")
			}
			x, err := c.parseFilter(d)
			if err != nil {
				return nil, err
			}
			list.add(x)
		}
		return list, nil
	case "$jsonSchema":
		d, ok := e.Value.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "$jsonSchema must be an object")
		}
		return parseJSONSchema(d, &schemaCtx{warn: c.warn, noEncrypt: c.noEncrypt})
	case "$comment":
		return nil, nil
	case "$expr":
		c.usesExpr = true
		if usesFunction(e.Value) {
			// ExpressionFunction::parse refuses server-side JavaScript
			// while a collection validator is parsed
			// (isParsingCollectionValidator).
			return nil, mongoerr.New(4660800, "$function cannot be used inside a validator.")
		}
		x, err := c.leafFilter("", "$expr", bson.D{e}, annotate("$expr", bson.D{e}))
		if err != nil {
			return nil, err
		}
		compiled, err := expr.Compile(e.Value, expr.NewScope().InValidator())
		if err != nil {
			return nil, err
		}
		x.expr = compiled
		return x, nil
	case "$where", "$text":
		return nil, mongoerr.Newf(mongoerr.BadValue, "%s is not allowed in this context", e.Key)
	}
	return c.leafFilter("", e.Key, bson.D{e}, annotate(e.Key, bson.D{e}))
}

// parseSub parses {path: {$op: v, ...}}, adding one node per operator.
func (c *compiler) parseSub(path string, sub bson.D, root *node) error {
	if first := sub[0].Key; first == "$near" || first == "$nearSphere" || first == "$geoNear" {
		return mongoerr.New(5626500, "$geoNear, $near, and $nearSphere are not allowed in this context")
	}
	for _, e := range sub {
		x, err := c.parseSubField(path, sub, e)
		if err != nil {
			return err
		}
		if x != nil {
			root.add(x)
		}
	}
	return nil
}

func (c *compiler) parseSubField(path string, context bson.D, e bson.E) (*node, error) {
	spec := bson.D{{Key: path, Value: bson.D{e}}}
	switch e.Key {
	case "$not":
		if re, ok := e.Value.(bson.Regex); ok {
			x, err := c.leafFilter(path, "$regex", bson.D{{Key: path, Value: re}}, annotate("$regex", bson.D{{Key: path, Value: re}}))
			if err != nil {
				return nil, err
			}
			return &node{kind: kNot, ann: annotate("$not", bson.D{}), children: []*node{x}}, nil
		}
		d, ok := e.Value.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.BadValue, "$not needs a regex or a document")
		}
		if len(d) == 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "$not cannot be empty")
		}
		and := &node{kind: kAnd, ann: annotate("$and", bson.D{})}
		if err := c.parseSub(path, d, and); err != nil {
			return nil, err
		}
		if len(and.children) == 1 {
			and.ann = ignoreButDescend()
		}
		return &node{kind: kNot, ann: annotate("$not", bson.D{}), children: []*node{and}}, nil
	case "$ne":
		if _, isRe := e.Value.(bson.Regex); isRe {
			return nil, mongoerr.New(mongoerr.BadValue, "Can't have regex as arg to $ne.")
		}
		x, err := c.leafFilter(path, "$eq", bson.D{{Key: path, Value: bson.D{{Key: "$eq", Value: e.Value}}}}, annotate("$ne", spec))
		if err != nil {
			return nil, err
		}
		return &node{kind: kNot, ann: ignoreButDescend(), children: []*node{x}}, nil
	case "$nin":
		x, err := c.leafFilter(path, "$in", bson.D{{Key: path, Value: bson.D{{Key: "$in", Value: e.Value}}}}, annotate("$nin", spec))
		if err != nil {
			return nil, err
		}
		return &node{kind: kNot, ann: ignoreButDescend(), children: []*node{x}}, nil
	case "$exists":
		x, err := c.leafFilter(path, "$exists", bson.D{{Key: path, Value: bson.D{{Key: "$exists", Value: true}}}}, annotate("$exists", spec))
		if err != nil {
			return nil, err
		}
		if expr.IsTrue(e.Value) {
			return x, nil
		}
		return &node{kind: kNot, ann: ignoreButDescend(), children: []*node{x}}, nil
	case "$options":
		for _, o := range context {
			if o.Key == "$regex" {
				return nil, nil
			}
		}
		return nil, mongoerr.New(mongoerr.BadValue, "$options needs a $regex")
	case "$regex":
		var re bson.D
		for _, o := range context {
			if o.Key == "$regex" || o.Key == "$options" {
				re = append(re, o)
			}
		}
		return c.leafFilter(path, "$regex", bson.D{{Key: path, Value: re}}, annotate("$regex", bson.D{{Key: path, Value: context}}))
	}
	return c.leafFilter(path, e.Key, spec, annotate(e.Key, spec))
}

// leafFilter compiles one query predicate with the engine's query
// package, which also gives mongod's parse errors for it.
func (c *compiler) leafFilter(path, op string, filter bson.D, ann annotation) (*node, error) {
	f, err := query.Compile(filter, query.Options{Now: c.now, JSONSchema: CompileSchema, Validator: true})
	if err != nil {
		return nil, err
	}
	return &node{kind: kLeaf, path: path, op: op, filter: f, ann: ann}, nil
}

// exprResult appends $expr's evaluation on the current document.
func (g *generator) exprResult(n *node) {
	if n.expr == nil {
		return
	}
	v, err := n.expr.Eval(expr.NewEnv(g.currentDoc(), g.now))
	if err != nil {
		g.appendObj("reason", "failed to evaluate aggregation expression")
		me := mongoerr.As(err)
		g.appendObj("details", bson.D{{Key: "code", Value: me.Code}, {Key: "codeName", Value: me.CodeName()}, {Key: "errmsg", Value: me.Msg}})
		return
	}
	g.appendReason("expression did not match", "expression did match")
	if !value.IsMissing(v) {
		g.appendObj("expressionResult", v)
	}
}

// usesFunction reports whether an aggregation expression calls $function
// anywhere outside a $literal.
func usesFunction(v any) bool {
	switch x := v.(type) {
	case bson.D:
		for _, f := range x {
			switch f.Key {
			case "$function":
				return true
			case "$literal":
				continue
			}
			if usesFunction(f.Value) {
				return true
			}
		}
	case bson.A:
		for _, e := range x {
			if usesFunction(e) {
				return true
			}
		}
	}
	return false
}
