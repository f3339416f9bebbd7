package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
)

// Dependency analysis, as mongod's Pipeline::getDependencies: walking the
// stages in order, each adds the fields it reads; a stage that builds its
// output from those fields alone ($group, an inclusion $project,
// $replaceRoot, $bucketAuto, $facet) ends the walk, and then the query
// under the pipeline need only return those fields. Anything the analysis
// does not know needs the whole document, as mongod's NOT_SUPPORTED does.

type depsState int

const (
	seeNext    depsState = iota // later stages may read more
	exhaustive                  // this stage's output is all that follows
	wholeDoc                    // the stage needs the entire document
)

// DependencyProjection returns the projection mongod pushes below the
// pipeline (DepsTracker::toProjectionWithoutMetadata): the fields read,
// sorted with parents absorbing their descendants, each as 1, then _id: 0
// unless _id is read. ok is false when the pipeline needs whole documents
// or reads no field at all.
//
// fieldsOnly says that the stages up to the one that ends the walk do
// nothing with a document but read those fields: none keeps, measures or
// passes on the documents it reads. A whole document then gives them what
// its projection would, so the projection need not be built.
func (p *Pipeline) DependencyProjection() (proj bson.D, fieldsOnly, ok bool) {
	var fields []string
	done := false
	fieldsOnly = true
	for _, s := range p.stages {
		state, deps, _ := stageDependencies(s)
		if state == wholeDoc {
			return nil, false, false
		}
		fields = append(fields, deps...)
		fieldsOnly = fieldsOnly && readsFieldsOnly(s, state)
		if state == exhaustive {
			done = true
			break
		}
	}
	if !done || len(fields) == 0 {
		return nil, false, false
	}
	return dependencyProjection(fields), fieldsOnly, true
}

// NeedsNoContent reports whether the stages read nothing of their input
// documents, neither a field nor metadata, before one of them builds its
// output afresh (DepsTracker::hasNoRequirements). mongod then plans the
// query beneath as a count (QueryPlannerParams::IS_COUNT, pipeline_d.cpp)
// and pushes no projection down.
func (p *Pipeline) NeedsNoContent() bool {
	for _, s := range p.stages {
		state, deps, meta := stageDependencies(s)
		if state == wholeDoc || len(deps) > 0 || meta {
			return false
		}
		if state == exhaustive {
			return true
		}
	}
	return false
}

// readsFieldsOnly: s reads fields of its input documents and nothing else
// of them. $sort and $bucketAuto count the size of the documents they hold
// (explain shows it, and allowDiskUse: false fails past the memory limit),
// $replaceRoot prints its input in an error, and stages that pass
// documents on copy them whole. A $top or $bottom sorting on a dotted path
// reads its sort key through arrays as the key generator does, where an
// element that is not a document counts as null: the projection would
// have dropped that element.
func readsFieldsOnly(s Stage, state depsState) bool {
	switch x := s.(type) {
	case *matchStage, *limitStage, *skipStage:
		return true
	case *groupStage:
		return !slices.ContainsFunc(x.accs, func(a *accStatement) bool {
			return a.sortBy != nil && slices.ContainsFunc(a.sortBy.Paths, func(p []string) bool { return len(p) > 1 })
		})
	case *projectStage:
		return state == exhaustive && x.mode == modeInclusion
	}
	return false
}

// dependencyProjection orders paths as mongod's OrderedPathSet does ('.'
// sorts before every other character, so a parent comes right before its
// children) and drops the children of included parents.
func dependencyProjection(fields []string) bson.D {
	key := func(s string) string { return strings.ReplaceAll(s, ".", "\x00") }
	slices.SortFunc(fields, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	var out bson.D
	idSpecified := false
	last := ""
	for _, f := range fields {
		if last != "" && strings.HasPrefix(f, last) || f == strings.TrimSuffix(last, ".") {
			continue
		}
		last = f + "."
		if f == "_id" || strings.HasPrefix(f, "_id.") {
			idSpecified = true
		}
		out = append(out, bson.E{Key: f, Value: int32(1)})
	}
	if !idSpecified {
		out = append(out, bson.E{Key: "_id", Value: int32(0)})
	}
	return out
}

// beforeNumericComponent cuts a path at its first numeric component. A
// query path, a sort key or $lookup's localField "a.0.x" reads element 0
// of an array as well as field "0" of a document, which a find projection
// cannot express, so the whole of "a" is asked for. An expression's field
// path reads field "0" only, as a projection does, so it is kept whole
// (jstest aggregation/sources/lookup/lookup_numeric_field.js: $graphLookup's
// startWith "$a.b.0" projects "a.b.0", $lookup's localField "a.b.0" "a.b").
func beforeNumericComponent(path string) string {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		if i > 0 && p != "" && strings.Trim(p, "0123456789") == "" {
			return strings.Join(parts[:i], ".")
		}
	}
	return path
}

// meta reports that the stage reads the documents' metadata ($meta).
func stageDependencies(s Stage) (state depsState, paths []string, meta bool) {
	var d exprDeps
	switch x := s.(type) {
	case *matchStage:
		d.filter(x.filter)
		for _, n := range x.next {
			d.filter(n.filter)
		}
		return d.result(seeNext)
	case *sortStage:
		for _, e := range x.pattern {
			if _, isMeta := e.Value.(bson.D); isMeta {
				d.meta = true
			} else {
				d.paths = append(d.paths, beforeNumericComponent(e.Key))
			}
		}
		return d.result(seeNext)
	case *limitStage, *skipStage:
		return seeNext, nil, false
	case *sampleStage:
		// $sample sets each document's randVal metadata.
		return seeNext, nil, true
	case *unwindStage:
		return seeNext, []string{x.path}, false
	case *groupStage:
		d.expr(x.idSpec)
		d.accumulators(x.accs)
		return d.result(exhaustive)
	case *bucketAutoStage:
		d.expr(x.groupBy)
		d.accumulators(x.accs)
		return d.result(exhaustive)
	case *replaceRootStage:
		d.expr(x.newRoot)
		return d.result(exhaustive)
	case *projectStage:
		switch x.mode {
		case modeExclusion:
			return seeNext, nil, false
		}
		spec, _ := x.userSpec.(bson.D)
		d.inclusion(spec, "")
		if x.mode == modeAddFields {
			return d.result(seeNext)
		}
		if !x.proj.ExcludesID() {
			d.paths = append(d.paths, "_id")
		}
		return d.result(exhaustive)
	case *lookupStage:
		if x.unwind != nil {
			return wholeDoc, nil, false
		}
		if x.localField != "" {
			d.paths = append(d.paths, beforeNumericComponent(x.localField))
		}
		for _, l := range x.let {
			d.expr(l.spec)
		}
		return d.result(seeNext)
	case *graphLookupStage:
		// DocumentSourceGraphLookUp::getDependencies: startWith's fields.
		d.expr(x.startWithSpec)
		return d.result(seeNext)
	}
	return wholeDoc, nil, false
}

// exprDeps collects the fields of a stage's expressions.
type exprDeps struct {
	paths []string
	whole bool
	meta  bool
}

func (d *exprDeps) result(state depsState) (depsState, []string, bool) {
	if d.whole {
		return wholeDoc, nil, d.meta
	}
	return state, d.paths, d.meta
}

func (d *exprDeps) expr(spec any) {
	deps := expr.Dependencies(spec)
	d.paths = append(d.paths, deps.Paths...)
	d.whole = d.whole || deps.Whole
	d.meta = d.meta || deps.Meta
}

func (d *exprDeps) accumulators(accs []*accStatement) {
	for _, a := range accs {
		if args, ok := a.spec.(bson.D); ok && !(len(args) > 0 && strings.HasPrefix(args[0].Key, "$")) {
			// $top/$bottom(N) read their sortBy's fields by name.
			for _, e := range args {
				if e.Key == "sortBy" {
					if sb, ok := e.Value.(bson.D); ok {
						for _, k := range sb {
							d.paths = append(d.paths, beforeNumericComponent(k.Key))
						}
					}
					continue
				}
				d.expr(e.Value)
			}
			continue
		}
		d.expr(a.spec)
	}
}

// filter adds the paths a query filter reads: each predicate's full path,
// $and/$or/$nor branches, and $expr's fields; $where and the like need the
// document.
func (d *exprDeps) filter(f bson.D) {
	for _, e := range f {
		switch e.Key {
		case "$and", "$or", "$nor":
			if arr, ok := e.Value.(bson.A); ok {
				for _, b := range arr {
					if bd, ok := b.(bson.D); ok {
						d.filter(bd)
					}
				}
			}
		case "$expr":
			d.expr(e.Value)
		case "$comment":
		default:
			if strings.HasPrefix(e.Key, "$") {
				d.whole = true
				return
			}
			d.paths = append(d.paths, beforeNumericComponent(e.Key))
		}
	}
}

// inclusion adds an inclusion $project's (or $addFields') paths and
// expression fields. A computed field below the root also reads its parent
// path, as InclusionNode::reportDependencies says: its shape depends on
// whether the parent is an array.
func (d *exprDeps) inclusion(spec bson.D, prefix string) {
	for _, e := range spec {
		path := e.Key
		if prefix != "" {
			path = prefix + "." + e.Key
		}
		computed := func(v any) {
			if i := strings.LastIndexByte(path, '.'); i >= 0 {
				d.paths = append(d.paths, path[:i])
			}
			d.expr(v)
		}
		switch v := e.Value.(type) {
		case bool, int32, int64, float64, bson.Decimal128:
			if expr.IsTrue(v) {
				d.paths = append(d.paths, path)
			}
		case bson.D:
			if len(v) > 0 && strings.HasPrefix(v[0].Key, "$") {
				computed(v)
			} else {
				d.inclusion(v, path)
			}
		default:
			computed(v)
		}
	}
}
