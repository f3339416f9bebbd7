package compat_test

import "testing"

// TestStageSweep holds the cases of a conformance sweep over the
// aggregation stages: each pins what mongod 8.0's document source does
// where the sandbox once answered otherwise.
func TestStageSweep(t *testing.T) {
	two := `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]`
	facetSrc := "src/mongo/db/pipeline/document_source_facet.cpp extractRawPipelines; src/mongo/db/pipeline/field_path.cpp FieldPath::uassertValidFieldName"
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
	})
}
