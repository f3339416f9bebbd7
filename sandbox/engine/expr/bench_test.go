package expr

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The operators whose loops were rewritten for bounded work, on inputs of
// ordinary size:
//
//	go test ./sandbox/engine/expr -run '^$' -bench 'RegexFindAll|SetUnion|MapRange' -count 5

func benchEval(b *testing.B, spec string, doc bson.D) {
	var wrap bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"x":`+spec+`}`), false, &wrap); err != nil {
		b.Fatal(err)
	}
	e, err := Compile(wrap[0].Value, NewScope())
	if err != nil {
		b.Fatal(err)
	}
	env := NewEnv(doc, 0)
	b.ReportAllocs()
	for b.Loop() {
		env.Reset(doc)
		if _, err := e.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegexFindAll finds 200 words in a 2 KB text.
func BenchmarkRegexFindAll(b *testing.B) {
	text := strings.Repeat("lorem ipsum ", 100)
	benchEval(b, `{"$regexFindAll": {"input": "$t", "regex": "[a-z]+"}}`, bson.D{{Key: "t", Value: text}})
}

// BenchmarkSetUnion unites two 1,000-element arrays half overlapping.
func BenchmarkSetUnion(b *testing.B) {
	a, c := make(bson.A, 1000), make(bson.A, 1000)
	for i := range a {
		a[i], c[i] = int32(i), int32(i+500)
	}
	benchEval(b, `{"$setUnion": ["$a", "$c"]}`, bson.D{{Key: "a", Value: a}, {Key: "c", Value: c}})
}

// BenchmarkMapRange maps over 1,000 elements, ticking the context check.
func BenchmarkMapRange(b *testing.B) {
	benchEval(b, `{"$map": {"input": {"$range": [0, "$n"]}, "in": {"$add": ["$$this", 1]}}}`, bson.D{{Key: "n", Value: int32(1000)}})
}
