package lessons

import (
	"context"
	"sync"
	"time"
)

// Turns share one server among the sessions of many learners (a
// classroom's students): at most n of their operations run at once, and
// the others wait for a turn, first come first served.
//
// Why: on a server shared by thirty students, thirty aggregations started
// at the same moment all hold their working memory at once and finish
// together, thirty times later, whereas in turns the first finish first
// and the memory held at any moment is that of n of them. It also keeps
// the shell's heap guard meaningful: the guard watches the whole
// process's heap (goja cannot tell one runtime's allocations from
// another's), so with thirty scripts growing the heap together a
// student's ordinary step could pass the cap and be stopped as if it
// were the runaway.
//
// A turn is given back when the operation ends or after hold, whichever
// is first: an operation that runs longer (a learner's loop running to
// its time limit) goes on outside the turns, so that it delays the
// others by hold at most. Turns is safe for concurrent use.
type Turns struct {
	slots chan struct{}
	hold  time.Duration
	// from, if set, asks another process for the turns (TurnsFrom).
	from func(ctx context.Context) (done func(), err error)
}

// TurnsFrom are turns that another process gives: a classroom student's
// session runs in a process of its own and asks the room's for each turn
// (take waits for one, done gives it back).
func TurnsFrom(take func(ctx context.Context) (done func(), err error)) *Turns {
	return &Turns{from: take}
}

// Take waits for a turn, or for ctx; done gives the turn back. The room
// gives its turns to its students' processes through it.
func (t *Turns) Take(ctx context.Context) (done func(), err error) { return t.take(ctx) }

// NewTurns lets n operations run at once (at least one), each holding
// its turn for at most hold (0 means until it ends).
func NewTurns(n int, hold time.Duration) *Turns {
	return &Turns{slots: make(chan struct{}, max(n, 1)), hold: hold}
}

// take waits for a turn, or for ctx; done gives the turn back, once
// however often it is called. A nil Turns gives turns at once.
func (t *Turns) take(ctx context.Context) (done func(), err error) {
	if t == nil {
		return func() {}, nil
	}
	if t.from != nil {
		return t.from(ctx)
	}
	select {
	case t.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var once sync.Once
	release := func() { once.Do(func() { <-t.slots }) }
	if t.hold > 0 {
		timer := time.AfterFunc(t.hold, release)
		return func() {
			timer.Stop()
			release()
		}, nil
	}
	return release, nil
}
