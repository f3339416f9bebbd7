package tui

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/pages/lesson"
)

const slowLesson = "---\nid: slow\ntitle: Slow\n---\n" +
	"## Data\n```js run\ndb.a.insertMany([{ x: 1 }, { x: 2 }])\n```\n" +
	"## Slow\n```js run\ndb.a.insertOne({ x: 3 }); var until = Date.now() + 60000; while (Date.now() < until) {}\n```\n"

// A learner who leaves a lesson page, or quits, at any point of a run
// (before the run starts, while it runs, after it returned and before
// its message is handled) leaves nothing of the page's session on the
// server: no snapshot of its database and no connection.
func TestLeavingALessonAtEveryPointOfARun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "slow.md"), []byte(slowLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := sandboxtest.Start(t)
	watch := srv.Watch(t)
	defer watch.Quiet(t)
	conns := &sandboxtest.Conns{}
	inserts := make(chan struct{}, 64)
	connect := srv.ConnectVia(conns)
	sb := &lessons.Sandbox{Prefix: "leave_", Label: "embedded sandbox",
		Connect: func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
			return connect(ctx, &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
				m.Started(ctx, e)
				if e.CommandName == "insert" {
					inserts <- struct{}{}
				}
			}})
		}}
	const db = "leave_slow"
	freed := func(t *testing.T, when string) {
		t.Helper()
		if snaps, open := watch.Snapshots(t, db), conns.Open(); len(snaps) > 0 || open > 0 {
			t.Fatalf("%s: the server holds snapshots %v of %s; the page's client holds %d connections", when, snaps, db, open)
		}
	}

	// opened is the app on the lesson's second step, the first step run.
	opened := func(t *testing.T) *Model {
		t.Helper()
		opts := testOptions(t)
		opts.Catalog = catalogOf(t, dir)
		opts.Connect = func(context.Context) (*lessons.Sandbox, error) { return sb, nil }
		m := newTestApp(t, opts)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(m.connectCmd()())
		m.Update(common.OpenLessonMsg{ID: "slow", Step: 0})
		_, cmd := m.Update(press("enter"))
		runUntilRan(t, m, cmd)
		<-inserts
		m.Update(press("n"))
		if len(watch.Snapshots(t, db)) == 0 {
			t.Fatal("the first step saved no snapshot: nothing to leak, nothing tested")
		}
		return m
	}
	// enter presses enter and returns the command of the run it starts.
	enter := func(t *testing.T, m *Model) tea.Cmd {
		t.Helper()
		_, cmd := m.Update(press("enter"))
		if _, _, running := m.running(); !running || cmd == nil {
			t.Fatal("enter started no run")
		}
		return cmd
	}
	leave := map[string]func(m *Model){
		"back to the catalog": func(m *Model) { m.Update(common.BackMsg{}) },
		"quit":                func(m *Model) { m.Update(press("q")); _ = m.Close() },
	}
	for how, out := range leave {
		t.Run(how+" before the run starts", func(t *testing.T) {
			m := opened(t)
			cmd := enter(t, m)
			out(m)
			freed(t, "left before the run started")
			m.Update(ran(t, cmd))
			freed(t, "after the run's command was called")
		})
		t.Run(how+" while it runs", func(t *testing.T) {
			m := opened(t)
			cmd := enter(t, m)
			msgs := make(chan tea.Msg, 1)
			go func() { msgs <- ran(t, cmd) }()
			<-inserts // the second step, in its loop
			out(m)
			freed(t, "left while the run was running")
			select {
			case msg := <-msgs:
				m.Update(msg)
			case <-time.After(10 * time.Second):
				t.Fatal("the run did not end after the page closed")
			}
			freed(t, "after the run's message was handled")
		})
		t.Run(how+" after it returned, before its message is handled", func(t *testing.T) {
			m := opened(t)
			// The first step again: a run that ends at once.
			m.Update(press("p"))
			msg := ran(t, enter(t, m))
			<-inserts
			out(m)
			freed(t, "left before the run's message was handled")
			m.Update(msg)
			freed(t, "after the run's message was handled")
		})
	}
}

// ran runs cmd, the commands of a batch side by side, and returns the
// lesson page's Ran message among what they return.
func ran(t *testing.T, cmd tea.Cmd) tea.Msg {
	msgs := make(chan tea.Msg, 16)
	var launch func(c tea.Cmd)
	launch = func(c tea.Cmd) {
		go func() {
			msg := c()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, sub := range batch {
					if sub != nil {
						launch(sub)
					}
				}
				return
			}
			msgs <- msg
		}()
	}
	launch(cmd)
	for {
		select {
		case msg := <-msgs:
			if _, ok := msg.(lesson.Ran); ok {
				return msg
			}
		case <-time.After(time.Minute):
			t.Fatal("the command returned no Ran")
		}
	}
}

// runUntilRan runs cmd and feeds the model what it leads to until a run
// of the lesson page has ended.
func runUntilRan(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	until(t, m, cmd, func(msg tea.Msg) bool { _, ok := msg.(lesson.Ran); return ok })
}
