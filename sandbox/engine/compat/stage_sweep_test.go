package compat_test

import "testing"

// TestStageSweep holds the cases of a conformance sweep over the
// aggregation stages: each pins what mongod 8.0's document source does
// where the sandbox once answered otherwise.
func TestStageSweep(t *testing.T) {
	two := `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]`
	facetSrc := "src/mongo/db/pipeline/document_source_facet.cpp extractRawPipelines; src/mongo/db/pipeline/field_path.cpp FieldPath::uassertValidFieldName"
	lookupSrc := "src/mongo/db/pipeline/document_source_lookup.cpp createFromBson and the DocumentSourceLookUp constructors (FieldPath _as, _localField, _foreignField)"
	mergeSrc := "src/mongo/db/pipeline/document_source_merge.cpp DocumentSourceMerge constructor; src/mongo/db/pipeline/variable_validation.cpp validateNameForUserWrite"
	sortSrc := "src/mongo/db/query/sort_pattern.cpp SortPattern::SortPattern; src/mongo/db/pipeline/document_source_sort.cpp"
	planCacheSrc := "src/mongo/db/pipeline/document_source_plan_cache_stats.cpp createFromBson"
	runAggCases(t, []aggCase{
		// $facet: each output name is one field name, not a path.
		{name: "facet output name with a dot", ref: facetSrc, docs: two,
			pipeline: `[{"$facet": {"a.b": [{"$count": "n"}]}}]`, code: 16412, msg: "FieldPath field names may not contain '.'. Consider using $getField or $setField."},
		{name: "facet output name starting with $", ref: facetSrc, docs: two,
			pipeline: `[{"$facet": {"$a": []}}]`, code: 16410, msg: "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{name: "facet output name that is empty", ref: facetSrc, docs: two,
			pipeline: `[{"$facet": {"": []}}]`, code: 15998, msg: "FieldPath field names may not be empty strings."},
		{name: "facet output name is checked before its value", ref: facetSrc, docs: two,
			pipeline: `[{"$facet": {"a.b": 1}}]`, code: 16412},
		// $lookup: localField and foreignField are FieldPaths.
		{name: "lookup localField starting with $", ref: lookupSrc, docs: two,
			pipeline: `[{"$lookup": {"from": "f", "localField": "$a", "foreignField": "b", "as": "j"}}]`,
			code:     16410, msg: "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{name: "lookup foreignField with an empty component", ref: lookupSrc, docs: two,
			pipeline: `[{"$lookup": {"from": "f", "localField": "a", "foreignField": "b..c", "as": "j"}}]`,
			code:     15998, msg: "FieldPath field names may not be empty strings."},
		{name: "lookup localField ending with a dot, pipeline form", ref: lookupSrc, docs: two,
			pipeline: `[{"$lookup": {"from": "f", "localField": "a.", "foreignField": "b", "pipeline": [], "as": "j"}}]`,
			code:     40353, msg: "FieldPath must not end with a '.'."},
		// The options must fit together before 'as' is made a FieldPath.
		{name: "lookup without foreignField is refused before its bad 'as'", ref: lookupSrc, docs: two,
			pipeline: `[{"$lookup": {"from": "f", "localField": "a", "as": "$j"}}]`,
			code:     9, msg: "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified"},
		{name: "lookup 'as' is checked before localField", ref: lookupSrc, docs: two,
			pipeline: `[{"$lookup": {"from": "f", "localField": "$a", "foreignField": "b", "as": "$j"}}]`, code: 16410},
		// The let variable names are checked when the stage is parsed, so
		// an empty collection fails too.
		{name: "lookup let variable name starting upper case", ref: lookupSrc + "; src/mongo/db/pipeline/variable_validation.cpp validateNameForUserWrite",
			pipeline: `[{"$lookup": {"from": "f", "let": {"A": 1}, "pipeline": [], "as": "j"}}]`,
			code:     9, msg: "'A' starts with an invalid character for a user variable name"},
		{name: "lookup let variable name with a dot", ref: lookupSrc + "; src/mongo/db/pipeline/variable_validation.cpp validateNameForUserWrite",
			docs:     two,
			pipeline: `[{"$lookup": {"from": "f", "let": {"a.b": 1}, "pipeline": [], "as": "j"}}]`,
			code:     9, msg: "'a.b' contains an invalid character for a variable name: '.'"},
		// $merge: the let names are checked when the stage is built, so
		// the target is left untouched.
		{name: "merge let variable name starting upper case", ref: mergeSrc, docs: two,
			pipeline: `[{"$merge": {"into": "t", "let": {"V": 1}, "whenMatched": [{"$set": {"v": 1}}]}}]`,
			code:     9, msg: "'V' starts with an invalid character for a user variable name",
			thenColl: "t", thenWant: `[]`},
		{name: "merge let variable name that is empty", ref: mergeSrc,
			pipeline: `[{"$merge": {"into": "t", "let": {"": 1}, "whenMatched": [{"$set": {"v": 1}}]}}]`,
			code:     9, msg: "empty variable names are not allowed"},
		// $sort: SortPattern takes any number whose safeNumberLong is 1
		// or -1, refuses other types with 15974, and a repeated path.
		{name: "sort direction that is not a number", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": "x"}}]`, code: 15974, msg: `Illegal key in $sort specification: a: "x"`},
		{name: "sort direction that is a boolean", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": true}}]`, code: 15974, msg: `Illegal key in $sort specification: a: true`},
		{name: "sort direction 1.5 truncates to ascending", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": 1.5}}, {"$project": {"_id": 1}}]`, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "sort direction -1.9 truncates to descending", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": -1.9}}, {"$project": {"_id": 1}}]`, want: `[{"_id": 2}, {"_id": 1}]`},
		{name: "sort direction 0.5 truncates to 0", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": 0.5}}]`, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "sort direction is checked before the path", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"$a": 2}}]`, code: 15975},
		{name: "sort path repeated", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": 1, "_id": 1, "a": -1}}]`, code: 7472500, msg: "$sort key must not contain duplicate keys (duplicate: 'a')"},
		{name: "sort of a long direction", ref: sortSrc, docs: two,
			pipeline: `[{"$sort": {"a": {"$numberLong": "-1"}}}, {"$project": {"_id": 1}}]`, want: `[{"_id": 2}, {"_id": 1}]`},
		// $planCacheStats takes {allHosts: <bool>}, true only from a router.
		{name: "planCacheStats with allHosts false", ref: planCacheSrc, docs: two,
			pipeline: `[{"$planCacheStats": {"allHosts": false}}]`, want: `[]`},
		{name: "planCacheStats with allHosts true on a standalone", ref: planCacheSrc, docs: two,
			pipeline: `[{"$planCacheStats": {"allHosts": true}}]`, code: 4503200, msg: "$planCacheStats stage supports allHosts parameter only for sharded clusters"},
		{name: "planCacheStats with another field", ref: planCacheSrc, docs: two,
			pipeline: `[{"$planCacheStats": {"x": 1}}]`, code: 9, msg: "$planCacheStats parameters object may contain only 'allHosts' field. Found: x"},
		{name: "planCacheStats with a second field", ref: planCacheSrc, docs: two,
			pipeline: `[{"$planCacheStats": {"allHosts": false, "x": 1}}]`, code: 9, msg: "$planCacheStats parameters object may contain at most one field."},
		{name: "planCacheStats allHosts that is no bool", ref: planCacheSrc + "; src/mongo/bson/bsonelement.h BSONElement::chk", docs: two,
			pipeline: `[{"$planCacheStats": {"allHosts": 1}}]`, code: 13111},
	})
}
