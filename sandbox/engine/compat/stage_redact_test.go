package compat_test

import "testing"

const (
	redactSrc    = "src/mongo/db/pipeline/document_source_redact.cpp"
	redactManual = "manual: reference/operator/aggregation/redact"
)

func TestStageRedact(t *testing.T) {
	// Access levels at every depth, as the manual's "accounts" example has
	// them: a document or subdocument whose level is 5 is pruned.
	accounts := `[{"_id": 1, "level": 1, "acct_id": "xyz123",
		"cc": {"level": 5, "type": "yy", "num": 1234, "exp_date": {"$date": "2015-11-01T00:00:00Z"},
			"billing_addr": {"level": 5, "addr1": "123 ABC Street", "city": "Some City"},
			"shipping_addr": [{"level": 3, "addr1": "987 XYZ Ave", "city": "Some City"},
				{"level": 3, "addr1": "PO Box 0123", "city": "Some City"}]},
		"status": "A"}]`
	byLevel := `{"$redact": {"$cond": {"if": {"$eq": ["$level", 5]}, "then": "$$PRUNE", "else": "$$DESCEND"}}}`
	nested := `[{"_id": 1, "keep": true, "a": {"keep": false, "x": 1}, "b": [{"keep": true, "y": 2}, {"keep": false}, 3, [{"keep": false}, {"keep": true, "z": 4}]], "c": "s"}]`
	keepFlag := `{"$redact": {"$cond": [{"$eq": ["$keep", false]}, "$$PRUNE", "$$DESCEND"]}}`
	runAggCases(t, []aggCase{
		{name: "descend prunes every subdocument at level 5", ref: redactManual, docs: accounts,
			pipeline: `[` + byLevel + `]`,
			want:     `[{"_id": 1, "level": 1, "acct_id": "xyz123", "status": "A"}]`},
		{name: "keep returns the document as it is, even what deeper levels would prune", ref: redactSrc, docs: accounts,
			pipeline: `[{"$redact": {"$cond": [{"$eq": ["$level", 1]}, "$$KEEP", "$$PRUNE"]}}, {"$project": {"cc.level": 1}}]`,
			want:     `[{"_id": 1, "cc": {"level": 5}}]`},
		{name: "prune at the top drops the document", ref: redactSrc, docs: `[{"_id": 1, "keep": false}, {"_id": 2}]`,
			pipeline: `[` + keepFlag + `]`, want: `[{"_id": 2}]`},
		{name: "descend into arrays: documents redacted, nested arrays walked, scalars kept", ref: redactSrc, docs: nested,
			pipeline: `[` + keepFlag + `]`,
			want:     `[{"_id": 1, "keep": true, "b": [{"keep": true, "y": 2}, 3, [{"keep": true, "z": 4}]], "c": "s"}]`},
		{name: "CURRENT is the subdocument, ROOT the whole document", ref: redactSrc,
			docs:     `[{"_id": 1, "tag": "t", "sub": {"tag": "u", "deep": {"tag": "t"}}}]`,
			pipeline: `[{"$redact": {"$cond": [{"$eq": ["$tag", "$$ROOT.tag"]}, "$$DESCEND", "$$PRUNE"]}}]`,
			want:     `[{"_id": 1, "tag": "t"}]`},
		{name: "the variables are the strings keep, prune and descend", ref: redactSrc, docs: `[{"_id": 1, "a": {"b": 1}}]`,
			pipeline: `[{"$redact": {"$literal": "descend"}}]`, want: `[{"_id": 1, "a": {"b": 1}}]`},
		{name: "set intersection of tags, as the manual's forecasts", ref: redactManual,
			docs: `[{"_id": 1, "tags": ["G", "STLW"], "year": 2014,
				"subsections": [{"subtitle": "Section 1", "tags": ["SI", "G"], "content": "Section 1"},
					{"subtitle": "Section 2", "tags": ["STLW"], "content": "Section 2"},
					{"subtitle": "Section 3", "tags": ["TK"], "content": {"text": "Section 3", "tags": ["HCS"]}}]}]`,
			pipeline: `[{"$redact": {"$cond": {"if": {"$gt": [{"$size": {"$setIntersection": ["$tags", ["STLW", "G"]]}}, 0]}, "then": "$$DESCEND", "else": "$$PRUNE"}}}]`,
			want: `[{"_id": 1, "tags": ["G", "STLW"], "year": 2014,
				"subsections": [{"subtitle": "Section 1", "tags": ["SI", "G"], "content": "Section 1"},
					{"subtitle": "Section 2", "tags": ["STLW"], "content": "Section 2"}]}]`},
		{name: "any other result fails, naming it", ref: redactSrc, docs: `[{"_id": 1}]`,
			pipeline: `[{"$redact": "yes"}]`, code: 17053,
			msg: planExecutor + `$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned "yes"`},
		{name: "a missing result fails too", ref: redactSrc, docs: `[{"_id": 1}]`,
			pipeline: `[{"$redact": "$nosuch"}]`, code: 17053,
			msg: planExecutor + `$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned MISSING`},
		{name: "KEEP is not a variable outside $redact", ref: redactSrc, docs: `[{"_id": 1}]`,
			pipeline: `[{"$project": {"k": "$$KEEP"}}]`, code: 17276, msg: "Invalid $project :: caused by :: Use of undefined variable: KEEP"},
		{name: "an invalid expression fails when parsed", ref: redactSrc, docs: `[{"_id": 1}]`,
			pipeline: `[{"$redact": {"$nosuchop": 1}}]`, code: 168, msg: "Unrecognized expression '$nosuchop'"},
	})
}
