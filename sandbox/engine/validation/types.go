package validation

import (
	"math"
	"math/big"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// typeSet is MatcherTypeSet: a set of BSON type numbers, or "all numbers".
type typeSet struct {
	allNumbers bool
	types      []int
}

func (t typeSet) has(v any) bool {
	if t.allNumbers && value.IsNumber(v) {
		return true
	}
	return slices.Contains(t.types, value.TypeNumber(v))
}

// hasType reports whether the set holds the BSON type number tn.
func (t typeSet) hasType(tn int) bool {
	if t.allNumbers && (tn == value.TypeInt || tn == value.TypeLong || tn == value.TypeDouble || tn == value.TypeDecimal) {
		return true
	}
	return slices.Contains(t.types, tn)
}

func (t typeSet) isSingleType() bool {
	return (t.allNumbers && len(t.types) == 0) || (!t.allNumbers && len(t.types) == 1)
}

// single is the one type of a single-type set; "number" stands as
// NumberInt, as makeRestriction does.
func (t typeSet) single() int {
	if t.allNumbers {
		return value.TypeInt
	}
	return t.types[0]
}

func numberSet() typeSet { return typeSet{allNumbers: true} }

func singleType(tn int) typeSet { return typeSet{types: []int{tn}} }

// jsonSchemaTypeAliases is MatcherTypeSet::findJsonSchemaTypeAlias: the
// JSON Schema names the "type" keyword accepts ("number" is handled
// apart; "integer" is refused).
var jsonSchemaTypeAliases = map[string]int{
	"array": value.TypeArray, "boolean": value.TypeBool, "null": value.TypeNull,
	"object": value.TypeObject, "string": value.TypeString,
}

// parseTypeSet is JSONSchemaParser::parseTypeSet followed by
// MatcherTypeSet::fromStringAliases.
func parseTypeSet(keyword string, v any, bsonAliases bool) (typeSet, error) {
	var names []string
	switch x := v.(type) {
	case string:
		if x == "integer" {
			return typeSet{}, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema type 'integer' is not currently supported.")
		}
		names = []string{x}
	case bson.A:
		seen := map[string]bool{}
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return typeSet{}, mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' array elements must be strings", keyword)
			}
			if s == "integer" {
				return typeSet{}, mongoerr.New(mongoerr.FailedToParse, "$jsonSchema type 'integer' is not currently supported.")
			}
			if seen[s] {
				return typeSet{}, mongoerr.Newf(mongoerr.FailedToParse, "$jsonSchema keyword '%s' has duplicate value: %s", keyword, s)
			}
			seen[s] = true
			names = append(names, s)
		}
		// fromStringAliases takes a std::set: aliases in sorted order.
		slices.Sort(names)
	default:
		return typeSet{}, mongoerr.Newf(mongoerr.TypeMismatch, "$jsonSchema keyword '%s' must be either a string or an array of strings", keyword)
	}
	var ts typeSet
	for _, name := range names {
		if name == "number" {
			ts.allNumbers = true
			continue
		}
		var tn int
		var ok bool
		if bsonAliases {
			tn, ok = value.TypeNumberForName(name)
			ok = ok && name != "missing"
		} else {
			tn, ok = jsonSchemaTypeAliases[name]
		}
		switch {
		case !ok && name == "missing":
			// addAliasToTypeSet (matcher_type_set.cpp), which
			// fromStringAliases calls for both keywords: the name $type
			// gives a missing field is not a type to match.
			return typeSet{}, mongoerr.New(mongoerr.BadValue, "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}.")
		case !ok:
			return typeSet{}, mongoerr.Newf(mongoerr.BadValue, "Unknown type name alias: %s", name)
		}
		ts.types = append(ts.types, tn)
	}
	if !ts.allNumbers && len(ts.types) == 0 {
		return typeSet{}, mongoerr.Newf(mongoerr.FailedToParse, "$jsonSchema keyword '%s' must name at least one type", keyword)
	}
	return ts, nil
}

// equalUnordered compares as UnorderedFieldsBSONElementComparator does:
// embedded documents are equal when they hold the same fields, in any
// order.
func equalUnordered(a, b any) bool {
	return value.Compare(value.SortedFields(a), value.SortedFields(b)) == 0
}

// firstDuplicate is the index of the first item that equals an earlier
// one (findFirstDuplicateValue), or -1.
func firstDuplicate(a bson.A) int {
	for i := 1; i < len(a); i++ {
		for j := range i {
			if equalUnordered(a[i], a[j]) {
				return i
			}
		}
	}
	return -1
}

// isMultipleOf is InternalSchemaFmodMatchExpression: a number whose
// Decimal128 remainder by the divisor is zero. Doubles become decimals
// rounded to 15 digits, as BSONElement::numberDecimal converts them.
func isMultipleOf(v, divisor any) bool {
	if !value.IsNumber(v) {
		return false
	}
	x, ok1 := decimalRat(v)
	d, ok2 := decimalRat(divisor)
	if !ok1 || !ok2 || d.Sign() == 0 {
		return false
	}
	return new(big.Rat).Quo(x, d).IsInt()
}

func decimalRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int32:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(x, 'g', 15, 64))
	case bson.Decimal128:
		return new(big.Rat).SetString(x.String())
	}
	return nil, false
}
