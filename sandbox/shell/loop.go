package shell

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// eventLoop is what settles the script's Promises and fires its timers.
// The runtime is single-threaded: only the goroutine running the
// evaluation touches it. A driver call started from async code runs on a
// goroutine of its own and posts its settlement here; the evaluation
// takes it from the queue and resolves the Promise, and goja then runs
// the reactions (the microtasks) before returning, as Node does after
// each macrotask.
type eventLoop struct {
	mu    sync.Mutex
	ready []func() error // settlements posted by finished driver calls
	wake  chan struct{}  // signalled when ready grows

	ops     sync.WaitGroup // driver calls still running
	running int            // driver calls not yet settled

	timers    timerQueue
	timerByID map[int]*timer
	lastTimer int

	// unhandled are rejected Promises without a handler, in order.
	unhandled []*goja.Promise
}

func newEventLoop() *eventLoop {
	return &eventLoop{wake: make(chan struct{}, 1), timerByID: map[int]*timer{}}
}

// post queues a settlement; it may be called from any goroutine.
func (l *eventLoop) post(task func() error) {
	l.mu.Lock()
	l.ready = append(l.ready, task)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *eventLoop) next() func() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ready) == 0 {
		return nil
	}
	task := l.ready[0]
	l.ready[0] = nil
	l.ready = l.ready[1:]
	return task
}

// alive reports whether anything could still settle a Promise: a driver
// call or a timer that keeps the script running.
func (l *eventLoop) alive() bool {
	return l.running > 0 || l.timers.referenced > 0
}

// startOp runs work on its own goroutine and returns a Promise that
// settles on the loop: with done's value, or rejected with what done
// throws or with the driver error work returns.
func (s *Shell) startOp(work func(ctx context.Context) (any, error), done func(any) goja.Value) goja.Value {
	p, resolve, reject := s.vm.NewPromise()
	l := s.loop
	l.running++
	l.ops.Add(1)
	ctx := s.ctx
	go func() {
		defer l.ops.Done()
		v, err := work(ctx)
		l.post(func() error {
			l.running--
			var val goja.Value
			failed := s.guard(func() error {
				if err != nil {
					s.throwDriver(err)
				}
				val = done(v)
				return nil
			})
			if failed == nil {
				return resolve(val)
			}
			if th, ok := failed.(*thrown); ok {
				return reject(th.v)
			}
			return failed
		})
	}()
	obj := s.vm.ToValue(p).(*goja.Object)
	s.markPromise(obj)
	return obj
}

// markPromise marks a Promise of the shell's methods, the ones the
// implicit await of async code waits for.
func (s *Shell) markPromise(o *goja.Object) {
	_ = o.DefineDataPropertySymbol(s.promiseMark, s.vm.ToValue(true), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

// turnLoop runs settlements and due timers until settled reports true;
// with wait, it sleeps for more while anything could still come, else it
// returns once nothing is ready. A nil settled with wait runs the loop
// dry, as Node does before it exits. It returns what stops the script:
// an interrupt, a timer callback's exception, quit(), or a rejection
// nothing handled.
func (s *Shell) turnLoop(ctx context.Context, settled func() bool, wait bool) error {
	l := s.loop
	for {
		if settled != nil && settled() {
			return nil
		}
		if err := s.unhandledRejection(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if task := l.next(); task != nil {
			if err := task(); err != nil {
				return err
			}
			continue
		}
		if t := l.timers.due(time.Now()); t != nil {
			if err := s.fire(t); err != nil {
				return err
			}
			continue
		}
		if !wait || !l.alive() {
			return nil
		}
		var timerC <-chan time.Time
		var tm *time.Timer
		if d, ok := l.timers.nextDue(); ok {
			tm = time.NewTimer(time.Until(d))
			timerC = tm.C
		}
		select {
		case <-l.wake:
		case <-timerC:
		case <-ctx.Done():
		}
		if tm != nil {
			tm.Stop()
		}
	}
}

// awaitValue waits for v if it is a Promise, as mongosh awaits the value
// of a statement before printing it. A Promise that nothing can settle
// any more gives undefined.
func (s *Shell) awaitValue(v goja.Value) (goja.Value, error) {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != promiseType {
		return v, nil
	}
	p := o.Export().(*goja.Promise)
	pending := func() bool { return p.State() == goja.PromiseStatePending }
	if pending() {
		if err := s.turnLoop(s.ctx, func() bool { return !pending() }, true); err != nil {
			return nil, err
		}
	}
	s.loop.forget(p)
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil
	case goja.PromiseStateRejected:
		return nil, &thrown{v: p.Result()}
	}
	return goja.Undefined(), nil
}

// trackRejection is goja's rejection tracker: it keeps the rejected
// Promises that have no handler.
func (l *eventLoop) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	if op == goja.PromiseRejectionReject {
		l.unhandled = append(l.unhandled, p)
		return
	}
	l.forget(p)
}

func (l *eventLoop) forget(p *goja.Promise) {
	for i, u := range l.unhandled {
		if u == p {
			l.unhandled = append(l.unhandled[:i], l.unhandled[i+1:]...)
			return
		}
	}
}

// unhandledRejection is the first rejection nothing handled, which ends
// the script as it ends a mongosh --file script.
func (s *Shell) unhandledRejection() error {
	l := s.loop
	if len(l.unhandled) == 0 {
		return nil
	}
	p := l.unhandled[0]
	l.unhandled = l.unhandled[1:]
	return &thrown{v: p.Result()}
}

// stopLoop ends what the evaluation left running: its driver calls are
// cancelled (cancel cancels their context) and waited for, and its
// timers and settlements dropped, so that no goroutine outlives Eval.
func (s *Shell) stopLoop(cancel func()) {
	cancel()
	s.loop.ops.Wait()
	l := s.loop
	l.mu.Lock()
	l.ready = nil
	l.mu.Unlock()
	select {
	case <-l.wake:
	default:
	}
	l.running = 0
	l.timers = timerQueue{}
	clear(l.timerByID)
	l.unhandled = nil
}

// timer is one setTimeout or setInterval.
type timer struct {
	id    int
	due   time.Time
	seq   int // orders timers due at the same time
	every time.Duration
	fire  goja.Callable
	index int // in the heap; -1 once it is off it
	unref bool
}

// timerQueue is a heap of timers by due time.
type timerQueue struct {
	items      []*timer
	seq        int
	referenced int // timers that keep the script running
}

func (q *timerQueue) Len() int { return len(q.items) }
func (q *timerQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if !a.due.Equal(b.due) {
		return a.due.Before(b.due)
	}
	return a.seq < b.seq
}
func (q *timerQueue) Swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.items[i].index, q.items[j].index = i, j
}
func (q *timerQueue) Push(x any) {
	t := x.(*timer)
	t.index = len(q.items)
	q.items = append(q.items, t)
}
func (q *timerQueue) Pop() any {
	t := q.items[len(q.items)-1]
	q.items[len(q.items)-1] = nil
	q.items = q.items[:len(q.items)-1]
	t.index = -1
	return t
}

func (q *timerQueue) add(t *timer) {
	q.seq++
	t.seq = q.seq
	heap.Push(q, t)
	if !t.unref {
		q.referenced++
	}
}

func (q *timerQueue) remove(t *timer) {
	if t.index >= 0 {
		heap.Remove(q, t.index)
		if !t.unref {
			q.referenced--
		}
	}
}

// due takes the first timer due by now off the queue.
func (q *timerQueue) due(now time.Time) *timer {
	if len(q.items) == 0 || q.items[0].due.After(now) {
		return nil
	}
	t := heap.Pop(q).(*timer)
	if !t.unref {
		q.referenced--
	}
	return t
}

func (q *timerQueue) nextDue() (time.Time, bool) {
	if len(q.items) == 0 {
		return time.Time{}, false
	}
	return q.items[0].due, true
}

// fire runs a due timer's callback and puts an interval back on the
// queue. An exception in the callback is uncaught: it ends the script.
func (s *Shell) fire(t *timer) error {
	l := s.loop
	if t.every > 0 {
		t.due = time.Now().Add(t.every)
		l.timers.add(t)
	} else {
		delete(l.timerByID, t.id)
	}
	if _, err := t.fire(goja.Undefined()); err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			return &thrown{v: ex.Value()}
		}
		return err
	}
	return nil
}
