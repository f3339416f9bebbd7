package shell

import (
	"context"
	"testing"
)

// BenchmarkBuildAndConvert144k measures the JS side of the 144k-readings
// figure: building the documents in a loop and converting them to BSON.
func BenchmarkBuildAndConvert144k(b *testing.B) {
	sh, err := New(nil, "bench", Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := sh.Eval(context.Background(), `
var docs = []
var start = new Date('2026-01-01T00:00:00Z').getTime()
for (let i = 0; i < 144000; i++) {
  docs.push({ sensorId: i % 100, ts: new Date(start + i * 60000), temperature: 20 + (i % 50) / 10, humidity: 40 + (i % 30), status: 'ok' })
}`); err != nil {
			b.Fatal(err)
		}
		arr := sh.vm.Get("docs").ToObject(sh.vm)
		var buf []byte
		for i := range 144000 {
			var err error
			buf, _, err = sh.encodeDoc(buf, arr.Get(indexKey(i)).ToObject(sh.vm), true)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMapGuardLayout is what the first shell of a process pays once
// to map the built-ins its guards wrap: every `schemalab` command that
// runs JavaScript waits for it before its first statement.
//
//	go test -run '^$' -bench MapGuardLayout ./sandbox/shell
func BenchmarkMapGuardLayout(b *testing.B) {
	for b.Loop() {
		l, err := mapGuardLayout()
		if err != nil || len(l.Owners) == 0 {
			b.Fatal(err)
		}
	}
}
