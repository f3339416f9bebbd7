package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The projection tree shared by $project, $addFields/$set and $unset,
// modelled on mongod's ProjectionNode: fields are included, excluded,
// computed, or a child node for a dotted path or nested spec.

type fieldKind uint8

const (
	kindInclude fieldKind = iota
	kindExclude
	kindComputed
	kindChild
)

type projField struct {
	name  string
	kind  fieldKind
	spec  any // the computed expression's spec, for explain
	x     expr.Expr
	child *projNode
}

type projNode struct {
	fields      []*projField
	hasComputed bool // the subtree holds computed fields
}

func (n *projNode) get(name string) *projField {
	for _, f := range n.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

type projMode uint8

const (
	modeInclusion projMode = iota
	modeExclusion
	modeAddFields
)

type projectStage struct {
	name      string // "$project", "$addFields", "$set", "$unset"
	mode      projMode
	root      *projNode
	excludeID bool // inclusion mode: _id: 0 was given
	userSpec  any
}

func projErr(code int32, format string, args ...any) error {
	return mongoerr.Newf(code, "Invalid $project :: caused by :: "+format, args...)
}

func parseProject(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(15969, "$project specification must be an object")
	}
	if len(d) == 0 {
		return nil, projErr(51272, "projection specification must have at least one field")
	}
	s := &projectStage{name: "$project", root: &projNode{}, userSpec: d}
	modeSet := false
	if err := s.parseLevel(d, s.root, "", p, &modeSet); err != nil {
		return nil, err
	}
	if !modeSet {
		// Only _id was given: _id: 0 makes an exclusion, _id: 1 an inclusion.
		if f := s.root.get("_id"); f != nil && f.kind == kindExclude {
			s.mode = modeExclusion
		}
	}
	if s.mode == modeInclusion {
		if f := s.root.get("_id"); f != nil && f.kind == kindExclude {
			s.excludeID = true
			s.root.fields = removeField(s.root.fields, "_id")
		}
	}
	return []Stage{s}, nil
}

func removeField(fs []*projField, name string) []*projField {
	out := fs[:0]
	for _, f := range fs {
		if f.name != name {
			out = append(out, f)
		}
	}
	return out
}

func isIncludeValue(v any) (include, ok bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case int32:
		return x != 0, true
	case int64:
		return x != 0, true
	case float64:
		return x != 0, true
	case bson.Decimal128:
		f, _ := decimalToFloat(x)
		return f != 0, true
	}
	return false, false
}

func validateFieldName(path string) error {
	if path == "" {
		return mongoerr.New(40352, "FieldPath cannot be constructed with empty string")
	}
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			return mongoerr.New(15998, "FieldPath field names may not be empty strings.")
		}
		if part[0] == '$' {
			return mongoerr.Newf(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.")
		}
	}
	return nil
}

// nodeFor walks (creating) the child nodes for a dotted path and returns
// the node holding its last component.
func nodeFor(root *projNode, path string, full string) (*projNode, string, error) {
	parts := strings.Split(path, ".")
	n := root
	for _, part := range parts[:len(parts)-1] {
		f := n.get(part)
		if f == nil {
			f = &projField{name: part, kind: kindChild, child: &projNode{}}
			n.fields = append(n.fields, f)
		} else if f.kind != kindChild {
			return nil, "", projErr(31250, "Path collision at %s", full)
		}
		n = f.child
	}
	last := parts[len(parts)-1]
	if f := n.get(last); f != nil {
		if f.kind == kindChild {
			return nil, "", projErr(31249, "Path collision at %s remaining portion %s", full, last)
		}
		return nil, "", projErr(31250, "Path collision at %s", full)
	}
	return n, last, nil
}

func (s *projectStage) parseLevel(d bson.D, node *projNode, prefix string, p *parser, modeSet *bool) error {
	for _, e := range d {
		if err := validateFieldName(e.Key); err != nil {
			return err
		}
		full := prefix + e.Key
		isTopID := full == "_id"
		if sub, ok := e.Value.(bson.D); ok && (len(sub) == 0 || !strings.HasPrefix(sub[0].Key, "$")) {
			if len(sub) == 0 {
				return projErr(51270, "An empty sub-projection is not a valid value. Found empty object at path")
			}
			n, last, err := nodeFor(node, e.Key, full)
			if err != nil {
				return err
			}
			f := &projField{name: last, kind: kindChild, child: &projNode{}}
			n.fields = append(n.fields, f)
			if err := s.parseLevel(sub, f.child, full+".", p, modeSet); err != nil {
				return err
			}
			continue
		}
		n, last, err := nodeFor(node, e.Key, full)
		if err != nil {
			return err
		}
		f := &projField{name: last}
		if include, ok := isIncludeValue(e.Value); ok {
			if include {
				f.kind = kindInclude
			} else {
				f.kind = kindExclude
			}
		} else {
			f.kind = kindComputed
			f.spec = e.Value
			x, err := p.compile(e.Value)
			if err != nil {
				return err
			}
			f.x = x
		}
		if !isTopID || f.kind == kindComputed {
			switch {
			case !*modeSet:
				*modeSet = true
				if f.kind == kindExclude {
					s.mode = modeExclusion
				} else {
					s.mode = modeInclusion
				}
			case s.mode == modeInclusion && f.kind == kindExclude:
				return projErr(31254, "Cannot do exclusion on field %s in inclusion projection", full)
			case s.mode == modeExclusion && f.kind == kindInclude:
				return projErr(31253, "Cannot do inclusion on field %s in exclusion projection", full)
			case s.mode == modeExclusion && f.kind == kindComputed:
				return projErr(31252, "Cannot use expression other than $meta in exclusion projection")
			}
		}
		n.fields = append(n.fields, f)
	}
	markComputed(node)
	return nil
}

func markComputed(n *projNode) bool {
	any := false
	for _, f := range n.fields {
		switch f.kind {
		case kindComputed:
			any = true
		case kindChild:
			if markComputed(f.child) {
				any = true
			}
		}
	}
	n.hasComputed = any
	return any
}

func parseAddFields(name string) stageParser {
	return func(spec any, p *parser) ([]Stage, error) {
		d, ok := spec.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(40272, "%s specification stage must be an object, got %s", name, typeNameOf(spec))
		}
		if len(d) == 0 {
			// ProjectionSpecValidator, with DocumentSourceAddFields' context.
			return nil, mongoerr.Newf(40177, "Invalid %s :: caused by :: specification must have at least one field", name)
		}
		s := &projectStage{name: name, mode: modeAddFields, root: &projNode{}, userSpec: d}
		if err := parseAddFieldsLevel(d, s.root, "", p); err != nil {
			return nil, err
		}
		markComputed(s.root)
		return []Stage{s}, nil
	}
}

func parseAddFieldsLevel(d bson.D, node *projNode, prefix string, p *parser) error {
	for _, e := range d {
		if err := validateFieldName(e.Key); err != nil {
			return err
		}
		full := prefix + e.Key
		n, last, err := nodeFor(node, e.Key, full)
		if err != nil {
			return err
		}
		if sub, ok := e.Value.(bson.D); ok && len(sub) > 0 && !strings.HasPrefix(sub[0].Key, "$") {
			f := &projField{name: last, kind: kindChild, child: &projNode{}}
			n.fields = append(n.fields, f)
			if err := parseAddFieldsLevel(sub, f.child, full+".", p); err != nil {
				return err
			}
			continue
		}
		x, err := p.compile(e.Value)
		if err != nil {
			return err
		}
		n.fields = append(n.fields, &projField{name: last, kind: kindComputed, spec: e.Value, x: x})
	}
	return nil
}

func parseUnset(spec any, p *parser) ([]Stage, error) {
	var fields []string
	switch x := spec.(type) {
	case string:
		fields = []string{x}
	case bson.A:
		if len(x) == 0 {
			return nil, mongoerr.New(31119, "$unset specification must be a string or an array with at least one field")
		}
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, mongoerr.New(31120, "$unset specification must be a string or an array containing only string values")
			}
			fields = append(fields, s)
		}
	default:
		return nil, mongoerr.New(31002, "$unset specification must be a string or an array")
	}
	s := &projectStage{name: "$unset", mode: modeExclusion, root: &projNode{}, userSpec: spec}
	for _, f := range fields {
		if err := validateFieldName(f); err != nil {
			return nil, err
		}
		n, last, err := nodeFor(s.root, f, f)
		if err != nil {
			return nil, err
		}
		n.fields = append(n.fields, &projField{name: last, kind: kindExclude})
	}
	return []Stage{s}, nil
}

func (s *projectStage) Name() string {
	if s.name == "$unset" {
		return "$project"
	}
	return s.name
}

// Spec renders the stage as mongod's explain does: inclusions and
// exclusions as true/false, _id made explicit for $project.
func (s *projectStage) Spec() bson.D {
	body := serializeNode(s.root)
	switch s.mode {
	case modeInclusion:
		if s.excludeID {
			body = append(bson.D{{Key: "_id", Value: false}}, body...)
		} else if s.root.get("_id") == nil {
			body = append(bson.D{{Key: "_id", Value: true}}, body...)
		}
	case modeExclusion:
		if s.root.get("_id") == nil {
			body = append(body, bson.E{Key: "_id", Value: true})
		}
	}
	return stageSpec(s.Name(), body)
}

func serializeNode(n *projNode) bson.D {
	out := bson.D{}
	for _, f := range n.fields {
		switch f.kind {
		case kindInclude:
			out = append(out, bson.E{Key: f.name, Value: true})
		case kindExclude:
			out = append(out, bson.E{Key: f.name, Value: false})
		case kindComputed:
			out = append(out, bson.E{Key: f.name, Value: f.spec})
		case kindChild:
			out = append(out, bson.E{Key: f.name, Value: serializeNode(f.child)})
		}
	}
	return out
}

func (s *projectStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return openTransformer(s, in, rt), nil
}

func (s *projectStage) transform(d bson.D, env *expr.Env) (bson.D, error) {
	if s.root.hasComputed {
		env.Reset(d)
	}
	switch s.mode {
	case modeExclusion:
		return excludeDoc(d, s.root), nil
	case modeInclusion:
		out := includeDoc(d, s.root, !s.excludeID)
		if s.root.hasComputed {
			return applyComputed(out, s.root, env)
		}
		return out, nil
	default:
		out := make(bson.D, len(d), len(d)+len(s.root.fields))
		copy(out, d)
		return applyComputed(out, s.root, env)
	}
}

func excludeDoc(d bson.D, n *projNode) bson.D {
	out := make(bson.D, 0, len(d))
	for _, e := range d {
		f := n.get(e.Key)
		if f == nil {
			out = append(out, e)
			continue
		}
		switch f.kind {
		case kindExclude:
			continue
		case kindChild:
			out = append(out, bson.E{Key: e.Key, Value: excludeValue(e.Value, f.child)})
		default:
			out = append(out, e)
		}
	}
	return out
}

func excludeValue(v any, n *projNode) any {
	switch x := v.(type) {
	case bson.D:
		return excludeDoc(x, n)
	case bson.A:
		a := make(bson.A, len(x))
		for i, e := range x {
			a[i] = excludeValue(e, n)
		}
		return a
	}
	return v
}

// includeDoc keeps the included fields in the input's order; computed
// fields are added afterwards by applyComputed.
func includeDoc(d bson.D, n *projNode, keepID bool) bson.D {
	out := make(bson.D, 0, len(n.fields)+1)
	for _, e := range d {
		f := n.get(e.Key)
		if f == nil {
			if keepID && e.Key == "_id" {
				out = append(out, e)
			}
			continue
		}
		switch f.kind {
		case kindInclude:
			out = append(out, e)
		case kindChild:
			if v, ok := includeValue(e.Value, f.child); ok {
				out = append(out, bson.E{Key: e.Key, Value: v})
			}
		}
	}
	return out
}

// includeValue applies a child inclusion to a value: documents are
// projected, arrays element by element, and other values dropped. When the
// node also computes fields, a dropped array element keeps its place as
// Missing, which computedValue turns into a document of the computed
// fields, as mongod's applyExpressionsToValue does ("a.b": 1, "a.c": "x"
// over a: [1, {b: 2}] gives [{c: "x"}, {b: 2, c: "x"}]).
func includeValue(v any, n *projNode) (any, bool) {
	switch x := v.(type) {
	case bson.D:
		return includeDoc(x, n, false), true
	case bson.A:
		a := make(bson.A, 0, len(x))
		for _, e := range x {
			if pv, ok := includeValue(e, n); ok {
				a = append(a, pv)
			} else if n.hasComputed {
				a = append(a, value.Missing{})
			}
		}
		return a, true
	}
	return nil, false
}

// applyComputed evaluates the computed fields of n, in spec order, into
// out (which the caller owns): an existing field is replaced in place, a
// new one appended, and $$REMOVE (Missing) removes it.
func applyComputed(out bson.D, n *projNode, env *expr.Env) (bson.D, error) {
	for _, f := range n.fields {
		switch f.kind {
		case kindComputed:
			v, err := f.x.Eval(env)
			if err != nil {
				return nil, err
			}
			out = setInPlace(out, f.name, v)
		case kindChild:
			if !f.child.hasComputed {
				continue
			}
			v, err := computedValue(value.Get(out, f.name), f.child, env)
			if err != nil {
				return nil, err
			}
			out = setInPlace(out, f.name, v)
		}
	}
	return out, nil
}

func computedValue(v any, n *projNode, env *expr.Env) (any, error) {
	switch x := v.(type) {
	case bson.D:
		c := make(bson.D, len(x), len(x)+len(n.fields))
		copy(c, x)
		return applyComputed(c, n, env)
	case bson.A:
		a := make(bson.A, len(x))
		for i, e := range x {
			r, err := computedValue(e, n, env)
			if err != nil {
				return nil, err
			}
			a[i] = r
		}
		return a, nil
	}
	return applyComputed(bson.D{}, n, env)
}

// setInPlace sets key in a document the caller owns.
func setInPlace(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			if value.IsMissing(v) {
				return append(d[:i], d[i+1:]...)
			}
			d[i].Value = v
			return d
		}
	}
	if value.IsMissing(v) {
		return d
	}
	return append(d, bson.E{Key: key, Value: v})
}
