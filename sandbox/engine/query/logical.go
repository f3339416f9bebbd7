package query

import "go.mongodb.org/mongo-driver/v2/bson"

// Matches implements Node.
func (a *And) Matches(doc bson.D, pos *Position) bool {
	for _, c := range a.Children {
		if !c.Matches(doc, pos) {
			return false
		}
	}
	return true
}

// Matches implements Node. Like a negation, an $or records no array
// position: OrMatchExpression::matches (expression_tree.cpp) passes its
// children no MatchDetails, so a positional projection after an $or that
// the optimizer left an $or fails with 51246.
func (o *Or) Matches(doc bson.D, pos *Position) bool {
	errs := errorsOnly(pos)
	defer propagateErr(pos, errs)
	for _, c := range o.Children {
		if c.Matches(doc, errs) {
			return true
		}
	}
	return false
}

// Matches implements Node.
func (n *Nor) Matches(doc bson.D, pos *Position) bool {
	errs := errorsOnly(pos)
	defer propagateErr(pos, errs)
	for _, c := range n.Children {
		if c.Matches(doc, errs) {
			return false
		}
	}
	return true
}

// Matches implements Node. A negation never reports an array position:
// there is no element that "matched".
func (n *Not) Matches(doc bson.D, pos *Position) bool {
	errs := errorsOnly(pos)
	defer propagateErr(pos, errs)
	return !n.Child.Matches(doc, errs)
}

// errorsOnly gives a negated subtree somewhere to report evaluation errors
// without letting it record an array position.
func errorsOnly(pos *Position) *Position {
	if pos == nil {
		return nil
	}
	return &Position{Index: -1}
}

func propagateErr(pos, inner *Position) {
	if pos != nil && inner != nil && inner.Err != nil && pos.Err == nil {
		pos.Err = inner.Err
	}
}

// matchValue lets $not appear inside a value $elemMatch.
func (n *Not) matchValue(v any, _ *Position) bool {
	vm, ok := n.Child.(valueMatcher)
	return ok && !vm.matchValue(v, nil)
}

// Matches implements Node.
func (AlwaysTrue) Matches(bson.D, *Position) bool { return true }

// Matches implements Node.
func (AlwaysFalse) Matches(bson.D, *Position) bool { return false }

// andValues is the implicit AND of several operators on one path inside a
// value $elemMatch or $not, e.g. {$not: {$gt: 1, $lt: 5}}.
func (a *And) matchValue(v any, _ *Position) bool {
	for _, c := range a.Children {
		vm, ok := c.(valueMatcher)
		if !ok || !vm.matchValue(v, nil) {
			return false
		}
	}
	return true
}
