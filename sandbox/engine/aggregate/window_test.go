package aggregate

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

var cakeSales = []string{
	`{"_id": 0, "type": "chocolate", "orderDate": {"$date": "2020-05-18T14:10:30Z"}, "state": "CA", "price": 13, "quantity": 120}`,
	`{"_id": 1, "type": "chocolate", "orderDate": {"$date": "2021-03-20T11:30:05Z"}, "state": "WA", "price": 14, "quantity": 140}`,
	`{"_id": 2, "type": "vanilla", "orderDate": {"$date": "2021-01-11T06:31:15Z"}, "state": "CA", "price": 12, "quantity": 145}`,
	`{"_id": 3, "type": "vanilla", "orderDate": {"$date": "2020-02-08T13:13:23Z"}, "state": "WA", "price": 13, "quantity": 104}`,
	`{"_id": 4, "type": "strawberry", "orderDate": {"$date": "2019-05-18T16:09:01Z"}, "state": "CA", "price": 41, "quantity": 162}`,
	`{"_id": 5, "type": "strawberry", "orderDate": {"$date": "2019-01-08T06:12:03Z"}, "state": "WA", "price": 43, "quantity": 134}`,
}

func TestSetWindowFields(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "cumulative sum per partition (manual)", input: cakeSales,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$state", "sortBy": {"orderDate": 1}, "output": {"cumulativeQuantityForState": {"$sum": "$quantity", "window": {"documents": ["unbounded", "current"]}}}}}, {"$project": {"state": 1, "c": "$cumulativeQuantityForState"}}]`,
			want: []string{
				`{"_id": 4, "state": "CA", "c": 162}`, `{"_id": 0, "state": "CA", "c": 282}`, `{"_id": 2, "state": "CA", "c": 427}`,
				`{"_id": 5, "state": "WA", "c": 134}`, `{"_id": 3, "state": "WA", "c": 238}`, `{"_id": 1, "state": "WA", "c": 378}`}},
		{name: "moving average over documents [-1, 0] and whole-partition total", input: cakeSales,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$state", "sortBy": {"orderDate": 1}, "output": {"avg": {"$avg": "$quantity", "window": {"documents": [-1, 0]}}, "total": {"$sum": "$quantity"}}}}, {"$project": {"avg": 1, "total": 1}}]`,
			want: []string{
				`{"_id": 4, "avg": 162.0, "total": 427}`, `{"_id": 0, "avg": 141.0, "total": 427}`, `{"_id": 2, "avg": 132.5, "total": 427}`,
				`{"_id": 5, "avg": 134.0, "total": 378}`, `{"_id": 3, "avg": 119.0, "total": 378}`, `{"_id": 1, "avg": 122.0, "total": 378}`}},
		{name: "rank, denseRank, documentNumber, shift", input: []string{`{"_id": 1, "s": 10}`, `{"_id": 2, "s": 20}`, `{"_id": 3, "s": 10}`, `{"_id": 4, "s": 30}`},
			pipeline: `[{"$setWindowFields": {"sortBy": {"s": 1}, "output": {"r": {"$rank": {}}, "d": {"$denseRank": {}}, "n": {"$documentNumber": {}}, "prev": {"$shift": {"output": "$_id", "by": -1, "default": "none"}}}}}]`,
			want: []string{
				`{"_id": 1, "s": 10, "r": 1, "d": 1, "n": 1, "prev": "none"}`, `{"_id": 3, "s": 10, "r": 1, "d": 1, "n": 2, "prev": 1}`,
				`{"_id": 2, "s": 20, "r": 3, "d": 2, "n": 3, "prev": 3}`, `{"_id": 4, "s": 30, "r": 4, "d": 3, "n": 4, "prev": 2}`}},
		{name: "range window", input: []string{`{"_id": 1, "t": 1, "v": 1}`, `{"_id": 2, "t": 2, "v": 2}`, `{"_id": 3, "t": 5, "v": 3}`},
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": 1}, "output": {"s": {"$sum": "$v", "window": {"range": [-1, 1]}}}}}, {"$project": {"s": 1}}]`,
			want:     []string{`{"_id": 1, "s": 3}`, `{"_id": 2, "s": 3}`, `{"_id": 3, "s": 3}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "rank without sortBy", pipeline: `[{"$setWindowFields": {"output": {"r": {"$rank": {}}}}}]`, code: 5371602},
		{name: "no output", pipeline: `[{"$setWindowFields": {"sortBy": {"a": 1}}}]`, code: mongoerr.IDLFailedToParse},
	})
}
