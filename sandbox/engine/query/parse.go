package query

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The parser follows src/mongo/db/matcher/expression_parser.cpp: the same
// dispatch, the same error codes and messages.

// mongod's location codes for filter parse failures.
const (
	codeFieldPathTooLong = 5729100 // expression_parser.cpp parse: a path of more than BSONDepth::getMaxDepthForUserStorage() parts
	codeWhereCodeWScope  = 4649201 // extensions_callback.cpp extractWhereMatchExpressionParams
)

// level is mongod's DocumentParseLevel: $expr and $text are only allowed
// against the whole document, not inside $elemMatch.
type level int

const (
	levelPredicateTop level = iota
	levelUserDocTop
	levelSubDoc
)

type parser struct{ opts Options }

// bansScriptTextAndGeo: arrayFilters (kBanAllSpecialFeatures) and
// collection validators (collection_impl.cpp parseValidator) are parsed
// without kJavascript, kText and kGeoNear, so $where, $text and the $near
// family are "not allowed in this context" at any depth.
func (p *parser) bansScriptTextAndGeo() bool { return p.opts.BanSpecialFeatures || p.opts.Validator }

func badValue(msg string) error { return mongoerr.New(mongoerr.BadValue, msg) }

func (p *parser) parseDoc(d bson.D, lvl level) (Node, error) {
	next := lvl
	if lvl == levelPredicateTop {
		next = levelUserDocTop
	}
	children := make([]Node, 0, len(d))
	for _, e := range d {
		if strings.HasPrefix(e.Key, "$") {
			n, err := p.parseTopOperator(e.Key, e.Value, lvl)
			if err != nil {
				return nil, err
			}
			if n != nil {
				children = append(children, n)
			}
			continue
		}
		if strings.Count(e.Key, ".")+1 > value.MaxStorageDepth {
			return nil, mongoerr.New(codeFieldPathTooLong, "FieldPath is too long")
		}
		if sub, ok := e.Value.(bson.D); ok && isExpressionDoc(sub, false) {
			ns, err := p.parseSub(e.Key, sub, next)
			if err != nil {
				return nil, err
			}
			children = append(children, ns...)
			continue
		}
		if re, ok := e.Value.(bson.Regex); ok {
			n, err := newRegex(e.Key, re.Pattern, re.Options)
			if err != nil {
				return nil, err
			}
			children = append(children, n)
			continue
		}
		n, err := newCompare(e.Key, "$eq", e.Value)
		if err != nil {
			return nil, err
		}
		children = append(children, n)
	}
	if len(children) == 1 {
		return children[0], nil
	}
	return &And{Children: children}, nil
}

// isExpressionDoc: a non-empty document whose first field starts with $
// and that is not a DBRef ({$ref, $id}).
func isExpressionDoc(d bson.D, allowIncompleteDBRef bool) bool {
	if len(d) == 0 || !strings.HasPrefix(d[0].Key, "$") {
		return false
	}
	hasRef, hasID, hasDB := false, false, false
	for _, e := range d {
		switch e.Key {
		case "$ref":
			hasRef = true
		case "$id":
			hasID = true
		case "$db":
			hasDB = true
		}
	}
	if allowIncompleteDBRef {
		return !(hasRef || hasID || hasDB)
	}
	return !(hasRef && hasID)
}

// pathlessOperators are the operators valid at the top of a filter.
var pathlessOperators = map[string]bool{
	"$and": true, "$or": true, "$nor": true, "$comment": true, "$expr": true,
	"$where": true, "$text": true, "$jsonSchema": true, "$alwaysTrue": true,
	"$alwaysFalse": true, "$id": true, "$ref": true, "$db": true, "$sampleRate": true,
}

func (p *parser) parseTopOperator(name string, v any, lvl level) (Node, error) {
	switch name {
	case "$and", "$or", "$nor":
		arr, ok := v.(bson.A)
		if !ok {
			return nil, badValue(name + " must be an array")
		}
		if len(arr) == 0 {
			return nil, badValue("$and/$or/$nor must be a nonempty array")
		}
		children := make([]Node, 0, len(arr))
		for _, e := range arr {
			d, ok := e.(bson.D)
			if !ok {
				return nil, badValue("$or/$and/$nor entries need to be full objects")
			}
			n, err := p.parseDoc(d, lvl)
			if err != nil {
				return nil, err
			}
			children = append(children, n)
		}
		switch name {
		case "$and":
			return &And{Children: children}, nil
		case "$or":
			return &Or{Children: children}, nil
		}
		return &Nor{Children: children}, nil
	case "$comment":
		return nil, nil
	case "$expr":
		if lvl == levelSubDoc {
			return nil, badValue("$expr can only be applied to the top-level document")
		}
		if p.opts.BanSpecialFeatures {
			return nil, mongoerr.New(mongoerr.QueryFeatureNotAllowed, "$expr is not allowed in this context")
		}
		return compileExpr(v, p.opts)
	case "$where":
		return p.parseWhere(v, lvl)
	case "$text":
		if lvl == levelSubDoc {
			return nil, badValue("$text can only be applied to the top-level document")
		}
		if p.bansScriptTextAndGeo() {
			return nil, badValue("$text is not allowed in this context")
		}
		return nil, mongoerr.New(mongoerr.IndexNotFound, "text index required for $text query")
	case "$jsonSchema":
		return p.parseJSONSchema(v)
	case "$alwaysTrue", "$alwaysFalse":
		n, err := parseIntegerElementToLong(name, v)
		if err != nil {
			return nil, err
		}
		if n != 1 {
			return nil, mongoerr.New(mongoerr.FailedToParse, name+" must be an integer value of 1")
		}
		if name == "$alwaysTrue" {
			return AlwaysTrue{}, nil
		}
		return AlwaysFalse{}, nil
	case "$id", "$ref", "$db":
		return newCompare(name, "$eq", v)
	case "$sampleRate":
		return p.parseSampleRate(v, lvl)
	}
	if name == "$not" {
		return nil, badValue("unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.")
	}
	return nil, badValue("unknown top level operator: " + name +
		". If you have a field name that starts with a '$' symbol, consider using $getField or $setField.")
}

// parseWhere is parseWhere in expression_parser.cpp, then
// ExtensionsCallback::extractWhereMatchExpressionParams
// (extensions_callback.cpp) checking the code's type: only then does
// WhereMatchExpression need the script engine the sandbox has not got, and
// it answers as mongod does when server-side scripting is disabled.
func (p *parser) parseWhere(v any, lvl level) (Node, error) {
	if p.bansScriptTextAndGeo() {
		return nil, badValue("$where is not allowed in this context")
	}
	if lvl == levelSubDoc {
		return nil, badValue("$where can only be applied to the top-level document")
	}
	var code string
	switch x := v.(type) {
	case string:
		code = x
	case bson.JavaScript:
		code = string(x)
	case bson.CodeWithScope:
		return nil, mongoerr.New(codeWhereCodeWScope, "$where no longer supports deprecated BSON type CodeWScope")
	default:
		return nil, badValue("$where got bad type")
	}
	if code == "" {
		return nil, badValue("code for $where cannot be empty")
	}
	return nil, badValue("no globalScriptEngine in $where parsing")
}

// parseSampleRate is {$sampleRate: p}: mongod rewrites it to an $expr
// comparing $rand with p, or to a constant $expr at 0 and 1.
func (p *parser) parseSampleRate(v any, lvl level) (Node, error) {
	if lvl == levelSubDoc {
		return nil, badValue("$sampleRate can only be applied to the top-level document")
	}
	if !value.IsNumber(v) {
		return nil, badValue("argument to $sampleRate must be a numeric type")
	}
	x := value.ToDouble(v)
	if !(x >= 0 && x <= 1) {
		return nil, badValue("numeric argument to $sampleRate must be in [0, 1]")
	}
	var spec any = bson.D{{Key: "$lt", Value: bson.A{bson.D{{Key: "$rand", Value: bson.D{}}}, x}}}
	switch x {
	case 0:
		spec = false
	case 1:
		spec = true
	}
	return compileExpr(spec, p.opts)
}

// parseIntegerElementToLong is MatchExpressionParser::parseIntegerElementToLong,
// BSONElement's ladder with its reasons as FailedToParse.
func parseIntegerElementToLong(name string, v any) (int64, error) {
	n, reason := value.ParseIntegerElementToLong(name, v)
	if reason != "" {
		return 0, mongoerr.New(mongoerr.FailedToParse, reason)
	}
	return n, nil
}

// parseSub parses {path: {$op: arg, ...}} into one node per operator.
func (p *parser) parseSub(path string, sub bson.D, lvl level) ([]Node, error) {
	if len(sub) > 0 {
		switch sub[0].Key {
		case "$near", "$nearSphere", "$geoNear":
			if p.bansScriptTextAndGeo() {
				return nil, mongoerr.New(5626500, "$geoNear, $near, and $nearSphere are not allowed in this context")
			}
			return nil, mongoerr.New(mongoerr.NoQueryExecutionPlans,
				"error processing query: planner returned error :: caused by :: unable to find index for $geoNear query")
		}
	}
	out := make([]Node, 0, len(sub))
	for _, e := range sub {
		n, err := p.parseSubField(sub, path, e.Key, e.Value, lvl)
		if err != nil {
			return nil, err
		}
		if n != nil {
			out = append(out, n)
		}
	}
	return out, nil
}

func (p *parser) parseSubField(context bson.D, path, op string, v any, lvl level) (Node, error) {
	switch op {
	case "$eq":
		return newCompare(path, "$eq", v)
	case "$not":
		return p.parseNot(path, v, lvl)
	case "$ne":
		if _, ok := v.(bson.Regex); ok {
			return nil, badValue("Can't have regex as arg to $ne.")
		}
		eq, err := newCompare(path, "$eq", v)
		if err != nil {
			return nil, err
		}
		return &Not{Path: path, Child: eq}, nil
	case "$_internalExprEq", "$_internalExprGt", "$_internalExprGte", "$_internalExprLt", "$_internalExprLte":
		return newInternalExpr(path, op, v)
	case "$_internalEqHash":
		return newInternalEqHash(path, v)
	case "$lt", "$lte", "$gt", "$gte":
		if _, ok := v.(bson.Regex); ok {
			return nil, badValue("Can't have RegEx as arg to predicate over field '" + path + "'.")
		}
		return newCompare(path, op, v)
	case "$in", "$nin":
		arr, ok := v.(bson.A)
		if !ok {
			return nil, badValue(op + " needs an array")
		}
		in, err := newIn(path, arr)
		if err != nil {
			return nil, err
		}
		if op == "$nin" {
			return &Not{Path: path, Child: in}, nil
		}
		return in, nil
	case "$size":
		return parseSize(path, v)
	case "$exists":
		ex := &Exists{Path: path, Exists: true, parts: splitPath(path)}
		if expr.IsTrue(v) {
			return ex, nil
		}
		return &Not{Path: path, Child: ex}, nil
	case "$type":
		return parseType(path, v)
	case "$mod":
		return parseMod(path, v)
	case "$options":
		for _, e := range context {
			if e.Key == "$regex" {
				return nil, nil
			}
		}
		return nil, badValue("$options needs a $regex")
	case "$regex":
		return parseRegexDocument(path, context)
	case "$elemMatch":
		return p.parseElemMatch(path, v)
	case "$all":
		return p.parseAll(path, v)
	case "$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear":
		return parseBits(path, op, v)
	case "$near", "$nearSphere", "$geoNear":
		// parseSub hands an operator document that starts with one of
		// these to the geo parser; anywhere else it is refused.
		return nil, badValue("near must be first in: " + value.FormatDoc(context))
	case "$geoWithin", "$within", "$geoIntersects":
		return nil, mongoerr.New(mongoerr.NotImplemented, op+" is not supported by the schemalab sandbox")
	case "$where":
		return nil, badValue("$where cannot be applied to a field")
	}
	return nil, badValue("unknown operator: " + op)
}

func newCompare(path, op string, v any) (Node, error) {
	if _, ok := v.(bson.Undefined); ok {
		return nil, badValue("cannot compare to undefined")
	}
	return &Compare{Path: path, Op: op, Value: v, parts: splitPath(path)}, nil
}

func newRegex(path, pattern, options string) (*Regex, error) {
	re, err := compileRegex(pattern, options)
	if err != nil {
		return nil, err
	}
	return &Regex{Path: path, Regex: bson.Regex{Pattern: pattern, Options: options}, parts: splitPath(path), compiled: re}, nil
}

func newIn(path string, arr bson.A) (*In, error) {
	in := &In{Path: path, parts: splitPath(path)}
	for _, e := range arr {
		if d, ok := e.(bson.D); ok && isExpressionDoc(d, false) {
			return nil, badValue("cannot nest $ under $in")
		}
		switch x := e.(type) {
		case bson.Regex:
			re, err := compileRegex(x.Pattern, x.Options)
			if err != nil {
				return nil, err
			}
			in.Regexes = append(in.Regexes, x)
			in.compiled = append(in.compiled, re)
		case bson.Undefined:
			return nil, badValue("InMatchExpression equality cannot be undefined")
		default:
			in.Values = append(in.Values, e)
		}
	}
	return in, nil
}

// parseSize follows BSONElement::parseIntegerElementToNonNegativeInt, whose
// reason mongod prefixes with "Failed to parse $size. ".
func parseSize(path string, v any) (Node, error) {
	n, reason := value.ParseIntegerElementToNonNegativeInt("$size", v)
	if reason != "" {
		return nil, badValue("Failed to parse $size. " + reason)
	}
	return &Size{Path: path, N: n, parts: splitPath(path)}, nil
}

// typeAliases is mongod's kTypeAliasMap plus "number".
var typeAliases = map[string]int{
	"double": value.TypeDouble, "string": value.TypeString, "object": value.TypeObject,
	"array": value.TypeArray, "binData": value.TypeBinData, "undefined": value.TypeUndefined,
	"objectId": value.TypeObjectID, "bool": value.TypeBool, "date": value.TypeDate,
	"null": value.TypeNull, "regex": value.TypeRegex, "dbPointer": value.TypeDBPointer,
	"javascript": value.TypeJavaScript, "symbol": value.TypeSymbol,
	"javascriptWithScope": value.TypeCodeWithScope, "int": value.TypeInt,
	"timestamp": value.TypeTimestamp, "long": value.TypeLong, "decimal": value.TypeDecimal,
	"minKey": value.TypeMinKey, "maxKey": value.TypeMaxKey,
}

func parseType(path string, v any) (Node, error) {
	t := &Type{Path: path, parts: splitPath(path)}
	add := func(e any) error {
		switch x := e.(type) {
		case string:
			if x == "number" {
				t.Number = true
				return nil
			}
			n, ok := typeAliases[x]
			switch {
			case x == "missing":
				// The name $type gives a missing field is not a type
				// to match (matcher_type_set.cpp addAliasToTypeSet).
				return badValue("'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}.")
			case !ok:
				return badValue("Unknown type name alias: " + x)
			}
			t.Types = append(t.Types, n)
			return nil
		case int32, int64, float64, bson.Decimal128:
			// parseIntegerElementToInt, then the message prints
			// elt.number() through a stream (%g: "nan", "1e+20"); 0,
			// EOO, is refused with a hint of its own (parseSingleType).
			l, ok := value.IntegralLong(x)
			n := int(l)
			if ok && n == 0 {
				return badValue("Invalid numerical type code: " + value.FormatStreamDouble(value.ToDouble(x)) + ". Instead use {$exists:false}.")
			}
			if !ok || !validTypeCode(n) {
				return badValue("Invalid numerical type code: " + value.FormatStreamDouble(value.ToDouble(x)))
			}
			t.Types = append(t.Types, n)
			return nil
		}
		return mongoerr.New(mongoerr.TypeMismatch, "type must be represented as a number or a string")
	}
	if arr, ok := v.(bson.A); ok {
		for _, e := range arr {
			if err := add(e); err != nil {
				return nil, err
			}
		}
	} else if err := add(v); err != nil {
		return nil, err
	}
	if len(t.Types) == 0 && !t.Number {
		return nil, mongoerr.New(mongoerr.FailedToParse, path+" must match at least one type")
	}
	return t, nil
}

func validTypeCode(n int) bool {
	return (n >= 1 && n <= 19) || n == value.TypeMinKey || n == value.TypeMaxKey
}

func parseMod(path string, v any) (Node, error) {
	arr, ok := v.(bson.A)
	if !ok {
		return nil, badValue("malformed mod, needs to be an array")
	}
	if len(arr) < 1 {
		return nil, badValue("malformed mod, not enough elements")
	}
	if !value.IsNumber(arr[0]) {
		return nil, badValue("malformed mod, divisor not a number")
	}
	if len(arr) < 2 {
		return nil, badValue("malformed mod, not enough elements")
	}
	if !value.IsNumber(arr[1]) {
		return nil, badValue("malformed mod, remainder not a number")
	}
	if len(arr) > 2 {
		return nil, badValue("malformed mod, too many elements")
	}
	// Both are read with BSONElement::tryCoerce, whose reason follows
	// the context (expression_parser.cpp parseMOD).
	d, reason := value.TryCoerceToLong(arr[0])
	if reason != "" {
		return nil, badValue("malformed mod, divisor value is invalid :: caused by :: " + reason)
	}
	r, reason := value.TryCoerceToLong(arr[1])
	if reason != "" {
		return nil, badValue("malformed mod, remainder value is invalid :: caused by :: " + reason)
	}
	if d == 0 {
		return nil, badValue("divisor cannot be 0")
	}
	return &Mod{Path: path, Divisor: d, Remainder: r, parts: splitPath(path)}, nil
}

// parseRegexDocument reads $regex and $options from the operator document,
// in either order.
func parseRegexDocument(path string, doc bson.D) (Node, error) {
	var pattern, options string
	for _, e := range doc {
		switch e.Key {
		case "$regex":
			switch x := e.Value.(type) {
			case string:
				pattern = x
			case bson.Regex:
				pattern = x.Pattern
				if x.Options != "" {
					if options != "" {
						return nil, mongoerr.New(codeRegexOptionsBoth, "options set in both $regex and $options")
					}
					options = x.Options
				}
			default:
				return nil, badValue("$regex has to be a string")
			}
		case "$options":
			s, ok := e.Value.(string)
			if !ok {
				return nil, badValue("$options has to be a string")
			}
			if options != "" {
				return nil, mongoerr.New(codeRegexOptionsTwice, "options set in both $regex and $options")
			}
			options = s
		}
	}
	return newRegex(path, pattern, options)
}

func (p *parser) parseNot(path string, v any, lvl level) (Node, error) {
	if re, ok := v.(bson.Regex); ok {
		r, err := newRegex(path, re.Pattern, re.Options)
		if err != nil {
			return nil, err
		}
		return &Not{Path: path, Child: r}, nil
	}
	d, ok := v.(bson.D)
	if !ok {
		return nil, badValue("$not needs a regex or a document")
	}
	if len(d) == 0 {
		return nil, badValue("$not cannot be empty")
	}
	children, err := p.parseSub(path, d, lvl)
	if err != nil {
		return nil, err
	}
	if len(children) == 1 {
		return &Not{Path: path, Child: children[0]}, nil
	}
	return &Not{Path: path, Child: &And{Children: children}}, nil
}

func (p *parser) parseElemMatch(path string, v any) (Node, error) {
	obj, ok := v.(bson.D)
	if !ok {
		return nil, badValue("$elemMatch needs an Object")
	}
	// The value form applies when the argument is an operator document
	// whose operators are not the pathless ones ($and, $or, $nor, $where...).
	if isExpressionDoc(obj, true) && !pathlessOperators[obj[0].Key] {
		preds, err := p.parseSub("", obj, levelSubDoc)
		if err != nil {
			return nil, err
		}
		return &ElemMatchValue{Path: path, Predicates: preds, parts: splitPath(path)}, nil
	}
	sub, err := p.parseDoc(obj, levelSubDoc)
	if err != nil {
		return nil, err
	}
	return &ElemMatchObject{Path: path, Filter: optimize(sub), parts: splitPath(path)}, nil
}

func (p *parser) parseAll(path string, v any) (Node, error) {
	arr, ok := v.(bson.A)
	if !ok {
		return nil, badValue("$all needs an array")
	}
	all := &All{Path: path, parts: splitPath(path)}
	if len(arr) > 0 && isElemMatchDoc(arr[0]) {
		for _, e := range arr {
			if !isElemMatchDoc(e) {
				return nil, badValue("$all/$elemMatch has to be consistent")
			}
			n, err := p.parseElemMatch(path, e.(bson.D)[0].Value)
			if err != nil {
				return nil, err
			}
			all.Members = append(all.Members, n)
		}
		return all, nil
	}
	for _, e := range arr {
		switch x := e.(type) {
		case bson.Regex:
			r, err := newRegex(path, x.Pattern, x.Options)
			if err != nil {
				return nil, err
			}
			all.Members = append(all.Members, r)
			continue
		case bson.D:
			if len(x) > 0 && isPathAcceptingKeyword(x[0].Key) {
				return nil, badValue("no $ expressions in $all")
			}
		}
		n, err := newCompare(path, "$eq", e)
		if err != nil {
			return nil, err
		}
		all.Members = append(all.Members, n)
	}
	return all, nil
}

func isElemMatchDoc(v any) bool {
	d, ok := v.(bson.D)
	return ok && len(d) > 0 && d[0].Key == "$elemMatch"
}

func isPathAcceptingKeyword(k string) bool {
	switch k {
	case "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$size", "$exists",
		"$type", "$mod", "$options", "$regex", "$elemMatch", "$all", "$geoWithin", "$within",
		"$geoIntersects", "$near", "$nearSphere", "$geoNear", "$bitsAllSet", "$bitsAllClear",
		"$bitsAnySet", "$bitsAnyClear", "$_internalExprEq", "$_internalExprGt", "$_internalExprGte",
		"$_internalExprLt", "$_internalExprLte", "$_internalEqHash":
		return true
	}
	return false
}
