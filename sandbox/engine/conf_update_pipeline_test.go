package engine_test

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// An update pipeline runs the aggregation stages themselves, checked
// against the list of stages mongod allows in an update (PipelineExecutor:
// the whole pipeline is parsed, then each stage must be
// isAllowedWithinUpdatePipeline), so a stage fails the same way in an
// update, in $merge's whenMatched and in an aggregate. These are the cases
// where the update's former copy of the stages answered differently.

const pipelineDocID = "679b9beb4e1ac8e34475f53c"

func TestConfUpdatePipelineStages(t *testing.T) {
	client := startServer(t)
	coll := client.Database("conf").Collection("upd")
	oid, _ := bson.ObjectIDFromHex(pipelineDocID)
	for _, c := range []struct {
		name     string
		pipeline string
		want     string // the document after, or
		code     int32  // mongod's write error
		msg      string
	}{
		// document_source_replace_root.cpp: 40229 for the spec, 40228 for
		// a value that is no document.
		{name: "$replaceRoot spec not an object", pipeline: `[{"$replaceRoot": 5}]`,
			code: 40229, msg: "expected an object as specification for $replaceRoot stage, got int"},
		// kErrorTemplate "{} must evaluate ..." after the context
		// "'replacement document' ", and Value's toString, which prints an
		// ObjectId as its hex digits.
		{name: "$replaceWith a number", pipeline: `[{"$replaceWith": "$a"}]`,
			code: 40228, msg: "'replacement document'  must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {_id: " + pipelineDocID + ", a: 5, b: 3}"},
		// The projection parser names the field (projection_parser.cpp).
		{name: "$project mixes inclusion and exclusion", pipeline: `[{"$project": {"a": 1, "b": 0}}]`,
			code: 31254, msg: "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection"},
		// A decimal is a number, so an inclusion flag, not a literal.
		{name: "$project with a decimal flag", pipeline: `[{"$project": {"a": {"$numberDecimal": "1"}}}]`,
			want: `{"_id": {"$oid": "` + pipelineDocID + `"}, "a": 5}`},
		// An empty $set adds nothing (add_fields_projection_executor.cpp).
		{name: "empty $set", pipeline: `[{"$set": {}}]`,
			want: `{"_id": {"$oid": "` + pipelineDocID + `"}, "a": 5, "b": 3}`},
		// Parsed before it is checked: a malformed stage fails to parse,
		// and an alias is refused by the stage it stands for.
		{name: "malformed $match", pipeline: `[{"$match": 5}]`,
			code: 15959, msg: "the match filter must be an expression in an object"},
		{name: "$count is a $group", pipeline: `[{"$set": {"c": 1}}, {"$count": "n"}]`,
			code: 72, msg: "$group is not allowed to be used within an update"},
		{name: "$limit", pipeline: `[{"$limit": 1}]`,
			code: 72, msg: "$limit is not allowed to be used within an update"},
		{name: "every allowed stage", pipeline: `[{"$addFields": {"c": {"$add": ["$a", "$b"]}}}, {"$unset": "b"},
			{"$replaceWith": {"$mergeObjects": ["$$ROOT", {"d": 1}]}}, {"$project": {"b": 0}}, {"$set": {"e": "$c"}},
			{"$replaceRoot": {"newRoot": {"$mergeObjects": [{"z": 0}, "$$ROOT"]}}}]`,
			want: `{"_id": {"$oid": "` + pipelineDocID + `"}, "z": 0, "a": 5, "c": 8, "d": 1, "e": 8}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := coll.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: oid}, {Key: "a", Value: int32(5)}, {Key: "b", Value: int32(3)}}); err != nil {
				t.Fatal(err)
			}
			_, err := coll.UpdateOne(ctx, bson.D{}, ejArray(t, c.pipeline))
			if c.code != 0 {
				var we mongo.WriteException
				if !errors.As(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != int(c.code) || we.WriteErrors[0].Message != c.msg {
					t.Fatalf("got %v\nwant write error %d %q", err, c.code, c.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got bson.Raw
			if err := coll.FindOne(ctx, bson.D{}).Decode(&got); err != nil {
				t.Fatal(err)
			}
			sameJSON(t, c.name, got, c.want)
		})
	}
}

// The same stages in an aggregate: the cases where the aggregate's copy
// answered differently from the update's.
func TestConfAggregateTransformStages(t *testing.T) {
	client := startServer(t)
	coll := client.Database("conf").Collection("agg")
	oid, _ := bson.ObjectIDFromHex(pipelineDocID)
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: oid}, {Key: "a", Value: int32(5)}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, pipeline string
		code           int32
		msg            string
	}{
		{name: "$replaceWith an ObjectId", pipeline: `[{"$replaceWith": "$_id"}]`,
			code: 40228, msg: "PlanExecutor error during aggregation :: caused by :: 'replacement document'  must evaluate to an object, but resulting value was: " +
				pipelineDocID + ". Type of resulting value: 'objectId'. Input document: {_id: " + pipelineDocID + "}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cur, err := coll.Aggregate(ctx, ejArray(t, c.pipeline))
			if err == nil {
				var out []bson.Raw
				err = cur.All(ctx, &out)
			}
			var se mongo.ServerError
			if !errors.As(err, &se) || !se.HasErrorCode(int(c.code)) || !se.HasErrorMessage(c.msg) {
				t.Fatalf("got %v\nwant %d %q", err, c.code, c.msg)
			}
			var ce mongo.CommandError
			if errors.As(err, &ce) && ce.Message != c.msg {
				t.Fatalf("message %q\nwant    %q", ce.Message, c.msg)
			}
		})
	}
}

// $merge's whenMatched pipeline is an update pipeline: the same allow-list
// and message, and the replacement rules of a pipeline update, with the
// context $merge adds to ImmutableField (document_source_merge.cpp).
func TestConfMergeWhenMatchedPipeline(t *testing.T) {
	client := startServer(t)
	db := client.Database("conf")
	src, target := db.Collection("src"), db.Collection("target")
	if _, err := src.InsertOne(ctx, bson.D{{Key: "_id", Value: int32(1)}, {Key: "n", Value: int32(2)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := target.InsertOne(ctx, bson.D{{Key: "_id", Value: int32(1)}, {Key: "n", Value: int32(10)}}); err != nil {
		t.Fatal(err)
	}
	merge := func(whenMatched string) error {
		cur, err := src.Aggregate(ctx, ejArray(t, `[{"$merge": {"into": "target", "whenMatched": `+whenMatched+`}}]`))
		if err != nil {
			return err
		}
		return cur.All(ctx, &[]bson.Raw{})
	}
	for _, c := range []struct {
		whenMatched string
		code        int32
		msg         string
	}{
		// The updates $merge sends parse the pipeline, so its errors
		// come while the pipeline runs, with the executor's context.
		{`[{"$match": {}}]`, 72, "PlanExecutor error during aggregation :: caused by :: $match is not allowed to be used within an update"},
		{`[{"$set": {"_id": 2}}]`, 66, "PlanExecutor error during aggregation :: caused by :: $merge failed to update the matching document, did you attempt to modify the _id or the shard key? :: caused by :: After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
	} {
		var ce mongo.CommandError
		if err := merge(c.whenMatched); !errors.As(err, &ce) || ce.Code != c.code || ce.Message != c.msg {
			t.Errorf("whenMatched %s: got %v\nwant %d %q", c.whenMatched, err, c.code, c.msg)
		}
	}
	// A pipeline that drops _id keeps the target's, as a pipeline update does.
	if err := merge(`[{"$replaceWith": {"n": {"$add": ["$n", "$$new.n"]}}}]`); err != nil {
		t.Fatal(err)
	}
	var got bson.Raw
	if err := target.FindOne(ctx, bson.D{}, options.FindOne()).Decode(&got); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "merged", got, `{"_id": 1, "n": 12}`)
}
