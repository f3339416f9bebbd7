package advise

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const treePage = "https://www.mongodb.com/docs/manual/applications/data-models-tree-structures/"

// The thresholds of the tree detector (schemalab's; the manual describes
// the models, not how to recognise them):
//   - resolvedShare: the share of references that must name a node of the
//     same collection; a few dangling ones are data errors, many mean the
//     field points elsewhere;
//   - treeWalks: how many nodes' walks ($graphLookup) measure depth and
//     find cycles; a tree's depth is the deepest of them;
//   - maxTreeDepth bounds each walk.
const (
	resolvedShare = 0.9
	treeWalks     = 1000
	maxTreeDepth  = 100
)

// The tree models, as the tree lesson names them.
const (
	modelParent    = "parent references"
	modelChildren  = "child references"
	modelAncestors = "array of ancestors"
	modelPath      = "materialized paths"
)

// treeCosts are the tree lesson's table ("Choosing a tree model"): what
// the common queries and changes cost in each model.
func treeCosts(model string) string {
	switch model {
	case modelParent:
		return "children: one indexed query; descendants and ancestors: a walk ($graphLookup); moving a subtree: 1 document"
	case modelChildren:
		return "children: in the node; parent: an index on the array; descendants and ancestors: a walk ($graphLookup); moving a subtree: 2 documents"
	case modelAncestors:
		return "descendants: one indexed query; ancestors: in the node; moving a subtree rewrites every node below it"
	}
	return "subtree: one anchored prefix regex; ancestors: parse the path; moving or renaming a node rewrites every node below it"
}

// refStats are the figures of a reference field over the collection,
// counted on the server by grouping every node's key with the keys its
// references name.
type refStats struct {
	Nodes    int64 `bson:"nodes"`
	Refs     int64 `bson:"refs"`
	Resolved int64 `bson:"resolved"`
	// Empty counts the nodes whose field names nobody (roots in the
	// parent, ancestors and path models); Unnamed the nodes no reference
	// names (roots of child references).
	Empty   int64 `bson:"empty"`
	Unnamed int64 `bson:"unnamed"`
	// MaxIn is the most references to one node; MaxKids the most nodes
	// naming one node as the last of their references (children per
	// parent); MaxRefs the most references one node holds.
	MaxIn    int64 `bson:"maxIn"`
	MaxKids  int64 `bson:"maxKids"`
	MaxRefs  int64 `bson:"maxRefs"`
	MaxLevel int64 `bson:"maxLevel"`
	// FirstNotRoot counts the nodes named first in some array that have
	// references themselves: an array of ancestors starts at a root.
	FirstNotRoot int64 `bson:"firstNotRoot"`
	SelfRefs     int64 `bson:"selfRefs"`
}

// trees looks for a field holding _ids of the same collection (parent
// references), an array of them (child references, ancestors), or a
// delimited path whose parent is another node's path.
func trees(ctx context.Context, r reader, c *collection) ([]Finding, string, error) {
	if c.sampled {
		// Parents and children of sampled nodes are mostly outside the
		// sample, so the references would not resolve.
		return nil, fmt.Sprintf("%s: trees are only looked for in collections analysed whole (%d documents > --sample); pass a larger --sample to include it.", c.name, c.count), nil
	}
	idType := c.idType()
	var out []Finding
	for _, f := range c.fields {
		if f.name == "_id" || !referable(f.name) {
			continue
		}
		var kinds []refKind
		if c.share(f, idType, "null") >= 0.5 && f.types[idType] > 0 {
			kinds = append(kinds, refScalar())
		}
		if f.types["array"] > 0 {
			kinds = append(kinds, refArray())
		}
		if f.types["string"] > 0 {
			for _, sep := range []string{"/", ","} {
				n := f.slash
				if sep == "," {
					n = f.comma
				}
				if float64(n) >= 0.5*float64(f.types["string"]) {
					kinds = append(kinds, refPath(sep, false), refPath(sep, true))
				}
			}
		}
		for _, k := range kinds {
			fd, ok, err := treeFinding(ctx, r, c, f.name, k)
			if err != nil {
				return nil, "", err
			}
			if ok {
				out = append(out, fd)
				break
			}
		}
	}
	return out, "", nil
}

// refKind says how a field names other nodes: its references as an array
// expression, the node's own key, and the model it would be.
type refKind struct {
	refs func(name string) any
	self func(name string) any
	// level, when set, is a node's depth from the root (1 for a root),
	// as the field tells it; otherwise it is its number of references
	// plus one, as in an array of ancestors.
	level func(name string) any
	model string
	sep   string
}

// refScalar is one _id in the field: a parent reference.
func refScalar() refKind {
	return refKind{
		refs: func(name string) any {
			return cond(bson.D{{Key: "$in", Value: bson.A{bson.D{{Key: "$type", Value: "$" + name}}, bson.A{"missing", "null"}}}},
				bson.A{}, bson.A{"$" + name})
		},
		self:  func(string) any { return "$_id" },
		model: modelParent,
	}
}

// refArray is an array of _ids: child references or ancestors, which
// the figures tell apart.
func refArray() refKind {
	return refKind{
		refs: func(name string) any { return cond(bson.D{{Key: "$isArray", Value: "$" + name}}, "$"+name, bson.A{}) },
		self: func(string) any { return "$_id" },
	}
}

// refPath is a materialized path with separator sep: a node's parent is
// the node whose path is its own less the last segment. withID is the
// manual's form, where the path holds the ancestors only and the node's
// own key is its path plus its _id; without it, the path ends with the
// node itself (the tree lesson's form).
func refPath(sep string, withID bool) refKind {
	segs := func(name string) any {
		return cond(bson.D{{Key: "$eq", Value: bson.A{bson.D{{Key: "$type", Value: "$" + name}}, "string"}}},
			bson.D{{Key: "$filter", Value: bson.D{{Key: "input", Value: bson.D{{Key: "$split", Value: bson.A{"$" + name, sep}}}},
				{Key: "cond", Value: bson.D{{Key: "$ne", Value: bson.A{"$$this", ""}}}}}}},
			bson.A{})
	}
	join := func(parts any) any {
		return bson.D{{Key: "$reduce", Value: bson.D{{Key: "input", Value: parts}, {Key: "initialValue", Value: ""},
			{Key: "in", Value: bson.D{{Key: "$concat", Value: bson.A{"$$value", sep, "$$this"}}}}}}}
	}
	own := func(name string) any {
		if withID {
			return bson.D{{Key: "$concatArrays", Value: bson.A{segs(name), bson.A{bson.D{{Key: "$toString", Value: "$_id"}}}}}}
		}
		return segs(name)
	}
	return refKind{
		refs: func(name string) any {
			s := own(name)
			n := bson.D{{Key: "$size", Value: s}}
			parent := bson.D{{Key: "$slice", Value: bson.A{s, bson.D{{Key: "$max", Value: bson.A{1, bson.D{{Key: "$subtract", Value: bson.A{n, 1}}}}}}}}}
			return cond(bson.D{{Key: "$gt", Value: bson.A{n, 1}}}, bson.A{join(parent)}, bson.A{})
		},
		self:  func(name string) any { return join(own(name)) },
		level: func(name string) any { return bson.D{{Key: "$size", Value: own(name)}} },
		model: modelPath,
		sep:   sep,
	}
}

func cond(ifExpr, then, els any) bson.D {
	return bson.D{{Key: "$cond", Value: bson.A{ifExpr, then, els}}}
}

// refPipeline groups every node's key with the keys its references name,
// so that one pass counts references, resolved ones, roots and fan-out.
func refPipeline(name string, k refKind) bson.A {
	refs := k.refs(name)
	n := bson.D{{Key: "$size", Value: refs}}
	var level any = bson.D{{Key: "$add", Value: bson.A{n, 1}}}
	if k.level != nil {
		level = k.level(name)
	}
	key := func(kv ...bson.E) bson.D {
		d := bson.D{{Key: "self", Value: 0}, {Key: "empty", Value: 0}, {Key: "ref", Value: 0}, {Key: "first", Value: 0}, {Key: "last", Value: 0}, {Key: "n", Value: 0}, {Key: "level", Value: 0}, {Key: "selfRef", Value: 0}}
		for _, e := range kv {
			for i := range d {
				if d[i].Key == e.Key {
					d[i].Value = e.Value
				}
			}
			if e.Key == "k" {
				d = append(bson.D{e}, d...)
			}
		}
		return d
	}
	hasRefs := bson.D{{Key: "$gt", Value: bson.A{n, 0}}}
	keys := bson.D{{Key: "$concatArrays", Value: bson.A{
		bson.A{key(bson.E{Key: "k", Value: k.self(name)}, bson.E{Key: "self", Value: 1},
			bson.E{Key: "empty", Value: cond(hasRefs, 0, 1)}, bson.E{Key: "n", Value: n}, bson.E{Key: "level", Value: level},
			bson.E{Key: "selfRef", Value: cond(bson.D{{Key: "$in", Value: bson.A{k.self(name), refs}}}, 1, 0)})},
		bson.D{{Key: "$map", Value: bson.D{{Key: "input", Value: refs}, {Key: "as", Value: "r"},
			{Key: "in", Value: key(bson.E{Key: "k", Value: "$$r"}, bson.E{Key: "ref", Value: 1})}}}},
		cond(hasRefs, bson.A{
			key(bson.E{Key: "k", Value: bson.D{{Key: "$first", Value: refs}}}, bson.E{Key: "first", Value: 1}),
			key(bson.E{Key: "k", Value: bson.D{{Key: "$last", Value: refs}}}, bson.E{Key: "last", Value: 1}),
		}, bson.A{}),
	}}}
	sum := func(v any) bson.D { return bson.D{{Key: "$sum", Value: v}} }
	isSelf := bson.D{{Key: "$eq", Value: bson.A{"$self", 1}}}
	return bson.A{
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "keys", Value: keys}}}},
		bson.D{{Key: "$unwind", Value: "$keys"}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$keys.k"},
			{Key: "self", Value: bson.D{{Key: "$max", Value: "$keys.self"}}}, {Key: "empty", Value: bson.D{{Key: "$max", Value: "$keys.empty"}}},
			{Key: "in", Value: sum("$keys.ref")}, {Key: "first", Value: bson.D{{Key: "$max", Value: "$keys.first"}}},
			{Key: "kids", Value: sum("$keys.last")}, {Key: "n", Value: bson.D{{Key: "$max", Value: "$keys.n"}}},
			{Key: "level", Value: bson.D{{Key: "$max", Value: "$keys.level"}}},
			{Key: "selfRef", Value: bson.D{{Key: "$max", Value: "$keys.selfRef"}}},
		}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil},
			{Key: "nodes", Value: sum("$self")}, {Key: "refs", Value: sum("$in")},
			{Key: "resolved", Value: sum(cond(isSelf, "$in", 0))},
			{Key: "empty", Value: sum(cond(isSelf, "$empty", 0))},
			{Key: "unnamed", Value: sum(cond(bson.D{{Key: "$and", Value: bson.A{isSelf, bson.D{{Key: "$eq", Value: bson.A{"$in", 0}}}}}}, 1, 0))},
			{Key: "maxIn", Value: bson.D{{Key: "$max", Value: cond(isSelf, "$in", 0)}}},
			{Key: "maxKids", Value: bson.D{{Key: "$max", Value: "$kids"}}},
			{Key: "maxRefs", Value: bson.D{{Key: "$max", Value: "$n"}}},
			{Key: "maxLevel", Value: bson.D{{Key: "$max", Value: "$level"}}},
			{Key: "firstNotRoot", Value: sum(cond(bson.D{{Key: "$and", Value: bson.A{
				bson.D{{Key: "$eq", Value: bson.A{"$first", 1}}}, bson.D{{Key: "$ne", Value: bson.A{"$empty", 1}}}}}}, 1, 0))},
			{Key: "selfRefs", Value: sum("$selfRef")},
		}}},
	}
}

// treeFinding measures field name as references of kind k, and says
// whether they make a tree.
func treeFinding(ctx context.Context, r reader, c *collection, name string, k refKind) (Finding, bool, error) {
	if k.model != modelPath {
		// Most fields of ids are no tree: a look at a few hundred of
		// their references, each found by _id, spares the full pass.
		ok, err := mostlyResolve(ctx, r, c, name, k)
		if err != nil || !ok {
			return Finding{}, false, err
		}
	}
	var st refStats
	if err := r.one(ctx, c.name, refPipeline(name, k), &st); err != nil {
		return Finding{}, false, err
	}
	if st.Refs == 0 || float64(st.Resolved) < resolvedShare*float64(st.Refs) {
		return Finding{}, false, nil
	}
	model := k.model
	roots := st.Empty
	fanOut := st.MaxKids
	switch {
	case model == modelParent:
	case model == modelPath:
	case st.MaxIn <= 1:
		// Every node named at most once: each has one parent, which
		// lists it.
		model, roots, fanOut = modelChildren, st.Unnamed, st.MaxRefs
	case st.FirstNotRoot == 0:
		model = modelAncestors
	default:
		// Nodes named by several arrays that do not start at a root: a
		// graph (friends, related items), not a tree.
		return Finding{}, false, nil
	}
	// A tree has roots, and a node with more than one child; a chain of
	// single links is a list.
	if roots == 0 || fanOut < 2 {
		return Finding{}, false, nil
	}
	depth, cycles, walked := st.MaxLevel, st.SelfRefs, st.Nodes
	if model == modelParent || model == modelChildren {
		var err error
		if depth, cycles, walked, err = walk(ctx, r, c, name); err != nil {
			return Finding{}, false, err
		}
	}
	figs := []Figure{{"nodes", st.Nodes}, {"roots", roots}, {"depth", depth}, {"largest fan-out", fanOut},
		{"references", st.Refs}, {"references resolved", st.Resolved}, {"cycles", cycles}}
	if walked < st.Nodes {
		figs = append(figs, Figure{"depth and cycles from walks of", walked})
	}
	conf := High
	summary := fmt.Sprintf("%s holds a tree as %s (%d nodes, %d roots, depth %d, up to %d children): %s.",
		name, model, st.Nodes, roots, depth, fanOut, treeCosts(model))
	if k.sep != "" {
		summary = fmt.Sprintf("%s holds a tree as %s separated by %q (%d nodes, %d roots, depth %d, up to %d children): %s.",
			name, model, k.sep, st.Nodes, roots, depth, fanOut, treeCosts(model))
	}
	if cycles > 0 {
		conf = Medium
		summary += fmt.Sprintf(" %d nodes are in a cycle: fix the data before relying on walks.", cycles)
	}
	return Finding{
		Pattern: PatternTree, Collection: c.name, Field: name, Lesson: lessonTree, Confidence: conf, Summary: summary,
		Evidence: Evidence{Figures: figs, Reference: treePage,
			Threshold: fmt.Sprintf("≥ %d %% of references name a node of the same collection, at least one root, and a node with two children", int(resolvedShare*100))},
	}, true, nil
}

// gateRefs is how many references mostlyResolve looks up.
const gateRefs = 500

// mostlyResolve reports whether most of a sample of the field's
// references name an _id of the same collection.
func mostlyResolve(ctx context.Context, r reader, c *collection, name string, k refKind) (bool, error) {
	var res struct {
		Refs int64 `bson:"refs"`
		Hit  int64 `bson:"hit"`
	}
	pipeline := bson.A{
		bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: gateRefs}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "r", Value: k.refs(name)}}}},
		bson.D{{Key: "$unwind", Value: "$r"}},
		bson.D{{Key: "$limit", Value: gateRefs}},
		bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: c.name}, {Key: "localField", Value: "r"}, {Key: "foreignField", Value: "_id"},
			{Key: "pipeline", Value: bson.A{bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 1}}}}}}, {Key: "as", Value: "m"}}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "refs", Value: bson.D{{Key: "$sum", Value: 1}}},
			{Key: "hit", Value: bson.D{{Key: "$sum", Value: cond(bson.D{{Key: "$gt", Value: bson.A{bson.D{{Key: "$size", Value: "$m"}}, 0}}}, 1, 0)}}}}}},
	}
	if err := r.one(ctx, c.name, pipeline, &res); err != nil {
		return false, err
	}
	return res.Refs > 0 && float64(res.Hit) >= resolvedShare*float64(res.Refs), nil
}

// walk follows references from up to treeWalks nodes with $graphLookup,
// on the server: the longest walk is the depth, and a walk that comes back
// to its start is a cycle.
func walk(ctx context.Context, r reader, c *collection, name string) (depth, cycles, walked int64, err error) {
	var res struct {
		Walked int64 `bson:"walked"`
		Depth  int64 `bson:"depth"`
		Cycles int64 `bson:"cycles"`
	}
	pipeline := bson.A{
		bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: treeWalks}}}},
		bson.D{{Key: "$graphLookup", Value: bson.D{{Key: "from", Value: c.name}, {Key: "startWith", Value: "$" + name},
			{Key: "connectFromField", Value: name}, {Key: "connectToField", Value: "_id"}, {Key: "as", Value: "walk"},
			{Key: "maxDepth", Value: maxTreeDepth}, {Key: "depthField", Value: "d"}}}},
		bson.D{{Key: "$project", Value: bson.D{
			{Key: "levels", Value: bson.D{{Key: "$add", Value: bson.A{bson.D{{Key: "$max", Value: bson.A{-1, bson.D{{Key: "$max", Value: "$walk.d"}}}}}, 2}}}},
			{Key: "cycle", Value: bson.D{{Key: "$in", Value: bson.A{"$_id", "$walk._id"}}}},
		}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "walked", Value: bson.D{{Key: "$sum", Value: 1}}},
			{Key: "depth", Value: bson.D{{Key: "$max", Value: "$levels"}}},
			{Key: "cycles", Value: bson.D{{Key: "$sum", Value: cond("$cycle", 1, 0)}}}}}},
	}
	if err := r.one(ctx, c.name, pipeline, &res); err != nil {
		return 0, 0, 0, err
	}
	return res.Depth, res.Cycles, res.Walked, nil
}
