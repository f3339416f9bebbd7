package update

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// arrayFilter is one entry of arrayFilters: a query on an array element
// named by its identifier, mongod's ExpressionWithPlaceholder.
type arrayFilter struct {
	id     string
	filter *query.Filter
}

// matches wraps the element as {<id>: element}, so that {"elem.grade":
// {$gte: 85}} and {elem: {$gte: 100}} are ordinary queries.
func (f *arrayFilter) matches(elem any) (bool, error) {
	ok, _, err := f.filter.Eval(bson.D{{Key: f.id, Value: elem}})
	return ok, err
}

func compileArrayFilters(filters []bson.D) (map[string]*arrayFilter, error) {
	if len(filters) == 0 {
		return nil, nil
	}
	out := make(map[string]*arrayFilter, len(filters))
	// parsed_update.cpp parseArrayFilters: each filter is parsed first,
	// without $expr, $where, $text, $jsonSchema or $near, then its
	// placeholder is found (ExpressionWithPlaceholder::make).
	for _, doc := range filters {
		q, err := query.Compile(doc, query.Options{BanSpecialFeatures: true})
		if err != nil {
			me := mongoerr.As(err)
			return nil, mongoerr.Newf(me.Code, "Error parsing array filter :: caused by :: %s", me.Msg)
		}
		id, err := placeholder(doc)
		if err != nil {
			return nil, err
		}
		if id != "" && !validIdentifier(id) {
			return nil, mongoerr.Newf(mongoerr.BadValue,
				"Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '%s'", id)
		}
		if id == "" {
			return nil, mongoerr.New(mongoerr.FailedToParse, "Cannot use an expression without a top-level field name in arrayFilters")
		}
		if _, dup := out[id]; dup {
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "Found multiple array filters with the same top-level field name %s", id)
		}
		out[id] = &arrayFilter{id: id, filter: q}
	}
	return out, nil
}

// filterIdentifier is the identifier of a compiled-valid filter document.
func filterIdentifier(doc bson.D) string {
	id, _ := placeholder(doc)
	return id
}

// placeholder finds the single top-level field name (before the first dot)
// that every predicate of an array filter uses.
func placeholder(doc bson.D) (string, error) {
	id := ""
	var walk func(d bson.D) error
	walk = func(d bson.D) error {
		for _, e := range d {
			if len(e.Key) > 0 && e.Key[0] == '$' {
				if arr, ok := e.Value.(bson.A); ok {
					for _, sub := range arr {
						if sd, ok := sub.(bson.D); ok {
							if err := walk(sd); err != nil {
								return err
							}
						}
					}
				}
				continue
			}
			name := e.Key
			for i := 0; i < len(name); i++ {
				if name[i] == '.' {
					name = name[:i]
					break
				}
			}
			if id != "" && id != name {
				return mongoerr.Newf(mongoerr.FailedToParse,
					"Error parsing array filter :: caused by :: Expected a single top-level field name, found '%s' and '%s'", id, name)
			}
			id = name
		}
		return nil
	}
	err := walk(doc)
	return id, err
}

func validIdentifier(id string) bool {
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// pathAcceptingOperators are the query operators that may start a $pull
// condition on the element itself ({$gte: 6}) rather than on its fields.
var pathAcceptingOperators = map[string]bool{
	"$eq": true, "$ne": true, "$gt": true, "$gte": true, "$lt": true, "$lte": true,
	"$in": true, "$nin": true, "$exists": true, "$type": true, "$size": true, "$all": true,
	"$elemMatch": true, "$regex": true, "$options": true, "$not": true, "$mod": true,
	"$bitsAllSet": true, "$bitsAllClear": true, "$bitsAnySet": true, "$bitsAnyClear": true,
	"$geoWithin": true, "$geoIntersects": true, "$near": true, "$nearSphere": true,
	"$within": true, "$jsonSchema": false,
}

// compilePullMatcher is mongod's PullNode::init: a document of field
// conditions matches document elements, an operator document or a regex
// matches the element itself, anything else is BSON equality.
func compilePullMatcher(arg any) (func(any) (bool, error), error) {
	switch a := arg.(type) {
	case bson.D:
		if len(a) == 0 || !pathAcceptingOperators[a[0].Key] {
			// PullNode's matchers parse with kBanAllSpecialFeatures.
			q, err := query.Compile(a, query.Options{BanSpecialFeatures: true})
			if err != nil {
				return nil, err
			}
			return func(elem any) (bool, error) {
				d, ok := elem.(bson.D)
				if !ok {
					return false, nil
				}
				m, _, err := q.Eval(d)
				return m, err
			}, nil
		}
		return wrappedMatcher(a)
	case bson.Regex:
		return wrappedMatcher(a)
	}
	return func(elem any) (bool, error) { return value.Compare(elem, arg) == 0, nil }, nil
}

// wrappedMatcher matches {x: elem} against {x: cond}.
func wrappedMatcher(cond any) (func(any) (bool, error), error) {
	q, err := query.Compile(bson.D{{Key: "x", Value: cond}}, query.Options{BanSpecialFeatures: true})
	if err != nil {
		return nil, err
	}
	return func(elem any) (bool, error) {
		m, _, err := q.Eval(bson.D{{Key: "x", Value: elem}})
		return m, err
	}, nil
}
