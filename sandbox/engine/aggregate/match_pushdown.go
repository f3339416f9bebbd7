package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
)

// Moving a $match before the stage ahead of it, as mongod's
// DocumentSource::pushMatchBefore (document_source.cpp) does while it
// optimizes a pipeline: the stage reports the paths it modifies
// (getModifiedPaths), DocumentSourceMatch::splitMatchByModifiedFields
// splits the $match into what does not read them, which goes before the
// stage under the field names the stage renames from, and the rest, which
// stays. So a filter runs before the work it makes unnecessary (or an
// expression fails on documents the filter drops), and a $match that
// reaches the front of the pipeline becomes the query's filter.

// modifiedPaths is getModifiedPaths for the stages whose constraints say
// canSwapWithMatch; ok is false for every other stage.
func modifiedPaths(s Stage) (query.Modified, bool) {
	switch x := s.(type) {
	case *projectStage:
		// $project, $unset, $addFields and $set
		// (DocumentSourceSingleDocumentTransformation).
		allExcept, paths, renames := x.proj.ModifiedPaths()
		return query.Modified{AllExcept: allExcept, Paths: paths, Renames: renames}, true
	case *sortStage:
		// A $sort modifies nothing, but once it has absorbed a $limit a
		// $match no longer commutes with it (DocumentSourceSort's
		// canSwapWithMatch is !hasLimit()).
		return query.Modified{}, x.limit == 0
	case *unwindStage:
		return query.Modified{Paths: x.modifiedPaths()}, true
	case *groupStage:
		return query.Modified{AllExcept: true, Renames: x.keyRenames(), KeepExpr: true}, true
	case *lookupStage:
		return query.Modified{Paths: joinModifiedPaths(x.as, x.unwind)}, true
	case *graphLookupStage:
		return query.Modified{Paths: joinModifiedPaths(x.as, x.unwind)}, true
	}
	return query.Modified{}, false
}

// joinModifiedPaths is getModifiedPaths of a $lookup or $graphLookup:
// its "as" field and the paths of the $unwind it absorbed.
func joinModifiedPaths(as string, unwind *unwindStage) []string {
	paths := []string{as}
	if unwind != nil {
		paths = append(paths, unwind.modifiedPaths()...)
	}
	return paths
}

// modifiedPaths is DocumentSourceUnwind::getModifiedPaths: the unwound
// path and the index field.
func (s *unwindStage) modifiedPaths() []string {
	if s.indexField != "" {
		return []string{s.path, s.indexField}
	}
	return []string{s.path}
}

// compoundKey is the fields of a $group's _id when it is an object of
// expressions rather than one expression (the group's idFieldNames).
func (g *groupStage) compoundKey() (bson.D, bool) {
	fields, ok := g.idSpec.(bson.D)
	return fields, ok && (len(fields) == 0 || !strings.HasPrefix(fields[0].Key, "$"))
}

// keyRenames is DocumentSourceGroup::getModifiedPaths' renames: a group
// key, or a field of a compound key, that is "$x" holds field x. Nothing
// else of the input survives the grouping.
func (g *groupStage) keyRenames() map[string]string {
	renames := map[string]string{}
	if fields, ok := g.compoundKey(); ok {
		for _, f := range fields {
			if from, ok := projection.RenamedField(f.Value); ok {
				renames["_id."+f.Key] = from
			}
		}
	} else if from, ok := projection.RenamedField(g.idSpec); ok {
		renames["_id"] = from
	}
	return renames
}

// groupKeyPaths are the paths of a $group's output key: _id, or _id.f
// for each field f of a compound key.
func (g *groupStage) groupKeyPaths() []string {
	fields, ok := g.compoundKey()
	if !ok || len(fields) == 0 {
		return []string{"_id"}
	}
	paths := make([]string, len(fields))
	for i, f := range fields {
		paths[i] = "_id." + f.Key
	}
	return paths
}

// groupMatchSwapVerified (document_source.cpp): $type tells apart the
// values a $group key made equal, and every group has an _id even when
// the single key it came from was missing, so a $match with a $type on
// the key, or an $exists on a single key, stays after the $group.
func groupMatchSwapVerified(g *groupStage, f *query.Filter) bool {
	keys := g.groupKeyPaths()
	return !f.HasPredicateOn(keys, len(keys) == 1)
}

// withGroupKeyRenames is DocumentSourceGroup::pushDotRenamedMatch: right
// after a $group, a projection's "$_id.k" copies a field of the group's
// compound key, which holds no array, so it is a rename too.
func withGroupKeyRenames(mod query.Modified, s Stage, g *groupStage) query.Modified {
	p, ok := s.(*projectStage)
	if !ok {
		return mod
	}
	keys := g.groupKeyPaths()
	renames := map[string]string{}
	for k, v := range mod.Renames {
		renames[k] = v
	}
	for out, from := range p.proj.ComplexRenames() {
		if slices.Contains(keys, from) {
			renames[out] = from
		}
	}
	mod.Renames = renames
	return mod
}

// pushMatchBefore moves all or part of the $match at i+1 before stage i;
// it reports whether anything moved. The halves are the split filter
// serialized and parsed again, as in mongod; should one not parse, the
// $match stays where it is.
func pushMatchBefore(stages []Stage, i int, p *parser) ([]Stage, bool) {
	m, ok := stages[i+1].(*matchStage)
	if !ok {
		return stages, false
	}
	mod, ok := modifiedPaths(stages[i])
	if !ok {
		return stages, false
	}
	if i > 0 {
		if g, isGroup := stages[i-1].(*groupStage); isGroup {
			mod = withGroupKeyRenames(mod, stages[i], g)
		}
	}
	f, err := query.Compile(m.filter, p.matchOptions())
	if err != nil {
		return stages, false
	}
	if g, ok := stages[i].(*groupStage); ok && !groupMatchSwapVerified(g, f) {
		return stages, false
	}
	moved, kept := f.Split(mod)
	if moved == nil {
		return stages, false
	}
	before := m
	if kept != nil || len(mod.Renames) > 0 {
		// Unless it moves whole under the same names, the $match is
		// rebuilt (splitSourceByFunc).
		if before, err = newMatch(moved, p); err != nil {
			return stages, false
		}
	}
	out := make([]Stage, 0, len(stages)+1)
	out = append(out, stages[:i]...)
	out = append(out, before, stages[i])
	if kept != nil {
		after, err := newMatch(kept, p)
		if err != nil {
			return stages, false
		}
		out = append(out, after)
	}
	return append(out, stages[i+2:]...), true
}

// matchOptions compiles a $match's filter in the pipeline's context.
func (p *parser) matchOptions() query.Options {
	return query.Options{Now: p.ctx.Now, LetVars: p.letVals, JSONSchema: validation.CompileSchema}
}

// pushMatches moves $match stages forward until none can move further,
// coalescing the stages each move brings together (a $match that meets
// another merges with it, a $sort meets its $limit), as mongod's
// optimizeAt steps back after each swap.
func pushMatches(stages []Stage, p *parser) []Stage {
	stages = copyRedactSafeMatches(coalesce(stages), p)
	for {
		moved := false
		for i := 0; i+1 < len(stages) && !moved; i++ {
			stages, moved = pushMatchBefore(stages, i, p)
		}
		if !moved {
			return stages
		}
		stages = coalesce(stages)
	}
}

// copyRedactSafeMatches puts before each $redact followed by a $match
// the part of the $match $redact cannot change the answer of
// (DocumentSourceRedact::doOptimizeAt); the $match itself stays. Once per
// $redact: the copy leaves the original in place.
func copyRedactSafeMatches(stages []Stage, p *parser) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		if _, ok := stages[i].(*redactStage); !ok {
			continue
		}
		m, ok := stages[i+1].(*matchStage)
		if !ok {
			continue
		}
		safe := redactSafePortion(m.filter)
		if len(safe) == 0 {
			continue
		}
		copied, err := newMatch(safe, p)
		if err != nil {
			continue
		}
		stages = append(stages[:i], append([]Stage{copied}, stages[i:]...)...)
		i++
	}
	return stages
}
