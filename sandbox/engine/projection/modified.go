package projection

import "strings"

// ModifiedPaths is what the projection reports to the pipeline optimizer
// (the executors' getModifiedPaths): for an inclusion, the paths it keeps
// as they are (everything else is modified, allExcept is true); for an
// exclusion, the paths it removes; for $addFields, the paths it computes.
// renames maps an output path to the input field it copies: a computed
// value "$x" of a single field is a rename, a dotted "$x.y" is not, since
// it can reshape arrays (ExpressionFieldPath::getComputedPaths).
func (p *Projection) ModifiedPaths() (allExcept bool, paths []string, renames map[string]string) {
	renames = map[string]string{}
	listed := kindExpr
	switch {
	case p.addFields:
	case p.inclusion:
		listed = kindInclude
	default:
		listed = kindExclude
	}
	p.root.modifiedPaths("", listed, &paths, renames)
	return p.inclusion && !p.addFields, paths, renames
}

// modifiedPaths lists the paths of the children of kind listed, and the
// renames among the computed ones.
func (n *node) modifiedPaths(prefix string, listed kind, paths *[]string, renames map[string]string) {
	for _, c := range n.children {
		path := c.name
		if prefix != "" {
			path = prefix + "." + c.name
		}
		switch {
		case c.kind == kindSubtree:
			c.sub.modifiedPaths(path, listed, paths, renames)
		case c.kind == kindExpr:
			if from, ok := RenamedField(c.spec); ok {
				renames[path] = from
			} else if listed == kindExpr {
				*paths = append(*paths, path)
			}
		case c.kind == listed:
			*paths = append(*paths, path)
		}
	}
}

// RenamedField: spec is "$x", "$$CURRENT.x" or "$$ROOT.x", one field of
// the input document.
func RenamedField(spec any) (string, bool) {
	s, ok := fieldOfCurrent(spec)
	return s, ok && !strings.Contains(s, ".")
}

// fieldOfCurrent is the input path a field path expression "$a.b",
// "$$CURRENT.a.b" or "$$ROOT.a.b" reads.
func fieldOfCurrent(spec any) (string, bool) {
	s, ok := spec.(string)
	if !ok {
		return "", false
	}
	switch {
	case strings.HasPrefix(s, "$$CURRENT."):
		s = s[len("$$CURRENT."):]
	case strings.HasPrefix(s, "$$ROOT."):
		s = s[len("$$ROOT."):]
	case strings.HasPrefix(s, "$$") || !strings.HasPrefix(s, "$"):
		return "", false
	default:
		s = s[1:]
	}
	return s, s != ""
}

// ComplexRenames are the computed fields that copy a two-component input
// path "$x.y" (ExpressionFieldPath::getComputedPaths' complexRenames): no
// rename in general, since a path through an array reshapes it, but one
// when x is known to hold no array, as a $group's compound key does.
func (p *Projection) ComplexRenames() map[string]string {
	out := map[string]string{}
	p.root.complexRenames("", out)
	return out
}

func (n *node) complexRenames(prefix string, out map[string]string) {
	for _, c := range n.children {
		path := c.name
		if prefix != "" {
			path = prefix + "." + c.name
		}
		switch c.kind {
		case kindSubtree:
			c.sub.complexRenames(path, out)
		case kindExpr:
			if from, ok := fieldOfCurrent(c.spec); ok && strings.Count(from, ".") == 1 {
				out[path] = from
			}
		}
	}
}
