package projection

import (
	"errors"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The parser follows src/mongo/db/query/projection_parser.cpp.

type parseCtx struct {
	opts               Options
	typ                int // 0 unknown, 1 inclusion, 2 exclusion
	idSpecified        bool
	hasPositional      bool
	hasElemMatch       bool
	hasFindSlice       bool
	hasMeta            bool
	needsTextScore     bool
	idIncludedEntirely bool
	idExcludedEntirely bool
	dotted             bool
	env                exprContext
}

const (
	typeInclusion = 1
	typeExclusion = 2
)

// errTextScoreUnavailable is mongod's location code for a text score
// asked of a query that has none.
const errTextScoreUnavailable = 40218

// Compile parses a find projection, or with opts.Aggregation a $project.
func Compile(spec bson.D, opts Options) (*Projection, error) {
	ctx := &parseCtx{opts: opts, env: newExprContext(opts)}
	root := &node{}
	for _, e := range spec {
		if e.Key == "_id" || strings.HasPrefix(e.Key, "_id.") {
			ctx.idSpecified = true
		}
		if err := ctx.parseElement(e, "", root); err != nil {
			return nil, ctx.finishError(err, "$project")
		}
	}
	if ctx.needsTextScore && !ctx.opts.Aggregation {
		// A find has a text score only with $text, which the sandbox's
		// planner cannot run: mongod's answer for a score asked without
		// one (canonical_query.cpp).
		return nil, mongoerr.New(errTextScoreUnavailable, "query requires text score metadata, but it is not available")
	}
	if ctx.typ == 0 {
		ctx.typ = ctx.defaultType()
	}
	idDefaulted := !ctx.idSpecified && ctx.typ == typeInclusion
	if idDefaulted {
		root.children = append(root.children, &child{name: "_id", kind: kindInclude})
	}
	// An exclusion's {_id: 1} stays in the tree, where it keeps _id as
	// any unnamed field is kept, and explain shows it where it was given.
	p := &Projection{
		spec:          spec,
		inclusion:     ctx.typ == typeInclusion,
		root:          root,
		idExcluded:    ctx.idExcludedEntirely,
		idDefaulted:   idDefaulted,
		hasPositional: ctx.hasPositional,
		env:           ctx.env,
	}
	// An exclusion applies its $elemMatch while it removes fields.
	p.computes = ctx.hasElemMatch && p.inclusion || root.hasComputed()
	p.simple = !ctx.dotted
	if p.inclusion {
		p.needsDocument = ctx.hasElemMatch || ctx.hasFindSlice || !requiredFields(spec, "", &p.required)
		if !ctx.idSpecified {
			p.required = append(p.required, "_id")
		}
	}
	for _, c := range root.children {
		if c.kind != kindInclude && c.kind != kindExclude {
			p.simple = false
		}
	}
	p.topLevelOnly = p.simple && p.inclusion
	p.indexKey = expr.MentionsMeta(spec, "indexKey")
	p.sortKey = expr.MentionsMeta(spec, "sortKey")
	p.recordID = expr.MentionsMeta(spec, "recordId")
	return p, nil
}

// defaultType is computeProjectionType: what a projection with only _id,
// $meta and find-only operators means. In find a $meta alone is an
// exclusion, as when nothing is said.
func (ctx *parseCtx) defaultType() int {
	switch {
	case ctx.hasFindSlice:
		if ctx.idIncludedEntirely {
			return typeInclusion
		}
		return typeExclusion
	case ctx.hasElemMatch:
		return typeInclusion
	case ctx.hasMeta && ctx.opts.Aggregation:
		return typeInclusion
	case ctx.idIncludedEntirely:
		return typeInclusion
	}
	return typeExclusion
}

// ValidateFieldPath applies the rules of mongod's FieldPath constructor
// (src/mongo/db/pipeline/field_path.cpp), in its order, to a path that a
// projection, a stage or an expression names.
func ValidateFieldPath(path string) error {
	if path == "" {
		return mongoerr.New(40352, "FieldPath cannot be constructed with empty string")
	}
	if strings.HasSuffix(path, ".") {
		return mongoerr.New(40353, "FieldPath must not end with a '.'.")
	}
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			return mongoerr.New(15998, "FieldPath field names may not be empty strings.")
		}
		if part[0] == '$' && !expr.DollarFieldAllowed(part) {
			return mongoerr.New(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.")
		}
		if strings.IndexByte(part, 0) >= 0 {
			// A key holding a null byte cannot be written to BSON at all.
			return mongoerr.New(mongoerr.ErrFieldPathNullByte, "FieldPath field names may not contain '\\0'.")
		}
	}
	return nil
}

// firstPositional finds the first ".$" that is a positional operator (at
// the end of the path, or, which parseElement then refuses, in its
// middle), the way hasPositionalOperator does; begin is where it starts.
func firstPositional(path string) (begin int, ok bool) {
	if i := strings.Index(path, ".$."); i >= 0 {
		return i, true
	}
	if strings.HasSuffix(path, ".$") {
		return len(path) - 2, true
	}
	if path == "$" {
		return 0, true
	}
	return 0, false
}

func isInclusionOrExclusionValue(v any) bool {
	switch v.(type) {
	case bool, int32, int64, float64, bson.Decimal128:
		return true
	}
	return false
}

// unprefixed marks an error that the stage's context is not added to: a
// constant operator's failure, which comes from the pipeline's
// optimization after the stage's parse. A field name's error is not one of
// them: AddFieldsProjectionExecutor::create and parseAndAnalyze build the
// FieldPaths inside the try that adds "Invalid <stage>", which
// jstests/aggregation/single_stage_alias_error.js relies on.
type unprefixed struct{ error }

// finishError unwraps unprefixed errors and gives the others the stage's
// context under the aggregation policies, as DocumentSourceProject::create
// and DocumentSourceAddFields::create add "Invalid <stage>" to whatever
// their parse throws, an expression's errors included ("Invalid $project
// :: caused by :: Unrecognized expression '$foo'").
func (ctx *parseCtx) finishError(err error, stage string) error {
	var u unprefixed
	if errors.As(err, &u) {
		return u.error
	}
	if !ctx.opts.Aggregation {
		return err
	}
	if ctx.opts.Stage != "" {
		stage = ctx.opts.Stage
	}
	me := mongoerr.As(err)
	return mongoerr.New(me.Code, "Invalid "+stage+" :: caused by :: "+me.Msg)
}

// compile compiles a computed field's expression. A constant operator's
// failure belongs to the pipeline's optimization, which comes after the
// stage's parse, so it carries no parse context.
func (ctx *parseCtx) compile(spec any) (compiledExpr, error) {
	ex, err := ctx.env.compile(spec)
	if err != nil && expr.IsOptimizationError(err) {
		return nil, unprefixed{err}
	}
	return ex, err
}

func (ctx *parseCtx) parseElement(e bson.E, parentPath string, parent *node) error {
	pb, positional := firstPositional(e.Key)
	if positional && ctx.opts.Aggregation {
		return mongoerr.New(31324, "Cannot use positional projection in aggregation projection")
	}
	if strings.Contains(e.Key, ".$.") {
		return mongoerr.New(31394, "As of 4.4, it's illegal to specify positional operator in the middle of a path."+
			"Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form "+
			"like a.b.$.d, remove the parts following the '$' and the results will be equivalent.")
	}
	if sub, ok := e.Value.(bson.D); ok {
		if positional {
			return mongoerr.New(31271, "positional projection cannot be used with an expression or sub object")
		}
		return ctx.parseSubObject(e.Key, parentPath, sub, parent)
	}
	if isInclusionOrExclusionValue(e.Value) {
		if truthy(e.Value) {
			return ctx.parseInclusion(e.Key, parentPath, parent, positional, pb)
		}
		if positional {
			return mongoerr.New(31395, "positional projection cannot be used with exclusion")
		}
		return ctx.parseExclusion(e.Key, parentPath, parent)
	}
	if positional {
		return mongoerr.New(31308, "positional projection cannot be used with a literal")
	}
	return ctx.parseLiteral(e, parent)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int32:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case bson.Decimal128:
		return !x.IsZero()
	}
	return false
}

// addAtPath inserts c under the dotted path, creating intermediate nodes,
// with mongod's path-collision errors.
func (ctx *parseCtx) addAtPath(root *node, path string, c *child) error {
	if err := ValidateFieldPath(path); err != nil {
		return err
	}
	parts := strings.Split(path, ".")
	if len(parts) > 1 {
		ctx.dotted = true
	}
	n := root
	for i, part := range parts {
		existing := n.get(part)
		if i == len(parts)-1 {
			if existing != nil {
				return mongoerr.New(31250, "Path collision at "+path)
			}
			c.name = part
			n.children = append(n.children, c)
			return nil
		}
		if existing == nil {
			existing = &child{name: part, kind: kindSubtree, sub: &node{}}
			n.children = append(n.children, existing)
		} else if existing.kind != kindSubtree {
			// FieldPath::tail() drops only the first component, whatever
			// the depth of the collision.
			return mongoerr.New(31249, "Path collision at "+path+" remaining portion "+strings.Join(parts[1:], "."))
		}
		n = existing.sub
	}
	return nil
}

func (ctx *parseCtx) parseInclusion(key, parentPath string, parent *node, positional bool, pb int) error {
	isTopLevelID := key == "_id" && parentPath == ""
	if !positional {
		if err := ctx.addAtPath(parent, key, &child{kind: kindInclude}); err != nil {
			return err
		}
		if isTopLevelID {
			ctx.idIncludedEntirely = true
		}
	} else {
		if ctx.hasPositional {
			return mongoerr.New(31276, "Cannot specify more than one positional projection per query.")
		}
		if ctx.hasElemMatch {
			return mongoerr.New(31256, "Cannot specify positional operator and $elemMatch.")
		}
		// mongod 4.4 dropped the parse-time check that the query names the
		// projected array (31277): a query on another field, or none, is
		// accepted, and the projection fails at run time only if it meets
		// an array with no matched position (51246).
		if key == ".$" {
			return mongoerr.New(5392900, "Projection on field .$ is invalid")
		}
		if err := ctx.addAtPath(parent, key[:pb], &child{kind: kindPositional}); err != nil {
			return err
		}
		ctx.hasPositional = true
	}
	if !isTopLevelID {
		if ctx.typ == typeExclusion {
			return mongoerr.New(31253, "Cannot do inclusion on field "+key+" in exclusion projection")
		}
		ctx.typ = typeInclusion
	}
	return nil
}

func (ctx *parseCtx) parseExclusion(key, parentPath string, parent *node) error {
	if err := ctx.addAtPath(parent, key, &child{kind: kindExclude}); err != nil {
		return err
	}
	if key == "_id" && parentPath == "" {
		ctx.idExcludedEntirely = true
		return nil
	}
	if ctx.typ == typeInclusion {
		return mongoerr.New(31254, "Cannot do exclusion on field "+key+" in inclusion projection")
	}
	ctx.typ = typeExclusion
	return nil
}

func (ctx *parseCtx) parseLiteral(e bson.E, parent *node) error {
	ex, err := ctx.compile(e.Value)
	if err != nil {
		return err
	}
	if err := ctx.addAtPath(parent, e.Key, &child{kind: kindExpr, expr: ex, spec: e.Value}); err != nil {
		return err
	}
	if ctx.typ == typeExclusion {
		return mongoerr.New(31310, "Cannot use an expression "+formatElement(e)+" in an exclusion projection")
	}
	ctx.typ = typeInclusion
	return nil
}

func (ctx *parseCtx) parseSubObject(key, parentPath string, obj bson.D, parent *node) error {
	if len(obj) == 0 {
		return mongoerr.New(51270, "An empty sub-projection is not a valid value. Found empty object at path")
	}
	if ctx.opts.Aggregation && strings.HasPrefix(obj[0].Key, "$") {
		// The aggregation stages compile a document that starts with a
		// $-field as an expression, so a second field gets the expression's
		// own error. A lone $-field that names no expression is
		// projection_parser.cpp's parseSubObject case: not a field path
		// either, it is 31325 "Unknown expression", which $project gives
		// where $addFields says "Unrecognized expression".
		name := obj[0].Key
		if name == "$elemMatch" {
			return mongoerr.New(mongoerr.InvalidPipelineOperator, "Cannot use $elemMatch in this context")
		}
		if len(obj) == 1 && !expr.IsOperator(name) && expr.Unsupported(name) == nil && ValidateFieldPath(name) != nil {
			return mongoerr.New(31325, "Unknown expression "+name)
		}
		return ctx.parseExpression(key, obj, parent)
	}
	if len(obj) == 1 && strings.HasPrefix(obj[0].Key, "$") {
		done, err := ctx.parseSubObjectAsExpression(key, parentPath, obj, parent)
		if err != nil || done {
			return err
		}
		if ValidateFieldPath(obj[0].Key) != nil {
			return mongoerr.New(31325, "Unknown expression "+obj[0].Key)
		}
	}
	if err := ValidateFieldPath(key); err != nil {
		return err
	}
	sub := &node{}
	// A second sub-object or dotted path under the same field merges into
	// the same layer; collisions are found on its leaves.
	existing := parent.get(key)
	if existing != nil && existing.kind == kindSubtree {
		sub = existing.sub
	} else {
		if err := ctx.addAtPath(parent, key, &child{kind: kindSubtree, sub: sub}); err != nil {
			return err
		}
	}
	// A nested projection is never PROJECTION_SIMPLE.
	ctx.dotted = true
	full := key
	if parentPath != "" {
		full = parentPath + "." + key
	}
	for _, e := range obj {
		if err := ctx.parseElement(e, full, sub); err != nil {
			return err
		}
	}
	return nil
}

func (ctx *parseCtx) parseSubObjectAsExpression(key, parentPath string, obj bson.D, parent *node) (bool, error) {
	op := obj[0].Key
	switch op {
	case "$slice":
		c, err := parseFindSlice(obj[0].Value)
		if err != nil {
			// mongod then tries the aggregation $slice ({$slice: ["$arr",
			// 2]}), a computed field; the find form's error wins if that
			// fails too.
			var ex compiledExpr
			var exErr error
			if ctx.typ == typeExclusion {
				exErr = mongoerr.New(31252, "Cannot use expression other than $meta in exclusion projection")
			} else {
				ex, exErr = ctx.env.compile(obj)
			}
			if exErr != nil {
				return true, sliceSyntaxError(obj, err, exErr)
			}
			ctx.typ = typeInclusion
			return true, ctx.addAtPath(parent, key, &child{kind: kindExpr, expr: ex, spec: obj})
		}
		if err := ctx.addAtPath(parent, key, c); err != nil {
			return true, err
		}
		ctx.hasFindSlice = true
		return true, nil
	case "$elemMatch":
		spec, ok := obj[0].Value.(bson.D)
		if !ok {
			return true, mongoerr.New(31274, "elemMatch: Invalid argument, object required, but got "+typeName(obj[0].Value))
		}
		if ctx.hasPositional {
			return true, mongoerr.New(31255, "Cannot specify positional operator and $elemMatch.")
		}
		if parentPath != "" || strings.Contains(key, ".") {
			return true, mongoerr.New(31275, "Cannot use $elemMatch projection on a nested field.")
		}
		f, err := query.Compile(bson.D{{Key: key, Value: bson.D{{Key: "$elemMatch", Value: spec}}}},
			// projection_parser.cpp parses the $elemMatch with
			// kBanAllSpecialFeatures.
			query.Options{Now: ctx.opts.Now, LetVars: ctx.opts.LetVars, BanSpecialFeatures: true})
		if err != nil {
			return true, err
		}
		if err := ctx.addAtPath(parent, key, &child{kind: kindElemMatch, elemMatch: f}); err != nil {
			return true, err
		}
		ctx.hasElemMatch = true
		return true, nil
	}
	if !ctx.env.isOperator(op) {
		return false, nil
	}
	return true, ctx.parseExpression(key, obj, parent)
}

// parseExpression is attemptToParseGenericExpression once obj is known to
// be an expression.
func (ctx *parseCtx) parseExpression(key string, obj bson.D, parent *node) error {
	isMeta := obj[0].Key == "$meta"
	if ctx.typ == typeExclusion && !isMeta {
		return mongoerr.New(31252, "Cannot use expression other than $meta in exclusion projection")
	}
	ex, err := ctx.compile(obj)
	if err != nil {
		return err
	}
	if isMeta {
		ctx.hasMeta = true
		ctx.needsTextScore = ctx.needsTextScore || obj[0].Value == "textScore"
	} else {
		ctx.typ = typeInclusion
	}
	return ctx.addAtPath(parent, key, &child{kind: kindExpr, expr: ex, spec: obj})
}

// CompileAddFields parses an $addFields or $set specification, as mongod's
// AddFieldsProjectionExecutor does: every field is computed (a number is
// a value, not an inclusion), and a document whose first field is no
// operator is a level of field names.
func CompileAddFields(spec bson.D, opts Options) (*Projection, error) {
	ctx := &parseCtx{opts: opts, env: newExprContext(opts)}
	root := &node{}
	if err := ctx.parseAddFields(spec, root); err != nil {
		return nil, ctx.finishError(err, "$addFields")
	}
	return &Projection{spec: spec, inclusion: true, addFields: true, root: root, env: ctx.env, indexKey: expr.MentionsMeta(spec, "indexKey"), sortKey: expr.MentionsMeta(spec, "sortKey")}, nil
}

func (ctx *parseCtx) parseAddFields(spec bson.D, parent *node) error {
	for _, e := range spec {
		c := &child{kind: kindExpr, spec: e.Value}
		sub, nested := e.Value.(bson.D)
		nested = nested && len(sub) > 0 && !strings.HasPrefix(sub[0].Key, "$")
		if nested {
			c = &child{kind: kindSubtree, sub: &node{}}
		}
		if err := ctx.addAtPath(parent, e.Key, c); err != nil {
			return err
		}
		if nested {
			if err := ctx.parseAddFields(sub, c.sub); err != nil {
				return err
			}
			continue
		}
		ex, err := ctx.compile(e.Value)
		if err != nil {
			return err
		}
		c.expr = ex
	}
	return nil
}

func parseFindSlice(v any) (*child, error) {
	switch x := v.(type) {
	case int32, int64, float64, bson.Decimal128:
		return &child{kind: kindSlice, limit: numberInt(x)}, nil
	case bson.A:
		if len(x) != 2 {
			return nil, mongoerr.New(31272, "$slice array argument should be of form [skip, limit]")
		}
		if !isNumber(x[0]) {
			return nil, mongoerr.New(31257, "$slice expects the skip argument to be a number, got "+typeName(x[0]))
		}
		if !isNumber(x[1]) {
			return nil, mongoerr.New(31258, "$slice expects the limit argument to be a number, got "+typeName(x[1]))
		}
		limit := numberInt(x[1])
		if limit <= 0 {
			return nil, mongoerr.Newf(31259, "$slice limit must be positive, got %d", limit)
		}
		return &child{kind: kindSlice, skip: numberInt(x[0]), hasSkip: true, limit: limit}, nil
	}
	return nil, mongoerr.New(31273, "$slice only supports numbers and [skip, limit] arrays")
}

// sliceSyntaxError is the error mongod reports when a $slice is neither
// the find form nor a valid aggregation expression: the expression's code,
// with both reasons as context.
func sliceSyntaxError(obj bson.D, findErr, exprErr error) error {
	fe, ee := mongoerr.As(findErr), mongoerr.As(exprErr)
	return mongoerr.New(ee.Code, "Invalid $slice syntax. The given syntax "+formatDoc(obj)+
		" did not match the find() syntax because :: "+fe.CodeName()+": "+fe.Msg+
		" :: The given syntax did not match the expression $slice syntax. :: caused by :: "+ee.Msg)
}
