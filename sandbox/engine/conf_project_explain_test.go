package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Explain shows $project and $unset as mongod serializes the
// projection: true and false flags, an inclusion's _id first, an
// exclusion's implicit _id: true last, and $unset as the $project it is.
func TestConfProjectStagesExplain(t *testing.T) {
	db, _ := confColl(t, `{"_id": 1, "a": [1, 2], "b": 2, "c": 3}`)
	for _, c := range []struct{ stage, want string }{
		{`{"$project": {"b": 1, "c": true}}`, `{"$project": {"_id": true, "b": true, "c": true}}`},
		{`{"$project": {"b": 1, "_id": 0}}`, `{"$project": {"_id": false, "b": true}}`},
		{`{"$project": {"b": 0, "x.y": 0}}`, `{"$project": {"b": false, "x": {"y": false}, "_id": true}}`},
		{`{"$project": {"_id": 0}}`, `{"$project": {"_id": false}}`},
		{`{"$unset": ["b", "c"]}`, `{"$project": {"b": false, "c": false, "_id": true}}`},
	} {
		ex := okJ(t, db, `{"explain": {"aggregate": "c", "pipeline": [{"$unwind": "$a"}, `+c.stage+`], "cursor": {}}, "verbosity": "queryPlanner"}`)
		stages, _ := field(ex, "stages").(bson.A)
		if len(stages) != 3 {
			t.Fatalf("%s: stages %s", c.stage, relaxed(ex))
		}
		sameJSON(t, c.stage, stages[2], c.want)
	}
}
