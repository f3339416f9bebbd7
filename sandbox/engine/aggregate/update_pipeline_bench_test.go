package aggregate

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/update"
)

// updatePipelineBench is a pipeline-style update with each allowed stage
// family: $set, $unset, $project and $replaceWith.
const updatePipelineBench = `[{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, 1]}, "pct": {"$divide": ["$grade", 100]}}},
	{"$unset": "tmp"}, {"$project": {"courseId": 1, "grade": 1, "n": 1, "pct": 1}},
	{"$replaceWith": {"$mergeObjects": ["$$ROOT", {"seen": true}]}}]`

func BenchmarkPipelineUpdate(b *testing.B) {
	var doc, spec bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"_id": 1, "courseId": "C007", "grade": 80, "student": "s1", "tmp": 1}`), false, &doc); err != nil {
		b.Fatal(err)
	}
	if err := bson.UnmarshalExtJSON([]byte(`{"u": `+updatePipelineBench+`}`), false, &spec); err != nil {
		b.Fatal(err)
	}
	u, err := CompileUpdate(spec[0].Value, update.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := u.Apply(doc, -1, false); err != nil {
			b.Fatal(err)
		}
	}
}
