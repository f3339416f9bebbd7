package compat_test

import "testing"

// Sweep 45, "strcmp": the bit-test, always-boolean and regex query
// operators, and $currentDate. Sources: src/mongo/db/matcher/
// expression_leaf.cpp (BitTestMatchExpression, RegexMatchExpression),
// expression_parser.cpp (parseBitTest, parseRegexDocument),
// src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong),
// src/mongo/db/matcher/expression_always_boolean.h,
// src/mongo/db/update/current_date_node.cpp; jstests/core/query/bittest.js.

const (
	d45LeafCpp   = "src/mongo/db/matcher/expression_leaf.cpp (BitTestMatchExpression)"
	d45ParserCpp = "src/mongo/db/matcher/expression_parser.cpp"
	d45BitDocs   = `[{"_id": 1, "a": 128}, {"_id": 2, "a": -128}, {"_id": 3, "a": 1048576}, {"_id": 4, "a": 5},` +
		` {"_id": 5, "a": {"$binary": {"base64": "gA==", "subType": "00"}}}, {"_id": 6, "a": -1.0}, {"_id": 7, "a": 2.5},` +
		` {"_id": 8, "a": {"$numberDouble": "NaN"}}, {"_id": 9, "a": 1e20}, {"_id": 10, "a": "x"}, {"_id": 11}, {"_id": 12, "a": [5, 2]}]`
	d45RegexDocs = `[{"_id": 1, "a": "Abc"}, {"_id": 2, "a": "abc\nx"}, {"_id": 3, "a": ["x", "ABC"]},` +
		` {"_id": 4, "a": {"$regularExpression": {"pattern": "ab", "options": ""}}},` +
		` {"_id": 5, "a": {"$regularExpression": {"pattern": "ab", "options": "i"}}}, {"_id": 6, "a": null}, {"_id": 7, "a": 1}]`
)

func TestDeep45StrcmpBitTests(t *testing.T) {
	// mongod builds the mask numbers are tested against from a BinData's
	// first 8 bytes by widening each char, which is signed on x86-64: a
	// byte of 0x80 or more sets every higher bit too. BinData values are
	// tested against the positions, which take no such widening.
	widen := d45LeafCpp + " (the bitMaskBinary constructor: static_cast<uint64_t>(char))"
	runFindCases(t, []findCase{
		{name: "a BinData mask with its top bit set, against numbers", ref: widen, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllSet": {"$binary": {"base64": "gA==", "subType": "00"}}}}`, want: `[{"_id": 2}, {"_id": 5}, {"_id": 6}]`},
		{name: "bitsAnySet of a widened BinData mask", ref: widen, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAnySet": {"$binary": {"base64": "gA==", "subType": "00"}}}}`,
			want:   `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 5}, {"_id": 6}]`},
		{name: "bitsAllClear of a widened BinData mask", ref: widen, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllClear": {"$binary": {"base64": "gA==", "subType": "00"}}}}`, want: `[{"_id": 4}, {"_id": 12}]`},
		{name: "bitsAnyClear of a widened BinData mask", ref: widen, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAnyClear": {"$binary": {"base64": "gA==", "subType": "00"}}}}`,
			want:   `[{"_id": 1}, {"_id": 3}, {"_id": 4}, {"_id": 12}]`},
		{name: "a ninth BinData byte is the sign bit", ref: widen, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllSet": {"$binary": {"base64": "AAAAAAAAAAAB", "subType": "00"}}}}`, want: `[{"_id": 2}, {"_id": 6}]`},
		{name: "a mask of 5", ref: d45LeafCpp + "; jstests/core/query/bittest.js", docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllSet": 5}}`, want: `[{"_id": 4}, {"_id": 6}, {"_id": 12}]`},
		{name: "positions past 63 are the sign", ref: d45LeafCpp, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllClear": [100]}}`, want: `[{"_id": 1}, {"_id": 3}, {"_id": 4}, {"_id": 5}, {"_id": 12}]`},
		{name: "no positions: every integral number and BinData", ref: d45LeafCpp + " (NaN, fractional and out-of-range doubles never match)",
			cov: cover{op: "$bitsAllSet", col: types}, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAllSet": []}}`, want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}, {"_id": 6}, {"_id": 12}]`},
		{name: "bitsAnySet of no positions matches nothing", ref: d45LeafCpp, docs: d45BitDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$bitsAnySet": []}}`, want: `[]`},
		{name: "a decimal mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong)", cov: cover{op: "$bitsAnyClear", col: types},
			docs: d45BitDocs, projection: `{"_id": 1}`, filter: `{"a": {"$bitsAnyClear": {"$numberDecimal": "4"}}}`, want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 5}, {"_id": 12}]`},
		{name: "a negative mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToNonNegativeLong)", cov: cover{op: "$bitsAllClear"},
			docs: d45BitDocs, filter: `{"a": {"$bitsAllClear": -1}}`, code: 9, msg: "Expected a non-negative number in: $bitsAllClear: -1"},
		{name: "the smallest long as a mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToNonNegativeLong)", cov: cover{op: "$bitsAllClear", col: types},
			docs: d45BitDocs, filter: `{"a": {"$bitsAllClear": {"$numberLong": "-9223372036854775808"}}}`,
			code: 9, msg: "Expected a non-negative number in: $bitsAllClear: -9223372036854775808"},
		{name: "a fractional mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong)", cov: cover{op: "$bitsAnySet", col: types},
			docs: d45BitDocs, filter: `{"a": {"$bitsAnySet": 1.5}}`, code: 9, msg: "Expected an integer: $bitsAnySet: 1.5"},
		{name: "a fractional decimal mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong: toLongExact)", cov: cover{op: "$bitsAnySet", col: types},
			docs: d45BitDocs, filter: `{"a": {"$bitsAnySet": {"$numberDecimal": "1.5"}}}`, code: 9, msg: "Cannot represent as a 64-bit integer: $bitsAnySet: 1.5"},
		{name: "a NaN mask", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong)", cov: cover{op: "$bitsAllClear", col: types},
			docs: d45BitDocs, filter: `{"a": {"$bitsAllClear": {"$numberDouble": "NaN"}}}`, code: 9, msg: "Expected an integer, but found NaN in: $bitsAllClear: nan.0"},
		{name: "a mask past 2^63", ref: "src/mongo/bson/bsonelement.cpp (parseIntegerElementToLong)", cov: cover{op: "$bitsAllClear"},
			docs: d45BitDocs, filter: `{"a": {"$bitsAllClear": 1e20}}`, code: 9, msg: "Cannot represent as a 64-bit integer: $bitsAllClear: 1e+20.0"},
		{name: "a null mask", ref: d45ParserCpp + " (parseBitTest)", cov: cover{op: "$bitsAllClear"}, docs: d45BitDocs,
			filter: `{"a": {"$bitsAllClear": null}}`, code: 2, msg: "a takes an Array, a number, or a BinData but received: $bitsAllClear: null"},
		{name: "a negative position", ref: d45ParserCpp + " (parseBitPositionsArray)", cov: cover{op: "$bitsAllClear"}, docs: d45BitDocs,
			filter: `{"a": {"$bitsAllClear": [-1]}}`, code: 2, msg: "Failed to parse bit position. Expected a non-negative number in: 0: -1"},
		{name: "a position beyond an int", ref: d45ParserCpp + " (parseBitPositionsArray: parseIntegerElementToNonNegativeInt)", cov: cover{op: "$bitsAllClear", col: types},
			docs: d45BitDocs, filter: `{"a": {"$bitsAllClear": [{"$numberLong": "2147483648"}]}}`,
			code: 2, msg: "Failed to parse bit position. Cannot represent 0: 2147483648 in an int"},
		{name: "a string position", ref: d45ParserCpp + " (parseBitPositionsArray)", cov: cover{op: "$bitsAnyClear"}, docs: d45BitDocs,
			filter: `{"a": {"$bitsAnyClear": [0, "a"]}}`, code: 2, msg: `Failed to parse bit position. Expected a number in: 1: "a"`},
		{name: "a NaN position", ref: d45ParserCpp + " (parseBitPositionsArray)", cov: cover{op: "$bitsAnyClear", col: types}, docs: d45BitDocs,
			filter: `{"a": {"$bitsAnyClear": [{"$numberDouble": "NaN"}]}}`, code: 2, msg: "Failed to parse bit position. Expected an integer, but found NaN in: 0: nan.0"},
	})
}

func TestDeep45StrcmpAlwaysBoolean(t *testing.T) {
	ref := "src/mongo/db/matcher/expression_always_boolean.h; " + d45ParserCpp + " (parseAlwaysBoolean)"
	docs := `[{"_id": 1}, {"_id": 2}]`
	runFindCases(t, []findCase{
		{name: "alwaysTrue under $and", ref: ref, cov: cover{op: "$alwaysTrue"}, docs: docs, filter: `{"$and": [{"$alwaysTrue": 1}, {"_id": 2}]}`, want: `[{"_id": 2}]`},
		{name: "alwaysFalse under $nor", ref: ref, cov: cover{op: "$alwaysFalse"}, docs: docs, filter: `{"$nor": [{"$alwaysFalse": 1}]}`, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "alwaysTrue of a double 1", ref: ref, cov: cover{op: "$alwaysTrue", col: types}, docs: docs, filter: `{"$alwaysTrue": 1.0}`, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "alwaysFalse of a decimal 1", ref: ref, cov: cover{op: "$alwaysFalse", col: types}, docs: docs, filter: `{"$alwaysFalse": {"$numberDecimal": "1"}}`, want: `[]`},
		{name: "alwaysTrue of 0", ref: ref, docs: docs, filter: `{"$alwaysTrue": 0}`, code: 9, msg: "$alwaysTrue must be an integer value of 1"},
		{name: "alwaysFalse of an array", ref: ref, docs: docs, filter: `{"$alwaysFalse": []}`, code: 9, msg: "Expected a number in: $alwaysFalse: []"},
		{name: "alwaysTrue of null", ref: ref, docs: docs, filter: `{"$alwaysTrue": null}`, code: 9, msg: "Expected a number in: $alwaysTrue: null"},
		{name: "alwaysTrue is no field operator", ref: d45ParserCpp + " (parseSub: unknown operator)", cov: cover{op: "$alwaysTrue"}, docs: docs,
			filter: `{"a": {"$alwaysTrue": 1}}`, code: 2, msg: "unknown operator: $alwaysTrue"},
	})
}

func TestDeep45StrcmpRegexForms(t *testing.T) {
	ref := d45ParserCpp + " (parseRegexDocument)"
	flags := "src/mongo/util/pcre_util.cpp (flagsToOptions)"
	runFindCases(t, []findCase{
		{name: "options before regex", ref: ref, cov: cover{op: "$options"}, docs: d45RegexDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$options": "i", "$regex": "ab"}}`, want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 5}]`},
		{name: "an empty $options leaves the regex's flags", ref: ref, cov: cover{op: "$options"}, docs: d45RegexDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$options": "", "$regex": {"$regularExpression": {"pattern": "ab", "options": "i"}}}}`, want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 5}]`},
		{name: "a BSON regex value matches only the same regex", ref: "src/mongo/db/matcher/expression_leaf.cpp (RegexMatchExpression::matchesSingleElement)",
			cov: cover{op: "$regex", col: types}, docs: d45RegexDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$regex": "ab"}}`, want: `[{"_id": 2}, {"_id": 4}]`},
		{name: "multiline", ref: flags, docs: d45RegexDocs, projection: `{"_id": 1}`, filter: `{"a": {"$regex": "^x$", "$options": "m"}}`, want: `[{"_id": 2}, {"_id": 3}]`},
		{name: "extended ignores spaces", ref: flags, docs: d45RegexDocs, projection: `{"_id": 1}`, filter: `{"a": {"$regex": "a b c", "$options": "x"}}`, want: `[{"_id": 2}]`},
		{name: "dotall crosses a newline", ref: flags, docs: d45RegexDocs, projection: `{"_id": 1}`, filter: `{"a": {"$regex": "c.x", "$options": "s"}}`, want: `[{"_id": 2}]`},
		{name: "u is accepted and ignored", ref: flags, docs: d45RegexDocs, projection: `{"_id": 1}`, filter: `{"a": {"$regex": "A", "$options": "u"}}`, want: `[{"_id": 1}, {"_id": 3}]`},
		{name: "l is no flag", ref: flags, docs: d45RegexDocs, filter: `{"a": {"$regex": "a", "$options": "l"}}`, code: 51108, msg: " invalid flag in regex options: l"},
		{name: "options in the regex then in $options", ref: ref, docs: d45RegexDocs,
			filter: `{"a": {"$regex": {"$regularExpression": {"pattern": "ab", "options": "i"}}, "$options": ""}}`,
			code:   51075, msg: "options set in both $regex and $options"},
		{name: "options in $options then in the regex", ref: ref, cov: cover{op: "$options"}, docs: d45RegexDocs,
			filter: `{"a": {"$options": "m", "$regex": {"$regularExpression": {"pattern": "ab", "options": "i"}}}}`,
			code:   51074, msg: "options set in both $regex and $options"},
		{name: "$options alone", ref: d45ParserCpp + " (parseSub)", cov: cover{op: "$options"}, docs: d45RegexDocs, filter: `{"a": {"$options": "i"}}`,
			code: 2, msg: "$options needs a $regex"},
		{name: "$options of a number", ref: ref, cov: cover{op: "$regex", col: types}, docs: d45RegexDocs, filter: `{"a": {"$regex": "a", "$options": 1}}`,
			code: 2, msg: "$options has to be a string"},
		{name: "$regex of null", ref: ref, cov: cover{op: "$regex", col: types}, docs: d45RegexDocs, filter: `{"a": {"$regex": null}}`,
			code: 2, msg: "$regex has to be a string"},
		{name: "a NUL in the pattern", ref: "src/mongo/db/matcher/expression_leaf.cpp (RegexMatchExpression)", docs: d45RegexDocs,
			filter: `{"a": {"$regex": "a\u0000"}}`, code: 2, msg: "Regular expression cannot contain an embedded null byte"},
		{name: "a second $options", ref: ref, cov: cover{op: "$options"}, docs: d45RegexDocs,
			filter: `{"a": {"$regex": "a", "$options": "i", "$options": "m"}}`, code: 51075, msg: "options set in both $regex and $options"},
		{name: "a second $regex replaces the first", ref: ref, docs: d45RegexDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$regex": "x", "$regex": "^A"}}`, want: `[{"_id": 1}, {"_id": 3}]`},
		{name: "$regex beside $eq", ref: d45ParserCpp + " (parseSub ANDs the regex with the other operators)", docs: d45RegexDocs, projection: `{"_id": 1}`,
			filter: `{"a": {"$regex": "^1", "$eq": 1}}`, want: `[]`},
	})
}

func TestDeep45StrcmpCurrentDate(t *testing.T) {
	ref := "src/mongo/db/update/current_date_node.cpp (CurrentDateNode::init)"
	typeOfA := `{"find": "c", "projection": {"a": {"$type": "$a"}}}`
	runCmdCases(t, []cmdCase{
		{name: "false still sets a date", ref: ref + " (any bool is a date)", cov: cover{family: update, op: "$currentDate", col: types},
			docs: `[{"_id": 1}]`, cmd: `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$currentDate": {"a": false}}}]}`,
			want: `{"n": 1, "nModified": 1}`, thenFind: typeOfA, thenWant: `[{"_id": 1, "a": "date"}]`},
		{name: "the last valid $type wins", ref: ref, cov: cover{family: update, op: "$currentDate"},
			docs: `[{"_id": 1}]`, cmd: `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$currentDate": {"a": {"$type": "date", "$type": "timestamp"}}}}]}`,
			want: `{"n": 1, "nModified": 1}`, thenFind: typeOfA, thenWant: `[{"_id": 1, "a": "timestamp"}]`},
		{name: "an invalid $type after a valid one", ref: ref, cov: cover{family: update, op: "$currentDate"},
			docs: `[{"_id": 1}]`, cmd: `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$currentDate": {"a": {"$type": "timestamp", "$type": "x"}}}}]}`,
			want: `{"n": 1, "nModified": 1}`, thenFind: typeOfA, thenWant: `[{"_id": 1, "a": "timestamp"}]`},
		{name: "through an array index", ref: ref + "; src/mongo/db/update/modifier_node.cpp", cov: cover{family: update, op: "$currentDate"},
			docs: `[{"_id": 1, "a": [1, 2]}]`, cmd: `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$currentDate": {"a.1": true}}}]}`,
			want: `{"n": 1, "nModified": 1}`, thenFind: `{"find": "c", "projection": {"a": {"$map": {"input": "$a", "in": {"$type": "$$this"}}}}}`,
			thenWant: `[{"_id": 1, "a": ["int", "date"]}]`},
		{name: "an upsert sets it on the new document", ref: ref, cov: cover{family: update, op: "$currentDate"},
			cmd:  `{"update": "c", "updates": [{"q": {"_id": 3}, "u": {"$currentDate": {"a": {"$type": "timestamp"}}}, "upsert": true}]}`,
			want: `{"n": 1, "nModified": 0}`, thenFind: typeOfA, thenWant: `[{"_id": 3, "a": "timestamp"}]`},
	})
	runUpdateCases(t, []updateCase{
		{name: "$currentDate with a string", ref: ref, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": "date"}}`,
			code: 2, msg: "string is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."},
		{name: "$currentDate with null", ref: ref, cov: cover{col: types}, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": null}}`,
			code: 2, msg: "null is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."},
		{name: "$currentDate with an empty object", ref: ref, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": {}}}`,
			code: 2, msg: "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{name: "$currentDate with a numeric $type", ref: ref, cov: cover{col: types}, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": {"$type": 9}}}`,
			code: 2, msg: "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{name: "an unknown option after a valid $type", ref: ref, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": {"$type": "date", "b": 1}}}`,
			code: 2, msg: "Unrecognized $currentDate option: b"},
		{name: "an unknown option after an invalid $type", ref: ref, docs: `[{"_id": 1}]`, update: `{"$currentDate": {"a": {"$type": "x", "b": 1}}}`,
			code: 2, msg: "Unrecognized $currentDate option: b"},
		{name: "$currentDate through a scalar", ref: "src/mongo/db/update/modifier_node.cpp", docs: `[{"_id": 1, "a": 5}]`, update: `{"$currentDate": {"a.b": true}}`,
			code: 28, msg: "Cannot create field 'b' in element {a: 5}"},
		{name: "$currentDate on _id", ref: "src/mongo/db/update/update_driver.cpp (immutable _id)", docs: `[{"_id": 1}]`, update: `{"$currentDate": {"_id": true}}`,
			code: 66, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "$currentDate of a number", ref: "src/mongo/db/update/update_object_node.cpp", docs: `[{"_id": 1}]`, update: `{"$currentDate": 5}`,
			code: 9, msg: "Modifiers operate on fields but we found type int instead. For example: {$mod: {<field>: ...}} not {$currentDate: 5}"},
	})
}
