package projection

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Holes are the fields a document lost while it stayed one mongod
// Document. MutableDocument::remove and a setField of a missing value
// keep the field's slot with a missing value (document.h): toBson and
// the field iterator skip it, but a later setField of the same name
// writes the value back into that slot, so an excluded field that an
// $addFields sets again returns at its old position (SERVER-37791,
// jstests/aggregation/bugs/exclusion_projection_does_not_affect_field_order.js).
// The slots go with the Document through the stages that hand it on and
// vanish once it is serialized or rebuilt. Documents here are plain
// bson.D, so the pipeline carries Holes beside the documents that have
// some, and only where a later stage could fill them. nil is no holes.
type Holes struct {
	gaps   []gap    // this document's empty slots, in document order
	nested []nested // the holes of the values of its fields
	elems  []*Holes // for an array: those of each element (nil for none)
	inline [1]gap   // the storage of a single gap, saving an allocation
}

// gap is an empty slot: at is the index the field takes back in the
// visible document (gaps at the same index keep their order).
type gap struct {
	key string
	at  int
}

type nested struct {
	key   string
	holes *Holes
}

// TopLevelNames are the top-level fields the projection names, for an
// exclusion the fields it removes or removes from.
func (p *Projection) TopLevelNames() []string {
	names := make([]string, len(p.root.children))
	for i, c := range p.root.children {
		names[i] = c.name
	}
	return names
}

// CarryHoles gives the holes of out, the result of this projection
// applied to in, whose holes were h (nil for none): an exclusion leaves a
// hole where each field it removed was, an $addFields writes a field
// that has a hole back into it, and its $$REMOVE of a present field
// leaves one. An inclusion builds a new document, which has none.
// out, which the projection made, is reordered in place when a hole is
// filled, and so are the embedded documents it made.
func (p *Projection) CarryHoles(in, out bson.D, h *Holes) (bson.D, *Holes) {
	if p.inclusion && !p.addFields {
		return out, nil
	}
	return carry(p.root, in, out, h)
}

// CarryHoles gives the holes of out, which a stage that sets fields
// without projecting ($lookup's as, $unwind's includeArrayIndex and its
// removal of an empty array) made from in, whose holes were h: fields it
// removed leave holes, fields it set that had one take it back, and
// embedded documents keep theirs.
func CarryHoles(in, out bson.D, h *Holes) (bson.D, *Holes) {
	return carry(nil, in, out, h)
}

// carry walks in with its gaps slot by slot, as mongod's Document keeps
// them, and takes each slot's value from out, which holds in's fields
// that the stage kept, in their order, then those it added: a visible
// field that out lacks becomes a gap, a gap that out has is filled there,
// and the other fields out added come last in out's order. n, the
// projection's node for this document (nil for a stage that only sets
// paths, which carries every embedded document that has holes), says
// which embedded values it changed, to carry their holes the same way. A projection's out is its own, and carry reorders it in
// place; another stage's is copied first.
func carry(n *node, in, out bson.D, h *Holes) (bson.D, *Holes) {
	var gaps []gap
	var nestedHoles []nested
	if h != nil {
		gaps, nestedHoles = h.gaps, h.nested
	}
	var gapBuf [4]gap
	newGaps := gapBuf[:0]
	var newNested []nested
	type fill struct {
		key string
		to  int
	}
	var fillBuf [4]fill
	fills := fillBuf[:0]
	j, pos := 0, 0  // the next field of out; the next position of the result
	own := n != nil // out may be reordered in place
	gapSlot := func(key string) {
		// A gap's name is not among in's fields, so only a field the
		// stage added can carry it.
		for k := len(out) - 1; k >= j; k-- {
			if out[k].Key == key {
				fills = append(fills, fill{key: key, to: pos})
				pos++
				return
			}
		}
		newGaps = append(newGaps, gap{key: key, at: pos})
	}
	g := 0
	for i, e := range in {
		for ; g < len(gaps) && gaps[g].at <= i; g++ {
			gapSlot(gaps[g].key)
		}
		if j >= len(out) || out[j].Key != e.Key {
			newGaps = append(newGaps, gap{key: e.Key, at: pos})
			continue
		}
		if n != nil || len(nestedHoles) > 0 {
			v, sub, changed := nestedCarry(n, e.Key, e.Value, out[j].Value, findNested(nestedHoles, e.Key))
			if changed {
				if n == nil && !own {
					// A stage that only sets paths may share out with in.
					out, own = slices.Clone(out), true
				}
				out[j].Value = v
			}
			if sub != nil {
				newNested = append(newNested, nested{key: e.Key, holes: sub})
			}
		}
		j++
		pos++
	}
	for ; g < len(gaps); g++ {
		gapSlot(gaps[g].key)
	}
	if len(fills) > 0 {
		if n == nil && !own {
			out = slices.Clone(out)
		}
		// Each filled field moves from the end to its slot, in slot
		// order, which shifts the fields between by one.
		for _, f := range fills {
			k := f.to
			for k < len(out) && out[k].Key != f.key {
				k++
			}
			if k == len(out) {
				continue
			}
			e := out[k]
			copy(out[f.to+1:k+1], out[f.to:k])
			out[f.to] = e
		}
	}
	if len(newGaps) == 0 && len(newNested) == 0 {
		return out, nil
	}
	holes := &Holes{nested: newNested}
	holes.gaps = append(holes.inline[:0:len(holes.inline)], newGaps...)
	return out, holes
}

func findNested(ns []nested, key string) *Holes {
	for _, n := range ns {
		if n.key == key {
			return n.holes
		}
	}
	return nil
}

// nestedCarry is the value at key with its holes: kept when the stage
// left it alone or changed it in place (a nested exclusion, or an
// $addFields of paths below it, which mongod applies to a document and to
// each element of an array), gone when the value was replaced. changed
// says that v is to replace out.
func nestedCarry(n *node, key string, in, out any, h *Holes) (v any, sub *Holes, changed bool) {
	if n == nil {
		// A stage that sets a path (setNestedField) sets its last field
		// in the embedded Document's own storage, slots and all: the
		// embedded document is carried as the top-level one is.
		inD, inOK := in.(bson.D)
		outD, outOK := out.(bson.D)
		if h == nil || !inOK || !outOK {
			return out, h, false
		}
		res, sub := carry(nil, inD, outD, h)
		return res, sub, len(res) > 0 && len(outD) > 0 && &res[0] != &outD[0]
	}
	c := n.get(key)
	if c == nil {
		return out, h, false
	}
	if c.kind != kindSubtree {
		return out, nil, false
	}
	return carryValue(c.sub, in, out, h)
}

// carryValue carries the holes of a value a subtree projected: a
// document's, and those of each element of an array, which the executor
// maps element by element (into a new array, which is written in place).
func carryValue(n *node, in, out any, h *Holes) (any, *Holes, bool) {
	switch o := out.(type) {
	case bson.D:
		if i, ok := in.(bson.D); ok {
			res, sub := carry(n, i, o, h)
			return res, sub, len(res) > 0 && len(o) > 0 && &res[0] != &o[0]
		}
	case bson.A:
		i, ok := in.(bson.A)
		if !ok || len(i) != len(o) {
			return out, nil, false
		}
		var elems []*Holes
		for k := range o {
			var eh *Holes
			if h != nil && k < len(h.elems) {
				eh = h.elems[k]
			}
			v, sub, changed := carryValue(n, i[k], o[k], eh)
			if changed {
				o[k] = v
			}
			if sub != nil {
				if elems == nil {
					elems = make([]*Holes, len(o))
				}
				elems[k] = sub
			}
		}
		if elems != nil {
			return out, &Holes{elems: elems}, false
		}
	}
	return out, nil, false
}

// Unwound is h for one document $unwind made of element i of the array at
// path: the holes that element had are now those of the value at path.
func (h *Holes) Unwound(path []string, i int) *Holes {
	if h == nil || len(path) == 0 {
		return h
	}
	at := slices.IndexFunc(h.nested, func(n nested) bool { return n.key == path[0] })
	if at < 0 {
		return h
	}
	var sub *Holes
	if len(path) > 1 {
		sub = h.nested[at].holes.Unwound(path[1:], i)
	} else if arr := h.nested[at].holes; arr != nil && i < len(arr.elems) {
		sub = arr.elems[i]
	}
	out := &Holes{gaps: h.gaps, nested: slices.Clone(h.nested)}
	if sub == nil {
		out.nested = slices.Delete(out.nested, at, at+1)
	} else {
		out.nested[at].holes = sub
	}
	if len(out.gaps) == 0 && len(out.nested) == 0 {
		return nil
	}
	return out
}
