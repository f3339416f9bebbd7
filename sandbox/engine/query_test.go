package engine_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func ids(docs []bson.D) string {
	out := ""
	for i, d := range docs {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprint(d[0].Value)
	}
	return out
}

func seedColl(t *testing.T, docs ...bson.D) *mongo.Collection {
	t.Helper()
	client := startServer(t)
	coll := client.Database("q").Collection("c")
	in := make([]any, len(docs))
	for i, d := range docs {
		in[i] = d
	}
	if _, err := coll.InsertMany(ctx, in); err != nil {
		t.Fatal(err)
	}
	return coll
}

func TestQuerySemantics(t *testing.T) {
	coll := seedColl(t,
		bson.D{{Key: "_id", Value: 1}, {Key: "a", Value: 5}, {Key: "tags", Value: bson.A{"x", "y"}}},
		bson.D{{Key: "_id", Value: 2}, {Key: "a", Value: int64(5)}, {Key: "tags", Value: bson.A{"y"}}},
		bson.D{{Key: "_id", Value: 3}, {Key: "a", Value: 5.0}, {Key: "b", Value: nil}},
		bson.D{{Key: "_id", Value: 4}, {Key: "a", Value: "5"}, {Key: "sub", Value: bson.D{{Key: "c", Value: bson.A{bson.D{{Key: "d", Value: 1}}, bson.D{{Key: "d", Value: 2}}}}}}},
		bson.D{{Key: "_id", Value: 5}, {Key: "a", Value: bson.A{1, 9}}, {Key: "tags", Value: bson.A{"x", "y"}}},
	)
	cases := []struct {
		filter bson.D
		want   string
	}{
		{bson.D{{Key: "a", Value: 5}}, "1 2 3"},                                                                                     // numbers compare across types
		{bson.D{{Key: "a", Value: bson.D{{Key: "$gt", Value: 4}}}}, "1 2 3 5"},                                                      // array element matches, strings never do
		{bson.D{{Key: "a", Value: bson.D{{Key: "$gt", Value: 1}, {Key: "$lt", Value: 9}}}}, "1 2 3 5"},                              // each bound may be met by a different element
		{bson.D{{Key: "a", Value: bson.D{{Key: "$elemMatch", Value: bson.D{{Key: "$gt", Value: 1}, {Key: "$lt", Value: 9}}}}}}, ""}, // one element must meet both
		{bson.D{{Key: "b", Value: nil}}, "1 2 3 4 5"},                                                                               // null matches missing
		{bson.D{{Key: "b", Value: bson.D{{Key: "$exists", Value: true}}}}, "3"},
		{bson.D{{Key: "tags", Value: "x"}}, "1 5"},
		{bson.D{{Key: "tags", Value: bson.A{"x", "y"}}}, "1 5"}, // whole-array equality
		{bson.D{{Key: "tags", Value: bson.D{{Key: "$all", Value: bson.A{"y", "x"}}}}}, "1 5"},
		{bson.D{{Key: "tags", Value: bson.D{{Key: "$size", Value: 1}}}}, "2"},
		{bson.D{{Key: "sub.c.d", Value: 2}}, "4"},   // dotted path through an array of documents
		{bson.D{{Key: "sub.c.1.d", Value: 2}}, "4"}, // numeric path component
		{bson.D{{Key: "a", Value: bson.D{{Key: "$type", Value: "string"}}}}, "4"},
		{bson.D{{Key: "a", Value: bson.D{{Key: "$in", Value: bson.A{9, "5"}}}}}, "4 5"},
		{bson.D{{Key: "a", Value: bson.D{{Key: "$ne", Value: 5}}}}, "4 5"},
		{bson.D{{Key: "$or", Value: bson.A{bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "b", Value: bson.D{{Key: "$exists", Value: true}}}}}}}, "1 3"},
		{bson.D{{Key: "a", Value: bson.D{{Key: "$mod", Value: bson.A{4, 1}}}}}, "1 2 3 5"},
		{bson.D{{Key: "a", Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$gt", Value: 4}}}}}}, "4"},
		{bson.D{{Key: "a", Value: bson.Regex{Pattern: "^5"}}}, "4"},
	}
	for _, c := range cases {
		got := ids(findAll(t, coll, c.filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}})))
		if got != c.want {
			t.Errorf("%v: got [%s], want [%s]", c.filter, got, c.want)
		}
	}
}

// MongoDB sorts across types in BSON order: MinKey < null < numbers <
// strings < objects < arrays < binData < ObjectId < bool < date < ... <
// MaxKey; an array sorts by its smallest element ascending.
func TestSortAcrossTypes(t *testing.T) {
	oid := bson.NewObjectID()
	coll := seedColl(t,
		bson.D{{Key: "_id", Value: "maxkey"}, {Key: "v", Value: bson.MaxKey{}}},
		bson.D{{Key: "_id", Value: "date"}, {Key: "v", Value: bson.DateTime(0)}},
		bson.D{{Key: "_id", Value: "bool"}, {Key: "v", Value: true}},
		bson.D{{Key: "_id", Value: "oid"}, {Key: "v", Value: oid}},
		bson.D{{Key: "_id", Value: "obj"}, {Key: "v", Value: bson.D{{Key: "x", Value: 1}}}},
		bson.D{{Key: "_id", Value: "str"}, {Key: "v", Value: "a"}},
		bson.D{{Key: "_id", Value: "num"}, {Key: "v", Value: 2.5}},
		bson.D{{Key: "_id", Value: "arr"}, {Key: "v", Value: bson.A{0.5, "z"}}},
		bson.D{{Key: "_id", Value: "missing"}},
		bson.D{{Key: "_id", Value: "minkey"}, {Key: "v", Value: bson.MinKey{}}},
	)
	got := ids(findAll(t, coll, bson.D{}, options.Find().SetSort(bson.D{{Key: "v", Value: 1}, {Key: "_id", Value: 1}})))
	want := "minkey missing arr num str obj oid bool date maxkey"
	if got != want {
		t.Fatalf("sort order\n got %s\nwant %s", got, want)
	}
}

func TestGetMoreBatches(t *testing.T) {
	docs := make([]bson.D, 250)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: i}}
	}
	coll := seedColl(t, docs...)
	cur, err := coll.Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	if got := cur.RemainingBatchLength(); got != 101 {
		t.Fatalf("first batch %d, want 101", got)
	}
	n := 0
	for cur.Next(ctx) {
		n++
	}
	if cur.Err() != nil || n != 250 {
		t.Fatalf("iterated %d: %v", n, cur.Err())
	}
}
