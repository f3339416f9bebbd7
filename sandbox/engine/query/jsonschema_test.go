package query

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// requiredA stands in for the validation package's translation: a
// document matches when it has a field a.
type requiredA struct{}

func (requiredA) MatchesDocument(doc D) bool {
	for _, e := range doc {
		if e.Key == "a" {
			return true
		}
	}
	return false
}

func TestJSONSchemaHook(t *testing.T) {
	// parseJSONSchema checks the feature set, then the type, and only then
	// needs a compiler (expression_parser.cpp).
	runErrCases(t, []errCase{
		{"not an object", D{{Key: "$jsonSchema", Value: "x"}}, mongoerr.TypeMismatch, "$jsonSchema must be an object"},
		{"no compiler", D{{Key: "$jsonSchema", Value: D{}}}, mongoerr.NotImplemented, "$jsonSchema is not supported by the schemalab sandbox in this context"},
	})
	_, err := Compile(D{{Key: "$jsonSchema", Value: "x"}}, Options{BanSpecialFeatures: true})
	if me := mongoerr.As(err); me == nil || me.Code != mongoerr.QueryFeatureNotAllowed {
		t.Fatalf("banned: got %v", err)
	}
	var got D
	opts := Options{JSONSchema: func(schema D) (SchemaMatcher, error) {
		got = schema
		return requiredA{}, nil
	}}
	f, err := Compile(D{{Key: "b", Value: int32(1)}, {Key: "$jsonSchema", Value: D{{Key: "required", Value: A{"a"}}}}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Key != "required" {
		t.Fatalf("the compiler got %v", got)
	}
	for _, c := range []struct {
		doc  D
		want bool
	}{
		{D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(1)}}, true},
		{D{{Key: "b", Value: int32(1)}}, false},
		{D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(2)}}, false},
	} {
		if f.Matches(c.doc) != c.want {
			t.Errorf("%v: want %v", c.doc, c.want)
		}
	}
	// $elemMatch parses its object with the same options.
	f, err = Compile(D{{Key: "x", Value: D{{Key: "$elemMatch", Value: D{{Key: "$jsonSchema", Value: D{}}}}}}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Matches(D{{Key: "x", Value: A{D{{Key: "a", Value: int32(1)}}}}}) {
		t.Error("$elemMatch with $jsonSchema: an element with a should match")
	}
}
