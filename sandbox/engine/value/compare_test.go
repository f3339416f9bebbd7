package value

import (
	"math"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The BSON comparison order MongoDB documents ("Comparison/Sort Order"):
// MinKey < null < numbers < symbol, string < object < array < binData <
// ObjectId < bool < date < timestamp < regex < MaxKey.
func TestCompareAcrossTypes(t *testing.T) {
	ordered := []any{
		bson.MinKey{},
		nil,
		math.NaN(),
		int32(-5),
		int64(2),
		2.5,
		"a",
		bson.D{{Key: "a", Value: int32(1)}},
		bson.A{int32(1)},
		bson.Binary{Data: []byte{1}},
		bson.ObjectID{1},
		false,
		true,
		bson.DateTime(0),
		bson.Timestamp{T: 1},
		bson.Regex{Pattern: "a"},
		bson.MaxKey{},
	}
	for i := range ordered {
		for j := range ordered {
			got := Compare(ordered[i], ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestCompareNumbersAcrossTypes(t *testing.T) {
	d, _ := bson.ParseDecimal128("1.5")
	cases := []struct {
		a, b any
		want int
	}{
		{int32(1), 1.0, 0},
		{int64(1), int32(1), 0},
		{int64(math.MaxInt64), float64(math.MaxInt64), -1}, // the double rounds up to 2^63
		{d, 1.5, 0},
		{d, int32(2), -1},
		{math.Inf(-1), int64(math.MinInt64), -1},
		{math.NaN(), math.Inf(-1), -1},
	}
	for _, c := range cases {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	doc := bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "s", Value: "x"}, {Key: "n", Value: int64(7)},
		{Key: "a", Value: bson.A{int32(1), bson.D{{Key: "b", Value: 2.5}}}}, {Key: "r", Value: bson.Regex{Pattern: "^a", Options: "im"}}}
	raw, err := Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != Size(doc) {
		t.Fatalf("Size %d, encoded %d", Size(doc), len(raw))
	}
	back, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if Compare(doc, back) != 0 {
		t.Fatalf("round trip changed the document: %v", back)
	}
	if _, err := Decode(raw[:len(raw)-3]); err == nil {
		t.Fatal("truncated BSON decoded without error")
	}
}
