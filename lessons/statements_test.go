package lessons

import (
	"context"
	"strings"
	"testing"
)

const widthLesson = `---
id: widths
title: Widths
summary: Outputs at the width they are shown in.
order: 1
---

## Three statements

` + "```js run" + `
db.w.drop();
db.w.insertOne({ _id: 1, name: 'a moderately long name', city: 'Jakarta' });
print('inserted');
db.w.findOne()
` + "```" + `

## Read by an expectation

` + "```js run" + `
db.w.findOne()
` + "```" + `

` + "```text expect" + `
{ _id: 1, name: 'a moderately long name', city: 'Jakarta' }
` + "```" + `
`

// Each statement's output comes with its lines, print() with the
// statement that printed, at the width the view asks for; output that an
// expectation reads stays at mongosh's 80 columns.
func TestStatementsAtTheirWidth(t *testing.T) {
	l, err := Parse("widths.md", []byte(widthLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, startSandbox(t), l, "wid_")
	res, err := r.Do(context.Background(), Request{Op: OpRun, Widths: Widths{Output: 40}})
	if err != nil || !res.OK() {
		t.Fatalf("%v %+v", err, res.Failures)
	}
	b := res.Blocks[0]
	sts := b.Statements
	if len(sts) != 4 {
		t.Fatalf("statements = %+v", sts)
	}
	if sts[2].StartLine != 3 || sts[2].Printed != "inserted" || sts[2].Output != "" {
		t.Errorf("print() is not its statement's: %+v", sts[2])
	}
	last := sts[3]
	if last.StartLine != 4 || !strings.Contains(last.Output, "\n") {
		t.Errorf("the last statement's output at 40 columns: %+v", last)
	}
	for _, line := range strings.Split(last.Output, "\n") {
		if len(line) > 40 {
			t.Errorf("a line wider than 40: %q", line)
		}
	}
	// The second step's output is read by its expectation, which was
	// written against mongosh's layout: it passes at any width.
	res, err = r.Do(context.Background(), Request{Op: OpRun, Step: 1, Widths: Widths{Output: 40}})
	if err != nil || !res.OK() {
		t.Fatalf("the expectation failed at a narrow width: %v %+v", err, res.Failures)
	}
}
