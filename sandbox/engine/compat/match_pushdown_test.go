package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// How mongod 8.0's pipeline optimizer moves a $match forward
// (DocumentSource::pushMatchBefore, document_source.cpp): a stage that can
// swap with a $match reports the paths it modifies (getModifiedPaths),
// DocumentSourceMatch::splitMatchByModifiedFields splits the $match
// (expression::splitMatchExpressionBy, expression_algo.cpp) into the
// predicates that read none of them, which go before the stage under the
// names the stage renames from, and the rest, which stay after it. A
// $match that reaches the front becomes the query's filter. And the
// MatchExpression optimizer drops what is trivially true
// (ExprMatchExpression::getOptimizer, ListOfMatchExpression::getOptimizer).

const (
	pushMatchRef   = "src/mongo/db/pipeline/document_source.cpp (pushMatchBefore); document_source_match.cpp (splitMatchByModifiedFields)"
	splitMatchRef  = "src/mongo/db/matcher/expression_algo.cpp (splitMatchExpressionBy, isIndependentOf)"
	fieldRenameRef = "src/mongo/db/pipeline/expression.cpp (ExpressionFieldPath::getComputedPaths)"
	trivialRef     = "src/mongo/db/matcher/expression_expr.cpp (ExprMatchExpression::getOptimizer); jstests/aggregation/sources/match/trivial_match_expr.js"
	groupSwapRef   = "src/mongo/db/pipeline/document_source_group_base.cpp (getModifiedPaths); document_source.cpp (pushMatchBefore); jstests/aggregation/sources/group/grouped_match_push_down.js"
	redactSafeRef  = "src/mongo/db/pipeline/document_source_redact.cpp (doOptimizeAt); document_source_match.cpp (redactSafePortion)"
	listOptRef     = "src/mongo/db/matcher/expression_tree.cpp (ListOfMatchExpression::getOptimizer)"
)

// cursorPlanner is the queryPlanner section of an aggregate explain: the
// $cursor stage's, or the reply's own when the query took the pipeline.
func cursorPlanner(t *testing.T, reply bson.D) bson.D {
	t.Helper()
	if qp, ok := field(reply, "queryPlanner").(bson.D); ok {
		return qp
	}
	stages, _ := field(reply, "stages").(bson.A)
	if len(stages) == 0 {
		t.Fatalf("no queryPlanner in %s", relaxed(reply))
	}
	cur, _ := field(stages[0].(bson.D), "$cursor").(bson.D)
	qp, _ := field(cur, "queryPlanner").(bson.D)
	return qp
}

// planFilter is the winning plan's filter, nil when it has none.
func planFilter(t *testing.T, reply bson.D) any {
	t.Helper()
	wp, _ := field(cursorPlanner(t, reply), "winningPlan").(bson.D)
	return field(wp, "filter")
}

func TestMatchPushdownExplain(t *testing.T) {
	s := newSuite(t)
	matchExplain := explainCase(stage, "$match")

	// The $or of one branch is that branch once optimized, so the
	// predicate on a goes before the $addFields (and into the query),
	// and the one on the computed t stays after it.
	s.runCase(t, "a $match splits around the $addFields it partly depends on", pushMatchRef+"; jstests/aggregation/optimization/double_optimize.js",
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"t": {"$multiply": ["$a", 2]}}}, {"$match": {"$or": [{"a": 4, "t": {"$ne": 0}}]}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields,$match" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$eq": 4}}`)
			sameValue(t, "$match", lastStage(t, reply), `{"$match": {"t": {"$not": {"$eq": 0}}}}`)
		})
	s.runCase(t, "a $match wholly on other fields leaves the $addFields behind", pushMatchRef,
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"t": 1}}, {"$match": {"a": {"$gt": 7}}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$gt": 7}}`)
		})
	s.runCase(t, "a $match on a computed field stays after the $addFields", pushMatchRef,
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"t": {"$add": ["$a", 1]}}}, {"$match": {"t": 3}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields,$match" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{}`)
		})
	// {b: "$a"} copies a: a predicate on b is one on a before the stage.
	s.runCase(t, "a $match on a field $set copies is renamed to the source", pushMatchRef+"; "+fieldRenameRef+"; jstests/aggregation/optimization/match_swapping_renamed_fields.js",
		explainCase(stage, "$set"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$set": {"b": "$a"}}, {"$match": {"b": {"$gt": 7}}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$set" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$gt": 7}}`)
			if got := stageChain(field(cursorPlanner(t, reply), "winningPlan").(bson.D)); got != "FETCH>IXSCAN" {
				t.Errorf("plan %s, want FETCH>IXSCAN", got)
			}
		})
	// A dotted source can reshape arrays, so it is a computed path.
	s.runCase(t, "a copy of a dotted path is no rename", fieldRenameRef,
		explainCase(stage, "$addFields"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"b": "$a.x"}}, {"$match": {"b": 1}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields,$match" {
				t.Errorf("stages %s", got)
			}
		})
	// An inclusion keeps what it names (and _id) and renames "$a": a
	// predicate on anything else depends on it (kAllExcept). So w stays.
	s.runCase(t, "an inclusion $project lets its kept and renamed fields through", pushMatchRef+" (kAllExcept); jstests/aggregation/optimization/match_swapping_renamed_fields.js (multiple renames)",
		explainCase(stage, "$project"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$project": {"d": 1, "z": "$a"}}, {"$match": {"z": 2, "d": {"$lt": 9}, "w": 1}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$match,$project,$match" {
				t.Fatalf("stages %s", got)
			}
			stages := field(reply, "stages").(bson.A)
			sameValue(t, "moved", stages[2], `{"$match": {"$and": [{"a": {"$eq": 2}}, {"d": {"$lt": 9}}]}}`)
			sameValue(t, "kept", lastStage(t, reply), `{"$match": {"w": {"$eq": 1}}}`)
		})
	s.runCase(t, "an exclusion lets every other field through", pushMatchRef+" (kFiniteSet)",
		explainCase(stage, "$unset"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			// $unset is an exclusion $project (document_source_project.cpp).
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$unset": "d"}, {"$match": {"a": 1, "d": null}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$match,$project,$match" {
				t.Fatalf("stages %s", got)
			}
			stages := field(reply, "stages").(bson.A)
			sameValue(t, "moved", stages[2], `{"$match": {"a": {"$eq": 1}}}`)
			sameValue(t, "kept", lastStage(t, reply), `{"$match": {"d": {"$eq": null}}}`)
		})
	// DocumentSourceSort modifies no path: the whole $match goes first
	// (the manual's $sort + $match sequence optimization).
	s.runCase(t, "a $match after a $sort goes before it", pushMatchRef+"; manual: core/aggregation-pipeline-optimization ($sort + $match Sequence Optimization)",
		explainCase(stage, "$sort"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			sort := absorbed(t, aggExplain(t, db, `[{"$sort": {"d": 1}}, {"$match": {"a": {"$gt": 7}}}]`, "queryPlanner"), "SORT>FETCH>IXSCAN")
			sameValue(t, "sortPattern", field(sort, "sortPattern"), `{"d": 1}`)
		})
	// Once the $sort holds a $limit, a $match does not commute with it
	// (DocumentSourceSort's canSwapWithMatch is !hasLimit()).
	s.runCase(t, "a $match after a top-k $sort stays", pushMatchRef+"; src/mongo/db/pipeline/document_source_sort.h (constraints)",
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$sort": {"d": 1}}, {"$limit": 3}, {"$match": {"a": {"$gt": 7}}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$sort,$match" {
				t.Errorf("stages %s", got)
			}
		})
	// $unwind modifies the unwound path and its index field only.
	s.runCase(t, "a $match on other fields goes before $unwind", pushMatchRef+"; src/mongo/db/pipeline/document_source_unwind.h (getModifiedPaths)",
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$unwind": {"path": "$arr", "includeArrayIndex": "i"}}, {"$match": {"a": 3, "arr": 1, "i": 0}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$unwind,$match" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$eq": 3}}`)
			sameValue(t, "kept", lastStage(t, reply), `{"$match": {"$and": [{"arr": {"$eq": 1}}, {"i": {"$eq": 0}}]}}`)
		})
	// A $match that draws random numbers cannot move
	// (needRandomGenerator); $sampleRate is one.
	s.runCase(t, "a $sampleRate $match does not move", splitMatchRef+"; jstests/aggregation/optimization/match_no_swap_rand.js; src/mongo/db/pipeline/expression.cpp (ExpressionRandom::serialize)",
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"t": 1}}, {"$match": {"a": {"$gt": 7}, "$sampleRate": 0.5}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields,$match" {
				t.Fatalf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$gt": 7}}`)
			// ExpressionRandom::serialize is {$rand: {}}.
			sameValue(t, "kept", lastStage(t, reply), `{"$match": {"$expr": {"$lt": [{"$rand": {}}, {"$const": 0.5}]}}}`)
		})
	// A predicate on a parent of a renamed dotted path has no single
	// name before the stage (wouldRenameSucceed).
	s.runCase(t, "a $match on the parent of a dotted rename stays", splitMatchRef+" (hasOnlyRenameableMatchExpressionChildren)",
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$set": {"x.y": "$a"}}, {"$match": {"x": {"$exists": true}}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$set,$match" {
				t.Errorf("stages %s", got)
			}
		})

	// A $group keeps nothing but renames its key's fields: a predicate on
	// _id (or _id.f of a compound key) of "$x" is one on x before it.
	s.runCase(t, "a $match on a $group key goes before the $group", groupSwapRef,
		explainCase(stage, "$group"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": {"k": "$a", "e": {"$mod": ["$d", 2]}}, "n": {"$sum": 1}}}, {"$match": {"_id.k": {"$gt": 6}, "_id.e": 0, "n": 1}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$match,$group,$match" {
				t.Fatalf("stages %s", got)
			}
			stages := field(reply, "stages").(bson.A)
			sameValue(t, "moved", stages[2], `{"$match": {"a": {"$gt": 6}}}`)
			sameValue(t, "kept", lastStage(t, reply), `{"$match": {"$and": [{"_id.e": {"$eq": 0}}, {"n": {"$eq": 1}}]}}`)
		})
	// Right after a $group, "$_id.c" copies a field of the compound key,
	// which holds no array: a rename (DocumentSourceGroup::pushDotRenamedMatch),
	// so the $match goes on before the $group too.
	s.runCase(t, "a $match on a $project of a $group key field goes before both", "src/mongo/db/pipeline/document_source_group.cpp (pushDotRenamedMatch); jstests/aggregation/sources/group/grouped_match_push_down.js",
		explainCase(stage, "$group"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": {"c": "$d"}, "n": {"$sum": 1}}}, {"$project": {"m": "$_id.c"}}, {"$match": {"m": {"$eq": 2}}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$match,$group,$project" {
				t.Fatalf("stages %s", got)
			}
			sameValue(t, "moved", field(reply, "stages").(bson.A)[2], `{"$match": {"d": {"$eq": 2}}}`)
		})
	s.runCase(t, "a $type or $exists on the $group key keeps the $match after it", groupSwapRef+" (groupMatchSwapVerified)",
		explainCase(stage, "$group"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			for _, m := range []string{`{"_id": {"$type": "int"}}`, `{"_id": {"$exists": true}}`} {
				reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": "$a"}}, {"$match": `+m+`}]`, "queryPlanner")
				if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$group,$match" {
					t.Errorf("%s: stages %s", m, got)
				}
			}
		})

	// Before a $redact goes a copy of what in the $match cannot hold of a
	// pruned document: here a's range, not b's null nor c's array.
	s.runCase(t, "a $match after $redact has its redact-safe part copied before it", redactSafeRef,
		matchExplain, func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$redact": {"$cond": {"if": {"$eq": ["$d", 1]}, "then": "$$PRUNE", "else": "$$DESCEND"}}}, {"$match": {"a": {"$gt": 6}, "b": null, "c": [1], "$or": [{"a": 7}, {"x": {"$exists": true}}]}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$redact,$match" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"a": {"$gt": 6}}`)
		})

	// {$expr: <truthy constant>} is the empty $and: no filter at all.
	s.runCase(t, "a $match of a truthy constant $expr has no filter", trivialRef, matchExplain, func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		for _, p := range []string{`[{"$match": {"$expr": true}}]`, `[{"$match": {"$expr": "foo"}}]`, `[{"$match": {"$expr": true}}, {"$match": {"$expr": "foo"}}]`} {
			reply := aggExplain(t, db, p, "queryPlanner")
			if f := planFilter(t, reply); f != nil {
				t.Errorf("%s: filter %s, want none", p, relaxed(f))
			}
		}
	})
	s.runCase(t, "a truthy constant $expr beside a field path leaves the field path", trivialRef, matchExplain, func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := aggExplain(t, db, `[{"$match": {"$expr": "foo"}}, {"$match": {"$expr": "$a"}}]`, "queryPlanner")
		sameValue(t, "filter", planFilter(t, reply), `{"$expr": "$a"}`)
	})
	s.runCase(t, "find drops truthy constant $expr", trivialRef, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$and": [{"$expr": true}, {"$expr": "foo"}]}}, "verbosity": "queryPlanner"}`)
		if f := planFilter(t, reply); f != nil {
			t.Errorf("filter %s, want none", relaxed(f))
		}
		reply = mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$and": [{"$expr": "foo"}, {"$expr": "$a"}]}}, "verbosity": "queryPlanner"}`)
		sameValue(t, "filter", planFilter(t, reply), `{"$expr": "$a"}`)
	})
	// An $and drops its $alwaysTrue children and is $alwaysFalse with an
	// $alwaysFalse one; an $or drops its $alwaysFalse children.
	s.runCase(t, "$and and $or drop their trivial children", listOptRef, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		for filter, want := range map[string]string{
			`{"$and": [{"$alwaysTrue": 1}, {"d": 1}]}`:  `{"d": {"$eq": 1}}`,
			`{"$or": [{"$alwaysFalse": 1}, {"d": 1}]}`:  `{"d": {"$eq": 1}}`,
			`{"$and": [{"$alwaysFalse": 1}, {"d": 1}]}`: `{"$alwaysFalse": 1}`,
		} {
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`}, "verbosity": "queryPlanner"}`)
			sameValue(t, filter, field(cursorPlanner(t, reply), "parsedQuery"), want)
		}
	})
	s.runCase(t, "a $nor of one branch is its negation", listOptRef+" (NOR of one operand)", explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$nor": [{"d": 1}]}}, "verbosity": "queryPlanner"}`)
		sameValue(t, "parsedQuery", field(cursorPlanner(t, reply), "parsedQuery"), `{"d": {"$not": {"$eq": 1}}}`)
	})
}

func TestMatchPushdownSemantics(t *testing.T) {
	runAggCases(t, []aggCase{
		// Without the split, $sqrt would see a - 4 < 0 and fail.
		{name: "the split $match filters before the $addFields evaluates", ref: "jstests/aggregation/optimization/double_optimize.js",
			cov:      cover{family: stage, op: "$match", col: semantics},
			docs:     `[{"_id": 0, "a": 0}, {"_id": 1, "a": 3}, {"_id": 2, "a": 4}, {"_id": 3, "a": 8}]`,
			pipeline: `[{"$addFields": {"t": {"$sqrt": {"$subtract": ["$a", 4]}}}}, {"$match": {"$or": [{"a": 4, "t": {"$ne": 0}}]}}]`,
			want:     `[]`},
		{name: "a renamed $match returns the renamed documents", ref: "jstests/aggregation/optimization/match_swapping_renamed_fields.js",
			cov:       cover{family: stage, op: "$match", col: semantics},
			docs:      `[{"_id": 0, "a": 1, "c": 1}, {"_id": 1, "a": 2, "c": 2}, {"_id": 2, "a": 3, "c": 3}]`,
			pipeline:  `[{"$project": {"_id": 0, "z": "$a", "c": 1}}, {"$match": {"z": {"$gt": 1}}}]`,
			want:      `[{"c": 2, "z": 2}, {"c": 3, "z": 3}]`,
			unordered: true},
		{name: "a chain of renames through $$CURRENT and $$ROOT", ref: "jstests/aggregation/optimization/match_swapping_renamed_fields.js",
			cov:       cover{family: stage, op: "$match", col: semantics},
			docs:      `[{"_id": 0, "a": 1}, {"_id": 1, "a": 2}, {"_id": 2, "a": 3}]`,
			pipeline:  `[{"$project": {"d": "$a"}}, {"$addFields": {"e": "$$CURRENT.d"}}, {"$project": {"f": "$$ROOT.e"}}, {"$match": {"f": {"$gt": 1}}}]`,
			want:      `[{"_id": 1, "f": 2}, {"_id": 2, "f": 3}]`,
			unordered: true},
		{name: "a rename inside $expr", ref: "src/mongo/db/matcher/expression_expr.h (applyRename)",
			cov:       cover{family: stage, op: "$match", col: semantics},
			docs:      `[{"_id": 0, "a": 1}, {"_id": 1, "a": 5}]`,
			pipeline:  `[{"$set": {"b": "$a"}}, {"$match": {"$expr": {"$eq": ["$b", 5]}}}]`,
			want:      `[{"_id": 1, "a": 5, "b": 5}]`,
			unordered: true},
		// The $map reshapes the array: the match must see its output.
		{name: "a $map output is no rename", ref: "jstests/aggregation/optimization/match_swapping_renamed_fields.js",
			cov:      cover{family: stage, op: "$match", col: semantics},
			docs:     `[{"_id": 0, "a": [[1]]}]`,
			pipeline: `[{"$project": {"x": {"$map": {"input": "$a", "as": "iter", "in": "$$iter"}}}}, {"$match": {"x": [1]}}]`,
			want:     `[{"_id": 0, "x": [[1]]}]`},
		{name: "a $nor splits by whole branches", ref: splitMatchRef + " (splitMatchExpressionByFunction, NOR)",
			cov:       cover{family: stage, op: "$match", col: semantics},
			docs:      `[{"_id": 0, "a": 1}, {"_id": 1, "a": 2}, {"_id": 2, "a": 3}]`,
			pipeline:  `[{"$addFields": {"t": {"$mod": ["$a", 2]}}}, {"$match": {"$nor": [{"a": 3}, {"t": 0}]}}]`,
			want:      `[{"_id": 0, "a": 1, "t": 1}]`,
			unordered: true},
		{name: "a $match before $unwind keeps the unwound values", ref: "src/mongo/db/pipeline/document_source_unwind.h (getModifiedPaths)",
			cov:      cover{family: stage, op: "$unwind", col: semantics},
			docs:     `[{"_id": 0, "g": 1, "arr": [1, 2]}, {"_id": 1, "g": 2, "arr": [1, 2]}]`,
			pipeline: `[{"$unwind": {"path": "$arr", "includeArrayIndex": "i"}}, {"$match": {"g": 1, "i": 1}}]`,
			want:     `[{"_id": 0, "g": 1, "arr": 2, "i": {"$numberLong": "1"}}]`},
		{name: "a $match on a field other than $lookup's as goes first", ref: pushMatchRef + "; src/mongo/db/pipeline/document_source_lookup.cpp (getModifiedPaths)",
			cov:       cover{family: stage, op: "$lookup", col: semantics},
			docs:      `[{"_id": 0, "k": 1}, {"_id": 1, "k": 2}]`,
			other:     map[string]string{"f": `[{"_id": 10, "k": 1}, {"_id": 11, "k": 2}]`},
			pipeline:  `[{"$lookup": {"from": "f", "localField": "k", "foreignField": "k", "as": "j"}}, {"$match": {"k": 2, "j._id": 11}}]`,
			want:      `[{"_id": 1, "k": 2, "j": [{"_id": 11, "k": 2}]}]`,
			unordered: true},
		// The $group collapses null and missing into one key: the moved
		// {a: null} matches both.
		{name: "a $match on a $group key counts null and missing together", ref: groupSwapRef,
			cov:      cover{family: stage, op: "$group", col: semantics},
			docs:     `[{"_id": 1, "a": null}, {"_id": 2}, {"_id": 3, "a": 4}]`,
			pipeline: `[{"$group": {"_id": "$a", "n": {"$sum": 1}}}, {"$match": {"_id": null}}]`,
			want:     `[{"_id": null, "n": 2}]`},
		{name: "a $match on a $project of a $group key field", ref: "jstests/aggregation/sources/group/grouped_match_push_down.js",
			cov:      cover{family: stage, op: "$group", col: semantics},
			docs:     `[{"_id": 1, "x": 10}, {"_id": 2, "x": 20}, {"_id": 20, "d": 2}]`,
			pipeline: `[{"$group": {"_id": {"c": "$d"}, "c": {"$sum": {"$const": 1}}}}, {"$project": {"m": "$_id.c"}}, {"$match": {"m": {"$eq": 2}}}]`,
			want:     `[{"_id": {"c": 2}, "m": 2}]`},
		{name: "an $expr after a $group sees the groups", ref: "jstests/aggregation/sources/group/expr_match_no_pushdown_through_group.js",
			cov:      cover{family: stage, op: "$group", col: semantics},
			docs:     `[{"_id": 1, "a": null}, {"_id": 2}]`,
			pipeline: `[{"$group": {"_id": "$a", "n": {"$sum": 1}}}, {"$match": {"$expr": {"$eq": ["$_id", null]}}}]`,
			want:     `[{"_id": null, "n": 2}]`},
		{name: "the copy before $redact keeps the $match's answer", ref: redactSafeRef,
			cov:       cover{family: stage, op: "$redact", col: semantics},
			docs:      `[{"_id": 0, "a": 1, "s": {"l": 1, "a": 1}}, {"_id": 1, "a": 2, "s": {"l": 2}}, {"_id": 2, "a": 3, "s": {"l": 1}}]`,
			pipeline:  `[{"$redact": {"$cond": {"if": {"$eq": ["$l", 1]}, "then": "$$PRUNE", "else": "$$DESCEND"}}}, {"$match": {"a": {"$lt": 3}, "s": {"$exists": false}}}]`,
			want:      `[{"_id": 0, "a": 1}]`,
			unordered: true},
		// $set creates a and a.b: a $match on them must see that.
		{name: "a $match on a parent of a dotted rename sees the $set", ref: "jstests/aggregation/optimization/do_not_push_match_past_rename_onto_dotted_path.js",
			cov:      cover{family: stage, op: "$match", col: semantics},
			docs:     `[{"_id": 0, "x": 1}]`,
			pipeline: `[{"$set": {"a.b.c": "$x"}}, {"$match": {"$expr": {"$eq": [{"$type": "$a"}, "object"]}, "a.b": {"$type": "object"}}}]`,
			want:     `[{"_id": 0, "x": 1, "a": {"b": {"c": 1}}}]`},
		{name: "a truthy constant $expr matches every document", ref: trivialRef,
			cov:      cover{family: query, op: "$expr", col: semantics},
			docs:     `[{"_id": 0}, {"_id": 1}]`,
			pipeline: `[{"$match": {"$expr": "foo"}}]`,
			want:     `[{"_id": 0}, {"_id": 1}]`},
		{name: "a falsy constant $expr matches nothing", ref: "src/mongo/db/matcher/expression_expr.cpp (matches, coerceToBool)",
			cov:      cover{family: query, op: "$expr", col: semantics},
			docs:     `[{"_id": 0}, {"_id": 1}]`,
			pipeline: `[{"$match": {"$expr": 0}}]`,
			want:     `[]`},
	})
}
