package compat_test

import (
	"strconv"
	"testing"
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
