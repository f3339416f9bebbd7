package lesson

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

// runs is the one run a lesson may have in flight (a Runner is not safe
// for concurrent use): its sequence number, label, start and cancel.
type runs struct {
	runner *lessons.Runner

	mu      sync.Mutex
	seq     int
	active  bool
	label   string
	started time.Time
	cancel  context.CancelFunc
	// retired is set when the page closed during a run: the run's own
	// goroutine closes the runner when it ends.
	retired bool
}

// start begins a run unless one is in flight; fn runs in the command's
// goroutine with the run's context and sequence number.
func (r *runs) start(parent context.Context, label string, fn func(ctx context.Context, seq int) tea.Msg) (tea.Cmd, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active {
		return nil, false
	}
	r.seq++
	ctx, cancel := context.WithCancel(parent)
	seq := r.seq
	r.active, r.label, r.started, r.cancel = true, label, time.Now(), cancel
	return func() tea.Msg {
		msg := fn(ctx, seq)
		r.mu.Lock()
		if r.retired {
			_ = r.runner.Close()
		}
		r.mu.Unlock()
		return msg
	}, true
}

// finish ends run seq; false means the message is from an older run.
func (r *runs) finish(seq int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq != r.seq || !r.active {
		return false
	}
	r.active = false
	r.cancel()
	return true
}

// running is the run in flight, if any.
func (r *runs) running() (label string, since time.Time, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.label, r.started, r.active
}

// interrupt cancels the run in flight and reports whether there was one.
func (r *runs) interrupt() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active {
		r.cancel()
	}
	return r.active
}

// close ends the session: now, or when the run in flight ends.
func (r *runs) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active {
		r.retired = true
		r.cancel()
		return
	}
	_ = r.runner.Close()
}
