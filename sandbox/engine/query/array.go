package query

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// Matches implements Node. $size looks at the array itself, never at its
// elements.
func (s *Size) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(s.parts, s.Path), false, s, pos)
}

func (s *Size) matchValue(v any, _ *Position) bool {
	a, ok := v.(bson.A)
	return ok && len(a) == s.N
}

// Matches implements Node.
func (a *All) Matches(doc bson.D, pos *Position) bool {
	if len(a.Members) == 0 {
		return false
	}
	for _, m := range a.Members {
		if !m.Matches(doc, pos) {
			return false
		}
	}
	return true
}

func (a *All) matchValue(v any, _ *Position) bool {
	if len(a.Members) == 0 {
		return false
	}
	for _, m := range a.Members {
		vm, ok := m.(valueMatcher)
		if !ok || !vm.matchValue(v, nil) {
			return false
		}
	}
	return true
}

// Matches implements Node.
func (e *ElemMatchObject) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(e.parts, e.Path), false, e, pos)
}

func (e *ElemMatchObject) matchValue(v any, pos *Position) bool {
	arr, ok := v.(bson.A)
	if !ok {
		return false
	}
	for i, el := range arr {
		var d bson.D
		switch x := el.(type) {
		case bson.D:
			d = x
		case bson.A:
			// An array element is matched as a document keyed "0", "1"...
			d = value.ArrayAsDoc(x)
		default:
			continue
		}
		if e.Filter.Matches(d, nil) {
			record(pos, i)
			return true
		}
	}
	return false
}

// Matches implements Node.
func (e *ElemMatchValue) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(e.parts, e.Path), false, e, pos)
}

func (e *ElemMatchValue) matchValue(v any, pos *Position) bool {
	arr, ok := v.(bson.A)
	if !ok {
		return false
	}
	for i, el := range arr {
		if e.elementMatches(el) {
			record(pos, i)
			return true
		}
	}
	return false
}

func (e *ElemMatchValue) elementMatches(el any) bool {
	for _, p := range e.Predicates {
		vm, ok := p.(valueMatcher)
		if !ok || !vm.matchValue(el, nil) {
			return false
		}
	}
	return true
}
