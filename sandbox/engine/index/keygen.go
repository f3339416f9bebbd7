package index

import (
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// keyGen walks a document the way mongod's BtreeKeyGenerator does
// (src/mongo/db/index/btree_key_generator.cpp), for index keys and for the
// sort keys SortKeyGenerator takes from it. Fields that reach the same
// array are expanded together, one element at a time, so {"a.b": 1,
// "a.c": 1} over {a: [{b: 1}, {c: 2}]} gives (1, null) and (null, 2), not
// every pairing (GetKeysAlternateMissing in btree_key_generator_test.cpp).
// An element that is not a document has none of the remaining path, so it
// gives null. A positional component ("a.0") that the array has selects
// that element once for every element of the expansion.
type keyGen struct {
	paths  [][]string
	sparse bool
	// arrays, when set, receives per field the components whose array
	// was expanded (mongod's multikey paths).
	arrays []uint64
	visit  func(key []any)
}

// keyField is one field's state in the walk: the part of its path not
// yet followed (none once its value is fixed) and its value.
type keyField struct {
	rest []string
	val  any
}

// positional is PositionalPathInfo: the element a positional component
// selects in the array being expanded, with the rest of the path already
// followed from it.
type positional struct {
	set     bool
	indexed any    // the selected element
	index   string // its position, for the ambiguity error
	arr     bson.A
	dotted  any // what the rest of the path reaches from it
	found   bool
	rest    []string
	loc     string // where dotted is in the document
	name    string // its field name, for the parallel-arrays error
}

// location names where a value is in the document, so that two fields
// reaching one array can be told from two fields reaching two arrays
// (mongod compares the elements' addresses). It is built only when an
// array is met.
type location struct {
	base  string
	index int // the array element the walk is in, or -1
}

func (l location) String() string {
	if l.index < 0 {
		return l.base
	}
	return l.base + "." + strconv.Itoa(l.index)
}

// walk visits doc's keys. Two fields through different arrays fail with
// CannotIndexParallelArrays, and a positional component that an element
// also holds as a field name with 16746, as mongod's do.
func (g *keyGen) walk(doc bson.D) error {
	fields := make([]keyField, len(g.paths))
	for i, p := range g.paths {
		fields[i].rest = p
	}
	return g.withArray(fields, doc, location{index: -1}, 0, nil)
}

// withArray is _getKeysWithArray: it takes every unfinished field one
// step further into obj, and expands the one array they reach. pos is nil
// when no field has a positional component selecting an element.
func (g *keyGen) withArray(fields []keyField, obj bson.D, loc location, notFound int, pos []positional) error {
	var arr bson.A
	arrLoc, arrName := "", ""
	haveArr := false
	var arrIdxs []int
	mayExpand := true
	for i := range fields {
		f := &fields[i]
		if len(f.rest) == 0 {
			continue
		}
		var p *positional
		if pos != nil {
			p = &pos[i]
		}
		v, found, rest, at, name, nested, err := nextElement(obj, loc, p, f.rest)
		if err != nil {
			return err
		}
		f.rest = rest
		if !found {
			f.val, f.rest = nil, nil
			notFound++
			continue
		}
		a, isArray := v.(bson.A)
		if !isArray {
			f.val = v
			continue
		}
		arrIdxs = append(arrIdxs, i)
		switch {
		case !haveArr:
			arr, arrLoc, arrName, haveArr = a, at, name, true
		case at != arrLoc:
			return mongoerr.Newf(mongoerr.CannotIndexParallelArrays, "cannot index parallel arrays [%s] [%s]", name, arrName)
		}
		if nested {
			mayExpand = false
		}
	}
	if !haveArr {
		if g.sparse && notFound == len(fields) {
			return nil
		}
		key := make([]any, len(fields))
		for i := range fields {
			key[i] = fields[i].val
		}
		g.visit(key)
		return nil
	}
	if len(arr) == 0 {
		if mayExpand {
			for _, i := range arrIdxs {
				g.noteArray(i, len(g.paths[i])-len(fields[i].rest)-1)
			}
		}
		return g.element(fields, bson.Undefined{}, location{index: -1}, notFound, arr, arrIdxs, true, nil)
	}
	var sub []positional
	for i := range fields {
		rest := fields[i].rest
		if len(rest) == 0 {
			if mayExpand && slices.Contains(arrIdxs, i) {
				g.noteArray(i, len(g.paths[i])-1)
			}
			continue
		}
		idx, ok := value.ArrayIndex(rest[0])
		if !ok || idx >= len(arr) {
			g.noteArray(i, len(g.paths[i])-len(rest)-1)
			continue
		}
		if sub == nil {
			sub = make([]positional, len(fields))
		}
		p := &sub[i]
		p.set, p.indexed, p.index, p.arr = true, arr[idx], rest[0], arr
		var consumed int
		p.dotted, p.found, consumed = alongPath(value.ArrayAsDoc(arr), rest)
		p.rest = rest[consumed:]
		p.loc = arrLoc + "." + strings.Join(rest[:consumed], ".")
		p.name = rest[consumed-1]
	}
	for k, e := range arr {
		if err := g.element(fields, e, location{base: arrLoc, index: k}, notFound, arr, arrIdxs, mayExpand, sub); err != nil {
			return err
		}
	}
	return nil
}

// element is _getKeysArrEltFixed: the walk continued in one element of
// the array being expanded. A field that ended at the array takes the
// element as its value, or the whole array when a positional component
// selected an array inside it (an array is not expanded twice).
func (g *keyGen) element(fields []keyField, e any, loc location, notFound int, arr bson.A, arrIdxs []int, mayExpand bool, pos []positional) error {
	next := make([]keyField, len(fields))
	copy(next, fields)
	for _, i := range arrIdxs {
		if len(next[i].rest) == 0 {
			if mayExpand {
				next[i].val = e
			} else {
				next[i].val = arr
			}
		}
	}
	obj, _ := e.(bson.D)
	return g.withArray(next, obj, loc, notFound, pos)
}

// nextElement is _extractNextElement: the value a field's path reaches
// from obj, or the first array on the way, with the path left after it,
// where it is and its field name. A field that a positional component
// of the expanded array selects (p, nil for none) reads the selected
// element; nested reports that the element is itself an array.
func nextElement(obj bson.D, loc location, p *positional, path []string) (v any, found bool, rest []string, at, name string, nested bool, err error) {
	haveField := !value.IsMissing(value.Get(obj, path[0]))
	selected := p != nil && p.set
	if haveField && selected {
		msg := expr.FormatValue(value.ArrayAsDoc(p.arr))
		const maxLength = 1024
		if len(msg) >= maxLength {
			msg = msg[:maxLength/3] + " .......... " + msg[len(msg)-maxLength/3:]
		}
		return nil, false, nil, "", "", false, mongoerr.Newf(mongoerr.ErrAmbiguousArrayFieldName,
			"Ambiguous field name found in array (do not use numeric field names in embedded elements in an array), field: '%s' for array: %s",
			p.index, msg)
	}
	switch {
	case haveField:
		v, found, consumed := alongPath(obj, path)
		if !found {
			return nil, false, nil, "", "", false, nil
		}
		if _, isArray := v.(bson.A); isArray {
			at = loc.String() + "." + strings.Join(path[:consumed], ".")
		}
		return v, true, path[consumed:], at, path[consumed-1], false, nil
	case selected:
		_, nested = p.indexed.(bson.A)
		return p.dotted, p.found, p.rest, p.loc, p.name, nested, nil
	}
	return nil, false, nil, "", "", false, nil
}

// alongPath is dotted_path_support's extractElementAtPathOrArrayAlongPath:
// it follows path through documents until it ends or reaches an array,
// and reports how many components it followed.
func alongPath(obj bson.D, path []string) (any, bool, int) {
	for i, part := range path {
		v := value.Get(obj, part)
		if value.IsMissing(v) {
			return nil, false, i + 1
		}
		if i == len(path)-1 {
			return v, true, i + 1
		}
		switch v := v.(type) {
		case bson.A:
			return v, true, i + 1
		case bson.D:
			obj = v
		default:
			return nil, false, i + 1
		}
	}
	return nil, false, 0
}

func (g *keyGen) noteArray(field, component int) {
	if g.arrays != nil {
		g.arrays[field] |= 1 << uint(component)
	}
}
