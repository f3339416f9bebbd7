package expr

import "testing"

func TestObjectAndSizeOperators(t *testing.T) {
	runCases(t, []exprCase{
		{name: "mergeObjects", expr: `{"$mergeObjects": [{"a": 1, "b": 1}, null, {"b": 2, "c": 3}]}`, want: `{"a": 1, "b": 2, "c": 3}`},
		{name: "mergeObjects array field", expr: `{"$mergeObjects": "$a"}`, doc: `{"a": {"x": 1}}`, want: `{"x": 1}`},
		{name: "mergeObjects type", expr: `{"$mergeObjects": [1]}`, code: 40400},
		{name: "objectToArray", expr: `{"$objectToArray": "$a"}`, doc: `{"a": {"x": 1, "y": 2}}`, want: `[{"k": "x", "v": 1}, {"k": "y", "v": 2}]`},
		{name: "objectToArray type", expr: `{"$objectToArray": 1}`, code: 40390},
		{name: "arrayToObject pairs", expr: `{"$arrayToObject": [[["a", 1], ["b", 2]]]}`, want: `{"a": 1, "b": 2}`},
		{name: "arrayToObject kv", expr: `{"$arrayToObject": [[{"k": "a", "v": 1}, {"k": "a", "v": 2}]]}`, want: `{"a": 2}`},
		{name: "arrayToObject bad pair", expr: `{"$arrayToObject": [[["a"]]]}`, code: 40397},
		{name: "getField", expr: `{"$getField": "a.b"}`, doc: `{"a.b": 5, "a": {"b": 1}}`, want: `{"$numberInt": "5"}`},
		{name: "getField field path", expr: `{"$getField": {"field": "$x", "input": "$o"}}`, doc: `{"o": {"$x": 3}}`, code: 3041704},
		{name: "getField literal", expr: `{"$getField": {"field": {"$literal": "$x"}, "input": "$o"}}`, doc: `{"o": {"$x": 3}}`, want: `{"$numberInt": "3"}`},
		{name: "getField missing input", expr: `{"$getField": {"field": "a", "input": "$nope"}}`, want: `missing`},
		{name: "setField", expr: `{"$setField": {"field": "b", "input": {"a": 1}, "value": 2}}`, want: `{"a": 1, "b": 2}`},
		{name: "setField remove", expr: `{"$setField": {"field": "a", "input": {"a": 1, "b": 2}, "value": "$$REMOVE"}}`, want: `{"b": 2}`},
		{name: "unsetField", expr: `{"$unsetField": {"field": "a", "input": {"a": 1, "b": 2}}}`, want: `{"b": 2}`},
		{name: "bsonSize", expr: `{"$bsonSize": "$$ROOT"}`, doc: `{"a": 1}`, want: `{"$numberInt": "12"}`},
		{name: "bsonSize null", expr: `{"$bsonSize": null}`, want: `null`},
		{name: "bsonSize type", expr: `{"$bsonSize": 1}`, code: 31393},
		{name: "binarySize string", expr: `{"$binarySize": "café"}`, want: `{"$numberInt": "5"}`},
	})
}
