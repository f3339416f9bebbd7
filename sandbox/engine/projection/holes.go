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

func (h *Holes) nestedHoles(key string) *Holes {
	if h == nil {
		return nil
	}
	for _, n := range h.nested {
		if n.key == key {
			return n.holes
		}
	}
	return nil
}

// CarryHoles gives the holes of out, the result of this projection
// applied to in, whose holes were h (nil for none): an exclusion leaves a
// hole where each field it removed was, an $addFields writes a field
// that has a hole back into it, and its $$REMOVE of a present field
// leaves one. An inclusion builds a new document, which has none.
// out is reordered in place when a hole is filled.
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
// them, and takes each slot's value from out: a visible field that out
// lacks becomes a gap, a gap that out has is filled there, and the
// fields out added come last in out's order. n, the projection's node
// for this document (nil for a stage that only sets paths), says which
// embedded documents it changed, to carry their holes the same way. The
// result is a new document; out, which may share values with in, is
// left as it is.
func carry(n *node, in, out bson.D, h *Holes) (bson.D, *Holes) {
	var gaps []gap
	if h != nil {
		gaps = h.gaps
	}
	used := make([]bool, len(out))
	hint := 0
	find := func(key string) int {
		if hint < len(out) && !used[hint] && out[hint].Key == key {
			return hint
		}
		for j, e := range out {
			if !used[j] && e.Key == key {
				return j
			}
		}
		return -1
	}
	res := make(bson.D, 0, len(out))
	var next Holes
	slot := func(key string, fromIn any, hasIn bool) {
		j := find(key)
		if j < 0 {
			next.gaps = append(next.gaps, gap{key: key, at: len(res)})
			return
		}
		used[j], hint = true, j+1
		e := out[j]
		var sub *Holes
		e.Value, sub = nestedCarry(n, key, fromIn, hasIn, e.Value, h.nestedHoles(key))
		if sub != nil {
			next.nested = append(next.nested, nested{key: key, holes: sub})
		}
		res = append(res, e)
	}
	g := 0
	for i, e := range in {
		for ; g < len(gaps) && gaps[g].at <= i; g++ {
			slot(gaps[g].key, nil, false)
		}
		slot(e.Key, e.Value, true)
	}
	for ; g < len(gaps); g++ {
		slot(gaps[g].key, nil, false)
	}
	for j, e := range out {
		if !used[j] {
			res = append(res, e)
		}
	}
	if len(next.gaps) == 0 && len(next.nested) == 0 {
		return res, nil
	}
	return res, &next
}

// nestedCarry is the value at key with its holes: kept when the stage
// left it alone or changed it in place (a nested exclusion, or an
// $addFields of paths below it, which mongod applies to a document and to
// each element of an array), gone when the value was replaced.
func nestedCarry(n *node, key string, in any, hasIn bool, out any, h *Holes) (any, *Holes) {
	var c *child
	if n != nil {
		c = n.get(key)
	}
	if c == nil {
		return out, h
	}
	if c.kind != kindSubtree || !hasIn {
		return out, nil
	}
	return carryValue(c.sub, in, out, h)
}

// carryValue carries the holes of a value a subtree projected: a
// document's, and those of each element of an array, which the executor
// maps element by element.
func carryValue(n *node, in, out any, h *Holes) (any, *Holes) {
	switch o := out.(type) {
	case bson.D:
		if i, ok := in.(bson.D); ok {
			return carry(n, i, o, h)
		}
	case bson.A:
		i, ok := in.(bson.A)
		if !ok || len(i) != len(o) {
			return out, nil
		}
		var elems []*Holes
		res := make(bson.A, len(o))
		for k := range o {
			var eh *Holes
			if h != nil && k < len(h.elems) {
				eh = h.elems[k]
			}
			var sub *Holes
			res[k], sub = carryValue(n, i[k], o[k], eh)
			if sub != nil {
				if elems == nil {
					elems = make([]*Holes, len(o))
				}
				elems[k] = sub
			}
		}
		if elems == nil {
			return res, nil
		}
		return res, &Holes{elems: elems}
	}
	return out, nil
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
