package expr

import (
	"math"
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func d128(s string) bson.Decimal128 { return mustDec(s) }

func TestSum(t *testing.T) {
	cases := []struct {
		name  string
		in    []any
		sum   any
		avg   any
		count int64
	}{
		{"ints", []any{int32(1), int32(2)}, int32(3), 1.5, 2},
		{"int overflow to long", []any{int32(math.MaxInt32), int32(1)}, int64(2147483648), 1073741824.0, 2},
		{"long", []any{int64(1), int32(2)}, int64(3), 1.5, 2},
		{"long overflow to double", []any{int64(math.MaxInt64), int64(1)}, 9.223372036854775808e18, 4.611686018427387904e18, 2},
		{"double", []any{int32(1), 0.5}, 1.5, 0.75, 2},
		{"compensated", []any{0.1, 0.2, 0.3}, 0.6, 0.19999999999999998, 3},
		{"decimal", []any{d128("1.5"), int32(1)}, d128("2.5"), d128("1.25"), 2},
		{"non numeric ignored", []any{"a", nil, int32(4)}, int32(4), 4.0, 1},
		{"empty", nil, int32(0), nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s Sum
			for _, v := range c.in {
				s.Add(v)
			}
			if got := s.Result(); !reflect.DeepEqual(got, c.sum) {
				t.Errorf("sum: want %#v got %#v", c.sum, got)
			}
			if got := s.Avg(); !reflect.DeepEqual(got, c.avg) {
				t.Errorf("avg: want %#v got %#v", c.avg, got)
			}
			if s.Count() != c.count {
				t.Errorf("count: want %d got %d", c.count, s.Count())
			}
		})
	}
}

func BenchmarkFieldPathAvg(b *testing.B) {
	e, err := Compile("$score", NewScope())
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]bson.D, 1000)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "course", Value: "c1"}, {Key: "score", Value: float64(i % 100)}}
	}
	env := NewEnv(nil, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		var s Sum
		for _, d := range docs {
			env.Reset(d)
			v, _ := e.Eval(env)
			s.Add(v)
		}
		_ = i
		_ = s.Avg()
	}
}
