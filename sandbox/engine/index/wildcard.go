package index

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Wildcard indexes ({"$**": 1}, {"a.$**": 1}, and compound ones such as
// {a: 1, "b.$**": 1}) follow mongod 8.0:
// src/mongo/db/index/wildcard_key_generator.cpp for the keys,
// src/mongo/db/catalog/index_key_validate.cpp, index/wildcard_validation.cpp
// and index_catalog_impl.cpp (_isSpecOk) for the spec, and
// src/mongo/db/query/planner_wildcard_helpers.cpp for the per-path views
// the planner scans (Expand).

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
	// pos is the position of the wildcard field in the key pattern; the
	// other fields are a compound wildcard index's regular fields.
	pos int
	// included are the paths of an inclusion projection (or the subtree
	// root), excluded those of an exclusion one; _id is excluded unless
	// included by name.
	included, excluded     []string
	idIncluded, idExcluded bool
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

// parseWildcardKey validates the key pattern of a wildcard index: one
// "$**" or "path.$**" field, and for a compound wildcard index regular
// fields that validateWildcardIndex accepts, each a non-zero number.
func (s *Spec) parseWildcardKey() error {
	if err := validateWildcardIndex(s.Key); err != nil {
		return err
	}
	s.Fields = make([]Field, 0, len(s.Key))
	pos := 0
	for i, e := range s.Key {
		wild := isWildcardKey(e.Key)
		if str, ok := e.Value.(string); ok {
			if str == "wildcard" {
				return mongoerr.New(mongoerr.CannotCreateIndex, "The key pattern value for an 'wildcard' index must be a non-zero number, not a string.")
			}
			if str == "text" && e.Key == "$**" {
				return mongoerr.New(mongoerr.NotImplemented, "text indexes are not supported by the schemalab sandbox")
			}
		}
		if wild {
			if err := wildcardKeyProblem(e.Key, e.Value); err != nil {
				return err
			}
			pos = i
		} else if err := checkKeyFieldName(e.Key); err != nil {
			return err
		}
		desc, err := numericKeyValue(e.Value)
		if err != nil {
			return err
		}
		s.Fields = append(s.Fields, Field{Path: e.Key, Desc: desc})
	}
	s.Wildcard = &Wildcard{pos: pos}
	return nil
}

// validateWildcardIndex is wildcard_validation.cpp's check of a wildcard
// key pattern: one wildcard field, and no regular field inside the
// subtree "path.$**" indexes.
func validateWildcardIndex(key bson.D) error {
	root := ""
	found := false
	for _, e := range key {
		if !isWildcardKey(e.Key) {
			continue
		}
		if found {
			return mongoerr.New(7246201, "Index Key can contain only one wildcard index field")
		}
		found = true
		root = strings.TrimSuffix(strings.TrimSuffix(e.Key, "$**"), ".")
	}
	if root == "" {
		return nil
	}
	for _, e := range key {
		if !isWildcardKey(e.Key) && isPathPrefixOrEqual(root, e.Key) {
			return mongoerr.Newf(7246204, "A wildcard index field should not overlap with and index key fields if wildcard projection is empty, however '%s' is overlapping with the wildcard index field.", e.Key)
		}
	}
	return nil
}

// isPathPrefixOrEqual is FieldRef::isPrefixOfOrEqualTo for dotted paths.
func isPathPrefixOrEqual(prefix, path string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".")
}

// Pos is the position of the wildcard field in the key pattern; in a
// view (Expand) it is the position of the "$_path" field, which the
// queried path follows.
func (w *Wildcard) Pos() int { return w.pos }

// CompoundAllFieldsProblem is validateIndexSpec's refusal of a compound
// "$**" index without a wildcardProjection (index_key_validate.cpp).
func CompoundAllFieldsProblem(key bson.D, doc bson.D) error {
	if len(key) > 1 && slices.ContainsFunc(key, func(e bson.E) bool { return e.Key == "$**" && value.IsNumber(e.Value) }) &&
		value.IsMissing(value.Get(doc, "wildcardProjection")) {
		return mongoerr.New(mongoerr.CannotCreateIndex, "Compound wildcard indexes on all fields must also specify 'wildcardProjection' option")
	}
	return nil
}

// hasWildcardKey reports whether a key pattern names a wildcard.
func hasWildcardKey(key bson.D) bool {
	return slices.ContainsFunc(key, func(e bson.E) bool { return isWildcardKey(e.Key) })
}

// finishWildcard is validateIndexSpec's wildcardProjection check (only
// with a "$**" key, a non-empty document of inclusions or exclusions,
// which a compound index's regular fields must stay out of), and compiles
// what the index projects.
func (s *Spec) finishWildcard(doc bson.D) error {
	wp := value.Get(doc, "wildcardProjection")
	haveProj := !value.IsMissing(wp)
	if s.Wildcard == nil {
		if haveProj {
			return mongoerr.New(mongoerr.BadValue, "The field 'wildcardProjection' is only allowed in an 'wildcard' index")
		}
		return nil
	}
	root := s.Fields[s.Wildcard.pos].Path
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
	// validateWildcardProjection runs before the projection is parsed.
	var compound []Field
	if haveProj && len(s.Fields) > 1 {
		compound = s.Fields
	}
	return s.Wildcard.compile(root, spec, compound)
}

// checkRegularFields is validateWildcardProjection for a compound index
// (wildcard_validation.cpp, with the _id rules and the order of checks
// compound_wildcard_index_validation.js expects): the projection's paths do not overlap each other; it
// does not mix inclusions and exclusions but for _id; an inclusion
// projection names none of the regular fields, and an exclusion
// projection excludes every one of them. _id counts on the side of the
// projection's kind only.
func (w *Wildcard) checkRegularFields(fields []Field) error {
	var regular []string
	for i, f := range fields {
		if i != w.pos {
			regular = append(regular, f.Path)
		}
	}
	included, excluded := slices.Clone(w.included), slices.Clone(w.excluded)
	for _, list := range [][]string{included, excluded} {
		slices.SortFunc(list, ComparePaths)
		for i := 1; i < len(list); i++ {
			if isPathPrefixOrEqual(list[i-1], list[i]) {
				return mongoerr.Newf(7246200, "Fields in Wildcard Projection cannot overlap, however '%s' is overlapped with '%s", list[i-1], list[i])
			}
		}
	}
	if len(included) > 0 && len(excluded) > 0 {
		return mongoerr.New(7246211, "Inclusion and exclusion statements cannot combine in the wildcardProjection with an exception of explicitly including _id field")
	}
	slices.SortFunc(regular, ComparePaths)
	if len(included) > 0 || len(excluded) == 0 && w.idIncluded {
		if w.idIncluded {
			included = append(included, "_id")
			slices.SortFunc(included, ComparePaths)
		}
		for _, f := range regular {
			for _, p := range included {
				if isPathPrefixOrEqual(p, f) {
					return mongoerr.Newf(7246208, "Index Key and Wildcard Projection cannot contain overlapping fields, however '%s' index field is ovverlapping with '%s' wildcardProjection path.", f, p)
				}
			}
		}
		return nil
	}
	if w.idExcluded {
		excluded = append(excluded, "_id")
		slices.SortFunc(excluded, ComparePaths)
	}
	// The merge walk of validateWildcardProjection: a regular field that
	// sorts before every exclusion left to match is not excluded.
	i, j := 0, 0
	for i < len(regular) && j < len(excluded) {
		switch {
		case isPathPrefixOrEqual(excluded[j], regular[i]):
			i++
		case ComparePaths(excluded[j], regular[i]) < 0:
			j++
		default:
			return mongoerr.Newf(7246209, "wildcardProjection paths must exclude all regular index fields, however '%s'is not excluded.", regular[i])
		}
	}
	if i < len(regular) {
		return mongoerr.Newf(7246210, "wildcardProjection paths must exclude all regular index fields, however '%s'is not excluded.", regular[i])
	}
	return nil
}

// ComparePaths orders dotted paths component by component, as FieldRef
// does.
func ComparePaths(a, b string) int {
	return slices.Compare(strings.Split(a, "."), strings.Split(b, "."))
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
func (w *Wildcard) compile(root string, spec bson.D, compound []Field) error {
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
	for _, pf := range paths {
		switch {
		case pf.path == "_id":
			w.idIncluded, w.idExcluded = pf.include, !pf.include
		case pf.include:
			w.included = append(w.included, pf.path)
		default:
			w.excluded = append(w.excluded, pf.path)
		}
	}
	if compound != nil {
		if err := w.checkRegularFields(compound); err != nil {
			return err
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

// sameProjection compares two wildcard indexes' projections as mongod
// compares their normalized form: {a: 0} and {_id: 0, a: 0} are one
// projection, as are {a: {b: 1}} and {"a.b": 1}. Two nil projections (no
// wildcard index) are the same.
func (w *Wildcard) sameProjection(o *Wildcard) bool {
	if w == nil || o == nil {
		return w == o
	}
	sorted := func(paths []string) []string {
		c := slices.Clone(paths)
		slices.Sort(c)
		return c
	}
	return w.idIncluded == o.idIncluded && slices.Equal(sorted(w.included), sorted(o.included)) && slices.Equal(sorted(w.excluded), sorted(o.excluded))
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

// wildcardKeyFields are fields with the wildcard field at pos stored as
// pathField (the "$_path" field) and the value.
func wildcardKeyFields(fields []Field, pos int, pathField Field) []Field {
	out := make([]Field, 0, len(fields)+1)
	out = append(out, fields[:pos]...)
	out = append(out, pathField, fields[pos])
	return append(out, fields[pos+1:]...)
}

// wildcardKeys is WildcardKeyGenerator::generateKeys: the projected
// document's leaves, one key ($_path, value) each; an array's elements are
// keys of the array's path, an array inside an array is a value, an empty
// array is undefined and an empty object itself; a path that held an
// array is recorded as multikey. Fields whose name holds a '.' cannot be
// queried, and are skipped. A compound wildcard index puts the regular
// fields' values (null when missing) around each ($_path, value); a
// document with regular fields but no leaf to index has the one key
// (..., MinKey, MinKey, ...).
func (ix *Index) wildcardKeys(doc bson.D) (KeySet, error) {
	projected, err := ix.wc.proj.Apply(doc, -1)
	if err != nil {
		return KeySet{}, err
	}
	pos := ix.wc.pos
	// regular holds a compound index's regular values (nil for a
	// single-field wildcard index, which has none to keep per document).
	var regular []any
	regularFound := false
	if len(ix.parts) > 1 {
		regular = make([]any, len(ix.parts))
		for i, parts := range ix.parts {
			if i == pos {
				continue
			}
			v, err := regularValue(doc, parts, ix.Spec)
			if err != nil {
				return KeySet{}, err
			}
			if !value.IsMissing(v) {
				regular[i], regularFound = v, true
			}
		}
	}
	ks := KeySet{}
	var path []string
	var walk func(fields bson.D, arr bson.A, inArray bool)
	add := func(p, v any) {
		if regular == nil {
			ks.Keys = append(ks.Keys, []any{p, v})
			return
		}
		key := make([]any, 0, len(regular)+1)
		key = append(key, regular[:pos]...)
		key = append(key, p, v)
		ks.Keys = append(ks.Keys, append(key, regular[pos+1:]...))
	}
	addLeaf := func(v any) { add(strings.Join(path, "."), v) }
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
				addLeaf(x)
				return
			}
			ks.multikeyPaths = append(ks.multikeyPaths, strings.Join(path, "."))
			if len(x) == 0 {
				addLeaf(bson.Undefined{})
				return
			}
			walk(nil, x, true)
		case bson.D:
			if len(x) == 0 {
				addLeaf(x)
				return
			}
			walk(x, nil, false)
		default:
			addLeaf(v)
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
	if len(ks.Keys) == 0 && regularFound {
		add(bson.MinKey{}, bson.MinKey{})
	}
	if len(ks.Keys) > 1 {
		// A document's keys form a set: equal keys (the same value twice
		// in an array) are one entry.
		slices.SortFunc(ks.Keys, ix.compareKeys)
		ks.Keys = slices.CompactFunc(ks.Keys, func(a, b []any) bool { return ix.compareKeys(a, b) == 0 })
	}
	return ks, nil
}

// regularValue is the value of a compound wildcard index's regular field
// at path parts, Missing when absent. The manual's compound wildcard
// index restrictions permit no multikey regular field, so an array along
// the path is refused.
func regularValue(doc bson.D, parts []string, spec Spec) (any, error) {
	v, arrayAt := pathValueBeforeArray(doc, parts)
	if arrayAt >= 0 {
		return nil, mongoerr.Newf(mongoerr.CannotBuildIndexKeys, "Index %s: the regular field '%s' of a compound wildcard index cannot hold an array", spec.Name, strings.Join(parts, "."))
	}
	return v, nil
}

// Expand is the view of a wildcard index the planner scans for queries on
// path (createExpandedIndexEntry): the key pattern with the wildcard field
// replaced by {$_path: 1, path: ±1}, multikey where path, or a prefix of
// it, held an array; ok is false when the index cannot answer a query on
// path (validateNumericPathComponents). For a compound wildcard index,
// path "$_path" is the view that answers queries on the regular fields
// before the wildcard alone (expandWildcardIndexEntry's shouldExpand).
func (ix *Index) Expand(path string) (*Index, []int, bool) {
	// The expansion shares ix's entries and reads its multikey paths.
	ix.ready()
	parts := strings.Split(path, ".")
	var comps []int
	if path != WildcardPathField {
		comps = ix.multikeyComponents(parts)
		if !ix.answersNumericPath(path, parts, comps) {
			return nil, nil, false
		}
	}
	pos := ix.wc.pos
	spec := ix.Spec
	wild := ix.Spec.Fields[pos]
	spec.Key = make(bson.D, 0, len(ix.Spec.Key)+1)
	spec.Key = append(spec.Key, ix.Spec.Key[:pos]...)
	spec.Key = append(spec.Key, bson.E{Key: WildcardPathField, Value: int32(1)}, bson.E{Key: path, Value: ix.Spec.Key[pos].Value})
	spec.Key = append(spec.Key, ix.Spec.Key[pos+1:]...)
	spec.Fields = wildcardKeyFields(ix.Spec.Fields, pos, Field{Path: WildcardPathField})
	spec.Fields[pos+1] = Field{Path: path, Desc: wild.Desc}
	viewParts := make([][]string, 0, len(spec.Fields))
	viewParts = append(viewParts, ix.parts[:pos]...)
	viewParts = append(viewParts, []string{WildcardPathField}, parts)
	viewParts = append(viewParts, ix.parts[pos+1:]...)
	var mask uint64
	for _, c := range comps {
		mask |= 1 << uint(c)
	}
	arrays := make([]uint64, len(spec.Fields))
	arrays[pos+1] = mask
	e := &Index{
		Spec:      spec,
		parts:     viewParts,
		tree:      ix.tree,
		partial:   ix.partial,
		arrays:    arrays,
		keyFields: spec.Fields,
		wc:        ix.wc,
	}
	return e, comps, true
}

// answersNumericPath is validateNumericPathComponents: a query path that
// steps through more than 8 array indexes, through two successive ones,
// or along an inclusion projection through an array index, is not
// answered by the index.
func (ix *Index) answersNumericPath(path string, parts []string, comps []int) bool {
	arrayIdx := ArrayIndexComponents(comps, parts)
	if len(arrayIdx) == 0 {
		return true
	}
	if len(arrayIdx) > 8 {
		return false
	}
	for _, i := range arrayIdx {
		if i+1 < len(parts) && numericStrict(parts[i+1]) {
			return false
		}
	}
	for _, p := range ix.wc.included {
		if isPathPrefixOrEqual(p, path) && arrayIdx[0] < strings.Count(p, ".")+1 {
			return false
		}
	}
	return true
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
