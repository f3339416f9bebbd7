package update

import (
	"testing"
)

// updatePipelineBench is a pipeline-style update with each allowed stage
// family: $set, $unset, $project and $replaceWith.
const updatePipelineBench = `[{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, 1]}, "pct": {"$divide": ["$grade", 100]}}},
	{"$unset": "tmp"}, {"$project": {"courseId": 1, "grade": 1, "n": 1, "pct": 1}},
	{"$replaceWith": {"$mergeObjects": ["$$ROOT", {"seen": true}]}}]`

func BenchmarkPipelineUpdate(b *testing.B) {
	doc := js(b, `{"_id": 1, "courseId": "C007", "grade": 80, "student": "s1", "tmp": 1}`)
	u, err := Compile(jsArr(b, updatePipelineBench), Options{})
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
