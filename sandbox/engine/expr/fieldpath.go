package expr

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func splitPath(path string) []string {
	if path == "" {
		return nil
	}
	return strings.Split(path, ".")
}

// walkPath evaluates a dotted path with aggregation's semantics: traversing
// an array maps the rest of the path over its documents (other elements,
// nested arrays included, are skipped; missing results dropped), and
// numeric components are field names, never array indexes.
func walkPath(v any, parts []string) any {
	for i, p := range parts {
		switch c := v.(type) {
		case bson.D:
			v = value.Get(c, p)
		case bson.A:
			return walkArray(c, parts[i:])
		default:
			return value.Missing{}
		}
	}
	return v
}

// walkDoc is walkPath starting from a document, avoiding the boxing of
// the document itself.
func walkDoc(d bson.D, parts []string) any {
	v := value.Get(d, parts[0])
	if len(parts) == 1 {
		return v
	}
	return walkPath(v, parts[1:])
}

func walkArray(a bson.A, parts []string) any {
	out := make(bson.A, 0, len(a))
	for _, e := range a {
		switch c := e.(type) {
		case bson.D:
			r := walkPath(c, parts)
			if !value.IsMissing(r) {
				out = append(out, r)
			}
		}
		// Other elements, nested arrays included, hold no fields: mongod's
		// ExpressionFieldPath::evaluatePathArray skips them.
	}
	return out
}

// fieldPath is "$a.b": a path relative to $$CURRENT.
type fieldPath struct {
	path  string
	parts []string
}

func (f *fieldPath) Eval(env *Env) (any, error) {
	if env.rootCurrent {
		// The common case ($price, $course on the stage's document) reads
		// without allocating.
		if len(f.parts) == 1 {
			return value.Get(env.root, f.parts[0]), nil
		}
		return walkDoc(env.root, f.parts), nil
	}
	return walkPath(env.current, f.parts), nil
}

// varPath is "$$name.rest".
type varPath struct {
	name  string
	parts []string
}

func (v *varPath) Eval(env *Env) (any, error) {
	switch v.name {
	case "CLUSTER_TIME", "JS_SCOPE", "IS_MR":
		// Variables::getValue: the sandbox is a standalone server, which
		// has no cluster time, and only mapReduce sets the other two.
		return nil, mongoerr.Newf(mongoerr.ErrBuiltinVariableUnavailable, "Builtin variable '$$%s' is not available", v.name)
	}
	base := env.lookup(v.name)
	if len(v.parts) == 0 {
		return base, nil
	}
	return walkPath(base, v.parts), nil
}

// validatePathPart applies FieldPath::validateFieldName.
func validatePathPart(p string) error {
	switch {
	case p == "":
		return mongoerr.New(mongoerr.ErrFieldPathEmptyComponent, "FieldPath field names may not be empty strings.")
	case p[0] == '$' && !DollarFieldAllowed(p):
		return mongoerr.New(mongoerr.ErrFieldPathDollarPrefix, "FieldPath field names may not start with '$'. Consider using $getField or $setField.")
	case strings.IndexByte(p, 0) >= 0:
		return mongoerr.New(mongoerr.ErrFieldPathNullByte, "FieldPath field names may not contain '\\0'.")
	}
	return nil
}

func compileFieldPath(s string, scope *Scope) (Expr, error) {
	// ExpressionFieldPath::parse builds a FieldPath, whose validation
	// refuses the NUL (16411); the old removeFieldPrefix check (16419) is
	// not on 8.0's path (jstests/aggregation/expressions/expression_set_field_null_chars.js).
	if strings.IndexByte(s, 0) >= 0 {
		return nil, mongoerr.New(mongoerr.ErrFieldPathNullByte, "FieldPath field names may not contain '\\0'.")
	}
	if strings.HasPrefix(s, "$$") {
		rest := s[2:]
		name, tail, _ := strings.Cut(rest, ".")
		if err := validateVarNameForRead(name); err != nil {
			return nil, err
		}
		if !scope.defined(name) {
			return nil, mongoerr.Newf(mongoerr.ErrUndefinedVariable, "Use of undefined variable: %s", name)
		}
		var parts []string
		if strings.Contains(rest, ".") {
			if tail == "" || strings.HasSuffix(tail, ".") {
				return nil, mongoerr.New(mongoerr.ErrFieldPathTrailingDot, "FieldPath must not end with a '.'.")
			}
			parts = strings.Split(tail, ".")
			for _, p := range parts {
				if err := validatePathPart(p); err != nil {
					return nil, err
				}
			}
		}
		if name == "CURRENT" && len(parts) > 0 {
			return &fieldPath{path: tail, parts: parts}, nil
		}
		if v, ok := scope.letConstant(name); ok && scope.fold && len(parts) == 0 {
			// ExpressionFieldPath::optimize: a variable with a constant
			// value (the command's let) is that value, so an operator
			// that needs a constant argument accepts it (SERVER-77503).
			return constant{v}, nil
		}
		return &varPath{name: name, parts: parts}, nil
	}
	p := s[1:]
	if p == "" {
		return nil, mongoerr.New(mongoerr.ErrFieldPathDollarAlone, "'$' by itself is not a valid FieldPath")
	}
	if strings.HasSuffix(p, ".") {
		return nil, mongoerr.New(mongoerr.ErrFieldPathTrailingDot, "FieldPath must not end with a '.'.")
	}
	parts := strings.Split(p, ".")
	for _, part := range parts {
		if err := validatePathPart(part); err != nil {
			return nil, err
		}
	}
	return &fieldPath{path: p, parts: parts}, nil
}

// validateVarNameForRead is variableValidation::validateNameForUserRead:
// system variables are upper case, user variables start lower case or
// non-ASCII; a bad name is FailedToParse, as in mongod 8.0
// (jstests/aggregation/expressions/let.js).
func validateVarNameForRead(name string) error {
	if name == "" {
		return mongoerr.New(mongoerr.FailedToParse, "empty variable names are not allowed")
	}
	c := name[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
		return mongoerr.Newf(mongoerr.FailedToParse, "'%s' starts with an invalid character for a user variable name", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80) {
			return mongoerr.Newf(mongoerr.FailedToParse, "'%s' contains an invalid character for a variable name: '%c'", name, c)
		}
	}
	return nil
}

// ValidateVarNameForWrite is Variables::validateNameForUserWrite, used by
// $let and by stages that define variables (let in $lookup, commands).
func ValidateVarNameForWrite(name string) error {
	if name == "" {
		return mongoerr.New(mongoerr.FailedToParse, "empty variable names are not allowed")
	}
	if name == "CURRENT" {
		return nil
	}
	c := name[0]
	if !(c >= 'a' && c <= 'z' || c >= 0x80) {
		return mongoerr.Newf(mongoerr.FailedToParse, "'%s' starts with an invalid character for a user variable name", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80) {
			return mongoerr.Newf(mongoerr.FailedToParse, "'%s' contains an invalid character for a variable name: '%c'", name, c)
		}
	}
	return nil
}

// DollarFieldAllowed reports the '$'-prefixed names a FieldPath accepts
// (kAllowedDollarPrefixedFields, src/mongo/db/pipeline/field_path.cpp):
// a DBRef's fields and the metadata fields mongod itself projects, among
// them showRecordId's $recordId.
func DollarFieldAllowed(name string) bool {
	switch name {
	case "$id", "$ref", "$db", "$sortKey", "$recordId", "$searchSortValues", "$searchScore", "$searchRootDocumentId":
		return true
	}
	return false
}
