package timeseries

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A read of a time-series collection filters the buckets before it
// unpacks them (DocumentSourceInternalUnpackBucket::doOptimizeAt). The
// predicates on the metaField alone move before the unpacking, renamed
// onto the buckets' "meta" (splitMatchOnMetaAndRename). What remains
// stays with the unpacking as its eventFilter, which each measurement
// must pass, and also yields two predicates on the buckets
// (BucketSpec::createPredicatesOnBucketLevelField, and the comparison
// generators of bucket_level_comparison_predicate_generator.cpp):
//   - a loose one, which every bucket holding a match passes: a $match on
//     the buckets before the unpacking, so that the scan skips the others;
//   - a tight one, which only a bucket all of whose measurements match
//     passes: the unpacking's wholeBucketFilter, which spares such a
//     bucket the eventFilter.

// BucketState are the facts about a collection's buckets that the
// bucket predicates depend on.
type BucketState struct {
	// MixedSchema is timeseriesBucketsMayHaveMixedSchemaData: a bucket's
	// control.min and control.max of a field may then differ in type.
	MixedSchema bool
	// ExtendedRange: a measurement's time fell outside what a bucket's
	// ObjectId can hold, so _id bounds no time.
	ExtendedRange bool
	// FixedBuckets: every bucket starts at a multiple of its span.
	FixedBuckets bool
}

// Pushdown is what a read's filter becomes on the buckets.
type Pushdown struct {
	// Buckets is the $match before the unpacking; nil when every bucket
	// may hold a match.
	Buckets bson.D
	// WholeBucket is the unpacking's wholeBucketFilter; nil when none.
	WholeBucket bson.D
	// Event is the unpacking's eventFilter; nil when every measurement
	// of a bucket Buckets selects matches.
	Event bson.D
}

// Pushdown splits a measurement filter for the buckets of a collection
// in state s: the conjuncts that read the metaField alone move to the
// buckets renamed onto "meta", the rest stays as the eventFilter and gives
// the bucket predicates. A filter that does not compile here (one reading
// the command's let variables) is left whole to the eventFilter, whose
// compilation then reports an error or runs it.
func (o Options) Pushdown(filter bson.D, s BucketState) Pushdown {
	sp, ok := o.split(filter, s)
	if !ok {
		return Pushdown{Event: filter}
	}
	out := Pushdown{Buckets: and(sp.clauses()...)}
	if sp.rest != nil && !sp.pred.exact {
		out.Event = EventFilterDoc(&query.Filter{Root: sp.rest})
		out.WholeBucket = sp.pred.tight
	}
	return out
}

// bucketSplit is a measurement filter split for the buckets.
type bucketSplit struct {
	// meta is the conjuncts that read the metaField alone, renamed onto
	// "meta"; nil when there is none.
	meta bson.D
	// rest is the other conjuncts, nil when there is none, and pred their
	// bucket predicates.
	rest query.Node
	pred bucketPredicate
}

// split compiles filter and splits it for a collection in state s. ok is
// false for a filter that does not compile here (one reading the
// command's let variables).
func (o Options) split(filter bson.D, s BucketState) (bucketSplit, bool) {
	f, err := query.Compile(filter, query.Options{})
	if err != nil {
		return bucketSplit{}, false
	}
	var out bucketSplit
	meta, rest := o.splitMeta(f.Root)
	if meta != nil {
		out.meta = (&query.Filter{Root: meta}).Serialize()
	}
	if rest != nil {
		out.rest = rest
		out.pred = (&predicateGenerator{o: o, s: s}).predicates(rest)
	}
	return out, true
}

// clauses are the split's predicates on the buckets: the metaField's,
// then the loose bucket predicate of the rest.
func (sp bucketSplit) clauses() []bson.D {
	var out []bson.D
	if sp.meta != nil {
		out = append(out, sp.meta)
	}
	if sp.pred.loose != nil {
		out = append(out, sp.pred.loose)
	}
	return out
}

// EventFilterDoc is an eventFilter as explain shows it: in the order
// mongod's optimizer leaves it (rewriteFirst), not sorted.
func EventFilterDoc(f *query.Filter) bson.D {
	return (&query.Filter{Root: rewriteFirst(f.Root)}).SerializeInOrder()
}

// rewriteFirst orders the eventFilter as mongod's optimizer leaves it,
// which does not sort it as a query's canonical form is sorted. An $expr's
// optimizer (ExprMatchExpression::getOptimizer, expression_expr.cpp)
// returns an $and of its rewrite and itself, optimized; an $and's optimizer
// (ListOfMatchExpression::getOptimizer, expression_tree.cpp) appends the
// children of the $ands among its children at the end of its own. So an
// $expr whose rewrite is one comparison becomes [comparison, $expr], one
// whose rewrite is an $and of several becomes [$expr, comparisons...], and
// within an enclosing $and that block moves after the other children. The
// compiled filter holds each $expr in place, followed by its rewrite; n is
// copied in mongod's order.
func rewriteFirst(n query.Node) query.Node {
	switch x := n.(type) {
	case *query.And:
		return &query.And{Children: exprBlocksLast(x.Children)}
	case *query.Or:
		return &query.Or{Children: inOrder(x.Children)}
	case *query.Nor:
		return &query.Nor{Children: inOrder(x.Children)}
	}
	return n
}

func inOrder(children []query.Node) []query.Node {
	out := make([]query.Node, len(children))
	for i, c := range children {
		out[i] = rewriteFirst(c)
	}
	return out
}

// exprBlocksLast is an $and's children with each $expr and the
// comparisons its rewrite made (which follow it) moved, as one block in
// mongod's order, after the other children.
func exprBlocksLast(children []query.Node) []query.Node {
	var out, blocks []query.Node
	for i := 0; i < len(children); i++ {
		c := rewriteFirst(children[i])
		if _, ok := c.(*query.Expr); ok {
			j := i + 1
			for j < len(children) && query.IsGenerated(children[j]) {
				j++
			}
			switch rewrite := children[i+1 : j]; len(rewrite) {
			case 0:
				out = append(out, c)
			case 1:
				blocks = append(blocks, rewrite[0], c)
			default:
				blocks = append(append(blocks, c), rewrite...)
			}
			i = j - 1
			continue
		}
		out = append(out, c)
	}
	return append(out, blocks...)
}

// splitMeta is splitMatchExpressionBy with isOnlyDependentOn the
// metaField (BucketSpec::splitOutMetaOnlyPredicate): the conjuncts that
// read the metaField alone, renamed onto the buckets' "meta", and the
// rest; either is nil when there is none.
func (o Options) splitMeta(root query.Node) (meta, rest query.Node) {
	var metaParts, restParts []query.Node
	for _, n := range conjunctsOf(root) {
		if o.MetaField != "" && o.onlyOnMeta(n) {
			metaParts = append(metaParts, n)
		} else {
			restParts = append(restParts, n)
		}
	}
	if len(metaParts) > 0 {
		meta = query.RenamePaths(andOf(metaParts), map[string]string{o.MetaField: "meta"})
	}
	if len(restParts) > 0 {
		rest = andOf(restParts)
	}
	return meta, rest
}

// IndexFilter is a time-series index's partialFilterExpression on the
// buckets (translateIndexSpecFromLogicalToBuckets, BucketSpec::
// pushdownPredicate with IneligiblePredicatePolicy::kError): the
// predicates on the metaField alone renamed onto "meta", then the loose
// bucket predicate of the rest, in one document. The index outlives the
// collection's state, so the buckets are taken to hold extended-range
// times (no _id bounds) and no mixed schema, which building the index
// checks. metric says a predicate reads a measurement or the time; a
// predicate with no bucket form is an error (5916301).
func (o Options) IndexFilter(filter bson.D) (onBuckets bson.D, metric bool, err error) {
	f, err := query.Compile(filter, query.Options{})
	if err != nil {
		return nil, false, err
	}
	meta, rest := o.splitMeta(f.Root)
	onBuckets = bson.D{}
	if meta != nil {
		onBuckets = append(onBuckets, (&query.Filter{Root: meta}).Serialize()...)
	}
	if rest != nil {
		g := &predicateGenerator{o: o, s: BucketState{ExtendedRange: true}, strict: true}
		p := g.predicates(rest)
		if g.err != nil {
			return nil, false, g.err
		}
		metric = p.loose != nil
		onBuckets = append(onBuckets, p.loose...)
	}
	return onBuckets, metric, nil
}

// onlyOnMeta reports a predicate that reads the metaField alone
// (expression::isOnlyDependentOn).
func (o Options) onlyOnMeta(n query.Node) bool {
	switch x := n.(type) {
	case *query.And:
		return len(x.Children) > 0 && !slices.ContainsFunc(x.Children, func(c query.Node) bool { return !o.onlyOnMeta(c) })
	case *query.Or:
		return len(x.Children) > 0 && !slices.ContainsFunc(x.Children, func(c query.Node) bool { return !o.onlyOnMeta(c) })
	case *query.Nor:
		return len(x.Children) > 0 && !slices.ContainsFunc(x.Children, func(c query.Node) bool { return !o.onlyOnMeta(c) })
	case *query.Not:
		return isMetaPath(o, x.Path)
	}
	path := query.NodePath(n)
	return path != "" && isMetaPath(o, path)
}

func conjunctsOf(n query.Node) []query.Node {
	if a, ok := n.(*query.And); ok {
		return a.Children
	}
	return []query.Node{n}
}

func andOf(nodes []query.Node) query.Node {
	if len(nodes) == 1 {
		return nodes[0]
	}
	return &query.And{Children: nodes}
}

// isMetaPath reports whether field is the metaField or below it.
func isMetaPath(o Options, field string) bool {
	_, ok := o.BucketMetaPath(field)
	return ok
}

// bucketPredicate is BucketSpec::BucketPredicate: loose nil means every
// bucket passes, tight nil that none is known to match whole; exact says
// the loose predicate selects exactly the matching measurements'
// buckets, whole (fixed buckets and a time bound on a bucket boundary).
type bucketPredicate struct {
	loose, tight bson.D
	exact        bool
}

type predicateGenerator struct {
	o Options
	s BucketState
	// strict is IneligiblePredicatePolicy::kError: a predicate with no
	// bucket predicate is an error (err, the first one met) rather than
	// one that passes every bucket.
	strict bool
	err    error
}

// ineligible is BucketSpec::handleIneligible: no bucket predicate for n,
// for the reason given.
func (g *predicateGenerator) ineligible(n query.Node, reason string) bucketPredicate {
	if g.strict && g.err == nil {
		g.err = mongoerr.Newf(5916301, "Error translating non-metadata time-series predicate to operate on buckets: %s: %s",
			reason, value.FormatDoc((&query.Filter{Root: n}).Serialize()))
	}
	return bucketPredicate{}
}

// predicates is createPredicatesOnBucketLevelField for one node of the
// compiled (optimized) measurement filter.
func (g *predicateGenerator) predicates(n query.Node) bucketPredicate {
	if path := predicatePath(n); path != "" {
		if meta, ok := g.o.BucketMetaPath(path); ok {
			d := (&query.Filter{Root: n}).Serialize()
			d[0].Key = meta
			return bucketPredicate{loose: d, tight: d}
		}
	}
	switch x := n.(type) {
	case *query.And:
		return g.and(x.Children)
	case *query.Or:
		return g.or(x.Children)
	case *query.Compare:
		if x.Op != "$ne" {
			return g.comparison(n, x.Path, x.Op, x.Value, false)
		}
	case *query.InternalExpr:
		return g.comparison(n, x.Path, strings.Replace(strings.ToLower(x.Op), "_internalexpr", "", 1), x.Value, true)
	case *query.In:
		return g.in(x)
	case *query.Expr:
		// Its internal comparisons, beside it, carry its loose
		// predicate; it has none of its own (the planner does not read
		// an $expr), only a tight one on the time field.
		return bucketPredicate{tight: g.exprTight(x)}
	case *query.Exists:
		// {$exists: false} is a $not, which has no bucket predicate.
		if x.Exists && !g.s.MixedSchema {
			// Every field a measurement has is in control.min and
			// control.max.
			return bucketPredicate{loose: and(
				bson.D{{Key: "control.min." + x.Path, Value: bson.D{{Key: "$exists", Value: true}}}},
				bson.D{{Key: "control.max." + x.Path, Value: bson.D{{Key: "$exists", Value: true}}}})}
		}
	}
	return g.ineligible(n, "can't handle this predicate")
}

// exprTight is createTightExprTimeFieldPredicate (bucket_spec.cpp): an
// $expr whose rewrite (RewriteExpr::rewrite) is, whole, one internal
// comparison of the time field with a date has that comparison's tight
// predicate; any other $expr has none.
func (g *predicateGenerator) exprTight(x *query.Expr) bson.D {
	spec, ok := x.Spec.(bson.D)
	if !ok || len(spec) != 1 {
		return nil
	}
	switch spec[0].Key {
	case "$eq", "$gt", "$gte", "$lt", "$lte":
	default:
		// An $and or $or rewrites to an $and or $or, which is no
		// comparison on the time field (and may leave children out).
		return nil
	}
	f, err := query.Compile(bson.D{{Key: "$expr", Value: x.Spec}}, query.Options{})
	if err != nil {
		return nil
	}
	var cmp *query.InternalExpr
	if a, ok := f.Root.(*query.And); ok {
		for _, c := range a.Children {
			if ie, ok := c.(*query.InternalExpr); ok && query.IsGenerated(ie) {
				if cmp != nil {
					return nil
				}
				cmp = ie
			}
		}
	}
	if cmp == nil || cmp.Path != g.o.TimeField {
		return nil
	}
	if _, isDate := cmp.Value.(bson.DateTime); !isDate {
		return nil
	}
	op := strings.Replace(strings.ToLower(cmp.Op), "_internalexpr", "", 1)
	return g.comparison(cmp, cmp.Path, op, cmp.Value, true).tight
}

// predicatePath is MatchExpression::path(): "" for the logical nodes and
// for the negations ($ne, $exists: false, $not, $nin).
func predicatePath(n query.Node) string {
	switch x := n.(type) {
	case *query.Not:
		return ""
	case *query.Compare:
		if x.Op == "$ne" {
			return ""
		}
	case *query.Exists:
		if !x.Exists {
			return ""
		}
	}
	return query.NodePath(n)
}

// and keeps the children's loose predicates (a child without one passes
// every bucket); its tight predicate needs every child's.
func (g *predicateGenerator) and(children []query.Node) bucketPredicate {
	var loose, tight []bson.D
	tightAll, exact := true, true
	for _, c := range children {
		p := g.predicates(c)
		if p.loose != nil {
			loose = append(loose, p.loose)
		}
		if p.tight == nil {
			tightAll = false
		} else {
			tight = append(tight, p.tight)
		}
		exact = exact && p.exact
	}
	out := bucketPredicate{loose: and(loose...), exact: exact}
	if tightAll {
		// The wholeBucketFilter is optimized (MatchExpression::optimize):
		// an $and absorbs the $ands among its children.
		out.tight = and(flattenAnd(tight)...)
	}
	return out
}

// flattenAnd replaces each {$and: [...]} among clauses by its clauses.
func flattenAnd(clauses []bson.D) []bson.D {
	var out []bson.D
	for _, c := range clauses {
		if len(c) == 1 && c[0].Key == "$and" {
			if arr, ok := c[0].Value.(bson.A); ok {
				for _, e := range arr {
					if d, ok := e.(bson.D); ok {
						out = append(out, flattenAnd([]bson.D{d})...)
						continue
					}
					out = append(out, bson.D{{Key: "$and", Value: arr}})
				}
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// or needs every child's loose predicate (one that passes every bucket
// passes them all); its tight predicate keeps the children's.
func (g *predicateGenerator) or(children []query.Node) bucketPredicate {
	var loose, tight []bson.D
	looseAll, exact := true, true
	for _, c := range children {
		p := g.predicates(c)
		if p.loose == nil {
			looseAll = false
		} else {
			loose = append(loose, p.loose)
		}
		if p.tight != nil {
			tight = append(tight, p.tight)
		}
		exact = exact && p.exact
	}
	out := bucketPredicate{tight: or(tight...), exact: exact}
	if looseAll {
		out.loose = or(loose...)
	}
	return out
}

// in is {$in: [x, y]} as {$or: [{$eq: x}, {$eq: y}]}, loose only; a
// regex or a null in the list has none.
func (g *predicateGenerator) in(x *query.In) bucketPredicate {
	if len(x.Regexes) > 0 {
		return g.ineligible(x, "can't handle $regex predicate (inside $in predicate)")
	}
	if slices.Contains(x.Values, nil) {
		return g.ineligible(x, "can't handle {$eq: null} predicate (inside $in predicate)")
	}
	var loose []bson.D
	exact := true
	for _, v := range x.Values {
		p := g.comparison(&query.Compare{Path: x.Path, Op: "$eq", Value: v}, x.Path, "$eq", v, false)
		if p.loose == nil {
			return bucketPredicate{}
		}
		loose = append(loose, p.loose)
		exact = exact && p.exact
	}
	if len(loose) == 0 {
		return bucketPredicate{loose: alwaysFalse(), exact: exact}
	}
	return bucketPredicate{loose: or(loose...), exact: exact}
}

// comparison is BucketLevelComparisonPredicateGenerator::createPredicate
// for op ($eq, $gt, $gte, $lt, $lte) on path; internal says the filter
// compared with $_internalExpr<Op>, whose tight predicate keeps that
// form.
func (g *predicateGenerator) comparison(n query.Node, path, op string, v any, internal bool) bucketPredicate {
	// checkComparisonPredicateErrors: control.min and control.max order
	// documents and arrays without regard to field order, and {$eq:
	// null} also matches a missing field; the time field only ever holds
	// dates.
	switch v.(type) {
	case bson.D, bson.A:
		return g.ineligible(n, "operand can't be an object or array")
	case nil, bson.Null:
		return g.ineligible(n, "can't handle {$eq: null}")
	}
	minPath, maxPath := "control.min."+path, "control.max."+path
	if path != g.o.TimeField {
		return bucketPredicate{loose: g.measurementPredicate(path, op, v, minPath, maxPath)}
	}
	t, isDate := v.(bson.DateTime)
	if !isDate {
		return g.ineligible(n, "This predicate will never be true, because the time field always contains a Date")
	}
	p := g.timePredicate(op, int64(t), minPath, maxPath)
	// Every measurement of a bucket matches when its control bound does.
	cmp := op
	if internal {
		cmp = internalOp(op)
	}
	switch op {
	case "$eq":
		p.tight = and(compare(minPath, cmp, v), compare(maxPath, cmp, v))
	case "$gt", "$gte":
		p.tight = compare(minPath, cmp, v)
	case "$lt", "$lte":
		p.tight = compare(maxPath, cmp, v)
	}
	return p
}

// measurementPredicate is generateNonTimeFieldPredicate: a bound on the
// bucket's control.min or control.max of the field, or, when the
// buckets may mix types, a bucket whose bounds differ in type along the
// path.
func (g *predicateGenerator) measurementPredicate(path, op string, v any, minPath, maxPath string) bson.D {
	var bound bson.D
	switch op {
	case "$eq":
		bound = and(compare(minPath, "$_internalExprLte", v), compare(maxPath, "$_internalExprGte", v))
	case "$gt", "$gte":
		bound = compare(maxPath, internalOp(op), v)
	case "$lt", "$lte":
		bound = compare(minPath, internalOp(op), v)
	default:
		return nil
	}
	if !g.s.MixedSchema {
		return bound
	}
	alternatives := []bson.D{bound}
	parts := strings.Split(path, ".")
	for i := range parts {
		sub := strings.Join(parts[:i+1], ".")
		alternatives = append(alternatives, bson.D{{Key: "$expr", Value: bson.D{{Key: "$ne", Value: bson.A{
			bson.D{{Key: "$type", Value: bson.A{"$control.min." + sub}}},
			bson.D{{Key: "$type", Value: bson.A{"$control.max." + sub}}},
		}}}}})
	}
	return or(alternatives...)
}

// max32BitEpochMillis is the latest time a bucket's ObjectId can hold.
const max32BitEpochMillis = int64(math.MaxUint32) * 1000

// timePredicate is generateTimeFieldPredicate: bounds on the bucket's
// control.min and control.max of the time, which lie within
// bucketMaxSpanSeconds of each other, and on its _id, whose first four
// bytes are its minimum time in seconds. A collection with times outside
// what an ObjectId holds (extended range) gets no _id bounds.
func (g *predicateGenerator) timePredicate(op string, ms int64, minPath, maxPath string) bucketPredicate {
	span := g.o.BucketMaxSpanSeconds * 1000
	t, minTime, maxTime := bson.DateTime(ms), bson.DateTime(ms-span), bson.DateTime(ms+span)
	if !g.s.ExtendedRange && (ms < 0 || ms > max32BitEpochMillis) {
		return bucketPredicate{loose: outOfRange(op, ms)}
	}
	var exact bool
	minOp := "$_internalExprGt"
	if g.s.FixedBuckets && !g.s.ExtendedRange {
		// Buckets start on a multiple of the span: no bucket that starts
		// before the time's own can hold it, and a bound on a bucket
		// boundary selects whole buckets ($gte and $lt only).
		minTime = g.o.RoundTime(t)
		minOp = "$_internalExprGte"
		exact = minTime == t && (op == "$gte" || op == "$lt")
	}
	var clauses []bson.D
	switch op {
	case "$eq":
		clauses = []bson.D{compare(minPath, "$_internalExprLte", g.minTimeAtMost(ms)), compare(minPath, "$_internalExprGte", minTime),
			compare(maxPath, "$_internalExprGte", t), compare(maxPath, "$_internalExprLte", maxTime)}
	case "$gt":
		clauses = []bson.D{compare(maxPath, "$_internalExprGt", t), compare(minPath, minOp, minTime)}
	case "$gte":
		clauses = []bson.D{compare(maxPath, "$_internalExprGte", t), compare(minPath, "$_internalExprGte", minTime)}
	case "$lt", "$lte":
		clauses = []bson.D{compare(minPath, internalOp(op), g.minTimeAtMost(ms)), compare(maxPath, internalOp(op), maxTime)}
	}
	if !g.s.ExtendedRange {
		switch op {
		case "$eq":
			clauses = append(clauses, compare("_id", "$lte", g.idBound("$lte", ms)), compare("_id", "$gte", g.idBound("$gte", ms)))
		default:
			clauses = append(clauses, compare("_id", op, g.idBound(op, ms)))
		}
	}
	return bucketPredicate{loose: and(clauses...), exact: exact}
}

// minTimeAtMost is ms as an upper bound on control.min. A bucket whose
// times start before 1970 has a control.min rounded up, toward zero
// (RoundTime), by up to the rounding plus a second; on an extended-range
// collection, a bound near or before 1970 allows for that, or it would
// skip buckets holding matches.
func (g *predicateGenerator) minTimeAtMost(ms int64) bson.DateTime {
	slack := (g.o.BucketRoundingSeconds + 1) * 1000
	if g.s.ExtendedRange && ms < slack {
		return bson.DateTime(ms + slack)
	}
	return bson.DateTime(ms)
}

// outOfRange is handleExtendedDateRanges: no time a collection without
// extended-range data holds is before 1970 or past 2106, so a comparison
// with such a time matches every bucket (nil) or none.
func outOfRange(op string, ms int64) bson.D {
	switch op {
	case "$gt", "$gte":
		if ms < 0 {
			return nil
		}
	case "$lt", "$lte":
		if ms > 0 {
			return nil
		}
	}
	return alwaysFalse()
}

// idBound is constructObjectIdValue: the ObjectId bounding the _id of a
// bucket that may hold a time op ms. An upper bound is the time rounded
// up to its second; a lower bound is the time less the bucket span, since
// a bucket's _id holds its minimum time. The other eight bytes are the
// least or greatest, to include every bucket of that second.
func (g *predicateGenerator) idBound(op string, ms int64) bson.ObjectID {
	switch op {
	case "$lt", "$lte":
		if ms%1000 != 0 {
			ms += 1000
		}
		return objectIDAt(ms, op == "$lte")
	}
	span := g.o.BucketMaxSpanSeconds * 1000
	if ms < span {
		return objectIDAt(0, false)
	}
	return objectIDAt(ms-span, op == "$gt")
}

// objectIDAt is OID::init(Date_t, max).
func objectIDAt(ms int64, greatest bool) bson.ObjectID {
	var id bson.ObjectID
	binary.BigEndian.PutUint32(id[:4], uint32(ms/1000))
	if greatest {
		for i := 4; i < len(id); i++ {
			id[i] = 0xff
		}
	}
	return id
}

func internalOp(op string) string {
	return "$_internalExpr" + strings.ToUpper(op[1:2]) + op[2:]
}

func compare(path, op string, v any) bson.D {
	return bson.D{{Key: path, Value: bson.D{{Key: op, Value: v}}}}
}

func alwaysFalse() bson.D { return bson.D{{Key: "$alwaysFalse", Value: int32(1)}} }

// and is makeAnd: nil (every bucket) for no clause.
func and(clauses ...bson.D) bson.D {
	return logical("$and", clauses)
}

// or is makeOr: nil for no clause, which the callers read as none known
// (tight) or, for $in, never reach.
func or(clauses ...bson.D) bson.D {
	return logical("$or", clauses)
}

func logical(op string, clauses []bson.D) bson.D {
	switch len(clauses) {
	case 0:
		return nil
	case 1:
		return clauses[0]
	}
	arr := make(bson.A, len(clauses))
	for i, c := range clauses {
		arr[i] = c
	}
	return bson.D{{Key: op, Value: arr}}
}
