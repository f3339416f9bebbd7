package planner

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// interval is a range of values in ascending BSON order.
type interval struct {
	lo, hi       any
	loInc, hiInc bool
}

// oil is an ordered interval list: disjoint intervals ascending.
type oil []interval

func point(v any) interval { return interval{lo: v, hi: v, loInc: true, hiInc: true} }

func fullInterval() interval {
	return interval{lo: bson.MinKey{}, hi: bson.MaxKey{}, loInc: true, hiInc: true}
}

func (o oil) isFull() bool {
	return len(o) == 1 && isMinKey(o[0].lo) && isMaxKey(o[0].hi) && o[0].loInc && o[0].hiInc
}

func (o oil) isPoints() bool {
	for _, iv := range o {
		if !iv.loInc || !iv.hiInc || value.Compare(iv.lo, iv.hi) != 0 {
			return false
		}
	}
	return true
}

func isMinKey(v any) bool { _, ok := v.(bson.MinKey); return ok }
func isMaxKey(v any) bool { _, ok := v.(bson.MaxKey); return ok }

// typeBracket returns the smallest and largest values of v's canonical
// type as mongod's index bounds builder prints them, and whether those
// ends are inclusive.
func typeBracket(v any) (lo any, loInc bool, hi any, hiInc bool) {
	switch v.(type) {
	case int32, int64, float64, bson.Decimal128:
		return math.Inf(-1), true, math.Inf(1), true
	case string, bson.Symbol:
		return "", true, bson.D{}, false
	case bson.D:
		return bson.D{}, true, bson.A{}, false
	case bson.A:
		return bson.A{}, true, bson.Binary{}, false
	case bson.Binary:
		return bson.Binary{}, true, bson.ObjectID{}, false
	case bson.ObjectID:
		var max bson.ObjectID
		for i := range max {
			max[i] = 0xff
		}
		return bson.ObjectID{}, true, max, true
	case bool:
		return false, true, true, true
	case bson.DateTime:
		return bson.DateTime(math.MinInt64), true, bson.DateTime(math.MaxInt64), true
	case bson.Timestamp:
		return bson.Timestamp{}, true, bson.Timestamp{T: math.MaxUint32, I: math.MaxUint32}, true
	case nil:
		return nil, true, nil, true
	case bson.Undefined, bson.MinKey, bson.MaxKey:
		return v, true, v, true
	case bson.Regex:
		// appendMaxForType(RegEx) is the least DBRef.
		return bson.Regex{}, true, bson.DBPointer{}, false
	case bson.DBPointer:
		return bson.DBPointer{}, true, bson.JavaScript(""), false
	case bson.JavaScript:
		// appendMaxForType(Code) is the least CodeWScope.
		return bson.JavaScript(""), true, bson.CodeWithScope{Scope: bson.D{}}, false
	case bson.CodeWithScope:
		return bson.CodeWithScope{Scope: bson.D{}}, true, bson.MaxKey{}, false
	}
	return bson.MinKey{}, true, bson.MaxKey{}, true
}

// predicateBounds returns the bounds a predicate on path gives, and
// whether the predicate can use an index at all.
func predicateBounds(n query.Node, multikey bool) (oil, bool) {
	switch x := n.(type) {
	case *query.Compare:
		return compareBounds(x.Op, x.Value, multikey)
	case *query.In:
		var out oil
		for _, v := range x.Values {
			b, _ := compareBounds("$eq", v, false)
			out = append(out, b...)
		}
		for _, re := range x.Regexes {
			out = append(out, regexBounds(re)...)
		}
		return normalize(out), true
	case *query.Regex:
		return regexBounds(x.Regex), true
	case *query.ElemMatchValue:
		if slices.ContainsFunc(x.Predicates, func(p query.Node) bool { return !indexableOnOwnField(p) }) {
			return nil, false
		}
		var out oil
		ok := false
		for _, p := range x.Predicates {
			b, usable := predicateBounds(p, multikey)
			if !usable {
				continue
			}
			if !ok {
				out, ok = b, true
			} else {
				out = intersect(out, b)
			}
		}
		return out, ok
	case *query.All:
		if len(x.Members) > 0 {
			return predicateBounds(x.Members[0], multikey)
		}
	case *query.Mod:
		return modBounds(), true
	case *query.Exists:
		return existsBounds(x.Exists), true
	case *query.Type:
		return typeBounds(x)
	case *query.InternalExpr:
		return internalExprBounds(x.Op, x.Value), true
	case *query.Not:
		return notBounds(x, multikey)
	case *query.InternalEqHash:
		// A hash bounds no value of the field itself: its one bound is on
		// a hashed key (hashedBounds), and it implies no partial filter.
		return nil, false
	}
	return nil, false
}

// indexableOnOwnField is Indexability::isIndexOnOwnFieldTypeNode
// (indexability.h), which a value $elemMatch needs of every predicate
// (under a $not, of the one it negates) to use an index at all
// (arrayUsesIndexOnOwnField): a $size, $all or nested $elemMatch makes
// the whole $elemMatch unindexable, so {a: {$elemMatch: {$elemMatch:
// {$in: [5]}}}} scans, where the inner $in's bounds would miss the key
// [5] of {a: [[5]]}.
func indexableOnOwnField(p query.Node) bool {
	if n, ok := p.(*query.Not); ok {
		p = n.Child
	}
	switch p.(type) {
	case *query.Compare, *query.In, *query.Regex, *query.Mod, *query.Type, *query.Exists, *query.InternalExpr,
		*query.InternalEqHash:
		return true
	}
	return false
}

// notBounds is translate's NOT (index_bounds_builder.cpp): {$exists:
// false} is the null point, where a missing field is stored; any other
// negation the planner indexes is the complement of its child's bounds.
// QueryPlannerIXSelect::_compatible (planner_ixselect.cpp) indexes the
// negation of a comparison or of a $in without regexes, but not of one
// with an array operand (whose bounds cannot be inverted), nor of $mod,
// $regex, $type, $elemMatch or a conjunction; the rules that depend on
// the index's fields are notCompatible's.
func notBounds(x *query.Not, multikey bool) (oil, bool) {
	switch c := x.Child.(type) {
	case *query.Exists:
		if !c.Exists {
			return nil, false
		}
		return oil{point(nil)}, true
	case *query.Compare:
		if _, isArray := c.Value.(bson.A); isArray || c.Op == "$ne" {
			return nil, false
		}
		// On a multikey index $gt MinKey and $lt MaxKey have inexact
		// bounds, which cannot be inverted.
		if multikey && (c.Op == "$gt" && isMinKey(c.Value) || c.Op == "$lt" && isMaxKey(c.Value)) {
			return nil, false
		}
	case *query.In:
		if len(c.Regexes) > 0 || slices.ContainsFunc(c.Values, func(v any) bool { _, ok := v.(bson.A); return ok }) {
			return nil, false
		}
	default:
		return nil, false
	}
	b, ok := predicateBounds(x.Child, multikey)
	if !ok {
		return nil, false
	}
	return complement(b), true
}

// complement is OrderedIntervalList::complement: the values of [MinKey,
// MaxKey] that o's ascending, disjoint intervals leave out.
func complement(o oil) oil {
	out := oil{}
	lo, loInc := any(bson.MinKey{}), true
	add := func(hi any, hiInc bool) {
		if c := value.Compare(lo, hi); c < 0 || c == 0 && loInc && hiInc {
			out = append(out, interval{lo: lo, hi: hi, loInc: loInc, hiInc: hiInc})
		}
	}
	for _, iv := range o {
		add(iv.lo, !iv.loInc)
		lo, loInc = iv.hi, !iv.hiInc
	}
	add(bson.MaxKey{}, true)
	return out
}

// internalExprBounds is IndexBoundsBuilder::translate for the $expr
// comparisons (index_bounds_builder.cpp, INTERNAL_EXPR_*): no type
// bracketing, so an inequality runs to MinKey or MaxKey; $_internalExprLt
// null keeps the null keys, where a missing field (less than null) is
// stored.
func internalExprBounds(op string, v any) oil {
	var iv interval
	switch op {
	case "$_internalExprEq":
		b, _ := compareBounds("$eq", v, false)
		return b
	case "$_internalExprLt":
		iv = interval{lo: bson.MinKey{}, hi: v, loInc: true, hiInc: v == nil}
	case "$_internalExprLte":
		iv = interval{lo: bson.MinKey{}, hi: v, loInc: true, hiInc: true}
	case "$_internalExprGt":
		iv = interval{lo: v, hi: bson.MaxKey{}, loInc: false, hiInc: true}
	case "$_internalExprGte":
		iv = interval{lo: v, hi: bson.MaxKey{}, loInc: true, hiInc: true}
	}
	// [X, X) and (X, X] are empty and left out.
	if value.Compare(iv.lo, iv.hi) == 0 && !(iv.loInc && iv.hiInc) {
		return oil{}
	}
	return oil{iv}
}

// typeRepresentative is a value of BSON type t, for the types whose
// bracket typeBracket knows (appendMinForType/appendMaxForType).
func typeRepresentative(t int) (any, bool) {
	switch t {
	case 1:
		return 0.0, true
	case 2:
		return "", true
	case 3:
		return bson.D{}, true
	case 5:
		return bson.Binary{}, true
	case 6:
		return bson.Undefined{}, true
	case 11:
		return bson.Regex{}, true
	case 12:
		return bson.DBPointer{}, true
	case 13:
		return bson.JavaScript(""), true
	case 15:
		return bson.CodeWithScope{Scope: bson.D{}}, true
	case -1:
		return bson.MinKey{}, true
	case 127:
		return bson.MaxKey{}, true
	case 7:
		return bson.ObjectID{}, true
	case 8:
		return false, true
	case 9:
		return bson.DateTime(0), true
	case 10:
		return nil, true
	case 14:
		return bson.Symbol(""), true
	case 16:
		return int32(0), true
	case 17:
		return bson.Timestamp{}, true
	case 18:
		return int64(0), true
	case 19:
		return bson.Decimal128{}, true
	}
	return nil, false
}

// typeBounds is IndexBoundsBuilder's TYPE_OPERATOR: the bracket of each
// type (a variable-width type ends before the next type's first value);
// with "array" the whole index, since an array is indexed by its
// elements. A type whose bracket this planner does not model leaves the
// predicate unindexed.
func typeBounds(x *query.Type) (oil, bool) {
	if slices.Contains(x.Types, 4) {
		return oil{fullInterval()}, true
	}
	var out oil
	if x.Number {
		lo, loInc, hi, hiInc := typeBracket(int32(0))
		out = append(out, interval{lo: lo, hi: hi, loInc: loInc, hiInc: hiInc})
	}
	for _, t := range x.Types {
		v, ok := typeRepresentative(t)
		if !ok {
			return nil, false
		}
		lo, loInc, hi, hiInc := typeBracket(v)
		out = append(out, interval{lo: lo, hi: hi, loInc: loInc, hiInc: hiInc})
	}
	return normalize(out), true
}

// compareBounds is IndexBoundsBuilder::translate for $eq, $lt, $lte, $gt
// and $gte (index_bounds_builder.cpp). An inequality is bracketed to its
// operand's type, except that:
//   - an array operand compares lexicographically as a whole, while a
//     multikey index holds its elements: the bounds run from MinKey (up
//     to the array, or to its first element when that sorts after
//     arrays) or to MaxKey (from the array, or from its first element
//     when that sorts before arrays), both ends included; an empty array
//     operand of $gt/$gte scans everything, of $lt/$lte up to [];
//   - $lt MaxKey and $gt MinKey include the MaxKey/MinKey end on a
//     multikey index, whose key MaxKey may come from the array [MaxKey]
//     (less than MaxKey as a whole); $lte MaxKey and $gte MinKey are all
//     values, $lt MinKey and $gt MaxKey nothing;
//   - NaN is below every other number: $lt/$gt NaN match nothing, and
//     $lte/$gte NaN NaN alone;
//   - $lte/$gte null are $eq null.
//
// An interval that holds nothing ((true, true], [MinKey, MinKey)) is left
// out, as mongod drops a null Interval.
func compareBounds(op string, v any, multikey bool) (oil, bool) {
	switch op {
	case "$eq":
		if x, ok := v.(bson.A); ok {
			if len(x) == 0 {
				return oil{point(bson.Undefined{}), point(x)}, true
			}
			return normalize(oil{point(x[0]), point(x)}), true
		}
		return oil{point(v)}, true
	case "$lt", "$lte", "$gt", "$gte":
	default:
		return nil, false
	}
	lt := op == "$lt" || op == "$lte"
	orEqual := op == "$lte" || op == "$gte"
	switch {
	case lt && isMaxKey(v), !lt && isMinKey(v):
		all := fullInterval()
		if !orEqual && !multikey {
			if lt {
				all.hiInc = false
			} else {
				all.loInc = false
			}
		}
		return oil{all}, true
	case value.IsNaN(v):
		if orEqual {
			return oil{point(v)}, true
		}
		return oil{}, true
	case v == nil && orEqual:
		return oil{point(nil)}, true
	}
	var iv interval
	if arr, ok := v.(bson.A); ok {
		iv = arrayComparisonInterval(arr, lt)
	} else {
		lo, loInc, hi, hiInc := typeBracket(v)
		if lt {
			iv = interval{lo: lo, hi: v, loInc: loInc, hiInc: orEqual}
		} else {
			iv = interval{lo: v, hi: hi, loInc: orEqual, hiInc: hiInc}
		}
	}
	if c := value.Compare(iv.lo, iv.hi); c > 0 || c == 0 && !(iv.loInc && iv.hiInc) {
		return oil{}, true
	}
	return oil{iv}, true
}

// arrayComparisonInterval is buildBoundsForQueryElementForLT/GT for an
// array operand, with both ends included.
func arrayComparisonInterval(arr bson.A, lt bool) interval {
	arrayRank := value.CanonicalTypeOrder(bson.A{})
	if lt {
		hi := any(arr)
		if len(arr) > 0 && value.CanonicalTypeOrder(arr[0]) > arrayRank {
			hi = arr[0]
		}
		return interval{lo: bson.MinKey{}, hi: hi, loInc: true, hiInc: true}
	}
	lo := any(arr)
	switch {
	case len(arr) == 0:
		lo = bson.MinKey{}
	case value.CanonicalTypeOrder(arr[0]) < arrayRank:
		lo = arr[0]
	}
	return interval{lo: lo, hi: bson.MaxKey{}, loInc: true, hiInc: true}
}

// regexBounds gives a prefix range for an anchored, case-sensitive regex
// (/^\/Electronics\// → ["/Electronics/", "/Electronics0")) and the whole
// string range otherwise, plus the regex itself since a BSON regex value
// equal to the pattern also matches.
func regexBounds(re bson.Regex) oil {
	self := point(re)
	prefix, _, ok := regexPrefix(re)
	if !ok || prefix == "" {
		return oil{{lo: "", hi: bson.D{}, loInc: true, hiInc: false}, self}
	}
	return oil{{lo: prefix, hi: successor(prefix), loInc: true, hiInc: false}, self}
}

// regexPrefix is analyze_regex.cpp's getRegexPrefixMatch, which
// simpleRegex uses: the literal prefix of a pattern anchored by ^ or \A,
// read up to the first metacharacter of "^$.[()+{" (a quantifier * or ?
// takes the last character back), and whole when the pattern is nothing
// but that prefix, or that prefix followed by a final .* under ^. A pipe
// that may be unescaped, a flag other than m (under \A only), s and x,
// or no anchor gives no prefix (ok false).
func regexPrefix(re bson.Regex) (prefix string, whole, ok bool) {
	p := re.Pattern
	multilineOK := false
	switch {
	case strings.HasPrefix(p, `\A`):
		multilineOK, p = true, p[2:]
	case strings.HasPrefix(p, "^"):
		p = p[1:]
	default:
		return "", false, false
	}
	if mayHaveUnescapedPipe(p) {
		return "", false, false
	}
	extended := false
	for _, f := range re.Options {
		switch {
		case f == 'm' && multilineOK, f == 's':
		case f == 'x':
			extended = true
		default:
			return "", false, false
		}
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' || c == '?':
			s := b.String()
			if s == "" {
				return "", false, true
			}
			return s[:len(s)-1], false, true
		case c == '\\':
			i++
			if i == len(p) {
				return b.String(), false, true
			}
			n := p[i]
			switch {
			case n == 'Q':
				// \Q...\E quotes its text, to the \E or the end.
				lit := p[i+1:]
				if end := strings.Index(lit, `\E`); end >= 0 {
					lit = lit[:end]
					i += end + 2
				} else {
					i = len(p)
				}
				b.WriteString(lit)
			case n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' || n >= '0' && n <= '9':
				return b.String(), false, true
			default:
				b.WriteByte(n)
			}
		case strings.IndexByte("^$.[()+{", c) >= 0:
			if c == '.' && !multilineOK && i+2 == len(p) && p[i+1] == '*' {
				return b.String(), true, true
			}
			return b.String(), false, true
		case extended && c == '#':
			return b.String(), false, true
		case extended && isRegexSpace(c):
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), b.Len() > 0, true
}

// mayHaveUnescapedPipe is stringMayHaveUnescapedPipe: a pipe not preceded
// by a backslash, or preceded by an escaped one, may be an alternation
// (a false positive inside [...] or \Q...\E is accepted).
func mayHaveUnescapedPipe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '|' {
			continue
		}
		if i == 0 || s[i-1] != '\\' || i >= 2 && s[i-2] == '\\' {
			return true
		}
	}
	return false
}

// isRegexSpace is ctype::isSpace, the characters free-spacing mode skips.
func isRegexSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

func successor(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return s
}

func cmpLo(a, b interval) int {
	if c := value.Compare(a.lo, b.lo); c != 0 {
		return c
	}
	switch {
	case a.loInc == b.loInc:
		return 0
	case a.loInc:
		return -1
	}
	return 1
}

// normalize sorts intervals and merges overlapping or touching ones.
func normalize(o oil) oil {
	if len(o) <= 1 {
		return o
	}
	o = slices.Clone(o)
	slices.SortStableFunc(o, cmpLo)
	out := oil{o[0]}
	for _, iv := range o[1:] {
		last := &out[len(out)-1]
		c := value.Compare(iv.lo, last.hi)
		if c < 0 || c == 0 && (iv.loInc || last.hiInc) {
			if h := value.Compare(iv.hi, last.hi); h > 0 || h == 0 && iv.hiInc {
				last.hi, last.hiInc = iv.hi, iv.hiInc
			}
			continue
		}
		out = append(out, iv)
	}
	return out
}

// intersect intersects two interval lists.
func intersect(a, b oil) oil {
	var out oil
	for _, x := range a {
		for _, y := range b {
			lo, loInc := x.lo, x.loInc
			if c := value.Compare(y.lo, lo); c > 0 || c == 0 && !y.loInc {
				lo, loInc = y.lo, y.loInc
			}
			hi, hiInc := x.hi, x.hiInc
			if c := value.Compare(y.hi, hi); c < 0 || c == 0 && !y.hiInc {
				hi, hiInc = y.hi, y.hiInc
			}
			c := value.Compare(lo, hi)
			if c < 0 || c == 0 && loInc && hiInc {
				out = append(out, interval{lo: lo, hi: hi, loInc: loInc, hiInc: hiInc})
			}
		}
	}
	return normalize(out)
}

// scanInterval is an interval in scan order: start comes first in the
// direction the index is walked.
type scanInterval struct {
	start, end       any
	startInc, endInc bool
}

// scanBounds are per-field interval lists in scan order.
type scanBounds [][]scanInterval

// orient turns ascending value intervals into scan order for a field
// walked in the given direction (+1 ascending values, -1 descending).
func orient(o oil, dir int) []scanInterval {
	out := make([]scanInterval, len(o))
	for i, iv := range o {
		if dir > 0 {
			out[i] = scanInterval{start: iv.lo, end: iv.hi, startInc: iv.loInc, endInc: iv.hiInc}
		} else {
			out[len(o)-1-i] = scanInterval{start: iv.hi, end: iv.lo, startInc: iv.hiInc, endInc: iv.loInc}
		}
	}
	return out
}

func formatInterval(iv scanInterval) string {
	var b strings.Builder
	if iv.startInc {
		b.WriteByte('[')
	} else {
		b.WriteByte('(')
	}
	b.WriteString(value.FormatBound(iv.start))
	b.WriteString(", ")
	b.WriteString(value.FormatBound(iv.end))
	if iv.endInc {
		b.WriteByte(']')
	} else {
		b.WriteByte(')')
	}
	return b.String()
}
