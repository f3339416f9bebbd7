package lessons

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/schemalab/schemalab/content"
)

// A template that crosses to a student's process as bytes seeds a runner
// there as the template itself does: the same outputs at every step, with
// the setup taken from it rather than run, and the same goals of its
// exercises. The decoded template points at the receiving process's own
// copy of the lesson.
func TestTemplateSurvivesBytes(t *testing.T) {
	ctx := context.Background()
	be := startSandbox(t)
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := cat.Find("bucket")
	tpl, err := BuildTemplate(ctx, &Sandbox{Connect: be.Connect, Prefix: "tpl_"}, l, TemplateOptions{Goals: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tpl.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The student's process loads the lessons itself.
	again, _ := Load(content.FS)
	theirs := again.Find("bucket")
	back, err := UnmarshalTemplate(theirs, raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.Database() != tpl.Database() || fmt.Sprint(back.Problems()) != fmt.Sprint(tpl.Problems()) || !back.Complete() {
		t.Fatalf("decoded template: db %s problems %v complete %v; want %s %v", back.Database(), back.Problems(), back.Complete(), tpl.Database(), tpl.Problems())
	}
	if len(tpl.goals) == 0 || !reflect.DeepEqual(back.goals, tpl.goals) {
		t.Errorf("the exercises' goals: %d in the template, and decoded\n%#v\nnot\n%#v", len(tpl.goals), back.goals, tpl.goals)
	}
	seeded := func(tp *Template, l *Lesson, prefix string) (*Session, func(string) int) {
		sb, sent := countingSandbox(be, prefix)
		sd := seedsFrom(t, be, tp)
		sb.Seeds = func(context.Context, *Lesson, string) (*Seeds, error) { return sd, nil }
		r := NewSession(sb, l, SessionOptions{})
		t.Cleanup(func() { r.Close() })
		return r, sent
	}
	here, sentHere := seeded(tpl, l, "here_")
	there, sent := seeded(back, theirs, "there_")
	for i := range l.Steps {
		want, err := here.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		got, err := there.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		if w, g := shown(want), shown(got); g != w && !races(&l.Steps[i]) {
			t.Errorf("step %d from the decoded template:\n%s\nfrom the template itself:\n%s", i+1, g, w)
		}
	}
	if n, want := sent("insert"), sentHere("insert"); n != want {
		t.Errorf("the runner seeded from the decoded template sent %d inserts, the template's own %d: the setup ran in its session", n, want)
	}
	for _, bad := range [][]byte{nil, raw[:len(raw)/2], []byte("not a template")} {
		if _, err := UnmarshalTemplate(theirs, bad); err == nil {
			t.Errorf("%d bytes of junk decoded as a template", len(bad))
		}
	}
	if _, err := UnmarshalTemplate(again.Find("tree"), raw); err == nil {
		t.Error("the bucket lesson's template decoded as the tree lesson's")
	}
}

// A step's result, comparison variants and pictures included, shows the
// same after crossing to another process as bytes, and is refused for
// another step.
func TestResultSurvivesBytes(t *testing.T) {
	ctx := context.Background()
	be := startSandbox(t)
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := cat.Find("tree")
	r := newTestRunner(t, be, l, "codec_")
	for i, st := range l.Steps {
		if len(st.Code(Compare)) == 0 {
			continue
		}
		res, err := r.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil || !res.OK() {
			t.Fatalf("step %d: %v %v", i+1, err, res.Failures)
		}
		raw, err := res.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalResult(l, i, raw)
		if err != nil {
			t.Fatal(err)
		}
		if shown(back) != shown(res) || !reflect.DeepEqual(back.Pictures, res.Pictures) {
			t.Errorf("step %d after bytes:\n%s\nbefore:\n%s", i+1, shown(back), shown(res))
		}
		if _, err := UnmarshalResult(l, i+1, raw); err == nil {
			t.Errorf("step %d's result was taken for step %d", i+1, i+2)
		}
		return
	}
	t.Fatal("the tree lesson has no comparison")
}
