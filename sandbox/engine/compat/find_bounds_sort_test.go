package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// find's min and max scan the hinted index between them: min included,
// max excluded, in the key pattern's order, the filter applied by FETCH
// (src/mongo/db/query/planner_access.cpp makeIndexScan; jstests/core/
// query/min_max/min_max_bounds.js, minmax_edge.js).
func TestFindMinMaxScans(t *testing.T) {
	const ref = "src/mongo/db/query/planner_access.cpp makeIndexScan"
	docs := `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2, "b": 2}, {"_id": 3, "a": 2, "b": 3}, {"_id": 4, "a": 3, "b": 1}, {"_id": 5, "a": 4, "b": 2}]`
	ab := []string{`{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": -1}, "name": "ab"}]}`}
	runCmdCases(t, []cmdCase{
		{name: "min and max bound a compound index", ref: ref, docs: docs, setup: ab,
			cmd:  `{"find": "c", "min": {"a": 2, "b": 3}, "max": {"a": 3, "b": 1}, "hint": "ab"}`,
			want: `{"cursor": {"firstBatch": [{"_id": 3, "a": 2, "b": 3}, {"_id": 2, "a": 2, "b": 2}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "min alone runs to the end of the index", ref: ref, docs: docs, setup: ab,
			cmd:  `{"find": "c", "min": {"a": 3, "b": {"$maxKey": 1}}, "hint": "ab", "projection": {"_id": 1}}`,
			want: `{"cursor": {"firstBatch": [{"_id": 4}, {"_id": 5}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "the filter still applies within min and max", ref: ref + " (the whole filter goes to FETCH)", docs: docs, setup: ab,
			cmd:  `{"find": "c", "filter": {"b": {"$lt": 3}}, "min": {"a": 1, "b": {"$maxKey": 1}}, "max": {"a": 4, "b": {"$maxKey": 1}}, "hint": {"a": 1, "b": -1}, "projection": {"_id": 1}}`,
			want: `{"cursor": {"firstBatch": [{"_id": 1}, {"_id": 2}, {"_id": 4}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "a reverse sort scans the range backwards", ref: "src/mongo/db/query/planner_analysis.cpp analyzeSort (reverseScans swaps a simple range's keys)", docs: docs, setup: ab,
			cmd:  `{"find": "c", "min": {"a": 2, "b": {"$maxKey": 1}}, "max": {"a": 4, "b": {"$maxKey": 1}}, "hint": "ab", "sort": {"a": -1, "b": 1}, "projection": {"_id": 1}}`,
			want: `{"cursor": {"firstBatch": [{"_id": 4}, {"_id": 2}, {"_id": 3}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "min and max with the field names of no index key", ref: "src/mongo/db/query/query_planner.cpp indexCompatibleMaxMin (51174)", docs: docs, setup: ab,
			cmd: `{"find": "c", "min": {"b": 1, "a": 1}, "hint": "ab"}`, code: mongoerr.ErrMinMaxIndexIncompatible,
			msg: "error processing query: ns={{db}}.cTree: $and\nSort: {}\nProj: {}\n planner returned error :: caused by :: The index chosen is not compatible with min/max"},
	})
	s := newSuite(t)
	s.runCase(t, "min and max explain as an IXSCAN with no interval bounds", "src/mongo/db/query/index_bounds.cpp IndexBounds::toBSON (a simple range has no fields)",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, ab[0])
			st := explainStats(t, db, `{"find": "c", "filter": {"b": 2}, "min": {"a": 2, "b": {"$maxKey": 1}}, "max": {"a": 4, "b": {"$maxKey": 1}}, "hint": "ab"}`)
			plan := field(st, "executionStages").(bson.D)
			if got := stageChain(plan); got != "FETCH>IXSCAN" {
				t.Errorf("plan %s, want FETCH>IXSCAN", got)
			}
			sameValue(t, "FETCH filter", field(plan, "filter"), `{"b": {"$eq": 2}}`)
			ix := stageNamed(plan, "IXSCAN")
			sameValue(t, "indexBounds", field(ix, "indexBounds"), `{}`)
			sameValue(t, "direction", field(ix, "direction"), `"forward"`)
			sameValue(t, "keysExamined", field(ix, "keysExamined"), `3`)
			sameValue(t, "nReturned", field(st, "nReturned"), `1`)
		})
}

// Which sorts an index scan over multikey fields gives without a blocking
// SORT (src/mongo/db/query/query_solution.cpp computeSortsForScan and
// confirmBoundsProvideSortComponentGivenMultikeyness, SERVER-31898;
// jstests/core/query/sort/sort_array.js).
func TestMultikeySortPlans(t *testing.T) {
	const ref = "src/mongo/db/query/query_solution.cpp confirmBoundsProvideSortComponentGivenMultikeyness"
	s := newSuite(t)
	plan := func(t *testing.T, db *mongo.Database, docs, index, find string) string {
		t.Helper()
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": `+index+`, "name": "ix"}]}`)
		reply := mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`)
		return stageChain(winningPlan(t, reply))
	}
	arrays := `[{"_id": 0, "a": [3, 0, 1]}, {"_id": 1, "a": [0, 4, -1]}]`
	nested := `[{"_id": 0, "x": [{"y": [4, 0, 1], "z": 7}, {"y": 0, "z": 9}]}, {"_id": 1, "x": [{"y": 1, "z": 7}, {"y": 0, "z": [8, 6]}]}]`
	cases := []struct{ name, docs, index, find, want string }{
		{"a multikey field scanned whole gives its sort", arrays, `{"a": 1}`, `{"find": "c", "sort": {"a": -1}}`, "FETCH>IXSCAN"},
		{"a multikey field with bounds does not", arrays, `{"a": 1}`, `{"find": "c", "filter": {"a": {"$gte": 2}}, "sort": {"a": -1}}`, "SORT>FETCH>IXSCAN"},
		{"compound multikey fields scanned whole give the sort", nested, `{"x.y": 1, "x.z": -1}`, `{"find": "c", "sort": {"x.y": -1, "x.z": 1}}`, "FETCH>IXSCAN"},
		{"bounds on a multikey field sharing the sort field's prefix", nested, `{"x.y": 1, "x.z": -1}`, `{"find": "c", "filter": {"x.y": 1}, "sort": {"x.z": -1}}`, "SORT>FETCH>IXSCAN"},
		{"a multikey equality field with no shared prefix is skipped", `[{"_id": 0, "d": 3, "e": [1, 2, 3]}, {"_id": 1, "d": [0, 4, -1], "e": 4}]`,
			`{"d": 1, "e": 1}`, `{"find": "c", "filter": {"d": 1}, "sort": {"e": 1}}`, "FETCH>IXSCAN"},
		{"a multikey min/max scan gives no sort on its multikey field", arrays, `{"a": 1}`,
			`{"find": "c", "min": {"a": 0}, "max": {"a": 9}, "hint": {"a": 1}, "sort": {"a": 1}}`, "SORT>FETCH>IXSCAN"},
	}
	for _, c := range cases {
		s.runCase(t, c.name, ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			if got := plan(t, db, c.docs, c.index, c.find); got != c.want {
				t.Errorf("plan %s, want %s", got, c.want)
			}
		})
	}
}

// A query regex is compiled by PCRE2 with flagsToOptions's options (UTF,
// no UCP): the sandbox translates what RE2 can match the same way and
// refuses the rest (src/mongo/db/matcher/expression_leaf.cpp
// RegexMatchExpression, 51091 for a pattern PCRE2 refuses; PCRE2's
// pcre2pattern; jstests/core/query/regex/regex_verbs.js, regex_unicode.js).
func TestQueryRegexPCRE(t *testing.T) {
	const ref = "jstests/core/query/regex/regex_verbs.js"
	docs := `[{"_id": 0, "s": "a"}, {"_id": 1, "s": "b"}, {"_id": 2, "s": "ab\n"}, {"_id": 3, "s": "x\u000by"}, {"_id": 4, "s": "suárez"}, {"_id": 5, "s": "٣"}]`
	re := func(p string) string { return `{"s": {"$regex": "` + p + `"}}` }
	id := `{"_id": 1}`
	runFindCases(t, []findCase{
		{name: "(*FAIL) never matches", ref: ref, docs: docs, filter: re(`a(*FAIL)`), projection: id, want: `[]`},
		{name: "(*ACCEPT) ends the match", ref: ref, docs: docs, filter: re(`b(*ACCEPT)zzz`), projection: id, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "(*COMMIT) before one character", ref: ref, docs: docs, filter: re(`(*COMMIT)[Bb]`), projection: id, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "(*PRUNE:NAME) at the start", ref: ref, docs: docs, filter: re(`(*PRUNE:FOO)a`), projection: id, want: `[{"_id": 0}, {"_id": 2}]`},
		{name: "(*UTF) and (*UTF8) are accepted", ref: "jstests/core/query/regex/regex_unicode.js", docs: docs, filter: re(`(*UTF8)(*UTF)á`), projection: id, want: `[{"_id": 4}]`},
		{name: "(*UCP) makes \\d Unicode", ref: "jstests/core/query/regex/regex_unicode.js", docs: docs, filter: re(`(*UCP)^\\d$`), projection: id, want: `[{"_id": 5}]`},
		{name: "\\d is ASCII without (*UCP)", ref: "jstests/core/query/regex/regex_unicode.js", docs: docs, filter: re(`^\\d$`), projection: id, want: `[]`},
		{name: "$ matches before a final newline", ref: "pcre2pattern (circumflex and dollar)", docs: docs, filter: re(`b$`), projection: id, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "\\s includes the vertical tab", ref: "pcre2pattern (generic character types)", docs: docs, filter: re(`x\\sy`), projection: id, want: `[{"_id": 3}]`},
		{name: "\\h and \\v", ref: "pcre2pattern (generic character types)", docs: docs, filter: re(`x\\vy|a\\hb`), projection: id, want: `[{"_id": 3}]`},
		{name: "an escaped non-ASCII character is literal", ref: "jstests/core/query/regex/regex6.js", docs: docs, filter: re(`\\á`), projection: id, want: `[{"_id": 4}]`},
		{name: "\\Q...\\E quotes", ref: "jstests/core/query/regex/regex6.js", docs: docs, filter: re(`^\\Qa\\E`), projection: id, want: `[{"_id": 0}, {"_id": 2}]`},
		{name: "a comment group", ref: "pcre2pattern (comments)", docs: docs, filter: re(`a(?#note)b`), projection: id, want: `[{"_id": 2}]`},
		{name: "a verb PCRE2 does not know", ref: "PCRE2 pcre2_error.c (ERR60)", docs: docs, filter: re(`(*NOPE)a`),
			code: 51091, msg: "Regular expression is invalid: (*VERB) not recognized or malformed"},
		{name: "a start-of-pattern item later in the pattern", ref: "PCRE2 pcre2_error.c (ERR60)", docs: docs, filter: re(`a(*UTF)`),
			code: 51091, msg: "Regular expression is invalid: (*VERB) not recognized or malformed"},
		{name: "(*MARK) without a name", ref: "PCRE2 pcre2_error.c (ERR66)", docs: docs, filter: re(`a(*MARK)`),
			code: 51091, msg: "Regular expression is invalid: (*MARK) must have an argument"},
		{name: "an unclosed comment", ref: "PCRE2 pcre2_error.c (ERR18)", docs: docs, filter: re(`a(?#note`),
			code: 51091, msg: "Regular expression is invalid: missing ) after (?# comment"},
		{name: "a possessive quantifier is refused", ref: "pcre2pattern (possessive quantifiers)", docs: docs, filter: re(`a++b`),
			code: mongoerr.NotImplemented, msg: "regular expressions with possessive quantifiers (`++`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		{name: "a lookahead is refused", ref: "pcre2pattern (lookahead assertions)", docs: docs, filter: re(`a(?=b)`),
			code: mongoerr.NotImplemented, msg: "regular expressions with lookaround assertions (`(?=`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		{name: "an atomic group is refused", ref: "pcre2pattern (atomic grouping)", docs: docs, filter: re(`(?>a)b`),
			code: mongoerr.NotImplemented, msg: "regular expressions with atomic groups (`(?>`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		// mongod compiles the whole pattern, so a pattern that does not
		// close is invalid whatever else it uses (jstests/core/query/regex/regex_error.js).
		{name: "an unclosed group is invalid though it uses a refused construct", ref: "jstests/core/query/regex/regex_error.js", docs: docs, filter: re(`(?J)(?<a>x)|(?<a>y`),
			code: 51091, msg: "Regular expression is invalid: missing closing parenthesis"},
		{name: "an unmatched ) is invalid though a lookahead comes first", ref: "PCRE2 pcre2_error.c (ERR22)", docs: docs, filter: re(`(?=a)b)`),
			code: 51091, msg: "Regular expression is invalid: unmatched closing parenthesis"},
		{name: "a quoted or escaped parenthesis pairs nothing", ref: "pcre2pattern (quoting)", docs: docs, filter: re(`(?=a)\\Q(\\E[(]\\(`),
			code: mongoerr.NotImplemented, msg: "regular expressions with lookaround assertions (`(?=`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		{name: "a POSIX class keeps its own ] when groups are paired", ref: "pcre2pattern (posix character classes)", docs: docs, filter: re(`(?=a)[[:alpha:])]`),
			code: mongoerr.NotImplemented, msg: "regular expressions with lookaround assertions (`(?=`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		{name: "a ( inside a comment group opens nothing", ref: "pcre2pattern (comments)", docs: docs, filter: re(`(?=a)(?#(note)b`),
			code: mongoerr.NotImplemented, msg: "regular expressions with lookaround assertions (`(?=`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
		{name: "(*COMMIT) before more than one item is refused", ref: "pcre2pattern (backtracking control)", docs: docs, filter: re(`(*COMMIT)ab`),
			code: mongoerr.NotImplemented, msg: "regular expressions with (*COMMIT) before more of the pattern are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
	})
}

// A document whose sort fields fan out of two different arrays has no sort
// key: SortKeyGenerator (src/mongo/db/exec/sort_key_generator.cpp) turns
// the key generator's CannotIndexParallelArrays into BadValue, for find,
// $sort and the sortBy of $topN and $setWindowFields alike. Fields under
// one array are not parallel (jstests/core/query/sort/sort_dotted_paths.js,
// sort_dotted_paths_parallel_arrays.js).
func TestSortParallelArrays(t *testing.T) {
	const ref = "src/mongo/db/exec/sort_key_generator.cpp; jstests/core/query/sort/sort_dotted_paths_parallel_arrays.js"
	const parallel = "cannot sort with keys that are parallel arrays"
	docs := `[{"_id": 1, "a": [], "b": 1}, {"_id": 2, "a": 1, "b": []}, {"_id": 3, "a": [1, 2], "b": [3, 4]}]`
	runFindCases(t, []findCase{
		{name: "find sorted on two top-level arrays", ref: ref, cov: cover{op: "find"}, docs: docs, sort: `{"a": 1, "b": 1}`,
			code: 2, msg: "Executor error during find command :: caused by :: " + parallel},
		{name: "find sorted on two arrays of one subdocument", ref: ref, cov: cover{op: "find"},
			docs: `[{"_id": 1, "a": {"b": [1, 2], "c": [3, 4]}}]`, sort: `{"a.b": 1, "a.c": -1}`,
			code: 2, msg: "Executor error during find command :: caused by :: " + parallel},
		{name: "find sorted on two fields under one array", ref: ref, cov: cover{op: "find"},
			docs: `[{"_id": 1, "a": [{"b": 1, "c": 2}, {"b": 3, "c": 0}]}, {"_id": 2, "a": [{"b": 0, "c": 5}]}]`, sort: `{"a.b": 1, "a.c": 1}`,
			want: `[{"_id": 2, "a": [{"b": 0, "c": 5}]}, {"_id": 1, "a": [{"b": 1, "c": 2}, {"b": 3, "c": 0}]}]`},
		// SortKeyGenerator takes the key generator's tuples: fields under
		// one array pair values from the same element ((c, b) = (1, 2)
		// for _id 2 and 5 comes before (1, 4) for _id 1 and 4), not the
		// smallest value of each field ((1, 1) for _id 1).
		{name: "find sorted on two fields under one array pairs each element's values", ref: ref + "; jstests/core/query/sort/sort_dotted_paths.js", cov: cover{op: "find"},
			docs: sortDottedPathDocs, sort: `{"a.c": 1, "a.b": 1, "_id": 1}`, projection: `{"_id": 1}`,
			want: `[{"_id": 2}, {"_id": 5}, {"_id": 1}, {"_id": 4}, {"_id": 6}, {"_id": 3}, {"_id": 8}, {"_id": 7}, {"_id": 9}]`},
		{name: "find sorted descending on the same fields", ref: ref + "; jstests/core/query/sort/sort_dotted_paths.js", cov: cover{op: "find"},
			docs: sortDottedPathDocs, sort: `{"a.c": -1, "a.b": -1, "_id": 1}`, projection: `{"_id": 1}`,
			want: `[{"_id": 8}, {"_id": 5}, {"_id": 9}, {"_id": 4}, {"_id": 6}, {"_id": 7}, {"_id": 3}, {"_id": 2}, {"_id": 1}]`},
		// A positional component that selects an array element holding
		// an array keys on that array, not on its elements.
		{name: "find sorted on a positional path to a nested array", ref: ref + "; jstests/core/query/sort/sort_dotted_paths.js", cov: cover{op: "find"},
			docs: `[{"_id": 6, "a": [1]}, {"_id": 7, "a": [[1]]}, {"_id": 5, "a": []}]`, sort: `{"a.0": -1, "_id": 1}`, projection: `{"_id": 1}`,
			want: `[{"_id": 7}, {"_id": 6}, {"_id": 5}]`},
		// The key generator reads an element that is not a document as
		// holding none of the rest of the path: null, the smallest key of
		// _id 1 ascending (btree_key_generator.cpp _getKeysArrEltFixed).
		{name: "find sorted through an array holding a scalar", ref: ref + "; src/mongo/db/index/btree_key_generator.cpp", cov: cover{op: "find"},
			docs: scalarInArrayDocs, sort: `{"a.b": 1}`, projection: `{"_id": 1}`, want: `[{"_id": 1}, {"_id": 3}, {"_id": 2}]`},
		{name: "find sorted descending through an array holding a scalar", ref: ref + "; src/mongo/db/index/btree_key_generator.cpp", cov: cover{op: "find"},
			docs: scalarInArrayDocs, sort: `{"a.b": -1}`, projection: `{"_id": 1}`, want: `[{"_id": 1}, {"_id": 3}, {"_id": 2}]`},
		{name: "find with one array among the sort fields", ref: ref, cov: cover{op: "find"},
			docs: `[{"_id": 1, "a": [5, 0], "b": 2}, {"_id": 2, "a": 1, "b": [1, 9]}]`, sort: `{"a": 1, "b": 1}`,
			want: `[{"_id": 1, "a": [5, 0], "b": 2}, {"_id": 2, "a": 1, "b": [1, 9]}]`},
	})
	runAggCases(t, []aggCase{
		{name: "$sort on two top-level arrays", ref: ref, docs: docs, pipeline: `[{"$sort": {"a": 1, "b": 1}}]`,
			code: 2, msg: planExecutor + parallel},
		{name: "$sort with a $limit on two top-level arrays", ref: ref, docs: docs, pipeline: `[{"$sort": {"b": -1, "a": 1}}, {"$limit": 1}]`,
			code: 2, msg: planExecutor + parallel},
		{name: "$sort on two fields under one array pairs each element's values", ref: ref + "; jstests/core/query/sort/sort_dotted_paths.js", docs: sortDottedPathDocs,
			pipeline: `[{"$sort": {"a.c": 1, "a.b": -1, "_id": 1}}, {"$project": {"_id": 1}}]`,
			want:     `[{"_id": 3}, {"_id": 6}, {"_id": 1}, {"_id": 4}, {"_id": 2}, {"_id": 5}, {"_id": 9}, {"_id": 7}, {"_id": 8}]`},
		{name: "$sort through an array holding a scalar", ref: ref + "; src/mongo/db/index/btree_key_generator.cpp", docs: scalarInArrayDocs,
			pipeline: `[{"$sort": {"a.b": 1}}]`, want: `[{"_id": 1, "a": [1, {"b": 5}]}, {"_id": 3, "a": [{"b": 4}, {"b": 2}]}, {"_id": 2, "a": {"b": 3}}]`},
		// The stage reads the fields it needs, which the query layer
		// projects (PROJECTION_DEFAULT {_id: 1, "a.b": 1}): the projection
		// keeps only the documents of a's array, so _id 1 sorts by 5.
		{name: "$topN sortBy on a dotted path reads the projected document", ref: ref + "; src/mongo/db/pipeline/pipeline_d.cpp", docs: scalarInArrayDocs,
			pipeline: `[{"$group": {"_id": null, "t": {"$topN": {"n": 2, "sortBy": {"a.b": 1}, "output": "$_id"}}}}]`, want: `[{"_id": null, "t": [3, 2]}]`},
		{name: "$sort after a stage reads the projected document", ref: ref + "; src/mongo/db/pipeline/pipeline_d.cpp", docs: scalarInArrayDocs,
			pipeline: `[{"$addFields": {"x": 1}}, {"$sort": {"a.b": 1}}, {"$project": {"_id": 1}}]`, want: `[{"_id": 3}, {"_id": 2}, {"_id": 1}]`},
		{name: "$topN sortBy on two top-level arrays", ref: ref, docs: docs,
			pipeline: `[{"$group": {"_id": null, "t": {"$topN": {"n": 1, "sortBy": {"a": 1, "b": 1}, "output": "$_id"}}}}]`,
			code:     2, msg: planExecutor + parallel},
	})
}

// scalarInArrayDocs have "a.b" keys {null, 5}, {3} and {2, 4}.
const scalarInArrayDocs = `[{"_id": 1, "a": [1, {"b": 5}]}, {"_id": 2, "a": {"b": 3}}, {"_id": 3, "a": [{"b": 4}, {"b": 2}]}]`

// sortDottedPathDocs are sort_dotted_paths.js's documents for a sort on
// two paths under one array.
const sortDottedPathDocs = `[{"_id": 1, "a": [{"b": 4, "c": 1}, {"b": 1, "c": 2}]}, {"_id": 2, "a": [{"b": 2, "c": 1}, {"b": 4, "c": 2}]},
	{"_id": 3, "a": [{"b": 6, "c": 1}, {"b": 9, "c": 2}]}, {"_id": 4, "a": [{"b": 4, "c": 1}, {"b": 5, "c": 3}]},
	{"_id": 5, "a": [{"b": 2, "c": 1}, {"b": 7, "c": 3}]}, {"_id": 6, "a": [{"b": 5, "c": 1}, {"b": 3, "c": 3}]},
	{"_id": 7, "a": [{"b": 7, "c": 2}, {"b": 2, "c": 3}]}, {"_id": 8, "a": [{"b": 3, "c": 2}, {"b": 8, "c": 3}]},
	{"_id": 9, "a": [{"b": 8, "c": 2}, {"b": 6, "c": 3}]}]`
