package aggregate

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
)

// The holes an exclusion leaves in mongod's Document (projection.Holes)
// matter only to an $addFields/$set that comes later while the document
// is still the same Document: through the stages that hand it on
// ($match, $sort, $limit, $skip, $unwind, $lookup, the projections that
// do not build a new document, and into $facet's sub-pipelines) and not
// past one that serializes or rebuilds it ($group, an inclusion $project,
// $replaceRoot, the document $facet outputs...).
// Run finds those stretches once, so that a pipeline without one pays
// nothing per document.

// HolesSource is an input whose documents may carry holes: Holes is
// those of the document Next returned last (nil for none).
type HolesSource interface {
	Holes() *projection.Holes
}

// holesRole is what a stage does to holes.
type holesRole uint8

const (
	holesEnd   holesRole = iota // serializes or rebuilds the document
	holesCarry                  // hands the document on, maybe setting paths
	holesMake                   // an exclusion: makes holes, and carries
	holesFill                   // $addFields/$set, $lookup...: may fill them, and carry
	holesSink                   // $facet: hands them to sub-pipelines that may fill them
)

func roleOf(s Stage) holesRole {
	switch x := s.(type) {
	case *projectStage:
		switch x.mode {
		case modeExclusion:
			return holesMake
		case modeAddFields:
			return holesFill
		}
	case *lookupStage:
		// setNestedField of its as field writes into a hole by that name.
		return holesFill
	case *unwindStage:
		if x.indexField != "" {
			return holesFill
		}
		return holesCarry
	case *matchStage, *sortStage, *limitStage, *skipStage, inhibitStage, *splitPipelineStage:
		return holesCarry
	case *facetStage:
		// Its TeeBuffer hands every facet the input's Documents
		// (document_source_facet.cpp, tee_buffer.cpp); what it outputs is
		// a new document.
		for _, f := range x.facets {
			if holesReachFiller(f.stages) {
				return holesSink
			}
		}
	}
	return holesEnd
}

// holesReachFiller reports whether a stage that may fill holes comes
// first in stages, or after stages that carry them.
func holesReachFiller[S Stage](stages []S) bool {
	for _, s := range stages {
		switch roleOf(s) {
		case holesFill, holesSink:
			return true
		case holesEnd:
			return false
		}
	}
	return false
}

// holesPlan says, for each stage, whether its input carries holes
// (inputHoles: the pipeline's input does, with names unknown here) and
// whether its output must: only while a later stage, reached through
// stages that carry them, may set a top-level field by a name that may
// be a hole there. So an $unset of one field and a $set of others track
// nothing.
func holesPlan[S Stage](stages []S, inputHoles bool) (in, out []bool) {
	if !inputHoles && !slices.ContainsFunc(stages, func(s S) bool { return roleOf(s) == holesMake }) {
		return nil, nil
	}
	n := len(stages)
	// relevant[j]: stage j may fill a hole that is there when it runs.
	relevant := make([]bool, n)
	var names []string // the top-level names that may be holes
	anyName := inputHoles
	for j, s := range stages {
		r := roleOf(s)
		if r == holesEnd {
			names, anyName = nil, false
			continue
		}
		makes, fills, fillsAny := holeNames(s)
		relevant[j] = (len(names) > 0 || anyName) && (fillsAny || anyName && len(fills) > 0 ||
			slices.ContainsFunc(fills, func(f string) bool { return slices.Contains(names, f) }))
		names = append(names, makes...)
		if r == holesSink {
			names, anyName = nil, false
		}
	}
	// needed[i]: a relevant stage comes after stage i, through stages
	// that carry.
	needed := make([]bool, n)
	reach := false
	for i := n - 1; i >= 0; i-- {
		needed[i] = reach
		switch roleOf(stages[i]) {
		case holesCarry, holesMake, holesFill:
			reach = relevant[i] || reach
		case holesSink:
			reach = relevant[i]
		default:
			reach = false
		}
	}
	var some bool
	live := inputHoles
	in, out = make([]bool, n), make([]bool, n)
	for i, s := range stages {
		in[i] = live
		r := roleOf(s)
		live = r == holesMake || (live && r != holesEnd && r != holesSink)
		out[i] = live && needed[i]
		live = out[i]
		some = some || in[i] || out[i]
	}
	if !some {
		return nil, nil
	}
	return in, out
}

// holeNames are the top-level names a stage may leave holes at (an
// exclusion's, and those an $addFields sets, since $$REMOVE leaves one,
// and $unwind's path, which an empty array it keeps leaves), and those it
// may set (fillsAny: any, for a $facet's sub-pipelines).
func holeNames(s Stage) (makes, fills []string, fillsAny bool) {
	switch x := s.(type) {
	case *projectStage:
		names := x.proj.TopLevelNames()
		if x.mode == modeAddFields {
			return names, names, false
		}
		return names, nil, false
	case *lookupStage:
		return nil, x.asParts[:1], false
	case *unwindStage:
		if x.indexParts != nil {
			fills = x.indexParts[:1]
		}
		return x.parts[:1], fills, false
	case *facetStage:
		return nil, nil, true
	}
	return nil, nil, false
}

// LeadingHolesMatter reports whether the exclusion leading the pipeline
// leaves holes a later stage may fill, so that when the query layer runs
// it the pipeline must still learn them.
func (p *Pipeline) LeadingHolesMatter() bool {
	if len(p.stages) == 0 || roleOf(p.stages[0]) != holesMake {
		return false
	}
	_, out := holesPlan(p.stages, false)
	return out != nil && out[0]
}

// openStage opens stage i of a run that holesPlan planned.
func openStage(s Stage, in Iterator, rt *runtime, holesIn, holesOut []bool, i int) (Iterator, error) {
	if holesIn != nil && (holesIn[i] || holesOut[i]) {
		return openHoled(s, in, rt)
	}
	return s.open(in, rt)
}

// holedSlice yields documents with the holes each had.
type holedSlice struct {
	docs  []bson.D
	holes []*projection.Holes
	i     int
}

func (s *holedSlice) Next() (bson.D, bool, error) {
	if s.i >= len(s.docs) {
		return nil, false, nil
	}
	s.i++
	return s.docs[s.i-1], true, nil
}

func (s *holedSlice) Holes() *projection.Holes {
	if s.i == 0 {
		return nil
	}
	return s.holes[s.i-1]
}

// noHoles hides an iterator's holes from a stage that has no use for them.
type noHoles struct{ Iterator }

// holedIterator is a stage's iterator that also tells its documents'
// holes.
type holedIterator struct {
	Iterator
	holes func() *projection.Holes
}

func (h holedIterator) Holes() *projection.Holes { return h.holes() }

// Meta hands on the wrapped iterator's metadata.
func (h holedIterator) Meta() Meta { return metaOf(h.Iterator) }

// holesOf is the holes of in's last document.
func holesOf(in HolesSource) *projection.Holes {
	if in == nil {
		return nil
	}
	return in.Holes()
}

// openHoled opens a stage whose input carries holes or whose output must:
// projections carry them through the projection executor, the stages
// that return their input's documents hand them on, and those that set
// paths in them carry them past what they set.
func openHoled(s Stage, in Iterator, rt *runtime) (Iterator, error) {
	src, _ := in.(HolesSource)
	var carry func(in, out bson.D, h *projection.Holes) (bson.D, *projection.Holes)
	switch x := s.(type) {
	case *projectStage:
		carry = x.proj.CarryHoles
	case *unwindStage, *lookupStage:
		carry = projection.CarryHoles
	case *facetStage:
		return x.openHoled(in, src, rt), nil
	default:
		// $sort keeps each document's holes with it; $match, $limit and
		// $skip return their input's current document.
		it, err := s.open(in, rt)
		if err != nil {
			return nil, err
		}
		if h, ok := it.(HolesSource); ok {
			return holedIterator{Iterator: it, holes: h.Holes}, nil
		}
		return holedIterator{Iterator: it, holes: func() *projection.Holes { return holesOf(src) }}, nil
	}
	// These derive each output from the input document they read last.
	rec := &holesRecorder{in: in, src: src}
	it, err := s.open(rec, rt)
	if err != nil {
		return nil, err
	}
	unwind, _ := s.(*unwindStage)
	var last *projection.Holes
	from, elem := 0, 0
	return holedIterator{Iterator: funcIterator(func() (bson.D, bool, error) {
		d, ok, err := it.Next()
		if !ok || err != nil {
			return nil, ok, err
		}
		d, last = carry(rec.doc, d, rec.holes)
		if unwind != nil {
			// Each element $unwind emits is the Document the array held,
			// with its own holes.
			if from != rec.read {
				from, elem = rec.read, 0
			} else {
				elem++
			}
			if arr, isArray := getNested(rec.doc, unwind.parts).(bson.A); isArray && len(arr) > 0 {
				last = last.Unwound(unwind.parts, elem)
			}
		}
		return d, true, nil
	}), holes: func() *projection.Holes { return last }}, nil
}

// holesRecorder keeps the document a stage read last, with its holes.
type holesRecorder struct {
	in    Iterator
	src   HolesSource
	doc   bson.D
	holes *projection.Holes
	read  int // documents read so far
}

func (r *holesRecorder) Next() (bson.D, bool, error) {
	d, ok, err := r.in.Next()
	if ok {
		r.doc, r.holes = d, holesOf(r.src)
		r.read++
	}
	return d, ok, err
}

// Meta hands on the input's metadata to a projection that reads it.
func (r *holesRecorder) Meta() Meta { return metaOf(r.in) }

// timedHoles is a timed stage whose documents carry holes.
type timedHoles struct {
	*timedIterator
	src HolesSource
}

func (t timedHoles) Holes() *projection.Holes { return t.src.Holes() }

// runTransformersHoled is runTransformers for an update pipeline in
// which an exclusion's holes reach an $addFields/$set (an $unset then a
// $set of the same field puts it back where it was).
func runTransformersHoled(stages []transformer, doc bson.D, env *expr.Env) (bson.D, error) {
	var h *projection.Holes
	for _, s := range stages {
		out, err := s.transform(doc, env)
		if err != nil {
			return nil, err
		}
		if p, ok := s.(*projectStage); ok {
			out, h = p.proj.CarryHoles(doc, out, h)
		} else {
			h = nil
		}
		doc = out
	}
	return doc, nil
}
