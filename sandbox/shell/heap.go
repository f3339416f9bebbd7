package shell

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"
)

// goja has no heap limit, and a script that allocates without end would
// take the whole process down with it. So while an Eval runs, the heap is
// watched through the Go runtime's own statistics, and a script that grows
// it past Options.HeapLimit is stopped like a script that runs out of time.
//
// The heap is the process's, so the figure also counts what runs beside
// the script (another student's shell in a classroom); the cap is a guard
// against runaway scripts, not an accounting.

// HeapLimitError is the cause of an Eval stopped by the heap cap.
type HeapLimitError struct{ Limit int64 }

func (e *HeapLimitError) Error() string {
	return fmt.Sprintf("script used more than %d MB of memory", e.Limit>>20)
}

// heapPoll is how often the heap is looked at: often enough that a
// script allocating as fast as it can overshoots by little.
const heapPoll = 5 * time.Millisecond

// watchHeap cancels stop's context with a *HeapLimitError once the live
// heap has grown by more than limit since the call. Freed garbage does not
// count: when the allocated bytes pass the cap, a collection tells what is
// really live. It returns a function that ends the watch.
func watchHeap(limit int64, stop context.CancelCauseFunc) (end func()) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() (allocated, live int64) {
		metrics.Read(samples)
		return int64(samples[0].Value.Uint64()), int64(samples[1].Value.Uint64())
	}
	baseAllocated, baseLive := read()
	base := max(baseAllocated, baseLive)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(heapPoll)
		defer t.Stop()
		lastGC := time.Time{}
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			allocated, live := read()
			if allocated-base <= limit && live-baseLive <= limit {
				continue
			}
			if time.Since(lastGC) > 100*time.Millisecond {
				// Some of what is allocated may be garbage: only a
				// collection tells. They are kept rare, since a script
				// that churns garbage would otherwise pay for one every
				// poll.
				runtime.GC()
				lastGC = time.Now()
				_, live = read()
			}
			if live-baseLive > limit {
				stop(&HeapLimitError{Limit: limit})
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
