package update

import (
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// node is one node of the update tree. apply receives the current value of
// the element at the context's path (Missing when absent) and returns its
// new value; Missing means "remove the field". changed=false is a no-op.
type node interface {
	apply(c *applyCtx, v any, exists bool) (any, bool, error)
}

// applyCtx is the per-document state of one tree walk.
type applyCtx struct {
	doc     bson.D // the document as it was before the update
	matched string // the positional $ index, "" when the query matched none
	insert  bool
	now     bson.DateTime
	clock   *ClusterClock
	filters map[string]*arrayFilter
	path    []string
	inArray []bool // inArray[i]: path[i] is an index into an array
	values  []any  // values[i]: the element at path[:i+1] when it exists
	taken   int    // how many leading path parts exist in the document
	renames [][]string

	// Backing storage so that typical paths cost no allocation.
	pathBuf    [8]string
	inArrayBuf [8]bool
	valuesBuf  [8]any
}

func (c *applyCtx) push(name string, isIndex, exists bool, v any) (prevTaken int) {
	prevTaken = c.taken
	c.path = append(c.path, name)
	c.inArray = append(c.inArray, isIndex)
	c.values = append(c.values, v)
	if exists && c.taken == len(c.path)-1 {
		c.taken = len(c.path)
	}
	return prevTaken
}

func (c *applyCtx) pop(prevTaken int) {
	c.path = c.path[:len(c.path)-1]
	c.inArray = c.inArray[:len(c.inArray)-1]
	c.values = c.values[:len(c.values)-1]
	c.taken = prevTaken
}

func (c *applyCtx) dotted() string { return strings.Join(c.path, ".") }

// idString is how mongod names the document in error messages: "_id: 1",
// or "no id".
func (c *applyCtx) idString() string {
	id := value.Get(c.doc, "_id")
	if value.IsMissing(id) {
		return "no id"
	}
	return elemString("_id", id)
}

// checkViability is mongod's UpdateLeafNode::checkViability, for modifiers
// that never create a path ($pop, $pull, $pullAll): a missing path is a
// no-op unless it runs through a scalar (or a field name on an array).
func (c *applyCtx) checkViability() error {
	if c.taken == 0 || c.taken == len(c.path) {
		return nil
	}
	elem := c.values[c.taken-1]
	switch elem.(type) {
	case bson.D:
		return nil
	case bson.A:
		if _, ok := arrayIndex(c.path[c.taken]); ok {
			return nil
		}
	}
	return mongoerr.Newf(mongoerr.PathNotViable, "Cannot use the part (%s) of (%s) to traverse the element ({%s})",
		c.path[c.taken], c.dotted(), elemString(c.path[c.taken-1], elem))
}

type namedChild struct {
	name string
	n    node
}

// objectNode is an internal node for a document field (or array index)
// path component, mongod's UpdateObjectNode.
type objectNode struct {
	children   []namedChild // kept sorted by lessPathComponent
	positional node
}

// arrayNode holds the $[] and $[<id>] children of an array field, mongod's
// UpdateArrayNode. A child named "" is $[].
type arrayNode struct {
	children []namedChild
}

func (n *objectNode) child(name string) node {
	if name == "$" {
		return n.positional
	}
	for _, ch := range n.children {
		if ch.name == name {
			return ch.n
		}
	}
	return nil
}

func (n *objectNode) setChild(name string, child node) {
	if name == "$" {
		n.positional = child
		return
	}
	i, _ := slices.BinarySearchFunc(n.children, name, func(c namedChild, name string) int {
		return comparePathComponents(c.name, name)
	})
	n.children = slices.Insert(n.children, i, namedChild{name, child})
}

func (n *arrayNode) child(name string) node {
	for _, ch := range n.children {
		if ch.name == name {
			return ch.n
		}
	}
	return nil
}

func (n *arrayNode) setChild(name string, child node) {
	n.children = append(n.children, namedChild{name, child})
	slices.SortFunc(n.children, func(a, b namedChild) int { return comparePathComponents(a.name, b.name) })
}

// comparePathComponents is mongod's cmpPathsAndArrayIndexes: numbers in
// numeric order (so "a.2" applies before "a.10"), everything else bytewise.
func comparePathComponents(a, b string) int {
	digit := func(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
	if !digit(a) || !digit(b) || (a[0] == '0' && len(a) > 1) || (b[0] == '0' && len(b) > 1) {
		return strings.Compare(a, b)
	}
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// arrayIndex parses a path component as an array index (mongod's
// parseUnsignedBase10Integer), up to nine digits.
func arrayIndex(s string) (int, bool) {
	if len(s) > 9 {
		return 0, false
	}
	return value.ParseUnsignedBase10(s)
}

func (n *objectNode) apply(c *applyCtx, v any, exists bool) (any, bool, error) {
	if n.positional != nil && c.matched == "" {
		return nil, false, mongoerr.New(mongoerr.BadValue, "The positional operator did not find the match needed from the query.")
	}
	switch cur := v.(type) {
	case bson.D:
		return n.applyDoc(c, cur)
	case bson.A:
		return n.applyArray(c, cur)
	}
	return n.applyAbsent(c, v, exists)
}

// each visits the children in application order: the sorted children, then
// the positional child under the matched index.
func (n *objectNode) each(c *applyCtx, fn func(name string, child node) error) error {
	positionalDone := false
	for _, ch := range n.children {
		child := ch.n
		if n.positional != nil && ch.name == c.matched {
			merged, err := mergeNodes(child, n.positional, append(slices.Clone(c.path), ch.name))
			if err != nil {
				return err
			}
			child, positionalDone = merged, true
		}
		if err := fn(ch.name, child); err != nil {
			return err
		}
	}
	if n.positional != nil && !positionalDone {
		return fn(c.matched, n.positional)
	}
	return nil
}

// mergeNodes combines two subtrees that apply to the same element (a
// positional $ child and a named child, or two $[<id>] children matching
// one array element), mongod's UpdateNode::createUpdateNodeByMerging.
func mergeNodes(a, b node, path []string) (node, error) {
	switch x := a.(type) {
	case *objectNode:
		if y, ok := b.(*objectNode); ok {
			out := &objectNode{}
			if err := mergeChildren(x.children, y.children, path, false, out.setChild); err != nil {
				return nil, err
			}
			switch {
			case x.positional != nil && y.positional != nil:
				p, err := mergeNodes(x.positional, y.positional, append(path, "$"))
				if err != nil {
					return nil, err
				}
				out.positional = p
			case x.positional != nil:
				out.positional = x.positional
			default:
				out.positional = y.positional
			}
			return out, nil
		}
	case *arrayNode:
		if y, ok := b.(*arrayNode); ok {
			out := &arrayNode{}
			return out, mergeChildren(x.children, y.children, path, true, out.setChild)
		}
	}
	return nil, mongoerr.Newf(mongoerr.ConflictingUpdateOperators, "Update created a conflict at '%s'", strings.Join(path, "."))
}

func mergeChildren(left, right []namedChild, path []string, identifiers bool, set func(string, node)) error {
	for _, l := range left {
		merged := l.n
		for _, r := range right {
			if r.name != l.name {
				continue
			}
			part := l.name
			if identifiers {
				part = "$[" + part + "]"
			}
			m, err := mergeNodes(l.n, r.n, append(slices.Clone(path), part))
			if err != nil {
				return err
			}
			merged = m
		}
		set(l.name, merged)
	}
	for _, r := range right {
		if !slices.ContainsFunc(left, func(l namedChild) bool { return l.name == r.name }) {
			set(r.name, r.n)
		}
	}
	return nil
}

// applyAbsent handles a path component whose element is missing or is a
// scalar: children may only create fields below a missing element.
func (n *objectNode) applyAbsent(c *applyCtx, v any, exists bool) (any, bool, error) {
	var created bson.D
	err := n.each(c, func(name string, child node) error {
		prev := c.push(name, false, false, nil)
		nv, changed, err := child.apply(c, value.Missing{}, false)
		c.pop(prev)
		if err != nil || !changed || value.IsMissing(nv) {
			return err
		}
		if exists {
			return cannotCreate(c, name, v)
		}
		created = append(created, bson.E{Key: name, Value: nv})
		return nil
	})
	if err != nil || created == nil {
		return v, false, err
	}
	return created, true, nil
}

func cannotCreate(c *applyCtx, name string, in any) error {
	return mongoerr.Newf(mongoerr.PathNotViable, "Cannot create field '%s' in element {%s}",
		name, elemString(c.path[len(c.path)-1], in))
}

func (n *objectNode) applyDoc(c *applyCtx, cur bson.D) (any, bool, error) {
	out, copied, changed := cur, false, false
	err := n.each(c, func(name string, child node) error {
		idx := -1
		for i := range out {
			if out[i].Key == name {
				idx = i
				break
			}
		}
		var cv any = value.Missing{}
		if idx >= 0 {
			cv = out[idx].Value
		}
		prev := c.push(name, false, idx >= 0, cv)
		nv, ch, err := child.apply(c, cv, idx >= 0)
		c.pop(prev)
		if err != nil || !ch {
			return err
		}
		if !copied {
			out = append(make(bson.D, 0, len(out)+len(n.children)), out...)
			copied = true
		}
		changed = true
		switch {
		case value.IsMissing(nv):
			if idx >= 0 {
				out = slices.Delete(out, idx, idx+1)
			}
		case idx >= 0:
			out[idx].Value = nv
		default:
			if len(c.path) == 0 && strings.HasPrefix(name, "$") && !c.insert {
				// mongod's storage validation refuses new top-level
				// $-prefixed fields (nested ones are allowed since 5.0),
				// except in the document an upsert inserts, which is
				// validated as an insert is (manual: Dollar-Prefixed
				// Field Names; jstest core/write/update/update_invalid1.js).
				out = append(out, bson.E{Key: name, Value: nv})
				return checkTopLevelDollar(out, len(out)-1)
			}
			out = append(out, bson.E{Key: name, Value: nv})
		}
		return nil
	})
	return out, changed, err
}

// maxPadding is mongod's kMaxPaddingAllowed for creating array elements
// past the end.
const maxPadding = 1500000

func (n *objectNode) applyArray(c *applyCtx, cur bson.A) (any, bool, error) {
	out, copied, changed := cur, false, false
	err := n.each(c, func(name string, child node) error {
		idx, ok := arrayIndex(name)
		exists := ok && idx < len(out)
		var cv any = value.Missing{}
		if exists {
			cv = out[idx]
		}
		prev := c.push(name, true, exists, cv)
		nv, ch, err := child.apply(c, cv, exists)
		c.pop(prev)
		if err != nil || !ch {
			return err
		}
		if !exists && value.IsMissing(nv) {
			return nil
		}
		if !ok {
			return cannotCreate(c, name, out)
		}
		if !exists && idx-len(out) > maxPadding {
			return mongoerr.Newf(mongoerr.BadValue,
				"can't backfill more than %d elements", maxPadding)
		}
		if !copied {
			out = append(make(bson.A, 0, max(len(out), idx+1)), out...)
			copied = true
		}
		changed = true
		for len(out) <= idx {
			out = append(out, nil)
		}
		if value.IsMissing(nv) {
			// An unset array element becomes null: removing it would
			// shift the positions of the elements after it.
			nv = nil
		}
		out[idx] = nv
		return nil
	})
	return out, changed, err
}

func (n *arrayNode) apply(c *applyCtx, v any, exists bool) (any, bool, error) {
	if !exists {
		return nil, false, mongoerr.Newf(mongoerr.BadValue,
			"The path '%s' must exist in the document in order to apply array updates.", c.dotted())
	}
	arr, ok := v.(bson.A)
	if !ok {
		return nil, false, mongoerr.Newf(mongoerr.BadValue,
			"Cannot apply array updates to non-array element %s", elemString(c.path[len(c.path)-1], v))
	}
	out, copied, changed := arr, false, false
	var matching []node
	for i := range arr {
		matching = matching[:0]
		for _, ch := range n.children {
			if ch.name == "" {
				matching = append(matching, ch.n)
				continue
			}
			ok, err := c.filters[ch.name].matches(out[i])
			if err != nil {
				return nil, false, err
			}
			if ok {
				matching = append(matching, ch.n)
			}
		}
		if len(matching) > 1 {
			merged := matching[0]
			for _, m := range matching[1:] {
				var err error
				if merged, err = mergeNodes(merged, m, append(slices.Clone(c.path), strconv.Itoa(i))); err != nil {
					return nil, false, err
				}
			}
			matching = append(matching[:0], merged)
		}
		for _, child := range matching {
			prev := c.push(strconv.Itoa(i), true, true, out[i])
			nv, ch, err := child.apply(c, out[i], true)
			c.pop(prev)
			if err != nil {
				return nil, false, err
			}
			if !ch {
				continue
			}
			if !copied {
				out = slices.Clone(arr)
				copied = true
			}
			if value.IsMissing(nv) {
				nv = nil
			}
			out[i] = nv
			changed = true
		}
	}
	return out, changed, nil
}

// checkTopLevelDollar is storage_validation.cpp's validateDollarPrefixElement
// for doc[i], a $-prefixed top-level field: only the parts of a DBRef may
// be there, in order ($ref, $id, then $db), and anything else is refused
// as a dollar-prefixed field.
func checkTopLevelDollar(doc bson.D, i int) error {
	name, at := doc[i].Key, i
	step := func() (string, bool) {
		if at == 0 {
			return "", false
		}
		at--
		return doc[at].Key, true
	}
	cur := name
	if cur == "$db" {
		if _, ok := doc[at].Value.(string); !ok {
			return mongoerr.Newf(mongoerr.InvalidDBRef, "The DBRef $db field must be a String, not a %s", value.TypeName(doc[at].Value))
		}
		n, ok := step()
		if !ok || n != "$id" {
			return mongoerr.New(mongoerr.InvalidDBRef, "Found $db field without a $id before it, which is invalid.")
		}
		cur = n
	}
	if cur == "$id" {
		n, ok := step()
		if !ok || n != "$ref" {
			return mongoerr.New(mongoerr.InvalidDBRef, "Found $id field without a $ref before it, which is invalid.")
		}
		cur = n
	}
	if cur != "$ref" {
		return mongoerr.Newf(mongoerr.DollarPrefixedFieldName,
			"The dollar ($) prefixed field '%s' in '%s' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
			name, name)
	}
	if _, ok := doc[at].Value.(string); !ok {
		return mongoerr.Newf(mongoerr.InvalidDBRef, "The DBRef $ref field must be a String, not a %s", value.TypeName(doc[at].Value))
	}
	if at+1 >= len(doc) || doc[at+1].Key != "$id" {
		return mongoerr.New(mongoerr.InvalidDBRef, "The DBRef $ref field must be followed by a $id field")
	}
	return nil
}
