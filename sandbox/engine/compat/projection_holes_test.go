package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// An exclusion leaves the field's slot in mongod's Document with a missing
// value (MutableDocument::remove, document_value/document.h; the executor
// sets Value() for each excluded field it meets, ProjectionNode::
// applyProjections in exec/projection_node.cpp). The slot does not show
// (Document::toBson and the field iterator skip it), but an $addFields of
// the same name writes into it (ProjectionNode::applyExpressions calls
// setField), so the field comes back where it was. The Document travels
// through the stages that return it or set paths in it ($match, $sort in
// memory, $limit, $skip, $unwind and $lookup's setNestedField) and the
// slots go with it; a stage that builds a new document drops them.
const (
	holesJstest   = "jstests/aggregation/bugs/exclusion_projection_does_not_affect_field_order.js"
	holesDocument = "src/mongo/db/exec/document_value/document.h MutableDocument::remove; src/mongo/db/exec/projection_node.cpp applyProjections, applyExpressions"
)

func TestExclusionHoles(t *testing.T) {
	three := `[{"_id": 1}, {"_id": 2, "c": 1}, {"_id": 3, "y": 1, "z": 1}]`
	abc := `[{"_id": 1, "a": 1, "b": 2, "c": 3}]`
	runAggCases(t, []aggCase{
		{name: "an excluded field set again takes back its place", ref: holesJstest,
			docs:     three,
			pipeline: `[{"$project": {"b": 0, "c": 0}}, {"$addFields": {"x": 3, "y": 4, "b": 5, "c": 6, "a": 7}}, {"$sort": {"_id": 1}}]`,
			// Excluding a field the document lacks leaves no slot.
			want: `[{"_id": 1, "x": 3, "y": 4, "b": 5, "c": 6, "a": 7}, {"_id": 2, "c": 6, "x": 3, "y": 4, "b": 5, "a": 7}, {"_id": 3, "y": 4, "z": 1, "x": 3, "b": 5, "c": 6, "a": 7}]`},
		{name: "$unset then $set of the same field", ref: holesJstest + "; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$unset": ["a", "b"]}, {"$set": {"b": "B", "a": "A", "d": "D"}}]`,
			want:     `[{"_id": 1, "a": "A", "b": "B", "c": 3, "d": "D"}]`},
		{name: "an exclusion the pipeline runs, not the query layer", ref: holesDocument,
			docs:     abc,
			pipeline: `[{"$addFields": {"k": 1}}, {"$unset": "a"}, {"$addFields": {"a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "b": 2, "c": 3, "k": 1}]`},
		{name: "after a sort the query layer took", ref: holesDocument,
			docs:     `[{"_id": 2, "a": 1, "b": 2}, {"_id": 1, "a": 1, "b": 2}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$project": {"a": 0}}, {"$set": {"a": "x"}}]`,
			want:     `[{"_id": 1, "a": "x", "b": 2}, {"_id": 2, "a": "x", "b": 2}]`},
		{name: "two exclusions, refilled in another order", ref: holesDocument,
			docs:     `[{"_id": 1, "a": 1, "b": 2, "c": 3, "d": 4}]`,
			pipeline: `[{"$unset": "b"}, {"$project": {"d": 0, "a": 0}}, {"$set": {"d": "D", "a": "A"}}, {"$set": {"e": "E", "b": "B"}}]`,
			want:     `[{"_id": 1, "a": "A", "b": "B", "c": 3, "d": "D", "e": "E"}]`},
		{name: "a nested exclusion leaves its slot in the embedded document", ref: holesDocument + " applyProjectionsToValue",
			docs:     `[{"_id": 1, "a": {"b": 1, "c": 2}, "d": 3}]`,
			pipeline: `[{"$project": {"a": {"b": 0}}}, {"$addFields": {"a.b": 9}}]`,
			want:     `[{"_id": 1, "a": {"b": 9, "c": 2}, "d": 3}]`},
		{name: "a dotted exclusion and a nested $addFields spec", ref: holesDocument + " applyExpressionsToValue",
			docs:     `[{"_id": 1, "a": {"b": 1, "c": 2}, "d": 3}]`,
			pipeline: `[{"$addFields": {"k": 1}}, {"$unset": "a.b"}, {"$addFields": {"a": {"x": 1, "b": 9}}}]`,
			want:     `[{"_id": 1, "a": {"b": 9, "c": 2, "x": 1}, "d": 3, "k": 1}]`},
		{name: "a dotted $addFields into an excluded field fills its slot", ref: holesDocument + " applyExpressionsToValue",
			docs:     `[{"_id": 1, "a": {"b": 1, "c": 2}, "d": 3}]`,
			pipeline: `[{"$project": {"a": 0}}, {"$addFields": {"a.b": 9}}]`,
			want:     `[{"_id": 1, "a": {"b": 9}, "d": 3}]`},
		{name: "an exclusion through an array leaves a slot in each element", ref: holesDocument + " applyProjectionsToValue, applyExpressionsToValue (arrays element by element)",
			docs:     `[{"_id": 1, "items": [{"p": 1, "q": 2}, {"q": 4}, 5, [{"p": 6, "q": 7}]], "z": 1}]`,
			pipeline: `[{"$unset": "items.p"}, {"$set": {"items.p": 0}}]`,
			want:     `[{"_id": 1, "items": [{"p": 0, "q": 2}, {"q": 4, "p": 0}, {"p": 0}, [{"p": 0, "q": 7}]], "z": 1}]`},
		{name: "a replaced embedded document loses its slots", ref: holesDocument,
			docs:     `[{"_id": 1, "a": {"b": 1, "c": 2}}]`,
			pipeline: `[{"$project": {"a.b": 0}}, {"$addFields": {"a": {"$literal": {"c": 2}}}}, {"$addFields": {"a.b": 9}}]`,
			want:     `[{"_id": 1, "a": {"c": 2, "b": 9}}]`},
		{name: "slots survive $match", ref: "src/mongo/db/pipeline/document_source_match.cpp doGetNext; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "a": 1, "b": 3}]`,
			pipeline: `[{"$project": {"a": 0}}, {"$match": {"b": 2}}, {"$addFields": {"a": "x"}}]`,
			want:     `[{"_id": 1, "a": "x", "b": 2}]`},
		{name: "slots survive $_internalInhibitOptimization", ref: "src/mongo/db/pipeline/document_source_internal_inhibit_optimization.cpp doGetNext; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$unset": "a"}, {"$_internalInhibitOptimization": {}}, {"$set": {"a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "b": 2, "c": 3}]`},
		{name: "slots survive an in-memory $sort, $skip and $limit", ref: "src/mongo/db/pipeline/document_source_sort.cpp; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "b": 3}, {"_id": 3, "a": 1, "b": 1}]`,
			pipeline: `[{"$project": {"a": 0}}, {"$sort": {"b": -1}}, {"$skip": 1}, {"$limit": 2}, {"$addFields": {"a": "x"}}]`,
			want:     `[{"_id": 1, "a": "x", "b": 2}, {"_id": 3, "a": "x", "b": 1}]`},
		{name: "slots survive a $sort that keeps the top documents", ref: "src/mongo/db/pipeline/document_source_sort.cpp; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "a": 1, "b": 3}, {"_id": 3, "a": 1, "b": 1}]`,
			pipeline: `[{"$project": {"a": 0}}, {"$sort": {"b": 1}}, {"$limit": 2}, {"$addFields": {"a": "x"}}]`,
			want:     `[{"_id": 3, "a": "x", "b": 1}, {"_id": 1, "a": "x", "b": 2}]`},
		{name: "slots survive $unwind", ref: "src/mongo/db/pipeline/document_source_unwind.cpp Unwinder::getNext; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "arr": [1, 2], "z": 1}]`,
			pipeline: `[{"$unset": "a"}, {"$unwind": "$arr"}, {"$set": {"a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "arr": 1, "z": 1}, {"_id": 1, "a": 0, "arr": 2, "z": 1}]`},
		{name: "an element $unwind emits keeps its own slots", ref: "src/mongo/db/pipeline/document_source_unwind.cpp Unwinder::getNext (setNestedField of the element's Value); " + holesDocument,
			docs:     `[{"_id": 1, "o": {"items": [{"p": 1, "q": 2}, {"q": 4}, {"p": 5, "q": 6}]}}]`,
			pipeline: `[{"$unset": "o.items.p"}, {"$unwind": "$o.items"}, {"$set": {"o.items.p": 0}}]`,
			want:     `[{"_id": 1, "o": {"items": {"p": 0, "q": 2}}}, {"_id": 1, "o": {"items": {"q": 4, "p": 0}}}, {"_id": 1, "o": {"items": {"p": 0, "q": 6}}}]`},
		{name: "$unwind of an empty array it keeps leaves a slot", ref: "src/mongo/db/pipeline/document_source_unwind.cpp Unwinder::getNext removeNestedField",
			docs:     `[{"_id": 1, "a": 1, "arr": [], "z": 1}]`,
			pipeline: `[{"$unset": "a"}, {"$unwind": {"path": "$arr", "preserveNullAndEmptyArrays": true}}, {"$set": {"x": 1, "arr": 0, "a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "arr": 0, "z": 1, "x": 1}]`},
		{name: "slots survive $lookup", ref: "src/mongo/db/pipeline/document_source_lookup.cpp doGetNext setNestedField; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "k": 5, "z": 1}]`,
			other:    map[string]string{"o": `[{"_id": 7, "k": 5}]`},
			pipeline: `[{"$unset": "a"}, {"$lookup": {"from": "o", "localField": "k", "foreignField": "k", "as": "j"}}, {"$set": {"a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "k": 5, "z": 1, "j": [{"_id": 7, "k": 5}]}]`},
		{name: "$lookup's as fills an excluded field's slot", ref: "src/mongo/db/pipeline/document_source_lookup.cpp doGetNext setNestedField; " + holesDocument,
			docs:     `[{"_id": 1, "a": 1, "k": 5, "z": 1}]`,
			other:    map[string]string{"o": `[{"_id": 7, "k": 5}]`},
			pipeline: `[{"$unset": "a"}, {"$lookup": {"from": "o", "localField": "k", "foreignField": "k", "as": "a"}}]`,
			want:     `[{"_id": 1, "a": [{"_id": 7, "k": 5}], "k": 5, "z": 1}]`},
		{name: "$lookup's dotted as fills the slot in the embedded document", ref: "src/mongo/db/pipeline/document_source_lookup.cpp doGetNext setNestedField (MutableDocument::getNestedFieldHelper sets the last field in the embedded Document's own storage); " + holesDocument,
			docs:  `[{"_id": 1, "a": {"b": 1, "c": 2, "d": 3}, "k": 5}]`,
			other: map[string]string{"o": `[{"_id": 7, "k": 5}]`},
			// The same place whether or not a later $set writes the field
			// again: setField of a present field never moves it.
			pipeline: `[{"$unset": "a.c"}, {"$lookup": {"from": "o", "localField": "k", "foreignField": "k", "as": "a.c"}}, {"$facet": {"as": [], "set": [{"$set": {"a.c": 0}}]}}]`,
			want:     `[{"as": [{"_id": 1, "a": {"b": 1, "c": [{"_id": 7, "k": 5}], "d": 3}, "k": 5}], "set": [{"_id": 1, "a": {"b": 1, "c": 0, "d": 3}, "k": 5}]}]`},
		{name: "$facet hands its sub-pipelines the Documents, slots and all", ref: "src/mongo/db/pipeline/tee_buffer.cpp TeeBuffer::getNext; src/mongo/db/pipeline/document_source_tee_consumer.cpp; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$unset": "a"}, {"$facet": {"f": [{"$set": {"a": 0}}], "g": [{"$match": {}}, {"$unset": "b"}, {"$set": {"b": 1, "a": 1}}], "h": [{"$project": {"c": 1}}, {"$set": {"a": 2}}]}}]`,
			want:     `[{"f": [{"_id": 1, "a": 0, "b": 2, "c": 3}], "g": [{"_id": 1, "a": 1, "b": 1, "c": 3}], "h": [{"_id": 1, "c": 3, "a": 2}]}]`},
		{name: "an exclusion inside a $facet leaves slots there too", ref: holesDocument,
			docs:     abc,
			pipeline: `[{"$facet": {"f": [{"$unset": "b"}, {"$set": {"x": 0, "b": 0}}]}}]`,
			want:     `[{"f": [{"_id": 1, "a": 1, "b": 0, "c": 3, "x": 0}]}]`},
		{name: "an inclusion builds a new document without slots", ref: "src/mongo/db/exec/inclusion_projection_executor.h InclusionNode::initializeOutputDocument; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$project": {"a": 0}}, {"$project": {"b": 1, "c": 1}}, {"$addFields": {"a": 0}}]`,
			want:     `[{"_id": 1, "b": 2, "c": 3, "a": 0}]`},
		{name: "$replaceRoot with a built document drops the slots", ref: "src/mongo/db/pipeline/expression.cpp ExpressionObject, ExpressionMergeObjects; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$project": {"a": 0}}, {"$replaceRoot": {"newRoot": {"$mergeObjects": ["$$ROOT", {}]}}}, {"$addFields": {"a": 0}}]`,
			want:     `[{"_id": 1, "b": 2, "c": 3, "a": 0}]`},
		{name: "$group builds new documents", ref: "src/mongo/db/pipeline/document_source_group.cpp; " + holesDocument,
			docs:     abc,
			pipeline: `[{"$project": {"a": 0}}, {"$group": {"_id": "$_id", "b": {"$first": "$b"}}}, {"$addFields": {"a": 0, "b": 1}}]`,
			want:     `[{"_id": 1, "b": 1, "a": 0}]`},
		{name: "$$REMOVE leaves a slot too", ref: holesDocument + " (setField of a missing value)",
			docs:     abc,
			pipeline: `[{"$unset": "c"}, {"$set": {"a": "$$REMOVE"}}, {"$set": {"d": 1, "a": 0}}]`,
			want:     `[{"_id": 1, "a": 0, "b": 2, "d": 1}]`},
	})
	runUpdateCases(t, []updateCase{
		{name: "an update pipeline's $unset then $set keeps the field's place", ref: "src/mongo/db/update/pipeline_executor.cpp applyUpdate; " + holesDocument,
			docs:   abc,
			update: `[{"$unset": "a"}, {"$set": {"a": 10}}]`,
			want:   `[{"_id": 1, "a": 10, "b": 2, "c": 3}]`},
		{name: "an update pipeline's $project exclusion then $addFields", ref: "src/mongo/db/update/pipeline_executor.cpp applyUpdate; " + holesDocument,
			docs:   `[{"_id": 1, "a": {"x": 1, "y": 2}, "b": 2}]`,
			update: `[{"$project": {"a.x": 0, "b": 0}}, {"$addFields": {"b": 0, "a.x": 0}}]`,
			want:   `[{"_id": 1, "a": {"x": 0, "y": 2}, "b": 0}]`},
	})
}

// The query layer runs a leading exclusion whose holes a later stage
// fills as it runs any other (buildProjectionForPushdown); its
// PROJECTION stage hands the pipeline the projected Documents, holes
// and all (PlanExecutor::getNextDocument in DocumentSourceCursor), so the
// plan is the same as without the refill.
func TestExclusionHolesExplain(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a leading exclusion whose holes are filled is still the plan's projection", pipelineDRef+"; src/mongo/db/pipeline/document_source_cursor.cpp",
		explainCase(stage, "$unset"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "d": 1, "e": 2}]`)
			reply := aggExplain(t, db, `[{"$unset": "d"}, {"$set": {"d": 0}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$set" {
				t.Errorf("stages %s", got)
			}
			cursor, _ := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
			plan, _ := field(field(cursor, "queryPlanner").(bson.D), "winningPlan").(bson.D)
			if got := stageChain(plan); got != "PROJECTION_SIMPLE>COLLSCAN" {
				t.Errorf("plan %s", got)
			}
			sameValue(t, "transformBy", field(plan, "transformBy"), `{"d": false, "_id": true}`)
		})
}
