package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Matches implements Node. {$exists: false} is normally parsed as
// Not{Exists{true}}, as mongod does; Exists: false is honoured anyway.
func (e *Exists) Matches(doc bson.D, pos *Position) bool {
	found := matchPath(doc, pathParts(e.parts, e.Path), true, existsMatcher{}, pos)
	return found == e.Exists
}

func (e *Exists) matchValue(v any, _ *Position) bool {
	return value.IsMissing(v) != e.Exists
}

type existsMatcher struct{}

func (existsMatcher) matchValue(v any, _ *Position) bool { return !value.IsMissing(v) }

// Matches implements Node.
func (t *Type) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(t.parts, t.Path), true, t, pos)
}

func (t *Type) matchValue(v any, _ *Position) bool {
	if value.IsMissing(v) {
		return false
	}
	if t.Number && value.IsNumber(v) {
		return true
	}
	n := value.TypeNumber(v)
	for _, want := range t.Types {
		if want == n {
			return true
		}
	}
	return false
}

// Matches implements Node. $mod only considers numbers; doubles and
// decimals are truncated toward zero first, and NaN, the infinities and
// values beyond the long range never match (ModMatchExpression::
// matchesSingleElement's representAs<long long>).
func (m *Mod) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(m.parts, m.Path), true, m, pos)
}

func (m *Mod) matchValue(v any, _ *Position) bool {
	n, reason := value.TryCoerceToLong(v)
	if reason != "" || m.Divisor == 0 {
		return false
	}
	return n%m.Divisor == m.Remainder
}
