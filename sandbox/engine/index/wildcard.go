package index

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Wildcard indexes ({"$**": 1}, {"a.$**": 1}) follow mongod 8.0's
// single-field wildcard index: src/mongo/db/index/wildcard_key_generator.cpp
// for the keys, src/mongo/db/catalog/index_key_validate.cpp and
// index_catalog_impl.cpp (_isSpecOk) for the spec, and
// src/mongo/db/query/planner_wildcard_helpers.cpp for the per-path views
// the planner scans (Expand). Compound wildcard indexes are refused as not
// implemented.

// WildcardPathField is the name of the path component of a wildcard
// index's keys, as explain shows it.
const WildcardPathField = "$_path"

// wildcardSuffix ends the key of a wildcard index over one subtree.
const wildcardSuffix = ".$**"

// Wildcard is what a wildcard index indexes: the fields its projection
// keeps (the subtree of "a.$**", the wildcardProjection of "$**", or all
// but _id).
type Wildcard struct {
	proj *projection.Projection
	// included are the paths of an inclusion projection (or the subtree
	// root), excluded those of an exclusion one; _id is excluded unless
	// included by name.
	included, excluded []string
	idIncluded         bool
}

// isWildcardKey reports a key pattern field naming a wildcard.
func isWildcardKey(k string) bool { return k == "$**" || strings.HasSuffix(k, wildcardSuffix) }

// wildcardKeyProblem is validateKeyPattern's check of the field names of
// a wildcard key: no empty component, and no component starting with '$'
// but a final "$**" (with a numeric value: a string names a plugin).
func wildcardKeyProblem(k string, v any) error {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		if p == "" {
			return mongoerr.New(mongoerr.CannotCreateIndex, "Index keys cannot contain an empty field.")
		}
		if strings.HasPrefix(p, "$") {
			if i == len(parts)-1 && p == "$**" && value.IsNumber(v) {
				continue
			}
			return mongoerr.New(mongoerr.CannotCreateIndex, "Index key contains an illegal field name: field name starts with '$'.")
		}
	}
	return nil
}

// parseWildcardKey validates the key pattern of a wildcard index: a
// non-zero number on "$**" or "path.$**", alone.
func (s *Spec) parseWildcardKey() error {
	for _, e := range s.Key {
		if !isWildcardKey(e.Key) {
			continue
		}
		if str, ok := e.Value.(string); ok {
			if str == "wildcard" {
				return mongoerr.New(mongoerr.CannotCreateIndex, "The key pattern value for an 'wildcard' index must be a non-zero number, not a string.")
			}
			if str == "text" && e.Key == "$**" {
				return mongoerr.New(mongoerr.NotImplemented, "text indexes are not supported by the schemalab sandbox")
			}
		}
		if err := wildcardKeyProblem(e.Key, e.Value); err != nil {
			return err
		}
		if len(s.Key) > 1 {
			return mongoerr.New(mongoerr.NotImplemented, "compound wildcard indexes are not supported by the schemalab sandbox")
		}
		if !value.IsNumber(e.Value) {
			return mongoerr.Newf(mongoerr.CannotCreateIndex, "Error in specification %s :: caused by :: Values in v:2 index key pattern cannot be of type %s. Only numbers > 0, numbers < 0, and strings are allowed.", FormatDoc(s.Key), value.TypeName(e.Value))
		}
		if value.ToDouble(e.Value) == 0 {
			return mongoerr.Newf(mongoerr.CannotCreateIndex, "Error in specification %s :: caused by :: Values in the index key pattern can't be 0.", FormatDoc(s.Key))
		}
		s.Fields = []Field{{Path: e.Key, Desc: value.ToDouble(e.Value) < 0}}
		s.Wildcard = &Wildcard{}
		return nil
	}
	return nil
}

// hasWildcardKey reports whether a key pattern names a wildcard.
func hasWildcardKey(key bson.D) bool {
	return slices.ContainsFunc(key, func(e bson.E) bool { return isWildcardKey(e.Key) })
}

// finishWildcard is validateIndexSpec's wildcardProjection check (only on
// a single "$**" key, a non-empty document of inclusions or exclusions),
// and compiles what the index projects.
func (s *Spec) finishWildcard(doc bson.D) error {
	wp := value.Get(doc, "wildcardProjection")
	haveProj := !value.IsMissing(wp)
	if s.Wildcard == nil {
		if haveProj {
			return mongoerr.New(mongoerr.BadValue, "The field 'wildcardProjection' is only allowed in an 'wildcard' index")
		}
		return nil
	}
	root := s.Fields[0].Path
	var spec bson.D
	if haveProj {
		d, ok := wp.(bson.D)
		if !ok {
			return mongoerr.Newf(mongoerr.TypeMismatch, "The field 'wildcardProjection' must be a non-empty object, but got %s", value.TypeName(wp))
		}
		if root != "$**" {
			return mongoerr.New(mongoerr.FailedToParse, "The field 'wildcardProjection' is only allowed when 'key' is {\"$**\": ±1}")
		}
		if len(d) == 0 {
			return mongoerr.New(mongoerr.FailedToParse, "The 'wildcardProjection' field can't be an empty object")
		}
		spec = d
	}
	if err := s.Wildcard.compile(root, spec); err != nil {
		return err
	}
	return nil
}

// ValidateWildcardOptions is IndexCatalogImpl::_isSpecOk's refusal of a
// wildcard index of version 1 (validateKeyPattern at the spec's version,
// "bad index key pattern") and of the options a wildcard index cannot
// have, which createIndexes reports without the spec around it (it runs
// after validateIndexSpec).
func ValidateWildcardOptions(doc bson.D, s Spec) error {
	if s.Wildcard == nil {
		return nil
	}
	if v, _ := value.WholeNumber(value.Get(doc, "v")); v == 1 {
		return mongoerr.Newf(mongoerr.CannotCreateIndex, "bad index key pattern %s: 'wildcard' index plugin is not allowed with index version v:1", FormatDoc(s.Key))
	}
	switch {
	case s.Sparse:
		return mongoerr.New(mongoerr.CannotCreateIndex, "Index type 'wildcard' does not support the sparse option")
	case s.Unique:
		return mongoerr.New(mongoerr.CannotCreateIndex, "Index type 'wildcard' does not support the unique option")
	case !value.IsMissing(value.Get(doc, "expireAfterSeconds")):
		return mongoerr.New(mongoerr.CannotCreateIndex, "Index type 'wildcard' cannot be a TTL index")
	}
	return nil
}

// compile builds the projection mongod's WildcardKeyGenerator applies
// before it walks a document: {root: 1} for "root.$**", the given
// wildcardProjection, or {_id: 0}; _id is left out unless the projection
// names it (wildcardIndexSpecProjectionPolicies).
func (w *Wildcard) compile(root string, spec bson.D) error {
	if root != "$**" {
		spec = bson.D{{Key: strings.TrimSuffix(root, wildcardSuffix), Value: int32(1)}}
	} else if spec == nil {
		spec = bson.D{{Key: "_id", Value: int32(0)}}
	}
	var paths []pathFlag
	for _, e := range spec {
		if err := flattenProjection(e, "", &paths); err != nil {
			return wrapProjectionError(err)
		}
	}
	full := spec
	namesID := slices.ContainsFunc(paths, func(p pathFlag) bool { return p.path == "_id" || strings.HasPrefix(p.path, "_id.") })
	if !namesID {
		full = append(slices.Clone(spec), bson.E{Key: "_id", Value: int32(0)})
	}
	p, err := projection.Compile(full, projection.Options{})
	if err != nil {
		return wrapProjectionError(err)
	}
	w.proj = p
	for _, pf := range paths {
		switch {
		case pf.path == "_id":
			w.idIncluded = pf.include
		case pf.include:
			w.included = append(w.included, pf.path)
		default:
			w.excluded = append(w.excluded, pf.path)
		}
	}
	return nil
}

func wrapProjectionError(err error) error {
	if me, ok := err.(*mongoerr.Error); ok {
		return mongoerr.Newf(me.Code, "Failed to parse: wildcardProjection :: caused by :: %s", me.Msg)
	}
	return err
}

type pathFlag struct {
	path    string
	include bool
}

// flattenProjection lists a projection's leaves as dotted paths; a
// wildcard projection admits only inclusions and exclusions (mongod's
// kBanComputedFields, error 51271).
func flattenProjection(e bson.E, prefix string, out *[]pathFlag) error {
	path := prefix + e.Key
	switch v := e.Value.(type) {
	case bson.D:
		if len(v) > 0 && !strings.HasPrefix(v[0].Key, "$") {
			for _, c := range v {
				if err := flattenProjection(c, path+".", out); err != nil {
					return err
				}
			}
			return nil
		}
	case bool, int32, int64, float64, bson.Decimal128:
		*out = append(*out, pathFlag{path: path, include: value.ToDouble(v) != 0 || v == true})
		return nil
	}
	return mongoerr.New(51271, "Bad projection specification, cannot use computed fields when parsing a spec in kBanComputedFields mode")
}

// Indexes reports whether the wildcard index holds keys for path
// (projection_executor_utils::applyProjectionToFields).
func (w *Wildcard) Indexes(path string) bool {
	under := func(prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+".") }
	if under("_id") {
		return w.idIncluded
	}
	if w.proj.Inclusion() {
		return slices.ContainsFunc(w.included, under)
	}
	return !slices.ContainsFunc(w.excluded, under)
}

// Wildcard returns the wildcard description of a wildcard index (or of a
// view of one), nil for any other index.
func (ix *Index) Wildcard() *Wildcard { return ix.wc }

// wildcardKeys is WildcardKeyGenerator::generateKeys: the projected
// document's leaves, one key ($_path, value) each; an array's elements are
// keys of the array's path, an array inside an array is a value, an empty
// array is undefined and an empty object itself; a path that held an
// array is recorded as multikey. Fields whose name holds a '.' cannot be
// queried, and are skipped.
func (ix *Index) wildcardKeys(doc bson.D) (KeySet, error) {
	projected, err := ix.wc.proj.Apply(doc, -1)
	if err != nil {
		return KeySet{}, err
	}
	ks := KeySet{}
	var path []string
	var walk func(fields bson.D, arr bson.A, inArray bool)
	add := func(v any) {
		ks.Keys = append(ks.Keys, []any{strings.Join(path, "."), v})
	}
	visit := func(name string, v any, inArray bool) {
		if !inArray {
			if strings.Contains(name, ".") {
				return
			}
			path = append(path, name)
			defer func() { path = path[:len(path)-1] }()
		}
		switch x := v.(type) {
		case bson.A:
			if inArray {
				add(x)
				return
			}
			ks.multikeyPaths = append(ks.multikeyPaths, strings.Join(path, "."))
			if len(x) == 0 {
				add(bson.Undefined{})
				return
			}
			walk(nil, x, true)
		case bson.D:
			if len(x) == 0 {
				add(x)
				return
			}
			walk(x, nil, false)
		default:
			add(v)
		}
	}
	walk = func(fields bson.D, arr bson.A, inArray bool) {
		if inArray {
			for _, v := range arr {
				visit("", v, true)
			}
			return
		}
		for _, e := range fields {
			visit(e.Key, e.Value, false)
		}
	}
	walk(projected, nil, false)
	if len(ks.Keys) > 1 {
		// A document's keys form a set: equal keys (the same value twice
		// in an array) are one entry.
		slices.SortFunc(ks.Keys, ix.compareKeys)
		ks.Keys = slices.CompactFunc(ks.Keys, func(a, b []any) bool { return ix.compareKeys(a, b) == 0 })
	}
	return ks, nil
}

// Expand is the view of a wildcard index the planner scans for queries on
// path (createExpandedIndexEntry): key pattern {$_path: 1, path: ±1},
// multikey where path, or a prefix of it, held an array; ok is false when
// the index cannot answer a query on path (validateNumericPathComponents).
func (ix *Index) Expand(path string) (*Index, []int, bool) {
	// The expansion shares ix's entries and reads its multikey paths.
	ix.ready()
	parts := strings.Split(path, ".")
	comps := ix.multikeyComponents(parts)
	arrayIdx := ArrayIndexComponents(comps, parts)
	if len(arrayIdx) > 0 {
		if len(arrayIdx) > 8 {
			return nil, nil, false
		}
		for _, i := range arrayIdx {
			if i+1 < len(parts) && numericStrict(parts[i+1]) {
				return nil, nil, false
			}
		}
		if inc := ix.wc.included; len(inc) > 0 {
			for _, p := range inc {
				if path == p || strings.HasPrefix(path, p+".") {
					if arrayIdx[0] < strings.Count(p, ".")+1 {
						return nil, nil, false
					}
				}
			}
		}
	}
	spec := ix.Spec
	spec.Key = bson.D{{Key: WildcardPathField, Value: int32(1)}, {Key: path, Value: ix.Spec.Key[0].Value}}
	spec.Fields = []Field{{Path: WildcardPathField}, {Path: path, Desc: ix.Spec.Fields[0].Desc}}
	var mask uint64
	for _, c := range comps {
		mask |= 1 << uint(c)
	}
	e := &Index{
		Spec:      spec,
		parts:     [][]string{{WildcardPathField}, parts},
		tree:      ix.tree,
		partial:   ix.partial,
		arrays:    []uint64{0, mask},
		keyFields: spec.Fields,
		wc:        ix.wc,
	}
	return e, comps, true
}

// multikeyComponents is buildMultiKeyPathsForExpandedWildcardIndexEntry:
// the positions of path's components that held an array, an array index
// after a multikey component matching the path without it.
func (ix *Index) multikeyComponents(parts []string) []int {
	var comps []int
	for i := range parts {
		prefix := parts[:i+1]
		if _, ok := ix.multikeyPaths[strings.Join(prefix, ".")]; ok {
			comps = append(comps, i)
			continue
		}
		if !slices.ContainsFunc(prefix, numericStrict) {
			continue
		}
		for p := range ix.multikeyPaths {
			if arrayIndexPathMatches(prefix, strings.Split(p, "."), comps) {
				comps = append(comps, i)
				break
			}
		}
	}
	return comps
}

// arrayIndexPathMatches is fieldNameOrArrayIndexPathMatches: query
// matches static when its numeric components right after a multikey
// component are skipped.
func arrayIndexPathMatches(query, static []string, comps []int) bool {
	if len(static) > len(query) {
		return false
	}
	offset := 0
	for i := range query {
		if i-offset >= len(static) {
			return false
		}
		if query[i] == static[i-offset] {
			continue
		}
		if slices.Contains(comps, i-1) && numericStrict(query[i]) {
			offset++
			continue
		}
		return false
	}
	return len(query) == len(static)+offset
}

// ArrayIndexComponents is findArrayIndexPathComponents: the positions of
// numeric components that follow a multikey component, which may index
// into an array.
func ArrayIndexComponents(comps []int, parts []string) []int {
	var out []int
	for _, i := range comps {
		if i < len(parts)-1 && numericStrict(parts[i+1]) {
			out = append(out, i+1)
		}
	}
	return out
}

// numericStrict is FieldRef::isNumericPathComponentStrict: digits, with
// no leading zero unless the component is "0".
func numericStrict(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
