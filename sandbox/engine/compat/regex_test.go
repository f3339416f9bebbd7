package compat_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

const regexJS = "jstests/aggregation/expressions/regex.js"

func TestRegexFindAll(t *testing.T) {
	all := func(input, regex, opts string) string {
		x := `{"$regexFindAll": {"input": ` + input + `, "regex": ` + regex
		if opts != "" {
			x += `, "options": "` + opts + `"`
		}
		return x + `}}`
	}
	m := func(match string, idx int, caps string) string {
		return `{"match": "` + match + `", "idx": ` + itoa(idx) + `, "captures": ` + caps + `}`
	}
	runExprCases(t, []exprCase{
		{name: "captures and several matches", ref: regexJS, doc: `{"_id": 0, "text": "Simple Example "}`,
			expr: all(`"$text"`, `"(m(p))"`, ""), want: `[` + m("mp", 2, `["mp", "p"]`) + `, ` + m("mp", 10, `["mp", "p"]`) + `]`},
		{name: "no overlapping matches", ref: regexJS, doc: `{"_id": 0, "text": "aaaaa aaaa"}`,
			expr: all(`"$text"`, `"(aa)"`, ""), want: `[` + m("aa", 0, `["aa"]`) + `, ` + m("aa", 2, `["aa"]`) + `, ` + m("aa", 6, `["aa"]`) + `, ` + m("aa", 8, `["aa"]`) + `]`},
		{name: "greedy", ref: regexJS, doc: `{"_id": 0, "text": "aaaaa aaaa"}`,
			expr: all(`"$text"`, `"(a)+"`, ""), want: `[` + m("aaaaa", 0, `["a"]`) + `, ` + m("aaaa", 6, `["a"]`) + `]`},
		{name: "lazy empty matches stop before the end", ref: regexJS, doc: `{"_id": 0, "text": "aaa aa"}`,
			expr: all(`"$text"`, `"(a*?)"`, ""),
			want: `[` + m("", 0, `[""]`) + `, ` + m("", 1, `[""]`) + `, ` + m("", 2, `[""]`) + `, ` + m("", 3, `[""]`) + `, ` + m("", 4, `[""]`) + `, ` + m("", 5, `[""]`) + `]`},
		{name: "empty capture groups", ref: regexJS,
			expr: all(`"bbbb"`, `"()"`, ""), want: `[` + m("", 0, `[""]`) + `, ` + m("", 1, `[""]`) + `, ` + m("", 2, `[""]`) + `, ` + m("", 3, `[""]`) + `]`},
		{name: "empty input matches an empty regex", ref: regexJS,
			expr: all(`""`, `""`, ""), want: `[` + m("", 0, `[]`) + `]`},
		{name: "multiline anchors", ref: regexJS, doc: `{"_id": 0, "text": "Foo line1\nFoo line2\nFoo line3"}`,
			expr: all(`"$text"`, `{"$regularExpression": {"pattern": "(^Foo line\\d$)", "options": "m"}}`, ""),
			want: `[` + m("Foo line1", 0, `["Foo line1"]`) + `, ` + m("Foo line2", 10, `["Foo line2"]`) + `, ` + m("Foo line3", 20, `["Foo line3"]`) + `]`},
		{name: "anchors without the m option", ref: regexJS, doc: `{"_id": 0, "text": "Foo line1\nFoo line2\nFoo line3"}`,
			expr: all(`"$text"`, `{"$regularExpression": {"pattern": "^Foo line\\d$", "options": ""}}`, ""), want: `[]`},
		{name: "dotall option", ref: regexJS, doc: `{"_id": 0, "text": "Foo line1\nFoo line2\nFoo line3"}`,
			expr: all(`"$text"`, `"Foo.*line"`, "s"), want: `[` + m(`Foo line1\nFoo line2\nFoo line`, 0, `[]`) + `]`},
		{name: "extended option", ref: regexJS, doc: `{"_id": 0, "text": "Foo line1\nFoo line2\nFoo line3"}`,
			expr: all(`"$text"`, `"F o o # a comment"`, "x"), want: `[` + m("Foo", 0, `[]`) + `, ` + m("Foo", 10, `[]`) + `, ` + m("Foo", 20, `[]`) + `]`},
		{name: "case-insensitive option", ref: regexJS, doc: `{"_id": 0, "text": "This Is Camel Case"}`,
			expr: all(`"$text"`, `"camel"`, "i"), want: `[` + m("Camel", 8, `[]`) + `]`},
		{name: "code point indexes", ref: regexJS, doc: `{"_id": 0, "text": "cafétéria"}`,
			expr: all(`"$text"`, `"té"`, ""), want: `[` + m("té", 4, `[]`) + `]`},
		{name: "null regex", ref: regexJS, doc: `{"_id": 0, "text": "x"}`, expr: all(`"$text"`, `null`, ""), want: `[]`},
		{name: "$regexFind gives the first match", ref: regexJS, doc: `{"_id": 0, "text": "Simple Example "}`,
			expr: `{"$regexFind": {"input": "$text", "regex": "(m(p))"}}`, want: m("mp", 2, `["mp", "p"]`)},
		{name: "$regexMatch", ref: regexJS, doc: `{"_id": 0, "text": "Text with 02 digits"}`,
			expr: `{"$regexMatch": {"input": "$text", "regex": {"$regularExpression": {"pattern": "[0-9]+", "options": ""}}}}`, want: `true`},
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// The regex operators' argument and result types (evaluate_regex.cpp):
// 'input' a string, 'regex' a string or a BSON regex, 'options' a string;
// idx is an int and a capture group that took part in no match is null.
func TestRegexTypes(t *testing.T) {
	ref := "src/mongo/db/exec/expression/evaluate_regex.cpp"
	doc := `{"_id": 0, "text": "ac", "i": 3, "oid": {"$oid": "5f5e1000aaaaaaaaaaaaaaaa"},` +
		` "re": {"$regularExpression": {"pattern": "A", "options": "i"}}}`
	runExprCases(t, []exprCase{
		{name: "regexFind gives null for a group that did not take part", ref: ref + " (nextMatch)", cov: cover{op: "$regexFind", col: types}, doc: doc,
			expr: `{"$regexFind": {"input": "$text", "regex": "a(b)?(c)"}}`, want: `{"match": "ac", "idx": 0, "captures": [null, "c"]}`},
		{name: "regexFind with a BSON regex and its flags", ref: ref + " (extractRegexAndOptions)", cov: cover{op: "$regexFind", col: types}, doc: doc,
			expr: `{"$regexFind": {"input": "$text", "regex": "$re"}}`, want: `{"match": "a", "idx": 0, "captures": []}`},
		{name: "regexFind with a numeric regex", ref: ref + " (extractRegexAndOptions)", cov: cover{op: "$regexFind", col: types}, doc: doc,
			expr: `{"$regexFind": {"input": "$text", "regex": "$i"}}`,
			code: 51105, msg: planExecutor + "$regexFind needs 'regex' to be of type string or regex"},
		{name: "regexFindAll with numeric options", ref: ref + " (extractRegexAndOptions)", cov: cover{op: "$regexFindAll", col: types}, doc: doc,
			expr: `{"$regexFindAll": {"input": "$text", "regex": "a", "options": "$i"}}`,
			code: 51106, msg: planExecutor + "$regexFindAll needs 'options' to be of type string"},
		{name: "regexFindAll gives int indexes", ref: ref, cov: cover{op: "$regexFindAll", col: types}, doc: doc,
			expr: `{"$regexFindAll": {"input": "$text", "regex": "[ac]"}}`,
			want: `[{"match": "a", "idx": 0, "captures": []}, {"match": "c", "idx": 1, "captures": []}]`},
		{name: "regexMatch of an ObjectId", ref: ref + " (extractInputField)", cov: cover{op: "$regexMatch", col: types}, doc: doc,
			expr: `{"$regexMatch": {"input": "$oid", "regex": "a"}}`,
			code: 51104, msg: planExecutor + "$regexMatch needs 'input' to be of type string"},
		{name: "regexMatch with flags in both the regex and options", ref: ref + " (extractRegexAndOptions)", cov: cover{op: "$regexMatch", col: types}, doc: doc,
			expr: `{"$regexMatch": {"input": "$text", "regex": "$re", "options": "i"}}`,
			code: 51107, msg: planExecutor + "$regexMatch: found regex option(s) specified in both 'regex' and 'option' fields"},
	})
}

// The limits PCRE2 compiles mongod 8.0's patterns with (src/mongo/util/pcre.cpp
// sets pcre2_set_max_pattern_length to 2^14; the parentheses nesting limit is
// PCRE2's default 250), failing as evaluate_regex.cpp's 51111 in PCRE2's own
// words (pcre2_error.c). A constant pattern is compiled while the expression
// is parsed. jstests/aggregation/expressions/regex_limits.js of the PCRE2 era
// probes both: 16384 bytes and 250 nested groups match, one more fails.
func TestRegexLimits(t *testing.T) {
	ref := "src/mongo/util/pcre.cpp; src/mongo/db/exec/expression/evaluate_regex.cpp (51111); jstests/aggregation/expressions/regex_limits.js"
	long := strings.Repeat("c", 16384)
	nest := func(n int) string { return strings.Repeat("(", n) + "e" + strings.Repeat(")", n) }
	doc := `{"_id": 0, "z": "` + long + `e", "p": "` + long + `c"}`
	runExprCases(t, []exprCase{
		{name: "regexMatch with a pattern of 16384 bytes", ref: ref, cov: cover{op: "$regexMatch"}, doc: doc,
			expr: `{"$regexMatch": {"input": "$z", "regex": "^` + long[1:] + `"}}`, want: `true`},
		{name: "regexMatch with a constant pattern of 16385 bytes", ref: ref, cov: cover{op: "$regexMatch"}, doc: doc,
			expr: `{"$regexMatch": {"input": "$z", "regex": "` + long + `c"}}`,
			code: 51111, msg: invalidProject + "Invalid Regex in $regexMatch: pattern string is longer than the limit set by the application"},
		{name: "regexFind with a pattern of 16385 bytes read from the document", ref: ref, cov: cover{op: "$regexFind"}, doc: doc,
			expr: `{"$regexFind": {"input": "$z", "regex": "$p"}}`,
			code: 51111, msg: planExecutor + "Invalid Regex in $regexFind: pattern string is longer than the limit set by the application"},
		{name: "regexFindAll with 250 nested groups", ref: ref, cov: cover{op: "$regexFindAll"}, doc: `{"_id": 0, "z": "abe"}`,
			expr: `{"$size": {"$arrayElemAt": [{"$map": {"input": {"$regexFindAll": {"input": "$z", "regex": "` + nest(250) + `"}}, "in": "$$this.captures"}}, 0]}}`, want: `250`},
		{name: "regexFindAll with 251 nested groups", ref: ref, cov: cover{op: "$regexFindAll"}, doc: `{"_id": 0, "z": "abe"}`,
			expr: `{"$regexFindAll": {"input": "$z", "regex": "` + nest(251) + `"}}`,
			code: 51111, msg: invalidProject + "Invalid Regex in $regexFindAll: parentheses are too deeply nested"},
		{name: "regexMatch counts no group inside a character class or an escape", ref: ref, cov: cover{op: "$regexMatch"}, doc: `{"_id": 0, "z": "("}`,
			expr: `{"$regexMatch": {"input": "$z", "regex": "` + strings.Repeat("(", 250) + `[(]\\(?` + strings.Repeat(")", 250) + `"}}`, want: `true`},
	})
}

// Regex index bounds (src/mongo/db/query/analyze_regex.cpp
// getRegexPrefixMatch, which simpleRegex uses; jstests/core/index/
// index_bounds_pipe.js): an anchored pattern gives the range of its literal
// prefix, up to the first of ^$.[()+{ or an alphanumeric escape, a
// quantifier taking its last character back; a pipe that may be unescaped
// gives the whole string range. Bounds print strings as
// BSONElement::toString does, unescaped.
func TestRegexIndexBounds(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/analyze_regex.cpp getRegexPrefixMatch; jstests/core/index/index_bounds_pipe.js"
	const docs = `[{"_id": ""}, {"_id": "\\|"}, {"_id": "a"}, {"_id": "a|b"}, {"_id": "b"}, {"_id": "|"}, {"_id": "abc\nx"}, {"_id": "ab{"}]`
	cases := []struct {
		name, pattern, options, bounds string
		// filtered: the plan keeps the regex as a filter (INEXACT_COVERED).
		filtered bool
		ids      string
	}{
		{"a backslash prefix prints unescaped", `^\\`, "", `["[\"\\\", \"]\")", "[/^\\\\/, /^\\\\/]"]`, false, `["\\|"]`},
		{"an escaped pipe is part of the prefix", `^a\|`, "", `["[\"a|\", \"a}\")", "[/^a\\|/, /^a\\|/]"]`, false, `["a|b"]`},
		{"a pipe after an escaped backslash is an alternation", `^\\|b`, "", `["[\"\", {})", "[/^\\\\|b/, /^\\\\|b/]"]`, true, `["\\|", "abc\nx", "ab{", "a|b", "b"]`},
		{"a pipe inside \\Q...\\E still counts", `^\Q|\E`, "", `["[\"\", {})", "[/^\\Q|\\E/, /^\\Q|\\E/]"]`, true, `["|"]`},
		{"an escaped pipe inside \\Q...\\E is literal", `^\Q\|\E`, "", `["[\"\\|\", \"\\}\")", "[/^\\Q\\|\\E/, /^\\Q\\|\\E/]"]`, false, `["\\|"]`},
		{"a final .* keeps the bounds exact", `^ab.*`, "", `["[\"ab\", \"ac\")", "[/^ab.*/, /^ab.*/]"]`, false, `["abc\nx", "ab{"]`},
		{"a brace ends the prefix without taking a character back", `^ab{`, "", `["[\"ab\", \"ac\")", "[/^ab{/, /^ab{/]"]`, true, `["ab{"]`},
		{"the s flag keeps the prefix", `^ab`, "s", `["[\"ab\", \"ac\")", "[/^ab/s, /^ab/s]"]`, false, `["abc\nx", "ab{"]`},
		{"the i flag gives no prefix", `^ab`, "i", `["[\"\", {})", "[/^ab/i, /^ab/i]"]`, true, `["abc\nx", "ab{"]`},
	}
	for _, tc := range cases {
		s.runCase(t, "regex bounds: "+tc.name, ref, explainCase(query, "$regex"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			filter := bson.D{{Key: "_id", Value: bson.Regex{Pattern: tc.pattern, Options: tc.options}}}
			find := bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: filter}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}}
			reply, cerr := command(t, db, bson.D{{Key: "explain", Value: find}, {Key: "verbosity", Value: "queryPlanner"}})
			if cerr != nil {
				t.Fatal(cerr)
			}
			plan := winningPlan(t, reply)
			ixscan := stageNamed(plan, "IXSCAN")
			if ixscan == nil {
				t.Fatalf("no IXSCAN in %s", relaxed(plan))
			}
			sameValue(t, "bounds", field(field(ixscan, "indexBounds").(bson.D), "_id"), tc.bounds)
			filtered := field(ixscan, "filter") != nil || stageNamed(plan, "FETCH") != nil && field(stageNamed(plan, "FETCH"), "filter") != nil
			if filtered != tc.filtered {
				t.Errorf("regex left as a filter: %v, want %v (plan %s)", filtered, tc.filtered, relaxed(plan))
			}
			ids := foundIDs(t, db, append(find, bson.E{Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}))
			sameValue(t, "ids", ids, tc.ids)
		})
	}
}
