package query

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestEqualityDoc(t *testing.T) {
	cases := []struct {
		name   string
		filter D
		want   D
	}{
		// The seed-002 bucket upsert: the range on count seeds nothing, and
		// the equalities come out in path order (a std::map in mongod).
		{"bucket", D{{Key: "sensorId", Value: int32(1)}, {Key: "hour", Value: "h"}, {Key: "count", Value: D{{Key: "$lt", Value: int32(60)}}}},
			D{{Key: "hour", Value: "h"}, {Key: "sensorId", Value: int32(1)}}},
		{"eq operator", D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "a", Value: int32(1)}}},
		{"in one element", D{{Key: "a", Value: D{{Key: "$in", Value: A{int32(1)}}}}}, D{{Key: "a", Value: int32(1)}}},
		{"in two elements", D{{Key: "a", Value: D{{Key: "$in", Value: A{int32(1), int32(2)}}}}}, D{}},
		{"all one element", D{{Key: "a", Value: D{{Key: "$all", Value: A{int32(1)}}}}}, D{{Key: "a", Value: int32(1)}}},
		{"and", D{{Key: "$and", Value: A{D{{Key: "a", Value: int32(1)}}, D{{Key: "b", Value: int32(2)}}}}}, D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(2)}}},
		{"or one branch", D{{Key: "$or", Value: A{D{{Key: "a", Value: int32(1)}}}}}, D{{Key: "a", Value: int32(1)}}},
		{"or two branches", D{{Key: "$or", Value: A{D{{Key: "a", Value: int32(1)}}, D{{Key: "b", Value: int32(1)}}}}}, D{}},
		// Manual, "Upsert with Dotted _id Query": {"_id.name": ..., "_id.uid": ...}.
		{"dotted _id", D{{Key: "_id.name", Value: "Robert Frost"}, {Key: "_id.uid", Value: int32(0)}},
			D{{Key: "_id", Value: D{{Key: "name", Value: "Robert Frost"}, {Key: "uid", Value: int32(0)}}}}},
		{"_id first", D{{Key: "name", Value: "x"}, {Key: "_id", Value: int32(7)}}, D{{Key: "_id", Value: int32(7)}, {Key: "name", Value: "x"}}},
		{"dotted expands", D{{Key: "a.b", Value: int32(1)}, {Key: "a.c", Value: int32(2)}}, D{{Key: "a", Value: D{{Key: "b", Value: int32(1)}, {Key: "c", Value: int32(2)}}}}},
		{"regex seeds nothing", D{{Key: "a", Value: bson.Regex{Pattern: "x"}}}, D{}},
		{"ne seeds nothing", D{{Key: "a", Value: D{{Key: "$ne", Value: int32(1)}}}}, D{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := compile(t, c.filter).EqualityDoc()
			if err != nil {
				t.Fatal(err)
			}
			gb, _ := bson.MarshalExtJSON(got, true, false)
			wb, _ := bson.MarshalExtJSON(c.want, true, false)
			if string(gb) != string(wb) {
				t.Errorf("got  %s\nwant %s", gb, wb)
			}
		})
	}
}

func TestEqualityDocConflicts(t *testing.T) {
	cases := []struct {
		filter D
		msg    string
	}{
		{D{{Key: "$and", Value: A{D{{Key: "a", Value: int32(1)}}, D{{Key: "a", Value: int32(2)}}}}}, "cannot infer query fields to set, path 'a' is matched twice"},
		{D{{Key: "a", Value: int32(1)}, {Key: "a.b", Value: int32(2)}}, "cannot infer query fields to set, both paths 'a.b' and 'a' are matched"},
	}
	for _, c := range cases {
		_, err := compile(t, c.filter).EqualityDoc()
		var me *mongoerr.Error
		if !errors.As(err, &me) || me.Code != mongoerr.NotSingleValueField || me.Msg != c.msg {
			t.Errorf("%v: got %v, want (54) %q", c.filter, err, c.msg)
		}
	}
}
