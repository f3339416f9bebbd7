package query

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
)

// Splitting a filter around a pipeline stage, as mongod's
// DocumentSourceMatch::splitMatchByModifiedFields and
// expression::splitMatchExpressionBy (expression_algo.cpp) do: the part
// of a $match that reads nothing the stage before it changes can run
// before that stage, under the names the fields had there.

// Modified is what a stage reports of the paths it changes
// (DocumentSource::GetModPathsReturn): a finite set of modified paths, or
// (AllExcept) every path but the preserved ones. Renames maps a path the
// stage outputs to the input path it copies unchanged.
type Modified struct {
	AllExcept bool
	Paths     []string
	Renames   map[string]string
	// KeepExpr keeps every $expr after the stage: past a $group, an $expr
	// on the group key would see the documents' own values, which the
	// grouping made equal (null and missing, 5 and 5L), apart again
	// (jstests/aggregation/sources/group/expr_match_no_pushdown_through_group.js).
	KeepExpr bool
}

// Split divides the filter into the predicates independent of mod, with
// mod's renames applied, and the rest; either is nil when empty. Both are
// the optimized tree serialized, which is what mongod re-parses into the
// two new $match stages. Split rewrites the filter's tree: call it on a
// filter compiled for the purpose.
func (f *Filter) Split(mod Modified) (moved, kept bson.D) {
	modified := mod.Paths
	if mod.AllExcept {
		preserved := append([]string{}, mod.Paths...)
		for newPath := range mod.Renames {
			preserved = append(preserved, newPath)
		}
		modified = nil
		deps, _ := nodeDependencies(f.Root)
		for _, d := range deps {
			if !coveredBy(d, preserved) {
				modified = append(modified, d)
			}
		}
	}
	s := splitter{modified: modified, renames: mod.Renames, keepExpr: mod.KeepExpr}
	m, k := s.split(withoutGenerated(f.Root))
	if m != nil {
		m = RenamePaths(m, mod.Renames)
		moved = serializeNode(optimize(m))
		if a, ok := m.(*And); ok && len(a.Children) == 0 {
			moved = bson.D{}
		}
	}
	if k != nil {
		kept = serializeNode(optimize(k))
	}
	return moved, kept
}

type splitter struct {
	modified []string
	renames  map[string]string
	keepExpr bool
}

// split is splitMatchExpressionByFunction: a wholly independent node
// moves; an $and splits child by child; a $nor moves the children that are
// independent as a whole; anything else stays.
func (s splitter) split(n Node) (moved, kept Node) {
	if s.independent(n) {
		return n, nil
	}
	switch x := n.(type) {
	case *And:
		var m, k []Node
		for _, c := range x.Children {
			cm, ck := s.split(c)
			if cm != nil {
				m = append(m, cm)
			}
			if ck != nil {
				k = append(k, ck)
			}
		}
		return andOf(m), andOf(k)
	case *Nor:
		var m, k []Node
		for _, c := range x.Children {
			if s.independent(c) {
				m = append(m, c)
			} else {
				k = append(k, c)
			}
		}
		return norOf(m), norOf(k)
	}
	return nil, n
}

func andOf(ns []Node) Node {
	switch len(ns) {
	case 0:
		return nil
	case 1:
		return ns[0]
	}
	return &And{Children: ns}
}

func norOf(ns []Node) Node {
	if len(ns) == 0 {
		return nil
	}
	return &Nor{Children: ns}
}

// independent is expression::isIndependentOf: a logical node when all its
// children are; otherwise the node must be renameable
// (hasOnlyRenameableMatchExpressionChildren: no $where, $text,
// $jsonSchema, $alwaysTrue/$alwaysFalse, no path that a rename would cut
// in two) and read neither the whole document, nor a random number, nor
// a modified path or a parent or child of one.
func (s splitter) independent(n Node) bool {
	switch x := n.(type) {
	case *And:
		return s.allIndependent(x.Children)
	case *Or:
		return s.allIndependent(x.Children)
	case *Nor:
		return s.allIndependent(x.Children)
	case *Not:
		return s.independent(x.Child)
	case *All:
		return s.allIndependent(x.Members)
	case *Expr:
		if s.keepExpr || usesRand(x.Spec) {
			return false
		}
		// Like a path predicate, an $expr reading a parent of a renamed
		// path stays: the stage creates that parent
		// (jstests/aggregation/optimization/do_not_push_match_past_rename_onto_dotted_path.js).
		for _, p := range expr.Dependencies(x.Spec).Paths {
			if _, ok := renamedPath(p, s.renames); !ok {
				return false
			}
		}
	default:
		path := NodePath(n)
		if path == "" {
			return false
		}
		if _, ok := renamedPath(path, s.renames); !ok {
			return false
		}
	}
	deps, whole := nodeDependencies(n)
	if whole {
		return false
	}
	for _, d := range deps {
		for _, m := range s.modified {
			if d == m || IsPathPrefixOf(d, m) || IsPathPrefixOf(m, d) {
				return false
			}
		}
	}
	return true
}

func (s splitter) allIndependent(ns []Node) bool {
	for _, c := range ns {
		if !s.independent(c) {
			return false
		}
	}
	return true
}

// nodeDependencies is the DepsTracker a match expression fills: each
// predicate's full path (an $elemMatch's own path), the fields an $expr
// reads; whole is true for what needs the entire document.
func nodeDependencies(n Node) (paths []string, whole bool) {
	switch x := n.(type) {
	case *And:
		return childDependencies(x.Children)
	case *Or:
		return childDependencies(x.Children)
	case *Nor:
		return childDependencies(x.Children)
	case *Not:
		return nodeDependencies(x.Child)
	case *All:
		return childDependencies(x.Members)
	case *Expr:
		deps := expr.Dependencies(x.Spec)
		return deps.Paths, deps.Whole
	case AlwaysTrue, AlwaysFalse:
		return nil, false
	}
	if p := NodePath(n); p != "" {
		return []string{p}, false
	}
	return nil, true
}

func childDependencies(ns []Node) (paths []string, whole bool) {
	for _, c := range ns {
		p, w := nodeDependencies(c)
		if w {
			return nil, true
		}
		paths = append(paths, p...)
	}
	return paths, false
}

// coveredBy: path is one of the preserved paths or lies below one
// (semantic_analysis::extractModifiedDependencies).
func coveredBy(path string, preserved []string) bool {
	for _, p := range preserved {
		if p == path || IsPathPrefixOf(p, path) {
			return true
		}
	}
	return false
}

// IsPathPrefixOf is expression::isPathPrefixOf: first names a parent of
// second.
func IsPathPrefixOf(first, second string) bool {
	return len(first) < len(second) && strings.HasPrefix(second, first) && second[len(first)] == '.'
}

// renamedPath is PathMatchExpression::wouldRenameSucceed: the path with
// the rename of it or of a parent applied; ok is false when the path is
// a parent of a renamed path, which no single name before the stage
// stands for.
func renamedPath(path string, renames map[string]string) (string, bool) {
	out := path
	for _, newPath := range sortedKeys(renames) {
		oldPath := renames[newPath]
		switch {
		case newPath == path:
			out = oldPath
		case IsPathPrefixOf(newPath, path):
			out = oldPath + path[len(newPath):]
		case IsPathPrefixOf(path, newPath):
			return "", false
		}
	}
	return out, true
}

// sortedKeys orders the renames, so that where two apply the outcome
// does not depend on map order.
func sortedKeys(renames map[string]string) []string {
	keys := make([]string, 0, len(renames))
	for k := range renames {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// RenamePaths applies the renames (a path as the predicates read it ->
// the path it becomes) to a predicate tree in place
// (applyRenamesToExpression).
func RenamePaths(n Node, renames map[string]string) Node {
	if len(renames) == 0 {
		return n
	}
	switch x := n.(type) {
	case *And:
		renameAll(x.Children, renames)
	case *Or:
		renameAll(x.Children, renames)
	case *Nor:
		renameAll(x.Children, renames)
	case *All:
		renameAll(x.Members, renames)
		if p, ok := renamedPath(x.Path, renames); ok {
			x.Path, x.parts = p, splitPath(p)
		}
	case *Not:
		x.Child = RenamePaths(x.Child, renames)
		if p, ok := renamedPath(x.Path, renames); ok && x.Path != "" {
			x.Path = p
		}
	case *Expr:
		x.Spec = RenameFieldPaths(x.Spec, renames)
	default:
		if p, ok := renamedPath(NodePath(n), renames); ok {
			setNodePath(n, p)
		}
	}
	return n
}

func renameAll(ns []Node, renames map[string]string) {
	for i, c := range ns {
		ns[i] = RenamePaths(c, renames)
	}
}

// setNodePath gives a path predicate its new path.
func setNodePath(n Node, p string) {
	parts := splitPath(p)
	switch x := n.(type) {
	case *Compare:
		x.Path, x.parts = p, parts
	case *In:
		x.Path, x.parts = p, parts
	case *Regex:
		x.Path, x.parts = p, parts
	case *Exists:
		x.Path, x.parts = p, parts
	case *Type:
		x.Path, x.parts = p, parts
	case *Size:
		x.Path, x.parts = p, parts
	case *Mod:
		x.Path, x.parts = p, parts
	case *ElemMatchObject:
		x.Path, x.parts = p, parts
	case *ElemMatchValue:
		x.Path, x.parts = p, parts
	case *Bits:
		x.Path, x.parts = p, parts
	case *InternalEqHash:
		x.Path, x.parts = p, parts
	case *InternalExpr:
		x.Path, x.parts = p, parts
	}
}

// RenameFieldPaths rewrites an expression's field paths under a renamed
// prefix, as ExpressionFieldPath::copyWithSubstitution does for paths of
// $$CURRENT (and $$ROOT); $literal operands are values, not paths.
func RenameFieldPaths(spec any, renames map[string]string) any {
	switch x := spec.(type) {
	case string:
		path, ok := CurrentPath(x)
		if !ok {
			return x
		}
		for _, newPath := range sortedKeys(renames) {
			oldPath := renames[newPath]
			if path == newPath {
				return "$" + oldPath
			}
			if IsPathPrefixOf(newPath, path) {
				return "$" + oldPath + path[len(newPath):]
			}
		}
		return x
	case bson.A:
		out := make(bson.A, len(x))
		for i, e := range x {
			out[i] = RenameFieldPaths(e, renames)
		}
		return out
	case bson.D:
		if len(x) == 1 && (x[0].Key == "$literal" || x[0].Key == "$const") {
			return x
		}
		out := make(bson.D, len(x))
		for i, e := range x {
			out[i] = bson.E{Key: e.Key, Value: RenameFieldPaths(e.Value, renames)}
		}
		return out
	}
	return spec
}

// CurrentPath is the document path of "$a.b", "$$CURRENT.a.b" or
// "$$ROOT.a.b".
func CurrentPath(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "$$"):
		name, rest, ok := strings.Cut(s[2:], ".")
		if !ok || (name != "CURRENT" && name != "ROOT") {
			return "", false
		}
		return rest, true
	case strings.HasPrefix(s, "$"):
		return s[1:], true
	}
	return "", false
}

// usesRand: an expression that draws random numbers cannot move
// (DepsTracker::needRandomGenerator).
func usesRand(spec any) bool {
	switch x := spec.(type) {
	case bson.A:
		for _, e := range x {
			if usesRand(e) {
				return true
			}
		}
	case bson.D:
		for _, e := range x {
			if e.Key == "$rand" || e.Key != "$literal" && usesRand(e.Value) {
				return true
			}
		}
	}
	return false
}

// HasPredicateOn reports whether the filter holds a $type (or, with
// exists, an $exists) predicate on one of paths or below one
// (expression::hasPredicateOnPaths), paths through an $elemMatch
// included.
func (f *Filter) HasPredicateOn(paths []string, exists bool) bool {
	return hasPredicateOn(f.Root, "", paths, exists)
}

func hasPredicateOn(n Node, parent string, paths []string, exists bool) bool {
	full := func(p string) string {
		if parent == "" {
			return p
		}
		if p == "" {
			return parent
		}
		return parent + "." + p
	}
	var kids []Node
	switch x := n.(type) {
	case *Type:
		return coveredBy(full(x.Path), paths)
	case *Exists:
		return exists && coveredBy(full(x.Path), paths)
	case *And:
		kids = x.Children
	case *Or:
		kids = x.Children
	case *Nor:
		kids = x.Children
	case *All:
		kids = x.Members
	case *Not:
		kids = []Node{x.Child}
	case *ElemMatchObject:
		return hasPredicateOn(x.Filter, full(x.Path), paths, exists)
	case *ElemMatchValue:
		parent = full(x.Path)
		kids = x.Predicates
	}
	for _, c := range kids {
		if hasPredicateOn(c, parent, paths, exists) {
			return true
		}
	}
	return false
}
