package lesson

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

// runs is the page's side of its lesson session: the run it asked for
// and has not yet seen the result of, with its label and start for the
// status line. The session itself runs one operation at a time, cancels
// and closes; the page only numbers its requests, so that the result of
// a run the learner left behind is recognized and dropped.
type runs struct {
	session *lessons.Session
	seq     int
	active  bool
	label   string
	started time.Time
}

// start asks the session for req; the command returns the run's result
// as a Ran message. ok is false while a run is in flight.
func (r *runs) start(ctx context.Context, label string, req lessons.Request) (tea.Cmd, bool) {
	if r.active {
		return nil, false
	}
	run, err := r.session.Start(ctx, req)
	if err != nil {
		return nil, false
	}
	r.seq++
	seq := r.seq
	r.active, r.label, r.started = true, label, time.Now()
	return func() tea.Msg {
		res, err := run()
		return Ran{Seq: seq, Result: res, Err: err}
	}, true
}

// finish ends run seq; false means the message is from an older run.
func (r *runs) finish(seq int) bool {
	if seq != r.seq || !r.active {
		return false
	}
	r.active = false
	return true
}

// running is the run in flight, if any.
func (r *runs) running() (label string, since time.Time, ok bool) {
	return r.label, r.started, r.active
}

// interrupt cancels the run in flight and reports whether there was one.
func (r *runs) interrupt() bool {
	if !r.active {
		return false
	}
	r.session.Cancel()
	return true
}
