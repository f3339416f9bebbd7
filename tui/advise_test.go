package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/advise"
	"github.com/schemalab/schemalab/sandbox"
)

// The whole way, as a learner goes it: the catalog's last entry opens the
// advise page on a server of its own, enter analyses the one database,
// whose tags arrays have a long tail; o opens the outlier lesson the
// finding names, esc comes back to the findings, and esc twice more to
// the catalog.
func TestAdviseOpensTheFindingsLesson(t *testing.T) {
	ctx := context.Background()
	be, err := sandbox.Open(ctx, sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close() })
	client, err := be.NewClient(ctx, sandbox.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]any, 0, 502)
	for i := range 502 {
		n := 3 + i%5
		if i >= 500 {
			n = 10_000
		}
		tags := make(bson.A, n)
		for j := range tags {
			tags[j] = "t"
		}
		docs = append(docs, bson.M{"tags": tags})
	}
	if _, err := client.Database("blog").Collection("posts").InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	_ = client.Disconnect(ctx)

	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := Options{Catalog: cat, ExerciseDir: t.TempDir(), Connect: func(context.Context) (*lessons.Sandbox, error) {
		sb := testSandbox(be)
		sb.ReadOnly = advise.FromBackend(be).ReadOnly
		return sb, nil
	}}
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitConnected(t, tm)
		for range len(cat.Lessons) {
			tm.Send(press("j"))
		}
		waitFor(t, tm, "Point")
		tm.Send(press("enter"))
		waitFor(t, tm, "blog")
		tm.Send(press("enter"))
		waitFor(t, tm, "posts.tags")
		tm.Send(press("o"))
		waitFor(t, tm, "introduction")
		tm.Send(press("esc"))
		waitFor(t, tm, "findings")
	})
	s := screen(m)
	if !strings.Contains(s, "▸ outlier: posts.tags (high confidence)") {
		t.Errorf("esc from the lesson does not come back to the findings:\n%s", s)
	}
	if m.lesson != nil || m.advise == nil {
		t.Errorf("lesson %v, advise page %v: want the advise page alone", m.lesson != nil, m.advise != nil)
	}
}

// Without a read-only client (a classroom's students share the server),
// the catalog has no advise entry.
func TestNoAdviseWithoutReadOnly(t *testing.T) {
	m := drive(t, testOptions(t), 80, 24, func(tm *teatest.TestModel) { waitConnected(t, tm) })
	if strings.Contains(screen(m), "Advise a database") {
		t.Errorf("the catalog offers advise:\n%s", screen(m))
	}
}

// The catalog with its advise entry, selected, after the lessons, at
// each size.
func TestAdviseCatalogScreens(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Connect = func(context.Context) (*lessons.Sandbox, error) {
			sb := testSandbox(testBackend)
			sb.ReadOnly = advise.FromBackend(testBackend).ReadOnly
			return sb, nil
		}
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitConnected(t, tm)
			for range opts.Catalog.Lessons {
				tm.Send(press("j"))
			}
			waitFor(t, tm, "▸ Advise")
		})
		golden.RequireEqual(t, []byte(screen(m)))
	})
}
