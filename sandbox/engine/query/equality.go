package query

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// EqualityDoc returns the document an upsert starts from: every equality
// the filter implies for certain ({a: 1}, {a: {$eq: 1}}, a one-element $in
// or $all, the children of $and, a one-branch $or), with dotted paths
// expanded into embedded documents and _id first. Two equalities on one
// path, or on a path and its prefix, fail with mongod's error 54.
//
// mongod collects the equalities in a std::map keyed by path
// (pathsupport::EqualityMatches) and adds them in that byte order, so the
// seeded fields come out sorted by path, not in the filter's order; the
// upsert then moves _id to the front.
func (f *Filter) EqualityDoc() (bson.D, error) {
	return f.equalityDoc(false)
}

// IDEqualityDoc is the document a replacement upsert starts from, as
// pathsupport::extractFullEqualityMatches gives it for the immutable _id
// (UpdateDriver::populateDocumentWithQueryFields): only an equality on _id
// itself seeds it, other paths are left to the replacement, and an
// equality on a field inside _id fails with NotExactValueField, since
// the replacement could not keep the rest of _id.
func (f *Filter) IDEqualityDoc() (bson.D, error) {
	return f.equalityDoc(true)
}

func (f *Filter) equalityDoc(idOnly bool) (bson.D, error) {
	var eqs []*Compare
	collectEqualities(f.Root, &eqs)
	// The canonical query meets the equalities in path order.
	slices.SortStableFunc(eqs, func(a, b *Compare) int { return strings.Compare(a.Path, b.Path) })
	if idOnly {
		ids := eqs[:0:0]
		for _, e := range eqs {
			switch {
			case e.Path == "_id":
				ids = append(ids, e)
			case strings.HasPrefix(e.Path, "_id."):
				return nil, mongoerr.New(mongoerr.NotExactValueField,
					"field at '_id' must be exactly specified, field at sub-path '"+e.Path+"'found")
			}
		}
		eqs = ids
	}
	paths := make([]string, 0, len(eqs))
	for _, e := range eqs {
		for _, p := range paths {
			switch {
			case p == e.Path:
				return nil, mongoerr.New(mongoerr.NotSingleValueField,
					"cannot infer query fields to set, path '"+p+"' is matched twice")
			case strings.HasPrefix(e.Path, p+"."), strings.HasPrefix(p, e.Path+"."):
				// mongod meets the prefix first (its canonical query sorts
				// by path) and names the longer path, then its prefix.
				long, short := e.Path, p
				if len(p) > len(e.Path) {
					long, short = p, e.Path
				}
				return nil, mongoerr.New(mongoerr.NotSingleValueField,
					"cannot infer query fields to set, both paths '"+long+"' and '"+short+"' are matched")
			}
		}
		paths = append(paths, e.Path)
	}
	doc := bson.D{}
	for _, e := range eqs {
		if e.Path == "_id" || strings.HasPrefix(e.Path, "_id.") {
			doc = value.SetPath(doc, splitPath(e.Path), value.DeepCopy(e.Value))
		}
	}
	for _, e := range eqs {
		if e.Path != "_id" && !strings.HasPrefix(e.Path, "_id.") {
			doc = value.SetPath(doc, splitPath(e.Path), value.DeepCopy(e.Value))
		}
	}
	return doc, nil
}

func collectEqualities(n Node, out *[]*Compare) {
	switch x := n.(type) {
	case *Compare:
		if x.Op == "$eq" && !strings.HasPrefix(x.Path, "$") {
			*out = append(*out, x)
		}
	case *In:
		if len(x.Values) == 1 && len(x.Regexes) == 0 {
			*out = append(*out, &Compare{Path: x.Path, Op: "$eq", Value: x.Values[0]})
		}
	case *And:
		for _, c := range x.Children {
			collectEqualities(c, out)
		}
	case *All:
		for _, m := range x.Members {
			collectEqualities(m, out)
		}
	case *Or:
		if len(x.Children) == 1 {
			collectEqualities(x.Children[0], out)
		}
	}
}
