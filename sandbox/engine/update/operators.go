package update

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// leaf is one modifier at the end of a path.
type leaf interface {
	modify(c *applyCtx, v any, exists bool) (any, bool, error)
}

// leafNode puts a modifier in the tree and enforces _id immutability for
// every modifier the same way, as mongod's ModifierNode does.
type leafNode struct{ op leaf }

func (l leafNode) apply(c *applyCtx, v any, exists bool) (any, bool, error) {
	nv, changed, err := l.op.modify(c, v, exists)
	if err != nil || !changed {
		return nv, changed, err
	}
	if err := c.checkIDUnchanged(exists); err != nil {
		return nil, false, err
	}
	return nv, changed, nil
}

// checkIDUnchanged is ModifierNode's immutable-path check for a modifier
// that changed the element at the context's path: writing _id or a field
// under it fails (checkImmutablePathsNotModified, or for a created field
// the check in applyToNonexistentElement).
func (c *applyCtx) checkIDUnchanged(exists bool) error {
	if len(c.path) == 0 || c.path[0] != "_id" {
		return nil
	}
	if exists {
		return mongoerr.Newf(mongoerr.ImmutableField,
			"Performing an update on the path '%s' would modify the immutable field '_id'", c.dotted())
	}
	if c.taken > 0 {
		taken := strings.Join(c.path[:c.taken], ".")
		return mongoerr.Newf(mongoerr.ImmutableField,
			"Updating the path '%s' to %s would modify the immutable field '_id'",
			taken, elemString(c.path[c.taken-1], value.Lookup(c.doc, taken)))
	}
	return nil
}

// placeholderNode occupies a $rename source path so that other modifiers
// on that path conflict with it; the rename itself lives at the target.
type placeholderNode struct{}

func (placeholderNode) apply(_ *applyCtx, v any, _ bool) (any, bool, error) { return v, false, nil }

// modifierParsers build a modifier from its argument. path is the dotted
// path of the target field.
var modifierParsers = map[string]func(path string, arg any, filters map[string]*arrayFilter) (leaf, error){
	"$set":         parseSet,
	"$setOnInsert": parseSetOnInsert,
	"$unset":       parseUnset,
	"$inc":         parseInc,
	"$mul":         parseMul,
	"$min":         parseMin,
	"$max":         parseMax,
	"$currentDate": parseCurrentDate,
	"$rename":      parseRename,
	"$push":        parsePush,
	"$addToSet":    parseAddToSet,
	"$pop":         parsePop,
	"$pull":        parsePull,
	"$pullAll":     parsePullAll,
	"$bit":         parseBit,
}

type container interface {
	child(name string) node
	setChild(name string, child node)
}

func compileOperators(spec bson.D, opts Options) (*Update, error) {
	filters, err := compileArrayFilters(opts.ArrayFilters)
	if err != nil {
		return nil, err
	}
	u := &Update{kind: Operators, root: &objectNode{}, filters: filters, now: opts.Now, clock: opts.clock()}
	used := map[string]bool{}
	for _, mod := range spec {
		parse, ok := modifierParsers[mod.Key]
		if !ok {
			return nil, mongoerr.Newf(mongoerr.FailedToParse,
				"Unknown modifier: %s. Expected a valid update modifier or pipeline-style update specified as an array", mod.Key)
		}
		fields, ok := mod.Value.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.FailedToParse,
				"Modifiers operate on fields but we found type %s instead. For example: {$mod: {<field>: ...}} not {%s}",
				value.TypeName(mod.Value), elemString(mod.Key, mod.Value))
		}
		for _, f := range fields {
			if err := u.merge(mod.Key, parse, f, filters, used); err != nil {
				return nil, err
			}
		}
	}
	for _, doc := range opts.ArrayFilters {
		if id := filterIdentifier(doc); !used[id] {
			return nil, mongoerr.Newf(mongoerr.FailedToParse,
				"The array filter for identifier '%s' was not used in the update %s", id, valueString(spec))
		}
	}
	return u, nil
}

// merge adds one modifier to the tree, mongod's UpdateObjectNode::parseAndMerge.
func (u *Update) merge(op string, parse func(string, any, map[string]*arrayFilter) (leaf, error),
	field bson.E, filters map[string]*arrayFilter, used map[string]bool) error {
	path := field.Key
	if op == "$rename" {
		// The source's placeholder is parsed and merged as a modifier of
		// its own, with the same path checks (parseAndMerge with
		// MOD_CONFLICT_PLACEHOLDER), before the target is looked at.
		parts, err := splitPath(path)
		if err != nil {
			return err
		}
		if err := checkPositional(parts, path); err != nil {
			return err
		}
		if err := u.insertParts(parts, path, placeholderNode{}, filters, used); err != nil {
			return err
		}
		to, ok := field.Value.(string)
		if !ok {
			return mongoerr.Newf(mongoerr.BadValue,
				"The 'to' field for $rename must be a string: %s", elemString(field.Key, field.Value))
		}
		path = to
	}
	parts, err := splitPath(path)
	if err != nil {
		return err
	}
	if err := checkPositional(parts, path); err != nil {
		return err
	}
	var l leaf
	if op == "$rename" {
		l, err = newRename(field.Key, path)
	} else {
		l, err = parse(path, field.Value, filters)
	}
	if err != nil {
		return err
	}
	return u.insertParts(parts, path, leafNode{l}, filters, used)
}

// checkPositional is parseAndMerge's check of the positional $ parts: at
// most one, and not first.
func checkPositional(parts []string, path string) error {
	positionalAt, positionalCount := -1, 0
	for i, p := range parts {
		if p == "$" {
			positionalCount++
			if positionalAt < 0 {
				positionalAt = i
			}
		}
	}
	if positionalCount > 1 {
		return mongoerr.Newf(mongoerr.BadValue, "Too many positional (i.e. '$') elements found in path '%s'", path)
	}
	if positionalAt == 0 {
		return mongoerr.Newf(mongoerr.BadValue,
			"Cannot have positional (i.e. '$') element in the first position in path '%s'", path)
	}
	return nil
}

func (u *Update) insertParts(parts []string, path string, n node, filters map[string]*arrayFilter, used map[string]bool) error {
	var cur container = u.root
	for i, part := range parts {
		name := part
		if isArrayFilterIdentifier(part) {
			if i == 0 {
				return mongoerr.Newf(mongoerr.BadValue,
					"Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '%s'", path)
			}
			name = part[2 : len(part)-1]
			if name != "" {
				if _, ok := filters[name]; !ok {
					return mongoerr.Newf(mongoerr.BadValue, "No array filter found for identifier '%s' in path '%s'", name, path)
				}
				used[name] = true
			}
		}
		existing := cur.child(name)
		if i == len(parts)-1 {
			if existing != nil {
				return conflict(path, path)
			}
			cur.setChild(name, n)
			return nil
		}
		wantArray := isArrayFilterIdentifier(parts[i+1])
		if existing == nil {
			var c container = &objectNode{}
			if wantArray {
				c = &arrayNode{}
			}
			cur.setChild(name, c.(node))
			cur = c
			continue
		}
		switch e := existing.(type) {
		case *objectNode:
			if wantArray {
				return conflict(path, strings.Join(parts[:i+1], "."))
			}
			cur = e
		case *arrayNode:
			if !wantArray {
				return conflict(path, strings.Join(parts[:i+1], "."))
			}
			cur = e
		default:
			return conflict(path, strings.Join(parts[:i+1], "."))
		}
	}
	return nil
}

func conflict(path, at string) error {
	return mongoerr.Newf(mongoerr.ConflictingUpdateOperators,
		"Updating the path '%s' would create a conflict at '%s'", path, at)
}

func isArrayFilterIdentifier(part string) bool {
	return len(part) >= 3 && strings.HasPrefix(part, "$[") && part[len(part)-1] == ']'
}

// splitPath applies mongod's fieldchecker::isUpdatable.
func splitPath(path string) ([]string, error) {
	if path == "" {
		return nil, mongoerr.New(mongoerr.EmptyFieldName, "An empty update path is not valid.")
	}
	parts := strings.Split(path, ".")
	for _, p := range parts {
		if p == "" {
			return nil, mongoerr.Newf(mongoerr.EmptyFieldName,
				"The update path '%s' contains an empty field name, which is not allowed.", path)
		}
	}
	return parts, nil
}

func (u *Update) applyOperators(doc bson.D, positional int, insert bool) (bson.D, bool, error) {
	c := &applyCtx{doc: doc, insert: insert, now: u.now, clock: u.clock, filters: u.filters}
	c.path, c.inArray, c.values = c.pathBuf[:0], c.inArrayBuf[:0], c.valuesBuf[:0]
	if positional >= 0 {
		c.matched = itoa(positional)
	}
	out, changed, err := u.root.applyDoc(c, doc)
	if err != nil {
		return nil, false, err
	}
	newDoc := out.(bson.D)
	for _, src := range c.renames {
		newDoc = removePath(newDoc, src)
		changed = true
	}
	if !changed {
		return doc, false, nil
	}
	if err := validateID(newDoc); err != nil {
		return nil, false, err
	}
	return newDoc, true, nil
}

// removePath deletes the field at parts, copying the documents along the
// way so that the input stays untouched.
func removePath(d bson.D, parts []string) bson.D {
	for i, e := range d {
		if e.Key != parts[0] {
			continue
		}
		out := append(bson.D(nil), d...)
		if len(parts) == 1 {
			return append(out[:i], out[i+1:]...)
		}
		if sub, ok := e.Value.(bson.D); ok {
			out[i].Value = removePath(sub, parts[1:])
		}
		return out
	}
	return d
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}
