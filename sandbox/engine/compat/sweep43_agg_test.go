package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $out into time-series targets as 8.0's DocumentSourceOut::validateTimeseries
// decides (document_source_out.cpp, with timeseries::optionsAreEqual from
// timeseries_options.cpp); the situations follow the 8.0 jstest
// core/timeseries/timeseries_out_non_sharded.js, found while walking the
// siblings of aggregation/sources/out/out_preserve_coll_options.js.
func TestSweep43OutTimeseriesTarget(t *testing.T) {
	docs := `[{"_id": 1, "t": {"$date": "2024-01-01T00:00:00Z"}, "m": "a", "v": 1}, {"_id": 2, "t": {"$date": "2024-01-01T01:00:00Z"}, "m": "b", "v": 2}]`
	prefix := "PlanExecutor error during aggregation :: caused by :: "
	found := `Found: { timeField: "t", metaField: "m", granularity: "seconds", bucketMaxSpanSeconds: 3600 }`
	cases := []struct {
		name   string
		target string // the collection $out writes: ts (time-series), plain or vw (a view)
		out    string // $out's value; DB stands for the case's database
		code   int32
		msg    string
		then   string // find on ts afterwards (JSON), when the case succeeds
		want   string
	}{
		// Without the timeseries option an existing time-series collection
		// lends its own options: its measurements are replaced and it stays
		// a time-series collection (before, the sandbox refused with 238).
		{name: "$out without the option replaces a time-series target's measurements", target: "ts", out: `"ts"`,
			then: `{"find": "ts", "projection": {"_id": 0, "m": 1, "v": 1}, "sort": {"v": 1}}`, want: `[{"m": "a", "v": 1}, {"m": "b", "v": 2}]`},
		{name: "$out without the option keeps the target a time-series collection", target: "ts", out: `"ts"`,
			then: `{"listCollections": 1, "filter": {"name": "ts"}, "nameOnly": true}`, want: `[{"name": "ts", "type": "timeseries"}]`},
		// With it, the options must equal the collection's: time and meta
		// fields, granularity (none counts as seconds) and bucket span.
		{name: "$out's timeseries option equal to the target's by its span", target: "ts",
			out:  `{"db": "DB", "coll": "ts", "timeseries": {"timeField": "t", "metaField": "m", "bucketMaxSpanSeconds": 3600, "bucketRoundingSeconds": 3600}}`,
			then: `{"find": "ts", "projection": {"_id": 0, "v": 1}, "sort": {"v": 1}}`, want: `[{"v": 1}, {"v": 2}]`},
		{name: "$out's timeseries option with another timeField", target: "ts",
			out:  `{"db": "DB", "coll": "ts", "timeseries": {"timeField": "v", "metaField": "m"}}`,
			code: 7406103, msg: `Received: { timeField: "v", metaField: "m" }` + found},
		{name: "$out's timeseries option without the target's metaField", target: "ts",
			out:  `{"db": "DB", "coll": "ts", "timeseries": {"timeField": "t"}}`,
			code: 7406103, msg: `Received: { timeField: "t" }` + found},
		{name: "$out's timeseries option with another granularity", target: "ts",
			out:  `{"db": "DB", "coll": "ts", "timeseries": {"timeField": "t", "metaField": "m", "granularity": "minutes"}}`,
			code: 7406103, msg: `Received: { timeField: "t", metaField: "m", granularity: "minutes" }` + found},
		{name: "$out's timeseries option with another bucket span", target: "ts",
			out:  `{"db": "DB", "coll": "ts", "timeseries": {"timeField": "t", "metaField": "m", "bucketMaxSpanSeconds": 330, "bucketRoundingSeconds": 330}}`,
			code: 7406103, msg: `Received: { timeField: "t", metaField: "m", bucketRoundingSeconds: 330, bucketMaxSpanSeconds: 330 }` + found},
		{name: "$out's timeseries option onto a plain collection", target: "plain",
			out:  `{"db": "DB", "coll": "plain", "timeseries": {"timeField": "t"}}`,
			code: 7268700, msg: "Cannot create a time-series collection from a non time-series collection."},
		{name: "$out's timeseries option onto a view", target: "vw",
			out:  `{"db": "DB", "coll": "vw", "timeseries": {"timeField": "t"}}`,
			code: 7268703, msg: "Cannot create a time-series collection from a non time-series view."},
	}
	s := newSuite(t)
	for _, tc := range cases {
		cov := cover{family: stage, op: "$out", col: errorsOr(tc.code)}
		s.runCase(t, tc.name, outSrc, cov, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			switch tc.target {
			case "ts":
				mustCommand(t, db, `{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`)
				mustCommand(t, db, `{"insert": "ts", "documents": [{"t": {"$date": "2023-01-01T00:00:00Z"}, "m": "old", "v": 0}]}`)
			case "plain":
				mustCommand(t, db, `{"insert": "plain", "documents": [{"_id": 1}]}`)
			case "vw":
				mustCommand(t, db, `{"create": "vw", "viewOn": "c", "pipeline": []}`)
			}
			pipeline := `[{"$out": ` + strings.ReplaceAll(tc.out, `"DB"`, `"`+db.Name()+`"`) + `}]`
			cmd := bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: ejArray(t, pipeline)}, {Key: "cursor", Value: bson.D{}}}
			_, err := cursorDocs(t, db, cmd)
			if tc.code != 0 {
				if tc.code == 7406103 {
					tc.msg = "Time-series options inputted must match the existing time-series collection. " + tc.msg
				}
				sameError(t, pipeline, err, tc.code, prefix+tc.msg)
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", pipeline, err)
			}
			after, ferr := cursorDocs(t, db, ejDoc(t, tc.then))
			if ferr != nil {
				t.Fatal(ferr)
			}
			sameDocs(t, tc.then, after, tc.want, false)
		})
	}
}

// $concat is fully associative (ExpressionConcat::getAssociativity is kFull
// in src/mongo/db/pipeline/expression.h), so ExpressionNary::optimize
// (expression.cpp) evaluates each run of two or more constants into one and
// flattens a nested $concat; for a commutative operator ($setUnion, $sum of
// several arguments, $bitOr...) the constants first move behind the other
// arguments, and $and/$or flatten nested calls too. Found next to
// aggregation/optimization/and_or_short_circuit.js and
// expressions/concat_arrays2.js; the explain of a $group shows its _id as
// optimize() left it.
func TestSweep43FullyAssociativeFolding(t *testing.T) {
	const ref = exprCpp + " (ExpressionNary::optimize); src/mongo/db/pipeline/expression.h (getAssociativity, isCommutative)"
	s := newSuite(t)
	for _, tc := range []struct{ name, op, id, want string }{
		{"concat evaluates a leading run of constants", "$concat", `{"$concat": ["a", "b", "$s"]}`, `{"$concat": [{"$const": "ab"}, "$s"]}`},
		{"concat evaluates a trailing run of constants", "$concat", `{"$concat": ["$s", "a", "b"]}`, `{"$concat": ["$s", {"$const": "ab"}]}`},
		{"concat keeps single constants between fields", "$concat", `{"$concat": ["a", "$s", "b"]}`, `{"$concat": [{"$const": "a"}, "$s", {"$const": "b"}]}`},
		{"concat flattens a nested concat", "$concat", `{"$concat": ["a", {"$concat": ["b", "$s"]}]}`, `{"$concat": [{"$const": "ab"}, "$s"]}`},
		{"concatArrays flattens and evaluates runs", "$concatArrays", `{"$concatArrays": ["$x", {"$concatArrays": [[1], [2], "$x"]}]}`, `{"$concatArrays": ["$x", {"$const": [1, 2]}, "$x"]}`},
		{"bitOr moves its constants behind the fields", "$bitOr", `{"$bitOr": [1, {"$bitOr": ["$a", 2]}]}`, `{"$bitOr": ["$a", {"$const": 3}]}`},
		{"sum of several arguments moves a constant behind", "$sum", `{"$sum": [1, "$a"]}`, `{"$sum": ["$a", {"$const": 1}]}`},
		{"and flattens a nested and", "$and", `{"$and": ["$x", {"$and": ["$a", "$b"]}]}`, `{"$and": ["$x", "$a", "$b"]}`},
		{"or flattens a nested or", "$or", `{"$or": [{"$or": ["$a", "$b"]}, "$x"]}`, `{"$or": ["$a", "$b", "$x"]}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: expression, op: tc.op, col: semantics}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
	runExprCases(t, []exprCase{
		// The trailing run is evaluated while the pipeline is optimized, so
		// its error comes even though the null field would make $concat null.
		{name: "concat fails on a bad constant run before reading a null field", ref: ref, doc: `{"_id": 0, "s": null}`,
			expr: `{"$concat": ["$s", "a", 1]}`, code: 16702, msg: "Failed to optimize pipeline :: caused by :: $concat only supports strings, not int"},
		// A single constant after the field is left to the evaluation,
		// which stops at the null field.
		{name: "concat is null at a null field before a single bad constant", ref: ref, doc: `{"_id": 0, "s": null}`,
			expr: `{"$concat": ["$s", 1]}`, want: `null`},
	})
}

// $documents is desugared (src/mongo/db/pipeline/document_source_documents.cpp)
// into a $queue of {}, a $project of the specification into
// _tempDocumentsField made by DocumentSourceProject::create under the name
// "$documents", a strict $unwind and a $replaceWith: the specification is
// parsed as a projection value, so an empty object is an empty
// sub-projection and parse errors carry "Invalid $documents", before the
// collection-level aggregate is refused; a sub-projection of {} leaves the
// field missing, which the strict $unwind refuses (UnwindProcessor::getNext).
// Siblings of aggregation/sources/documents.js.
func TestSweep43DocumentsDesugaredProjection(t *testing.T) {
	const ref = "src/mongo/db/pipeline/document_source_documents.cpp; src/mongo/db/pipeline/document_source_project.cpp (create); src/mongo/db/exec/unwind_processor.cpp"
	cov := cover{family: stage, op: "$documents"}
	runCmdCases(t, []cmdCase{
		{name: "$documents of an empty object is an empty sub-projection", ref: ref, cov: cov,
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": {}}], "cursor": {}}`,
			code: 51270, msg: "Invalid $documents :: caused by :: An empty sub-projection is not a valid value. Found empty object at path"},
		{name: "$documents' parse error comes before the collection is refused", ref: ref, cov: cov, docs: `[{"_id": 1}]`,
			cmd:  `{"aggregate": "c", "pipeline": [{"$documents": {}}], "cursor": {}}`,
			code: 51270, msg: "Invalid $documents :: caused by :: An empty sub-projection is not a valid value. Found empty object at path"},
		{name: "$documents of an unknown operator fails as $project's does", ref: ref, cov: cov,
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": {"$foo": 1}}], "cursor": {}}`,
			code: 31325, msg: "Invalid $documents :: caused by :: Unknown expression $foo"},
		{name: "$documents of a sub-projection leaves nothing to unwind", ref: ref, cov: cov,
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": {"a": 1}}], "cursor": {}}`,
			code: 5858203, msg: "PlanExecutor error during aggregation :: caused by :: an array is expected"},
	})
}

// When $and or $or optimizes down to one argument, it becomes an
// ExpressionCoerceToBool, whose serialize (src/mongo/db/pipeline/expression.cpp)
// writes {$coerceToBool: [x]} when explaining (SerializationOptions.verbosity)
// and {$and: [x]} otherwise. Siblings of aggregation/optimization/and_or_short_circuit.js.
func TestSweep43CoerceToBoolExplain(t *testing.T) {
	const ref = exprCpp + " (ExpressionCoerceToBool::serialize, ExpressionAnd::optimize, ExpressionOr::optimize)"
	s := newSuite(t)
	for _, tc := range []struct{ name, op, id, want string }{
		{"and left with one argument explains as coerceToBool", "$and", `{"$and": ["$x", true]}`, `{"$coerceToBool": ["$x"]}`},
		{"or left with one argument explains as coerceToBool", "$or", `{"$or": [0, "$x"]}`, `{"$coerceToBool": ["$x"]}`},
		{"a coerced argument is not flattened into the outer and", "$and", `{"$and": ["$y", {"$and": ["$x", 1]}]}`, `{"$and": ["$y", {"$coerceToBool": ["$x"]}]}`},
		{"an and written with one argument stays an and", "$and", `{"$and": ["$x"]}`, `{"$and": ["$x"]}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: expression, op: tc.op, col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
}

// $group's explain writes each accumulator as its serialize does
// (DocumentSourceGroup::serialize calling AccumulatorState::serialize):
// $count was parsed into a $sum of 1 (parseCountAccumulator,
// accumulation_statement.cpp); the AccumulatorN family writes {n, input}
// (AccumulatorN::serializeHelper, accumulator_multi.cpp); $percentile and
// $median write input, the evaluated percentiles and the method
// (AccumulatorPercentile::serializeHelper, accumulator_percentile.cpp).
// Siblings of aggregation/accumulators/avg_null_no_input.js and
// sources/setWindowFields/percentile.js.
func TestSweep43GroupAccumulatorExplain(t *testing.T) {
	const ref = "src/mongo/db/pipeline/accumulation_statement.cpp (parseCountAccumulator); src/mongo/db/pipeline/accumulator_multi.cpp (AccumulatorN::serializeHelper); src/mongo/db/pipeline/accumulator_percentile.cpp (serializeHelper)"
	s := newSuite(t)
	for _, tc := range []struct{ name, op, acc, want string }{
		{"count explains as a sum of one", "$count", `{"$count": {}}`, `{"$sum": {"$const": 1}}`},
		{"firstN explains n then input", "$firstN", `{"$firstN": {"input": "$a", "n": 2}}`, `{"$firstN": {"n": {"$const": 2}, "input": "$a"}}`},
		{"maxN explains its n optimized", "$maxN", `{"$maxN": {"input": "$a", "n": {"$add": [1, 2]}}}`, `{"$maxN": {"n": {"$const": 3}, "input": "$a"}}`},
		{"percentile explains input, p, method", "$percentile", `{"$percentile": {"method": "approximate", "p": [0.5, 1], "input": "$a"}}`,
			`{"$percentile": {"input": "$a", "p": [0.5, 1.0], "method": "approximate"}}`},
		{"median explains input and method", "$median", `{"$median": {"method": "approximate", "input": "$a"}}`, `{"$median": {"input": "$a", "method": "approximate"}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: accumulator, op: tc.op, col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": null, "r": `+tc.acc+`}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "r", field(group, "r"), tc.want)
		})
	}
}

// $bucketAuto's explain is DocumentSourceBucketAuto::serialize
// (src/mongo/db/pipeline/document_source_bucket_auto.cpp): groupBy, buckets,
// the granularity when given, then output with each accumulator serialized
// as $group writes it. Sibling of the $group explain cases above.
func TestSweep43BucketAutoExplain(t *testing.T) {
	const ref = "src/mongo/db/pipeline/document_source_bucket_auto.cpp (serialize)"
	s := newSuite(t)
	for _, tc := range []struct{ name, stage, want string }{
		{"bucketAuto's default output is a serialized sum", `{"$bucketAuto": {"groupBy": "$a", "buckets": 2}}`,
			`{"groupBy": "$a", "buckets": 2, "output": {"count": {"$sum": {"$const": 1}}}}`},
		{"bucketAuto's granularity comes before its output", `{"$bucketAuto": {"groupBy": "$a", "buckets": 2, "output": {"c": {"$count": {}}, "m": {"$max": "$a"}}, "granularity": "R5"}}`,
			`{"groupBy": "$a", "buckets": 2, "granularity": "R5", "output": {"c": {"$sum": {"$const": 1}}, "m": {"$max": "$a"}}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: stage, op: "$bucketAuto", col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, `+tc.stage+`]`, "queryPlanner")
			sameValue(t, "$bucketAuto", field(lastStage(t, reply), "$bucketAuto"), tc.want)
		})
	}
}

// Explain shows $cond, $ifNull and $switch as their optimize and serialize
// leave them (src/mongo/db/pipeline/expression.cpp): ExpressionCond::optimize
// replaces a constant condition by the branch it picks, and ExpressionCond
// serializes as an array (ExpressionNary::serialize) whichever form was
// written; ExpressionIfNull::optimize drops null constants before the last
// argument and everything after a non-null constant, a lone argument
// standing for the whole; ExpressionSwitch::serialize writes each branch as
// {case, then}. $redact shows its expression optimized
// (DocumentSourceRedact::serialize). Siblings of sources/redact/redact.js and
// optimization/and_or_short_circuit.js.
func TestSweep43ConditionalExplain(t *testing.T) {
	const ref = exprCpp + " (ExpressionCond::optimize, ExpressionIfNull::optimize, ExpressionSwitch::serialize)"
	s := newSuite(t)
	for _, tc := range []struct{ name, op, id, want string }{
		{"cond on a constant is its branch", "$cond", `{"$cond": [true, "$a", "$b"]}`, `"$a"`},
		{"cond's object form explains as an array", "$cond", `{"$cond": {"if": "$x", "then": 1, "else": "$b"}}`, `{"$cond": ["$x", {"$const": 1}, "$b"]}`},
		{"ifNull drops a leading null constant", "$ifNull", `{"$ifNull": [null, "$a", 2]}`, `{"$ifNull": ["$a", {"$const": 2}]}`},
		{"ifNull stops at a non-null constant", "$ifNull", `{"$ifNull": ["$a", 1, "$b"]}`, `{"$ifNull": ["$a", {"$const": 1}]}`},
		{"switch writes each branch as case and then", "$switch", `{"$switch": {"branches": [{"case": false, "then": 1}, {"case": "$x", "then": 2}], "default": 3}}`,
			`{"$switch": {"branches": [{"case": {"$const": false}, "then": {"$const": 1}}, {"case": "$x", "then": {"$const": 2}}], "default": {"$const": 3}}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: expression, op: tc.op, col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
	s.runCase(t, "redact explains its expression optimized", "src/mongo/db/pipeline/document_source_redact.cpp (serialize)", cover{family: stage, op: "$redact", col: explain},
		func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$redact": {"$cond": [true, "$$KEEP", "$$PRUNE"]}}]`, "queryPlanner")
			sameValue(t, "$redact", field(lastStage(t, reply), "$redact"), `"$$KEEP"`)
		})
}

// $let, $map and $filter explain in their own serialize forms
// (src/mongo/db/pipeline/expression.cpp ExpressionLet::serialize,
// ExpressionMap::serialize, ExpressionFilter::serialize): vars keeps one
// entry per variable, each value serialized, and the iteration variable's
// name is written even when it is the default "this".
func TestSweep43LetMapFilterExplain(t *testing.T) {
	const ref = exprCpp + " (ExpressionLet::serialize, ExpressionMap::serialize, ExpressionFilter::serialize)"
	s := newSuite(t)
	for _, tc := range []struct{ name, op, id, want string }{
		{"let's constant vars stay an object", "$let", `{"$let": {"vars": {"v": 1}, "in": {"$add": ["$$v", "$x"]}}}`, `{"$let": {"vars": {"v": {"$const": 1}}, "in": {"$add": ["$$v", "$x"]}}}`},
		{"map writes its default variable name", "$map", `{"$map": {"input": "$a", "in": {"$add": ["$$this", 1]}}}`, `{"$map": {"input": "$a", "as": "this", "in": {"$add": ["$$this", {"$const": 1}]}}}`},
		{"filter writes its default variable name", "$filter", `{"$filter": {"input": "$a", "cond": {"$gt": ["$$this", 1]}, "limit": 2}}`, `{"$filter": {"input": "$a", "as": "this", "cond": {"$gt": ["$$this", {"$const": 1}]}, "limit": {"$const": 2}}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: expression, op: tc.op, col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
}

// $substr parses as ExpressionSubstrBytes, whose getOpName is $substrBytes
// (expression.cpp), so explain names it $substrBytes.
func TestSubstrExplainsAsSubstrBytes(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "substr explains as substrBytes", exprCpp+" (ExpressionSubstrBytes)", cover{family: expression, op: "$substr", col: explain}, func(t *testing.T, db *mongo.Database) {
		reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": {"$substr": ["$s", 0, 2]}}}]`, "queryPlanner")
		group, _ := field(lastStage(t, reply), "$group").(bson.D)
		sameValue(t, "_id", field(group, "_id"), `{"$substrBytes": ["$s", {"$const": 0}, {"$const": 2}]}`)
	})
}

// ExpressionZip::serialize (expression.cpp) writes inputs and defaults
// element by element, defaults as [] when not given, and useLongestLength
// as a plain boolean, false when not given.
func TestZipExplainsEveryField(t *testing.T) {
	s := newSuite(t)
	for _, tc := range []struct{ name, zip, want string }{
		{"zip explains its defaults and useLongestLength when not given", `{"$zip": {"inputs": ["$a", "$b"]}}`,
			`{"$zip": {"inputs": ["$a", "$b"], "defaults": [], "useLongestLength": false}}`},
		{"zip explains each default and a plain useLongestLength", `{"$zip": {"inputs": ["$a", [1]], "useLongestLength": true, "defaults": [0, "$c"]}}`,
			`{"$zip": {"inputs": ["$a", {"$const": [1]}], "defaults": [{"$const": 0}, "$c"], "useLongestLength": true}}`},
	} {
		s.runCase(t, tc.name, exprCpp+" (ExpressionZip::serialize)", cover{family: expression, op: "$zip", col: explain}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.zip+`}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
}
