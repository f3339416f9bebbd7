package shell

import (
	"context"
	"testing"
)

// Expected outputs below were printed by mongosh 2.x (--nodb).
func TestHelpersWithoutServer(t *testing.T) {
	sh, err := New(nil, "test", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ src, want string }{
		{`print(JSON.stringify({o: ObjectId("6ad39b39a4366d64684ef1bf"), l: Long("5"), i: Int32(3), d: Double(2.5), dec: Decimal128("1.1"), ts: Timestamp({t: 1, i: 2}), b: BinData(0, "AQID"), u: UUID("0123456789abcdef0123456789abcdef"), mn: MinKey(), mx: MaxKey(), c: Code("x"), r: DBRef("c", 1), re: BSONRegExp("a", "i"), dt: ISODate("2026-01-01T00:00:00Z")}))`,
			`{"o":"6ad39b39a4366d64684ef1bf","l":{"high":0,"low":5,"unsigned":false},"i":3,"d":2.5,"dec":{"$numberDecimal":"1.1"},"ts":{"$timestamp":"4294967298"},"b":"AQID","u":"ASNFZ4mrze8BI0VniavN7w==","mn":{},"mx":{},"c":{"code":"x"},"r":{"$ref":"c","$id":1},"re":{"pattern":"a","options":"i"},"dt":"2026-01-01T00:00:00.000Z"}` + "\n"},
		{`print(EJSON.stringify({ a: NumberLong("1"), i: 5, f: 1.5, d: ISODate("2026-01-01T00:00:00Z"), o: ObjectId("6ad39b39a4366d64684ef1bf"), dec: NumberDecimal("1.1"), b: BinData(0,"AQID"), r: /a/i, n: null, arr: [1, "x"] }))`,
			`{"a":1,"i":5,"f":1.5,"d":{"$date":"2026-01-01T00:00:00Z"},"o":{"$oid":"6ad39b39a4366d64684ef1bf"},"dec":{"$numberDecimal":"1.1"},"b":{"$binary":{"base64":"AQID","subType":"00"}},"r":{"$regularExpression":{"pattern":"a","options":"i"}},"n":null,"arr":[1,"x"]}` + "\n"},
		{`print(EJSON.stringify({a: 1, b: [1,2]}, null, 2))`, "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}\n"},
		{`NumberLong(1); NumberDecimal(1.5); print(Long(5), NumberInt("7"))`,
			"Warning: NumberLong: specifying a number as argument is deprecated and may lead to loss of precision, pass a string instead\n" +
				"Warning: NumberDecimal: specifying a number as argument is deprecated and may lead to loss of precision, pass a string instead\n" +
				"Long('5') Int32(7)\n"},
		{`ObjectId("6ad39b39a4366d64684ef1bf").getTimestamp()`, "ISODate('2026-10-17T15:58:49.000Z')\n"},
		{`ObjectId("6ad39b39a4366d64684ef1bf").toString()`, "6ad39b39a4366d64684ef1bf\n"},
		{`[1, 2, 3].map(x => x * 2)`, "[ 2, 4, 6 ]\n"},
	}
	for _, c := range cases {
		res, err := sh.Eval(context.Background(), c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if res.Transcript != c.want {
			t.Errorf("%s\n got: %q\nwant: %q", c.src, res.Transcript, c.want)
		}
	}
}

func TestRedeclareTopLevel(t *testing.T) {
	sh, err := New(nil, "test", Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sh.Eval(context.Background(), "const a = 1\nconst a = 2\na\nlet b = 1\nlet b = 3\nb\nclass C {}\nclass C { x() { return 5 } }\nnew C().x()")
	if err != nil || res.Transcript != "2\n3\n5\n" {
		t.Fatalf("%v %q", err, res.Transcript)
	}
}

// Every file of prelude/ runs: a file added there but not to
// preludeFiles would silently be left out.
func TestPreludeFilesAreAllListed(t *testing.T) {
	entries, err := preludeFS.ReadDir("prelude")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, f := range preludeFiles() {
		listed[f] = true
	}
	for _, e := range entries {
		if !listed[e.Name()] {
			t.Errorf("prelude/%s is not in preludeFiles", e.Name())
		}
	}
	if len(entries) != len(preludeFiles()) {
		t.Errorf("%d files in prelude/, %d listed", len(entries), len(preludeFiles()))
	}
}
