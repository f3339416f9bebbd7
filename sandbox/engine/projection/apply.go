package projection

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// codePositionalNoMatch is mongod's error when the query matched no array
// element for a positional projection (the find command prefixes it with
// "Executor error during find command :: caused by :: ").
const codePositionalNoMatch = 51246

// errPositionalMismatch is applyFindPositionalProjection's error when the
// matched position lies past the end of the array projected (a parallel
// array shorter than the one the query matched).
func errPositionalMismatch() error {
	return mongoerr.New(51247, "positional operator '.$' element mismatch")
}

// positionalElement is the element at the matched position: 51246 when
// the query recorded none, 51247 when arr has no element there.
func (a *applier) positionalElement(arr bson.A) (any, error) {
	if a.pos < 0 {
		return nil, errPositionalNoMatch()
	}
	if a.pos >= len(arr) {
		return nil, errPositionalMismatch()
	}
	return arr[a.pos], nil
}

func errPositionalNoMatch() error {
	return mongoerr.New(codePositionalNoMatch, "positional operator '.$' couldn't find a matching element in the array")
}

// Apply projects doc. positionalIndex is the array index reported by
// query.Filter.MatchPosition (only used when NeedsPosition). doc is never
// modified; the result may share unchanged values with it, so treat it as
// read-only.
func (p *Projection) Apply(doc bson.D, positionalIndex int) (bson.D, error) {
	return p.ApplyMeta(nil, doc, positionalIndex, nil, 0, nil)
}

// ApplyMeta is Apply for a command whose context ctx gives (nil for
// none): its expressions stop, as aggregation's do, when the command is
// interrupted or its maxTimeMS passes. indexKey is the document's index
// key metadata (nil for none), which {$meta: "indexKey"} returns, and rid
// its record id (0 for none), which {$meta: "recordId"} returns; sortKey
// is its sort key (nil for none), which {$meta: "sortKey"} returns.
func (p *Projection) ApplyMeta(ctx func() context.Context, doc bson.D, positionalIndex int, indexKey bson.D, rid int64, sortKey bson.A) (bson.D, error) {
	if p.topLevelOnly {
		return p.keepTopLevel(doc), nil
	}
	return p.apply(&applier{root: doc, pos: positionalIndex, ev: evaluator{ctx: p.env, cmdCtx: ctx, indexKey: indexKey, recordID: rid, sortKey: sortKey}}, doc)
}

// ApplyEnv is Apply for an aggregation stage: its expressions evaluate in
// env, which the caller has pointed at doc.
func (p *Projection) ApplyEnv(doc bson.D, env *expr.Env) (bson.D, error) {
	return p.apply(&applier{root: doc, pos: -1, ev: evaluator{ctx: p.env, env: env}}, doc)
}

func (p *Projection) apply(a *applier, doc bson.D) (bson.D, error) {
	switch {
	case p.addFields:
		out := make(bson.D, len(doc), len(doc)+len(p.root.children))
		copy(out, doc)
		return a.addComputed(p.root, out, doc)
	case !p.inclusion:
		// ProjectionNode::applyToDocument: an exclusion's expressions
		// (only $meta is allowed) are set after the removals, in place
		// when the field is there, else at the end.
		out, err := a.excludeDoc(p.root, doc)
		if err != nil || !p.computes {
			return out, err
		}
		return a.addComputed(p.root, out, doc)
	}
	out, err := a.projectDoc(p.root, doc)
	if err != nil || !p.computes {
		return out, err
	}
	return a.addComputed(p.root, out, doc)
}

// keepTopLevel is the whole projection when it only keeps top-level
// fields (the projection a pipeline pushes below itself for every
// document): one pass to size the result, one to fill it.
func (p *Projection) keepTopLevel(doc bson.D) bson.D {
	n := 0
	for _, e := range doc {
		if c := p.root.get(e.Key); c != nil && c.kind == kindInclude {
			n++
		}
	}
	out := make(bson.D, 0, n)
	for _, e := range doc {
		if c := p.root.get(e.Key); c != nil && c.kind == kindInclude {
			out = append(out, e)
		}
	}
	return out
}

type applier struct {
	root bson.D
	pos  int
	ev   evaluator
	// inNestedArray is set below an array held by an array: find's $slice
	// goes only one array level deep, so there it leaves values as they are
	// (jstests/core/query/project/slice1.js), while inclusion, exclusion and
	// expressions still apply.
	inNestedArray bool
}

// descend runs fn on an element of an array, marking the way as nested
// when the element is an array itself.
func (a *applier) descend(el any, fn func() (any, error)) (any, error) {
	if _, isArray := el.(bson.A); !isArray || a.inNestedArray {
		return fn()
	}
	a.inNestedArray = true
	defer func() { a.inNestedArray = false }()
	return fn()
}

// projectDoc keeps the included fields of d in document order (mongod's
// InclusionNode::applyProjections); computed fields come afterwards.
func (a *applier) projectDoc(n *node, d bson.D) (bson.D, error) {
	out := make(bson.D, 0, len(n.children))
	for _, e := range d {
		c := n.get(e.Key)
		if c == nil {
			continue
		}
		switch c.kind {
		case kindInclude:
			out = append(out, e)
		case kindSubtree:
			v, err := a.projectValue(c.sub, e.Value)
			if err != nil {
				return nil, err
			}
			if !value.IsMissing(v) {
				out = append(out, bson.E{Key: e.Key, Value: v})
			}
		case kindSlice:
			out = append(out, bson.E{Key: e.Key, Value: a.slice(e.Value, c)})
		case kindPositional:
			v, err := a.positional(e.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, bson.E{Key: e.Key, Value: v})
		}
	}
	return out, nil
}

// projectValue applies a sub-projection to a value: documents are
// projected, arrays element by element, and a scalar where a document was
// expected disappears. In an array a scalar is dropped too, unless the
// sub-projection computes fields: then it keeps its place as Missing, which
// computedValue turns into a document of the computed fields, as mongod's
// applyExpressionsToValue does ("a.b": 1, "a.c": "x" over a: [1, {b: 2}]
// gives [{c: "x"}, {b: 2, c: "x"}]).
func (a *applier) projectValue(n *node, v any) (any, error) {
	switch x := v.(type) {
	case bson.D:
		return a.projectDoc(n, x)
	case bson.A:
		if n.hasPositional() && a.pos != -2 {
			// The positional operator selects one element of the first
			// array on its path.
			matched, err := a.positionalElement(x)
			if err != nil {
				return nil, err
			}
			saved := a.pos
			a.pos = -2
			defer func() { a.pos = saved }()
			el, err := a.projectValue(n, matched)
			if err != nil {
				return nil, err
			}
			if value.IsMissing(el) {
				return bson.A{}, nil
			}
			return bson.A{el}, nil
		}
		out := make(bson.A, 0, len(x))
		for _, el := range x {
			switch el.(type) {
			case bson.D, bson.A:
				pv, err := a.descend(el, func() (any, error) { return a.projectValue(n, el) })
				if err != nil {
					return nil, err
				}
				out = append(out, pv)
			default:
				if n.hasComputed() {
					out = append(out, value.Missing{})
				}
			}
		}
		return out, nil
	}
	return value.Missing{}, nil
}

func (a *applier) positional(v any) (any, error) {
	arr, ok := v.(bson.A)
	if !ok || a.pos == -2 {
		return v, nil
	}
	el, err := a.positionalElement(arr)
	if err != nil {
		return nil, err
	}
	return bson.A{el}, nil
}

func (n *node) hasPositional() bool {
	for _, c := range n.children {
		if c.kind == kindPositional || (c.kind == kindSubtree && c.sub.hasPositional()) {
			return true
		}
	}
	return false
}

func (n *node) hasComputed() bool {
	for _, c := range n.children {
		if c.kind == kindExpr || (c.kind == kindSubtree && c.sub.hasComputed()) {
			return true
		}
	}
	return false
}

// addComputed appends the computed fields ($elemMatch results and
// expressions) in projection order, after the included fields, as mongod's
// InclusionNode::addComputedFields does. out is owned by the caller.
func (a *applier) addComputed(n *node, out bson.D, input bson.D) (bson.D, error) {
	for _, c := range n.children {
		switch c.kind {
		case kindExpr:
			v, err := a.ev.eval(c.expr, a.root)
			if err != nil {
				return nil, err
			}
			out = setField(out, c.name, v)
		case kindElemMatch:
			v := getField(input, c.name)
			arr, ok := v.(bson.A)
			if !ok {
				continue
			}
			matched, idx := c.elemMatch.MatchPosition(bson.D{{Key: c.name, Value: arr}})
			if matched && idx >= 0 && idx < len(arr) {
				out = setField(out, c.name, bson.A{arr[idx]})
			}
		case kindSubtree:
			if !c.sub.hasComputed() {
				continue
			}
			v, err := a.computedValue(c.sub, getField(out, c.name))
			if err != nil {
				return nil, err
			}
			out = setField(out, c.name, v)
		}
	}
	return out, nil
}

// computedValue adds a subtree's computed fields to the projected value:
// into a copy of a document, into each element of an array, and into a
// new document replacing anything else.
func (a *applier) computedValue(n *node, v any) (any, error) {
	switch x := v.(type) {
	case bson.D:
		out := make(bson.D, len(x), len(x)+len(n.children))
		copy(out, x)
		return a.addComputed(n, out, nil)
	case bson.A:
		out := make(bson.A, len(x))
		for i, el := range x {
			cv, err := a.computedValue(n, el)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	}
	return a.addComputed(n, bson.D{}, nil)
}

// excludeDoc removes the excluded fields, keeping everything else in
// place (mongod's ExclusionNode).
func (a *applier) excludeDoc(n *node, d bson.D) (bson.D, error) {
	out := make(bson.D, 0, len(d))
	for _, e := range d {
		c := n.get(e.Key)
		if c == nil {
			out = append(out, e)
			continue
		}
		switch c.kind {
		case kindExclude:
		case kindSubtree:
			v, err := a.excludeValue(c.sub, e.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, bson.E{Key: e.Key, Value: v})
		case kindSlice:
			out = append(out, bson.E{Key: e.Key, Value: a.slice(e.Value, c)})
		case kindElemMatch:
			if arr, ok := e.Value.(bson.A); ok {
				matched, idx := c.elemMatch.MatchPosition(bson.D{{Key: c.name, Value: arr}})
				if matched && idx >= 0 && idx < len(arr) {
					out = append(out, bson.E{Key: e.Key, Value: bson.A{arr[idx]}})
				}
			}
		default:
			out = append(out, e)
		}
	}
	return out, nil
}

func (a *applier) excludeValue(n *node, v any) (any, error) {
	switch x := v.(type) {
	case bson.D:
		return a.excludeDoc(n, x)
	case bson.A:
		out := make(bson.A, len(x))
		for i, el := range x {
			ev, err := a.descend(el, func() (any, error) { return a.excludeValue(n, el) })
			if err != nil {
				return nil, err
			}
			out[i] = ev
		}
		return out, nil
	}
	return v, nil
}

// slice is the find $slice: n first (or last, when negative) elements, or
// [skip, limit] with a negative skip counting from the end. Non-arrays, and
// values below a nested array, are returned unchanged.
func (a *applier) slice(v any, c *child) any {
	arr, ok := v.(bson.A)
	if !ok || a.inNestedArray {
		return v
	}
	n := len(arr)
	if !c.hasSkip {
		if c.limit >= 0 {
			return arr[:min(c.limit, n)]
		}
		return arr[max(n+c.limit, 0):]
	}
	start := c.skip
	if start < 0 {
		start = max(n+start, 0)
	}
	start = min(start, n)
	end := min(start+c.limit, n)
	return arr[start:end]
}

func getField(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return value.Missing{}
}

// setField replaces or appends a field; a Missing value removes it, as
// $$REMOVE does in a projection.
func setField(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			if value.IsMissing(v) {
				return append(d[:i:i], d[i+1:]...)
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
