package aggregate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Odd specifications must fail with a MongoDB error, never panic.
func TestMalformedSpecsFailCleanly(t *testing.T) {
	specs := []string{
		`[{"$group": {"_id": null, "x": {"$topN": 1}}}]`,
		`[{"$group": {"_id": null, "x": {"$topN": {"n": 0, "sortBy": {"a": 1}, "output": "$a"}}}}]`,
		`[{"$group": {"_id": null, "x": {"$firstN": {"input": "$a"}}}}]`,
		`[{"$group": {"_id": null, "x": {"$count": 1}}}]`,
		`[{"$group": {"_id": null, "x": {}}}]`,
		`[{"$bucketAuto": {"groupBy": "$a", "buckets": 1.5}}]`,
		`[{"$bucketAuto": {"groupBy": "$a", "buckets": 2, "granularity": "R7"}}]`,
		`[{"$bucketAuto": 1}]`,
		`[{"$setWindowFields": {"output": {"a": 1}}}]`,
		`[{"$setWindowFields": {"output": {"a": {"$foo": 1}}}}]`,
		`[{"$setWindowFields": {"sortBy": {"a": 1}, "output": {"a": {"$sum": 1, "window": {"documents": [1]}}}}}]`,
		`[{"$lookup": {"from": "x", "as": "y", "pipeline": [1]}}]`,
		`[{"$lookup": {"from": "x", "as": "y", "pipeline": 1}}]`,
		`[{"$lookup": {"from": 1, "as": "y"}}]`,
		`[{"$lookup": {"as": "y", "localField": "a", "foreignField": "b"}}]`,
		`[{"$graphLookup": 1}]`,
		`[{"$graphLookup": {"from": "g", "startWith": "$a", "connectFromField": "x", "connectToField": "z", "as": "y", "restrictSearchWithMatch": {"a": {"$bad": 1}}}}]`,
		`[{"$merge": {"into": 1}}]`,
		`[{"$merge": {"into": "x", "whenMatched": "bad"}}]`,
		`[{"$merge": {"into": "x", "whenMatched": [{"$match": {}}]}}]`,
		`[{"$merge": {"into": "x", "on": []}}]`,
		`[{"$merge": 1}]`,
		`[{"$merge": {}}]`,
		`[{"$out": 1}]`,
		`[{"$out": {"db": "x"}}]`,
		`[{"$unwind": {"path": ""}}]`,
		`[{"$unwind": "$"}]`,
		`[{"$unwind": {"path": "$a", "includeArrayIndex": "$i"}}]`,
		`[{"$project": {"a": {}}}]`,
		`[{"$project": 1}]`,
		`[{"$project": {"": 1}}]`,
		`[{"$project": {"a..b": 1}}]`,
		`[{"$addFields": 1}]`,
		`[{"$replaceRoot": {"foo": 1}}]`,
		`[{"$replaceRoot": {}}]`,
		`[{"$replaceRoot": 1}]`,
		`[{"$facet": {}}]`,
		`[{"$facet": {"a": 1}}]`,
		`[{"$facet": {"a": [1]}}]`,
		`[{"$facet": {"a": [{"$collStats": {}}]}}]`,
		`[{"$sample": {}}]`,
		`[{"$sample": {"size": "a"}}]`,
		`[{"$sample": 1}]`,
		`[{"$unionWith": 1}]`,
		`[{"$unionWith": {"pipeline": [{"$limit": 1}]}}]`,
		`[{"$unionWith": {"coll": "x", "foo": 1}}]`,
		`[{"$collStats": {"foo": {}}}]`,
		`[{"$indexStats": {"a": 1}}]`,
		`[{"$sortByCount": 1}]`,
		`[{"$sort": {"a": {"$meta": "textScore"}}}]`,
		`[{"$count": 1}]`,
		`[{"$skip": 1.5}]`,
		`[{"$documents": 1}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": 1}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, "$x"]}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": 1}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "default": "$x"}}]`,
	}
	for _, s := range specs {
		db := newFakeDB()
		_, err := runPipeline(t, db.context(), docs(t, `{"a": 1}`), pipe(t, s))
		if err == nil {
			t.Errorf("%s: no error", s)
			continue
		}
		if _, ok := err.(*mongoerr.Error); !ok {
			t.Errorf("%s: %T %v is not a *mongoerr.Error", s, err, err)
		}
	}
}

// Loops whose length depends on the data must end: with an answer, with
// mongod's error for a value it refuses, or, when the work is legitimately
// long, at the command's deadline (maxTimeMS reaches the stages through
// Context.Ctx). None may run on after the deadline.
func TestDataDependentLoopsEnd(t *testing.T) {
	many := make([]string, 20000)
	for i := range many {
		many[i] = fmt.Sprintf(`{"_id": %d, "k": %d}`, i, i)
	}
	cases := []struct {
		name     string
		input    []string
		pipeline string
		code     int32 // 0: any result or error, as long as it ends; MaxTimeMSExpired: stopped by the deadline
	}{
		{name: "bucketAuto R80 on a denormal", input: []string{`{"v": 4.94e-324}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 8, "granularity": "R80"}}]`},
		{name: "bucketAuto on the largest double", input: []string{`{"v": 1.7976931348623157e308}`, `{"v": 1}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "E192"}}]`},
		{name: "bucketAuto on infinity", input: []string{`{"v": {"$numberDouble": "Infinity"}}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "R5"}}]`, code: 11785400},
		{name: "bucketAuto on a huge decimal", input: []string{`{"v": {"$numberDecimal": "1E+6000"}}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "1-2-5"}}]`, code: 11785400},
		{name: "bucketAuto POWERSOF2 on a denormal", input: []string{`{"v": 4.94e-324}`, `{"v": 1e-300}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "POWERSOF2"}}]`},
		{name: "map over a map over ranges", input: []string{`{}`},
			pipeline: `[{"$project": {"r": {"$map": {"input": {"$range": [0, 500000]}, "in": {"$size": {"$range": [0, {"$mod": ["$$this", 10000]}]}}}}}}]`,
			code:     mongoerr.MaxTimeMSExpired},
		{name: "reduce over a big range", input: []string{`{}`},
			pipeline: `[{"$project": {"r": {"$reduce": {"input": {"$range": [0, 500000]}, "initialValue": 0,
				"in": {"$add": ["$$value", {"$size": {"$filter": {"input": {"$range": [0, {"$mod": ["$$this", 10000]}]}, "cond": true}}}]}}}}}]`,
			code: mongoerr.MaxTimeMSExpired},
		{name: "range window over a big partition", input: many,
			pipeline: `[{"$setWindowFields": {"sortBy": {"k": 1}, "output": {"s": {"$sum": "$k", "window": {"range": [-100000, 100000]}}}}}]`,
			code:     mongoerr.MaxTimeMSExpired},
		{name: "dateTrunc with a huge binSize", input: []string{`{"d": {"$date": "2024-01-01T00:00:00Z"}}`},
			pipeline: `[{"$project": {"t": {"$dateTrunc": {"date": "$d", "unit": "hour", "binSize": {"$numberLong": "9000000000000000000"}}}}}]`},
		{name: "dateAdd with a huge amount", input: []string{`{"d": {"$date": "2024-01-01T00:00:00Z"}}`},
			pipeline: `[{"$project": {"t": {"$dateAdd": {"startDate": "$d", "unit": "month", "amount": {"$numberLong": "9000000000000000000"}}}}}]`},
		{name: "dateDiff across the whole range", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$dateDiff": {"startDate": {"$toDate": {"$numberLong": "-9000000000000000"}}, "endDate": {"$toDate": {"$numberLong": "9000000000000000"}}, "unit": "week"}}}}]`},
		{name: "dateFromParts with huge parts", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$dateFromParts": {"year": 2000, "month": 32767, "day": 32767, "hour": 32767, "minute": 32767, "second": 32767, "millisecond": 32767}}}}]`},
		{name: "pow of a decimal by a huge exponent", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$pow": [{"$numberDecimal": "1.0000001"}, {"$numberDecimal": "1E+30"}]}}}]`},
		{name: "decimal to string at the exponent's edge", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$toString": {"$numberDecimal": "9.999999999999999999999999999999999E+6144"}}, "u": {"$toString": {"$numberDecimal": "1E-6176"}}}}]`},
		{name: "round a decimal at a far place", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$round": [{"$numberDecimal": "1E+6144"}, 100]}, "u": {"$trunc": [{"$numberDecimal": "1E-6176"}, -20]}}}]`},
		{name: "mod of far-apart decimals", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$mod": [{"$numberDecimal": "1E+6144"}, {"$numberDecimal": "7E-6176"}]}}}]`},
		{name: "add far-apart decimals", input: []string{`{}`},
			pipeline: `[{"$project": {"t": {"$add": [{"$numberDecimal": "1E+6144"}, {"$numberDecimal": "1E-6176"}]}}}]`},
		{name: "set operators on big arrays", input: []string{`{}`},
			pipeline: `[{"$project": {"u": {"$size": {"$setUnion": [{"$range": [0, 300000]}, {"$range": [150000, 450000]}]}},
				"d": {"$size": {"$setDifference": [{"$range": [0, 300000]}, {"$range": [1, 300000, 2]}]}},
				"e": {"$setEquals": [{"$range": [0, 300000]}, {"$reverseArray": {"$range": [0, 300000]}}]}}}]`},
		{name: "arrayToObject with many keys", input: []string{`{}`},
			pipeline: `[{"$project": {"o": {"$size": {"$objectToArray": {"$arrayToObject": {"$map": {"input": {"$range": [0, 200000]}, "in": [{"$toString": "$$this"}, 1]}}}}}}}]`},
		{name: "regex on a long string", input: []string{`{"s": "` + strings.Repeat("a", 100000) + `"}`},
			pipeline: `[{"$project": {"t": {"$regexFindAll": {"input": "$s", "regex": "(a*)*b|"}}}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			c := newFakeDB().context()
			c.Ctx = ctx
			input := docs(t, tc.input...)
			pipeline := pipe(t, tc.pipeline)
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := runPipeline(t, c, input, pipeline)
				done <- err
			}()
			select {
			case err := <-done:
				if elapsed := time.Since(start); tc.code == mongoerr.MaxTimeMSExpired && elapsed > 3*time.Second {
					t.Errorf("ran %v, long after its 300ms deadline", elapsed)
				}
				if tc.code != 0 {
					me, ok := err.(*mongoerr.Error)
					if !ok || me.Code != tc.code {
						t.Errorf("error %v, want code %d", err, tc.code)
					}
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still running 20s after a 300ms deadline")
			}
		})
	}
}
