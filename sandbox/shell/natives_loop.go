package shell

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/dop251/goja"
)

// loopNatives schedule work on the event loop (loop.go), wait, and end
// the script.
func loopNatives() []native {
	return []native{
		{"setTimer", (*Shell).setTimer, false},
		{"clearTimer", (*Shell).clearTimer, false},
		{"refTimer", (*Shell).refTimer, false},
		{"sleep", (*Shell).sleep, false},
		{"quit", (*Shell).quit, false},
		{"blocking", (*Shell).blockingCall, false},
		{"callerAsync", (*Shell).callerAsyncNative, false},
	}
}

// maxTimerDelay is Node's TIMEOUT_MAX: a longer or invalid delay is 1 ms.
const maxTimerDelay = math.MaxInt32

// setTimer(delay, repeat, fire) schedules fire() after delay ms (again
// every delay ms when repeat is set) and returns the timer's id.
func (s *Shell) setTimer(c goja.FunctionCall) goja.Value {
	fire, ok := goja.AssertFunction(c.Argument(2))
	if !ok {
		s.throw("TypeError", `The "callback" argument must be of type function. Received %s`, c.Argument(2).String())
	}
	ms := c.Argument(0).ToFloat()
	if !(ms >= 1 && ms <= maxTimerDelay) {
		ms = 1
	}
	d := time.Duration(ms * float64(time.Millisecond))
	l := s.loop
	l.lastTimer++
	t := &timer{id: l.lastTimer, due: time.Now().Add(d), fire: fire}
	if c.Argument(1).ToBoolean() {
		t.every = d
	}
	l.timers.add(t)
	l.timerByID[t.id] = t
	return s.vm.ToValue(t.id)
}

func (s *Shell) clearTimer(c goja.FunctionCall) goja.Value {
	l := s.loop
	id := int(c.Argument(0).ToInteger())
	if t, ok := l.timerByID[id]; ok {
		l.timers.remove(t)
		delete(l.timerByID, id)
	}
	return goja.Undefined()
}

// refTimer(id, ref) is Timeout.ref()/unref(): an unreferenced timer does
// not keep the script running.
func (s *Shell) refTimer(c goja.FunctionCall) goja.Value {
	l := s.loop
	t, ok := l.timerByID[int(c.Argument(0).ToInteger())]
	if !ok {
		return goja.Undefined()
	}
	if unref := !c.Argument(1).ToBoolean(); unref != t.unref {
		if t.index >= 0 {
			if unref {
				l.timers.referenced--
			} else {
				l.timers.referenced++
			}
		}
		t.unref = unref
	}
	return goja.Undefined()
}

// sleep(ms) returns a Promise that resolves after ms when async code
// calls it. Elsewhere it blocks, and the event loop turns meanwhile, as
// it does while mongosh awaits sleep(): timers fire, driver calls settle.
func (s *Shell) sleep(c goja.FunctionCall) goja.Value {
	d := time.Duration(c.Argument(0).ToInteger()) * time.Millisecond
	if s.callerIsAsync() {
		return s.startOp(func(ctx context.Context) (any, error) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}, func(any) goja.Value { return goja.Undefined() })
	}
	ctx, cancel := context.WithTimeout(s.ctx, d)
	defer cancel()
	err := s.turnLoop(ctx, nil, true)
	if err == nil {
		<-ctx.Done()
	}
	if s.ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return goja.Undefined()
	}
	if err != nil && s.exit == nil {
		// A timer's exception is no exception of sleep(): nothing may
		// catch it.
		s.vm.Interrupt(&uncaught{err})
	}
	return goja.Undefined()
}

// uncaught is an error of the event loop met while a native waited (an
// exception in a timer, a rejection nothing handled): it stops the
// script as an interrupt, which no try/catch sees.
type uncaught struct{ err error }

// exitRequest is what quit() and exit() interrupt the script with.
type exitRequest struct{ code int }

// quit(code) stops the script at once, as mongosh's quit() and exit()
// end the process: nothing after it runs and no error is printed.
func (s *Shell) quit(c goja.FunctionCall) goja.Value {
	code := 0
	if a := c.Argument(0); !isNullish(a) {
		code = int(a.ToInteger())
	}
	s.exit = &exitRequest{code: code}
	s.vm.Interrupt(s.exit)
	return goja.Undefined()
}

func (s *Shell) callerAsyncNative(goja.FunctionCall) goja.Value {
	return s.vm.ToValue(s.callerIsAsync())
}
