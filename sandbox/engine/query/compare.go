package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Matches implements Node.
func (c *Compare) Matches(doc bson.D, pos *Position) bool {
	if c.Op == "$ne" {
		return !matchPath(doc, pathParts(c.parts, c.Path), true, eqMatcher{c.Value}, nil)
	}
	return matchPath(doc, pathParts(c.parts, c.Path), true, c, pos)
}

func (c *Compare) matchValue(v any, _ *Position) bool {
	if c.Op == "$ne" {
		return !compareValues("$eq", v, c.Value)
	}
	return compareValues(c.Op, v, c.Value)
}

type eqMatcher struct{ rhs any }

func (e eqMatcher) matchValue(v any, _ *Position) bool { return compareValues("$eq", v, e.rhs) }

// compareValues applies a comparison operator with mongod's query rules:
// values of different canonical types never compare (so {$gt: 5} skips
// strings), except that MinKey and MaxKey bound everything; null matches a
// missing field (but, since 8.0, not undefined); NaN equals only NaN.
func compareValues(op string, v, rhs any) bool {
	if rhs == nil {
		switch v.(type) {
		case nil, value.Missing:
			return op == "$eq" || op == "$lte" || op == "$gte"
		}
		return false
	}
	ro, vo := value.CanonicalTypeOrder(rhs), value.CanonicalTypeOrder(v)
	if ro != vo {
		switch rhs.(type) {
		case bson.MaxKey:
			return op == "$lt" || op == "$lte"
		case bson.MinKey:
			return op == "$gt" || op == "$gte"
		}
		return false
	}
	if value.IsNaN(v) || value.IsNaN(rhs) {
		both := value.IsNaN(v) && value.IsNaN(rhs)
		switch op {
		case "$eq", "$lte", "$gte":
			return both
		}
		return false
	}
	c := value.Compare(v, rhs)
	switch op {
	case "$eq":
		return c == 0
	case "$lt":
		return c < 0
	case "$lte":
		return c <= 0
	case "$gt":
		return c > 0
	case "$gte":
		return c >= 0
	}
	return false
}

// Matches implements Node.
func (in *In) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(in.parts, in.Path), true, in, pos)
}

func (in *In) matchValue(v any, _ *Position) bool {
	for _, want := range in.Values {
		if compareValues("$eq", v, want) {
			return true
		}
	}
	for i := range in.Regexes {
		if in.compiled != nil && matchRegexValue(in.compiled[i], in.Regexes[i], v) {
			return true
		}
		if in.compiled == nil {
			re, err := compileRegex(in.Regexes[i].Pattern, in.Regexes[i].Options)
			if err == nil && matchRegexValue(re, in.Regexes[i], v) {
				return true
			}
		}
	}
	return false
}
