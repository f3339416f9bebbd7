package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The unpacking of a time-series collection's buckets builds only the
// fields the rest of the pipeline reads, as mongod's optimizer arranges
// (DocumentSourceInternalUnpackBucket::doOptimizeAt: hasNoRequirements,
// extractOrBuildProjectToInternalize and internalizeProject; the README's
// "$project, $addFields and $set rewrite"):
//
//   - when nothing after it reads any field (a count), it includes none;
//   - an inclusion $project of plain fields right after it, with no filter
//     on the measurements, becomes its include list and goes;
//   - otherwise, when the fields the rest reads are known, it includes
//     those top-level fields (the filter's among them);
//   - otherwise an exclusion $project of plain fields right after it, with
//     no filter, becomes its exclude list and goes.
//
// Explain shows the list as "include" or "exclude", sorted, with the
// metaField last (serializeToArray keeps the metaField apart).

// unpackFields is the unpacking's field set and behaviour (BucketSpec's
// fieldSet and Behavior): a field is built when include says it is listed.
type unpackFields struct {
	include bool
	names   []string
}

// keeps reports whether measurements carry field.
func (f unpackFields) keeps(field string) bool {
	return f.include == slices.Contains(f.names, field)
}

// spec is the list as explain shows it.
func (f unpackFields) spec(metaField string) bson.E {
	names := make([]string, 0, len(f.names))
	meta := false
	for _, n := range f.names {
		if metaField != "" && n == metaField {
			meta = true
			continue
		}
		names = append(names, n)
	}
	slices.Sort(names)
	if meta {
		names = append(names, metaField)
	}
	list := make(bson.A, len(names))
	for i, n := range names {
		list[i] = n
	}
	key := "exclude"
	if f.include {
		key = "include"
	}
	return bson.E{Key: key, Value: list}
}

// project keeps the fields of a measurement the unpacking builds.
func (f unpackFields) project(m bson.D) bson.D {
	if !f.include && len(f.names) == 0 {
		return m
	}
	out := m[:0]
	for _, e := range m {
		if f.keeps(e.Key) {
			out = append(out, e)
		}
	}
	return out
}

// internalizeUnpackFields sets the field list of each unpacking that has
// none yet from the stages after it.
func internalizeUnpackFields(stages []Stage) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		u, ok := stages[i].(*unpackBucketStage)
		if !ok || u.fieldsGiven {
			continue
		}
		rest := stages[i+1:]
		fields, finite := u.restDependencies(rest)
		if finite && len(fields) == 0 {
			u.fields = unpackFields{include: true}
		}
		names, inclusion, plain := plainProjection(rest[0])
		if plain && inclusion && u.filter == nil {
			u.fields = unpackFields{include: true, names: names}
			stages = slices.Delete(stages, i+1, i+2)
			continue
		}
		if finite && len(fields) > 0 {
			u.fields = unpackFields{include: true, names: fields}
			continue
		}
		if plain && !inclusion && u.filter == nil {
			u.fields = unpackFields{names: names}
			stages = slices.Delete(stages, i+1, i+2)
		}
	}
	return stages
}

// pushMetaExclusion moves the part of an exclusion $project right after
// an unpacking (with no filter on the measurements) that is on the
// metaField before it, as a $project of the buckets' "meta"
// (extractProjectForPushDown, extractProjectOnFieldAndRename): the field
// is then dropped from each bucket rather than from each measurement. An
// exclusion left with nothing but the metaField goes.
func pushMetaExclusion(stages []Stage, p *parser) []Stage {
	for i := 0; i+1 < len(stages); i++ {
		u, ok := stages[i].(*unpackBucketStage)
		if !ok || u.filter != nil || u.metaField == "" {
			continue
		}
		proj, ok := stages[i+1].(*projectStage)
		if !ok || proj.mode != modeExclusion {
			continue
		}
		var onMeta any
		var rest bson.D
		empty := true
		for _, e := range TransformationSpec(proj.proj) {
			if e.Key == u.metaField {
				onMeta = e.Value
				continue
			}
			rest = append(rest, e)
			empty = empty && e.Key == "_id" && e.Value == true
		}
		if onMeta == nil {
			continue
		}
		pushed, err := parseProject(bson.D{{Key: "meta", Value: onMeta}}, p)
		if err != nil {
			continue
		}
		var remainder []Stage
		if !empty {
			if remainder, err = parseProject(rest, p); err != nil {
				continue
			}
		}
		out := append(append(append(stages[:i:i], pushed...), u), remainder...)
		stages = append(out, stages[i+2:]...)
		i++
	}
	return stages
}

// restDependencies are the top-level fields that the stages after an
// unpacking and its event filter read (DepsTracker::
// toProjectionWithoutMetadata truncated to the root level, without an _id
// no stage reads); finite is false when they need whole documents.
func (u *unpackBucketStage) restDependencies(rest []Stage) (fields []string, finite bool) {
	var paths []string
	if u.eventFilter != nil {
		var d exprDeps
		d.filter(u.eventFilter)
		if d.whole {
			return nil, false
		}
		paths = d.paths
	}
	for _, s := range rest {
		state, deps, _ := stageDependencies(s)
		switch state {
		case wholeDoc:
			return nil, false
		case exhaustive:
			paths = append(paths, deps...)
			for _, p := range paths {
				root, _, _ := strings.Cut(p, ".")
				if !slices.Contains(fields, root) {
					fields = append(fields, root)
				}
			}
			return fields, true
		}
		paths = append(paths, deps...)
	}
	return nil, false
}

// plainProjection is getIncludeExcludeProjectAndType with
// canInternalizeProjectObj: the fields of an inclusion or exclusion
// projection whose every field, as it serializes, is a boolean (a dotted
// field serializes as a document, a computed one as an expression). An
// inclusion's _id excluded (or an exclusion's included) is left out, as
// internalizeProject leaves it.
func plainProjection(s Stage) (names []string, inclusion, ok bool) {
	p, isProject := s.(*projectStage)
	if !isProject || p.mode == modeAddFields {
		return nil, false, false
	}
	inclusion = p.mode == modeInclusion
	for _, e := range TransformationSpec(p.proj) {
		b, isBool := e.Value.(bool)
		if !isBool {
			return nil, false, false
		}
		if e.Key == "_id" && b != inclusion {
			continue
		}
		names = append(names, e.Key)
	}
	return names, inclusion, true
}

// unpackFieldList reads a user's include or exclude list
// (createFromBsonInternal).
func unpackFieldList(v any) ([]string, error) {
	arr, ok := v.(bson.A)
	if !ok {
		return nil, mongoerr.New(5346501, "include or exclude field must be an array, got: "+typeNameOf(v))
	}
	names := make([]string, 0, len(arr))
	for _, e := range arr {
		s, isString := e.(string)
		if !isString {
			return nil, mongoerr.New(5346502, "include or exclude field element must be a string, got: "+typeNameOf(e))
		}
		if strings.Contains(s, ".") {
			return nil, mongoerr.New(5346503, "include or exclude field element must be a single-element field path")
		}
		if !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	return names, nil
}
