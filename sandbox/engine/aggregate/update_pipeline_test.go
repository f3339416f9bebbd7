package aggregate

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestUpdatePipeline(t *testing.T) {
	cases := []struct {
		name     string
		doc      string
		pipeline string
		want     string
		modified bool
		code     int32
		msg      string
	}{
		{name: "manual: $set then $unset", doc: `{"_id": 1, "member": "abc123", "status": "A", "points": 2, "misc1": "note to self: confirm status", "misc2": "Need to activate"}`,
			pipeline: `[{"$set": {"status": "Modified", "comments": ["$misc1", "$misc2"]}}, {"$unset": ["misc1", "misc2"]}]`,
			want:     `{"_id": 1, "member": "abc123", "status": "Modified", "points": 2, "comments": ["note to self: confirm status", "Need to activate"]}`, modified: true},
		{name: "manual: computed average with $$NOW", doc: `{"_id": 1, "tests": [95, 92, 90]}`,
			pipeline: `[{"$set": {"average": {"$trunc": [{"$avg": "$tests"}, 0]}, "modified": "$$NOW"}}]`,
			want:     `{"_id": 1, "tests": [95, 92, 90], "average": 92.0, "modified": {"$date": 1700000000000}}`, modified: true},
		{name: "manual: $replaceRoot with $mergeObjects", doc: `{"_id": 2, "quiz1": 9, "test1": 90}`,
			pipeline: `[{"$replaceRoot": {"newRoot": {"$mergeObjects": [{"quiz1": 0, "quiz2": 0, "test1": 0, "test2": 0}, "$$ROOT"]}}}]`,
			want:     `{"_id": 2, "quiz1": 9, "quiz2": 0, "test1": 90, "test2": 0}`, modified: true},
		{name: "dotted $set reaches into array elements", doc: `{"_id": 1, "a": [{"x": 1}, {"x": 2}]}`,
			pipeline: `[{"$set": {"a.b": 5}}]`, want: `{"_id": 1, "a": [{"x": 1, "b": 5}, {"x": 2, "b": 5}]}`, modified: true},
		{name: "nested object spec merges", doc: `{"_id": 1, "a": {"c": 1}}`,
			pipeline: `[{"$addFields": {"a": {"b": 5}}}]`, want: `{"_id": 1, "a": {"c": 1, "b": 5}}`, modified: true},
		{name: "$$REMOVE removes a field", doc: `{"_id": 1, "a": 1, "b": 2}`,
			pipeline: `[{"$set": {"a": "$$REMOVE"}}]`, want: `{"_id": 1, "b": 2}`, modified: true},
		{name: "same values are a no-op", doc: `{"_id": 1, "a": 1}`, pipeline: `[{"$set": {"a": 1}}]`, want: `{"_id": 1, "a": 1}`},
		{name: "inclusion $project keeps _id and document order", doc: `{"_id": 1, "a": 1, "b": 2, "c": 3}`,
			pipeline: `[{"$project": {"c": 1, "a": 1}}]`, want: `{"_id": 1, "a": 1, "c": 3}`, modified: true},
		// The output, without its _id, is not binary equal to the document,
		// so ObjectReplaceExecutor::applyReplacementUpdate rewrites it.
		{name: "removing _id keeps it", doc: `{"_id": 1, "a": 1}`, pipeline: `[{"$unset": "_id"}]`, want: `{"_id": 1, "a": 1}`, modified: true},
		{name: "changing _id", doc: `{"_id": 1}`, pipeline: `[{"$set": {"_id": 2}}]`, code: 66,
			msg: "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
		{name: "$replaceWith a non-document", doc: `{"_id": 1, "a": 5}`, pipeline: `[{"$replaceWith": "$a"}]`, code: 40228,
			msg: "'replacement document'  must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {_id: 1, a: 5}"},
		{name: "stage not allowed", doc: `{"_id": 1}`, pipeline: `[{"$match": {"a": 1}}]`, code: 72,
			msg: "$match is not allowed to be used within an update"},
		// The whole pipeline is parsed before the stages are checked, and
		// an alias is named by the stage it stands for.
		{name: "a bad stage fails to parse first", doc: `{"_id": 1}`, pipeline: `[{"$match": 5}]`, code: 15959,
			msg: "the match filter must be an expression in an object"},
		{name: "$count is a $group", doc: `{"_id": 1}`, pipeline: `[{"$set": {"a": 1}}, {"$count": "n"}]`, code: 72,
			msg: "$group is not allowed to be used within an update"},
		{name: "$replaceRoot spec not an object", doc: `{"_id": 1}`, pipeline: `[{"$replaceRoot": 5}]`, code: 40229,
			msg: "expected an object as specification for $replaceRoot stage, got int"},
		{name: "empty $set", doc: `{"_id": 1}`, pipeline: `[{"$set": {}}]`, want: `{"_id": 1}`},
		{name: "a constant error waits for a document", doc: `{"_id": 1}`, pipeline: `[{"$set": {"a": {"$divide": [1, 0]}}}]`, code: 2,
			msg: "can't $divide by zero"},
		{name: "unknown stage", doc: `{"_id": 1}`, pipeline: `[{"$foo": {}}]`, code: 40324,
			msg: "Unrecognized pipeline stage name: '$foo'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, err := CompileUpdate(pipe(t, tc.pipeline), update.Options{Now: 1700000000000})
			var got bson.D
			var modified bool
			if err == nil {
				if u.Kind() != update.Pipeline {
					t.Fatalf("kind %v", u.Kind())
				}
				got, modified, err = u.Apply(docs(t, tc.doc)[0], -1, false)
			}
			if tc.code != 0 {
				me, ok := err.(*mongoerr.Error)
				if !ok || me.Code != tc.code || me.Msg != tc.msg {
					t.Fatalf("got %v, want (%d) %q", err, tc.code, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g, w := ejson(t, []bson.D{got}), ejson(t, docs(t, tc.want)); g != w || modified != tc.modified {
				t.Errorf("\n got %s modified %v\nwant %s modified %v", g, modified, w, tc.modified)
			}
		})
	}
	if _, err := CompileUpdate(bson.A{bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}, update.Options{ArrayFilters: []bson.D{{{Key: "x", Value: 1}}}}); err == nil {
		t.Fatal("arrayFilters with a pipeline must fail")
	}
}
