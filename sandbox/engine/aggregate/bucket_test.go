package aggregate

import "testing"

// The artists example of the $bucket manual page.
var artists = []string{
	`{"_id": 1, "last_name": "Bernard", "first_name": "Emil", "year_born": 1868, "year_died": 1941, "nationality": "France"}`,
	`{"_id": 2, "last_name": "Rippl-Ronai", "first_name": "Joszef", "year_born": 1861, "year_died": 1927, "nationality": "Hungary"}`,
	`{"_id": 3, "last_name": "Ostroumova", "first_name": "Anna", "year_born": 1871, "year_died": 1955, "nationality": "Russia"}`,
	`{"_id": 4, "last_name": "Van Gogh", "first_name": "Vincent", "year_born": 1853, "year_died": 1890, "nationality": "Holland"}`,
	`{"_id": 5, "last_name": "Maurer", "first_name": "Alfred", "year_born": 1868, "year_died": 1932, "nationality": "USA"}`,
	`{"_id": 6, "last_name": "Munch", "first_name": "Edvard", "year_born": 1863, "year_died": 1944, "nationality": "Norway"}`,
	`{"_id": 7, "last_name": "Redon", "first_name": "Odilon", "year_born": 1840, "year_died": 1916, "nationality": "France"}`,
	`{"_id": 8, "last_name": "Diriks", "first_name": "Edvard", "year_born": 1855, "year_died": 1930, "nationality": "Norway"}`,
}

func TestBucket(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "manual example", input: artists,
			pipeline: `[{"$bucket": {"groupBy": "$year_born", "boundaries": [1840, 1850, 1860, 1870, 1880], "default": "Other", "output": {"count": {"$sum": 1}, "artists": {"$push": {"name": {"$concat": ["$first_name", " ", "$last_name"]}, "year_born": "$year_born"}}}}}, {"$match": {"count": {"$gt": 3}}}]`,
			want:     []string{`{"_id": 1860, "count": 4, "artists": [{"name": "Emil Bernard", "year_born": 1868}, {"name": "Joszef Rippl-Ronai", "year_born": 1861}, {"name": "Alfred Maurer", "year_born": 1868}, {"name": "Edvard Munch", "year_born": 1863}]}`}},
		{name: "default count output, sorted by _id, default bucket sorts by value", input: append([]string{`{"_id": 9, "year_born": "unknown"}`}, artists...),
			pipeline: `[{"$bucket": {"groupBy": "$year_born", "boundaries": [1850, 1860, 1870], "default": "Other"}}]`,
			want:     []string{`{"_id": 1850, "count": 2}`, `{"_id": 1860, "count": 4}`, `{"_id": "Other", "count": 3}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "value outside without default", input: artists, pipeline: `[{"$bucket": {"groupBy": "$year_born", "boundaries": [1850, 1860]}}]`,
			code: 40066, msg: "$switch could not find a matching branch for an input, and no default was specified."},
		{name: "unsorted", pipeline: `[{"$bucket": {"groupBy": "$x", "boundaries": [0, 400, 200]}}]`,
			code: 40194, msg: "The 'boundaries' option to $bucket must be sorted, but elements 1 and 2 are not in ascending order (400 is not less than 200)."},
		{name: "mixed types", pipeline: `[{"$bucket": {"groupBy": "$x", "boundaries": [0, "a"]}}]`,
			code: 40193, msg: "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types int and string."},
		{name: "one boundary", pipeline: `[{"$bucket": {"groupBy": "$x", "boundaries": [0]}}]`,
			code: 40192, msg: "The $bucket 'boundaries' field must have at least 2 values, but found 1 value(s)."},
		{name: "default inside", pipeline: `[{"$bucket": {"groupBy": "$x", "boundaries": [0, 10], "default": 5}}]`, code: 40199},
		{name: "groupBy not a path", pipeline: `[{"$bucket": {"groupBy": "x", "boundaries": [0, 10]}}]`, code: 40202},
		{name: "missing", pipeline: `[{"$bucket": {"groupBy": "$x"}}]`, code: 40198, msg: "$bucket requires 'groupBy' and 'boundaries' to be specified."},
		{name: "unknown option", pipeline: `[{"$bucket": {"groupBy": "$x", "boundaries": [0, 1], "foo": 1}}]`, code: 40197, msg: "Unrecognized option to $bucket: foo."},
		{name: "not object", pipeline: `[{"$bucket": 1}]`, code: 40201, msg: "Argument to $bucket stage must be an object, but found type: int."},
	})
}

func TestBucketAuto(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "even buckets, each max is the next min", input: []string{`{"p": 1}`, `{"p": 2}`, `{"p": 3}`, `{"p": 4}`, `{"p": 5}`, `{"p": 6}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$p", "buckets": 3}}]`,
			want:     []string{`{"_id": {"min": 1, "max": 3}, "count": 2}`, `{"_id": {"min": 3, "max": 5}, "count": 2}`, `{"_id": {"min": 5, "max": 6}, "count": 2}`}},
		{name: "equal values stay together", input: []string{`{"p": 1}`, `{"p": 1}`, `{"p": 1}`, `{"p": 2}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$p", "buckets": 2, "output": {"s": {"$sum": "$p"}}}}]`,
			want:     []string{`{"_id": {"min": 1, "max": 2}, "s": 3}`, `{"_id": {"min": 2, "max": 2}, "s": 2}`}},
		{name: "more buckets than documents", input: []string{`{"p": 2}`, `{"p": 1}`},
			pipeline: `[{"$bucketAuto": {"groupBy": "$p", "buckets": 5}}]`,
			want:     []string{`{"_id": {"min": 1, "max": 2}, "count": 1}`, `{"_id": {"min": 2, "max": 2}, "count": 1}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "missing buckets", pipeline: `[{"$bucketAuto": {"groupBy": "$p"}}]`, code: 40246},
		{name: "zero buckets", pipeline: `[{"$bucketAuto": {"groupBy": "$p", "buckets": 0}}]`, code: 40243},
	})
}
